"""What an answer written as a statement says: ``x = 5`` states 5, ``3y = 7`` does not state 7,
and ``\\frac{\\sqrt2}{2} \\approx 0.707`` states its exact value.

Text-level checks in the caller's process (no sympy): which side of an equation names the quantity,
and which part of an "exact ≈ approximation" answer is the answer.
"""

from __future__ import annotations

import math

from fractions import Fraction

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S

from rlvr.verifiers.normalize import NormalizedAnswer, normalize_answer, split_top_level
from rlvr.verifiers.numbers import parse_number

__all__ = ["APPROX", "NAME_RE", "is_constant_side", "equation_problem", "exact_part", "relations_as_intervals"]

# what may stand on the left of "= value" and still state the value: a name, never an expression
# (x, y_1, AB, f(2), P(A), |z|, \angle ABC, m\angle A, \text{answer}); 3y = 7 states 3y, not y
NAME_RE = regex.compile(
    r"\s*(?:m\s*)?(?:\\angle\s*|\\overline\{|\\widehat\{)?[A-Za-z]{1,3}(?:_\{?[A-Za-z0-9]+\}?)?'*\}?"
    r"(?:\([^()=]{0,40}\))?\s*|\s*\|[A-Za-z]{1,3}\|\s*|\s*\\(?:text|mathrm)\{[^{}]*\}\s*"
    r"|\s*\\(?:alpha|beta|gamma|delta|theta|phi|lambda|mu|sigma|omega)\s*"
    r"|\s*\(\s*[A-Za-z](?:\s*,\s*[A-Za-z]){1,4}\s*\)\s*")
_COMMAND_OR_TEXT_RE = regex.compile(r"\\(?:text|mathrm|operatorname)\s*\{[^{}]*\}|\\[A-Za-z]+")
_LIST_SPLIT_RE = regex.compile(r"(?<![A-Za-z\\])(?:or|and)(?![A-Za-z])|\\(?:text|mbox)\{\s*(?:or|and)\s*\}")
_BOUND_VARIABLES_RE = regex.compile(r"\\(?:sum|prod|int|lim)(?![A-Za-z])")
_VARIABLE_LETTER_RE = regex.compile(r"[A-Za-df-hj-z]")
_DIGIT_RE = regex.compile(r"[0-9]")
_LATIN_RE = regex.compile(r"[A-Za-z]")


def is_constant_side(side: str) -> bool:
    """No variables: only numbers, operators and commands (\\pi, \\sqrt, \\sum_{k=1}^{10} k is not)."""
    if _BOUND_VARIABLES_RE.search(side, timeout=REGEX_TIMEOUT_S):
        return True  # its variables are bound; the sandbox evaluates the side
    bare = _COMMAND_OR_TEXT_RE.sub(" ", side, timeout=REGEX_TIMEOUT_S)
    return not _VARIABLE_LETTER_RE.search(bare, timeout=REGEX_TIMEOUT_S)  # e and i are constants


_BRACKETED_RE = regex.compile(r"_\{[^{}]*\}|_[A-Za-z0-9]|\^\{[^{}]*\}|\([^()]*\)|\[[^\[\]]*\]|\{[^{}]*\}")


def names_a_quantity(side: str) -> bool:
    """``m + n``, ``E[X]``, ``\\Pr(X=1)``, ``a_1 + a_2``, ``f(2)``: an expression of names that the
    question asks for (AIME's "find m + n"). A number outside brackets and subscripts (``3y``, ``x + 1``)
    makes it another quantity than the answer."""
    if len(side) > 60:
        return False
    bare = side
    for _ in range(3):  # nested brackets, innermost first
        bare = _BRACKETED_RE.sub(" ", bare, timeout=REGEX_TIMEOUT_S)
    bare = _COMMAND_OR_TEXT_RE.sub(" x ", bare, timeout=REGEX_TIMEOUT_S)
    return not _DIGIT_RE.search(bare, timeout=REGEX_TIMEOUT_S) and bool(_LATIN_RE.search(bare, timeout=REGEX_TIMEOUT_S))


def quantity_rhs(clean: str) -> str | None:
    """``m + n = 12`` -> ``12``: the value an equation states for a named quantity; ``None`` otherwise."""
    sides = split_top_level(clean, "=")
    if len(sides) != 2 or not sides[1].strip() or not sides[0].strip():
        return None
    lhs = sides[0]
    if is_constant_side(lhs):
        return None  # "\\sum_{k=1}^{10} k = 56" is a statement to check, not a value to read
    if NAME_RE.fullmatch(lhs, timeout=REGEX_TIMEOUT_S) or names_a_quantity(lhs):
        return sides[1].strip()
    return None


def equation_problem(clean: str) -> str | None:
    """Why an equation answer does not state the value (``3y = 7`` for gold 7), or ``None``."""
    for item in split_top_level(clean, ","):
        for part in _LIST_SPLIT_RE.split(item, timeout=REGEX_TIMEOUT_S) if "=" in item else ():
            sides = split_top_level(part, "=")
            for side in sides[:-1]:
                if side.strip() and not NAME_RE.fullmatch(side, timeout=REGEX_TIMEOUT_S) and not is_constant_side(side) \
                        and not names_a_quantity(side):
                    return (f"{clean!r} states the value of {side.strip()!r}, not of the answer; "
                            "only a name (x = …) on the left states the value")
    return None


#: an approximation sign: \approx, ≈, \sim
APPROX = r"\\approx|≈|\\sim(?![A-Za-z])"
_EXACT_THEN_APPROX_RE = regex.compile(r"(.+?)\s*(?:" + APPROX + r")\s*([^=<>]+)")
_APPROX_ONLY_RE = regex.compile(r"(?:" + NAME_RE.pattern + r")?\s*(?:" + APPROX + r")\s*([^=<>≈]+)")


def _rounds_to(exact: Fraction, approx: Fraction, decimals: int) -> bool:
    """``approx`` is ``exact`` rounded or cut off to ``decimals`` places (2/3 is 0.67 or 0.66, never 0.68;
    42 is never 43)."""
    scale = 10 ** min(decimals, 30)
    shown = approx * scale
    return shown in (math.floor(exact * scale + Fraction(1, 2)), math.ceil(exact * scale - Fraction(1, 2)),
                     math.trunc(exact * scale))


def exact_part(answer: NormalizedAnswer) -> NormalizedAnswer:
    """``\\frac{\\sqrt2}{2} \\approx 0.707`` answers with its exact value; ``x \\approx 11`` with 11.

    An approximation alone is the value it states, compared exactly: 0.707 never equals
    ``\\frac{\\sqrt2}{2}`` without a tolerance, and 32348 equals a gold rounded to the nearest dollar.

    When both sides are plain numbers they must agree to the approximation's precision (a wrong
    "≈" beside a right value is two answers)."""
    lone = _APPROX_ONLY_RE.fullmatch(answer.clean, timeout=REGEX_TIMEOUT_S)
    if lone:  # "x ≈ 11", "≈ 11": the stated value, compared as it is (exactly unless a tolerance is set)
        return normalize_answer(lone[1])
    m = _EXACT_THEN_APPROX_RE.fullmatch(answer.clean, timeout=REGEX_TIMEOUT_S)
    if not m or NAME_RE.fullmatch(m[1], timeout=REGEX_TIMEOUT_S) or not m[1].strip():
        return answer
    exact, approx = normalize_answer(m[1]), normalize_answer(m[2])
    e, a = parse_number(exact.key), parse_number(approx.key)
    if e is not None and a is not None:
        decimals = len(approx.key.partition(".")[2]) if "." in approx.key else 0
        if not _rounds_to(e, a, decimals):
            return answer
    return exact


_ONE_SIDED_RE = regex.compile(
    r"\s*([A-Za-z])\s*(<|>|\\le|\\leq|\\ge|\\geq|\\lt|\\gt|\\leqslant|\\geqslant)(?![A-Za-z])\s*([^<>=]+?)\s*"
    r"|\s*([^<>=]+?)\s*(<|>|\\le|\\leq|\\lt|\\leqslant)(?![A-Za-z])\s*([A-Za-z])\s*(<|>|\\le|\\leq|\\lt|\\leqslant)(?![A-Za-z])\s*([^<>=]+?)\s*")
_OR_SPLIT_RE = regex.compile(r"\s*(?:\\lor(?![A-Za-z])|(?<![A-Za-z\\])or(?![A-Za-z])|\\cup(?![A-Za-z]))\s*")
_LESS = {"<": True, "\\lt": True, "\\le": False, "\\leq": False, "\\leqslant": False}


def relations_as_intervals(clean: str) -> str | None:
    """``x \\le -1 or x \\ge 3`` as ``(-\\infty, -1] \\cup [3, \\infty)``; ``None`` unless every part is
    a one-variable inequality in the same variable (a solution set written with "or" or ``\\lor``)."""
    parts = _OR_SPLIT_RE.split(clean, timeout=REGEX_TIMEOUT_S)
    if len(parts) < 2:
        return None
    intervals, names = [], set()
    for part in parts:
        m = _ONE_SIDED_RE.fullmatch(part, timeout=REGEX_TIMEOUT_S)
        if not m:
            return None
        if m[1]:
            name, op, bound = m[1], m[2], m[3]
            if op in _LESS:
                intervals.append(f"(-\\infty, {bound}" + (")" if _LESS[op] else "]"))
            else:
                intervals.append(("(" if op in (">", "\\gt") else "[") + f"{bound}, \\infty)")
        else:
            low, op1, name, op2, high = m[4], m[5], m[6], m[7], m[8]
            intervals.append(("(" if _LESS[op1] else "[") + f"{low}, {high}" + (")" if _LESS[op2] else "]"))
        names.add(name)
    return " \\cup ".join(intervals) if len(names) == 1 else None
