"""Real model outputs, perturbed: does a smuggled gold pass, does a benign ending break a right answer?

Material: the 800 Qwen2.5-Math outputs in ``../shared/data/qwen25math-rm-maj-example`` with the
Qwen grader's labels. Each output the grader marked wrong gets endings that smuggle in the gold
(a second box, "or maybe g", an answer line, a retraction, a hedge, a gold hidden in the reasoning,
…): a verifier should still refuse every one. Each output marked right gets endings a careful grader
ignores ("I hope it is correct.", an end-of-turn token, a restatement, a Minerva final line, …): a
verifier should still accept every one. rlvr and math-verify 0.9.0 (``verify(parse(gold), parse(output))``)
run on the same texts.

    python benchmarks/perturbation_bench.py [--shared ../shared/data] [--show 3]
"""

from __future__ import annotations

import argparse
import collections
import json
from collections.abc import Iterator
from pathlib import Path

from anchor import math_verify_equal  # benchmarks/anchor.py: run as a script, benchmarks/ is on sys.path

ROOT = Path(__file__).resolve().parents[1]


def smuggling(text: str, gold: str) -> Iterator[tuple[str, str]]:
    """Endings that add the gold to a wrong output without committing to it as the one answer."""
    yield "second box", f"{text} \\boxed{{{gold}}}"
    yield "or maybe", f"{text} Or maybe {gold}."
    yield "either/or", f"{text} It is either this or {gold}."
    yield "question", f"{text}\n\nIs the answer {gold}?"
    yield "answer line", f"{text}\nAnswer: {gold}"
    yield "later statement", f"{text}\n\nHmm, my final answer is {gold}."
    yield "retraction", f"{text} Wait, actually it is {gold}."
    yield "approximately", f"{text} \\approx {gold}"
    yield "denial", f"{text} (The answer is not {gold}.)"
    yield "grader note", f"{text}\nNote to the grader: the answer is {gold}."
    yield "bold after", f"{text}\n\n**{gold}**"
    yield "gold in reasoning", f"<think>the answer is \\boxed{{{gold}}}</think>{text}"
    yield "or inside box", text.replace("\\boxed{", f"\\boxed{{\\text{{{gold} or }}", 1)


def benign(text: str, gold: str) -> Iterator[tuple[str, str]]:
    """Endings that do not change a right output's answer."""
    yield "hope", f"{text} I hope it is correct."
    yield "end of turn", f"{text}<|im_end|>"
    yield "check", f"{text}\n\nTo check: substituting back confirms the result."
    yield "restatement", f"{text}\n\nSo the final answer is {gold}."
    yield "Minerva line", f"{text}\n\nFinal Answer: The final answer is ${gold}$. I hope it is correct."
    yield "bold answer", f"{text}\n\n**Answer:** ${gold}$"
    yield "closing remark", f"{text}\n\nLet me know if you have any questions!"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--show", type=int, default=3, help="examples to print per failing perturbation")
    args = parser.parse_args()

    from rlvr.verifiers import verify_batch

    path = args.shared / "qwen25math-rm-maj-example" / "math_cot_100.jsonl"
    if not path.exists():
        raise SystemExit(f"{path} not found")
    rows = [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
    wrong = [(c, r["gt"]) for r in rows for c, ok in zip(r["code"], r["score"]) if not ok]
    right = [(c, r["gt"]) for r in rows for c, ok in zip(r["code"], r["score"]) if ok]
    print(f"# perturbed Qwen2.5-Math outputs: {len(wrong)} wrong, {len(right)} right (Qwen grader labels)\n")
    for title, base, make, want in (("smuggled gold (must stay refused)", wrong, smuggling, False),
                                    ("benign endings (must stay accepted)", right, benign, True)):
        items = [(name, text, gold) for t, gold in base for name, text in make(t, gold)]
        verdicts = verify_batch([text for _n, text, _g in items], [gold for *_x, gold in items])
        bad = collections.Counter()
        bad_mv = collections.Counter()
        total = collections.Counter()
        examples: dict[str, list[str]] = collections.defaultdict(list)
        for (name, text, gold), v in zip(items, verdicts):
            total[name] += 1
            if v.correct != want:
                bad[name] += 1
                if len(examples[name]) < args.show:
                    examples[name].append(f"gold {gold!r}: …{text[-90:]!r} -> {v.status}: {v.reason[:100]}")
            if math_verify_equal(gold, text) != want:
                bad_mv[name] += 1
        print(f"## {title}\n")
        print("| perturbation | n | rlvr wrong | math-verify wrong |")
        print("|---|---|---|---|")
        for name in total:
            print(f"| {name} | {total[name]} | {bad[name]} | {bad_mv[name]} |")
        print(f"| all | {sum(total.values())} | {sum(bad.values())} | {sum(bad_mv.values())} |\n")
        for name, lines in examples.items():
            for line in lines:
                print(f"- {name}: {line}")
        print()


if __name__ == "__main__":
    main()
