"""The arguments of each ``rlvr`` subcommand, and the argument types that check them (a positive
integer, a port, seconds). :mod:`rlvr.cli` names these in its command table; nothing here is imported
until the parser is built, and nothing here imports torch or sympy."""

from __future__ import annotations

import argparse

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
