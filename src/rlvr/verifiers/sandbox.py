"""A pool of pre-started worker processes that read and compare, with hard per-task limits.

Why processes, and why our own pool: reading adversarial text and parsing it with sympy and
math-verify can run for minutes or exhaust memory, and math-verify's own timeouts use
``signal.alarm`` (main thread only, blind to long C calls). Each worker is a plain subprocess
(:class:`~rlvr.verifiers.worker_handle.WorkerHandle`) talking JSON lines over pipes, so the pool
works the same from the main thread, worker threads, asyncio and forked children, never re-imports
the user's ``__main__``, and never uses signals in the caller.

Every task has its own budget of the worker's CPU time; no budget is shared between tasks, so a
task's result never depends on the tasks beside it. A task that spends its budget gets its worker
killed (SIGKILL) and replaced by a warm spare, and is retried once with a larger budget before it
is a ``timeout``; a worker that dies (``kill -9``, OOM) is replaced and its task retried once. The
caller's wall-clock deadline (``until``) reaches every task: at it running tasks are killed and the
rest are ``timeout``. Several tasks may be queued on one worker (``depth``) so it never waits for
the parent between them; only the one it is working on is charged.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import selectors
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

from rlvr.verifiers.worker_handle import WorkerHandle

logger = logging.getLogger(__name__)

__all__ = ["SandboxPool", "get_pool", "shutdown_pools", "default_workers", "RETRY_FACTOR"]

_STARTUP_TIMEOUT_S = 90.0
_MAX_START_FAILURES = 3
#: a task that spends its CPU budget is retried once with this many times the budget
RETRY_FACTOR = 4.0
# a worker that uses no CPU for this long (stopped, starved, blocked) is killed whatever its budget says
_WALL_BACKSTOP_S = 30.0
_WALL_BACKSTOP_FACTOR = 20.0
_CONFIGS_PER_WORKER = 64  # configs a worker keeps; the least recently sent one is forgotten beyond this
_INF = float("inf")


@dataclass
class _Queued:
    """A task sent to a worker: its index and CPU budget; once the worker works on it, when it started
    (wall clock) and the worker's CPU seconds then."""

    idx: int
    budget: float
    cpu_at_start: float = 0.0
    started: float = 0.0
    check_at: float = _INF  # the earliest wall time its CPU budget can be spent

    def start(self, cpu: float, now: float) -> None:
        self.cpu_at_start, self.started, self.check_at = cpu, now, now + self.budget


def default_workers() -> int:
    """Pool size: ``RLVR_VERIFIER_WORKERS`` if set, else min(4, CPU count)."""
    env = os.environ.get("RLVR_VERIFIER_WORKERS")
    if env:
        try:
            return max(1, int(env))
        except ValueError:
            logger.warning("ignoring RLVR_VERIFIER_WORKERS=%r: not an integer", env)
    return max(1, min(4, os.cpu_count() or 1))


class SandboxPool:
    """Runs tasks on ``size`` worker processes with a memory cap each.

    :meth:`run` takes task dicts (a comparison ``{"answer", "gold", "abs_tol", "rel_tol"}``, a row to
    verify ``{"kind": "row", "cfg", "text", "gold"}``, …; see :mod:`rlvr.verifiers._worker`) and returns
    one result dict per task: the worker's reply, or ``status``/``reason`` of a ``timeout`` or
    ``error`` the pool decided, each with ``elapsed_s`` and ``cpu_s``. It never raises for a task's
    sake. Thread-safe: concurrent callers share the workers.
    """

    def __init__(self, size: int | None = None, memory_mb: int = 1024) -> None:
        self.size = size or default_workers()
        self.memory_mb = memory_mb
        self._free: list[WorkerHandle] = []
        self._started = 0
        self._cond = threading.Condition()
        self._closed = False
        self._pid = os.getpid()
        self._start_failures = 0
        self._spares: list[WorkerHandle] = []
        self.restarts = 0  # workers killed or lost and replaced, for metrics
        self.memory_cap_warned = False

    # -- worker bookkeeping -------------------------------------------------------------------
    def _checkout(self, wanted: int, until: float = _INF) -> list[WorkerHandle]:
        """Up to ``wanted`` free workers; none when the caller's deadline ``until`` passes first (another call
        holds them all: waiting past it would make this call outlive its deadline by the other's)."""
        with self._cond:
            if self._closed:
                raise RuntimeError("the verifier sandbox pool is shut down")
            while self._started < self.size:  # lazy start: all workers boot in parallel
                self._free.append(WorkerHandle(self.memory_mb))
                self._started += 1
            if not self._spares:  # a warm spare replaces a killed worker without a cold start
                self._spares.append(WorkerHandle(self.memory_mb))
            while not self._free:
                remaining = until - time.monotonic()
                if remaining <= 0:
                    return []
                self._cond.wait(timeout=None if remaining == _INF else remaining)
            taken = self._free[:max(1, wanted)]
            del self._free[:len(taken)]
            return taken

    def _checkin(self, workers: list[WorkerHandle]) -> None:
        with self._cond:
            if self._closed:
                for w in workers:
                    w.kill()
                return
            self._free.extend(workers)
            self._cond.notify_all()

    def _replace(self, worker: WorkerHandle) -> WorkerHandle:
        worker.kill()
        self.restarts += 1
        with self._cond:
            spare = next((w for w in self._spares if w.alive()), None)
            if spare is not None:
                self._spares.remove(spare)
                self._spares.append(WorkerHandle(self.memory_mb))
                return spare
        return WorkerHandle(self.memory_mb)

    # -- the dispatch loop --------------------------------------------------------------------
    def run(self, tasks: list[dict[str, Any]], timeout_s: float, *, until: float | None = None,
            retry_factor: float = RETRY_FACTOR, depth: int = 1,
            configs: dict[str, dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        """Run every task; each gets ``timeout_s`` seconds of its worker's CPU time.

        Budgets are CPU time, not wall time, so a result does not depend on how busy the machine
        is: a task that spends its budget is retried once with ``retry_factor`` times the budget on
        a fresh worker before it is a ``timeout``. ``until`` is the caller's wall-clock deadline (a
        ``time.monotonic()`` instant): at it, running tasks are killed and the rest come back as
        ``timeout``. Workers that are still starting count against no budget. ``depth`` tasks may
        wait on one worker at once. ``configs`` maps a config key to the message that defines it: a
        task naming ``cfg`` is preceded by that message on a worker that has not had it. ``elapsed_s``
        of a result is the wall time from this call's start to that result; ``cpu_s`` the worker CPU
        time it took.
        """
        if not tasks:
            return []
        began = time.monotonic()
        until = until if until is not None else _INF
        configs = configs or {}
        results: list[dict[str, Any] | None] = [None] * len(tasks)
        pending = deque(range(len(tasks)))
        died: set[int] = set()  # tasks whose worker died once (retried once)
        budgets = [float(timeout_s)] * len(tasks)  # raised once for a task that spent its budget
        workers = self._checkout(min(len(tasks), self.size), until)
        if not workers:  # the deadline passed while other calls held every worker
            return [{"status": "timeout", "reason": "not started: the caller's deadline passed while every sandbox "
                     "worker was busy", "elapsed_s": time.monotonic() - began, "cpu_s": 0.0, "deadline": True}
                    for _ in tasks]
        busy: dict[WorkerHandle, deque[_Queued]] = {}
        selector = selectors.DefaultSelector()
        for w in workers:
            selector.register(w.fd, selectors.EVENT_READ, w)

        def finish(idx: int, status: str, reason: str, cpu: float = 0.0, cut: bool = False) -> None:
            results[idx] = {"status": status, "reason": reason, "elapsed_s": time.monotonic() - began, "cpu_s": cpu}
            if cut:
                results[idx]["deadline"] = True  # cut off by the caller's clock, not by its own budget

        def swap(w: WorkerHandle) -> None:
            self._swap(w, workers, selector)

        def requeue(queue: deque[_Queued]) -> None:
            for job in reversed(queue):  # not started yet: back to the front, in order, uncharged
                pending.appendleft(job.idx)

        def lost(w: WorkerHandle) -> None:
            """The worker's pipe closed: replace it; its task is retried once, the queued ones requeued."""
            if not w.ready:
                self._start_failed(w, workers, selector, pending, results)
                return
            queue = busy.pop(w, deque())
            what, working = w.ended(), bool(queue)
            if queue:
                head = queue.popleft()
                requeue(queue)
                if head.idx in died:
                    finish(head.idx, "error", f"the sandbox worker died twice on this task ({what})")
                else:
                    died.add(head.idx)
                    pending.appendleft(head.idx)
            logger.warning("verifier sandbox worker %s died (%s) and was replaced%s", w.pid, what,
                           "; its task was retried" if working else "")
            swap(w)

        def feed(w: WorkerHandle) -> None:
            queue = busy.get(w)
            while pending and (queue is None or len(queue) < depth):
                idx = pending.popleft()
                messages = []
                key = tasks[idx].get("cfg")
                if key is not None and key not in w.configs:
                    messages.append(configs[key])
                    if len(w.configs) >= _CONFIGS_PER_WORKER:  # the worker forgets the oldest one too
                        messages.append({"kind": "forget", "key": w.configs.popitem(last=False)[0]})
                if key is not None:
                    w.configs[key] = True
                    w.configs.move_to_end(key)
                messages.append({"id": idx, **tasks[idx]})
                if not w.send(*messages):
                    pending.appendleft(idx)
                    lost(w)
                    return
                job = _Queued(idx, budgets[idx])
                if queue is None:
                    queue = busy[w] = deque()
                    job.start(w.cpu, time.monotonic())
                queue.append(job)

        try:
            while pending or busy:
                now = time.monotonic()
                if now >= until:
                    for w, queue in list(busy.items()):
                        del busy[w]
                        finish(queue.popleft().idx, "timeout", "the caller's deadline passed; worker killed", cut=True)
                        for job in queue:
                            finish(job.idx, "timeout", "not finished: the caller's deadline passed first", cut=True)
                        swap(w)
                    while pending:
                        finish(pending.popleft(), "timeout", "not started: the caller's deadline passed first", cut=True)
                    break
                for w in list(workers):
                    if not pending:
                        break
                    if w.ready and w not in busy and not w.runnable():  # stopped or dead since its last task
                        swap(w)
                        continue
                    if w.ready:
                        feed(w)
                now = time.monotonic()
                wakes = [queue[0].check_at for queue in busy.values()] + [until]
                wakes += [w.started + _STARTUP_TIMEOUT_S for w in workers if not w.ready]
                wait = max(0.0, min(wakes) - now)
                for key, _events in selector.select(timeout=min(wait, 5.0)):
                    w = key.data
                    if w not in workers:
                        continue  # replaced while reading another worker's lines
                    lines, eof = w.read_lines()
                    for line in lines:
                        self._on_line(w, line, busy, results, began)
                    if eof:
                        lost(w)
                now = time.monotonic()
                for w, queue in list(busy.items()):
                    head = queue[0]
                    if now < head.check_at:
                        continue
                    used = w.cpu_now() - head.cpu_at_start
                    stalled = now - head.started >= max(_WALL_BACKSTOP_S, _WALL_BACKSTOP_FACTOR * head.budget)
                    if used < head.budget and not stalled:
                        head.check_at = now + max(0.01, head.budget - used)  # CPU time never outruns wall time
                        continue
                    del busy[w]
                    queue.popleft()
                    requeue(queue)
                    swap(w)
                    if stalled and used < head.budget:
                        finish(head.idx, "timeout", f"the worker made no progress for {now - head.started:.0f}s "
                                                    f"(it had used {used:.2f}s of CPU); worker killed", used)
                    elif head.budget == timeout_s and retry_factor > 1:
                        budgets[head.idx] = timeout_s * retry_factor  # retried once with a larger budget
                        pending.appendleft(head.idx)
                    else:
                        first = f"{timeout_s:g}s" + (f" and then {head.budget:g}s" if head.budget != timeout_s else "")
                        finish(head.idx, "timeout", f"exceeded {first} of CPU time; worker killed", used)
                for w in list(workers):
                    if not w.ready and now - w.started > _STARTUP_TIMEOUT_S:
                        self._start_failed(w, workers, selector, pending, results)
                if not workers:
                    break
        finally:
            for w in workers:
                try:
                    selector.unregister(w.fd)
                except (KeyError, ValueError):
                    pass
            selector.close()
            for w in list(busy):  # interrupted mid-task (KeyboardInterrupt): the worker state is unknown
                workers.remove(w)
                w.kill()
                self.restarts += 1
                with self._cond:
                    self._started -= 1
            self._checkin(workers)
        for idx in pending:
            results[idx] = {"status": "error", "elapsed_s": 0.0, "cpu_s": 0.0,
                            "reason": "sandbox workers could not be started"}
        return [r if r is not None else {"status": "error", "reason": "no result", "elapsed_s": 0.0, "cpu_s": 0.0}
                for r in results]

    def warm_up(self, timeout_s: float = _STARTUP_TIMEOUT_S) -> bool:
        """Start every worker and wait until each answers; ``True`` when all are ready in time."""
        results = self.run([{"kind": "ping"}] * self.size, timeout_s=timeout_s, until=time.monotonic() + timeout_s,
                           retry_factor=1)
        return all(r.get("status") == "ok" for r in results)

    def _on_line(self, w: WorkerHandle, line: bytes, busy: dict, results: list, began: float) -> None:
        """Handle one message from a worker: readiness, or the result of the task it works on."""
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            return
        if isinstance(message.get("cpu"), (int, float)):
            w.cpu = float(message["cpu"])
        if message.get("ready"):
            w.ready = True
            self._start_failures = 0
            if message.get("memory_cap") is False and not self.memory_cap_warned:
                self.memory_cap_warned = True
                logger.warning("verifier sandbox runs WITHOUT its memory cap: %s; only the time budget "
                               "bounds a task", message.get("problem"))
            return
        queue = busy.get(w)
        if not queue or message.get("id") != queue[0].idx:
            return
        head = queue.popleft()
        now = time.monotonic()
        message.pop("id", None)
        message.pop("cpu", None)
        message["elapsed_s"] = now - began
        message["cpu_s"] = max(0.0, w.cpu - head.cpu_at_start)
        results[head.idx] = message
        if queue:
            queue[0].start(w.cpu, now)  # the worker goes straight on to the next one
        else:
            del busy[w]

    def _start_failed(self, w, workers, selector, pending, results) -> None:
        tail = w.stderr_tail()
        what = w.ended()
        self._start_failures += 1
        if what.startswith("signal"):
            logger.warning("verifier sandbox worker %s died (%s) before it was ready and was replaced", w.pid, what)
        else:
            logger.error("verifier sandbox worker failed to start (%s): %s", what, tail or "no output")
        if self._start_failures >= _MAX_START_FAILURES:
            try:
                selector.unregister(w.fd)
            except (KeyError, ValueError):
                pass
            w.kill()
            workers.remove(w)
            with self._cond:
                self._started -= 1
            if not workers:
                reason = f"sandbox worker could not start ({what}): {tail or 'no output'}"
                while pending:
                    results[pending.popleft()] = {"status": "error", "reason": reason, "elapsed_s": 0.0, "cpu_s": 0.0}
            return
        self._swap(w, workers, selector)

    def _swap(self, w: WorkerHandle, workers: list[WorkerHandle], selector: selectors.BaseSelector) -> None:
        """Put a fresh worker in ``w``'s place, in ``workers`` and in the selector."""
        try:
            selector.unregister(w.fd)
        except (KeyError, ValueError):
            pass
        fresh = self._replace(w)
        workers[workers.index(w)] = fresh
        selector.register(fresh.fd, selectors.EVENT_READ, fresh)

    # -- lifecycle ----------------------------------------------------------------------------
    def close(self) -> None:
        """Stop every idle worker (EOF first, SIGKILL after a short grace period)."""
        with self._cond:
            self._closed = True
            workers, self._free = self._free + self._spares, []
            self._spares = []
        if os.getpid() != self._pid:  # a forked child must not touch its parent's workers
            return
        for w in workers:
            try:
                w.proc.stdin.close()
            except OSError:
                pass
        deadline = time.monotonic() + 1.0
        for w in workers:
            try:
                w.proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except Exception:  # subprocess.TimeoutExpired: killed below
                pass
            w.kill()

    def worker_pids(self) -> list[int]:
        """PIDs of the idle workers (for tests and diagnostics)."""
        with self._cond:
            return [w.pid for w in self._free]

    def spare_pids(self) -> list[int]:
        with self._cond:
            return [w.pid for w in self._spares]


_POOLS: dict[int, SandboxPool] = {}
_POOLS_LOCK = threading.Lock()


_MAX_POOLS = 2  # pools of other memory caps are closed beyond this: a process never holds more


def get_pool(memory_mb: int = 1024) -> SandboxPool:
    """The process-wide pool for this memory cap, created on first use.

    At most ``_MAX_POOLS`` pools live at once: asking for another memory cap closes the least
    recently used one (its running batches finish; its idle workers stop), so no sequence of
    configs can multiply worker processes.
    """
    retired = []
    with _POOLS_LOCK:
        pool = _POOLS.pop(memory_mb, None)
        if pool is None or pool._closed:
            pool = SandboxPool(memory_mb=memory_mb)
        _POOLS[memory_mb] = pool  # most recently used last
        while len(_POOLS) > _MAX_POOLS:
            retired.append(_POOLS.pop(next(iter(_POOLS))))
    for old in retired:
        old.close()
    return pool


def shutdown_pools() -> None:
    """Stop all workers of every pool (registered with :mod:`atexit`)."""
    with _POOLS_LOCK:
        pools = list(_POOLS.values())
        _POOLS.clear()
    for pool in pools:
        pool.close()


def _forget_after_fork() -> None:
    # The child inherits pipes to the parent's workers; it must start its own pool instead.
    global _POOLS_LOCK
    _POOLS_LOCK = threading.Lock()
    for pool in _POOLS.values():
        pool._closed = True
        pool._free = []
        pool._spares = []
    _POOLS.clear()


atexit.register(shutdown_pools)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)
