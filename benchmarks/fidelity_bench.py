"""Fidelity: rlvr's rewards against the reference implementations they are named after, side by side.

Anchors:
1. The Unsloth Qwen3 GRPO recipe's four reward functions (``match_format_exactly``,
   ``match_format_approximately``, ``check_answer``, ``check_numbers``), reimplemented below from the
   recipe's published text, run on a grid of completions x golds next to rlvr's presets
   (``format_strict`` mode seed, ``format_approx``, ``numeric_tolerance`` check_answer / check_numbers).
   Every disagreement is counted under the rule that explains it; a rule marked *deliberate* is a
   difference rlvr keeps on purpose (the docstring of each rule says why).
2. open-r1's and TRL's published test values for the rewards rlvr reproduces (reasoning_steps,
   repetition_penalty in English and Chinese, soft_overlong, len_reward, cosine_scaled, tag_count,
   think_format, accuracy), as (inputs, expected value) pairs taken from their test files.

    python benchmarks/fidelity_bench.py
"""

from __future__ import annotations

import collections
import itertools
import re

EOS = "<|endoftext|>"  # Qwen3-Base's end-of-sequence token, which the recipe's regex names

# ---- the recipe's four functions, as its text defines them (the anchor) ------------------------
REASONING_END, SOLUTION_START, SOLUTION_END = "<end_working_out>", "<SOLUTION>", "</SOLUTION>"
_SOLUTION_END_RE = r"</SOLUTION>[\s]{0,}" + "(?:" + re.escape(EOS) + ")?"
MATCH_FORMAT = re.compile(rf"{REASONING_END}.*?{SOLUTION_START}(.+?){_SOLUTION_END_RE}[\s]{{0,}}$",
                          flags=re.MULTILINE | re.DOTALL)
MATCH_NUMBERS = re.compile(SOLUTION_START + r".*?[\s]{0,}([-]?[\d\.\,]{1,})", flags=re.MULTILINE | re.DOTALL)


def seed_match_format_exactly(text: str) -> float:
    return 3.0 if MATCH_FORMAT.search(text) is not None else 0.0


def seed_match_format_approximately(text: str) -> float:
    score = 0.0
    for tag in (REASONING_END, SOLUTION_START, SOLUTION_END):
        score += 0.5 if text.count(tag) == 1 else -1.0
    return score


def seed_check_answer(text: str, gold: str) -> float:
    m = MATCH_FORMAT.search(text)
    if m is None:
        return -2.0
    guess = m.group(1)
    if guess == gold:
        return 5.0
    if guess.strip() == gold.strip():
        return 3.5
    try:
        ratio = float(guess) / float(gold)
    except Exception:  # the recipe's bare except: anything unparseable
        return -4.5
    if 0.9 <= ratio <= 1.1:
        return 2.0
    if 0.8 <= ratio <= 1.2:
        return 1.5
    return -2.5


def seed_check_numbers(text: str, gold: str) -> float:
    m = MATCH_NUMBERS.search(text)
    if m is None:
        return -2.5
    try:
        return 3.5 if float(m.group(1).strip().replace(",", "")) == float(gold.strip()) else -1.5
    except Exception:
        return 0.0


# ---- the grid -----------------------------------------------------------------------------------
ANSWERS = ["34", "34.0", " 34 ", "36", "30", "27", "100", "-34", "3,400", "3 4", "0", "0.0", "\\frac{1}{2}", "1/2",
           "0.5", "x", "nan", "inf", "३४", "34%", "", "1e2"]
GOLDS = ["34", "0", "0.5", "3400", "100"]
LAYOUTS = {
    "clean": lambda a: f"Reasoning here{REASONING_END}{SOLUTION_START}{a}{SOLUTION_END}",
    "eos": lambda a: f"Reasoning{REASONING_END}{SOLUTION_START}{a}{SOLUTION_END}{EOS}",
    "trailing_line": lambda a: f"Reasoning{REASONING_END}{SOLUTION_START}{a}{SOLUTION_END}\nThanks!",
    "trailing_text": lambda a: f"Reasoning{REASONING_END}{SOLUTION_START}{a}{SOLUTION_END} and more",
    "double_solution": lambda a: f"R{REASONING_END}{SOLUTION_START}{a}{SOLUTION_END}{SOLUTION_START}1{SOLUTION_END}",
    "prefill_repeated": lambda a: f"<start_working_out>R{REASONING_END}{SOLUTION_START}{a}{SOLUTION_END}",
    "no_end_tag": lambda a: f"Reasoning{SOLUTION_START}{a}{SOLUTION_END}",
    "spaces": lambda a: f"R{REASONING_END}\n\n{SOLUTION_START} {a} {SOLUTION_END}\n",
}


def deliberate_rule(reward: str, layout: str, answer: str, gold: str, seed: float, rlvr: float | None) -> str:
    """The documented reason for a disagreement (or 'UNEXPLAINED')."""
    a = answer.strip()
    if reward.endswith("(strict default)"):
        return ("deliberate: the default strict mode wants the whole completion to be the structure, each tag "
                "once, nothing after the answer block (mode: seed reproduces the recipe)")
    if reward == "check_numbers":
        if a in ("\\frac{1}{2}", "1/2"):
            return "deliberate: a fraction is read whole (the recipe reads only its numerator)"
        if a == "3 4":
            return "deliberate: digits separated by a space are two numbers (the recipe's float() reads 34 after strip)"
        if a in ("nan", "inf", "३४", "1e2", "x", "34%"):
            return "deliberate: only plain ASCII numbers are numbers (float() accepts nan, inf, Unicode digits, 1e2)"
    if reward == "check_answer":
        if a in ("nan", "inf", "३४", "1e2"):
            return "deliberate: float() accepts nan/inf/Unicode digits/1e2; rlvr's exact parser does not"
        if gold.strip() == "0" and a in ("0", "0.0"):
            return "deliberate: a gold of 0 has no ratio; equal numbers score the first band (the recipe's ZeroDivisionError scores -4.5)"
        if gold.strip() == "0" and seed == -4.5:
            return "deliberate: against a gold of 0 a wrong number is wrong (-2.5), not unparseable (the recipe divides by 0: -4.5)"
        if a == "3 4":
            return "deliberate: '3 4' is two numbers (float('3 4') fails in the recipe too, but its strip() path differs)"
        if a in ("\\frac{1}{2}", "1/2", "3,400", "34%"):
            return "deliberate: fractions, thousands separators and percent are numbers to rlvr (float() refuses them)"
    return "UNEXPLAINED"


def run_grid() -> None:
    from rlvr.rewards import get_reward

    rewards = {
        "match_format_exactly": (get_reward("format_strict", preset="working_out", mode="seed", eos_token=EOS),
                                 lambda t, g: seed_match_format_exactly(t)),
        "match_format_exactly (strict default)": (get_reward("format_strict", preset="working_out", eos_token=EOS),
                                                  lambda t, g: seed_match_format_exactly(t)),
        "match_format_approximately": (get_reward("format_approx", preset="working_out"),
                                       lambda t, g: seed_match_format_approximately(t)),
        "check_answer": (get_reward("numeric_tolerance", preset="check_answer"), seed_check_answer),
        "check_numbers": (get_reward("numeric_tolerance", preset="check_numbers"), seed_check_numbers),
    }
    cases = [(layout, a, g) for layout, a, g in itertools.product(LAYOUTS, ANSWERS, GOLDS)]
    texts = [LAYOUTS[layout](a) for layout, a, _g in cases]
    golds = [g for _l, _a, g in cases]
    print(f"# 1. the Unsloth recipe's four rewards vs rlvr's presets: {len(cases)} completions x gold\n")
    print("| recipe function | rlvr | agreement | deliberate differences | unexplained |")
    print("|---|---|---|---|---|")
    details: dict[str, collections.Counter] = {}
    for name, (r, seed) in rewards.items():
        values = r(prompts=[[{"role": "user", "content": "q"}]] * len(texts), completions=texts, answer=golds)
        rules: collections.Counter = collections.Counter()
        agree = 0
        for (layout, a, g), text, value in zip(cases, texts, values):
            expected = seed(text, g)
            if value is not None and abs(value - expected) < 1e-9:
                agree += 1
            else:
                rules[deliberate_rule(name, layout, a, g, expected, value)] += 1
        details[name] = rules
        unexplained = rules.get("UNEXPLAINED", 0)
        print(f"| {name} | {r.__name__} {r.params().get('preset', '')} | {agree}/{len(cases)} "
              f"({100 * agree / len(cases):.1f}%) | {sum(rules.values()) - unexplained} | {unexplained} |")
    print()
    for name, rules in details.items():
        for rule, n in rules.most_common():
            print(f"- {name}: {n} x {rule}")


# ---- published reference values (open-r1 tests/test_rewards.py, TRL's docstrings) ------------------
def _ref_cases() -> list[tuple[str, dict, dict, float]]:
    r"""(reward, params, call kwargs, expected value of the first completion)."""
    right, wrong = r"\boxed{\frac{63}{400}}", r"\boxed{\frac{64}{400}}"
    cos = {"min_value_wrong": -1.0, "max_value_wrong": -0.5, "min_value_correct": 0.5, "max_value_correct": 1.0,
           "max_length": 100, "length_unit": "chars"}
    return [
        ("reasoning_steps", {}, {"completions": ["Step 1: First step\nStep 2: Second step\nStep 3: Third step"]}, 1.0),
        ("reasoning_steps", {}, {"completions": ["First, we do this.\nSecond, we do that.\nFinally, we conclude."]}, 1.0),
        ("reasoning_steps", {}, {"completions": ["Step 1: Only step"]}, 1 / 3),
        ("reasoning_steps", {}, {"completions": ["First, we do this.\nFinally, we conclude."]}, 2 / 3),
        ("reasoning_steps", {}, {"completions": ["Just plain text without any clear steps"]}, 0.0),
        ("repetition_penalty", {"ngram_size": 2, "max_penalty": -1.0}, {"completions": ["this this this this this"]}, -0.75),
        ("repetition_penalty", {"ngram_size": 2, "max_penalty": -1.0}, {"completions": ["this is a this is a test"]}, -1 / 3),
        ("repetition_penalty", {"ngram_size": 3, "max_penalty": -0.5}, {"completions": ["test test test test"]}, -0.25),
        ("repetition_penalty", {"ngram_size": 3, "max_penalty": -2.0}, {"completions": ["this is a this is a test"]}, -0.4),
        ("repetition_penalty", {"ngram_size": 3, "max_penalty": -1.0}, {"completions": ["A B C A B C"]}, -0.25),
        ("repetition_penalty", {"ngram_size": 3, "max_penalty": -1.0}, {"completions": ["A B C A B C E F G A B C A B C"]}, -0.3846),
        ("repetition_penalty", {"ngram_size": 2, "max_penalty": -1.0, "language": "zh"}, {"completions": ["这个这个这个这个这个"]}, -0.75),
        ("soft_overlong", {"max_completion_len": 100, "soft_punish_cache": 20}, {"completions": ["x"], "completion_ids": [[1] * 50]}, 0.0),
        ("soft_overlong", {"max_completion_len": 100, "soft_punish_cache": 20}, {"completions": ["x"], "completion_ids": [[1] * 110]}, -1.0),
        ("soft_overlong", {"max_completion_len": 100, "soft_punish_cache": 20}, {"completions": ["x"], "completion_ids": [[1] * 90]}, -0.5),
        ("len_reward", {}, {"completions": [right, right + "  " + "x" * 10], "answer": [r"\frac{63}{400}"] * 2}, 0.5),
        ("len_reward", {}, {"completions": [right, wrong], "answer": [r"\frac{63}{400}"] * 2}, 0.0),
        ("cosine_scaled", cos, {"completions": [right + " " * (20 - len(right))], "answer": [r"\frac{63}{400}"]}, 0.943),
        ("cosine_scaled", cos, {"completions": [right + " " * (80 - len(right))], "answer": [r"\frac{63}{400}"]}, 0.547),
        ("cosine_scaled", cos, {"completions": [wrong + " " * (20 - len(wrong))], "answer": [r"\frac{63}{400}"]}, -0.942),
        ("cosine_scaled", cos, {"completions": [wrong + " " * (80 - len(wrong))], "answer": [r"\frac{63}{400}"]}, -0.547),
        ("tag_count", {}, {"completions": ["<think>\nSome reasoning\n</think>\n<answer>\nThe answer\n</answer>"]}, 1.0),
        ("tag_count", {}, {"completions": ["Some reasoning\n</think>\n<answer>\nThe answer\n</answer>"]}, 0.75),
        ("tag_count", {}, {"completions": ["Some reasoning\nThe answer"]}, 0.0),
        ("think_format", {}, {"completions": ["<think>\nThis is my reasoning.\n</think>\nThis is my answer."]}, 1.0),
        ("think_format", {}, {"completions": ["<think>\nThis is my reasoning.\nThis is my answer."]}, 0.0),
        ("math_equivalence", {}, {"completions": [right], "answer": [r"\frac{63}{400}"]}, 1.0),
        ("math_equivalence", {}, {"completions": [wrong], "answer": [r"\frac{63}{400}"]}, 0.0),
    ]


def run_reference_values() -> None:
    from rlvr.rewards import get_reward

    print("\n# 2. published reference values (open-r1 tests/test_rewards.py, TRL docstrings)\n")
    per: dict[str, list[bool]] = collections.defaultdict(list)
    misses = []
    for name, params, kwargs, expected in _ref_cases():
        value = get_reward(name, **params)(**kwargs)[0]
        ok = value is not None and abs(value - expected) < 5e-3
        per[name].append(ok)
        if not ok:
            misses.append(f"- {name} {params}: expected {expected}, got {value}")
    print("| reward | reference values reproduced |")
    print("|---|---|")
    for name, oks in per.items():
        print(f"| {name} | {sum(oks)}/{len(oks)} |")
    print("\n".join(misses) or "\nevery reference value reproduced")


if __name__ == "__main__":
    run_grid()
    run_reference_values()
