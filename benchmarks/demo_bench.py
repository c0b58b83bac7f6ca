"""What `make demo` costs and what it reaches on this machine, idle and beside other work: `rlvr train`
(the embedded default) once per seed alone, and once beside N CPU-burning processes (pure-Python busy
loops this script starts and always stops), printed side by side with the load average around each run.

Target: the busy run's wall time within 3x of the idle one (2 cores, 4 burners: the run's fair share
of the CPU is 2/6 of what it had alone, so 3x is what losing only that share costs). Before rlvr set
its thread counts at run start, GRPO steps went from 0.4 s to 29 s beside other work (threads
spinning at OpenMP barriers while their partner thread waited for a core).

    python benchmarks/demo_bench.py                          # the whole embedded default (minutes)
    nice -n 10 python benchmarks/demo_bench.py --seeds 0,1,2 --write   # the README's figures (see below)
    python benchmarks/demo_bench.py --set trainer.max_steps=50 --set cold_start.steps=50   # shorter
    python benchmarks/demo_bench.py --only busy --set runtime.threads=1   # one condition, a thread count
    python benchmarks/demo_bench.py --env OMP_WAIT_POLICY= --set runtime.threads=2   # the old behaviour (spinning)

``--write`` records what was measured (held-out pass@1 before and after GRPO for each seed, wall and
CPU seconds, the load average, the commit, the machine's CPUs) in ``benchmarks/results/demo_bench.json``
and rewrites the README's block between the ``demo-bench`` markers from it, so the README quotes the
figures of the last measured commit and nothing else (tests/test_readme_figures.py checks the block
against the file). With several seeds the block states the range over them. Runs given ``--set``
overrides are not the demo: ``--write`` refuses them. ``--render`` rewrites the block from the saved
file without running anything.

"Idle" means no burners: on a shared machine other work still runs, which is why the load average
is printed beside every figure. Exit code 1 when the busy run is more than 3x the idle one.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from burners import Burners, LoadSampler  # benchmarks/burners.py (make test-busy's too): benchmarks/ is on sys.path

TARGET_RATIO = 3.0


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


def _pass_at_1(run_dir: Path) -> tuple[float | None, float | None]:
    """Held-out pass@1 before and after GRPO, from the run's summary.json (what `rlvr train` printed)."""
    try:
        summary = json.loads((run_dir / "summary.json").read_text())
    except (OSError, ValueError):
        return None, None
    return ((summary.get("before") or {}).get("pass@1"), (summary.get("after") or {}).get("pass@1"))


def run_once(label: str, burners: int, seed: int | None, overrides: list[str], env: dict[str, str],
             work: Path) -> dict:
    run_dir = work / (label if seed is None else f"{label}-seed{seed}")
    cmd = [sys.executable, "-m", "rlvr", "train", "--set", f"output.dir={run_dir}"]
    if seed is not None:
        cmd += ["--set", f"trainer.seed={seed}"]
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
    before, after_p = _pass_at_1(run_dir)
    threads = next((line.split("threads:", 1)[1].strip() for line in done.stderr.splitlines()
                    if "threads:" in line), "not logged")
    return {"label": label, "seed": seed, "burners": burners, "load_before": round(load_before, 2),
            "load_during": round(sampler.mean(), 2), "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
            "grpo_s": grpo, "steps": steps, "threads": threads, "pass1_before": before, "pass1_after": after_p,
            "result": next((line for line in done.stdout.splitlines() if "held-out accuracy" in line), "")}


def _fmt(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def _commit() -> str:
    """The commit measured: its short hash, '+changes' when the work tree differs from it."""
    root = Path(__file__).resolve().parents[1]
    try:
        sha = subprocess.run(["git", "rev-parse", "--short=10", "HEAD"], cwd=root, capture_output=True, text=True,
                             check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return sha + ("+changes" if dirty else "")


# ---- the README's figures block: written from the results file, never by hand ----------------------

BEGIN = "<!-- demo-bench:begin (written by `python benchmarks/demo_bench.py --write`; do not edit by hand) -->"
END = "<!-- demo-bench:end -->"
RESULTS = Path(__file__).resolve().parent / "results" / "demo_bench.json"
README = Path(__file__).resolve().parents[1] / "README.md"


def _pct(v: float | None) -> str:
    return "?" if v is None else f"{v:.1%}"


def _span(values: list[float | None]) -> str:
    known = sorted(v for v in values if v is not None)
    if not known:
        return "?"
    return _pct(known[0]) if known[0] == known[-1] else f"{_pct(known[0])}–{_pct(known[-1])}"


def render_block(record: dict) -> str:
    """The README's figures, in words, from a results record (what ``--write`` saved)."""
    idle = [r for r in record["runs"] if r["burners"] == 0]
    busy = [r for r in record["runs"] if r["burners"] > 0]
    lines = [BEGIN]
    if idle:
        first = idle[0]
        text = (f"`benchmarks/demo_bench.py` measured `make demo` (`rlvr train`) on commit `{record['commit']}` "
                f"({record['date']}, {record['cpus']} CPUs): held-out pass@1 **{_pct(first['pass1_before'])} → "
                f"{_pct(first['pass1_after'])}** with seed {first['seed']}")
        if len(idle) > 1:
            seeds = ", ".join(str(r["seed"]) for r in idle)
            before, after = _span([r["pass1_before"] for r in idle]), _span([r["pass1_after"] for r in idle])
            same = before == _pct(first["pass1_before"]) and after == _pct(first["pass1_after"])
            text += (f" (the same with seeds {seeds})" if same else
                     f" (seeds {seeds}: {before} before, {after} after: it varies by seed)")
        walls = [r["wall_s"] for r in idle]
        text += (f"; {first['wall_s']:,.0f} s wall and {first['cpu_s']:,.0f} s of CPU at load "
                 f"{first['load_during']:.1f} ({first['load_before']:.1f} before it started: other jobs share "
                 "the machine)" if first["load_before"] >= 1.0 else
                 f"; {first['wall_s']:,.0f} s wall and {first['cpu_s']:,.0f} s of CPU at load "
                 f"{first['load_during']:.1f} (an otherwise idle machine: load {first['load_before']:.1f} before)")
        if len(idle) > 1:
            text += f", {min(walls):,.0f}–{max(walls):,.0f} s over the seeds"
        if busy:
            b = busy[0]
            text += (f"; beside {b['burners']} more busy processes (load {b['load_during']:.1f}) "
                     f"{b['wall_s']:,.0f} s ({b['wall_s'] / first['wall_s']:.1f}x) with {b['cpu_s']:,.0f} s of CPU")
        import textwrap

        lines.append(textwrap.fill(text + ".", width=100, break_long_words=False, break_on_hyphens=False))
    else:
        lines.append("`benchmarks/demo_bench.py` has no idle run recorded.")
    lines.append(END)
    return "\n".join(lines)


def update_readme(readme: Path, block: str) -> None:
    """Replace the README's block between the markers (which must be there once each)."""
    text = readme.read_text(encoding="utf-8")
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        raise SystemExit(f"{readme}: needs the two markers once each, in order:\n{BEGIN}\n{END}")
    start, stop = text.index(BEGIN), text.index(END) + len(END)
    readme.write_text(text[:start] + block + text[stop:], encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override a field of the embedded default (shorter runs for a quick check)")
    parser.add_argument("--seeds", default="0", help="trainer.seed of the idle runs, comma-separated (the busy run "
                                                     "uses the first); e.g. 0,1,2 for the range over seeds")
    parser.add_argument("--burners", type=int, default=4, help="busy-loop processes beside the busy run")
    parser.add_argument("--only", choices=["idle", "busy"], help="run one condition")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                        help="environment of the rlvr train runs (e.g. OMP_WAIT_POLICY=ACTIVE to compare)")
    parser.add_argument("--write", action="store_true",
                        help="save the figures to --results and rewrite the README's demo-bench block from them")
    parser.add_argument("--results", type=Path, default=RESULTS, help="where --write saves the figures (JSON)")
    parser.add_argument("--readme", type=Path, default=README, help="the README whose block --write rewrites")
    parser.add_argument("--allow-overrides", action="store_true",
                        help="let --write record a run with --set/--env (mechanism checks into other files only)")
    parser.add_argument("--render", action="store_true",
                        help="run nothing: rewrite the README's block from the saved --results (after a wording change)")
    parser.add_argument("--keep", action="store_true", help="keep the run folders (printed)")
    args = parser.parse_args()
    if args.render:
        block = render_block(json.loads(args.results.read_text()))
        update_readme(args.readme, block)
        print(block)
        return 0
    try:
        seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    except ValueError:
        parser.error(f"--seeds {args.seeds!r}: comma-separated integers, e.g. 0,1,2")
    if not seeds:
        parser.error("--seeds needs at least one seed")
    if args.write and (args.set or args.env) and not args.allow_overrides:
        parser.error("--write records the demo as `make demo` runs it: drop --set/--env (or, to check the "
                     "mechanism, pass --allow-overrides with --results and --readme pointing elsewhere)")
    env = dict(item.split("=", 1) for item in args.env)
    work = Path(tempfile.mkdtemp(prefix="rlvr-demo-bench-"))
    commit = _commit()
    print(f"# rlvr train (embedded default{', ' + ' '.join(args.set) if args.set else ''}) on "
          f"{os.cpu_count()} CPUs, commit {commit}; seeds {seeds}; env {env or 'unchanged'}; "
          f"burners: {args.burners} pure-Python busy loops")
    conditions = [("idle", 0, s) for s in seeds] + [("busy", args.burners, seeds[0])]
    if args.only:
        conditions = [c for c in conditions if c[0] == args.only]
    results = []
    try:
        for label, n, seed in conditions:
            results.append(run_once(label, n, seed, args.set, env, work))
            r = results[-1]
            print(f"  {label} seed {seed}: {r['wall_s']:.0f} s wall, load {r['load_before']:.2f} before / "
                  f"{r['load_during']:.2f} during; {r['result']}", flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"\n{'run':<6} {'seed':>4} {'burners':>7} {'load before':>11} {'load during':>11} {'wall s':>7} {'CPU s':>7} "
          f"{'CPU/wall':>8} {'GRPO s':>7} {'s/step':>7} {'pass@1':>15}  threads")
    for r in results:
        per_step = r["grpo_s"] / r["steps"] if r["grpo_s"] and r["steps"] else None
        print(f"{r['label']:<6} {r['seed']:>4} {r['burners']:>7} {r['load_before']:>11.2f} {r['load_during']:>11.2f} "
              f"{r['wall_s']:>7.0f} {r['cpu_s']:>7.0f} {r['cpu_s'] / r['wall_s']:>8.2f} {_fmt(r['grpo_s'], '7.0f')} "
              f"{_fmt(per_step, '7.3f')} {_pct(r['pass1_before']):>6} → {_pct(r['pass1_after']):>6}  {r['threads']}")
    code = 0
    idle = [r for r in results if r["burners"] == 0]
    busy = [r for r in results if r["burners"] > 0]
    if idle and busy:
        first, b = idle[0], busy[0]
        ratio = b["wall_s"] / first["wall_s"]
        grpo = b["grpo_s"] / first["grpo_s"] if b["grpo_s"] and first["grpo_s"] else None
        verdict = "within" if ratio <= TARGET_RATIO else "OVER"
        print(f"\nbusy / idle (seed {first['seed']}): wall {ratio:.2f}x, GRPO {_fmt(grpo, '.2f')}x, "
              f"CPU {b['cpu_s'] / first['cpu_s']:.2f}x ({verdict} the {TARGET_RATIO:g}x target)")
        code = 0 if ratio <= TARGET_RATIO else 1
    if len(idle) > 1:
        print(f"over seeds {[r['seed'] for r in idle]}: pass@1 before {_span([r['pass1_before'] for r in idle])}, "
              f"after {_span([r['pass1_after'] for r in idle])}")
    if args.write:
        record = {"commit": commit, "date": time.strftime("%Y-%m-%d"), "cpus": os.cpu_count(),
                  "overrides": args.set, "env": env, "runs": results}
        args.results.parent.mkdir(parents=True, exist_ok=True)
        args.results.write_text(json.dumps(record, indent=2) + "\n")
        update_readme(args.readme, render_block(record))
        print(f"\nwrote {args.results} and the figures block of {args.readme}:\n{render_block(record)}")
    if args.keep:
        print(f"run folders: {work}")
    return code


if __name__ == "__main__":
    sys.exit(main())
