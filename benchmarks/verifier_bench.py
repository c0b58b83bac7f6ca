"""rlvr's verifier vs math-verify, side by side on the same inputs in one run.

Anchor: math-verify in-process with its default config, gold wrapped in ``\\boxed{}``, completion
as is (``verify(parse(gold), parse(completion))``). rlvr: ``verify_batch`` per trainer-step batch
(default 8 problems x 8 samples) with its sandbox on (the pool is started before timing, as math-verify's import is).

  (a) the 800 real Qwen2.5-Math outputs in ../shared/data/qwen25math-rm-maj-example
  (b) a DAPO-style stream: integer golds (the real DAPO copy when present), 8 generated
      completions per problem, as a GRPO group would be
  (c) the labelled accuracy table tests/data/verifier_cases.yaml

Targets: rlvr >= 5x math-verify's throughput on (a); never slower on (b); on (c) strictly more
accurate with zero false positives. Each rlvr run prints what a completion cost in each stage (the
worker's reading and comparing, its whole task, and the caller's own CPU), so the next reader shows
its price.

    python benchmarks/verifier_bench.py [--problems N] [--shared ../shared/data]
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def run_math_verify(completions: list, golds: list[str]) -> tuple[list[bool], list[float]]:
    from math_verify import parse, verify

    out, lat = [], []
    for completion, gold in zip(completions, golds):
        text = completion if isinstance(completion, str) else completion[-1]["content"]
        t0 = time.perf_counter()
        try:
            ok = bool(verify(parse("\\boxed{" + gold + "}"), parse(text)))
        except Exception:  # math-verify raises on some inputs; count as not correct
            ok = False
        lat.append(time.perf_counter() - t0)
        out.append(ok)
    return out, lat


def run_rlvr(groups: list[tuple[list, list[str]]], config=None) -> tuple[list[bool], list[float], float, list[str]]:
    from rlvr.verifiers import reading_stats, verify_batch

    out, lat, statuses = [], [], []
    before, caller = reading_stats(), time.process_time()
    t0 = time.perf_counter()
    for completions, golds in groups:
        g0 = time.perf_counter()
        verdicts = verify_batch(completions, golds, config)
        per = (time.perf_counter() - g0) / max(1, len(verdicts))
        out += [v.correct for v in verdicts]
        statuses += [v.status for v in verdicts]
        lat += [per] * len(verdicts)
    wall = time.perf_counter() - t0
    stages = _stages(reading_stats(), before, time.process_time() - caller, len(out))
    return out, lat, wall, statuses, stages


def _stages(after: dict, before: dict, caller_cpu: float, n: int) -> str:
    """What each stage cost a completion, in CPU milliseconds: the worker's reading (prepare, locate,
    integrity) and comparing, the worker's whole task (with its share of the protocol), and the caller."""
    rows = max(1, after["rows"] - before["rows"])
    per = {k: (after[k] - before[k]) / rows * 1e3 for k in ("read_s", "compare_s", "worker_s")}
    return (f"  stage cost per completion (CPU ms): read {per['read_s']:.3f}, compare {per['compare_s']:.3f}, "
            f"worker task {per['worker_s']:.3f}, caller {caller_cpu / max(1, n) * 1e3:.3f} "
            f"({rows} rows read, {after['cached'] - before['cached']} from the row cache)")


def report(name: str, n: int, rl: tuple, mv: tuple, labels: list[bool] | None = None) -> None:
    rl_ok, rl_lat, rl_total, statuses, stages = rl
    mv_ok, mv_lat, mv_total = mv
    agree = sum(a == b for a, b in zip(rl_ok, mv_ok)) / n
    print(f"\n## {name}: {n} completions")
    print(f"{'':24s}{'rlvr':>14s}{'math-verify':>14s}")
    print(f"{'throughput (compl/s)':24s}{n / rl_total:14.1f}{n / mv_total:14.1f}   ratio {mv_total / rl_total:.2f}x")
    print(f"{'p50 latency (ms)':24s}{_percentile(rl_lat, .5) * 1e3:14.3f}{_percentile(mv_lat, .5) * 1e3:14.3f}")
    print(f"{'p99 latency (ms)':24s}{_percentile(rl_lat, .99) * 1e3:14.3f}{_percentile(mv_lat, .99) * 1e3:14.3f}")
    print(f"{'accepted':24s}{sum(rl_ok):14d}{sum(mv_ok):14d}")
    print(f"agreement rlvr vs math-verify: {agree:.1%}")
    if labels is not None:
        for who, got in (("rlvr", rl_ok), ("math-verify", mv_ok)):
            print(f"agreement with reference labels, {who}: {sum(a == b for a, b in zip(got, labels)) / n:.1%}")
    counts: dict[str, int] = {}
    for s in statuses:
        counts[s] = counts.get(s, 0) + 1
    print("rlvr statuses:", ", ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    print(stages)


def _batches(groups: list[tuple[list, list[str]]], per_batch: int) -> list[tuple[list, list[str]]]:
    """Merge problem groups into trainer-step batches of ``per_batch`` problems."""
    out = []
    for i in range(0, len(groups), per_batch):
        chunk = groups[i:i + per_batch]
        out.append(([c for cs, _ in chunk for c in cs], [g for _, gs in chunk for g in gs]))
    return out


def side_by_side(groups: list[tuple[list, list[str]]], per_batch: int) -> tuple[list, list[str], tuple, tuple]:
    """Both verifiers on the same groups, each from a cold start (rlvr's caches and sympy's cleared)."""
    from rlvr.verifiers import clear_cache

    completions = [c for cs, _ in groups for c in cs]
    golds = [g for _, gs in groups for g in gs]
    from sympy.core.cache import clear_cache as clear_sympy_cache

    clear_cache()  # rlvr's caches and, in its workers, sympy's
    rl = run_rlvr(_batches(groups, per_batch))
    clear_sympy_cache()  # math-verify runs in this process: its sympy memo starts cold too
    t0 = time.perf_counter()
    mv_ok, mv_lat = run_math_verify(completions, golds)
    return completions, golds, rl, (mv_ok, mv_lat, time.perf_counter() - t0)


def bench_qwen(shared: Path, per_batch: int, rounds: int) -> None:
    path = shared / "qwen25math-rm-maj-example" / "math_cot_100.jsonl"
    if not path.exists():
        print(f"\n## (a) skipped: {path} not found")
        return
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    groups = [(list(r["code"]), [r["gt"]] * len(r["code"])) for r in rows]
    labels = [bool(s) for r in rows for s in r["score"]]
    # The first pass is the measure: both verifiers meet these inputs for the first time (rlvr's caches
    # cleared; math-verify's parser, whose ANTLR DFA cache learns each input's shape, has seen only the
    # warm-up texts, as rlvr's workers have). Later passes show math-verify with that cache warm on these very
    # inputs (about 2x faster) against rlvr cleared again: printed beside it, so neither figure hides.
    passes = [side_by_side(groups, per_batch) for _ in range(max(1, rounds))]
    completions, golds, rl, mv = passes[0]
    later = sorted(mv_[2] / rl_[2] for _, _, rl_, mv_ in passes[1:])
    print(f"\n(a) first pass ratio {mv[2] / rl[2]:.2f}x (shown below)" + (
        f"; {len(later)} repeat passes, math-verify's parser cache warm on these inputs: median "
        f"{later[len(later) // 2]:.2f}x, range {later[0]:.2f}x-{later[-1]:.2f}x" if later else ""))
    mv_ok = mv[0]
    report(f"(a) Qwen2.5-Math outputs (labels: Qwen grader), batches of {per_batch} problems x 8",
           len(completions), rl, mv, labels)
    disagreements = [(g, c[-160:], a, b) for g, c, a, b in zip(golds, completions, rl[0], mv_ok) if a != b]
    for g, tail, a, b in disagreements[:6]:
        print(f"  disagree gold={g!r} rlvr={a} math-verify={b} tail={tail[-90:]!r}")
    protocol_floor(len(completions), per_batch * 8, len(completions) / mv[2])


def protocol_floor(n: int, per_call: int, mv_rate: float) -> None:
    """What the pool's round trip alone allows: ``n`` rows whose completion is empty (nothing to read or
    compare; distinct golds, so no row is served from a cache) through the same ``verify_batch`` calls.
    No reading design can make rows of real text cheaper than this, so ``5x`` needs this ratio well above 5."""
    from rlvr.verifiers import clear_cache

    clear_cache()
    golds = [str(i) for i in range(n)]
    _ok, _lat, wall, statuses, stages = run_rlvr([([""] * len(golds[i:i + per_call]), golds[i:i + per_call])
                                                   for i in range(0, n, per_call)])
    print(f"protocol floor: {n} empty completions, {per_call} per call: {n / wall:.1f} compl/s = "
          f"{n / wall / mv_rate:.2f}x math-verify's rate above ({set(statuses)})")
    print(stages)


def _dapo_golds(shared: Path, n: int) -> list[str]:
    path = shared / "dapo-math-17k" / "dapo_math_17k.parquet"
    if path.exists():
        import pyarrow.parquet as pq

        table = pq.read_table(path, columns=["reward_model"]).to_pylist()
        return [r["reward_model"]["ground_truth"] for r in table][:n]
    rng = random.Random(0)
    return [str(rng.randint(-50, 5000)) for _ in range(n)]


def dapo_group(gold: str, rng: random.Random) -> list[str]:
    """Eight completions for one integer-gold problem, in the shapes real policies produce."""
    g = int(gold)
    wrong = str(g + rng.choice([-3, -1, 1, 2, 10]))
    shapes = [
        f"Let me work through this.\nSo the result is {g}.\nAnswer: {g}",
        f"Step 1... Step 2...\nAnswer: {wrong}",
        f"We find the value is $\\boxed{{{g}}}$.",
        f"Thus $\\boxed{{{wrong}}}$.",
        f"After simplifying, the answer is $\\frac{{{2 * g}}}{{2}}$.\nAnswer: $\\frac{{{2 * g}}}{{2}}$",
        "I could not finish the computation.",
        f"<think>compute carefully</think>\nAnswer: {g:,}",
        f"Answer: {g} or {wrong}",
        f"Answer: $\\sqrt{{{g * g}}}$" if g >= 0 else f"Answer: $-\\sqrt{{{g * g}}}$",
        f"Answer: {g}.0",
    ]
    return [rng.choice(shapes) for _ in range(8)]


def bench_dapo(shared: Path, problems: int, per_batch: int) -> None:
    rng = random.Random(1234)
    golds = _dapo_golds(shared, problems)
    groups = [(dapo_group(g, rng), [g] * 8) for g in golds]
    completions, _golds, rl, mv = side_by_side(groups, per_batch)
    from rlvr.verifiers import VerifierConfig, clear_cache

    report(f"(b) DAPO-style stream, {len(golds)} problems x 8, batches of {per_batch}, default config",
           len(completions), rl, mv)
    clear_cache()
    rl_int = run_rlvr(_batches(groups, per_batch), VerifierConfig(integer_answers=True))
    print(f"rlvr with integer_answers=True: {len(completions) / rl_int[2]:.1f} compl/s")


def bench_table() -> None:
    from rlvr.verifiers import clear_cache, verify_batch

    data = yaml.safe_load((ROOT / "tests" / "data" / "verifier_cases.yaml").read_text())
    rows = [r for rs in data.values() for r in rs]
    golds, completions, expected = [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]
    clear_cache()
    rl = [v.correct for v in verify_batch(completions, golds)]
    mv, _ = run_math_verify(completions, golds)
    print(f"\n## (c) labelled table: {len(rows)} cases")
    print(f"{'':16s}{'accuracy':>10s}{'false pos':>11s}{'false neg':>11s}")
    for who, got in (("rlvr", rl), ("math-verify", mv)):
        acc = sum(a == e for a, e in zip(got, expected)) / len(rows)
        fp = sum(a and not e for a, e in zip(got, expected))
        fn = sum(e and not a for a, e in zip(got, expected))
        print(f"{who:16s}{acc:10.1%}{fp:11d}{fn:11d}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--problems", type=int, default=17_917, help="DAPO problems in stream (b)")
    parser.add_argument("--rounds", type=int, default=5, help="passes over the 800 outputs of (a): the first is the measure")
    parser.add_argument("--per-batch", type=int, default=8,
                        help="problems per verify_batch call (8 problems x 8 samples = one 64-completion step)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    logging.getLogger("math_verify").setLevel(logging.CRITICAL)
    from rlvr.verifiers import verify
    from rlvr.verifiers.sandbox import default_workers

    verify("\\boxed{(x+1)^2}", "x^2+2x+1")  # start the pool (each worker reads the warm-up texts) ...
    from rlvr.verifiers.warmup import SAMPLES

    run_math_verify([c for c, _ in SAMPLES], [g for _, g in SAMPLES])  # ... and give math-verify the same texts
    print(f"# verifier benchmark ({default_workers()} sandbox workers)")
    bench_qwen(args.shared, args.per_batch, args.rounds)
    bench_dapo(args.shared, args.problems, args.per_batch)
    bench_table()


if __name__ == "__main__":
    main()
