"""Repeating decimals in every notation a model writes, read as the exact fraction they denote.

``0.333...`` / ``0.333\\ldots`` / ``0.333…`` (the period written out at least twice, a one-digit period
three times: ``0.33...`` may be a truncation), ``0.\\overline{3}`` / ``0.1\\bar{6}`` / ``0.\\dot{3}``,
the UK dots over a period's ends (``0.\\dot{1}4285\\dot{7}``) and the parenthesised period of much of
Europe and Asia (``0.(3)``, ``0.1(6)``). One module, so that the answer, the gold, a number's key and a
value restated after the answer all read ``0.1(6)`` as 1/6 the same way.
"""

from __future__ import annotations

from fractions import Fraction

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S

__all__ = ["DOTS", "REPEATING_RE", "IN_PROSE", "ENDS_IN_DECIMAL_DOTS_RE", "fraction_of", "as_fractions"]

DOTS = r"(?:\\ldots|\\dots|\\cdots|\.\.\.|…)"
# groups (branch reset): 1 whole part, 2 digits before the period, 3 the period
# a decimal comma ("0,(3)", "0{,}\\overline{3}") only where no thousands group can be meant: after a lone 0, or
# before an explicit period; a parenthesised period only after 0 or right after the point ("2.5(4)" is 2.5 · 4)
_POINT = r"(?:\.|,|\{,\})"
REPEATING_RE = regex.compile(
    r"(?<![0-9.,])(?|"
    r"([0-9]{0,12}(?<![1-9][0-9]*)|[0-9]{0,12}(?=\.))" + _POINT + r"([0-9]{0,12}?)([0-9]{1,6}?)\3+\s*" + DOTS +  # 0.1666…
    r"|([0-9]{0,12})" + _POINT + r"([0-9]{0,12})\\(?:overline|bar|dot)\s*(?:\{\s*([0-9]{1,12})\s*\}|([0-9]))"  # 0.1\overline{6}
    r"|(0?)" + _POINT + r"([0-9]{0,12})\(([0-9]{1,12})\)"  # 0.1(6), 0,(3)
    r"|([0-9]{1,12})" + _POINT + r"()\(([0-9]{1,12})\)"  # 1.(27)
    r")(?![0-9])")
# the forms read as one number in running text (the prose reader's values): a parenthesised period where REPEATING_RE
# takes one, or the period written out before dots; an overline is math, read with its span
IN_PROSE = (r"(?:0?\.[0-9]{0,12}\([0-9]{1,12}\)|[0-9]{1,12}\.\([0-9]{1,12}\)"
            r"|[0-9]{0,12}\.[0-9]{0,12}?(?:([0-9])\1\1+|([0-9]{2,6}?)\2+)(?:\.\.\.|…|\\[lc]?dots))(?![0-9])")
#: text that ends in a decimal and three dots ("0.333...", "1.4142..."): the dots are the number's, no sentence end
ENDS_IN_DECIMAL_DOTS_RE = regex.compile(r"(?<![0-9.])[0-9]*\.[0-9]{2,}\.\.\.$")
# the UK notation marks a period's first and last digits: 0.\dot{1}4285\dot{7} is 0.\overline{142857}
_UK_DOTS_RE = regex.compile(r"\\dot\s*\{?([0-9])\}?([0-9]{0,10})\\dot\s*\{?([0-9])\}?")


def _value(m: regex.Match) -> Fraction | None:
    whole, fixed, period = m[1], m[2], m[3] or m[4]
    if not period or not (whole or fixed or period):
        return None
    if m[0].rstrip().endswith(("...", "…", "dots")) and len(period) == 1 and m[0].count(period * 3) == 0:
        return None  # "0.33...": two digits and dots may be a truncation, not a period
    scale = 10 ** len(fixed)
    return Fraction(int(whole or "0")) + Fraction(int(fixed or "0"), scale) + \
        Fraction(int(period), (10 ** len(period) - 1) * scale)


def _uk(text: str) -> str:
    if "\\dot" not in text:
        return text
    return _UK_DOTS_RE.sub(lambda m: f"\\overline{{{m[1]}{m[2]}{m[3]}}}", text, timeout=REGEX_TIMEOUT_S)


def fraction_of(text: str) -> Fraction | None:
    """The exact value of ``text`` when all of it is one (signed) repeating decimal, else ``None``."""
    s = _uk(text.strip())
    sign = -1 if s[:1] in "-−" else 1
    s = s[1:].lstrip() if s[:1] in "+-−" else s
    m = REPEATING_RE.fullmatch(s, timeout=REGEX_TIMEOUT_S)
    value = _value(m) if m else None
    return None if value is None else sign * value


def _tex(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"\\frac{{{value.numerator}}}{{{value.denominator}}}"


def as_fractions(text: str) -> str:
    """``text`` with each repeating decimal in it written as its fraction (``0.333... = 1/3`` becomes
    ``\\frac{1}{3} = 1/3``); a sign before one stays where it is."""
    if not any(mark in text for mark in ("...", "…", "dots", "\\overline", "\\bar", "\\dot", "(")):
        return text
    text = _uk(text)

    def one(m: regex.Match) -> str:
        value = _value(m)
        if value is None:
            return m[0]
        return _tex(value)

    return REPEATING_RE.sub(one, text, timeout=REGEX_TIMEOUT_S)
