"""OpenRLHF's reward interface: translating its ``(queries, prompts, labels)`` into rlvr rows and back.

OpenRLHF sends each *query* as the prompt and the response decoded together (special tokens
included), with the *prompt* alone beside it, and the gold as the *label*; it expects
``{"rewards", "scores", "extra_logs"}`` back. The same translation serves its remote reward URL
(``rlvr serve``'s ``/get_reward``) and its in-process ``reward_func`` file.
"""

from __future__ import annotations

import logging
from typing import Any

from rlvr.rewards.scoring import score_rows, shared_reward_set

logger = logging.getLogger(__name__)

__all__ = ["response_of", "score_queries", "reward_func"]


def response_of(query: str, prompt: str) -> str:
    """The response part of an OpenRLHF query (the query minus its prompt prefix)."""
    if prompt and query.startswith(prompt):
        return query[len(prompt):]
    at = query.rfind(prompt) if prompt else -1
    return query[at + len(prompt):] if at >= 0 else query


def score_queries(reward_set: Any, queries: list[str], prompts: list[str], labels: list[Any]) -> dict[str, Any]:
    """OpenRLHF's response shape for a batch: the weighted total as reward and score, each reward's
    value and correctness and the ``rlvr_error`` / ``rlvr_abstained`` flags as extra logs (an
    abstaining or failed reward counts 0.0: OpenRLHF takes numbers only)."""
    responses = [response_of(q, p) for q, p in zip(queries, prompts)]
    rows = score_rows(reward_set, list(prompts), responses, {"answer": list(labels)})
    totals = [row.score() for row in rows]
    extra: dict[str, list[float]] = {}
    for name in reward_set.names:
        extra[f"{name}/value"] = [row.value(name) for row in rows]
        extra[f"{name}/correct"] = [row.correct(name) for row in rows]
    extra["rlvr_error"] = [float(row.error) for row in rows]
    extra["rlvr_abstained"] = [float(row.abstained) for row in rows]
    return {"rewards": totals, "scores": totals, "extra_logs": extra,
            "statuses": [{name: r.status for name, r in row.rewards.items()} for row in rows]}


def reward_func(queries: list[str], prompts: list[str], labels: list[Any], **kwargs: Any) -> dict[str, Any]:
    """OpenRLHF's in-process reward file entry (``--reward.remote_url path/to/openrlhf.py``): the
    RewardSet named by ``RLVR_REWARDS`` (default ``math_equivalence``), results as tensors. OpenRLHF
    calls it from worker threads. A reward that raises costs only its own values (flagged in
    ``rlvr_error``); what still raises (a reward failing batch after batch, a missing column) is
    logged here as an error, because OpenRLHF itself logs a reward exception at info level only and
    leaves the sample without a reward (never a 0.0 that looks like a wrong answer)."""
    import torch

    try:
        out = score_queries(shared_reward_set(), list(queries), list(prompts),
                            ["" if x is None else str(x) for x in labels])
    except Exception:
        logger.exception("rlvr reward_func failed on a batch of %d; OpenRLHF leaves it without a reward", len(queries))
        raise
    return {"rewards": torch.tensor(out["rewards"], dtype=torch.float32),
            "scores": torch.tensor(out["scores"], dtype=torch.float32),
            "extra_logs": {k: torch.tensor(v, dtype=torch.float32) for k, v in out["extra_logs"].items()}}


if __name__ != "rlvr.integrations.openrlhf":
    # OpenRLHF loads this file by path (as module "reward_func") when its executor starts and swallows
    # exceptions raised later inside reward calls: build the RewardSet now, so a config that cannot
    # load fails OpenRLHF's start with a message naming the file
    shared_reward_set()
