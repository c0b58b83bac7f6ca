"""The reference-given judge as math_equivalence's second opinion: how often its overrides are right.

The judge (SmolLM2-135M-Instruct by default, on CPU) is shown the gold and the extracted answer and
says Yes/No; its P(equivalent) is read from the next-token distribution. It is asked only where the
rule verifier refused for a comparison reason (``eligible``). Printed, for each scope (``shape``, the
default, and ``comparison``) and threshold (min_confidence):

* labelled cases written for this benchmark (gold, answer, truly equivalent or not; the verifier
  refuses each of them): cases asked, overrides, precision of the overrides, recall of the true ones;
* the audit's attacks (rlvr.testing.attacks) that reach the judge, and how many it would pay;
* ../shared/data/real-outputs: completions the rule verifier refuses, judged against the hand labels.

    python benchmarks/reference_judge_bench.py [--judge smollm2-135m]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"

# (gold, answer, equivalent): answers the rule verifier refuses; the label is the truth, by hand
CASES = [
    ("\\gcd(12, 18)", "6", True), ("\\gcd(12, 18)", "3", False), ("\\gcd(8, 20)", "4", True), ("\\gcd(8, 20)", "2", False),
    ("\\operatorname{lcm}(4, 6)", "12", True), ("\\operatorname{lcm}(4, 6)", "24", False),
    ("\\max(3, 7)", "7", True), ("\\max(3, 7)", "3", False), ("\\min(2, 5)", "2", True), ("\\min(2, 5)", "5", False),
    ("\\sin^2 x + \\cos^2 x", "1", True), ("\\sin^2 x + \\cos^2 x", "2", False), ("\\sin^2 x+\\cos^2 x", "0", False),
    ("\\lfloor \\pi \\rfloor", "3", True), ("\\lfloor \\pi \\rfloor", "4", False),
    ("\\det\\begin{pmatrix}1 & 2\\\\ 3 & 4\\end{pmatrix}", "-2", True),
    ("\\det\\begin{pmatrix}1 & 2\\\\ 3 & 4\\end{pmatrix}", "2", False),
    ("x^2 - 1", "(x-1)^2", False), ("x^2-1", "(x-1)(x+1)", True), ("2\\sqrt{3}", "3\\sqrt{2}", False),
    ("\\frac{\\pi}{3}", "\\frac{\\pi}{6}", False), ("x+1", "x-1", False), ("\\sqrt{2}", "2", False),
    ("\\frac{x}{2}", "2x", False), ("\\frac{1}{x}", "x^{-1}", True), ("e^{2\\ln 3}", "9", True), ("e^{2\\ln 3}", "6", False),
    ("\\log_{10} 1000", "3", True), ("\\log_{10} 1000", "30", False), ("\\tan\\frac{\\pi}{4}", "1", True),
    ("\\cos\\pi", "-1", True), ("\\cos\\pi", "1", False), ("\\sum_{k=1}^{n} k", "\\frac{n(n+1)}{2}", True),
    ("\\sum_{k=1}^{n} k", "\\frac{n(n-1)}{2}", False), ("\\sum_{k=1}^{n} k", "n^2", False),
    ("\\int_0^{\\pi} \\sin x \\, dx", "2", True), ("\\int_0^{\\pi} \\sin x \\, dx", "0", False),
]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--judge", default="smollm2-135m", help="packaged name or model folder of the judge")
    ap.add_argument("--shared", default=str(SHARED))
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    from rlvr.models import PACKAGED, prepare
    from rlvr.rewards.judges.backends import TransformersJudge
    from rlvr.rewards.judges.reference import ReferenceJudge, eligible
    from rlvr.testing.attacks import ATTACKS, GOLD, STYLES
    from rlvr.verifiers import verify_batch

    started = time.perf_counter()
    path = str(prepare(args.judge)) if args.judge in PACKAGED else args.judge
    judge = ReferenceJudge(TransformersJudge(path, device="cpu"), min_mass=0.0)

    def refused(golds: list[str], completions: list[str]) -> list:
        return verify_batch(completions, golds)

    # 1. labelled cases
    verdicts = refused([g for g, _, _ in CASES], [f"The answer is \\boxed{{{a}}}." for _, a, _ in CASES])
    still = [(c, v) for c, v in zip(CASES, verdicts) if not v.correct]
    print(f"labelled cases: {len(CASES)} written, {len(still)} refused by the rule verifier "
          f"({len(CASES) - len(still)} it accepts itself: {[c[:2] for c, v in zip(CASES, verdicts) if v.correct]})")
    # 2. attacks
    style = STYLES["boxed"]
    attacks = [(a.name, a.build(style)) for a in ATTACKS]
    attack_verdicts = refused([GOLD] * len(attacks), [c for _, c in attacks])
    # 3. real outputs
    real = []
    real_path = Path(args.shared) / "real-outputs" / "completions.jsonl.gz"
    if real_path.is_file():
        with gzip.open(real_path, "rt", encoding="utf-8") as fh:
            real = [json.loads(line) for line in fh if not json.loads(line).get("debatable")]
    real_verdicts = refused([str(r["gold"]) for r in real], [r["completion"] for r in real]) if real else []

    for scope in ("shape", "comparison"):
        asked_cases = [(c, v) for c, v in still if eligible(v.status, v.rule, v.answer, gold=c[0], scope=scope)]
        asked_attacks = [(n, v) for (n, _), v in zip(attacks, attack_verdicts)
                         if eligible(v.status, v.rule, v.answer, gold=GOLD, scope=scope)]
        asked_real = [(r, v) for r, v in zip(real, real_verdicts)
                      if not v.correct and eligible(v.status, v.rule, v.answer, gold=str(r["gold"]), scope=scope)]
        eq_cases = judge.judge([(c[0], v.answer) for c, v in asked_cases])
        eq_attacks = judge.judge([(GOLD, v.answer) for _, v in asked_attacks])
        eq_real = judge.judge([(str(r["gold"]), v.answer) for r, v in asked_real])
        print(f"\nscope {scope}: asked on {len(asked_cases)} of {len(still)} labelled refusals "
              f"({sum(c[2] for c, _ in asked_cases)} truly equivalent), {len(asked_attacks)} of {len(attacks)} attacks, "
              f"{len(asked_real)} of {sum(not v.correct for v in real_verdicts)} real-output refusals")
        print(f"  {'min_confidence':>14} | {'overrides':>9} {'precision':>9} {'recall':>7} | {'attacks paid':>12} | "
              f"{'real overrides':>14} {'right':>5}")
        for threshold in (0.5, 0.7, 0.9, 0.99):
            over = [(c, e) for (c, _), e in zip(asked_cases, eq_cases) if e.p_equivalent is not None
                    and e.p_equivalent >= threshold]
            right = sum(c[2] for c, _ in over)
            true_total = sum(c[2] for c, _ in asked_cases)
            paid = sum(e.p_equivalent is not None and e.p_equivalent >= threshold for e in eq_attacks)
            real_over = [(r, e) for (r, _), e in zip(asked_real, eq_real) if e.p_equivalent is not None
                         and e.p_equivalent >= threshold]
            real_right = sum(bool(r["expected"]) for r, _ in real_over)
            precision = f"{right / len(over):.0%}" if over else "-"
            recall = f"{right / true_total:.0%}" if true_total else "-"
            print(f"  {threshold:>14} | {len(over):>9} {precision:>9} {recall:>7} | {paid:>6} of {len(eq_attacks):<4} | "
                  f"{len(real_over):>14} {real_right:>5}")
        scored = [(e.p_equivalent, c[2]) for (c, _), e in zip(asked_cases, eq_cases) if e.p_equivalent is not None]
        pos, neg = [p for p, t in scored if t], [p for p, t in scored if not t]
        if pos and neg:  # does P(equivalent) rank the true ones above the others at all? (0.5: no)
            auc = sum((a > b) + 0.5 * (a == b) for a in pos for b in neg) / (len(pos) * len(neg))
            print(f"  ranking: AUC of P(equivalent) over the {len(scored)} labelled refusals asked: {auc:.2f} "
                  f"(true ones mean {sum(pos) / len(pos):.3f}, others {sum(neg) / len(neg):.3f})")
        if scope == "shape":
            for (c, v), e in zip(asked_cases, eq_cases):
                print(f"    {c[0]!r:44} {c[1]!r:22} truly {'equal' if c[2] else 'different':9} "
                      f"P(equivalent) {e.p_equivalent if e.p_equivalent is None else round(e.p_equivalent, 3)} "
                      f"mass {e.mass:.2f} ({v.rule})")
    print(f"\njudge {args.judge}: {judge.describe()}; {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
