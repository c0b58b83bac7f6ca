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
    ALTERNATIVE_WORDS, BOUND_WORDS, HEDGE_WORDS, MODIFIERS_AFTER, NEGATION_WORDS, NEGATIVE_EVALUATIONS, NO_WORDS,
    OPERATION_WORDS, REJECTION_WORDS, RETRACTION_CUES, TENTATIVE_WORDS, UNSURE_PHRASES, YES_WORDS, words_pattern,
)
from rlvr.verifiers.later_values import fold_digits
from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.units import unit_words

__all__ = ["without_remark", "comes_to"]

_TEXT_WRAPPER_RE = regex.compile(r"\\(?:text|mathrm|textrm|mbox|textit)\s*\{([^{}]*)\}")
_SPACING_RE = regex.compile(r"\\[,;:! ]|\\q?quad(?![A-Za-z])|~")
# the value, blanks, then one parenthesis at the end ("\\left(" … "\\right)" too)
_TAIL_RE = regex.compile(r"(?s)(?P<value>.*?\S)\s*(?:\\left)?\(\s*(?P<remark>[^()]*)\)\s*(?:\\right)?\s*")
# what a remark may not hold: doubt, negation, another answer offered ("alternative", "otherwise", "either sign"), or
# a word that changes the value ("squared", "in thousands", "reciprocal", "half", "lower bound", "at least")
_REFUSING = words_pattern(tuple(w for w in ALTERNATIVE_WORDS + HEDGE_WORDS + NEGATION_WORDS + UNSURE_PHRASES
                                + NEGATIVE_EVALUATIONS + REJECTION_WORDS + RETRACTION_CUES + TENTATIVE_WORDS
                                + BOUND_WORDS + MODIFIERS_AFTER + YES_WORDS + NO_WORDS if w not in ("or", "no"))
                          + tuple(w for w in OPERATION_WORDS if w not in ("root", "roots"))
                          + ("maybe", "could", "might", "possibly", "alternatively", "alternative", "otherwise", "also",
                             "unless", "if", "else", "either", "both", "sign", "signs", "estimate", "draft", "bound",
                             "depending", "depends", "negative", "positive too", "then", "minimum", "maximum"))
_MACRO_RE = regex.compile(r"\\[A-Za-z]+")
_OR_INSIDE_RE = regex.compile(r"(?i)(?<![\p{L}\\])or(?![\p{L}])")
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
    words = _MACRO_RE.sub(" ", remark, timeout=REGEX_TIMEOUT_S)  # "\\times" is no word "times"
    if remark and _names_value(value) and _rejects_another(words):
        return value  # "(rejecting x = -3)", "(the negative root is extraneous)": another value put aside
    if not remark or _REFUSING.search(words, timeout=REGEX_TIMEOUT_S) or not _names_value(value) or _spelled(words):
        return answer
    said = _LEADS_RE.sub("", remark, count=1, timeout=REGEX_TIMEOUT_S)
    if _OR_INSIDE_RE.search(said, timeout=REGEX_TIMEOUT_S):
        return answer  # "(x = 41 or x = 42)": an "or" past the remark's first word offers another value
    if not _DIGIT_RE.search(remark, timeout=REGEX_TIMEOUT_S) and (
            _JUSTIFYING_RE.match(remark, timeout=REGEX_TIMEOUT_S) is not None or unit_words(remark)):
        return value  # "(only positive root)", "(dollars)": a reason or a unit, about the value
    number = _value_of(value)
    if number is None:
        return answer
    if _same_measure(value, said, number):
        return value  # "1.5 hours (90 minutes)": the value in another unit
    if _JUSTIFYING_RE.match(remark, timeout=REGEX_TIMEOUT_S) and _numbers_combine(remark, number):
        return value  # "(from 9 eggs at $2)": the numbers it is worked from, which come to it
    if _restated_or_worked(said, number):
        return value  # "(0.5)", "(50%)", "(or 0.5)", "(50 × 3)", "(9 eggs × $2)", "(5!)", "(2^6)"
    if _JUSTIFYING_RE.match(remark, timeout=REGEX_TIMEOUT_S) and "=" in remark \
            and all(_restates(side, number) or comes_to(side, number)
                    for side in _JUSTIFYING_RE.sub("", remark, count=1, timeout=REGEX_TIMEOUT_S).split("=")):
        return value  # "(since 2 × 3 = 6)": a worked identity of the value ("(since 41 = 42)" is none)
    return answer


# a remark that puts another value aside: led by a verb of rejecting ("rejecting x = -3", "discarding the negative
# root"), or saying of a subject that is not the answer that it is rejected ("the negative root is extraneous")
_REJECTING_LEAD_RE = regex.compile(r"(?i)\s*(?:rejecting|discarding|excluding|ignoring|dropping|omitting|"
                                   r"ruling\s+out|throwing\s+out|after\s+rejecting)\b")
_REJECTED_TAIL_RE = regex.compile(r"(?i)^\s*(?:the|a|an)\s+(?:other|negative|positive|second|first|extraneous|"
                                  r"spurious|invalid|larger|smaller)(?:\s+\p{L}+)?\s+(?:root|solution|value|case|answer)s?"
                                  r"\s+(?:is|are|was|were)\s+(?:extraneous|rejected|discarded|invalid|excluded|"
                                  r"ruled\s+out|not\s+valid|impossible)\s*\.?\s*$")


def _rejects_another(words: str) -> bool:
    if _REJECTED_TAIL_RE.match(words, timeout=REGEX_TIMEOUT_S):
        return True
    if not _REJECTING_LEAD_RE.match(words, timeout=REGEX_TIMEOUT_S):
        return False
    rest = _REJECTING_LEAD_RE.sub("", words, count=1, timeout=REGEX_TIMEOUT_S)
    # what follows names only what is put aside: no doubt, no other answer offered ("rejecting nothing, maybe 6")
    return not _REFUSING.search(rest, timeout=REGEX_TIMEOUT_S) and not _OR_INSIDE_RE.search(rest, timeout=REGEX_TIMEOUT_S) \
        and "," not in rest and ";" not in rest


_UNIT_VALUE_RE = regex.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([\p{L}/]+(?:\s+per\s+\p{L}+)?)\s*\.?\s*")


def _same_measure(value: str, said: str, number: Fraction) -> bool:
    """``value`` carries a unit and ``said`` is one number in another unit of the same quantity ("1.5 hours"
    and "90 minutes", "2 km" and "2000 m")."""
    from rlvr.verifiers.conversions import same_quantity
    from rlvr.verifiers.units import canonical_unit

    m, mine = _UNIT_VALUE_RE.fullmatch(said, timeout=REGEX_TIMEOUT_S), _UNIT_VALUE_RE.fullmatch(value, timeout=REGEX_TIMEOUT_S)
    if m is None or mine is None:
        return False
    unit, other_unit = canonical_unit(mine[2]), canonical_unit(m[2])
    return bool(unit and other_unit and unit != other_unit
                and same_quantity(Fraction(mine[1]), unit, Fraction(m[1]), other_unit))


def _numbers_combine(remark: str, number: Fraction) -> bool:
    """The few numbers of a justifying remark multiply or add up to ``number`` ("from 9 eggs at $2", "by 3 rows
    of 6"): the work it is worked from, no second value (a remark with one number, "(from 20)", names another)."""
    numbers = [Fraction(n) for n in _NUMBER_RE.findall(remark, timeout=REGEX_TIMEOUT_S)]
    if not 2 <= len(numbers) <= 4:
        return False
    product = Fraction(1)
    for n in numbers:
        product *= n
    return product == number or sum(numbers) == number


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


_POWER_RE = regex.compile(r"(?<![0-9.^])([0-9]{1,3})\s*\^\s*\{?\s*([0-9])\s*\}?(?![0-9])")  # small powers only
_FACTORIAL_RE = regex.compile(r"(?<![0-9.])([0-9]{1,2})\s*!")
_BINOMIAL_RE = regex.compile(r"\\[dt]?binom\s*\{\s*([0-9]{1,2})\s*\}\s*\{\s*([0-9]{1,2})\s*\}|\bC\(\s*([0-9]{1,2})\s*,\s*([0-9]{1,2})\s*\)")


def comes_to(text: str, number: Fraction) -> bool:
    """``text`` is ``number`` worked out: an arithmetic of plain numbers (words and currency signs aside), with
    factorials and binomial coefficients of small numbers ("$6 \\times 7$", "$5!$", "$\\binom{5}{2}$")."""
    import math

    text = text.strip().strip("$").strip().rstrip(".")
    text = _FACTORIAL_RE.sub(lambda m: str(math.factorial(int(m[1]))), text, timeout=REGEX_TIMEOUT_S)
    text = _BINOMIAL_RE.sub(lambda m: str(math.comb(int(m[1] or m[3]), int(m[2] or m[4]))), text, timeout=REGEX_TIMEOUT_S)
    text = _POWER_RE.sub(lambda m: str(int(m[1]) ** int(m[2])), text, timeout=REGEX_TIMEOUT_S)  # "2^6", "6^{2}"
    if (plain := _value_of(text)) is not None:
        return plain == number
    return _comes_to(text, number)


def _restated_or_worked(text: str, number: Fraction) -> bool:
    return _restates(text, number) or comes_to(text, number)


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
