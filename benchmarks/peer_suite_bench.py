"""rlvr's verifier on math-verify's own regression suite: where rlvr and that suite's labels differ, and why.

The anchor is math-verify's published test suite (its sdist ships ``tests/``): hundreds of
(gold, prediction, expected) cases collected from real model outputs. The labels are math-verify's
behaviour, so a disagreement is either an rlvr miss or a place where rlvr is stricter on purpose
(it needs a final-answer source instead of grading the last number in prose; percent is strict by
default; ``1000,99`` is a list, not a decimal comma). The cases are read with ``ast`` from the
``@pytest.mark.parametrize`` tables; none of that code is imported or run.

    python benchmarks/peer_suite_bench.py                 # downloads the installed version's sdist
    python benchmarks/peer_suite_bench.py --tests DIR     # a math_verify-X/tests folder you have
"""

from __future__ import annotations

import argparse
import ast
import collections
import json
import subprocess
import sys
import tarfile
import tempfile
from importlib.metadata import version
from pathlib import Path

from anchor import math_verify_equal  # benchmarks/anchor.py: run as a script, benchmarks/ is on sys.path


def fetch_tests(workdir: Path) -> Path:
    """Download and unpack the sdist of the installed math-verify; return its tests folder."""
    release = version("math-verify")
    subprocess.run([sys.executable, "-m", "pip", "download", f"math-verify=={release}", "--no-binary", ":all:",
                    "--no-deps", "-q", "-d", str(workdir)], check=True)
    archive = next(workdir.glob("math_verify-*.tar.gz"))
    with tarfile.open(archive) as tar:
        tar.extractall(workdir, filter="data")
    return next(workdir.glob("math_verify-*/tests"))


class _NamesAsText(ast.NodeTransformer):
    """``Language.CHINESE`` in a table becomes the text ``"CHINESE"``, so the table stays a literal."""

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        return ast.copy_location(ast.Constant(node.attr), node)


def read_cases(tests: Path) -> list[dict]:
    """Every parametrized case whose argument names include gold, pred and an expected label.

    ``tests`` is a folder of ``test_*.py`` files or one test file (lighteval's
    ``tests/unit/metrics/test_extractive_match.py`` has the same table shape as math-verify's).
    """
    cases = []
    files = [tests] if tests.is_file() else sorted(tests.glob("test_*.py"))
    for file in files:
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef):
                continue
            for deco in node.decorator_list:
                if not (isinstance(deco, ast.Call) and getattr(deco.func, "attr", "") == "parametrize" and len(deco.args) >= 2):
                    continue
                try:
                    names = ast.literal_eval(deco.args[0])
                    rows = ast.literal_eval(_NamesAsText().visit(deco.args[1]))
                except (ValueError, TypeError, SyntaxError):  # a table built by code (f-strings, calls): skipped
                    continue
                names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
                label = "expected" if "expected" in names else "result" if "result" in names else None
                if "gold" not in names or "pred" not in names or label is None:
                    continue
                for row in rows:
                    case = dict(zip(names, row))
                    cases.append({"test": f"{file.name}::{node.name}", "gold": str(case["gold"]),
                                  "pred": str(case["pred"]), "expected": bool(case[label])})
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", type=Path, help="math-verify's tests folder or another project's test file "
                                                   "(default: download math-verify's sdist)")
    parser.add_argument("--config", help="VerifierConfig fields as inline JSON, e.g. '{\"list_order\": \"any\"}'")
    args = parser.parse_args()

    from rlvr.verifiers import VerifierConfig, verify_batch

    config = VerifierConfig.from_dict(json.loads(args.config)) if args.config else VerifierConfig()

    with tempfile.TemporaryDirectory() as tmp:
        tests = args.tests or fetch_tests(Path(tmp))
        cases = read_cases(tests)
    verdicts = verify_batch([c["pred"] for c in cases], [c["gold"] for c in cases], config)
    agree = [v.correct == c["expected"] for c, v in zip(cases, verdicts)]
    fp = [(c, v) for c, v in zip(cases, verdicts) if v.correct and not c["expected"]]
    fn = [(c, v) for c, v in zip(cases, verdicts) if not v.correct and c["expected"]]
    suite = args.tests or f"math-verify {version('math-verify')}'s test suite"
    print(f"# rlvr on {suite}: {len(cases)} labelled cases\n")
    print(f"agreement with the suite's labels: {sum(agree)}/{len(cases)} ({100 * sum(agree) / max(1, len(cases)):.1f}%)")
    print(f"rlvr accepts where the suite says no: {len(fp)}; rlvr rejects where the suite says yes: {len(fn)}")
    if args.tests:  # another project's suite: math-verify side by side on the same cases
        anchor = [math_verify_equal(c["gold"], c["pred"]) == c["expected"] for c in cases]
        print(f"math-verify {version('math-verify')} (benchmarks/anchor.py: gold boxed, prediction as given) on the same cases: "
              f"{sum(anchor)}/{len(cases)} ({100 * sum(anchor) / max(1, len(cases)):.1f}%)")
    print("\nrejections by rlvr status (no_answer = no final-answer source in the text):")
    for status, n in collections.Counter(v.status for _c, v in fn).most_common():
        print(f"  {status:20s} {n}")
    print("\nper test table (disagreements / cases):")
    per_test = collections.Counter(c["test"] for c in cases)
    wrong = collections.Counter(c["test"] for c, ok in zip(cases, agree) if not ok)
    for test, n in per_test.items():
        print(f"  {test:60s} {wrong[test]:3d} / {n}")
    print("\nthe disagreements:")
    for c, v in fp + fn:
        print(f"  [{'accepts' if v.correct else 'rejects'}] gold={c['gold'][:60]!r} pred=…{c['pred'][-70:]!r}\n"
              f"      {v.status}: {v.reason[:160]}")


if __name__ == "__main__":
    main()
