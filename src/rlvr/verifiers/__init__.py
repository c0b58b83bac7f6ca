"""Is this completion's final answer right, and why.

>>> from rlvr.verifiers import verify
>>> verify("... so the answer is \\boxed{0.5}", "\\frac{1}{2}").status
'correct'

Public API: :func:`verify`, :func:`verify_batch` (and their asyncio forms), :class:`Verdict`,
:class:`VerifierConfig`, :func:`register_answer_source` for custom answer formats, and
:func:`extract_answer` to see what would be graded. Symbolic work runs in a sandbox of worker
processes with hard time and memory limits; nothing is ever ``eval``-ed or ``sympify``-ed here.
"""

from rlvr.verifiers.config import VerifierConfig
from rlvr.verifiers.core import (
    averify, averify_batch, clear_cache, extract_batch, reading_stats, scoring_deadline, validate_golds, verify,
    verify_batch, warm_up,
)
from rlvr.verifiers.extraction import Extraction, extract_answer, register_answer_source
from rlvr.verifiers.normalize import answer_key
from rlvr.verifiers.sandbox import shutdown_pools
from rlvr.verifiers.verdict import STATUSES, Verdict

__all__ = [
    "verify", "verify_batch", "averify", "averify_batch", "Verdict", "VerifierConfig", "STATUSES",
    "extract_answer", "Extraction", "register_answer_source", "clear_cache", "shutdown_pools", "validate_golds", "answer_key",
    "scoring_deadline", "warm_up", "extract_batch", "reading_stats",
]
