"""Shutting down on SIGTERM/SIGINT: the requests in flight are drained, and the exit status says how it went.

uvicorn's ``Server`` raises the signal again once it has shut down, so a clean drain exits -15 and
a supervisor reads a crash. :class:`DrainingServer` keeps uvicorn's signal handling but does not
raise the signal again; :class:`Drain` (kept by the app) knows whether every request ended with an
answer and no scoring call was left running. ``rlvr serve`` then exits 0 after a drain that finished
and :data:`CUT_SHORT` when it was cut short (the graceful timeout passed, a second Ctrl-C, a
scorer still running).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

import uvicorn

__all__ = ["Drain", "DrainingServer", "CUT_SHORT"]

#: exit status of ``rlvr serve`` when its shutdown drain was cut short
CUT_SHORT = 1


class Drain:
    """Requests in flight, requests cancelled by the shutdown, and the verdict on the drain."""

    def __init__(self) -> None:
        self.inflight = 0
        self.cancelled = 0
        self.finished: bool | None = None  # set when the app's lifespan ends: None means it never ended
        self.problem = ""

    def close(self, scoring_calls_running: int) -> None:
        """Called at the end of the app's lifespan, after uvicorn's drain."""
        problems = []
        if self.cancelled:
            problems.append(f"{self.cancelled} request(s) cancelled before they were answered")
        if self.inflight:
            problems.append(f"{self.inflight} request(s) still in flight")
        if scoring_calls_running:
            problems.append(f"{scoring_calls_running} scoring call(s) still running")
        self.problem = "; ".join(problems)
        self.finished = not problems


class DrainingServer(uvicorn.Server):
    """uvicorn's Server, except that the signal that started the shutdown is not raised again after it."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():  # signals reach the main thread only
            yield
            return
        handled = [s for s in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGBREAK", None)) if s is not None]
        original = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
        try:
            yield
        finally:
            for sig, handler in original.items():
                signal.signal(sig, handler)
