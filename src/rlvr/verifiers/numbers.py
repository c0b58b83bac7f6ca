"""Exact parsing of plain numbers written in LaTeX or text, as :class:`fractions.Fraction`.

Integers, decimals, fractions (``\\frac{3}{4}``, ``3/4``), mixed numbers (``2\\frac{1}{2}``),
scientific notation (``1.5e3``, ``1.5\\times10^{3}``) and repeating decimals (``0.\\overline{3}``)
compare exactly: no float fuzz, so ``1/2^{101}`` never equals ``1/2^{100}``. Only ASCII digits
count (Python's ``int`` accepts any Unicode digit, which would let look-alike characters through).
Anything else returns ``None`` and goes on to the symbolic step.
"""

from __future__ import annotations

from fractions import Fraction

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.repeating import fraction_of

__all__ = ["parse_number", "numbers_match", "matches_at_float_precision", "decimal_comma_value", "simple_value"]

_NUM = r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
_PLAIN_RE = regex.compile(rf"([+-]?)({_NUM})")
_SCI_E_RE = regex.compile(rf"([+-]?)({_NUM})[eE]([+-]?[0-9]{{1,3}})")
_SCI_TIMES_RE = regex.compile(rf"([+-]?)({_NUM})(?:\\times|\\cdot|×|\*)10\^(?:\{{([+-]?[0-9]{{1,3}})\}}|([0-9]))")
_FRAC_RE = regex.compile(rf"([+-]?)\\frac\{{([+-]?)({_NUM})\}}\{{([+-]?)({_NUM})\}}")
_FRAC_SHORT_RE = regex.compile(r"([+-]?)\\frac([0-9])([0-9])")
_SLASH_RE = regex.compile(rf"([+-]?)({_NUM})/({_NUM})")
_MIXED_RE = regex.compile(r"([+-]?)([0-9]+)\\frac\{([0-9]+)\}\{([0-9]+)\}")


def _sign(s: str) -> int:
    return -1 if s == "-" else 1


# Python refuses int <-> str conversions of more than 4,300 digits (ValueError); stay well below it.
SAFE_DIGITS = 4_000


def parse_number(key: str, max_digits: int = SAFE_DIGITS) -> Fraction | None:
    """The exact value of ``key`` (a whitespace-free normalised answer), or ``None``.

    Never raises: text with more than ``min(max_digits, SAFE_DIGITS)`` digits is not read as a number.
    """
    s = key
    if s.startswith("(") and s.endswith(")") and s.count("(") == 1:
        s = s[1:-1]
    if not s or len(s) > 2 * SAFE_DIGITS or sum(c.isdigit() for c in s) > min(max_digits, SAFE_DIGITS):
        return None
    try:
        if m := _PLAIN_RE.fullmatch(s, timeout=REGEX_TIMEOUT_S):
            return _sign(m[1]) * Fraction(m[2])
        if m := _SCI_E_RE.fullmatch(s, timeout=REGEX_TIMEOUT_S):
            return _sign(m[1]) * Fraction(m[2]) * Fraction(10) ** int(m[3])
        if m := _SCI_TIMES_RE.fullmatch(s, timeout=REGEX_TIMEOUT_S):
            return _sign(m[1]) * Fraction(m[2]) * Fraction(10) ** int(m[3] or m[4])
        if m := _FRAC_RE.fullmatch(s, timeout=REGEX_TIMEOUT_S):
            return _sign(m[1]) * _sign(m[2]) * _sign(m[4]) * Fraction(m[3]) / Fraction(m[5])
        if m := _FRAC_SHORT_RE.fullmatch(s, timeout=REGEX_TIMEOUT_S):
            return _sign(m[1]) * Fraction(int(m[2]), int(m[3]))
        if m := _SLASH_RE.fullmatch(s, timeout=REGEX_TIMEOUT_S):
            return _sign(m[1]) * Fraction(m[2]) / Fraction(m[3])
        if (repeating := fraction_of(s)) is not None:  # 0.1\overline{6}, 0.1(6), 0.1666... = 1/6
            return repeating
        if m := _MIXED_RE.fullmatch(s, timeout=REGEX_TIMEOUT_S):
            return _sign(m[1]) * (int(m[2]) + Fraction(int(m[3]), int(m[4])))
    except (ZeroDivisionError, ValueError, OverflowError):
        return None
    return None


def numbers_match(answer: Fraction, gold: Fraction, abs_tol: float = 0.0, rel_tol: float = 0.0) -> bool:
    """Exact equality, or within ``max(abs_tol, rel_tol * |gold|)`` when a tolerance is set."""
    if answer == gold:
        return True
    if abs_tol == 0 and rel_tol == 0:
        return False
    bound = max(Fraction(abs_tol), Fraction(rel_tol) * abs(gold))
    return abs(answer - gold) <= bound


_LONG_DECIMAL_RE = regex.compile(r"[+-]?([0-9]*)\.([0-9]+)")


def matches_at_float_precision(key: str, gold: Fraction) -> bool:
    """``0.142857142857143`` for 1/7: a decimal of 15+ significant digits that is ``gold`` rounded.

    A float printed in full is the rational it approximates; ``0.33`` for 1/3 is not (too few
    digits to be a float's rendering). The answer must be within one unit of its last digit.
    """
    m = _LONG_DECIMAL_RE.fullmatch(key, timeout=REGEX_TIMEOUT_S)
    if not m or len(key) > 60:
        return False
    significant = (m[1] + m[2]).lstrip("0")
    if len(significant) < 15:
        return False
    try:
        value = Fraction(key)
    except (ValueError, ZeroDivisionError):
        return False
    return abs(value - gold) <= Fraction(1, 10 ** len(m[2]))


# a decimal gold, perhaps in scientific notation: 3.33333333, 2.314814814815 \times 10^{-3}
_GOLD_DECIMAL_RE = regex.compile(r"[+-]?([0-9]*)\.([0-9]+)(?:\\times10\^\{?([-+]?[0-9]{1,3})\}?)?")
_ANSWER_DECIMAL_RE = regex.compile(r"[+-]?[0-9]*(?:\.([0-9]*))?")
#: significant digits from which a decimal gold is the rounding of an exact value (10/3 for 3.33333333): a wrong
#: exact answer does not agree with eight digits by chance (355/113 against pi's 3.14159265 misses by 27 units)
LONG_GOLD_DIGITS = 8


def rounds_long_gold(answer: Fraction, gold_key: str, answer_key: str | None = None) -> bool:
    """Whether the exact ``answer`` is the value a decimal gold of :data:`LONG_GOLD_DIGITS` or more significant
    digits rounds ("3.33333333" for 10/3, "2.314814814815 \\times 10^{-3}" for 1/432): within one unit of its last
    digit (a gold rounded or truncated). ``answer_key``, when given, is how the answer was written: a decimal of no
    more places than the gold is another value at the gold's precision (3.33333334 against 3.33333333), not its
    rounding."""
    m = _GOLD_DECIMAL_RE.fullmatch(gold_key, timeout=REGEX_TIMEOUT_S) if len(gold_key) < 60 else None
    if m is None or len((m[1] + m[2]).lstrip("0")) < LONG_GOLD_DIGITS:
        return False
    if answer_key is not None and (a := _ANSWER_DECIMAL_RE.fullmatch(answer_key, timeout=REGEX_TIMEOUT_S)) \
            and len(a[1] or "") <= len(m[2]) - int(m[3] or 0):
        return False
    exponent = int(m[3] or 0)
    scale = Fraction(10) ** exponent
    gold = Fraction(f"{m[1] or '0'}.{m[2]}") * scale * (-1 if gold_key.startswith("-") else 1)
    unit = Fraction(1, 10 ** len(m[2])) * scale
    if (answer / unit).denominator == 1:
        return answer == gold  # 12345679/10000 against 1234.5678: a value the gold's places write, and another one
    return abs(answer - gold) <= unit


#: significant digits from which a decimal gold is read as the rounding of an exact answer (30.52 for 1587/52, 0.458
#: for 27/59, 6.67% for 1/15): a dataset that stores an exact result as a decimal rounds it, and the policy cannot widen
#: that interval, because the gold sets it. Two digits (0.33, 7.1) leave too many exact values to round to them.
SHORT_GOLD_DIGITS = 3
_PERCENT_GOLD_RE = regex.compile(r"(.*?)(?:\\?%|\\percent)")


def _terminates(value: Fraction) -> bool:
    """Whether ``value`` is a finite decimal (its denominator has no prime but 2 and 5)."""
    d = value.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


def exact_rounds_to_gold(answer: Fraction, gold_key: str, answer_key: str | None = None, irrational: bool = False) -> bool:
    """Whether the exact ``answer`` (a fraction, a mixed number, or a constant's value) is what a decimal gold of
    :data:`SHORT_GOLD_DIGITS` or more significant digits rounds to, half away from zero at the gold's places (1587/52
    for 30.52, 1/15 for 6.67%). A finite decimal must be the gold itself (9/4 against 2.26, 1245/100 against 12.5),
    an answer written as a decimal is compared by its own places (:func:`rounds_to_gold`), never as exact, and a
    gold of fewer than two places (12.5) may be exact. ``irrational``: ``answer`` is a long decimal approximation of
    an irrational value (sqrt(2) - 1 against 41.4%). Long golds keep their wider test (:func:`rounds_long_gold`)."""
    if answer_key is not None and _ANSWER_DECIMAL_RE.fullmatch(answer_key, timeout=REGEX_TIMEOUT_S):
        return False
    if rounds_long_gold(answer, gold_key):
        return True
    shift = 0
    if (p := _PERCENT_GOLD_RE.fullmatch(gold_key, timeout=REGEX_TIMEOUT_S)) if len(gold_key) < 60 else None:
        gold_key, shift = p[1], 2
    m = _GOLD_DECIMAL_RE.fullmatch(gold_key, timeout=REGEX_TIMEOUT_S) if len(gold_key) < 60 else None
    if m is None or len((m[1] + m[2]).lstrip("0")) < SHORT_GOLD_DIGITS \
            or len(m[2]) - int(m[3] or 0) + shift < ROUNDED_GOLD_PLACES:
        return False  # 12.5 or 7.1 is as likely an exact value as a rounded one
    scale = Fraction(10) ** (int(m[3] or 0) - shift)
    gold = Fraction(f"{m[1] or '0'}.{m[2]}") * scale * (-1 if gold_key.startswith("-") else 1)
    unit = Fraction(1, 10 ** len(m[2])) * scale
    steps = answer / unit
    if not irrational and (steps.denominator == 1 or _terminates(answer)):
        return answer == gold  # 1245/100 is the decimal 12.45, which is no rounding of 12.5 (compare.rounded)
    whole = (abs(steps) + Fraction(1, 2)).__floor__()  # half away from zero, as taught
    return (whole if steps > 0 else -whole) * unit == gold


_DECIMAL_RE = regex.compile(r"-?[0-9]+\.([0-9]+)")
#: the fewest decimal places a gold must give for a more precise decimal that rounds to it to be paid (0.667 for 0.67;
#: a gold of one place, 7.1, says too little: 7.07 and 7.14 both round to it)
ROUNDED_GOLD_PLACES = 2


def rounds_to_gold(key: str, gold_key: str) -> bool:
    """``0.667`` for a gold ``0.67``, ``2.236`` for ``2.24``: a decimal written with more places than a gold of
    :data:`ROUNDED_GOLD_PLACES` or more that rounds to it (half away from zero; the gold gives no more
    precision than its places, so an answer it cannot tell from the value is the value). Decimals only: an exact
    value (22/7, a root) is never rounded here."""
    a, g = _DECIMAL_RE.fullmatch(key, timeout=REGEX_TIMEOUT_S), _DECIMAL_RE.fullmatch(gold_key, timeout=REGEX_TIMEOUT_S)
    if a is None or g is None or len(key) > 40 or len(g[1]) < ROUNDED_GOLD_PLACES or len(a[1]) <= len(g[1]):
        return False
    from decimal import ROUND_HALF_UP, Decimal

    # one convention (half away from zero, as taught), so that one answer rounds to one gold at each precision
    return Decimal(key).quantize(Decimal(1).scaleb(-len(g[1])), ROUND_HALF_UP) == Decimal(gold_key)


# "2,74" / "1000,99": a decimal comma (a group of three digits after it is a thousands separator)
# (or any digits after a leading 0: "0,111" has no thousands to separate)
_DECIMAL_COMMA_RE = regex.compile(r"(-?0),([0-9]{1,30})|(-?[0-9]{1,30}),([0-9]{1,2}|[0-9]{4,30})")


def decimal_comma_value(text: str) -> Fraction | None:
    """The value of ``text`` read with a decimal comma (``2,74`` is 2.74), or ``None``.

    Only a whole text of digits, one comma and a group that is not three digits long qualifies:
    ``1,000`` is a thousands separator and ``1, 22`` (with a space) a list.
    """
    m = _DECIMAL_COMMA_RE.fullmatch(text, timeout=REGEX_TIMEOUT_S)
    if not m:
        return None
    whole, part = (m[1], m[2]) if m[1] is not None else (m[3], m[4])
    return Fraction(f"{whole}.{part}")


_PI_MULTIPLE_RES = (  # (numerator, denominator) of a rational multiple of pi, in the forms models write
    regex.compile(r"([-+]?)\\[dt]?frac\{([0-9]*)\\pi\}\{([0-9]+)\}"),  # \frac{11\pi}{36}, \frac{\pi}{2}
    regex.compile(r"([-+]?)\\[dt]?frac\{([0-9]+)\}\{([0-9]+)\}\\pi"),  # \frac{11}{36}\pi
    regex.compile(r"([-+]?)([0-9]*)\\pi(?:/([0-9]+))?"),  # 2\pi, \pi/5, 3\pi/4
)


def pi_multiple(key: str) -> Fraction | None:
    """``q`` when ``key`` (a whitespace-free normalised answer) is exactly ``q·π`` for a rational ``q``."""
    for pattern in _PI_MULTIPLE_RES:
        if m := pattern.fullmatch(key, timeout=REGEX_TIMEOUT_S):
            den = int(m[3]) if m[3] else 1
            if den == 0 or len(key) > 40:
                return None
            return _sign(m[1]) * Fraction(int(m[2] or "1"), den)
    return None


def simple_value(text: str) -> float | None:
    """A float for a plain number or a simple exact form (\\frac, \\sqrt, \\pi), never evaluated by eval."""
    s = text.strip().strip("$").replace("\\dfrac", "\\frac").replace("\\tfrac", "\\frac").replace(" ", "")
    n = parse_number(s)
    if n is not None:
        return float(n)
    m = regex.fullmatch(r"(-?)\\frac\{(.+)\}\{(.+)\}", s, timeout=REGEX_TIMEOUT_S)
    if m:
        num, den = simple_value(m[2]), simple_value(m[3])
        return None if num is None or not den else (-1 if m[1] else 1) * num / den
    m = regex.fullmatch(r"(-?(?:[0-9]+(?:\.[0-9]+)?)?)\\sqrt\{?([0-9]+(?:\.[0-9]+)?)\}?", s, timeout=REGEX_TIMEOUT_S)
    if m:
        coefficient = float(m[1]) if m[1] not in ("", "-") else (-1.0 if m[1] == "-" else 1.0)
        return coefficient * float(m[2]) ** 0.5
    m = regex.fullmatch(r"(-?(?:[0-9]+(?:\.[0-9]+)?)?)\\pi", s, timeout=REGEX_TIMEOUT_S)
    if m:
        coefficient = float(m[1]) if m[1] not in ("", "-") else (-1.0 if m[1] == "-" else 1.0)
        return coefficient * 3.141592653589793
    return None


# a decimal written as repeating ("0.666\\ldots", "0.1\\overline{6}", "0.333…"): a decimal of unbounded places
_REPEATING_WRITTEN_RE = regex.compile(r"-?[0-9]*\.[0-9]*(?:\\overline\{[0-9]+\}|\\dot\{[0-9]\}[0-9]*(?:\\dot\{[0-9]\})?|"
                                      r"[0-9](?:\\ldots|\\cdots|\\dots|\.\.\.|…))")


def repeating_rounds_to_gold(written: str, value: Fraction, gold_key: str) -> bool:
    """``0.666\\ldots`` (2/3) for a gold ``0.67``: a repeating decimal has more places than any gold, so it is paid
    as :func:`rounds_to_gold` pays a longer decimal, by rounding its exact ``value`` half away from zero."""
    g = _DECIMAL_RE.fullmatch(gold_key, timeout=REGEX_TIMEOUT_S)
    if g is None or len(g[1]) < ROUNDED_GOLD_PLACES or len(written) > 60 \
            or not _REPEATING_WRITTEN_RE.fullmatch(written.replace(" ", ""), timeout=REGEX_TIMEOUT_S):
        return False
    from decimal import ROUND_HALF_UP, Decimal, localcontext

    with localcontext() as ctx:
        ctx.prec = 60
        exact = Decimal(value.numerator) / Decimal(value.denominator)
        return exact.quantize(Decimal(1).scaleb(-len(g[1])), ROUND_HALF_UP) == Decimal(gold_key)
