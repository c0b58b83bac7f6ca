"""A remark in parentheses after an answer's value, inside its box or on its line: said of the value, not
another value.

``\\boxed{\\frac12 \\ (0.5)}``, ``\\boxed{\\frac34 \\text{ (75\\%)}}``, ``\\boxed{5 \\text{ (only positive root)}}``,
``\\boxed{6 \\text{ (since } 2 \\times 3 = 6)}``, ``Answer: 150 (50 × 3)``, ``18 (9 eggs × \\$2)``: the answer is the
value before the parenthesis, and the parenthesis restates it (the same number in another form, an
arithmetic that comes to it, a worked identity ending in it) or remarks on it in words with no number. Any
other parenthesis stays part of the answer, which the comparison then refuses as it did: one with a second
value ("(or 6)", "(20)", "(since it could be 6)") or a word that doubts, negates or offers another.
"""

from __future__ import annotations

from fractions import Fraction

import regex

from rlvr.verifiers.lexicon import (
    ALTERNATIVE_WORDS, HEDGE_WORDS, NEGATION_WORDS, NEGATIVE_EVALUATIONS, REJECTION_WORDS, RETRACTION_CUES, TENTATIVE_WORDS,
    UNSURE_PHRASES, words_pattern,
)
from rlvr.verifiers.later_values import fold_digits
from rlvr.verifiers.limits import REGEX_TIMEOUT_S

__all__ = ["without_remark", "comes_to"]

_TEXT_WRAPPER_RE = regex.compile(r"\\(?:text|mathrm|textrm|mbox|textit)\s*\{([^{}]*)\}")
_SPACING_RE = regex.compile(r"\\[,;:! ]|\\q?quad(?![A-Za-z])|~")
# the value, blanks, then one parenthesis at the end ("\\left(" … "\\right)" too)
_TAIL_RE = regex.compile(r"(?s)(?P<value>.*?\S)\s*(?:\\left)?\(\s*(?P<remark>[^()]*)\)\s*(?:\\right)?\s*")
_REFUSING = words_pattern(tuple(w for w in ALTERNATIVE_WORDS + HEDGE_WORDS + NEGATION_WORDS + UNSURE_PHRASES
                                + NEGATIVE_EVALUATIONS + REJECTION_WORDS + RETRACTION_CUES + TENTATIVE_WORDS
                                if w not in ("or", "no")) + ("maybe", "could", "might", "possibly", "alternatively",
                                                             "otherwise", "also", "unless", "if"))
_LEADS_RE = regex.compile(r"(?i)\s*(?:or|i\.\s?e\.?,?|that is,?|=|≈|\\approx|namely|about)\s*")
_JUSTIFYING_RE = regex.compile(r"(?i)\s*(?:since|because|as|from|by|using|via|for|with|where|given|the only|only)\b")
_DIGIT_RE = regex.compile(r"[0-9]")
_NUMBER_RE = regex.compile(r"[0-9]+(?:\.[0-9]+)?")
# an arithmetic of plain numbers once the words and currency signs are out ("9 eggs × \\$2" is 9 × 2)
_OPERATOR_RE = regex.compile(r"\\times|\\cdot|\\div|[×·*÷/+\-−]")
_NOISE_RE = regex.compile(r"\\\$|\$|\\[A-Za-z]+|[\p{L}\p{Sc}%']+")


def without_remark(answer: str) -> str:
    """``answer`` without a parenthesis at its end that only restates or remarks on the value before it (see the
    module's docstring); ``answer`` unchanged otherwise."""
    if "(" not in answer or len(answer) > 400:
        return answer
    plain = _SPACING_RE.sub(" ", _TEXT_WRAPPER_RE.sub(r"\1", answer, timeout=REGEX_TIMEOUT_S), timeout=REGEX_TIMEOUT_S)
    m = _TAIL_RE.fullmatch(plain, timeout=REGEX_TIMEOUT_S)
    if m is None or m["value"].count("(") != m["value"].count(")") or m["value"].rstrip().endswith(("(", "\\left")):
        return answer
    value, remark = m["value"].strip().rstrip(",;"), fold_digits(m["remark"].strip())  # "(twenty)" is a number
    if not remark or _REFUSING.search(remark, timeout=REGEX_TIMEOUT_S) or not _names_value(value) or _spelled(remark):
        return answer
    said = _LEADS_RE.sub("", remark, count=1, timeout=REGEX_TIMEOUT_S)
    if not _DIGIT_RE.search(remark, timeout=REGEX_TIMEOUT_S) and _JUSTIFYING_RE.match(remark, timeout=REGEX_TIMEOUT_S) is not None \
            or (not _DIGIT_RE.search(remark, timeout=REGEX_TIMEOUT_S) and said == remark):
        return value  # "(only positive root)", "(dollars)": words about the value
    number = _value_of(value)
    if number is None:
        return answer
    if _restates(said, number) or _comes_to(said, number):
        return value  # "(0.5)", "(50%)", "(or 0.5)", "(50 × 3)", "(9 eggs × $2)"
    if _JUSTIFYING_RE.match(remark, timeout=REGEX_TIMEOUT_S) and "=" in remark \
            and _restates(remark.rsplit("=", 1)[1], number):
        return value  # "(since 2 × 3 = 6)": a worked identity that ends in the value
    return answer


def _spelled(remark: str) -> bool:
    """A word of the remark that is a number word of any language CLDR spells ("(zwanzig)", "(двадцать)")."""
    from rlvr.verifiers.spelled_numbers import number_word

    return any(number_word(w) for w in regex.findall(r"\p{L}+", remark.lower(), timeout=REGEX_TIMEOUT_S))


def _names_value(value: str) -> bool:
    return bool(_DIGIT_RE.search(value, timeout=REGEX_TIMEOUT_S)) or "\\frac" in value or "\\sqrt" in value


def _value_of(value: str) -> Fraction | None:
    from rlvr.verifiers.normalize import normalize_answer  # normalisation reads answers: a layer above
    from rlvr.verifiers.numbers import parse_number

    norm = normalize_answer(value)
    key = norm.key.rpartition("=")[2] if "=" in norm.key else norm.key
    number = parse_number(key)
    return number / 100 if number is not None and norm.percent else number


def _restates(text: str, number: Fraction) -> bool:
    """``text`` is ``number`` in another form: a decimal, a fraction, a percentage."""
    other = _value_of(text.strip().strip("$"))
    return other is not None and other == number


_FACTORIAL_RE = regex.compile(r"(?<![0-9.])([0-9]{1,2})\s*!")
_BINOMIAL_RE = regex.compile(r"\\[dt]?binom\s*\{\s*([0-9]{1,2})\s*\}\s*\{\s*([0-9]{1,2})\s*\}|\bC\(\s*([0-9]{1,2})\s*,\s*([0-9]{1,2})\s*\)")


def comes_to(text: str, number: Fraction) -> bool:
    """``text`` is ``number`` worked out: an arithmetic of plain numbers (words and currency signs aside), with
    factorials and binomial coefficients of small numbers ("$6 \\times 7$", "$5!$", "$\\binom{5}{2}$")."""
    import math

    text = text.strip().strip("$").strip().rstrip(".")
    text = _FACTORIAL_RE.sub(lambda m: str(math.factorial(int(m[1]))), text, timeout=REGEX_TIMEOUT_S)
    text = _BINOMIAL_RE.sub(lambda m: str(math.comb(int(m[1] or m[3]), int(m[2] or m[4]))), text, timeout=REGEX_TIMEOUT_S)
    if (plain := _value_of(text)) is not None:
        return plain == number
    return _comes_to(text, number)


def _comes_to(text: str, number: Fraction) -> bool:
    """``text`` is an arithmetic of plain numbers (words and currency signs aside) that comes to ``number``."""
    if not _OPERATOR_RE.search(text, timeout=REGEX_TIMEOUT_S) or "=" in text or len(text) > 120:
        return False
    bare = _NOISE_RE.sub(" ", text.replace("\\times", "×").replace("\\cdot", "·").replace("\\div", "÷"), timeout=REGEX_TIMEOUT_S)
    tokens = regex.findall(r"[0-9]+(?:\.[0-9]+)?|\\times|\\cdot|\\div|[×·*÷/+\-−]", bare, timeout=REGEX_TIMEOUT_S)
    if not tokens or not _NUMBER_RE.fullmatch(tokens[0], timeout=REGEX_TIMEOUT_S):
        return False
    # products and quotients first, then sums: a few plain numbers, evaluated exactly, never by eval
    terms: list[Fraction] = []
    sign, current, op = 1, Fraction(tokens[0]), None
    for token in tokens[1:]:
        if _NUMBER_RE.fullmatch(token, timeout=REGEX_TIMEOUT_S):
            if op is None:
                return False  # two numbers with nothing between: not an arithmetic
            n = Fraction(token)
            if op in ("×", "·", "*", "\\times", "\\cdot"):
                current *= n
            elif op in ("÷", "/", "\\div"):
                if n == 0:
                    return False
                current /= n
            else:
                terms.append(sign * current)
                sign, current = (-1 if op in ("-", "−") else 1), n
            op = None
        elif op is not None:
            return False
        else:
            op = token
    if op is not None:
        return False
    terms.append(sign * current)
    return sum(terms) == number
