"""``rlvr grm eval`` and ``rlvr grm train``: the command-line side of :mod:`rlvr.harness.grm` and
:mod:`rlvr.harness.grm_train`."""

from __future__ import annotations

import argparse
import logging
import sys

logger = logging.getLogger(__name__)


def _backend(args: argparse.Namespace) -> object:
    from rlvr.rewards.judges import make_backend

    options: dict = {}
    if args.backend == "transformers":
        options = {"batch_size": args.batch_size}
    elif args.backend == "http":
        options = {"max_concurrency": args.max_concurrency, "score_endpoint": args.score_endpoint,
                   "tokenizer": args.tokenizer, "constrained": args.constrained}
    return make_backend(args.backend, args.judge_model, url=args.url, **options)


def _scoring(args: argparse.Namespace) -> dict:
    return {"score_method": args.score_method, "min_mass": args.min_mass}


def _progress(message: str) -> None:
    print(f"  {message}", file=sys.stderr, flush=True)


def eval_command(args: argparse.Namespace) -> int:
    """Pairwise accuracy of a judge: greedy, voting@4/@k, MetaRM@k, no principles, beside a BT RM."""
    from rlvr.files import check_output
    from rlvr.harness.grm import bt_accuracy, evaluate_judge, format_table, judge_pairs, read_pairs, write_json
    from rlvr.rewards.judges import EngineSettings, JudgePrompt, VerdictCache

    if args.out:
        check_output(args.out, [args.pairs], args.force)
    pairs = read_pairs(args.pairs, args.n)
    cache = VerdictCache(args.cache_dir) if args.cache_dir else VerdictCache()
    backend = _backend(args)
    chars = args.max_response_chars
    greedy = judge_pairs(backend, pairs, JudgePrompt("grm", max_response_chars=chars),
                         EngineSettings(k=1, temperature=0.0, max_new_tokens=args.max_new_tokens, **_scoring(args)), cache, args.reference,
                         "greedy", progress=_progress)
    sampled = bare = None
    if args.k > 1:
        settings = EngineSettings(k=args.k, temperature=args.temperature, max_new_tokens=args.max_new_tokens,
                                  **_scoring(args))
        sampled = judge_pairs(backend, pairs, JudgePrompt("grm", max_response_chars=chars), settings, cache,
                              args.reference, f"voting@{args.k}", progress=_progress)
        bare = judge_pairs(backend, pairs, JudgePrompt("grm", generate_principles=False, max_response_chars=chars),
                           settings, cache, args.reference, "no principles", progress=_progress)
    meta = None
    if args.meta_rm:
        from rlvr.rewards.judges.metarm import MetaRM

        meta = MetaRM(args.meta_rm)
    rows = evaluate_judge(greedy, sampled, bare, meta, k=args.k, k_meta=min(args.k_meta, args.k))
    if args.bt_model:
        rows = {"Bradley-Terry RM": bt_accuracy(args.bt_model, pairs, args.reference), **rows}
    column = f"{args.judge_model}, {'with reference' if args.reference else 'reference-free'}"
    print(format_table({column: rows}))
    if args.out:
        write_json(args.out, {"judge": args.judge_model, "reference": args.reference, "rows": rows})
    return 0


def train_command(args: argparse.Namespace) -> int:
    """The meta RM and SPCT's rejective fine-tuning and rule-based RL on pairs with a known better response."""
    from rlvr.errors import ConfigError
    from rlvr.harness.grm import read_pairs
    from rlvr.harness.grm_train import STAGES, spct_train
    from rlvr.rewards.judges import EngineSettings, JudgePrompt, VerdictCache

    stages = tuple(args.stage or STAGES)
    if not args.judge_model:
        raise ConfigError("rlvr grm train needs --judge-model: the local judge to sample from and train")
    result = spct_train(args.judge_model, read_pairs(args.pairs, args.n), args.out,
                        JudgePrompt("grm", max_response_chars=args.max_response_chars),
                        EngineSettings(k=args.k, temperature=args.temperature, max_new_tokens=args.max_new_tokens,
                                       **_scoring(args)),
                        VerdictCache(args.cache_dir) if args.cache_dir else VerdictCache(), k_meta=args.k_meta,
                        stages=stages, progress=_progress, batch_size=args.batch_size, rft_steps=args.rft_steps,
                        rl_steps=args.rl_steps)
    print(result.summary())
    return 0
