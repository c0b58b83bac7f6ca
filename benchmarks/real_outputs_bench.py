"""rlvr vs math-verify on real completions of reasoning models, per model and per ending form.

Material: ``../shared/data/real-outputs/completions.jsonl.gz`` (completions copied verbatim from
public repositories' evaluation outputs: QwQ-32B, Qwen3, DeepSeek-R1 and R1-Distill, Sky-T1,
Qwen2.5-Math; each hand-labelled ``expected``: does the final committed answer equal the gold).
Rows marked ``debatable`` are left out, as the data's SOURCE.md asks. Both verifiers see the same
(completion, gold) pairs in one run; math-verify through ``benchmarks/anchor.py``.

Prints agreement with the labels, false positives (accepted, label wrong) and false negatives per
model and per ending form (the data's ``ending_tags``: ``### Final Answer`` headings, ``**Final
Answer**`` labels, display boxes, ``</think>`` blocks …), every disagreement with rlvr's rule and
reason, and a last summary line.

    python benchmarks/real_outputs_bench.py [--data PATH] [--config JSON] [--all]
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import logging
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT.parent / "shared" / "data" / "real-outputs" / "completions.jsonl.gz"


def load(path: Path) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return [r for r in rows if not r.get("debatable")]


def short_model(name: str) -> str:
    return name.split(" (")[0].split("/")[-1]


def table(title: str, groups: dict[str, list[tuple[bool, bool, bool]]]) -> None:
    print(f"\n## {title}")
    print(f"| {title.split(' ')[-1]} | n | rlvr | math-verify |")
    print("|---|---|---|---|")
    for key in sorted(groups, key=lambda k: -len(groups[k])):
        items = groups[key]
        cells = []
        for who in (0, 1):
            agree = sum(got[who] == exp for *got, exp in [(a, b, e) for a, b, e in items])
            fp = sum(got and not exp for got, exp in ((it[who], it[2]) for it in items))
            fn = sum(exp and not got for got, exp in ((it[who], it[2]) for it in items))
            cells.append(f"{agree / len(items):.1%} (FP {fp}, FN {fn})")
        print(f"| {key} | {len(items)} | {cells[0]} | {cells[1]} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT)
    parser.add_argument("--config", default=None, help="VerifierConfig as JSON (default: the default config)")
    parser.add_argument("--all", action="store_true", help="print every disagreement, not the first 40")
    args = parser.parse_args()
    if not args.data.exists():
        print(f"no data at {args.data}: this benchmark reads ../shared/data/real-outputs")
        return 0
    logging.disable(logging.WARNING)  # math-verify logs every parse timeout with the whole input
    sys_path = str(ROOT / "benchmarks")
    import sys

    sys.path.insert(0, sys_path)
    from anchor import math_verify_equal

    from rlvr.verifiers import VerifierConfig, clear_cache, verify_batch

    rows = load(args.data)
    config = VerifierConfig.from_dict(json.loads(args.config)) if args.config else VerifierConfig()
    clear_cache()
    start = time.perf_counter()
    verdicts = verify_batch([r["completion"] for r in rows], [r["gold"] for r in rows], config)
    rlvr_s = time.perf_counter() - start
    start = time.perf_counter()
    mv = [math_verify_equal(r["gold"], r["completion"]) for r in rows]
    mv_s = time.perf_counter() - start

    by_model: dict[str, list] = collections.defaultdict(list)
    by_ending: dict[str, list] = collections.defaultdict(list)
    for r, v, m in zip(rows, verdicts, mv):
        item = (v.correct, m, bool(r["expected"]))
        by_model[short_model(r["model"])].append(item)
        for tag in r.get("ending_tags") or ["(none)"]:
            by_ending[tag].append(item)
    print(f"{len(rows)} labelled completions ({args.data.name}); rlvr {rlvr_s:.1f}s, math-verify {mv_s:.1f}s")
    table("per model", by_model)
    table("per ending form", by_ending)

    disagreements = [(r, v, m) for r, v, m in zip(rows, verdicts, mv) if v.correct != bool(r["expected"])]
    print(f"\n## rlvr's disagreements with the labels ({len(disagreements)})")
    for r, v, m in disagreements[: None if args.all else 40]:
        kind = "FP" if v.correct else "FN"
        print(f"- [{kind}] {r['id']} ({short_model(r['model'])}; math-verify {'agrees' if m == v.correct else 'right'})")
        print(f"    gold={r['gold']!r}  tail={r['completion'][-160:]!r}")
        print(f"    rlvr {v.status} [{v.rule}]: {v.reason[:200]}")

    n = len(rows)
    summary = []
    for name, got in (("rlvr", [v.correct for v in verdicts]), ("math-verify", mv)):
        agree = sum(g == bool(r["expected"]) for g, r in zip(got, rows))
        fp = sum(g and not r["expected"] for g, r in zip(got, rows))
        fn = sum(not g and r["expected"] for g, r in zip(got, rows))
        summary.append(f"{name} {agree / n:.1%} (FP {fp}, FN {fn})")
    refused_forms = [k for k, items in by_ending.items() if any(e and not a for a, _m, e in items)]
    print(f"\nsummary: {n} real completions: " + " vs ".join(summary)
          + f"; ending forms with a right answer refused by rlvr: {len(refused_forms)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
