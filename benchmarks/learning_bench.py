"""Does the embedded default learn? Runs `rlvr train` on its default recipe (or --recipe) and prints
held-out accuracy after the cold start alone vs after GRPO, reward means, and the wall time.

Target: held-out accuracy after GRPO >= 20 points above after the cold start; whole run <= 10 minutes
on 2 CPU cores.

    python benchmarks/learning_bench.py [--recipe default-cpu] [--set KEY=VALUE ...]
"""

from __future__ import annotations

import argparse
import logging
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--recipe", default="default-cpu")
    parser.add_argument("--set", action="append", default=[])
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    from rlvr.harness.config import load_recipe
    from rlvr.harness.train import run

    out = tempfile.mkdtemp(prefix="rlvr-learning-bench-")
    config = load_recipe(args.recipe, [*args.set, f"output.dir={out}"])
    start = time.perf_counter()
    summary = run(config)
    minutes = (time.perf_counter() - start) / 60
    before, after = summary.before or {}, summary.after or {}
    k = config.eval.samples
    print(f"# learning benchmark: {args.recipe}, {summary.steps} GRPO steps, {config.eval.n} held-out problems")
    print(f"{'metric':14s}{'cold start':>12s}{'+ GRPO':>10s}{'delta':>9s}")
    for key in ("pass@1", f"mean@{k}", f"maj@{k}", f"pass@{k}"):
        if key in before and key in after:
            print(f"{key:14s}{before[key]:12.1%}{after[key]:10.1%}{(after[key] - before[key]) * 100:+8.1f}pt")
    print("reward means (last quarter): " + ", ".join(f"{n} {v:.3f}" for n, v in summary.reward_means.items()))
    print(f"wall time: {minutes:.1f} min (target <= 10); run folder: {summary.run_dir}")
    gain = (after.get(f"mean@{k}", after.get("pass@1", 0)) - before.get(f"mean@{k}", before.get("pass@1", 0))) * 100
    print(f"target (>= +20 points held-out): {'met' if gain >= 20 else 'NOT met'} ({gain:+.1f} points)")


if __name__ == "__main__":
    main()
