"""rlvr vs math-verify on a false-negative benchmark of final answers: recall at precision.

Material: TinyV's HardVerify-Math (``benchmarks/HardVerify-Math.json`` in github.com/uw-nsl/TinyV; 250
questions, each with a gold answer, a right answer a rule verifier tends to refuse (``fn_output``) and a
wrong one (``tn_output``)). The file is not shipped here: pass its path. Each answer is graded as the whole
completion (``bare``, as the benchmark states it) and wrapped in ``\\boxed{}`` (``boxed``, as a model would
end), by rlvr strict and lenient and by math-verify through ``benchmarks/anchor.py``, in one run.

Recall is the share of right answers paid; precision the share of paid answers that are right. Target for
rlvr: recall >= 70% at precision >= 99%. One "wrong" answer of the data is the gold's set in another order
(id 4's ``tn_output``): a verifier that reads sets pays it, so one wrong answer paid is the floor.

    python benchmarks/false_negative_bench.py PATH/HardVerify-Math.json [--show]
"""

from __future__ import annotations

import argparse
import collections
import json
import logging
import time
from pathlib import Path

from anchor import math_verify_equal


def _wrap(answer: str, form: str) -> str:
    return answer if form == "bare" else "\\boxed{" + answer + "}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path", type=Path, help="HardVerify-Math.json from github.com/uw-nsl/TinyV (benchmarks/)")
    parser.add_argument("--show", action="store_true", help="print each right answer rlvr strict refuses")
    args = parser.parse_args()
    logging.getLogger("math_verify").setLevel(logging.CRITICAL)
    from rlvr.verifiers import VerifierConfig, verify_batch

    rows = json.loads(args.path.read_text())
    golds = [r["ground_truth"] for r in rows] * 2
    labels = [True] * len(rows) + [False] * len(rows)
    print(f"# false-negative benchmark: {len(rows)} right and {len(rows)} wrong final answers ({args.path.name})")
    print("| form | verifier | recall | paid wrong | precision | seconds |")
    print("|---|---|---|---|---|---|")
    refused: dict[str, list] = {}
    for form in ("bare", "boxed"):
        texts = [_wrap(r["fn_output"], form) for r in rows] + [_wrap(r["tn_output"], form) for r in rows]
        results = {}
        for policy in ("strict", "lenient"):
            t0 = time.perf_counter()
            verdicts = verify_batch(texts, golds, VerifierConfig(policy=policy))
            results[f"rlvr {policy}"] = ([v.correct for v in verdicts], time.perf_counter() - t0)
            if policy == "strict":
                refused[form] = [(rows[i], v) for i, v in enumerate(verdicts[:len(rows)]) if not v.correct]
        t0 = time.perf_counter()
        results["math-verify"] = ([math_verify_equal(g, t) for g, t in zip(golds, texts)], time.perf_counter() - t0)
        for name, (paid, seconds) in results.items():
            right = sum(1 for y, p in zip(labels, paid) if y and p)
            wrong = sum(1 for y, p in zip(labels, paid) if not y and p)
            print(f"| {form} | {name} | {right}/{len(rows)} = {right / len(rows):.1%} | {wrong} | "
                  f"{right / max(1, right + wrong):.1%} | {seconds:.1f} |")
    print("\nright answers rlvr strict refuses (bare), by rule:")
    for rule, n in collections.Counter(v.rule for _r, v in refused["bare"]).most_common():
        print(f"  {n:3d}  {rule}")
    if args.show:
        for row, v in refused["bare"]:
            print(f"- gold={row['ground_truth']!r:.60} answer={row['fn_output']!r:.80} -> {v.rule}: {v.reason[:100]}")


if __name__ == "__main__":
    main()
