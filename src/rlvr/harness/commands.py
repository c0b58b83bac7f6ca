"""``rlvr train``, ``rlvr eval`` and ``rlvr models prepare``."""

from __future__ import annotations

import argparse
import json
import logging
import sys

import yaml

from rlvr.models import check_model_path

logger = logging.getLogger(__name__)


def train_command(args: argparse.Namespace) -> int:
    """Run (or with --dry-run, describe) a GRPO fine-tune."""
    from rlvr.harness.config import to_dict
    from rlvr.harness.train import plan, run

    if getattr(args, "help_config", None) is not None:
        return help_config(args.help_config)
    overrides = list(args.set) + ([f"backend={args.backend}"] if getattr(args, "backend", None) else [])
    config = load_with_command_plugins(args.recipe, overrides, check_hardware=not args.dry_run)
    if args.dry_run:
        print("# resolved config (trainer: the fields that differ from TRL's defaults; all of them: "
              "rlvr train --help-config trainer)")
        print(yaml.safe_dump(to_dict(config, compact=True), sort_keys=False).rstrip())
        print("# plan (nothing loaded)")
        print(yaml.safe_dump(plan(config), sort_keys=False).rstrip())
        return 0
    summary = run(config, resume=args.resume)
    from rlvr.harness.distributed import process_state

    if not process_state().is_main_process:
        return 0  # rank 0 reports for the whole run
    from rlvr.harness.evaluate import summary_table

    before = (summary.before or {}).get("pass@1")
    after = (summary.after or {}).get("pass@1")
    print(f"run: {summary.run_dir} ({summary.backend}, {summary.steps} GRPO steps, {summary.seconds:.0f}s)")
    if before is not None and after is not None:
        print(f"held-out accuracy (pass@1): before GRPO {before:.1%} -> after GRPO {after:.1%}")
    table = summary_table({"before": summary.before, "after": summary.after})
    if table:
        print(table)
    if summary.reward_means:
        print("reward means (last quarter of steps): " + ", ".join(f"{k} {v:.3f}" for k, v in summary.reward_means.items()))
    if summary.no_signal:
        print(f"warning: {summary.no_signal}")
    if summary.truncated:
        print(f"warning: {summary.truncated}")
    if config.note:
        print(f"note: {' '.join(config.note.split())}")
    print(f"metrics: {summary.run_dir}/metrics.jsonl, curve: {summary.run_dir}/reward_curve.png")
    print(f"report: {summary.run_dir}/report.html (rlvr report RUN_DIR [RUN_DIR ...] overlays runs)")
    return 0


def load_with_command_plugins(recipe: object, overrides: list[str], check_hardware: bool) -> object:
    """``load_recipe``, with the plugins the command line imported before it (``--import``, the
    project's ``[tool.rlvr] plugins``) added to the config's ``plugins`` (resolved): what ``--dry-run``
    shows and the run's config.yaml records is every plugin the run imported, not only the recipe's."""
    from rlvr.harness.config import load_recipe
    from rlvr.plugins import imported_plugins

    before = imported_plugins()
    config = load_recipe(recipe, overrides, check_hardware=check_hardware)
    config.plugins = [*config.plugins, *(spec for spec in before if spec not in config.plugins)]
    return config


def help_config(section: str) -> int:
    """``rlvr train --help-config [SECTION]``: every config field with its type, default and help."""
    import textwrap

    from rlvr.harness.config import config_fields

    for name, doc in config_fields(section or None).items():
        origin = ""
        if doc.get("source") == "TRL":
            origin = " (TRL"
            if "rlvr_reason" in doc:
                origin += f"; rlvr's default, TRL's is {doc['trl_default']!r}: {doc['rlvr_reason']}"
            origin += ")"
        elif doc.get("source") == "rlvr":
            origin = " (rlvr)"
        choices = f"; one of {list(doc['choices'])}" if doc.get("choices") and len(doc["choices"]) <= 12 else ""
        print(f"{name}: {doc['type']} = {doc['default']!r}{choices}{origin}")
        if doc["help"]:
            print(textwrap.fill(doc["help"], width=100, initial_indent="    ", subsequent_indent="    "))
    return 0


def eval_command(args: argparse.Namespace) -> int:
    """Evaluate a model (full or adapter folder) on an eval set with rlvr's verifier."""
    from pathlib import Path

    from transformers import AutoModelForCausalLM, AutoTokenizer

    from rlvr.datasets import load
    from rlvr.errors import ConfigError
    from rlvr.files import check_output
    from rlvr.harness.evaluate import evaluate

    if getattr(args, "completions", None):
        return _eval_completions(args)
    if not args.model or not args.dataset:
        raise ConfigError("rlvr eval needs --model PATH and --dataset NAME (plus --path for a local copy), "
                          "or --completions FILE to score completions made elsewhere")
    out = args.out or f"eval-{args.dataset.replace('/', '_')}.jsonl"
    check_output(out, [args.path], getattr(args, "force", False))
    model_path = Path(args.model).expanduser()
    check_model_path(args.model, "--model")
    if getattr(args, "engine", "hf") == "vllm":
        return _eval_vllm(args, out)
    if (model_path / "adapter_config.json").is_file():
        from peft import AutoPeftModelForCausalLM

        model = AutoPeftModelForCausalLM.from_pretrained(model_path)
    else:
        model = AutoModelForCausalLM.from_pretrained(model_path)
    tokenizer = AutoTokenizer.from_pretrained(model_path)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    ds = load(args.dataset, path=args.path, template=args.template, on_bad_gold="drop", **loader_options(args))
    if args.n:
        ds = ds.select(range(min(args.n, len(ds))))
    from rlvr.harness.distributed import process_state

    dist = process_state()
    if dist.num_processes > 1:  # each process generates for its shard; rank 0 verifies and writes everything
        from accelerate.utils import gather_object

        from rlvr.harness.evaluate import generate, score_completions, write_rows

        mine = list(range(dist.process_index, len(ds), dist.num_processes))
        shard = ds.select(mine)
        completions = generate(model, tokenizer, list(shard["prompt"]), args.max_new_tokens, args.batch_size,
                               args.samples)
        gathered = gather_object([(i, ds[i].get("id", i), ds[i]["answer"], c) for i, c in zip(mine, completions)])
        if not dist.is_main_process:
            return 0
        gathered = sorted(gathered, key=lambda t: t[0])
        result = score_completions([g[2] for g in gathered], [g[3] for g in gathered], [g[1] for g in gathered])
        write_rows(result.rows, out)
    else:
        result = evaluate(model, tokenizer, ds, args.max_new_tokens, samples=args.samples, batch_size=args.batch_size,
                          out_path=out)
    print(json.dumps(result.summary(), indent=2), file=sys.stderr if out == "-" else sys.stdout)
    if out != "-":
        print(f"per-problem results: {out}")
    return 0


def _eval_vllm(args: argparse.Namespace, out: str) -> int:
    """``rlvr eval --engine vllm``: generation with vLLM, then the same scoring as every other path."""
    from pathlib import Path

    from transformers import AutoTokenizer

    from rlvr.datasets import load
    from rlvr.errors import ConfigError
    from rlvr.harness.evaluate import generate_vllm, score_completions, write_rows

    if (Path(args.model).expanduser() / "adapter_config.json").is_file():
        raise ConfigError(f"--engine vllm needs a merged model, but {args.model} is a LoRA adapter: train with "
                          "output.save_merged=true and pass RUN/merged")
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    ds = load(args.dataset, path=args.path, template=args.template, on_bad_gold="drop", **loader_options(args))
    if args.n:
        ds = ds.select(range(min(args.n, len(ds))))
    completions = generate_vllm(args.model, tokenizer, list(ds["prompt"]), args.max_new_tokens, args.samples)
    result = score_completions(list(ds["answer"]), completions, [ds[i].get("id", i) for i in range(len(ds))])
    write_rows(result.rows, out)
    print(json.dumps(result.summary(), indent=2), file=sys.stderr if out == "-" else sys.stdout)
    if out != "-":
        print(f"per-problem results: {out}")
    return 0


def _eval_completions(args: argparse.Namespace) -> int:
    """``rlvr eval --completions FILE``: pass@k with intervals for any generator's samples."""
    from rlvr.files import check_output
    from rlvr.harness.evaluate import read_completions, score_completions, write_rows

    out = args.out or (None if args.completions == "-" else str(args.completions).rsplit(".", 1)[0] + ".scored.jsonl")
    check_output(out, [args.completions], getattr(args, "force", False))
    ids, golds, groups = read_completions(args.completions)
    if args.n:
        ids, golds, groups = ids[:args.n], golds[:args.n], groups[:args.n]
    result = score_completions(golds, groups, ids)
    if out:
        write_rows(result.rows, out)
    print(json.dumps(result.summary(), indent=2), file=sys.stderr if out == "-" else sys.stdout)
    if out and out != "-":
        print(f"per-problem results: {out}")
    return 0


def loader_options(args: argparse.Namespace) -> dict:
    """``--option KEY=VALUE`` pairs (values read as YAML: numbers, booleans, lists) for a data loader."""
    from rlvr.harness.config import apply_overrides

    options: dict = {}
    apply_overrides(options, list(getattr(args, "option", None) or []))
    return options


def rm_train_command(args: argparse.Namespace) -> int:
    """Train a Bradley-Terry reward model from a recipe and print its held-out figures."""
    from rlvr.harness.rm import load_rm_recipe, train_reward_model

    recipe = load_rm_recipe(args.recipe, args.set)
    metrics = train_reward_model(recipe)
    print(json.dumps(metrics, indent=2, default=float))
    print(f"saved to {recipe.output.dir} (use it as a reward: name reward_model, params.model={recipe.output.dir})")
    return 0


def rm_eval_command(args: argparse.Namespace) -> int:
    """Pairwise accuracy and margins of a saved reward model on preference pairs."""
    from rlvr.datasets import load_preferences, synthetic_pairs
    from rlvr.harness.rm import evaluate_pairs

    check_model_path(args.model, "--model", must_exist=True)
    if args.path:
        pairs = load_preferences(args.path)[0].to_list()
    else:
        pairs = synthetic_pairs(n=args.n, level=[1, 2], split="test")
    print(json.dumps(evaluate_pairs(args.model, pairs[: args.n]), indent=2, default=float))
    return 0


def lint_command(args: argparse.Namespace) -> int:
    """Check that a recipe's prompts, reward extractors and chat template agree; exit 1 on findings."""
    from rich.console import Console
    from rich.markup import escape

    from rlvr.harness.lint import lint_recipe

    findings = lint_recipe(args.recipe)
    console = Console()
    if not findings:
        console.print(f"{args.recipe}: prompts, rewards and chat template agree")
        return 0
    for f in findings:
        console.print(escape(f"[{f.code}] {f.message}\n    fix: {f.fix}"))
    console.print(f"{len(findings)} finding(s) in {args.recipe}")
    if any(f.severity == "error" for f in findings):
        return 1
    return 0


def report_command(args: argparse.Namespace) -> int:
    """Write the HTML report of one or more run folders."""
    from rlvr.files import check_output
    from rlvr.harness.report import write_report

    if args.out:
        check_output(args.out, [], force=True)  # a report is regenerated from the run: overwriting it loses nothing
    path = write_report(args.run_dirs, args.out)
    print(f"report: {path}")
    return 0
