"""The meta RM: a pointwise scorer of judgments (is this judgment trustworthy?), used to keep only
the top ``k_meta`` of k sampled judgments for voting.

It is a sequence-classification model trained with rlvr's Bradley-Terry machinery
(:mod:`rlvr.harness.rm`) on pairs of judgments of the same query: a judgment that put the known best
response strictly on top is preferred to one that did not (``rlvr grm train --stage meta-rm``). It
reads the judge's prompt (query and responses) and the judgment, cut from the left so the judgment
and its scores are always seen; it scores through the ``reward_model`` reward, as GRPO runs do.
"""

from __future__ import annotations

from typing import Any

from rlvr.rewards.judges.voting import Vote

__all__ = ["MetaRM", "meta_text"]


def meta_text(vote: Vote) -> tuple[str, str]:
    """(prompt, completion) the meta RM scores for one judgment: the judge's prompt and its text."""
    return vote.prompt, vote.text or ""


class MetaRM:
    """Scores judgments with a saved reward model (``rlvr grm train --stage meta-rm`` writes one)."""

    def __init__(self, model: str, max_length: int = 512, batch_size: int = 16):
        from rlvr.rewards import get_reward

        self.model = model
        self.scorer: Any = get_reward("reward_model", model=model, max_length=max_length, batch_size=batch_size,
                                      use_chat_template=False)

    def score(self, votes: list[Vote]) -> list[float | None]:
        """One score per vote (``None`` for abstentions and when the scorer fails)."""
        ready = [i for i, v in enumerate(votes) if v.scores is not None and v.text]
        out: list[float | None] = [None] * len(votes)
        if not ready:
            return out
        pairs = [meta_text(votes[i]) for i in ready]
        values = self.scorer(prompts=[p + "\n\n[Judgment]\n" for p, _ in pairs], completions=[c for _, c in pairs])
        for i, v in zip(ready, values):
            out[i] = v
        return out
