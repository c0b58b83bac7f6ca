"""verl's custom reward function interface, backed by an rlvr RewardSet.

Point verl at this module (``reward.custom_reward_function.path: pkg://rlvr.integrations.verl``, or
the file path of this module for a verl that takes only files; ``name: compute_score``, or
``compute_score_batch`` for the batch reward managers) and name the RewardSet in
``reward.custom_reward_function.reward_kwargs: {rewards: rewards.yaml}`` (or the ``RLVR_REWARDS``
environment variable; with neither, ``math_equivalence`` scores). ``verl_manager.RlvrRewardManager``
is the reward manager that also hands rlvr the prompt and the response's token ids.

verl gives no prompt to a reward; the prompt and any dataset column come from ``extra_info``. verl
accepts no ``None`` from a reward: an abstaining or failed reward counts ``ABSTAIN_SCORE`` (0.0) and
the row is flagged (``rlvr_abstained``, ``rlvr_error``); a reward that raises costs only its own
values (:mod:`rlvr.rewards.scoring`). A RewardSet that cannot load (a bad file, an unknown reward, a
bad parameter) raises a ConfigError naming the file at the first call, which verl runs before
training (its validation pass), and at once in ``RlvrRewardManager``: a broken config fails the run,
it never scores it 0.0. Every call returns the same keys, so verl can average them as metrics. The
RewardSet (and its verifier pool) is built lazily in whichever process calls first: Ray actors and
thread pools alike.
"""

from __future__ import annotations

import asyncio
from typing import Any

from rlvr.rewards.scoring import ABSTAIN_SCORE, score_rows, shared_reward_set
from rlvr.verifiers.core import gold_string

__all__ = ["compute_score", "compute_score_batch", "compute_score_async", "ABSTAIN_SCORE", "overlong_entry"]


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


def _scores(rs: Any, solution_strs: list[str], ground_truths: list[Any], extra_infos: list[Any]) -> list[dict]:
    infos = [e if isinstance(e, dict) else {} for e in extra_infos]
    columns: dict[str, list[Any]] = {}
    for key in sorted({k for e in infos for k in e} - {"prompt", "answer", "completion"}):
        columns[key] = [e.get(key) for e in infos]
    columns["answer"] = [gold_string(g) for g in ground_truths]
    out = []
    for row in score_rows(rs, [e.get("prompt", "") for e in infos], list(solution_strs), columns):
        record: dict[str, Any] = {"score": row.score(), "rlvr_abstained": float(row.abstained),
                                  "rlvr_error": float(row.error)}
        for name in rs.names:
            record[name] = row.value(name)
            record[f"{name}_correct"] = row.correct(name)
        record["acc"] = float(record.get("math_equivalence_correct", record["score"] > 0))
        out.append(record)
    return out


def compute_score_batch(data_sources: list[str], solution_strs: list[str], ground_truths: list[Any],
                        extra_infos: list[Any] | None = None, rewards: str | None = None,
                        _extra_reward: dict[str, Any] | None = None, **kwargs: Any) -> list[dict]:
    """verl's batch signature: one dict per row with the same keys, never None. Raises only for a
    config that cannot load or a column it lacks (ConfigError naming the file or column) and for a
    reward that failed on ``max_consecutive_failures`` calls in a row (RewardFailure)."""
    extra_infos = extra_infos if extra_infos is not None else [None] * len(solution_strs)
    return _scores(shared_reward_set(rewards, _extra_reward), solution_strs, ground_truths, extra_infos)


def compute_score(data_source: str, solution_str: str, ground_truth: Any, extra_info: Any = None,
                  rewards: str | None = None, **kwargs: Any) -> dict[str, Any]:
    """verl's per-row signature (``reward.custom_reward_function.name: compute_score``)."""
    return compute_score_batch([data_source], [solution_str], [ground_truth], [extra_info], rewards=rewards)[0]


async def compute_score_async(data_source: str, solution_str: str, ground_truth: Any, extra_info: Any = None,
                              rewards: str | None = None, **kwargs: Any) -> dict[str, Any]:
    """The same, for verl's async reward loop: scored in a worker thread, the event loop stays free."""
    return await asyncio.to_thread(compute_score, data_source, solution_str, ground_truth, extra_info, rewards)
