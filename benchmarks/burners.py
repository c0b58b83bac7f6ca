"""CPU burners: N pure-Python busy loops beside a command, always stopped when it ends.

A machine shared with other work is what CI and a newcomer's laptop are: ``make test-busy`` runs the
test suite beside 4 burners (``python benchmarks/burners.py -n 4 -- CMD ...``), and
``benchmarks/demo_bench.py`` times ``rlvr train`` beside them. Each burner wants a whole core; it
stops when the ``with`` block (or the wrapped command) ends, whatever the reason, and on its own when
its parent dies (Linux's parent-death signal, and a check of its parent's pid), so no burner
outlives the run that started it.

    python benchmarks/burners.py -n 4 -- .venv/bin/python -m pytest tests/test_cli.py
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time

__all__ = ["Burners", "LoadSampler", "main"]


def _burn(parent: int) -> None:  # a pure-Python busy loop: one process that wants a whole core
    try:  # Linux: SIGKILL this burner when the process that started it dies
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    x = 0
    while True:
        for _ in range(2_000_000):
            x = (x + 1) % 1_000_003
        if os.getppid() != parent:  # the parent died before the signal could be set up (or elsewhere)
            return


class Burners:
    """N busy-loop processes, stopped on exit from the ``with`` block whatever happens inside it."""

    def __init__(self, n: int) -> None:
        self.n, self.procs = n, []

    def __enter__(self) -> Burners:
        ctx = multiprocessing.get_context("spawn")  # nothing of this process (threads, torch) is copied
        try:
            for _ in range(self.n):
                p = ctx.Process(target=_burn, args=(os.getpid(),), daemon=True)
                p.start()
                self.procs.append(p)
        except BaseException:
            self.stop()
            raise
        if self.n:
            time.sleep(1.0)  # let them reach full speed before the timed work starts
        return self

    def stop(self) -> None:
        for p in self.procs:
            p.terminate()
        for p in self.procs:
            p.join(timeout=5)
            if p.is_alive():
                p.kill()
                p.join()
        self.procs = []

    def __exit__(self, *exc: object) -> None:
        self.stop()


class LoadSampler(threading.Thread):
    """Samples the 1-minute load average every few seconds while a run goes on."""

    def __init__(self, every: float = 5.0) -> None:
        super().__init__(daemon=True)
        self.every, self.samples, self.stop = every, [], threading.Event()

    def run(self) -> None:
        while not self.stop.wait(self.every):
            self.samples.append(os.getloadavg()[0])

    def mean(self) -> float:
        return sum(self.samples) / len(self.samples) if self.samples else os.getloadavg()[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--burners", type=int, default=4, help="busy-loop processes beside the command")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command to run (after --)")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command to run after --, e.g. -- python -m pytest")

    def stop(signum: int, _frame: object) -> None:  # SIGTERM: leave through the finally blocks below
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    print(f"# {' '.join(command)} beside {args.burners} CPU burners on {os.cpu_count()} CPUs "
          f"(load {os.getloadavg()[0]:.2f} before)", flush=True)
    started = time.perf_counter()
    with Burners(args.burners):
        sampler = LoadSampler()
        sampler.start()
        proc = subprocess.Popen(command)
        try:
            code = proc.wait()
        except BaseException:  # Ctrl-C or SIGTERM: stop the command too, then the burners
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            raise
        finally:
            sampler.stop.set()
    print(f"# exit {code} after {time.perf_counter() - started:.0f} s beside {args.burners} burners "
          f"(load {sampler.mean():.2f} on average); burners stopped", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
