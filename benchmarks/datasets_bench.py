"""Load the real math sets from ../shared/data and print rows, duplicates removed, unparseable golds,
load time and peak memory (Python allocations, tracemalloc) per set.

    python benchmarks/datasets_bench.py [--shared ../shared/data] [--template r1]
"""

from __future__ import annotations

import argparse
import logging
import time
import tracemalloc
from pathlib import Path

SETS = [("dapo-math", "dapo-math-17k/dapo_math_17k.parquet"), ("math-500", "math-500/test_ori.jsonl"),
        ("aime-2024", "aime-2024/test.jsonl"), ("aime-2025", "aime-2025/test.jsonl"), ("amc-2023", "amc-2023/test.jsonl"),
        ("gsm8k", "gsm8k-test/test.jsonl"), ("minerva-math", "minerva-math/test.jsonl"),
        ("olympiadbench", "olympiadbench/test.jsonl")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared" / "data")
    parser.add_argument("--template", default="r1")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    from rlvr.datasets import load_with_report
    from rlvr.verifiers import verify

    verify("\\boxed{(x+1)^2}", "x^2+2x+1")  # start the sandbox before timing
    print(f"{'set':15s}{'rows':>8s}{'dupes':>7s}{'bad golds':>11s}{'load s':>8s}{'peak MB':>9s}  examples of bad golds")
    for name, rel in SETS:
        path = args.shared / rel
        if not path.exists():
            print(f"{name:15s} skipped: {path} not found")
            continue
        tracemalloc.start()
        start = time.perf_counter()
        ds, report = load_with_report(name, path=path, template=args.template, on_bad_gold="keep")
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        examples = "; ".join(f"{gold!r}" for _rid, gold, _why in report.bad[:2])
        print(f"{name:15s}{len(ds):8d}{report.duplicates_removed:7d}{len(report.bad):11d}{seconds:8.2f}{peak:9.1f}  {examples}")


if __name__ == "__main__":
    main()
