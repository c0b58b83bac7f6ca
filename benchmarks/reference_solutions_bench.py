"""Reference solutions graded against their own answers: rlvr vs math-verify on text neither wrote.

Every worked solution a data set's authors wrote is, by construction, a right answer to its own
gold: a verifier that rejects one has a false negative on real mathematical writing (units after
a box, ``\\approx \\boxed{…}``, a degree sign, Minerva's physics answers). The sets are read from
``../shared/data`` (MATH-500 ``solution``/``answer``, AIME 2024 ``solution``/``answer``, GSM8K's
``####`` answers, and the same solutions with that line cut off, Minerva-Math solutions against their own last
box); a missing set is skipped.

    python benchmarks/reference_solutions_bench.py [--shared ../shared/data] [--show 20]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from anchor import math_verify_equal  # benchmarks/anchor.py: run as a script, benchmarks/ is on sys.path

ROOT = Path(__file__).resolve().parents[1]


def _rows(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _last_box(text: str) -> str | None:
    """The content of the last ``\\boxed{…}`` (balanced braces), for sets whose gold is the solution's box."""
    start = text.rfind("\\boxed{")
    if start < 0:
        return None
    depth, i = 0, start + len("\\boxed")
    for j in range(i, len(text)):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        if depth == 0:
            return text[i + 1:j]
    return None


def load_sets(shared: Path) -> dict[str, list[tuple[str, str]]]:
    """(solution, gold) pairs per set present under ``shared``."""
    sets: dict[str, list[tuple[str, str]]] = {}
    if (p := shared / "math-500" / "test_ori.jsonl").exists():
        sets["MATH-500"] = [(r["solution"], r["answer"]) for r in _rows(p)]
    if (p := shared / "aime-2024" / "test.jsonl").exists():
        sets["AIME 2024"] = [(r["solution"], str(r["answer"])) for r in _rows(p) if r.get("solution")]
    if (p := shared / "gsm8k-test" / "test.jsonl").exists():
        sets["GSM8K"] = [(r["answer"], r["answer"].split("####")[-1].strip()) for r in _rows(p)]
        # the same solutions without their "#### N" line: prose endings with calculator annotations and dollar
        # signs, as chat models without an answer format write them
        sets["GSM8K without its #### line"] = [(r["answer"].split("####")[0].strip(), r["answer"].split("####")[-1].strip())
                                               for r in _rows(p)]
    if (p := shared / "minerva-math" / "test.jsonl").exists():
        pairs = [(r["solution"], _last_box(r["solution"])) for r in _rows(p)]
        sets["Minerva-Math (gold = its last box)"] = [(s, g) for s, g in pairs if g]
    return sets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--show", type=int, default=10, help="rejected solutions to print per verifier and set")
    args = parser.parse_args()

    from rlvr.verifiers import verify, verify_batch

    verify("\\boxed{(x+1)^2}", "x^2+2x+1")  # start the sandbox pool and import math-verify before timing
    math_verify_equal("1", "$1$")
    sets = load_sets(args.shared)
    if not sets:
        raise SystemExit(f"no data sets under {args.shared}")
    print("# reference solutions graded against their own gold (every one is right)\n")
    print("| set | n | rlvr accepts | math-verify accepts | rlvr s | math-verify s |")
    print("|---|---|---|---|---|---|")
    misses: list[tuple[str, str, str, str]] = []
    for name, pairs in sets.items():
        t0 = time.perf_counter()
        verdicts = verify_batch([s for s, _ in pairs], [g for _, g in pairs])
        t_rlvr = time.perf_counter() - t0
        t0 = time.perf_counter()
        anchor = [math_verify_equal(g, s) for s, g in pairs]
        t_mv = time.perf_counter() - t0
        ok = sum(v.correct for v in verdicts)
        print(f"| {name} | {len(pairs)} | {ok} ({100 * ok / len(pairs):.1f}%) | {sum(anchor)} "
              f"({100 * sum(anchor) / len(pairs):.1f}%) | {t_rlvr:.1f} | {t_mv:.1f} |")
        shown = 0
        for (solution, gold), v in zip(pairs, verdicts):
            if not v.correct and shown < args.show:
                misses.append((name, gold, v.status, v.reason))
                shown += 1
    if misses:
        print("\nrejected by rlvr:")
        for name, gold, status, reason in misses:
            reason = " ".join(reason.split())
            print(f"- {name}: gold {gold[:50]!r}: {status}: {reason[:160]}")


if __name__ == "__main__":
    main()
