"""verl's custom reward function interface, backed by an rlvr RewardSet.

Point verl at this module (``reward.custom_reward_function.path: pkg://rlvr.integrations.verl``, or
the file path of this module for a verl that takes only files; ``name: compute_score``, or
``compute_score_batch`` for the batch reward managers) and name the RewardSet in
``reward.custom_reward_function.reward_kwargs: {rewards: rewards.yaml}`` (or the ``RLVR_REWARDS``
environment variable; with neither, ``math_equivalence`` scores). ``verl_manager.RlvrRewardManager``
is the reward manager that also hands rlvr the prompt and the response's token ids.

verl gives no prompt to a reward; the prompt and any dataset column come from ``extra_info``. verl
accepts neither ``None`` nor an exception from a reward: a row where every reward abstains scores
``ABSTAIN_SCORE`` (0.0) and is flagged, and any failure becomes that score with ``rlvr_error`` = 1.
Every call returns the same keys, so verl can average them as metrics. The RewardSet (and its
verifier pool) is built lazily in whichever process calls first: Ray actors and thread pools alike.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from typing import Any

logger = logging.getLogger(__name__)

__all__ = ["compute_score", "compute_score_batch", "compute_score_async", "ABSTAIN_SCORE", "overlong_entry"]

ABSTAIN_SCORE = 0.0  # verl needs a number: a row no reward has an opinion on scores this
_SETS: dict[str, Any] = {}
_LOCK = threading.Lock()


def overlong_entry(overlong_buffer_cfg: Any, max_resp_len: int | None) -> dict[str, Any] | None:
    """The RewardSet entry that gives the same numbers as verl's DAPO reward manager's overlong buffer
    (``reward.reward_kwargs.overlong_buffer_cfg`` {enable, len, penalty_factor} and ``max_resp_len``):
    verl adds ``min(-(length - (max_resp_len - len)) / len * penalty_factor, 0)``, which is rlvr's
    ``soft_overlong`` in tokens with weight ``penalty_factor``. None when the buffer is off. The two
    differ only past ``max_resp_len`` (verl's keeps falling, rlvr's stays at ``-penalty_factor``), which a
    verl rollout, cut at its response length, never reaches."""
    if not overlong_buffer_cfg or not overlong_buffer_cfg.get("enable"):
        return None
    width, factor = overlong_buffer_cfg.get("len"), overlong_buffer_cfg.get("penalty_factor", 1.0)
    if not max_resp_len or not width or width <= 0 or max_resp_len < width:
        from rlvr.errors import ConfigError

        raise ConfigError(f"overlong_buffer_cfg needs 0 < len <= max_resp_len; got len={width}, "
                          f"max_resp_len={max_resp_len} (verl's DAPO manager asserts the same)")
    return {"name": "soft_overlong", "alias": "overlong_reward", "weight": float(factor),
            "params": {"max_completion_len": int(max_resp_len), "soft_punish_cache": int(width), "length_unit": "tokens"}}


def _reward_set(rewards: str | None, extra: dict[str, Any] | None = None) -> Any:
    from rlvr.rewards import RewardSet

    key = rewards or os.environ.get("RLVR_REWARDS") or ""
    cache_key = key + ("" if extra is None else repr(sorted(extra.items())))
    with _LOCK:
        if cache_key not in _SETS:
            rs = RewardSet.from_config(key) if key else RewardSet.from_config([{"name": "math_equivalence"}])
            if extra is not None:
                config = rs.to_config()
                config["rewards"].append(extra)
                rs = RewardSet.from_config(config)
            _SETS[cache_key] = rs
        return _SETS[cache_key]


def _scores(rs: Any, solution_strs: list[str], ground_truths: list[Any], extra_infos: list[Any]) -> list[dict]:
    infos = [e if isinstance(e, dict) else {} for e in extra_infos]
    columns: dict[str, list[Any]] = {}
    for key in sorted({k for e in infos for k in e} - {"prompt", "answer", "completion"}):
        columns[key] = [e.get(key) for e in infos]
    columns["answer"] = ["" if g is None else str(g) for g in ground_truths]
    rows = rs.explain(prompts=[e.get("prompt", "") for e in infos], completions=list(solution_strs), **columns)
    out = []
    for row in rows:
        total = row["total"]
        record: dict[str, Any] = {"score": ABSTAIN_SCORE if total is None else float(total),
                                  "rlvr_abstained": 1.0 if total is None else 0.0, "rlvr_error": 0.0}
        for name in rs.names:
            r = row["rewards"][name]
            record[name] = ABSTAIN_SCORE if r.value is None else float(r.value)
            record[f"{name}_correct"] = 1.0 if r.status == "correct" else 0.0
            record["rlvr_error"] = max(record["rlvr_error"], 1.0 if r.status == "error" else 0.0)
        record["acc"] = float(record.get("math_equivalence_correct", record["score"] > 0))
        out.append(record)
    return out


def _failed(rs_names: list[str], exc: BaseException) -> dict[str, Any]:
    logger.exception("rlvr reward failed inside verl; scoring %s", ABSTAIN_SCORE, exc_info=exc)
    record: dict[str, Any] = {"score": ABSTAIN_SCORE, "rlvr_abstained": 1.0, "rlvr_error": 1.0}
    for name in rs_names:
        record[name] = ABSTAIN_SCORE
        record[f"{name}_correct"] = 0.0
    record["acc"] = 0.0
    return record


def compute_score_batch(data_sources: list[str], solution_strs: list[str], ground_truths: list[Any],
                        extra_infos: list[Any] | None = None, rewards: str | None = None,
                        _extra_reward: dict[str, Any] | None = None, **kwargs: Any) -> list[dict]:
    """verl's batch signature: one dict per row, never None, never raises."""
    extra_infos = extra_infos if extra_infos is not None else [None] * len(solution_strs)
    try:
        rs = _reward_set(rewards, _extra_reward)
    except Exception as exc:  # a broken config: every row says so in its metrics, the run goes on
        return [_failed([], exc) for _ in solution_strs]
    try:
        return _scores(rs, solution_strs, ground_truths, extra_infos)
    except Exception as exc:
        return [_failed(rs.names, exc) for _ in solution_strs]


def compute_score(data_source: str, solution_str: str, ground_truth: Any, extra_info: Any = None,
                  rewards: str | None = None, **kwargs: Any) -> dict[str, Any]:
    """verl's per-row signature (``reward.custom_reward_function.name: compute_score``)."""
    return compute_score_batch([data_source], [solution_str], [ground_truth], [extra_info], rewards=rewards)[0]


async def compute_score_async(data_source: str, solution_str: str, ground_truth: Any, extra_info: Any = None,
                              rewards: str | None = None, **kwargs: Any) -> dict[str, Any]:
    """The same, for verl's async reward loop: scored in a worker thread, the event loop stays free."""
    return await asyncio.to_thread(compute_score, data_source, solution_str, ground_truth, extra_info, rewards)
