"""Values prose writes without math delimiters: TeX or Unicode maths after a stating verb ("is 3\\sqrt{2}",
"is 3√2", "is 100π cm³"), and one exact number written twice ("0.5 or 1/2", "3/8, or 37.5%")."""

from __future__ import annotations

import regex

__all__ = ["plain_math", "one_number"]


# math written without delimiters ("is 3\sqrt{2}", "is 3√2", "is 2^{10}"): digits, one-letter names, macros
# and operators only, with a macro, a root, π or a power in it, no word, no list and no equation
_PLAIN_MATH_RE = regex.compile(r"[-+]?(?:[0-9.]|(?<![A-Za-z])[A-Za-z](?![A-Za-z])|\\[A-Za-z]+|[{}()^_/*+\-√∛π·×\p{No}]|[ ])+")
_PLAIN_MATH_SIGN_RE = regex.compile(r"\\[A-Za-z]+|[√∛π^\p{No}]")
_UNIT_AFTER_RE = regex.compile(r"\s+(\p{L}{2,15})(?:\^\{?[23]\}?|[²³])?$")


def plain_math(rest: str, offset: int, timeout: float) -> list[tuple[str, int, int]]:
    """The text after a sentence's one stating verb as one value, when it is nothing but math (and a unit:
    "is 100π cm³")."""
    from rlvr.verifiers.units import unit_words

    text = rest.strip().rstrip(".。").rstrip()
    math = text
    if (unit := _UNIT_AFTER_RE.search(text, timeout=timeout)) and unit_words(unit[1]):
        math = text[:unit.start()]
    if not math or not _PLAIN_MATH_RE.fullmatch(math, timeout=timeout) or not _PLAIN_MATH_SIGN_RE.search(math, timeout=timeout):
        return []
    start = offset + rest.find(text)
    return [(text, start, start + len(text))]


def one_number(first: str, second: str) -> bool:
    """"$\\frac{3}{8}$, or 37.5%", "0.5 or 1/2": one exact number written twice (a percentage as its fraction)
    restates it; anything else after "or" is an alternative."""
    from rlvr.verifiers.normalize import normalize_answer  # normalisation reads answers: a layer above
    from rlvr.verifiers.numbers import parse_number

    a, b = normalize_answer(first), normalize_answer(second)
    if a.unit or b.unit or a.cut_off or b.cut_off:
        return False
    x, y = parse_number(a.key), parse_number(b.key)
    if x is None or y is None:
        return False
    x, y = (x / 100 if a.percent else x), (y / 100 if b.percent else y)
    return x == y
