"""Time bounds shared by every reader of model text in the caller's process.

Scans are linear, so no regex over a capped answer or completion comes near this; the timeout is
the backstop that turns a missed pathological case into a typed ``timeout`` or ``error`` verdict
for one row instead of a stalled trainer. ``VerifierConfig.regex_timeout_s`` sets the bound of the
extraction regexes; the normalisation and comparison regexes, which run on answers capped at
``max_answer_chars``, use this one.
"""

from __future__ import annotations

__all__ = ["REGEX_TIMEOUT_S"]

#: wall-clock limit of one regex call over (capped) answer text
REGEX_TIMEOUT_S = 1.0
