"""Time per 1,000 completions for each built-in reward, on the same generated batch.

Completions mix the r1 and working_out formats, right and wrong answers, fractions and
expressions (so math_equivalence exercises its fast paths and its sandbox). Each reward is timed on
a cold verifier cache and again warm (a GRPO group repeats answers; caches persist across steps).
The anchor column is TRL's own ``accuracy_reward`` (math-verify in process) on the same inputs.

    python benchmarks/rewards_bench.py [--n 1000]
"""

from __future__ import annotations

import argparse
import logging
import random
import time


def make_batch(n: int, seed: int = 0) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    completions, golds = [], []
    for _ in range(n):
        a, b = rng.randint(1, 99), rng.randint(1, 99)
        gold = rng.choice([str(a + b), f"\\frac{{{a}}}{{{b}}}", f"x^2+{2 * a}x+{a * a}"])
        answer = rng.choice([gold, str(a + b + 1), f"(x+{a})^2", f"{a}/{b}", f"\\frac{{{2 * a}}}{{{2 * b}}}"])
        words = " ".join(rng.choice(["add", "then", "so", "we", "get", "the", "sum"]) for _ in range(rng.randint(20, 200)))
        if rng.random() < 0.5:
            text = f"<think>\n{words}\n</think>\n<answer>\n\\boxed{{{answer}}}\n</answer>"
        else:
            text = f"{words}<end_working_out><SOLUTION>{answer}</SOLUTION>"
        completions.append(text)
        golds.append(gold)
    return completions, golds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    logging.getLogger("math_verify").setLevel(logging.CRITICAL)
    from rlvr.rewards import get_reward
    from rlvr.verifiers import clear_cache, verify

    verify("\\boxed{(x+1)^2}", "x^2+2x+1")  # start the sandbox pool before timing
    completions, golds = make_batch(args.n)
    prompts = ["What is it?"] * args.n
    ids = [[0] * (len(c) // 4) for c in completions]
    rewards = [
        ("format_strict", {}), ("format_strict", {"preset": "working_out"}), ("format_approx", {}),
        ("tag_count", {}), ("r1_tags", {}), ("boxed_answer", {}), ("math_equivalence", {}),
        ("math_equivalence", {"preset": "r1"}), ("numeric_tolerance", {}), ("numeric_tolerance", {"preset": "check_numbers"}),
        ("overlong_penalty", {"max_length": 256, "cache_length": 64}), ("cosine_scaled", {}),
        ("repetition_penalty", {}), ("language_consistency", {}),
    ]
    print(f"# reward timings, ms per 1,000 completions (batch of {args.n})")
    print(f"{'reward':44s}{'cold':>10s}{'warm':>10s}")
    for name, params in rewards:
        f = get_reward(name, **params)
        clear_cache()
        t0 = time.perf_counter()
        f(prompts=prompts, completions=completions, answer=golds, completion_ids=ids)
        cold = (time.perf_counter() - t0) * 1000 * 1000 / args.n
        t0 = time.perf_counter()
        f(prompts=prompts, completions=completions, answer=golds, completion_ids=ids)
        warm = (time.perf_counter() - t0) * 1000 * 1000 / args.n
        label = name + (f"({', '.join(f'{k}={v}' for k, v in params.items())})" if params else "")
        print(f"{label:44s}{cold:10.1f}{warm:10.1f}")
    try:
        from trl.rewards import accuracy_reward

        chat = [[{"role": "assistant", "content": c}] for c in completions]
        t0 = time.perf_counter()
        accuracy_reward(completions=chat, solution=golds)
        anchor = (time.perf_counter() - t0) * 1000 * 1000 / args.n
        print(f"{'anchor: trl.rewards.accuracy_reward':44s}{anchor:10.1f}{'':>10s}")
    except Exception as exc:  # the anchor is informative only
        print(f"anchor: trl.rewards.accuracy_reward unavailable ({type(exc).__name__}: {exc})")


if __name__ == "__main__":
    main()
