"""``rlvr sample``, ``rlvr select``, ``rlvr sft``, ``rlvr distill`` and ``rlvr pipeline``."""

from __future__ import annotations

import argparse
import json
import logging

import yaml

from rlvr.errors import ConfigError

logger = logging.getLogger(__name__)


def sample_command(args: argparse.Namespace) -> int:
    """N completions per problem, each scored and explained; per-problem pass rates."""
    from rlvr.datasets import load
    from rlvr.harness.commands import loader_options
    from rlvr.harness.sampling import sample

    dataset = None
    if args.dataset:
        dataset = load(args.dataset, path=args.path, template=args.template, on_bad_gold="drop",
                       **loader_options(args))
        if args.problems:
            dataset = dataset.select(range(min(args.problems, len(dataset))))
    if not args.completions and not (args.model and dataset is not None):
        raise ConfigError("rlvr sample needs --model and --dataset (plus --path for a local copy), or --completions "
                          "FILE of completions made elsewhere (with --dataset to attach their prompts)")
    summary = sample(args.out, model=args.model, dataset=dataset, completions_file=args.completions,
                     rewards=args.rewards, n=args.n, max_new_tokens=args.max_new_tokens, temperature=args.temperature,
                     batch_size=args.batch_size, engine=args.engine)
    curve = ", ".join(f"pass@{k} {v:.1%}" for k, v in summary.pass_at_k.items())
    print(f"sampled {summary.problems} problems x {summary.samples_per_problem} in {summary.seconds:.0f}s: {curve}")
    print(f"solved by every sample: {summary.solved_all}, by none: {summary.solved_none}")
    print(f"wrote {args.out}/samples.jsonl, problems.jsonl, pass_at_k.png, difficulty.png")
    return 0


def select_command(args: argparse.Namespace) -> int:
    """Rejection sampling: verified samples -> an SFT set, with the reasons for every drop."""
    from rlvr.harness.selection import SelectOptions, select_file

    tokenizer = None
    if args.max_tokens is not None:
        if not args.tokenizer:
            raise ConfigError("--max-tokens needs --tokenizer (the model's folder or id); or use --max-chars")
        from transformers import AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained(args.tokenizer)
    options = SelectOptions(k=args.k, drop_truncated=not args.keep_truncated, require_correct=not args.keep_unverified,
                            min_total=args.min_total,
                            min_chars=args.min_chars, max_chars=args.max_chars, max_tokens=args.max_tokens,
                            dedupe=not args.no_dedupe, shortest_correct=args.shortest_correct)
    report = select_file(args.samples, args.out, options, tokenizer)
    for line in report.lines():
        print(line)
    print(f"wrote {args.out} (report: {args.out.rsplit('.', 1)[0]}.report.json)")
    return 0


def _stage_config(args: argparse.Namespace, extra: dict[str, object]) -> object:
    from rlvr.harness.commands import load_with_command_plugins

    overrides = list(args.set) + [f"{k}={json.dumps(v)}" for k, v in extra.items() if v is not None]
    return load_with_command_plugins(args.recipe, overrides, check_hardware=not args.dry_run)


def _print_sft(summary: object, what: str) -> None:
    print(f"{what}: {summary.run_dir} ({summary.steps} steps on {summary.rows} rows, {summary.seconds:.0f}s; "
          f"loss {summary.loss_first} -> {summary.loss_last})")
    before, after = (summary.before or {}).get("pass@1"), (summary.after or {}).get("pass@1")
    if before is not None and after is not None:
        print(f"held-out accuracy (pass@1): before {before:.1%} -> after {after:.1%}")
    print(f"model: {summary.model_dir}")


def sft_command(args: argparse.Namespace) -> int:
    """Supervised fine-tuning (completion-only loss) with rlvr train's run-folder conventions."""
    from rlvr.harness.config import to_dict
    from rlvr.harness.sft import run_sft

    config = _stage_config(args, {"sft.data": args.data, "model.name_or_path": args.model, "output.dir": args.out})
    if args.dry_run:
        print(yaml.safe_dump({k: to_dict(config)[k] for k in ("model", "data", "sft", "eval", "output")},
                             sort_keys=False).rstrip())
        return 0
    _print_sft(run_sft(config, resume=args.resume), "sft")
    return 0


def distill_command(args: argparse.Namespace) -> int:
    """Logit distillation (TRL's GKD) of a teacher into a student that shares its tokenizer."""
    from rlvr.harness.config import to_dict
    from rlvr.harness.sft import run_distill

    config = _stage_config(args, {"sft.data": args.data, "model.name_or_path": args.student,
                                  "distill.teacher": args.teacher, "output.dir": args.out})
    if args.dry_run:
        print(yaml.safe_dump({k: to_dict(config)[k] for k in ("model", "distill", "sft", "output")},
                             sort_keys=False).rstrip())
        return 0
    _print_sft(run_distill(config, resume=args.resume), "distill")
    return 0


def pipeline_command(args: argparse.Namespace) -> int:
    """Run the stages of a pipeline recipe in order, each from the previous one's output."""
    from rlvr.harness.pipeline import load_pipeline, run_pipeline, stage_config

    recipe = load_pipeline(args.recipe, args.set)
    if args.dry_run:
        for i, stage in enumerate(recipe.stages):
            stage_config(recipe, stage, {}, check_hardware=False)  # every stage must resolve against the base
            print(f"{i + 1:02d}-{stage.name}: {stage.type} {json.dumps(stage.set) if stage.set else ''}".rstrip())
        print(f"output: {recipe.output} (base recipe: {recipe.base})")
        return 0
    result = run_pipeline(recipe, from_stage=args.from_stage)
    for record in result["stages"]:
        after = record.get("summary", {}).get("after") if isinstance(record.get("summary"), dict) else None
        extra = f", held-out pass@1 {after['pass@1']:.1%}" if after and "pass@1" in after else ""
        extra += f", kept {record['report']['kept']} of {record['report']['samples']}" if record.get("report") else ""
        print(f"{record['name']} ({record['type']}): {record.get('seconds', 0):.0f}s{extra}")
    print(f"pipeline: {result['output']} ({result['seconds']:.0f}s); final model: {result['model']}")
    return 0
