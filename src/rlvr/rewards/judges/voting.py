"""Voting over sampled judgments (DeepSeek-GRM's inference-time scaling).

Each of the k judgments gives every response a score (an integer from its text, or the expected
score read from its distribution); a response's reward is the sum of its scores (a finer scale than
one judgment's 1-10), or their mean. With a meta RM, only the
``k_meta`` judgments it trusts most vote. Judgments that abstained (unparseable, backend error) do
not vote; with none left the response has no score (``None``), never 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Vote", "vote", "AGGREGATES"]

AGGREGATES = ("sum", "mean")


@dataclass(frozen=True)
class Vote:
    """One sampled judgment of a group, its scores mapped back to the responses' original order.

    ``status``: ``ok``, ``unparseable`` or the backend's error (``timeout``, ``connection_error``, ...);
    ``meta``: the meta RM's score of this judgment (``None`` without one); ``method``: where the
    scores came from (``text``, or the distribution: ``transformers logits``, ``vLLM logprobs``, ...);
    ``mass``: the smallest probability mass on the scale over its positions and ``argmax`` the most
    likely value per response (distribution scores only; ``scores`` then holds the expected scores)."""

    sample: int
    scores: tuple[float, ...] | None
    status: str
    reason: str
    text: str | None = None
    meta: float | None = None
    order: tuple[int, ...] = ()
    prompt: str = ""
    method: str = "text"
    mass: float | None = None
    argmax: tuple[int, ...] | None = None

    def with_meta(self, meta: float | None) -> Vote:
        from dataclasses import replace

        return replace(self, meta=meta)


def vote(votes: Sequence[Vote], n: int, k_meta: int | None = None,
         aggregate: str = "sum") -> tuple[list[float | None], list[Vote]]:
    """(per-response value, the votes that counted). ``k_meta``: keep the top k_meta by meta score
    (judgments the meta RM could not score rank last; ties keep sample order)."""
    if aggregate not in AGGREGATES:
        raise ValueError(f"aggregate={aggregate!r}; use one of {AGGREGATES}")
    used = [v for v in votes if v.scores is not None]
    if k_meta is not None:
        used = sorted(used, key=lambda v: (v.meta is None, -(v.meta or 0.0), v.sample))[:k_meta]
        used.sort(key=lambda v: v.sample)
    if not used:
        return [None] * n, []
    totals = [float(sum(v.scores[i] for v in used)) for i in range(n)]  # type: ignore[index]
    if aggregate == "mean":
        totals = [t / len(used) for t in totals]
    return totals, used
