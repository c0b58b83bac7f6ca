"""One notion of "an approximation of the answer": which words and signs say it, and how close it must be.

``\\boxed{\\frac23}, approximately 0.67``, ``\\boxed{\\frac13} \\approx 0.333`` and "So it is about 0.66."
all restate the answer at a precision of their own. The precision is the approximation's last
decimal place (and its power of ten or scale word: ``1.2 \\times 10^{5}``, "1.2 million"; a percent
counts in hundredths): to one decimal place or none it must be the answer rounded ("2/3 ≈ 0.7",
never 0.6); finer, a cut-off is allowed too ("2/3 ≈ 0.66"); 43 never approximates 42. Every reader
that meets an approximation (inside the answer, beside the box, in a later sentence) asks this module.
"""

from __future__ import annotations

from fractions import Fraction

import regex

from rlvr.verifiers.lexicon import APPROXIMATION_WORDS
from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.phrases import words_pattern
from rlvr.verifiers.repeating import DOTS

__all__ = ["APPROXIMATING", "APPROX_SIGNS_RE", "TRUNCATED_RE", "says_approximately", "tolerance", "approximates", "is_exact_form"]

#: words that present a value as an approximation ("about 12", "roughly", "environ", "примерно", "大约")
APPROXIMATING = words_pattern(APPROXIMATION_WORDS + ("approx", "approx."))
#: signs that do the same in math
APPROX_SIGNS_RE = regex.compile(r"≈|\\approx(?![A-Za-z])|\\simeq(?![A-Za-z])|\\doteq(?![A-Za-z])|\\sim(?![A-Za-z])")
#: a decimal cut off with an ellipsis ("3.14159...", "0.33…"): the dots say the digits go on, so it approximates
TRUNCATED_RE = regex.compile(r"(?<![0-9.])[0-9]*\.[0-9]+\s*" + DOTS + r"(?![A-Za-z])")
# an approximation's digits: "0.333", "1.2 \\times 10^{5}", "1.23 million" (decimals, power of ten, scale word)
_MANTISSA_RE = regex.compile(r"\s*[-+]?[0-9]*(?:\.([0-9]+))?\s*(?:(?:\\times|\\cdot|×)\s*10\^\{?([-+]?[0-9]{1,3})\}?)?"
                             r"\s*(?:\\text\{\s*)?(thousand|million|billion)?\s*\}?\s*(\\?%)?")
# what makes an approximation an exact value instead of a decimal: a fraction, a root, pi
_EXACT_FORM_RE = regex.compile(r"\\(?:[dt]?frac|sqrt|pi|over)(?![A-Za-z])|[0-9]\s*/\s*[0-9]")
_DIGIT_RE = regex.compile(r"[0-9]")
_GROUP_COMMA_RE = regex.compile(r"(?<=[0-9]),(?=[0-9]{3}(?![0-9]))")
_SCALE_EXPONENTS = {"thousand": 3, "million": 6, "billion": 9}


def says_approximately(text: str, timeout: float = REGEX_TIMEOUT_S) -> bool:
    """Whether ``text`` presents a value as an approximation (a word or a sign)."""
    return APPROX_SIGNS_RE.search(text, timeout=timeout) is not None or APPROXIMATING.search(text, timeout=timeout) is not None \
        or TRUNCATED_RE.search(text, timeout=timeout) is not None


def tolerance(approximation: str) -> float:
    """How far from the exact value ``approximation`` may be: just under one unit of its last place when it
    shows two decimals or more (rounding or cut-off), half a unit at one decimal or none (rounding only);
    nothing when it is no decimal ("≈ \\frac{2}{3}" must be the value itself)."""
    if _EXACT_FORM_RE.search(approximation, timeout=REGEX_TIMEOUT_S):
        return 0.0  # "\\frac{2}{3}", "\\sqrt{2}": an exact value has no precision of its own to round to
    approximation = _GROUP_COMMA_RE.sub("", approximation, timeout=REGEX_TIMEOUT_S)  # "1,234.33" has two decimals
    first = _DIGIT_RE.search(approximation, timeout=REGEX_TIMEOUT_S)  # after a sign, "\\$" or "\\mathbf{"
    m = _MANTISSA_RE.match(approximation, first.start() if first else 0, timeout=REGEX_TIMEOUT_S)
    decimals, exponent = (len(m[1] or ""), int(m[2] or 0)) if m else (0, 0)
    if m and m[3]:
        exponent += _SCALE_EXPONENTS[m[3].lower()]
    percent = bool(m and m[4]) or approximation.rstrip().endswith("%")
    unit = 10.0 ** (min(max(exponent, -30), 30) - min(decimals, 15)) / (100 if percent else 1)
    return (0.5 + 1e-9 if decimals <= 1 else 0.999) * unit


def approximates(approximation: str, value: float | Fraction, exact: float | Fraction) -> bool:
    """Whether ``value`` (what ``approximation`` says, as a number; a percent already divided by 100) is
    ``exact`` at the approximation's own precision."""
    return abs(float(value) - float(exact)) <= tolerance(approximation) + 1e-12


def is_exact_form(approximation: str) -> bool:
    """Whether an "approximation" is written as an exact value ("≈ \\frac{3}{2}", "≈ \\sqrt{2}"): then it
    must be the value itself (:func:`tolerance` is 0)."""
    return _EXACT_FORM_RE.search(approximation, timeout=REGEX_TIMEOUT_S) is not None
