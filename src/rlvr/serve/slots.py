"""Scoring slots: at most ``size`` scoring calls at once, a bounded queue, and deadlines that reach the work.

Each call runs on one of ``size`` threads started with the server (the thread count never grows)
under :func:`rlvr.verifiers.scoring_deadline`, so the verifier stops starting comparisons at the
request's deadline, kills what runs past it, and returns ``timeout`` verdicts for the rest. A slot is
freed when its thread has returned, never when the handler gives up waiting: a call that outlives its
deadline by ``grace_s`` (a scorer that ignores the deadline, e.g. a plugin reward stuck in C code)
keeps its slot, the handler answers 504, and :meth:`ScoringSlots.stuck` reports it to ``/healthz``.
"""

from __future__ import annotations

import asyncio
import contextvars
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

__all__ = ["ScoringSlots", "Busy", "Overran"]


class Busy(Exception):
    """No slot: the queue is full, or no slot came free within the deadline."""


class Overran(Exception):
    """The call ran past its deadline and grace; its slot stays held until it returns."""


def _under_deadline(fn: Callable[[], Any], seconds: float) -> Any:
    from rlvr.verifiers import scoring_deadline

    with scoring_deadline(seconds):
        return fn()


class ScoringSlots:
    """The gate, the threads and the deadline of every scoring call (see module doc)."""

    def __init__(self, size: int, max_queue: int, grace_s: float, min_budget_s: float = 0.0) -> None:
        self.size, self.max_queue, self.grace_s, self.min_budget_s = size, max_queue, grace_s, min_budget_s
        self.waiting = 0
        self._gate = asyncio.Semaphore(size)
        self._held: dict[object, float] = {}  # a running call -> its deadline (time.monotonic)
        self._tasks: queue.SimpleQueue[tuple[Future, Callable[[], Any]] | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        """Start the threads (daemon threads: a scorer stuck forever cannot keep the process alive
        at exit, which a ThreadPoolExecutor's joined workers would)."""
        for i in range(self.size - len(self._threads)):
            t = threading.Thread(target=self._work, name=f"rlvr-scoring-{i}", daemon=True)
            t.start()
            self._threads.append(t)

    def stop(self) -> None:
        for _ in self._threads:
            self._tasks.put(None)
        self._threads.clear()

    def _work(self) -> None:
        while (item := self._tasks.get()) is not None:
            future, fn = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn())
            except BaseException as exc:  # handed to the waiting request, which maps it to a response
                future.set_exception(exc)

    @property
    def inflight(self) -> int:
        return len(self._held)

    def stuck(self) -> int:
        """Calls still running more than ``grace_s`` past their deadline."""
        limit = time.monotonic() - self.grace_s
        return sum(deadline < limit for deadline in list(self._held.values()))

    def busy(self) -> bool:
        return self._gate.locked() and self.waiting >= self.max_queue

    async def run(self, fn: Callable[[], Any], deadline: float, bounded: bool = True) -> Any:
        """``fn()`` on a scoring thread under the deadline (``time.monotonic`` seconds); ``bounded=False``
        (the start-up warm-up, which has its own timeout) holds a slot without the scoring deadline."""
        if self.busy():
            raise Busy("too many requests waiting")
        self.waiting += 1
        try:
            await asyncio.wait_for(self._gate.acquire(), timeout=max(0.0, deadline - time.monotonic()))
        except asyncio.TimeoutError:
            raise Busy("no scoring slot came free within the deadline") from None
        finally:
            self.waiting -= 1
        budget = deadline - time.monotonic()
        if bounded and budget < self.min_budget_s:  # too late to score anything: do not start
            self._gate.release()
            raise Busy("no scoring slot came free in time")
        key = object()
        self._held[key] = deadline
        done: Future = Future()
        ctx = contextvars.copy_context()
        self._tasks.put((done, (lambda: ctx.run(_under_deadline, fn, budget)) if bounded else fn))
        future = asyncio.wrap_future(done)
        future.add_done_callback(lambda f: self._release(key, f))
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout=budget + self.grace_s)
        except asyncio.TimeoutError:
            raise Overran(f"scoring ran {self.grace_s:g}s past the request's deadline and is still running; "
                          "its slot stays held until it returns") from None

    def _release(self, key: object, future: asyncio.Future) -> None:
        if not future.cancelled():
            future.exception()  # retrieved here too, so a result nobody awaits any more is not logged as lost
        self._held.pop(key, None)
        self._gate.release()
