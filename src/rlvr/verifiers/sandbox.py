"""A pool of pre-started worker processes for symbolic comparisons, with hard per-task limits.

Why processes, and why our own pool: sympy and math-verify can run for minutes or exhaust memory on
adversarial input, and math-verify's own timeouts use ``signal.alarm`` (main thread only, blind to
long C calls). Each worker here is a plain subprocess (``python -m rlvr.verifiers._worker``) talking
JSON lines over pipes, so the pool works the same from the main thread, worker threads, asyncio and
forked children, never re-imports the user's ``__main__``, and never uses signals in the caller. A
task that runs past its wall-clock limit gets its worker killed (SIGKILL) and replaced; a worker
that dies (``kill -9``, OOM) is replaced and its task retried once.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

__all__ = ["SandboxPool", "get_pool", "shutdown_pools", "default_workers"]

_STARTUP_TIMEOUT_S = 90.0
_MAX_START_FAILURES = 3
#: a comparison that spends its CPU budget is retried once with this many times the budget
RETRY_FACTOR = 4.0
# a worker that uses no CPU for this long (stopped, starved, blocked) is killed whatever its budget says
_WALL_BACKSTOP_S = 30.0
_WALL_BACKSTOP_FACTOR = 20.0
_CLOCK_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass
class _Running:
    """A task on a worker: its index, CPU budget, the worker's CPU time when sent, and timers."""

    idx: int
    budget: float
    cpu_at_send: float
    sent: float
    check_at: float = 0.0

    def __post_init__(self) -> None:
        self.check_at = self.sent + self.budget  # the earliest wall time its CPU budget can be spent


def default_workers() -> int:
    """Pool size: ``RLVR_VERIFIER_WORKERS`` if set, else min(4, CPU count)."""
    env = os.environ.get("RLVR_VERIFIER_WORKERS")
    if env:
        try:
            return max(1, int(env))
        except ValueError:
            logger.warning("ignoring RLVR_VERIFIER_WORKERS=%r: not an integer", env)
    return max(1, min(4, os.cpu_count() or 1))


class _Worker:
    """One worker subprocess and the bytes read from it so far."""

    def __init__(self, memory_mb: int) -> None:
        src_root = str(Path(__file__).resolve().parents[2])
        env = dict(os.environ)
        env.update(SYMPY_GROUND_TYPES="python", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
                   MKL_NUM_THREADS="1", PYTHONUNBUFFERED="1",
                   PYTHONPATH=os.pathsep.join(p for p in (src_root, env.get("PYTHONPATH")) if p))
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rlvr.verifiers._worker", str(memory_mb)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, env=env,
            close_fds=True, start_new_session=True,
        )
        os.set_blocking(self.proc.stdout.fileno(), False)
        self.buffer = b""
        self.ready = False
        self.started = time.monotonic()
        self.cpu = 0.0  # the worker's own CPU seconds, as it last reported them

    def cpu_now(self) -> float:
        """The worker's CPU seconds now (from /proc; its last report where there is no /proc)."""
        try:
            with open(f"/proc/{self.proc.pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / _CLOCK_TICK
        except (OSError, IndexError, ValueError):
            return self.cpu + (time.monotonic() - self.started)

    @property
    def fd(self) -> int:
        return self.proc.stdout.fileno()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def runnable(self) -> bool:
        """Alive and not stopped (a SIGSTOPped worker would turn an honest answer into a timeout)."""
        if self.proc.poll() is not None:
            return False
        try:
            with open(f"/proc/{self.proc.pid}/stat", "rb") as f:
                state = f.read().rsplit(b")", 1)[1].split()[0]
        except (OSError, IndexError):
            return True  # no /proc (not Linux): trust poll()
        return state not in (b"T", b"t", b"Z", b"X")

    def read_lines(self) -> tuple[list[bytes], bool]:
        """Lines available now, and whether the pipe reached EOF (the worker is gone)."""
        eof = False
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except BlockingIOError:
                break
            except OSError:
                eof = True
                break
            if not chunk:
                eof = True
                break
            self.buffer += chunk
        *lines, self.buffer = self.buffer.split(b"\n")
        return lines, eof

    def send(self, message: dict[str, Any]) -> bool:
        try:
            self.proc.stdin.write(json.dumps(message).encode() + b"\n")
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError, ValueError):
            return False

    def stderr_tail(self) -> str:
        try:
            self.stderr.seek(0, os.SEEK_END)
            size = self.stderr.tell()
            self.stderr.seek(max(0, size - 600))
            return self.stderr.read().decode("utf-8", "replace").strip().splitlines()[-1:][0]
        except (OSError, IndexError):
            return ""

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        self.close_pipes()

    def close_pipes(self) -> None:
        for stream in (self.proc.stdin, self.proc.stdout, self.stderr):
            try:
                stream.close()
            except OSError:
                pass


class SandboxPool:
    """Runs comparison tasks on ``size`` worker processes with a memory cap each.

    :meth:`run` takes task dicts (``answer``, ``gold``, ``abs_tol``, ``rel_tol``) and returns one
    result dict per task (``status``, ``reason``, ``elapsed_s``); it never raises for a task's sake:
    timeouts, crashes and start failures come back as ``timeout`` / ``error`` results. Thread-safe:
    concurrent callers share the workers.
    """

    def __init__(self, size: int | None = None, memory_mb: int = 1024) -> None:
        self.size = size or default_workers()
        self.memory_mb = memory_mb
        self._free: list[_Worker] = []
        self._started = 0
        self._cond = threading.Condition()
        self._closed = False
        self._pid = os.getpid()
        self._start_failures = 0
        self._spares: list[_Worker] = []
        self.restarts = 0
        self.memory_cap_warned = False

    # -- worker bookkeeping -------------------------------------------------------------------
    def _checkout(self, wanted: int) -> list[_Worker]:
        with self._cond:
            if self._closed:
                raise RuntimeError("the verifier sandbox pool is shut down")
            while self._started < self.size:  # lazy start: all workers boot in parallel
                self._free.append(_Worker(self.memory_mb))
                self._started += 1
            if not self._spares:  # a warm spare replaces a killed worker without a cold start
                self._spares.append(_Worker(self.memory_mb))
            while not self._free:
                self._cond.wait()
            taken = self._free[:max(1, wanted)]
            del self._free[:len(taken)]
            return taken

    def _checkin(self, workers: list[_Worker]) -> None:
        with self._cond:
            if self._closed:
                for w in workers:
                    w.kill()
                return
            self._free.extend(workers)
            self._cond.notify_all()

    def _replace(self, worker: _Worker) -> _Worker:
        worker.kill()
        self.restarts += 1
        with self._cond:
            spare = next((w for w in self._spares if w.alive()), None)
            if spare is not None:
                self._spares.remove(spare)
                self._spares.append(_Worker(self.memory_mb))
                return spare
        return _Worker(self.memory_mb)

    # -- the dispatch loop --------------------------------------------------------------------
    def run(self, tasks: list[dict[str, Any]], timeout_s: float, deadline_s: float | None = None, *,
            until: float | None = None, retry_factor: float = RETRY_FACTOR) -> list[dict[str, Any]]:
        """Run every task; each gets ``timeout_s`` seconds of its worker's CPU time.

        Budgets are CPU time, not wall time, so a verdict does not depend on how busy the machine
        is: a comparison that spends its budget is retried once with ``retry_factor`` times the
        budget on a fresh worker before it is a ``timeout``. ``deadline_s`` bounds the CPU time all
        of this call's tasks may spend together; the tasks it leaves undone are ``timeout``.
        ``until`` is the caller's own wall-clock deadline (a ``time.monotonic()`` instant): at it,
        running tasks are killed and the rest come back as ``timeout``. Workers that are still
        starting count against no budget. ``elapsed_s`` of a result is the wall time from this
        call's start to that result; ``cpu_s`` the worker CPU time it took.
        """
        if not tasks:
            return []
        began = time.monotonic()
        until = until if until is not None else float("inf")
        spent = 0.0  # CPU seconds used by this call's tasks
        results: list[dict[str, Any] | None] = [None] * len(tasks)
        pending = deque(range(len(tasks)))
        died: set[int] = set()  # tasks whose worker died once (retried once)
        budgets = [float(timeout_s)] * len(tasks)  # raised once for a task that spent its budget
        workers = self._checkout(min(len(tasks), self.size))
        busy: dict[_Worker, _Running] = {}
        selector = selectors.DefaultSelector()
        for w in workers:
            selector.register(w.fd, selectors.EVENT_READ, w)

        def finish(idx: int, status: str, reason: str, cpu: float = 0.0) -> None:
            results[idx] = {"status": status, "reason": reason, "elapsed_s": time.monotonic() - began, "cpu_s": cpu}

        batch_check_at = began

        def batch_spent(now: float) -> float:
            """CPU spent so far, running tasks included (read only when the budget could be gone)."""
            nonlocal batch_check_at
            if deadline_s is None:
                return 0.0
            if now < batch_check_at:
                return spent
            total = spent + sum(max(0.0, w.cpu_now() - job.cpu_at_send) for w, job in busy.items())
            batch_check_at = now + max(0.01, (deadline_s - total) / max(1, len(busy)))
            return total

        try:
            while pending or busy:
                now = time.monotonic()
                if now >= until or (deadline_s is not None and batch_spent(now) >= deadline_s):
                    why = ("the caller's deadline passed" if now >= until
                           else f"the batch's CPU budget of {deadline_s:g}s was spent")
                    for w, job in list(busy.items()):
                        del busy[w]
                        finish(job.idx, "timeout", f"{why}; worker killed")
                        self._swap(w, workers, selector)
                    while pending:
                        finish(pending.popleft(), "timeout", f"not compared: {why} first")
                    break
                for w in list(workers):
                    if not pending:
                        break
                    if w.ready and w not in busy:
                        if not w.runnable():  # stopped or dead since its last task: replace first
                            self._swap(w, workers, selector)
                            continue
                        idx = pending.popleft()
                        if w.send({"id": idx, **tasks[idx]}):
                            busy[w] = _Running(idx, budgets[idx], w.cpu, time.monotonic())
                        else:
                            pending.appendleft(idx)
                            self._handle_death(w, workers, selector, busy, pending, results, died, began)
                now = time.monotonic()
                wakes = [job.check_at for job in busy.values()] + [until]
                if deadline_s is not None and busy:
                    wakes.append(batch_check_at)
                wakes += [w.started + _STARTUP_TIMEOUT_S for w in workers if not w.ready]
                wait = max(0.0, min(wakes) - now)
                for key, _events in selector.select(timeout=min(wait, 5.0)):
                    w = key.data
                    lines, eof = w.read_lines()
                    for line in lines:
                        done = self._on_line(w, line, busy, results, began)
                        if done is not None:
                            spent += done
                    if eof:
                        self._handle_death(w, workers, selector, busy, pending, results, died, began)
                now = time.monotonic()
                for w, job in list(busy.items()):
                    if now < job.check_at:
                        continue
                    used = w.cpu_now() - job.cpu_at_send
                    stalled = now - job.sent >= max(_WALL_BACKSTOP_S, _WALL_BACKSTOP_FACTOR * job.budget)
                    if used < job.budget and not stalled:
                        job.check_at = now + max(0.01, job.budget - used)  # CPU time never outruns wall time
                        continue
                    del busy[w]
                    spent += max(used, 0.0)
                    self._swap(w, workers, selector)
                    if stalled and used < job.budget:
                        finish(job.idx, "timeout", f"the worker made no progress for {now - job.sent:.0f}s "
                                                   f"(it had used {used:.2f}s of CPU); worker killed", used)
                    elif job.budget == timeout_s and retry_factor > 1:
                        budgets[job.idx] = timeout_s * retry_factor  # retried once with a larger budget
                        pending.appendleft(job.idx)
                    else:
                        first = f"{timeout_s:g}s" + (f" and then {job.budget:g}s" if job.budget != timeout_s else "")
                        finish(job.idx, "timeout", f"symbolic comparison exceeded {first} of CPU time; worker killed",
                               used)
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
        probe = [{"answer": "x+1", "gold": "1+x", "abs_tol": 0.0, "rel_tol": 0.0}] * self.size
        results = self.run(probe, timeout_s=timeout_s, until=time.monotonic() + timeout_s, retry_factor=1)
        return all(r["status"] == "correct" for r in results)

    def _on_line(self, w: _Worker, line: bytes, busy: dict, results: list, began: float) -> float | None:
        """Handle one message; the CPU seconds a finished task took, else ``None``."""
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            return None
        if isinstance(message.get("cpu"), (int, float)):
            w.cpu = float(message["cpu"])
        if message.get("ready"):
            w.ready = True
            self._start_failures = 0
            if message.get("memory_cap") is False and not self.memory_cap_warned:
                self.memory_cap_warned = True
                logger.warning("verifier sandbox runs WITHOUT its memory cap: %s; only the time budget "
                               "bounds a comparison", message.get("problem"))
            return None
        job = busy.get(w)
        if job is not None and message.get("id") == job.idx:
            del busy[w]
            cpu = max(0.0, w.cpu - job.cpu_at_send)
            results[job.idx] = {"status": message.get("status", "error"), "reason": message.get("reason", ""),
                                "elapsed_s": time.monotonic() - began, "cpu_s": cpu}
            return cpu
        return None

    def _swap(self, w: _Worker, workers: list[_Worker], selector: selectors.BaseSelector) -> None:
        try:
            selector.unregister(w.fd)
        except (KeyError, ValueError):
            pass
        fresh = self._replace(w)
        workers[workers.index(w)] = fresh
        selector.register(fresh.fd, selectors.EVENT_READ, fresh)

    def _handle_death(self, w, workers, selector, busy, pending, results, died, began) -> None:
        code = w.proc.poll()
        if not w.ready:
            self._start_failed(w, workers, selector, pending, results)
            return
        job = busy.pop(w, None)
        if job is not None:
            if job.idx in died:
                results[job.idx] = {"status": "error", "elapsed_s": time.monotonic() - began, "cpu_s": 0.0,
                                    "reason": f"sandbox worker died (exit code {code}) twice on this comparison"}
            else:
                died.add(job.idx)
                pending.appendleft(job.idx)
        logger.warning("verifier sandbox worker %s died (exit code %s); replacing it", w.proc.pid, code)
        self._swap(w, workers, selector)

    def _start_failed(self, w, workers, selector, pending, results) -> None:
        tail = w.stderr_tail()
        self._start_failures += 1
        logger.error("verifier sandbox worker failed to start: %s", tail or "no output")
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
                reason = f"sandbox worker could not start: {tail or 'no output'}"
                while pending:
                    results[pending.popleft()] = {"status": "error", "reason": reason, "elapsed_s": 0.0}
            return
        self._swap(w, workers, selector)

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
            except subprocess.TimeoutExpired:
                pass
            w.kill()

    def worker_pids(self) -> list[int]:
        """PIDs of the idle workers (for tests and diagnostics)."""
        with self._cond:
            return [w.proc.pid for w in self._free]


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
