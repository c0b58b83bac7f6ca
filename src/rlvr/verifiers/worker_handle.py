"""The parent's handle on one sandbox worker subprocess: start, send, read, measure, kill.

A worker is ``python -m rlvr.verifiers._worker MEMORY_MB`` in a session of its own, speaking JSON
lines over pipes. The handle knows how much CPU the worker has used (from ``/proc``, so a budget is
measured in the worker's own CPU seconds, not in wall time), whether it is runnable (a stopped
worker would turn a right answer into a timeout), which configs it has been given, and how it
ended (an exit code or a signal, for the log).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any

from rlvr.verifiers.limits import WORKER_ENV

__all__ = ["WorkerHandle", "CLOCK_TICK"]

CLOCK_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


class WorkerHandle:
    """One worker subprocess and the bytes read from it so far."""

    def __init__(self, memory_mb: int) -> None:
        src_root = str(Path(__file__).resolve().parents[2])
        env = dict(os.environ)
        env.update(SYMPY_GROUND_TYPES="python", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
                   MKL_NUM_THREADS="1", PYTHONUNBUFFERED="1", **{WORKER_ENV: "1"},
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
        self.configs: OrderedDict[str, bool] = OrderedDict()  # keys of the configs it was sent, oldest first

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def fd(self) -> int:
        return self.proc.stdout.fileno()

    def cpu_now(self) -> float:
        """The worker's CPU seconds now (from /proc; its last report where there is no /proc)."""
        try:
            with open(f"/proc/{self.proc.pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / CLOCK_TICK
        except (OSError, IndexError, ValueError):
            return self.cpu + (time.monotonic() - self.started)

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
                chunk = os.read(self.fd, 1 << 16)
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

    def send(self, *messages: dict[str, Any]) -> bool:
        """Write the messages as JSON lines; ``False`` when the worker's pipe is gone."""
        try:
            self.proc.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError, ValueError):
            return False

    def ended(self, wait_s: float = 1.0) -> str:
        """How the process ended, in words ("signal SIGKILL", "exit code 1"), or "running". Its pipe closes
        a moment before the kernel reaps it, so this waits up to ``wait_s`` for the status."""
        try:
            code = self.proc.wait(timeout=wait_s)
        except subprocess.TimeoutExpired:
            return "running"
        if code < 0:
            try:
                return f"signal {signal.Signals(-code).name}"
            except ValueError:
                return f"signal {-code}"
        return f"exit code {code}"

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
