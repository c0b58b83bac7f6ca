"""Reward functions for GRPO: a registry, weighted composition, and built-in rewards.

>>> from rlvr.rewards import get_reward
>>> f = get_reward("math_equivalence", preset="binary")
>>> f(prompts=["1/2?"], completions=["\\boxed{0.5}"], answer=["\\frac{1}{2}"])
[1.0]

Every reward follows TRL's contract (batch in, ``list[float | None]`` out, ``**kwargs`` accepted)
and can explain itself (:meth:`Reward.explain` returns :class:`RewardResult` objects). Every door
that scores (TRL, verl, OpenRLHF, verifiers, Ray, ``rlvr serve``, the CLI) goes through
:mod:`rlvr.rewards.scoring`; a reward that raises is a :class:`RewardError` naming its file:line.
"""

from rlvr.rewards.base import FunctionReward, Reads, Reward, RewardResult
from rlvr.rewards.failures import RewardError, RewardFailure
from rlvr.rewards.registry import available, describe, get_reward, register, reward
from rlvr.rewards.rewardset import RewardSet
from rlvr.rewards.scoring import ScoredRow

__all__ = [
    "reward", "register", "get_reward", "available", "describe", "Reward", "RewardResult", "RewardSet",
    "FunctionReward", "RewardFailure", "RewardError", "Reads", "ScoredRow",
]
