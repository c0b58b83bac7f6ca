"""Time bounds shared by every reader of model text in the caller's process.

Scans are linear, so no regex over a capped answer or completion comes near this; the timeout is
the backstop that turns a missed pathological case into a typed ``timeout`` or ``error`` verdict
for one row instead of a stalled trainer. ``VerifierConfig.regex_timeout_s`` sets the bound of the
extraction regexes; the normalisation and comparison regexes, which run on answers capped at
``max_answer_chars``, use this one.
"""

from __future__ import annotations

import os

__all__ = ["CALLER_REGEX_TIMEOUT_S", "IN_WORKER", "REGEX_TIMEOUT_S", "WORKER_ENV", "regex_timeout"]

#: set by the sandbox pool in the environment of its workers (``worker_handle``)
WORKER_ENV = "RLVR_SANDBOX_WORKER"
#: in a sandbox worker every task runs under its own CPU budget, which the pool enforces by killing the
#: worker; a wall-clock timeout per regex call adds nothing there but a verdict that depends on how busy the
#: machine is, and it costs two clock reads per call (a system call where the clock has no vDSO, as in
#: gVisor sandboxes: there it was half the time a worker spent reading a completion)
IN_WORKER = os.environ.get(WORKER_ENV) == "1"

#: wall-clock limit of one regex call over (capped) answer text in the caller's process
CALLER_REGEX_TIMEOUT_S = 1.0
#: the limit rlvr's own readers use: none in a sandbox worker (see ``IN_WORKER``)
REGEX_TIMEOUT_S: float | None = None if IN_WORKER else CALLER_REGEX_TIMEOUT_S


def regex_timeout(configured: float) -> float | None:
    """The timeout a regex over model text runs under: ``configured`` in the caller, none in a worker."""
    return None if IN_WORKER else configured
