"""What `make demo` costs on this machine, idle and beside other work: `rlvr train` (the embedded
default) run twice, once alone and once beside N CPU-burning processes (pure-Python busy loops this
script starts and always stops), printed side by side with the load average around each run.

Target: the busy run's wall time within 3x of the idle one (2 cores, 4 burners: the run's fair share
of the CPU is 2/6 of what it had alone, so 3x is what losing only that share costs). Before rlvr set
its thread counts at run start, GRPO steps went from 0.4 s to 29 s beside other work (threads
spinning at OpenMP barriers while their partner thread waited for a core).

    python benchmarks/demo_bench.py                          # the whole embedded default (minutes)
    python benchmarks/demo_bench.py --set trainer.max_steps=50 --set cold_start.steps=50   # shorter
    python benchmarks/demo_bench.py --only busy --set runtime.threads=1   # one condition, a thread count
    python benchmarks/demo_bench.py --env OMP_WAIT_POLICY= --set runtime.threads=2   # the old behaviour (spinning)

"Idle" means no burners: on a shared machine other work still runs, which is why the load average
is printed beside every figure. Exit code 1 when the busy run is more than 3x the idle one.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

TARGET_RATIO = 3.0


def _burn() -> None:  # a pure-Python busy loop: one process that wants a whole core
    x = 0
    while True:
        x = (x + 1) % 1_000_003


class Burners:
    """N busy-loop processes, stopped on exit from the ``with`` block whatever happens inside it."""

    def __init__(self, n: int) -> None:
        self.n, self.procs = n, []

    def __enter__(self) -> Burners:
        ctx = multiprocessing.get_context("spawn")  # nothing of this process (threads, torch) is copied
        for _ in range(self.n):
            p = ctx.Process(target=_burn, daemon=True)
            p.start()
            self.procs.append(p)
        time.sleep(1.0)  # let them reach full speed before the timed run starts
        return self

    def __exit__(self, *exc: object) -> None:
        for p in self.procs:
            p.terminate()
        for p in self.procs:
            p.join(timeout=5)
            if p.is_alive():
                p.kill()
                p.join()


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


def _grpo_seconds(run_dir: Path) -> tuple[float | None, int | None]:
    """TRL's own train_runtime and the step count, from the run's metrics.jsonl."""
    runtime, steps = None, None
    path = run_dir / "metrics.jsonl"
    if path.is_file():
        for line in path.read_text().splitlines():
            row = json.loads(line)
            if "train_runtime" in row:
                runtime, steps = float(row["train_runtime"]), int(row.get("step", 0))
    return runtime, steps


def run_once(label: str, burners: int, overrides: list[str], env: dict[str, str], work: Path) -> dict:
    run_dir = work / label
    cmd = [sys.executable, "-m", "rlvr", "train", "--set", f"output.dir={run_dir}"]
    for item in overrides:
        cmd += ["--set", item]
    load_before = os.getloadavg()[0]
    with Burners(burners):
        sampler = LoadSampler()
        sampler.start()
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True,
                              env={**os.environ, "COLUMNS": "250", **env})  # unwrapped log lines
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)  # before the burners are reaped
        sampler.stop.set()
    if done.returncode != 0:
        sys.exit(f"{label}: rlvr train failed (exit {done.returncode}):\n{done.stderr[-3000:]}")
    cpu = (after.ru_utime - usage.ru_utime) + (after.ru_stime - usage.ru_stime)
    grpo, steps = _grpo_seconds(run_dir)
    threads = next((line.split("threads:", 1)[1].strip() for line in done.stderr.splitlines()
                    if "threads:" in line), "not logged")
    return {"label": label, "burners": burners, "load_before": load_before, "load_during": sampler.mean(),
            "wall": wall, "cpu": cpu, "grpo": grpo, "steps": steps, "threads": threads,
            "result": next((line for line in done.stdout.splitlines() if "held-out accuracy" in line), "")}


def _fmt(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override a field of the embedded default (shorter runs for a quick check)")
    parser.add_argument("--burners", type=int, default=4, help="busy-loop processes beside the busy run")
    parser.add_argument("--only", choices=["idle", "busy"], help="run one condition")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                        help="environment of the rlvr train runs (e.g. OMP_WAIT_POLICY=ACTIVE to compare)")
    parser.add_argument("--keep", action="store_true", help="keep the run folders (printed)")
    args = parser.parse_args()
    env = dict(item.split("=", 1) for item in args.env)
    work = Path(tempfile.mkdtemp(prefix="rlvr-demo-bench-"))
    print(f"# rlvr train (embedded default{', ' + ' '.join(args.set) if args.set else ''}) on "
          f"{os.cpu_count()} CPUs; env {env or 'unchanged'}; burners: {args.burners} pure-Python busy loops")
    conditions = [("idle", 0), ("busy", args.burners)]
    if args.only:
        conditions = [c for c in conditions if c[0] == args.only]
    results = []
    try:
        for label, n in conditions:
            results.append(run_once(label, n, args.set, env, work))
            r = results[-1]
            print(f"  {label}: {r['wall']:.0f} s wall, load {r['load_before']:.2f} before / {r['load_during']:.2f} "
                  f"during; {r['result']}", flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"\n{'run':<6} {'burners':>7} {'load before':>11} {'load during':>11} {'wall s':>7} {'CPU s':>7} "
          f"{'CPU/wall':>8} {'GRPO s':>7} {'s/step':>7}  threads")
    for r in results:
        per_step = r["grpo"] / r["steps"] if r["grpo"] and r["steps"] else None
        print(f"{r['label']:<6} {r['burners']:>7} {r['load_before']:>11.2f} {r['load_during']:>11.2f} {r['wall']:>7.0f} "
              f"{r['cpu']:>7.0f} {r['cpu'] / r['wall']:>8.2f} {_fmt(r['grpo'], '7.0f')} {_fmt(per_step, '7.3f')}  "
              f"{r['threads']}")
    if len(results) == 2:
        idle, busy = results
        ratio = busy["wall"] / idle["wall"]
        grpo = busy["grpo"] / idle["grpo"] if busy["grpo"] and idle["grpo"] else None
        verdict = "within" if ratio <= TARGET_RATIO else "OVER"
        print(f"\nbusy / idle: wall {ratio:.2f}x, GRPO {_fmt(grpo, '.2f')}x, CPU {busy['cpu'] / idle['cpu']:.2f}x "
              f"({verdict} the {TARGET_RATIO:g}x target)")
        if args.keep:
            print(f"run folders: {work}")
        return 0 if ratio <= TARGET_RATIO else 1
    if args.keep:
        print(f"run folders: {work}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
