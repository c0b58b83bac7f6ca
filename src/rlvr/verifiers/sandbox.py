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
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

__all__ = ["SandboxPool", "get_pool", "shutdown_pools", "default_workers"]

_STARTUP_TIMEOUT_S = 90.0
_MAX_START_FAILURES = 3


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
    def run(self, tasks: list[dict[str, Any]], timeout_s: float,
            deadline_s: float | None = None) -> list[dict[str, Any]]:
        """Run every task; each gets at most ``timeout_s`` seconds of a worker's wall clock.

        ``deadline_s`` bounds the whole call: tasks still running or waiting then come back as
        ``timeout``. ``elapsed_s`` of a result is the time from this call's start to that result
        (queueing and worker restarts included), the time the caller really waited.
        """
        if not tasks:
            return []
        began = time.monotonic()
        final = began + deadline_s if deadline_s else float("inf")
        results: list[dict[str, Any] | None] = [None] * len(tasks)
        pending = deque(range(len(tasks)))
        retried: set[int] = set()
        workers = self._checkout(min(len(tasks), self.size))
        busy: dict[_Worker, tuple[int, float, float]] = {}  # worker -> (task, sent, deadline)
        selector = selectors.DefaultSelector()
        for w in workers:
            selector.register(w.fd, selectors.EVENT_READ, w)
        try:
            while pending or busy:
                for w in list(workers):
                    if not pending:
                        break
                    if w.ready and w not in busy:
                        if not w.runnable():  # stopped or dead since its last task: replace first
                            self._swap(w, workers, selector)
                            continue
                        idx = pending.popleft()
                        if w.send({"id": idx, **tasks[idx]}):
                            now = time.monotonic()
                            busy[w] = (idx, now, now + timeout_s)
                        else:
                            pending.appendleft(idx)
                            self._handle_death(w, workers, selector, busy, pending, results, retried)
                now = time.monotonic()
                if now >= final:
                    for w, (idx, _sent, _deadline) in list(busy.items()):
                        del busy[w]
                        results[idx] = {"status": "timeout", "elapsed_s": now - began,
                                        "reason": f"the batch's deadline of {deadline_s:g}s passed; worker killed"}
                        self._swap(w, workers, selector)
                    while pending:
                        results[pending.popleft()] = {
                            "status": "timeout", "elapsed_s": now - began,
                            "reason": f"not compared: the batch's deadline of {deadline_s:g}s passed first"}
                    break
                deadlines = [d for (_i, _s, d) in busy.values()] + ([final] if busy or pending else [])
                deadlines += [w.started + _STARTUP_TIMEOUT_S for w in workers if not w.ready]
                wait = max(0.0, min(deadlines) - now) if deadlines else 0.05
                for key, _events in selector.select(timeout=min(wait, 5.0)):
                    w = key.data
                    lines, eof = w.read_lines()
                    for line in lines:
                        self._on_line(w, line, busy, results, began)
                    if eof:
                        self._handle_death(w, workers, selector, busy, pending, results, retried)
                now = time.monotonic()
                for w, (idx, sent, deadline) in list(busy.items()):
                    if now >= deadline:
                        del busy[w]
                        results[idx] = {"status": "timeout", "elapsed_s": now - began,
                                        "reason": f"symbolic comparison exceeded {timeout_s:g}s; worker killed"}
                        self._swap(w, workers, selector)
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
            results[idx] = {"status": "error", "elapsed_s": 0.0,
                            "reason": "sandbox workers could not be started"}
        return [r if r is not None else {"status": "error", "reason": "no result", "elapsed_s": 0.0}
                for r in results]

    def _on_line(self, w: _Worker, line: bytes, busy: dict, results: list, began: float) -> None:
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            return
        if message.get("ready"):
            w.ready = True
            self._start_failures = 0
            if message.get("memory_cap") is False and not self.memory_cap_warned:
                self.memory_cap_warned = True
                logger.warning("verifier sandbox runs WITHOUT its memory cap: %s; only the wall-clock "
                               "timeout bounds a comparison", message.get("problem"))
            return
        if w in busy and message.get("id") == busy[w][0]:
            idx, _sent, _deadline = busy.pop(w)
            results[idx] = {"status": message.get("status", "error"), "reason": message.get("reason", ""),
                            "elapsed_s": time.monotonic() - began}

    def _swap(self, w: _Worker, workers: list[_Worker], selector: selectors.BaseSelector) -> None:
        try:
            selector.unregister(w.fd)
        except (KeyError, ValueError):
            pass
        fresh = self._replace(w)
        workers[workers.index(w)] = fresh
        selector.register(fresh.fd, selectors.EVENT_READ, fresh)

    def _handle_death(self, w, workers, selector, busy, pending, results, retried) -> None:
        code = w.proc.poll()
        if not w.ready:
            self._start_failed(w, workers, selector, pending, results)
            return
        if w in busy:
            idx, sent, _deadline = busy.pop(w)
            if idx in retried:
                results[idx] = {"status": "error", "elapsed_s": time.monotonic() - sent,
                                "reason": f"sandbox worker died (exit code {code}) twice on this comparison"}
            else:
                retried.add(idx)
                pending.appendleft(idx)
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


def get_pool(memory_mb: int = 1024) -> SandboxPool:
    """The process-wide pool for this memory cap, created on first use."""
    with _POOLS_LOCK:
        pool = _POOLS.get(memory_mb)
        if pool is None or pool._closed:
            pool = _POOLS[memory_mb] = SandboxPool(memory_mb=memory_mb)
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
