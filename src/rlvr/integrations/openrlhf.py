"""OpenRLHF's reward interface: translating its ``(queries, prompts, labels)`` into rlvr rows and back.

OpenRLHF sends each *query* as the prompt and the response decoded together (special tokens
included), with the *prompt* alone beside it, and the gold as the *label*; it expects
``{"rewards", "scores", "extra_logs"}`` back. The same translation serves its remote reward URL
(``rlvr serve``'s ``/get_reward``) and, later, its in-process ``reward_func`` file.
"""

from __future__ import annotations

from typing import Any

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
    RewardSet named by ``RLVR_REWARDS`` (default ``math_equivalence``), results as tensors."""
    import os

    import torch

    from rlvr.rewards import RewardSet

    global _SET
    if _SET is None:
        spec = os.environ.get("RLVR_REWARDS")
        _SET = RewardSet.from_config(spec) if spec else RewardSet.from_config([{"name": "math_equivalence"}])
    out = score_queries(_SET, list(queries), list(prompts), ["" if x is None else str(x) for x in labels])
    return {"rewards": torch.tensor(out["rewards"], dtype=torch.float32),
            "scores": torch.tensor(out["scores"], dtype=torch.float32),
            "extra_logs": {k: torch.tensor(v, dtype=torch.float32) for k, v in out["extra_logs"].items()}}


_SET: Any = None
