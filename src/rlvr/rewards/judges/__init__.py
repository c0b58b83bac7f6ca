"""Generative reward models (LLM judges): prompts, strict score parsing, scores read from the judge's
token distribution when the text has none, backends, a verdict cache, voting and the meta RM, as the
DeepSeek-GRM / SPCT design describes them; and a reference-given judge (is this answer the gold?).

The rewards that use them (``grm``, ``judge``, ``grm_rule``) live in
:mod:`rlvr.rewards.builtin.grm`; this package holds the engine, usable on its own:

>>> from rlvr.rewards.judges import JudgeEngine, EngineSettings, make_backend
>>> engine = JudgeEngine(make_backend("transformers", "runs/judge"), EngineSettings(k=4))  # doctest: +SKIP
>>> verdict = engine.judge("What is 2+2?", ["4", "5"])                                    # doctest: +SKIP
>>> verdict.values, verdict.reason(0)                                                     # doctest: +SKIP
"""

from rlvr.rewards.judges.backends import JudgeBackend, JudgeCall, JudgeReply, make_backend
from rlvr.rewards.judges.cache import VerdictCache
from rlvr.rewards.judges.distribution import DistributionScore, Scale, read_scores
from rlvr.rewards.judges.engine import EngineSettings, GroupVerdict, JudgeEngine
from rlvr.rewards.judges.parse import ParsedJudgment, parse_judgment
from rlvr.rewards.judges.prompts import JudgePrompt
from rlvr.rewards.judges.reference import ReferenceJudge
from rlvr.rewards.judges.voting import Vote, vote

__all__ = ["JudgeBackend", "JudgeCall", "JudgeReply", "make_backend", "VerdictCache", "EngineSettings",
           "GroupVerdict", "JudgeEngine", "ParsedJudgment", "parse_judgment", "JudgePrompt", "Vote", "vote",
           "DistributionScore", "Scale", "read_scores", "ReferenceJudge"]
