"""Scoring 100k rows on Ray (local instance) with 1 and 2 actors, side by side with the local path.

Rows: the DAPO-Math-17k stream of ``../shared/data/dapo-math-17k`` (real golds), completions generated
as a GRPO group would be (right, wrong, several answers, no answer, prose), as in verifier_bench (b).
Checks that every path gives the same totals, and prints rows/s.

    python benchmarks/ray_bench.py [--rows 100000]
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _rows(n: int) -> list[dict]:
    from rlvr.datasets import load

    ds = load("dapo-math", path=str(ROOT.parent / "shared" / "data" / "dapo-math-17k" / "dapo_math_17k.parquet"))
    golds = list(ds["answer"])
    rng = random.Random(0)
    rows = []
    for i in range(n):
        gold = golds[i % len(golds)]
        kind = rng.randrange(5)
        other = str(rng.randint(-50, 1000))
        text = {0: f"... so the answer is \\boxed{{{gold}}}.", 1: f"Answer: {other}",
                2: f"\\boxed{{{gold}}} or \\boxed{{{other}}}", 3: "I am not sure.", 4: f"Thus it is {gold}."}[kind]
        rows.append({"id": i, "prompt": "q", "completion": text, "answer": gold})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    args = parser.parse_args()
    import ray

    from rlvr.integrations.ray import rows_dataset, score_dataset
    from rlvr.rewards import RewardSet
    from rlvr.verifiers import clear_cache

    rows = _rows(args.rows)
    config = {"rewards": [{"name": "math_equivalence", "params": {"preset": "dapo"}}]}
    rs = RewardSet.from_config(config)
    rs.explain(completions=["\\boxed{1}"], answer=["1"])  # warm the local pool
    clear_cache()
    t0 = time.perf_counter()
    local = []
    for i in range(0, len(rows), 512):
        chunk = rows[i:i + 512]
        local += [r["total"] for r in rs.explain(prompts=[x["prompt"] for x in chunk],
                                                 completions=[x["completion"] for x in chunk],
                                                 answer=[x["answer"] for x in chunk])]
    local_s = time.perf_counter() - t0
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    print(f"# scoring {len(rows):,} DAPO rows (math_equivalence dapo preset)\n")
    print("| path | seconds | rows/s | same totals as local |\n|---|---|---|---|")
    print(f"| local (one process, 2 sandbox workers) | {local_s:.1f} | {len(rows) / local_s:,.0f} | - |")
    for actors in (1, 2):
        t0 = time.perf_counter()
        out = [r["total"] for r in score_dataset(rows_dataset(rows), config, actors=actors, batch_size=512).iter_rows()]
        s = time.perf_counter() - t0
        print(f"| Ray, {actors} actor(s) (start-up included) | {s:.1f} | {len(rows) / s:,.0f} | {out == local} |")
    ray.shutdown()


if __name__ == "__main__":
    main()
