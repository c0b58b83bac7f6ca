"""Seeded synthetic math with worked solutions: no download, deterministic, disjoint splits.

Kinds: ``larger`` (level 0: compare two numbers, small enough for a tiny model to learn in
minutes); ``add``, ``sub`` (level 1); ``muladd``, ``negatives``, ``paren`` (level 2); ``fractions``,
``linear``, ``percent`` (level 3). Gold answers are LaTeX (``\\frac{3}{4}``, ``-7``, ``12.5``) so the
verifier's equivalence is exercised. A problem belongs to the held-out split iff a hash of its
text says so, so train and test never share a problem whatever the seed or size.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

from rlvr.errors import ConfigError

__all__ = ["synthetic_rows", "KINDS", "LEVELS", "latex_number"]

Problem = tuple[str, str, str]  # (problem, gold, worked reasoning)


def latex_number(x: Fraction) -> str:
    """An exact value as the gold text a grader would write: ``7``, ``-\\frac{3}{4}``."""
    if x.denominator == 1:
        return str(x.numerator)
    sign = "-" if x < 0 else ""
    return f"{sign}\\frac{{{abs(x.numerator)}}}{{{x.denominator}}}"


def _add(r: random.Random, top: int = 50) -> Problem:
    a, b = r.randint(0, top), r.randint(0, top)
    return f"What is {a} + {b}?", str(a + b), f"{a} + {b} = {a + b}."


def _sub(r: random.Random, top: int = 50) -> Problem:
    a, b = r.randint(0, top), r.randint(0, top)
    return f"What is {a} - {b}?", str(a - b), f"{a} - {b} = {a - b}."


def _larger(r: random.Random, top: int = 99) -> Problem:
    a, b = r.sample(range(0, top + 1), 2)
    big = max(a, b)
    return f"Which is larger, {a} or {b}?", str(big), f"Compare {a} and {b}: {big} is larger."


def _muladd(r: random.Random) -> Problem:
    a, b, c = r.randint(2, 12), r.randint(2, 12), r.randint(0, 30)
    return (f"What is {a} * {b} + {c}?", str(a * b + c),
            f"First {a} * {b} = {a * b}. Then {a * b} + {c} = {a * b + c}.")


def _negatives(r: random.Random) -> Problem:
    a, b, c = r.randint(-30, 30), r.randint(-30, 30), r.randint(-30, 30)
    return (f"What is ({a}) + ({b}) - ({c})?", str(a + b - c),
            f"({a}) + ({b}) = {a + b}. Then {a + b} - ({c}) = {a + b - c}.")


def _paren(r: random.Random) -> Problem:
    a, b, c = r.randint(1, 20), r.randint(1, 20), r.randint(2, 9)
    return (f"What is ({a} + {b}) * {c}?", str((a + b) * c),
            f"{a} + {b} = {a + b}. Then {a + b} * {c} = {(a + b) * c}.")


def _fractions(r: random.Random) -> Problem:
    a, b, c, d = r.randint(1, 9), r.randint(2, 9), r.randint(1, 9), r.randint(2, 9)
    total = Fraction(a, b) + Fraction(c, d)
    return (f"What is {a}/{b} + {c}/{d}? Give the answer as a fraction in lowest terms.", latex_number(total),
            f"{a}/{b} + {c}/{d} = {a * d}/{b * d} + {c * b}/{b * d} = {a * d + c * b}/{b * d} = {total}.")


def _linear(r: random.Random) -> Problem:
    a = r.choice([x for x in range(-9, 10) if x not in (0,)])
    b, c = r.randint(-20, 20), r.randint(-20, 20)
    x = Fraction(c - b, a)
    return (f"Solve for x: {a}x + {b} = {c}.", latex_number(x),
            f"Subtract {b}: {a}x = {c - b}. Divide by {a}: x = {x}.")


def _percent(r: random.Random) -> Problem:
    p, n = r.choice([5, 10, 12.5, 20, 25, 30, 40, 50, 75]), r.randint(1, 40) * 8
    value = Fraction(str(p)) * n / 100
    gold = str(value.numerator) if value.denominator == 1 else str(float(value))
    return f"What is {p}% of {n}?", gold, f"{p}% of {n} is {p}/100 * {n} = {gold}."


KINDS: dict[str, Callable[[random.Random], Problem]] = {
    "larger": _larger, "add": _add, "sub": _sub, "muladd": _muladd, "negatives": _negatives, "paren": _paren,
    "fractions": _fractions, "linear": _linear, "percent": _percent,
}
LEVELS = {0: ("larger",), 1: ("add", "sub"), 2: ("muladd", "negatives", "paren"), 3: ("fractions", "linear", "percent")}


def _held_out(problem: str, test_share: float) -> bool:
    digest = hashlib.sha256(problem.encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < test_share


def synthetic_rows(n: int = 1000, level: int | list[int] = 1, kinds: list[str] | None = None, seed: int = 0,
                   split: str = "train", test_share: float = 0.2,
                   max_operand: int = 50) -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    """``n`` distinct problems of the split as (problem, gold, id, fields) with the worked ``reasoning``.

    ``max_operand`` bounds the operands of the level-0 and level-1 kinds (larger, add, sub)."""
    if split not in ("train", "test"):
        raise ConfigError(f"synthetic split={split!r}; use 'train' or 'test'")
    for name, value, low in (("n", n, 1), ("max_operand", max_operand, 2)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ConfigError(f"synthetic {name}={value!r}; use a whole number >= {low} (e.g. --option {name}=500)")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"synthetic seed={seed!r}; use a whole number")
    if isinstance(test_share, bool) or not isinstance(test_share, (int, float)):
        raise ConfigError(f"synthetic test_share={test_share!r}; use a number in (0, 1)")
    levels = [level] if isinstance(level, int) else list(level) if isinstance(level, (list, tuple)) else [level]
    unknown_levels = [lv for lv in levels if lv not in LEVELS]
    if unknown_levels:
        raise ConfigError(f"synthetic level(s) {unknown_levels} unknown; use {sorted(LEVELS)}")
    chosen = list(kinds) if kinds else [k for lv in levels for k in LEVELS[lv]]
    unknown = [k for k in chosen if k not in KINDS]
    if unknown:
        raise ConfigError(f"synthetic kind(s) {unknown} unknown; kinds: {sorted(KINDS)}")
    if not 0 < test_share < 1:
        raise ConfigError("synthetic test_share must be in (0, 1)")
    rng = random.Random(f"rlvr-synthetic-{seed}-{split}")
    seen: set[str] = set()
    attempts = 0
    while len(seen) < n:
        attempts += 1
        if attempts > 200 * n + 10_000:
            raise ConfigError(f"synthetic: only {len(seen)} distinct {split} problems exist for kinds {chosen}; "
                              "ask for fewer or add kinds/levels")
        kind = rng.choice(chosen)
        make = KINDS[kind]
        problem, gold, reasoning = make(rng, max_operand) if kind in ("add", "sub", "larger") else make(rng)
        if problem in seen or _held_out(problem, test_share) != (split == "test"):
            continue
        seen.add(problem)
        yield problem, gold, f"{split}-{len(seen) - 1}", {"kind": kind, "reasoning": reasoning, "split": split}
