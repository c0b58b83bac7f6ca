"""Do verdicts depend on how busy the machine is? The same pairs, idle and beside CPU burners.

Material: the grader suites (``../shared/data/grader-suites/cases.jsonl``) and the 800 real
Qwen2.5-Math outputs (``../shared/data/qwen25math-rm-maj-example``). Each run starts from a cold
verifier (pool shut down, caches cleared) and scores the pairs in batches of 64, as a trainer
step would; the second run does the same beside ``--burners`` processes that spin on the CPU (each
stops by itself after ``--burn-s`` seconds at most, and is stopped when the run ends). Budgets are
worker CPU time and worker start-up counts against none, so the target is 0 verdicts that differ.
Prints the wall time of each run, every pair whose status differs, and a summary line.

    python benchmarks/load_bench.py [--burners 8] [--batch 64]
"""

from __future__ import annotations

import argparse
import json
import logging
import multiprocessing as mp
import os
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"


def pairs() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    suites = SHARED / "grader-suites" / "cases.jsonl"
    if suites.exists():
        for line in suites.read_text().splitlines():
            case = json.loads(line)
            golds = case["gold"] if isinstance(case["gold"], list) else [case["gold"]]
            out.extend((str(case["prediction"]), str(g)) for g in golds)
    qwen = SHARED / "qwen25math-rm-maj-example" / "math_cot_100.jsonl"
    if qwen.exists():
        for line in qwen.read_text().splitlines():
            row = json.loads(line)
            out.extend((c, str(row["gt"])) for c in row["code"])
    return out


def _burn(stop_at: float) -> None:
    x = 0
    while time.monotonic() < stop_at:  # a busy loop that always ends by itself
        x = (x * 31 + 7) % 1_000_003


def run(items: list[tuple[str, str]], batch: int) -> tuple[list[tuple[str, str | None]], float]:
    from rlvr.verifiers import clear_cache, shutdown_pools, verify_batch

    shutdown_pools()
    clear_cache()
    start = time.monotonic()
    out = []
    for i in range(0, len(items), batch):
        chunk = items[i:i + batch]
        for v in verify_batch([c for c, _g in chunk], [g for _c, g in chunk]):
            out.append((v.status, v.rule))
    return out, time.monotonic() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--burners", type=int, default=8)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--burn-s", type=float, default=900.0, help="a burner's longest life")
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    items = pairs()
    if not items:
        print("no material: this benchmark reads ../shared/data (grader-suites, qwen25math-rm-maj-example)")
        return 0
    idle, idle_s = run(items, args.batch)
    ctx = mp.get_context("fork")
    burners = [ctx.Process(target=_burn, args=(time.monotonic() + args.burn_s,), daemon=True)
               for _ in range(args.burners)]
    for b in burners:
        b.start()
    try:
        time.sleep(0.5)
        load1 = os.getloadavg()[0]
        busy, busy_s = run(items, args.batch)
        load2 = os.getloadavg()[0]
    finally:
        for b in burners:
            b.terminate()
        for b in burners:
            b.join()
    differ = [(i, a, b) for i, (a, b) in enumerate(zip(idle, busy)) if a[0] != b[0]]
    print(f"{len(items)} pairs in batches of {args.batch}, cold pool each run")
    print(f"| run | wall s | load average |\n|---|---|---|")
    print(f"| idle | {idle_s:.1f} | before the busy run |")
    print(f"| beside {args.burners} CPU burners | {busy_s:.1f} | {load1:.1f} -> {load2:.1f} |")
    for i, a, b in differ[:40]:
        completion, gold = items[i]
        print(f"- pair {i}: idle {a[0]} [{a[1]}], busy {b[0]} [{b[1]}]  gold={gold!r} tail={completion[-80:]!r}")
    print(f"\nsummary: {len(differ)} of {len(items)} verdicts differ between idle and {args.burners} CPU burners "
          f"(wall {idle_s:.1f}s idle, {busy_s:.1f}s busy)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
