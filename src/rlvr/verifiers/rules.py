"""Deciding one (answer, gold) pair without sympy, and preparing what the sandbox compares.

The cheap steps of the cascade in :mod:`rlvr.verifiers.core`: normalised string equality, exact
numbers (fractions, decimals, a decimal comma, the percent policy), choice letters, statements that
are not values (a relation, a stated approximation, an equation for another quantity, alternatives),
and the list-order policy; what none of them decides goes to math-verify in the sandbox.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S

from rlvr.verifiers.cache import byte_cache

from rlvr.verifiers.choices import UPPER, choice_letters
from rlvr.verifiers.ratios import in_proportion, ratio_parts
from rlvr.verifiers.approximations import APPROX_SIGNS_RE, APPROXIMATING, approximates
from rlvr.verifiers.config import VerifierConfig
from rlvr.verifiers.guards import unsafe_reason
from rlvr.verifiers.lexicon import (
    OR_WORDS, alternation,
)
from rlvr.verifiers.temperatures import MIXED_TEMPERATURES
from rlvr.verifiers.normalize import NormalizedAnswer, assignment_rhs, normalize_answer, split_top_level, value_key
from rlvr.verifiers.numbers import (
    decimal_comma_value, matches_at_float_precision, numbers_match, parse_number, pi_multiple, rounds_to_gold,
    LONG_GOLD_DIGITS, SHORT_GOLD_DIGITS, exact_rounds_to_gold, rounds_long_gold,
)
from rlvr.verifiers.notations import counting_value
from rlvr.verifiers.statements import APPROX, equation_problem, relations_as_intersection, relations_as_intervals
from rlvr.verifiers.trace import Decision, rule
from rlvr.verifiers.word_answers import WORDS, word_answer
from rlvr.verifiers.conversions import same_quantity
from rlvr.verifiers.units import TEMPERATURES, canonical_unit

CONVERTED = rule("compare.units_converted", "the answer is the gold in other units (2 hours and 120 minutes), converted with pint")
UNITS = rule("compare.units", "the answer and the gold carry different units (degrees and radians, mm and cm, s and min)")
BASE = rule("compare.base", "a numeral with its base (2516_8) is read in that base; a gold's base needs its digits")
PERCENT = rule("compare.percent", "the percent policy decides a percentage against a plain number")
STRING = rule("compare.string", "the normalised texts are equal")
NUMBER = rule("compare.number", "both are exact numbers: equal, or within the tolerance, or not")
ROUNDED = rule("compare.rounded", "a decimal with more places than a gold of two or more that rounds to it; the decimal an answer gives beside its exact value counts so too")
ROUNDED_GOLD = rule("compare.rounded_gold", "an exact answer (a fraction, a root, pi) that a decimal gold of 3+ significant digits is the rounding of, half away from zero at the gold's places (1587/52 for 30.52, 1/15 for 6.67%)")
FLOAT_PRECISION = rule("compare.float_precision", "a decimal of 15+ significant digits is the rational it rounds; an exact answer is the value a gold decimal of 8+ significant digits rounds")
INTEGER_ANSWERS = rule("compare.integer_answers", "an integer gold needs a plain number (integer_answers)")
CHOICE = rule("compare.choice", "two choice letters")
RATIO = rule("compare.ratio", "a ratio of three or more parts: the same number of parts, in proportion")
RELATION = rule("compare.relation", "an answer that opens with a relation states a bound, not a value")
APPROXIMATION = rule("compare.approximation", "an exact value and an approximation that disagree are two answers")
EQUATION_SIDE = rule("compare.equation_side", "only a name on the left of '=' states the value (3y = 7 does not state 7)")
OR_IN_ANSWER = rule("compare.or_in_answer", "an answer with 'or' between values offers alternatives")
DECIMAL_COMMA = rule("compare.decimal_comma", "a decimal comma against a one-number gold")
CANDIDATE_LIST = rule("compare.candidate_list", "a list of candidates against a one-number gold")
LIST_ORDER = rule("compare.list_order", "the list-order policy: the same values in another order")

__all__ = ["TEXT_GROUP_RE", "Gold", "gold_info", "is_list_gold", "fast_decision", "sandbox_texts"]

_CHOICE_KEY_RE = regex.compile(f"[{UPPER}]")
_NUMERAL_RE = regex.compile(r"[0-9A-Za-z]{1,64}")
_APPROX_RE = regex.compile(APPROX)
# an answer that opens with a relation states a bound or an exclusion, not a value: "\neq 3", "< 5"
_LEADING_RELATION_RE = regex.compile(r"(?:\\neq?(?![A-Za-z])|\\not(?![A-Za-z])|≠|\\[lg]eq?(?![A-Za-z])|\\[lg]t(?![A-Za-z])|[<>≤≥])")
_RELATION_RE = regex.compile(r"!=|\\neq?(?![A-Za-z])|\\not(?![A-Za-z])|≠|\\[lg]eq?(?![A-Za-z])|\\[lg]t(?![A-Za-z])|[<>≤≥]")
_OR_RE = regex.compile("(?i:" + alternation(OR_WORDS) + r")|\\(?:lor|vee)(?![A-Za-z])")  # "or", "oder", "或", \\lor
_OR_SEPARATOR_RE = regex.compile(r"\s*,?\s*(?:" + _OR_RE.pattern + r")\s*")
# a gold that is a set of reals: an interval or a union of them
_SET_GOLD_RE = regex.compile(r"\\cup|\\infty|^\s*[\[(].*,.*[\])]\s*$")
_INEQUALITY_RE = regex.compile(r"[<>≤≥]|\\[lg]e(?:q|qslant)?(?![A-Za-z])")
TEXT_GROUP_RE = regex.compile(r"\\(?:text|textbf|textit|textrm|mathrm|mbox|operatorname)\s*\{([^{}]*)\}")


@dataclass(frozen=True)
class Gold:
    """A gold answer as the rules use it: its text, normalised form, exact number and any guard refusal."""

    raw: str
    norm: NormalizedAnswer
    number: Fraction | None
    unsafe: str | None


@byte_cache(0.1)
def gold_info(gold: str, config: VerifierConfig) -> Gold:
    """The :class:`Gold` of an already stated gold answer (parsed once per gold and config)."""
    norm = normalize_answer(gold)  # ``gold`` is already the stated answer (see core._gold_text)
    return Gold(gold, norm, parse_number(norm.key, config.max_digits), unsafe_reason(norm.clean, config))


def _percent_values(value: Fraction, percent: bool, policy: str) -> list[Fraction]:
    if not percent or policy == "ignore":
        return [value]
    if policy == "fraction":
        return [value / 100]
    return [value, value / 100]  # either


def is_list_gold(gold: str) -> bool:
    """A gold that lists several answers: at top level (``2, 3``) or as a set (``\\{1, 2, 3\\}``).

    Tuples and intervals (``(1, 2)``, ``[0, 1)``) are one answer, not a list.
    """
    s = list_text(normalize_answer(gold).clean)
    for open_, close in (("\\{", "\\}"), ("{", "}")):
        if s.startswith(open_) and s.endswith(close) and s.count(open_) == 1:
            s = s[len(open_):-len(close)]
            break
    depth = 0
    for c in s:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            return True
    return False


def tuple_size(gold: str) -> int | None:
    """How many items a gold written as a tuple holds (``(3, 4)`` -> 2), or ``None`` for anything else."""
    s = normalize_answer(gold).clean.strip()
    if not (s.startswith("(") and s.endswith(")")):
        return None
    items = split_top_level(s[1:-1], ",")
    return len(items) if len(items) > 1 and all(i.strip() for i in items) else None


_AND_OR_RE = regex.compile(r"\s+(?:and|or)\s+|\s*,\s*(?:and|or)\s+")
_PLUS_MINUS_RE = regex.compile(r"(?:([A-Za-z])\s*=\s*)?([^=,]*?)\s*\\pm\s*([^=,]+)")


@byte_cache(0.02)
def list_text(clean: str) -> str:
    """A gold's list written with words or ±, as a comma list: ``2 and 3`` -> ``2, 3``,
    ``x=2 or x=3`` -> ``x=2, x=3``, ``\\pm 2`` -> ``2, -2``, ``1 \\pm \\sqrt{2}`` -> ``1+\\sqrt{2}, 1-\\sqrt{2}``."""
    if "\\pm" in clean and clean.count("\\pm") == 1 and "," not in clean:
        m = _PLUS_MINUS_RE.fullmatch(clean.strip(), timeout=REGEX_TIMEOUT_S)
        if m:
            a, b = m[2].strip(), m[3].strip()
            return f"{b}, -{b}" if not a else f"{a}+{b}, {a}-{b}"
    if " and " in clean or " or " in clean:
        parts = _AND_OR_RE.split(clean, timeout=REGEX_TIMEOUT_S)
        if len(parts) > 1 and all(p.strip() for p in parts):
            return ", ".join(p.strip() for p in parts)
    return clean


def _shown(answer: NormalizedAnswer) -> str:
    """The answer as the reason quotes it: its percent sign kept ("25%", never "25" for ``\\boxed{25\\%}``)."""
    return answer.clean + ("%" if answer.percent else "")


# a number with nothing else: digits, a decimal point, a sign, a fraction (\frac{2}{3}, 2/3)
_PLAIN_NUMBER_TEXT_RE = regex.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+|\\[dt]?frac\{[0-9]+\}\{[0-9]+\}|[0-9]+/[0-9]+)")


def _one_number_in_forms(clean: str, config: VerifierConfig) -> Fraction | None:
    """The number every part of ``a or b`` is, when all parts are one exact number ("0.666... or 2/3", "50%, or
    0.5"), or approximate it at their own precision with an approximation word ("1/3, or about 0.333")."""
    parts = [p.strip(" ,;") for p in _OR_RE.split(clean, timeout=REGEX_TIMEOUT_S)]
    if len(parts) < 2 or not all(parts):
        return None
    exact: set[Fraction | None] = set()
    approximate: list[tuple[str, Fraction]] = []
    for part in parts:
        cue = APPROXIMATING.starts(part, timeout=REGEX_TIMEOUT_S) or APPROX_SIGNS_RE.match(part.lstrip(),
                                                                                            timeout=REGEX_TIMEOUT_S)
        text = (part.lstrip()[cue.end():] if isinstance(cue, regex.Match) else part[cue.end():]).strip() if cue else part
        norm = normalize_answer(text)
        # a unit, a base or a cut-off ("2 hours or 2 minutes", "11_2 or 11", "0.33... or 0.33") makes the same
        # digits another value: only plain numbers and percentages (as fractions of 100) are compared here
        if norm.unit or norm.cut_off or not _PLAIN_NUMBER_TEXT_RE.fullmatch(norm.key, timeout=REGEX_TIMEOUT_S):
            return None
        value = parse_number(norm.key, config.max_digits)
        if value is None:
            return None
        value = value / 100 if norm.percent else value
        if cue:
            approximate.append((text, value))
        else:
            exact.add(value)
    if len(exact) != 1:
        return None
    (number,) = exact
    return number if all(approximates(text, value, number) for text, value in approximate) else None


def _ratio_decision(answer: NormalizedAnswer, gold: Gold) -> Decision | None:
    """A ratio of three or more parts: math-verify reads ``5:7:1`` as 5/7/1, so it equalled 5:7 and 5/7. Its
    parts are compared instead: as many as the gold's, in proportion (``2:4:6`` is ``1:2:3``). Two-part ratios
    are left to the symbolic comparison (``10:14`` is ``5:7`` and ``5/7``)."""
    a_parts, g_parts = ratio_parts(answer.key), ratio_parts(gold.norm.key)
    if not ((a_parts and len(a_parts) >= 3) or (g_parts and len(g_parts) >= 3)):
        return None
    if not (a_parts and g_parts) or len(a_parts) != len(g_parts):
        return Decision("incorrect", f"{_shown(answer)!r} and gold {gold.raw!r} are not ratios of as many parts",
                        "number", RATIO)
    same = in_proportion(a_parts, g_parts)
    return Decision("correct" if same else "incorrect", f"{_shown(answer)!r} is {'' if same else 'not '}in the "
                    f"proportion of gold {gold.raw!r}", "number", RATIO)


def fast_decision(answer: NormalizedAnswer, gold: Gold, config: VerifierConfig) -> Decision | None:
    """Decide without sympy when possible: (status, reason, method) or ``None``."""
    g = gold.norm
    if answer.unit.startswith("base ") or g.unit.startswith("base "):
        return _base_decision(answer, gold)
    a_angle, g_angle = canonical_unit(answer.unit) or answer.unit, canonical_unit(g.unit) or g.unit  # "degrees" is "degree"
    if a_angle and g_angle and {a_angle, g_angle} == {"degree", "radian"}:
        turns, degrees = (pi_multiple(answer.key), gold.number) if a_angle == "radian" else (
            pi_multiple(g.key), parse_number(answer.key, config.max_digits))
        if turns is not None and degrees is not None:  # "\frac{5\pi}{12} rad" against "75^\circ": one angle
            same = turns * 180 == degrees
            return Decision("correct" if same else "incorrect", f"{_shown(answer)!r} in {answer.unit}s {'is' if same else 'is not'} "
                            f"gold {gold.raw!r} in {g.unit}s", "number", CONVERTED)
        return Decision("incorrect", f"{_shown(answer)!r} is in {answer.unit}s but the gold {gold.raw!r} is in {g.unit}s", "number", UNITS)
    if "\\pi" in answer.key and canonical_unit(answer.unit) == "degree" and canonical_unit(g.unit) != "degree":
        # "4\\pi^\\circ", "4\\pi \\text{ degrees}": a multiple of pi counted in degrees is not that angle in radians
        return Decision("incorrect", f"{_shown(answer)!r} is given in degrees but the gold {gold.raw!r} is not", "number", UNITS)
    if g_angle == "degree" and not answer.unit and gold.number is not None and (turns := pi_multiple(answer.key)) is not None:
        same = turns * 180 == gold.number  # "\frac{11\pi}{36}" against "55^\circ": the same angle in radians
        return Decision("correct" if same else "incorrect", f"{_shown(answer)!r} radians {'is' if same else 'is not'} "
                        f"gold {gold.raw!r} in degrees", "number", CONVERTED)
    if a_angle == "degree" and not g.unit and (turns := pi_multiple(g.key)) is not None \
            and (degrees := parse_number(answer.key, config.max_digits)) is not None:
        same = turns * 180 == degrees  # "60^\circ" against "\frac{\pi}{3}": the same angle in degrees
        return Decision("correct" if same else "incorrect", f"{_shown(answer)!r} degrees {'is' if same else 'is not'} "
                        f"gold {gold.raw!r} in radians", "number", CONVERTED)
    if answer.unit == MIXED_TEMPERATURES:
        return Decision("incorrect", f"{answer.clean!r} states temperatures on several scales that are not one temperature",
                        "number", UNITS)
    a_unit, g_unit = canonical_unit(answer.unit), canonical_unit(g.unit)
    if a_unit and g_unit and ("^" in a_unit) != ("^" in g_unit) and a_unit.split("^")[0] == g_unit.split("^")[0]:
        a_unit = g_unit = None  # "cm^2" against a plain "3 cm^2" read as cm: one side lost the power, not another unit
    if {a_unit, g_unit} & TEMPERATURES and "degree" in (a_unit, g_unit):
        a_unit = g_unit = None  # "25^\circ" against "25^\circ C": the scale left out, not another unit
    if not (a_unit and g_unit) and _prefixed(answer.unit, g.unit):
        return Decision("incorrect", f"{_shown(answer)!r} is in {answer.unit} but the gold {gold.raw!r} is in {g.unit}: "
                        "one is the other with a metric prefix", "number", UNITS)  # "4 Wh" against "4 kWh"
    if a_unit and g_unit and a_unit != g_unit:  # "42 mm" against "42 cm": the same digits, another quantity
        a_num = parse_number(answer.key, config.max_digits)
        same = (same_quantity(a_num, a_unit, gold.number, g_unit)
                if a_num is not None and gold.number is not None and not answer.percent and not g.percent else None)
        if same:
            return Decision("correct", f"{_shown(answer)!r} {answer.unit} is gold {gold.raw!r} in other units", "number", CONVERTED)
        return Decision("incorrect", f"{_shown(answer)!r} is in {answer.unit} but the gold {gold.raw!r} is in {g.unit}"
                        + (" and they are not the same quantity" if same is False else ""), "number", UNITS)
    if config.percent == "strict" and answer.percent != g.percent and (gold.number is not None or g.percent):
        which = "the answer is a percentage but the gold is not" if answer.percent else "the gold is a percentage but the answer is not"
        return Decision("incorrect", f"{which} (percent policy 'strict')", "number", PERCENT)
    if answer.key == g.key and answer.percent == g.percent:
        return Decision("correct", f"{_shown(answer)!r} matches gold {gold.raw!r} after normalisation", "string", STRING)
    if "'" in answer.key + g.key and answer.key.replace("'", "") == g.key.replace("'", ""):
        return Decision("incorrect", f"{_shown(answer)!r} and gold {gold.raw!r} differ in their primes: another point, "
                        "curve or derivative", "string", STRING)  # E' is not E (math-verify reads both as E)
    if (ratio := _ratio_decision(answer, gold)) is not None:
        return ratio
    if (g_letters := choice_letters(g.key, gold_side=True)) is not None and (a_letters := choice_letters(answer.key)) is not None:
        same = a_letters == g_letters  # "A, C" against "AC": the options chosen, in any order or notation
        return Decision("correct" if same else "incorrect", f"{_shown(answer)!r} {'chooses' if same else 'does not choose'} "
                        f"the options of gold {gold.raw!r}", "string", CHOICE)
    a_word, g_word = word_answer(answer.clean), word_answer(g.clean)
    if a_word and g_word:
        same = a_word == g_word
        return Decision("correct" if same else "incorrect", f"{_shown(answer)!r} {'says' if same else 'does not say'} "
                        f"what gold {gold.raw!r} says", "string", WORDS)
    if (a_word and gold.number is not None) or (g_word and parse_number(answer.key, config.max_digits) is not None):
        return Decision("incorrect", f"{_shown(answer)!r} and gold {gold.raw!r}: a word against a number", "string", WORDS)
    a_num = parse_number(answer.key, config.max_digits)
    if a_num is None and gold.number is not None:
        rhs = assignment_rhs(answer.clean)
        if rhs is not None and "=" not in g.clean:
            a_num = parse_number(normalize_answer(rhs).key, config.max_digits)
    if a_num is not None and gold.number is not None:
        if answer.percent and g.percent:  # two percentages are equal as the numbers they are: 10% is never 0.1%
            a_vals, g_vals = [a_num], [gold.number]
        else:
            a_vals = _percent_values(a_num, answer.percent, config.percent)
            g_vals = _percent_values(gold.number, g.percent, config.percent)
        if any(numbers_match(a, gv, config.abs_tol, config.rel_tol) for a in a_vals for gv in g_vals):
            how = "equals" if config.abs_tol == 0 and config.rel_tol == 0 else "is within tolerance of"
            return Decision("correct", f"{_shown(answer)!r} {how} gold {gold.raw!r} as an exact number", "number", NUMBER)
        if rounds_to_gold(answer.key, g.key) and not answer.percent and not g.percent:
            return Decision("correct", f"{_shown(answer)!r} rounds to gold {gold.raw!r} at the gold's {len(g.key.split('.')[1])} "
                            "decimal places", "number", ROUNDED)
        if not answer.percent and not g.percent and rounds_long_gold(a_num, g.key, answer.key):
            return Decision("correct", f"{_shown(answer)!r} is the value gold {gold.raw!r} rounds (a decimal of "
                            f"{LONG_GOLD_DIGITS} or more significant digits)", "number", FLOAT_PRECISION)
        gold_readings = ([g.key, g.key + "%"] if config.percent == "either" else [g.key + "%"] if config.percent == "fraction"
                         else [g.key]) if g.percent else [g.key]
        if answer.percent and g.percent:  # 200/3 % against 66.7 %: the percentages as the fractions they are
            a_num, gold_readings = a_num / 100, [g.key + "%"]
        if (not answer.percent or g.percent) and any(exact_rounds_to_gold(a_num, k, answer.key) for k in gold_readings):
            return Decision("correct", f"{_shown(answer)!r} is the exact value gold {gold.raw!r} rounds at its places "
                            f"(a decimal of {SHORT_GOLD_DIGITS} or more significant digits)", "number", ROUNDED_GOLD)
        if any(matches_at_float_precision(answer.key, gv) for gv in g_vals):
            return Decision("correct", (f"{_shown(answer)!r} is gold {gold.raw!r} written to floating-point precision "
                                        "(15 or more significant digits)"), "number", FLOAT_PRECISION)
        return Decision("incorrect", f"{_shown(answer)!r} is not equal to gold {gold.raw!r}", "number", NUMBER)
    if gold.number is not None and gold.number.denominator == 1 and config.integer_answers:
        return Decision("incorrect", f"{_shown(answer)!r} is not a number and the gold {gold.raw!r} is an integer (integer_answers)", "number", INTEGER_ANSWERS)
    if _CHOICE_KEY_RE.fullmatch(answer.key, timeout=REGEX_TIMEOUT_S) and _CHOICE_KEY_RE.fullmatch(g.key, timeout=REGEX_TIMEOUT_S):
        return Decision("incorrect", f"choice {answer.key} is not the gold choice {g.key}", "string", CHOICE)  # equal keys matched above
    if _LEADING_RELATION_RE.match(answer.clean, timeout=REGEX_TIMEOUT_S) and not _RELATION_RE.search(g.clean, timeout=REGEX_TIMEOUT_S):
        return Decision("incorrect", f"{_shown(answer)!r} states a relation, not a value", "extraction", RELATION)
    if _APPROX_RE.search(answer.clean, timeout=REGEX_TIMEOUT_S) and not _APPROX_RE.search(g.clean, timeout=REGEX_TIMEOUT_S):
        return Decision("incorrect", (f"{_shown(answer)!r} states an exact value and an approximation that disagree at "
                                      "the approximation's precision: two answers"), "extraction", APPROXIMATION)
    if "=" in answer.clean and "=" not in g.clean and not _RELATION_RE.search(answer.clean, timeout=REGEX_TIMEOUT_S):
        problem = equation_problem(answer.clean)
        if problem:
            return Decision("incorrect", problem, "extraction", EQUATION_SIDE)
    if _OR_RE.search(answer.clean, timeout=REGEX_TIMEOUT_S) and not _OR_RE.search(g.clean, timeout=REGEX_TIMEOUT_S) \
            and not is_list_gold(gold.raw) and not (_SET_GOLD_RE.search(g.clean, timeout=REGEX_TIMEOUT_S)
                                                    and relations_as_intervals(answer.clean)):
        # what normalisation took off the whole (a unit, a percent, a cut-off) may belong to one part only
        plain = not (answer.unit or answer.cut_off)  # each part's percent sign is read with the part
        # the percent sign normalisation took off the end belongs to the last part ("0.5, or 50%")
        same = (_one_number_in_forms(answer.clean + ("%" if answer.percent else ""), config)
                if gold.number is not None and plain else None)
        if same is not None:  # "0.666... or 2/3": one value written twice offers no second candidate
            ok = any(numbers_match(same, gv, config.abs_tol, config.rel_tol)
                     for gv in _percent_values(gold.number, g.percent, config.percent))
            return Decision("correct" if ok else "incorrect", f"{_shown(answer)!r} states one number in several forms, "
                            f"which {'equals' if ok else 'is not'} gold {gold.raw!r}", "number", NUMBER)
        return Decision("incorrect", f"{_shown(answer)!r} offers alternatives joined by 'or'; one final answer is required", "extraction", OR_IN_ANSWER)
    comma = decimal_comma_value(answer.clean) if gold.number is not None else None
    if comma is not None and numbers_match(comma, gold.number, config.abs_tol, config.rel_tol):
        return Decision("correct", f"{_shown(answer)!r} with a decimal comma equals gold {gold.raw!r}", "number", DECIMAL_COMMA)
    gold_comma = decimal_comma_value(g.clean) if gold.number is None and "," not in answer.clean else None
    if gold_comma is not None and (a_value := parse_number(answer.key, config.max_digits)) is not None \
            and numbers_match(a_value, gold_comma, config.abs_tol, config.rel_tol):
        return Decision("correct", f"{_shown(answer)!r} equals gold {gold.raw!r} read with a decimal comma", "number", DECIMAL_COMMA)
    if gold.number is not None and (m := _INDIAN_GROUPS_RE.fullmatch(answer.key, timeout=REGEX_TIMEOUT_S)):
        # 12,34,567 (lakh grouping) against one number: read as that number; never a list of 12, 34 and 567,
        # since a list answer against a single-number gold is refused either way
        value = parse_number(m[0].replace(",", ""), config.max_digits)
        if value is not None:
            same = numbers_match(value, gold.number, config.abs_tol, config.rel_tol)
            return Decision("correct" if same else "incorrect", f"{_shown(answer)!r} (digits grouped in lakhs) "
                            f"{'equals' if same else 'is not'} gold {gold.raw!r}", "number", NUMBER)
    if "," not in g.clean and _sequence(answer.clean) and not _sequence(g.clean):
        return Decision("incorrect", f"{_shown(answer)!r} is a sequence of values written with an ellipsis, but the gold "
                        f"{gold.raw!r} is one value", "extraction", CANDIDATE_LIST)  # \{1, 2, \ldots, 42\} is no 42
    if gold.number is not None and (counted := counting_value(answer.clean)) is not None:
        # "C(8,3)", "{}_8C_3", "P(8, 3)" against a number: the count the notation names (a point C(8, 3) is no
        # number, so against a number gold this is the only reading)
        same = counted == gold.number
        return Decision("correct" if same else "incorrect", f"{_shown(answer)!r} counts {counted} "
                        f"({'equal to' if same else 'not'} gold {gold.raw!r})", "number", NUMBER)
    if gold.number is not None and "," in answer.clean and "," not in g.clean and not answer.clean.startswith(("(", "[", "\\{", "\\begin")):
        return Decision("incorrect", f"{_shown(answer)!r} lists several candidates but the gold {gold.raw!r} is one number", "extraction", CANDIDATE_LIST)
    if _bare_list(answer.clean) and _bare_list(g.clean) and _compare_in_order(answer.clean, g.clean, config.list_order):
        a_items = [value_key(x) for x in split_top_level(answer.clean, ",")]
        g_items = [value_key(x) for x in split_top_level(g.clean, ",")]
        if all(isinstance(v, Fraction) for v in a_items + g_items) and a_items != g_items \
                and sorted(a_items) == sorted(g_items):
            why = ("neither list is written in increasing order, so the order counts" if config.list_order == "auto"
                   else "the order counts")
            return Decision("incorrect", (f"{_shown(answer)!r} has the gold's values in another order; {why} "
                                          f"(list_order={config.list_order!r})"), "number", LIST_ORDER)
    return None


# Indian digit grouping: the last three digits, then pairs (12,34,567; 1,00,000)
_INDIAN_GROUPS_RE = regex.compile(r"[-+]?[0-9]{1,2}(?:,[0-9]{2})+,[0-9]{3}(?:\.[0-9]+)?")


def _prefixed(a: str, b: str) -> bool:
    """Whether one unit is the other with a metric prefix ("kwh" and "wh", "mah" and "ah"): a unit outside the
    table of canonical spellings on either side (units are lower case here, so the prefix letter is all that differs)."""
    if not a or not b or a == b or " " in a + b:
        return False
    short, long_ = sorted((a, b), key=len)
    return len(long_) == len(short) + 1 and long_[1:] == short and long_[0] in "kmgtcnµu" and len(short) >= 2


def _numeral(digits: str, unit: str) -> int | None:
    base = int(unit[5:]) if unit.startswith("base ") else 10
    try:
        return int(digits, base)
    except ValueError:
        return None


def _base_decision(answer: NormalizedAnswer, gold: Gold) -> Decision:
    """Numerals written with a base. Against a gold in base b the answer's digits must be the gold's
    (``2516`` answers "in base 8: 2516_8"; the same number in decimal does not); an answer in base b
    against a plain gold is the number it denotes (``101_2`` is 5, ``12_3`` is not 12)."""
    g = gold.norm
    shown = f"{answer.key}_{answer.unit[5:]}" if answer.unit.startswith("base ") else answer.clean
    a_value = _numeral(answer.key, answer.unit) if _NUMERAL_RE.fullmatch(answer.key, timeout=REGEX_TIMEOUT_S) else None
    if g.unit.startswith("base ") and answer.unit in ("", g.unit):
        same = answer.key.upper() == g.key.upper()
        return Decision("correct" if same else "incorrect",
                        f"{shown!r} {'has' if same else 'does not have'} the digits of gold {gold.raw!r} "
                        f"({g.unit})", "number", BASE)
    if answer.unit.startswith("base ") and a_value is None:
        return Decision("incorrect", f"{shown!r} is no numeral in {answer.unit}", "number", BASE)
    if g.unit.startswith("base "):
        g_value = _numeral(g.key, g.unit)
        same = a_value is not None and a_value == g_value
        return Decision("correct" if same else "incorrect", f"{shown!r} {'is' if same else 'is not'} the number "
                        f"gold {gold.raw!r} denotes", "number", BASE)
    same = a_value is not None and gold.number is not None and gold.number == a_value
    return Decision("correct" if same else "incorrect", f"{shown!r} denotes {a_value} in {answer.unit}, "
                    f"{'which is' if same else 'not'} gold {gold.raw!r}", "number", BASE)


def sandbox_texts(answer: NormalizedAnswer, gold: Gold, config: VerifierConfig) -> tuple[str, str]:
    """Texts sent to math-verify: percent signs resolved by our policy, not math-verify's."""
    a, g = answer.clean, gold.norm.clean
    if is_list_gold(gold.raw):
        g = list_text(g)  # "2 and 3", "\\pm 2": the list the gold states
    if _OR_RE.search(a, timeout=REGEX_TIMEOUT_S) and _SET_GOLD_RE.search(g, timeout=REGEX_TIMEOUT_S) \
            and (intervals := relations_as_intervals(a)):
        a = intervals  # "x \le -1 or x \ge 3" answers the set (-\infty, -1] \cup [3, \infty)
    elif ("\\ne" in a or "≠" in a) and _SET_GOLD_RE.search(g, timeout=REGEX_TIMEOUT_S) \
            and (intervals := relations_as_intervals(a, minimum=1)):
        a = intervals  # "x \neq 0" answers the set (-\infty, 0) \cup (0, \infty)
    elif _SET_GOLD_RE.search(a, timeout=REGEX_TIMEOUT_S) and _OR_RE.search(gold.raw, timeout=REGEX_TIMEOUT_S) \
            and (intervals := relations_as_intervals(TEXT_GROUP_RE.sub(r" \1 ", gold.raw.strip().strip("$"),
                                                                       timeout=REGEX_TIMEOUT_S))):
        g = intervals  # a gold "4 < m \le 8 or 10 \le m < 12" is the set (4, 8] \cup [10, 12)
    elif _OR_RE.search(a, timeout=REGEX_TIMEOUT_S) and not _OR_RE.search(g, timeout=REGEX_TIMEOUT_S) and is_list_gold(gold.raw):
        a = _OR_SEPARATOR_RE.sub(", ", a, timeout=REGEX_TIMEOUT_S)  # "x = 3 or x = 5" answers the list gold "3, 5" as a list
    if (_SET_GOLD_RE.search(g, timeout=REGEX_TIMEOUT_S) or _INEQUALITY_RE.search(g, timeout=REGEX_TIMEOUT_S)) \
            and (intersection := relations_as_intersection(a)):
        a = intersection  # "x > 1 and x < 3" is the set (1, 3); "x < 1 and x > 3" is empty
    if (_SET_GOLD_RE.search(a, timeout=REGEX_TIMEOUT_S) or _INEQUALITY_RE.search(a, timeout=REGEX_TIMEOUT_S)) \
            and (intersection := relations_as_intersection(TEXT_GROUP_RE.sub(r" \1 ", gold.raw.strip().strip("$"),
                                                                             timeout=REGEX_TIMEOUT_S))):
        g = intersection  # a gold "x > 1 and x < 3" likewise
    if config.percent == "fraction":
        a = f"\\frac{{{a}}}{{100}}" if answer.percent else a
        g = f"\\frac{{{g}}}{{100}}" if gold.norm.percent else g
    if _bare_list(a) and _bare_list(g) and _compare_in_order(a, g, config.list_order):
        a, g = f"({a})", f"({g})"  # a tuple compares in order; math-verify reads a bare list as a set
    return a, g


def _compare_in_order(answer: str, gold: str, policy: str) -> bool:
    """Whether two bare comma lists are compared position by position rather than as sets.

    Labelled items (``a_3 = 2, a_{37} = 19``) are matched by their labels under every policy. Under
    ``auto`` a list of numbers written in increasing order on either side is a set written the usual
    way ("find all solutions": ``-2, 1``), so any order of the same values answers it; when neither
    side is increasing, both chose an order and it counts (``4, 10, -2`` vs ``10, 4, -2``). Lists of
    expressions stay sets: their order carries no such sign.
    """
    items = [split_top_level(answer, ","), split_top_level(gold, ",")]
    if any("=" in item for side in items for item in side):
        return False
    if policy != "auto":
        return policy == "given"
    values = [[value_key(item) for item in side] for side in items]
    if not all(isinstance(v, Fraction) for side in values for v in side):
        return False
    return not any(all(x < y for x, y in zip(side, side[1:])) for side in values)


_ELLIPSES = frozenset(("\\ldots", "\\dots", "\\cdots", "\\dotsc", "\\dotsb", "...", "…"))
_OUTER_BRACKETS_RE = regex.compile(r"^\s*(?:\\left)?\s*(?:\\\{|\(|\[)(.*)(?:\\right)?\s*(?:\\\}|\)|\])\s*$", regex.DOTALL)


def _sequence(text: str) -> bool:
    """``1, 2, \\ldots, 42`` or ``\\{1, 2, \\ldots, 42\\}``: items of a list, one of them an ellipsis (a range of
    values, never one of them)."""
    if "," not in text:
        return False
    m = _OUTER_BRACKETS_RE.fullmatch(text, timeout=REGEX_TIMEOUT_S)
    items = split_top_level(m[1] if m else text, ",")
    return len(items) > 1 and any(item.strip() in _ELLIPSES for item in items)


def _bare_list(text: str) -> bool:
    """A top-level comma list not written as a set, tuple or interval (``2, 3`` but not ``\\{2, 3\\}``)."""
    t = text.strip()
    return len(split_top_level(t, ",")) > 1 and not t.startswith(("(", "[", "\\{", "\\left"))
