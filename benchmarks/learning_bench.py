"""Does the embedded default learn? Runs `rlvr train` on its default recipe (or --recipe) and prints
held-out accuracy after the cold start alone vs after GRPO, reward means, and the wall time.

Target: held-out accuracy after GRPO >= 20 points above after the cold start; whole run <= 10 minutes
on 2 CPU cores.

    python benchmarks/learning_bench.py [--recipe default-cpu] [--set KEY=VALUE ...]
    python benchmarks/learning_bench.py --compare-dynamic-sampling   # the same run with and without DAPO
                                                                     # dynamic sampling, side by side
    python benchmarks/learning_bench.py --compare-expert-iteration [--minutes 30]
        # SmolLM2-135M-Instruct (rlvr models prepare smollm2-135m): expert iteration (sample -> select ->
        # sft -> GRPO, r1-pipeline-smollm2-cpu) vs GRPO alone, the same training-time budget each, both
        # scored on the same held-out problems (greedy) as the base model. Target: >= +10 points for the
        # pipeline, and ahead of GRPO alone.
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
    parser.add_argument("--compare-dynamic-sampling", action="store_true",
                        help="run twice, without and with trainer.dynamic_sampling, and print both")
    parser.add_argument("--compare-expert-iteration", action="store_true",
                        help="SmolLM2: expert iteration vs GRPO alone for the same wall-clock budget")
    parser.add_argument("--minutes", type=float, default=30.0, help="training budget per arm (expert iteration)")
    args = parser.parse_args()
    if args.compare_expert_iteration:
        compare_expert_iteration(args)
        return
    if args.compare_dynamic_sampling:
        compare_dynamic_sampling(args)
        return
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


def compare_dynamic_sampling(args: argparse.Namespace) -> None:
    import json
    from pathlib import Path

    logging.basicConfig(level=logging.WARNING)
    from rlvr.harness.config import load_recipe
    from rlvr.harness.train import run

    rows = []
    for enabled in (False, True):
        out = tempfile.mkdtemp(prefix="rlvr-ds-bench-")
        config = load_recipe(args.recipe, [*args.set, f"output.dir={out}",
                                           f"trainer.dynamic_sampling.enabled={str(enabled).lower()}"])
        start = time.perf_counter()
        summary = run(config)
        minutes = (time.perf_counter() - start) / 60
        metrics = [json.loads(line) for line in (Path(summary.run_dir) / "metrics.jsonl").read_text().splitlines()]
        steps = [m for m in metrics if "reward" in m]
        # the share of groups without signal in the batch actually trained on
        key = "dynamic_sampling/zero_std_share_trained" if enabled else "frac_reward_zero_std"
        zero = sum(m.get(key, 0.0) for m in steps) / max(1, len(steps))
        kept = [m["dynamic_sampling/groups_kept_share"] for m in steps if "dynamic_sampling/groups_kept_share" in m]
        batches = [m["dynamic_sampling/gen_batches"] for m in steps if "dynamic_sampling/gen_batches" in m]
        k = config.eval.samples
        rows.append((enabled, summary, minutes, zero, kept, batches, k))
    print(f"# DAPO dynamic sampling, side by side: {args.recipe} ({rows[0][1].steps} GRPO steps each)\n")
    print("| | off | on |\n|---|---|---|")
    for key in ("pass@1", f"mean@{rows[0][6]}", f"maj@{rows[0][6]}"):
        vals = [(r[1].after or {}).get(key) for r in rows]
        befores = [(r[1].before or {}).get(key) for r in rows]
        if all(v is not None for v in vals):
            print(f"| held-out {key} (cold start -> GRPO) | {befores[0]:.1%} -> {vals[0]:.1%} | {befores[1]:.1%} -> {vals[1]:.1%} |")
    print(f"| wall time (min) | {rows[0][2]:.1f} | {rows[1][2]:.1f} |")
    print(f"| zero-variance share of the groups trained on (mean) | {rows[0][3]:.2f} | {rows[1][3]:.2f} |")
    if rows[1][4]:
        print(f"| groups with signal among those generated | | {sum(rows[1][4]) / len(rows[1][4]):.2f} |")
        print(f"| generation batches per step (mean) | 1 | {sum(rows[1][5]) / len(rows[1][5]):.2f} |")


def compare_expert_iteration(args: argparse.Namespace) -> None:
    """Both arms from the same base model, training time capped at ``--minutes`` each (evaluations
    outside the budget, run identically for the base and both results)."""
    import json
    from pathlib import Path

    logging.basicConfig(level=logging.WARNING)
    from rlvr.harness.config import load_recipe
    from rlvr.harness.evaluate import evaluate
    from rlvr.harness.pipeline import Stage, load_pipeline, run_pipeline, stage_config
    from rlvr.models import load_model
    from rlvr.harness.train import load_run_data, run

    recipe = load_pipeline("r1-pipeline-smollm2-cpu", ["eval.enabled=false", *args.set])
    out = Path(tempfile.mkdtemp(prefix="rlvr-ei-bench-"))
    budget = args.minutes
    eval_config = load_recipe(recipe.base, [f"{k}={json.dumps(v)}" for k, v in recipe.set.items()] + ["eval.enabled=true"])
    _, heldout = load_run_data(eval_config)
    e = eval_config.eval
    max_new = e.max_new_tokens or eval_config.trainer.max_completion_length

    def held_out(model_dir: str) -> float:
        model, tok = load_model(model_dir)
        return evaluate(model, tok, heldout, max_new, 1, e.batch_size).pass_at_1

    base = held_out(eval_config.model.name_or_path)
    # expert iteration: sample -> select -> sft, then GRPO for the rest of the budget
    t0 = time.perf_counter()
    recipe.output = str(out / "expert-iteration")
    grpo_stage = recipe.stages[-1]
    recipe.stages = recipe.stages[:-1]
    ei = run_pipeline(recipe)
    stage_minutes = {s["name"]: s["seconds"] / 60 for s in ei["stages"]}
    left = budget - (time.perf_counter() - t0) / 60
    grpo_stage.set.update({"trainer.max_steps": 1000, "trainer.max_minutes": max(left, 0.5)})
    recipe.stages.append(grpo_stage)
    ei = run_pipeline(recipe)
    ei_minutes = (time.perf_counter() - t0) / 60
    ei_steps = ei["stages"][-1]["summary"]["steps"]
    kept = ei["stages"][1]["report"]["kept"]
    ei_score = held_out(ei["model"])
    # GRPO alone, the same budget
    t0 = time.perf_counter()
    alone = Stage("grpo-alone", "grpo", {**grpo_stage.set, "trainer.max_minutes": budget})
    config = stage_config(recipe, alone, {"output.dir": str(out / "grpo-alone"), "output.save_merged": True})
    summary = run(config)
    grpo_minutes = (time.perf_counter() - t0) / 60
    grpo_score = held_out(str(Path(summary.run_dir) / "merged"))
    print(f"# expert iteration vs GRPO alone: SmolLM2-135M-Instruct, {len(heldout)} held-out problems "
          f"(synthetic arithmetic, test split), greedy pass@1, budget {budget:g} min of training each\n")
    print("| arm | training (min) | what ran | held-out pass@1 | vs base |")
    print("|---|---|---|---|---|")
    print(f"| base model | 0 | - | {base:.1%} | |")
    stages = ", ".join(f"{n} {m:.1f}" for n, m in stage_minutes.items())
    print(f"| expert iteration | {ei_minutes:.1f} | {stages} min, {kept} SFT rows, then {ei_steps} GRPO steps | "
          f"{ei_score:.1%} | {(ei_score - base) * 100:+.1f} pt |")
    print(f"| GRPO alone | {grpo_minutes:.1f} | {summary.steps} GRPO steps | {grpo_score:.1%} | "
          f"{(grpo_score - base) * 100:+.1f} pt |")
    met = ei_score - base >= 0.10 and ei_score > grpo_score
    print(f"\ntarget (>= +10 points and ahead of GRPO alone): {'met' if met else 'NOT met'}; runs in {out}")


if __name__ == "__main__":
    main()
