"""OpenRLHF's reward interface: translating its ``(queries, prompts, labels)`` into rlvr rows and back.

OpenRLHF sends each *query* as the prompt and the response decoded together (special tokens
included), with the *prompt* alone beside it, and the gold as the *label*; it expects
``{"rewards", "scores", "extra_logs"}`` back. The same translation serves its remote reward URL
(``rlvr serve``'s ``/get_reward``) and its in-process ``reward_func`` file.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

logger = logging.getLogger(__name__)

__all__ = ["response_of", "score_queries", "reward_func"]


def response_of(query: str, prompt: str) -> str:
    """The response part of an OpenRLHF query (the query minus its prompt prefix)."""
    if prompt and query.startswith(prompt):
        return query[len(prompt):]
    at = query.rfind(prompt) if prompt else -1
    return query[at + len(prompt):] if at >= 0 else query


def score_queries(reward_set: Any, queries: list[str], prompts: list[str], labels: list[Any]) -> dict[str, Any]:
    """OpenRLHF's response shape for a batch: the weighted total as reward and score (an abstaining
    reward counts 0: OpenRLHF takes numbers only), each reward's value and status rates as extra logs."""
    responses = [response_of(q, p) for q, p in zip(queries, prompts)]
    rows = reward_set.explain(prompts=list(prompts), completions=responses, answer=list(labels))
    totals = [0.0 if row["total"] is None else float(row["total"]) for row in rows]
    extra: dict[str, list[float]] = {}
    for name in reward_set.names:
        extra[f"{name}/value"] = [0.0 if row["rewards"][name].value is None else float(row["rewards"][name].value)
                                  for row in rows]
        extra[f"{name}/correct"] = [1.0 if row["rewards"][name].status == "correct" else 0.0 for row in rows]
    return {"rewards": totals, "scores": totals, "extra_logs": extra,
            "statuses": [{name: row["rewards"][name].status for name in reward_set.names} for row in rows]}


def reward_func(queries: list[str], prompts: list[str], labels: list[Any], **kwargs: Any) -> dict[str, Any]:
    """OpenRLHF's in-process reward file entry (``--reward.remote_url path/to/openrlhf.py``): the
    RewardSet named by ``RLVR_REWARDS`` (default ``math_equivalence``), results as tensors. OpenRLHF
    calls it from worker threads; it never raises (a broken config scores 0.0 with ``rlvr_error`` 1)."""
    import torch

    try:
        out = score_queries(_reward_set(), list(queries), list(prompts),
                            ["" if x is None else str(x) for x in labels])
        extra = dict(out["extra_logs"])
        extra["rlvr_error"] = [1.0 if "error" in s.values() else 0.0 for s in out["statuses"]]
    except Exception:  # OpenRLHF logs a raised error and leaves the sample without a reward
        logger.exception("rlvr reward_func failed; scoring the batch 0.0 with rlvr_error = 1")
        zeros = [0.0] * len(queries)
        out, extra = {"rewards": zeros, "scores": zeros}, {"rlvr_error": [1.0] * len(queries)}
    return {"rewards": torch.tensor(out["rewards"], dtype=torch.float32),
            "scores": torch.tensor(out["scores"], dtype=torch.float32),
            "extra_logs": {k: torch.tensor(v, dtype=torch.float32) for k, v in extra.items()}}


def _reward_set() -> Any:
    import os

    from rlvr.rewards import RewardSet

    global _SET
    with _LOCK:
        if _SET is None:
            spec = os.environ.get("RLVR_REWARDS")
            _SET = RewardSet.from_config(spec) if spec else RewardSet.from_config([{"name": "math_equivalence"}])
        return _SET


_SET: Any = None
_LOCK = threading.Lock()
