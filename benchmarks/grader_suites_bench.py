"""rlvr vs math-verify on the field's grader suites: labelled cases from public projects' grader tests.

Material: ``../shared/data/grader-suites/cases.jsonl`` (gold, prediction, expected) triples taken from
the grader unit tests of a dozen public RL and evaluation projects (see its SOURCE.md). Both
verifiers see the same inputs in one run:

- rlvr: ``verify_batch(predictions, golds)`` with the default ``VerifierConfig``, prediction as given.
- math-verify (the anchor): ``verify(parse(gold boxed), parse(prediction))`` with its defaults; a
  gold that already holds a box, or is a whole solution, is parsed as it is.

A ``multi_gold`` case (a list of acceptable golds) counts as correct when any gold matches. Cases are
grouped as the data's SOURCE.md asks: *plain* (neither a ``config:`` flag nor ``format_contract``:
pure equivalence), *format_contract* (the verdict comes from an output contract) and *config* (a
grader-specific setting). Every disagreement with the label is printed with rlvr's reason.

    python benchmarks/grader_suites_bench.py [--cases PATH] [--all-disagreements]
"""

from __future__ import annotations

import argparse
import collections
import json
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CASES = ROOT.parent / "shared" / "data" / "grader-suites" / "cases.jsonl"


def group_of(case: dict) -> str:
    flags = case.get("flags", [])
    if "format_contract" in flags:
        return "format_contract"
    if any(f.startswith("config:") for f in flags):
        return "config"
    return "plain"


def golds_of(case: dict) -> list[str]:
    gold = case["gold"]
    return [str(g) for g in gold] if isinstance(gold, list) else [str(gold)]


def run_rlvr(cases: list[dict], config: dict | None = None) -> tuple[list[bool], list[str], float]:
    from rlvr.verifiers import verify_batch

    preds, golds, owner = [], [], []
    for i, case in enumerate(cases):
        for gold in golds_of(case):
            preds.append(case["prediction"])
            golds.append(gold)
            owner.append(i)
    t0 = time.perf_counter()
    verdicts = verify_batch(preds, golds, config)
    elapsed = time.perf_counter() - t0
    ok = [False] * len(cases)
    why = [""] * len(cases)
    for i, v in zip(owner, verdicts):
        if v.correct or not why[i]:
            why[i] = f"{v.status}: {v.reason}"
        ok[i] = ok[i] or v.correct
    return ok, why, elapsed


def run_math_verify(cases: list[dict]) -> tuple[list[bool], float]:
    from anchor import math_verify_equal

    ok = []
    t0 = time.perf_counter()
    for case in cases:
        hit = False
        for gold in golds_of(case):
            hit = hit or math_verify_equal(gold, case["prediction"])
        ok.append(hit)
    return ok, time.perf_counter() - t0


def _score(labels: list[bool], got: list[bool]) -> tuple[int, int, int, int]:
    right = sum(g == e for g, e in zip(got, labels))
    fp = sum(g and not e for g, e in zip(got, labels))
    fn = sum(e and not g for g, e in zip(got, labels))
    return right, len(labels), fp, fn


def _row(name: str, labels: list[bool], rl: list[bool], mv: list[bool]) -> str:
    r, n, rfp, rfn = _score(labels, rl)
    m, _, mfp, mfn = _score(labels, mv)
    if not n:
        return f"| {name} | 0 | | |"
    return (f"| {name} | {n} | {100 * r / n:.1f}% (FP {rfp}, FN {rfn}) | "
            f"{100 * m / n:.1f}% (FP {mfp}, FN {mfn}) |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, default=DEFAULT_CASES)
    parser.add_argument("--config", help="VerifierConfig fields as inline JSON, e.g. '{\"list_order\": \"given\"}'")
    parser.add_argument("--all-disagreements", action="store_true",
                        help="also print disagreements in the config and format_contract groups")
    args = parser.parse_args()
    cases = [json.loads(line) for line in args.cases.read_text(encoding="utf-8").splitlines() if line.strip()]
    labels = [bool(c["expected"]) for c in cases]

    rl, why, rl_time = run_rlvr(cases, json.loads(args.config) if args.config else None)
    mv, mv_time = run_math_verify(cases)
    groups = [group_of(c) for c in cases]

    print(f"# rlvr vs math-verify on {args.cases.name}: {len(cases)} labelled cases\n")
    print("| cases | n | rlvr | math-verify |")
    print("|---|---|---|---|")
    for name in ("plain", "format_contract", "config"):
        idx = [i for i, g in enumerate(groups) if g == name]
        print(_row(name, [labels[i] for i in idx], [rl[i] for i in idx], [mv[i] for i in idx]))
    print(_row("all", labels, rl, mv))
    print(f"\ntime: rlvr {rl_time:.2f} s (sandbox start included), math-verify {mv_time:.2f} s\n")

    print("## per project (plain cases)\n")
    print("| project | n | rlvr | math-verify |")
    print("|---|---|---|---|")
    projects = collections.defaultdict(list)
    for i, c in enumerate(cases):
        if groups[i] == "plain":
            projects[c["id"].rsplit("-", 1)[0]].append(i)
    for project, idx in sorted(projects.items()):
        print(_row(project, [labels[i] for i in idx], [rl[i] for i in idx], [mv[i] for i in idx]))

    print("\n## per flag (all cases)\n")
    print("| flag | n | rlvr | math-verify |")
    print("|---|---|---|---|")
    flags = collections.defaultdict(list)
    for i, c in enumerate(cases):
        for f in c.get("flags", []) or ["(none)"]:
            flags[f].append(i)
    for flag, idx in sorted(flags.items(), key=lambda kv: -len(kv[1])):
        print(_row(flag, [labels[i] for i in idx], [rl[i] for i in idx], [mv[i] for i in idx]))

    print("\n## disagreements with the label\n")
    for i, c in enumerate(cases):
        if rl[i] == labels[i] or (groups[i] != "plain" and not args.all_disagreements):
            continue
        kind = "FP" if rl[i] else "FN"
        print(f"- [{kind}] {c['id']} ({groups[i]}; math-verify {'agrees' if mv[i] == labels[i] else 'also wrong'})"
              f"\n    gold={json.dumps(c['gold'])[:100]}\n    pred={json.dumps(c['prediction'])[-160:]}"
              f"\n    rlvr {why[i][:220]}")
    plain = [i for i, g in enumerate(groups) if g == "plain"]
    summary = []
    for name, idx in (("plain", plain), ("all", list(range(len(cases))))):
        r, n, rfp, rfn = _score([labels[i] for i in idx], [rl[i] for i in idx])
        m, _, mfp, mfn = _score([labels[i] for i in idx], [mv[i] for i in idx])
        summary.append(f"{name} {n}: rlvr {100 * r / n:.1f}% (FP {rfp}, FN {rfn}) vs math-verify {100 * m / n:.1f}% "
                       f"(FP {mfp}, FN {mfn})")
    print("\nsummary: " + "; ".join(summary))


if __name__ == "__main__":
    main()
