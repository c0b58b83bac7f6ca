"""Normalisation of answer text: strip LaTeX noise so equal answers compare equal as strings.

Two forms come out of :func:`normalize_answer`: ``clean`` keeps the mathematical content and
spacing (it is what the sandbox parses) and ``key`` also drops all whitespace (string equality).
Everything here is linear-time string work on already length-capped text; no sympy.
"""

from __future__ import annotations

from decimal import Decimal

from dataclasses import dataclass

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S

from rlvr.verifiers.cache import byte_cache

from fractions import Fraction

from rlvr.verifiers.characters import fold_math_unicode, restore_escapes
from rlvr.verifiers.choices import LOWER, UPPER, choice_with_text, option_text
from rlvr.verifiers.currencies import grouped_amount, is_currency
from rlvr.verifiers.percent_words import percent_word_after
from rlvr.verifiers.lexicon import (
    ANSWER_WORDS, APPROVAL_MARKS, SIZE_SWITCHES, STYLE_WRAPPERS, TOTAL_WORDS, alternation,
)
from rlvr.verifiers.brackets import split_top_level
from rlvr.verifiers.plus_minus import nested_plus_minus
from rlvr.verifiers.repeating import DOTS, as_fractions
from rlvr.verifiers.notations import (
    compound_quantity, counted_list, degrees_minutes_seconds, french_interval, modular, nested_list_matrix, plain_tex_fractions, python_syntax, unit_vector_tuple,
)
from rlvr.verifiers.numbers import parse_number
from rlvr.verifiers.sympy_text import sympy_text
from rlvr.verifiers.temperatures import DEGREE_RE, TEMPERATURE_UNITS, celsius, one_temperature, scale_words_to_signs
from rlvr.verifiers.number_words import negated_number, numeral_char
from rlvr.verifiers.compact_numbers import compact_value
from rlvr.verifiers.comparatives import comparative_count, percent_named
from rlvr.verifiers.units import clock_time, count_noun, scaled_value, split_unit, unit_words


def set_builder_interval(text: str) -> str | None:  # statements imports this module: import it when first used
    from rlvr.verifiers.statements import set_builder_interval as convert

    return convert(text)

__all__ = ["SPACING_RE", "NormalizedAnswer", "normalize_answer", "answer_key", "strip_outer_box", "find_boxed",
           "split_top_level", "value_key"]

_WRAPPERS = STYLE_WRAPPERS + ("operatorname",)
_WRAPPER_RE = regex.compile(r"\\(?:" + "|".join(_WRAPPERS) + r")\s*\{([^{}]*)\}")
# `\\` (a LaTeX row break) is matched first and kept, so its second backslash is never read as `\ `.
SPACING_RE = regex.compile(r"\\\\|\\[!,;:> ]|\\(?:quad|qquad|limits|" + "|".join(SIZE_SWITCHES) + r")(?![A-Za-z])|~")
# a \quad before a sign, or a thinner explicit space before a sign glued to its number ("0 \; -1", where
# "3 \; - \; 2" spaces a subtraction)
_WIDE_SPACE_BEFORE_SIGN_RE = regex.compile(
    r"(?<=[0-9A-Za-z)\]}])\s*\\q?quad(?![A-Za-z])\s*(?=[-+])"
    r"|(?<=[0-9A-Za-z)\]])\s*\\q?quad(?![A-Za-z])\s*(?=[0-9A-Za-z(])"  # "1 \\quad x" is 1 and x, never 1·x
    r"|(?<=(?:^|[\s,(])[-+]?[0-9]+(?:\.[0-9]+)?)\s*\\[;: ]\s*(?=[-+][0-9])")  # a number alone, not x^3 or 2x
_LEFT_RIGHT_RE = regex.compile(r"\\(?:left|right|middle|[bB]igg?[lrm]?)(?![A-Za-z])")
# \left. and \right. are invisible delimiters: the dot is not a decimal point (\left.5\right. is 5)
_INVISIBLE_DELIMITER_RE = regex.compile(r"\\(?:left|right)\s*\.")
_TRIG_RE = regex.compile(r"\\(?:sin|cos|tan|cot|sec|csc)(?![A-Za-z])")
_DEGREE_MACRO_RE = regex.compile(r"\^\s*\{?\s*\\textcirc\s*\}?|\\textdegree(?![A-Za-z])")
_DEGREE_VALUE_RE = regex.compile(r"([0-9]+(?:\.[0-9]+)?)\s*(?:\^\s*\{?\s*\\circ\s*\}?|\\degree(?![A-Za-z]))")
_FRAC_ALIAS_RE = regex.compile(r"\\(?:[dt]|nice|s)frac(?![A-Za-z])")  # xfrac's \sfrac and nicefrac's \nicefrac too
# digit groups written as in MATH's golds: 10,\!080 and 14{,}916 (a comma that LaTeX must not space)
_DIGIT_GROUP_RE = regex.compile(r"(?<=[0-9])[ ]?(?:\{[ ]?,[ ]?\}|,\\!)[ ]*(?=[0-9]{3}(?![0-9]))")
_GROUP_MARK = r"(?:\{[ ]?,[ ]?\}|,\\!)"
_GROUP_MARK_RE = regex.compile(_GROUP_MARK)
_LAKH_GROUPS_RE = regex.compile(r"\s*-?[0-9]{1,2}(?:" + _GROUP_MARK + r"[0-9]{2})+" + _GROUP_MARK + r"[0-9]{3}\s*")
_PERCENT_WORD_RE = regex.compile(r"(?<=[0-9}.])[ ]*(?:percent(?:age)?|per[ -]cent|pct)\.?$", regex.IGNORECASE)
# a unit after a value, at the end: 5\text{ cm}^2, 12 \mbox{ meters} (not a magnitude: 5\text{ million})
# units written straight after a number (12ft, 5cm); any word may follow after a space
_GLUED_UNITS = (r"(?:ft|feet|foot|in|inch(?:es)?|cm|mm|km|kg|mg|lbs?|oz|mph|kph|sec|secs|min|mins|hrs?|hours?|"
                r"days?|units?|dollars?|cents?|meters?|metres?|miles?|yards?|degrees?|rad|radians?|pounds?)")
_MAGNITUDE = r"(?:hundred|thousand|million|billion|trillion|dozen|and|or)s?\b"
# \text{i} / \mathrm{e} are the imaginary unit and Euler's number, never a unit
_TRAILING_UNIT_RE = regex.compile(
    r"(?:(?<=[0-9}])|(?<=\\pi))(?:\s|\\[ ,;:!])*\\(?:text|mbox|mathrm|textrm|textbf|textit|textnormal)\s*\{\s*"
    r"(?!" + _MAGNITUDE + r")\(?\s*([\p{L}\p{M}]{1,15}(?:/[\p{L}\p{M}]{1,8})?(?:\.?[ ]+[\p{L}\p{M}]{2,15}){0,2})\.?\s*(?(1)\)?)\s*\}"
    r"(?:\^\{?(?P<power>[23])\}?)?\s*$",
    regex.IGNORECASE)  # "42 \\text{ ways}", "42 \\text{ (ways)}"
# a unit written as plain words after a number: 2 dollars, 30 inches, 12 pommes (only after a number)
_TRAILING_WORD_UNIT_RE = regex.compile(
    r"(?:(?<=[0-9])|(?<=\\pi)|(?<=\}))(?:\s+(?!" + _MAGNITUDE + r")((?:[\p{L}\p{M}]{2,15}|[\p{L}\p{M}](?=\s+[\p{L}\p{M}]))(?:\s+[\p{L}\p{M}]{1,15}){0,3})"
    r"|(" + _GLUED_UNITS + r"))"
    r"\.?(?:\^\{?[23]\}?)?\s*$", regex.IGNORECASE)
_RADIAN_RE = regex.compile(r"(?i)rad(?:ian)?s?")
# "100\pi cm^3", "\frac{5\pi}{12} rad", "\pi/4 rad", "\frac{3}{4} cups", "2\frac{3}{4} cups": a unit after a multiple
# of pi, a fraction or a mixed number
_PI_MULTIPLE_RE = regex.compile(r"\s*[-+]?(?:[0-9]*(?:\.[0-9]+)?\s*\\pi(?:\s*/\s*[0-9]+)?|(?:[0-9]+\s*)?\\[dt]?frac\{[0-9]*\s*(?:\\pi)?\}\{[0-9]+\})\s*")
_CJK_ORDINAL_RE = regex.compile(r"\s*第\s*([0-9]+)\s*([\p{Han}]{0,4})\s*")  # 第 7 项: an ordinal, then what it counts
_ORDINAL_RE = regex.compile(r"(?<=[0-9])\s*(?:\^\s*\{?\s*(?:\\(?:text|mathrm|textrm)\s*\{\s*)?(?:st|nd|rd|th)\s*\}?\s*\}?"
                           r"|(?:st|nd|rd|th)(?![A-Za-z])(?:\s*(?:\\text\s*\{)?\s*\p{L}{2,20}\s*\}?)?)$")  # "15th", "15th day"
# a measure word, and the noun it counts, glued to a number: 12个, 3米, 42个苹果, 42個, 42개 (units.count_noun
# keeps out numerals: 42万 is 420000)
_CJK_UNIT_RE = regex.compile(r"(?<=[0-9])\s*([\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]{1,8})\s*$")
_EMPTY_SET_RE = regex.compile(r"\\varnothing(?![A-Za-z])|\\\{\s*\\\}|\\O(?![A-Za-z])")
# a one-column matrix is a vector: \begin{pmatrix} 1 \\ 2 \end{pmatrix} says what (1, 2) says
_COLUMN_VECTOR_RE = regex.compile(r"\\begin\{([pb])matrix\}((?:(?!\\begin|\\end|&).)*)\\end\{\1matrix\}", regex.DOTALL)
_OTHER_GROUPS_RE = regex.compile(r"[+-]?[1-9][0-9]{0,2}(?:(?:\.[0-9]{3}){2,}|(?:['’][0-9]{3})+)")
_THOUSANDS_RE = regex.compile(r"[+-]?[1-9][0-9]{0,2}(?:,[0-9]{3})+(?:\.[0-9]+)?")  # "0,111" is a decimal comma, no group
_ASSIGNMENT_RE = regex.compile(r"[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?\s*=\s*([^=<>]+)")
# a choice letter: A-J, or (a)-(e) in parentheses; a bare lowercase e is Euler's number, not choice E
_CHOICE_RE = regex.compile(rf"(?i:(?:option|choice)\s+)?(?:\(?([{UPPER}])\)?|\(([{LOWER}])\))")  # "(C)", "option D"
_LETTERS_RE = regex.compile(r"\p{L}+")
_LETTER_OR_MACRO_RE = regex.compile(r"[A-Za-z\\]")
_DIGIT_RE = regex.compile(r"[0-9]")


def choice_option_text(gold: str) -> str | None:
    """``\\textbf{(B)}\\ 12`` -> ``12``: a gold that names a choice and its option's text, whose text an
    answer without the letter may state instead; ``None`` for any other gold."""
    return option_text(_unwrap(_strip_math_delimiters(fold_math_unicode(gold))).replace("\\ ", " ").replace("~", " ").strip())


# digits separated by blanks: a mixed number (3 1/2), digit groups of three (10 000), else several numbers
_MIXED_SPACED_RE = regex.compile(r"(?<![0-9.])([0-9]+)\s+([0-9]+)/([0-9]+)(?![0-9.])")
_SPACE_GROUPS_RE = regex.compile(r"(?<![0-9.,])[0-9]{1,3}(?:[ ][0-9]{3})+(?![0-9])")
_FRAC_TOKENS_RE = regex.compile(r"\\frac\s*([0-9A-Za-z])\s*([0-9A-Za-z])")
_SPACED_DIGITS_RE = regex.compile(r"(?<![_^][0-9]*)(?<=[0-9])\s+(?=[0-9])")  # not \log_2 8
_BRACE_TOKEN_RE = regex.compile(r"\\.|[{}]", regex.DOTALL)
_BOX_RE = regex.compile(r"\\(?:boxed|fbox)(?![A-Za-z])[ \t]*")
_BARE_TOKEN_RE = regex.compile(r"[^\s$.,;]+")



# a numeral with its base as a subscript: 2516_8, 101_{2}, A3_{(16)} (a digit first or upper-case digits)
_BASE_NUMERAL_RE = regex.compile(r"([0-9][0-9A-Za-z]{0,63}|[A-Z][0-9A-Z]{0,63})_\{?\(?([0-9]{1,2})\)?\}?")


@dataclass(frozen=True)
class NormalizedAnswer:
    """``clean``: LaTeX with noise removed (for parsing); ``key``: ``clean`` without whitespace;
    ``percent``: the answer ended with a percent sign (removed from both forms); ``unit``: a unit
    removed from the end (``degree``, ``radian`` or the unit's word, lower case; empty if none), or
    ``base b`` for a numeral written with its base (``2516_8``: key ``2516``, unit ``base 8``); ``cut_off``: a
    decimal's trailing dots were removed (``1.414...``: more digits follow, so it is its digits only roughly)."""

    clean: str
    key: str
    percent: bool
    unit: str = ""
    cut_off: bool = False


def _brace_partners(text: str, start: int = 0) -> dict[int, int]:
    """Index of each ``{`` at or after ``start`` -> index of its closing ``}``.

    Escaped ``\\{``/``\\}`` are skipped. Braces before ``start`` cannot change how later ones pair
    (an unmatched ``{`` stays below them on the stack), so the scan starts at the first box. The
    regex walks the text in C; Python only sees the braces and backslashes.
    """
    partners: dict[int, int] = {}
    stack: list[int] = []
    for m in _BRACE_TOKEN_RE.finditer(text, start, timeout=REGEX_TIMEOUT_S):
        c = m[0]
        if c == "{":
            stack.append(m.start())
        elif c == "}":
            if stack:
                partners[stack.pop()] = m.start()
    return partners


def find_boxed(text: str) -> list[tuple[str, int, int]]:
    """All ``\\boxed{…}`` / ``\\fbox{…}`` contents in ``text`` with balanced nested braces.

    Returns (content, start, end) triples in order; ``\\boxed 5`` (no braces) takes the next
    token. A box whose braces never close is skipped. Linear time: braces are matched in one pass.
    """
    outer: list[tuple[str, int, int]] = []
    partners: dict[int, int] | None = None
    n = len(text)
    last_end = -1
    for m in _BOX_RE.finditer(text, timeout=REGEX_TIMEOUT_S):
        if m.start() < last_end:
            continue  # a box nested in another box is part of the outer one's content, not another answer
        k = m.end()
        if k < n and text[k] == "{":
            if partners is None:
                partners = _brace_partners(text, m.start())
            close = partners.get(k)
            if close is not None:
                outer.append((text[k + 1:close], m.start(), close + 1))  # sliced once per outer box
                last_end = close + 1
        else:
            token = _BARE_TOKEN_RE.match(text, k, timeout=REGEX_TIMEOUT_S)
            if token and token.end() > k and m.group(0)[-1] in " \t":
                outer.append((token.group(0), m.start(), token.end()))
                last_end = token.end()
    return outer


def strip_outer_box(text: str) -> str:
    """``\\boxed{X}`` -> ``X`` when the box is the whole text; anything else unchanged."""
    s = text.strip()
    boxes = find_boxed(s)
    if len(boxes) == 1 and boxes[0][1] == 0 and boxes[0][2] == len(s):
        return boxes[0][0].strip()
    return s


def _strip_math_delimiters(s: str) -> str:
    s = s.strip()
    for open_, close in (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]")):
        if s.startswith(open_) and s.endswith(close) and len(s) >= len(open_) + len(close):
            s = s[len(open_):len(s) - len(close)].strip()
    return s.replace("$", "")


def _unwrap(s: str) -> str:
    for _ in range(5):  # nested wrappers such as \text{\textbf{5}}
        text = s
        # "\cdot\text{m}": a space keeps the macro's name from running into the content ("\cdotm")
        new = _WRAPPER_RE.sub(lambda m: (" " if m.start() and text[m.start() - 1].isalpha() else "") + m[1], s,
                              timeout=REGEX_TIMEOUT_S)
        if new == s:
            break
        s = new
    return s


# "\\boxed{\\text{The answer is } 42}", "\\text{Answer: 42}": the label of an answer line written inside the box
_LABEL_PREFIX_RE = regex.compile(
    r"(?i)^\s*(?:\\text\s*\{\s*)?(?:" + "|".join(regex.escape(w) for w in sorted(ANSWER_WORDS, key=len, reverse=True))
    + r")(?:\s*(?:is|:|：|=)\s*)(?:\}\s*)?")
_MARKS_RE = regex.compile("[" + "".join(regex.escape(m) for m in APPROVAL_MARKS if len(m) == 1) + "\ufe0f]+|\\\\checkmark(?![A-Za-z])")


def _strip_marks_and_label(s: str) -> str:
    """An answer without approval marks ("42 ✅", "\\checkmark") and without an answer label inside its box.
    A label is only taken off when what follows it is closed: "\\text{Answer: } 42" or "\\text{Answer: 42}"."""
    s = _MARKS_RE.sub(" ", s, timeout=REGEX_TIMEOUT_S).strip()
    s = _strip_math_delimiters(s)  # "$42$ ✅" leaves "$42$"
    m = _LABEL_PREFIX_RE.match(s, timeout=REGEX_TIMEOUT_S)
    if m is None or not s[m.end():].strip():
        return s
    rest = s[m.end():]
    opened_text = m[0].lstrip().startswith("\\text") and not m[0].rstrip().endswith("}")
    if opened_text:  # "\\text{Answer: 42}": the value is the rest of the \\text group
        if not rest.rstrip().endswith("}") or "{" in rest or rest.count("}") != 1:
            return s
        rest = rest.rstrip()[:-1]
    return rest.strip()


# a word of totals opening the answer, before its value
_TOTAL_LEAD_RE = regex.compile(r"(?i)\s*(?:" + alternation(TOTAL_WORDS) + r")\s*[,:]?\s*(?=[-+]?[0-9$€£¥₹\\])")


def _money_amount(s: str) -> str:
    """The amount of a sum of money ("R$ 18", "US$18", "18 CHF", "USD 12.50", "R\\$ 35,00", "\\text{Rs. } 500",
    "3.500 €"), a currency sign of any CLDR locale beside it; else ``s``."""
    plain = _TEXT_MACRO_RE.sub(r"\1", s.replace("\\$", "$"), timeout=REGEX_TIMEOUT_S) if "\\" in s else s
    if (m := _MONEY_RE.fullmatch(plain.strip(), timeout=REGEX_TIMEOUT_S)) and is_currency(sign := m[1] or m[4] or ""):
        return grouped_amount(m[3], sign) if m[3] else grouped_amount(m[2], sign, before=True)
    return s


@byte_cache(0.15)
def normalize_answer(text: str) -> NormalizedAnswer:
    """Normalise one extracted answer (already capped in length); pure, so results are cached."""
    if (lead := _TOTAL_LEAD_RE.match(text, timeout=REGEX_TIMEOUT_S)) is not None:
        text = text[lead.end():]  # "Insgesamt 3.500 €", "In total 45", "Altogether 45": the total is the value
    if (negated := negated_number(_unwrap(text))) is not None:
        text = negated  # "negative five", "minus 5", "moins cinq": the sign word of any language CLDR spells numbers in
    if (compact := compact_value(text)) is not None:
        text = compact  # "\$42\text{K}" is 42000, "4.2万" 42000, "3 млн" 3000000: a compact number is its value
    text = restore_escapes(text)  # a form feed where "\\frac" began: an unescaped string, never text
    if "°" in text or "℃" in text or "℉" in text:
        text = _SYMBOL_TEXT_RE.sub(r"\1", text, timeout=REGEX_TIMEOUT_S)  # "72\text{ °}": the sign, not a text group
    s = fold_math_unicode(amount) if (amount := _money_amount(text)) != text else _money_amount(fold_math_unicode(text))
    s = s.replace("\\$", "")  # an escaped dollar is a currency sign, not a math delimiter
    if "textcirc" in s or "textdegree" in s:
        s = _DEGREE_MACRO_RE.sub(lambda _m: "^\\circ ", s, timeout=REGEX_TIMEOUT_S)  # textcomp's degree signs are the degree sign
    s = _strip_math_delimiters(s)
    if "_" in s:
        s = _OPERATOR_SUBSCRIPT_RE.sub(lambda m: "_{" + (m[1] or m[2]) + "}", s, timeout=REGEX_TIMEOUT_S)
    s = strip_outer_box(s)
    s = _strip_marks_and_label(s)
    s = unit_vector_tuple(s) or nested_list_matrix(s) or degrees_minutes_seconds(s) or compound_quantity(s) or counted_list(s) or s
    if _LAKH_GROUPS_RE.fullmatch(s, timeout=REGEX_TIMEOUT_S):
        s = _GROUP_MARK_RE.sub("", s, timeout=REGEX_TIMEOUT_S)  # 56,\!01,\!78,\!95,\!760: lakh groups, as MATH writes commas
    s = _DIGIT_GROUP_RE.sub("", s, timeout=REGEX_TIMEOUT_S)
    s = _column_vector(s)
    s = _system_of_values(s)
    s = _ANGLE_VECTOR_RE.sub(r"(\1)", s, timeout=REGEX_TIMEOUT_S)  # \langle 1, 2 \rangle is the vector (1, 2)
    s = french_interval(s)
    if "\\{" in s[:12]:  # \{x \mid -1 < x < 1\} is the interval (-1, 1), in any size and spacing (\Big\{x \,|\, …\Big\})
        plain = SPACING_RE.sub(" ", _LEFT_RIGHT_RE.sub("", s, timeout=REGEX_TIMEOUT_S), timeout=REGEX_TIMEOUT_S)
        if plain.lstrip().startswith("\\{") and (interval := set_builder_interval(plain)) is not None:
            s = interval
    s = as_fractions(s)  # 0.333\ldots, 0.\overline{3}, 0.(3) are \frac{1}{3}, alone, in an equation or before a unit
    cut_off = False
    if "." in s or "…" in s:  # "1.41421356...": a cut-off decimal is its digits (how close it must be: approximations.py)
        s, cuts = _CUT_OFF_RE.subn(r"\1", s, timeout=REGEX_TIMEOUT_S)
        cut_off = cuts > 0
    if "\\" not in s:
        s = sympy_text(s)
    unit = ""
    if (whole := _WHOLE_TEXT_RE.fullmatch(s.strip(), timeout=REGEX_TIMEOUT_S)) and _LETTER_RE.search(whole[1], timeout=REGEX_TIMEOUT_S):
        s = whole[1]  # "\text{seven}", "\text{twelve apples}": words read as words ("seven" is 7), not as TeX
    if ":" in s and (time_of_day := clock_time(_TEXT_MACRO_RE.sub(r"\1", s, timeout=REGEX_TIMEOUT_S).strip().rstrip("."))):
        s = time_of_day  # "3:30 \text{ PM}" is 15:30: the half of the day is part of the time, never a unit (pm)
    if (named := percent_named(s)) is not None:
        s = named  # "25\\% \\text{ increase}", "a 20% discount", "20% off": the percentage, and what it measures
    if (difference := comparative_count(s)) is not None:
        s = f"{difference[0]} {difference[1]}".strip()  # "5 more apples", "на 5 больше": a difference, stated as a count
    s = scale_words_to_signs(s)  # "25 degrees F" is 25 °F
    if (scaled := scaled_value(s)) is not None:  # "42\text{ million}", "2 thousand people", "twelve apples", "二十人"
        s, unit = scaled
    m = _TRAILING_UNIT_RE.search(s, timeout=REGEX_TIMEOUT_S)
    if m and len(m[1]) == 1 and s[:m.start()].rstrip().endswith(("circ", "circ}", "°")):
        m = None  # "100^{\\circ}\\mathrm{C}": a temperature scale's letter, read with the degree sign below
    if m and not _DIGIT_RE.search(s, 0, m.start(), timeout=REGEX_TIMEOUT_S) and "\\pi" not in s[:m.start()]:
        m = None  # "\\mathrm{A}\\mathrm{C}": a unit measures a number; after letters the group is another letter
    if m and unit_words(m[1]):
        # "30 \text{ mm}^2": the power belongs to the unit (30 mm² is not 3 cm², nor 30 cm²)
        unit, s = m[1].lower() + (f"^{m['power']}" if m["power"] else ""), s[:m.start()]
    s = _EMPTY_SET_RE.sub(r"\\emptyset", s, timeout=REGEX_TIMEOUT_S)
    # "0 \quad -1", "0 \; -1" set two values apart: an explicit space before a sign separates, never subtracts
    s = _WIDE_SPACE_BEFORE_SIGN_RE.sub(", ", s, timeout=REGEX_TIMEOUT_S)
    s = SPACING_RE.sub(lambda m: m[0] if m[0] == "\\\\" else " ", s, timeout=REGEX_TIMEOUT_S)
    s = _INVISIBLE_DELIMITER_RE.sub("", s, timeout=REGEX_TIMEOUT_S)
    s = _LEFT_RIGHT_RE.sub("", s, timeout=REGEX_TIMEOUT_S)
    if _TRIG_RE.search(s, timeout=REGEX_TIMEOUT_S):  # \sin 30^\circ is sin(pi/6): degrees are converted, not dropped
        s = _DEGREE_VALUE_RE.sub(r"(\1\\pi/180)", s, timeout=REGEX_TIMEOUT_S)
    if m := DEGREE_RE.search(s, timeout=REGEX_TIMEOUT_S):
        unit = unit or TEMPERATURE_UNITS.get(m["scale"] or "", "degree")
        if len({d["scale"] for d in DEGREE_RE.finditer(s, timeout=REGEX_TIMEOUT_S) if d["scale"]}) > 1:
            s, unit = one_temperature(s)  # "25 °C = 77 °F" is one temperature; "25 °C = 25 °F" is two
        else:  # "45° 30" is two numbers (45, 30), never 4530 once the sign is gone
            s = DEGREE_RE.sub(lambda d: ", " if _DIGIT_NEXT_RE.match(s, d.end(), timeout=REGEX_TIMEOUT_S) else "", s, timeout=REGEX_TIMEOUT_S)
    s = _FRAC_ALIAS_RE.sub(r"\\frac", s, timeout=REGEX_TIMEOUT_S)
    if "\\over" in s:
        s = plain_tex_fractions(s)
    if "\\lg" in s:
        s = _LG_RE.sub(r"\\log_{10}", s, timeout=REGEX_TIMEOUT_S)  # \lg is the common logarithm (ISO 80000-2)
    s = python_syntax(s)
    s = modular(s)
    s = _unwrap(s)
    if "\\pm" in s or "\\mp" in s:  # a sign inside a group: two values
        s = nested_plus_minus(s)
    s = s.replace("{,}", ",").replace("{:}", ":").replace("\\%", "%").replace("\\colon", ":")
    s = _SEMICOLON_RE.sub(",", s, timeout=REGEX_TIMEOUT_S)  # "0.3; 0.5" lists two values; "[1; 2]" is [1, 2]
    s = s.strip()
    if not s.endswith(("...", "…")):  # "1, 2, 3, ..." goes on: an ellipsis is no sentence's full stop
        s = s.rstrip(".")
    s = s.rstrip("\\").strip()
    if (time_of_day := clock_time(s)) is not None:
        s = time_of_day  # 20:34:00 and 8:34 pm are 20:34
    if unit and (word := percent_word_after(f"1 {unit}")) is not None and word.start() > 0:
        unit = ""  # "12 \\text{ percent}", "12 \\text{ Prozent}": read as a unit above, it is the percent sign
        s += "%"
    s = _PERCENT_WORD_RE.sub("%", s, timeout=REGEX_TIMEOUT_S)  # "28 percent" says what "28\\%" says
    if s[-1:].isalpha() and (word := percent_word_after(s)) is not None:
        s = s[:len(s) - len(s[-40:]) + word.start()] + "%"  # "28 Prozent", "28 por ciento", "28 процентов"
    percent = s.endswith("%")
    if percent:
        s = s[:-1].strip()
    if not percent and not unit and (m := _ORDINAL_RE.search(s, timeout=REGEX_TIMEOUT_S)):
        unit, s = "ordinal", s[:m.start()].strip()  # 12^{\text{th}}, 12th: the twelfth is 12
    elif not percent and not unit and (m := _CJK_ORDINAL_RE.fullmatch(s, timeout=REGEX_TIMEOUT_S)) \
            and not any(numeral_char(c) for c in m[2]):
        unit, s = "ordinal", m[1]  # 第 7 项, 第7名: the seventh is 7
    if not percent and not unit and (m := _CJK_UNIT_RE.search(s, timeout=REGEX_TIMEOUT_S)) and count_noun(m[1]):
        unit, s = m[1], s[:m.start()].strip()
    if not percent and unit in ("", "degree"):  # "25^\\circ Celsius" reads its scale below
        m = _TRAILING_WORD_UNIT_RE.search(s, timeout=REGEX_TIMEOUT_S)
        if m and unit_words(m[1] or m[2]) and (not _LETTER_OR_MACRO_RE.search(s, 0, m.start(), timeout=REGEX_TIMEOUT_S)
                                               or _PI_MULTIPLE_RE.fullmatch(s, 0, m.start(), timeout=REGEX_TIMEOUT_S)):
            unit, s = (m[1] or m[2]).lower(), s[:m.start()].strip()
    if not percent and not unit and (split := split_unit(s)) is not None:
        s, unit = split  # 5\ \text{m}, 9.8 m/s^2, 60 km/h, 15 dollars per hour
    if _RADIAN_RE.fullmatch(unit, timeout=REGEX_TIMEOUT_S):
        unit = "radian"
    if not percent and not unit and (m := _BASE_NUMERAL_RE.fullmatch(s.strip(), timeout=REGEX_TIMEOUT_S)) \
            and 2 <= int(m[2]) <= 36 and _DIGIT_RE.search(m[1], timeout=REGEX_TIMEOUT_S):
        s, unit = m[1], ("" if m[2] == "10" else f"base {int(m[2])}")  # 2516_8: the numeral 2516 in base 8
    if (m := _SCIENTIFIC_RE.fullmatch(s.strip(), timeout=REGEX_TIMEOUT_S)) and abs(int(m[2])) <= 30:
        value = Decimal(m[1]).scaleb(int(m[2]))  # 1e6 is 1000000, 2.5E-3 is 0.0025
        s = format(value.normalize(), "f")

    if _THOUSANDS_RE.fullmatch(s, timeout=REGEX_TIMEOUT_S):
        s = s.replace(",", "")
    elif _OTHER_GROUPS_RE.fullmatch(s, timeout=REGEX_TIMEOUT_S):
        s = s.replace(".", "").replace("'", "").replace("’", "")  # 1.000.000 (two dots: no decimal), 1'000'000
    choice = _CHOICE_RE.fullmatch(s, timeout=REGEX_TIMEOUT_S) or choice_with_text(s)
    if choice:
        s = next(g for g in choice.groups() if g).upper()
    s = " ".join(s.split())
    s = _FRAC_TOKENS_RE.sub(r"\\frac{\1}{\2}", s, timeout=REGEX_TIMEOUT_S)  # \frac 1 2 is \frac{1}{2}
    s = _MIXED_SPACED_RE.sub(r"\1\\frac{\2}{\3}", s, timeout=REGEX_TIMEOUT_S)  # 3 1/2 is three and a half
    s = _SPACE_GROUPS_RE.sub(lambda m: m[0].replace(" ", ""), s, timeout=REGEX_TIMEOUT_S)  # 10 000 is ten thousand
    s = _SPACED_DIGITS_RE.sub(", ", s, timeout=REGEX_TIMEOUT_S)  # 3 4 is two numbers, never 34
    return NormalizedAnswer(clean=s, key=s.replace(" ", ""), percent=percent, unit=unit, cut_off=cut_off)


# an amount with a currency sign before or after it (the sign is checked against CLDR's: currencies.py)
_MONEY_RE = regex.compile(r"(?:([^\s0-9+\-.,]{1,6}?)\.?\s*([-+]?[0-9][0-9,.'’]*)|([-+]?[0-9][0-9,.'’]*?)\s*([^\s0-9.,']{1,6}))")
_WHOLE_TEXT_RE = regex.compile(r"\\(?:text|textbf|textrm|mathrm|mbox)\s*\{([^{}$\\]*)\}")
_TEXT_MACRO_RE = regex.compile(r"\\(?:text|textrm|mathrm|mbox)\s*\{([^{}]*)\}")
_LETTER_RE = regex.compile(r"\p{L}")
_LG_RE = regex.compile(r"\\lg(?![A-Za-z])")
_DIGIT_NEXT_RE = regex.compile(r"\s*[0-9]")
# a degree sign alone in a text group ("72\\text{ °}", "\\mathrm{°C}"): folded to "^\\circ" it would leave the group open
_SYMBOL_TEXT_RE = regex.compile(r"\\(?:text|mathrm|textrm|mbox)\s*\{\s*([°℃℉]\s*[CF]?)\s*\}")
# "m_{\max}", "S_\min": an operator's name as a subscript only names a variable (the parser reads no \max there)
_OPERATOR_SUBSCRIPT_RE = regex.compile(r"_\s*(?:\{\s*\\(max|min|sup|inf)\s*\}|\\(max|min|sup|inf)(?![A-Za-z]))")
_CUT_OFF_RE = regex.compile(r"(?<![0-9.])([0-9]*\.[0-9]+)\s*" + DOTS + r"(?=\s*$|\s+\p{L}|\s*\\(?:text|mathrm)\b)")
_SEMICOLON_RE = regex.compile(r"(?<!\\)\s*;\s*")
_SCIENTIFIC_RE = regex.compile(r"([-+]?[0-9]{1,15}(?:\.[0-9]{1,15})?)[eE]([-+]?[0-9]{1,3})")
_ANGLE_VECTOR_RE = regex.compile(r"^\s*\\(?:left)?\\?langle\s*(.*?)\s*\\(?:right)?\\?rangle\s*$|^\s*⟨\s*(.*?)\s*⟩\s*$")
_ROW_VECTOR_RE = regex.compile(r"\\begin\{([pb])matrix\}((?:(?!\\begin|\\end|\\\\).)*&(?:(?!\\begin|\\end|\\\\).)*)\\end\{\1matrix\}",
                               regex.DOTALL)
# "\\left(\\begin{array}{c} 1 \\\\ 2 \\end{array}\\right)": an array in brackets is the matrix pmatrix writes
_BRACKETED_ARRAY_RE = regex.compile(r"^\s*(?:\\left)?\s*[(\[]\s*\\begin\{array\}\{[lcr| ]*\}((?:(?!\\begin|\\end).)*)"
                                    r"\\end\{array\}\s*(?:\\right)?\s*[)\]]\s*$", regex.DOTALL)


def _column_vector(s: str) -> str:
    if "array" in s and (array := _BRACKETED_ARRAY_RE.fullmatch(s, timeout=REGEX_TIMEOUT_S)):
        s = f"\\begin{{pmatrix}}{array[1]}\\end{{pmatrix}}"
    row = _ROW_VECTOR_RE.fullmatch(s.strip(), timeout=REGEX_TIMEOUT_S)
    if row:  # one row: \begin{pmatrix} 1 & 2 \end{pmatrix} is (1, 2)
        return "(" + ", ".join(c.strip() for c in row[2].split("&")) + ")"
    m = _COLUMN_VECTOR_RE.fullmatch(s.strip(), timeout=REGEX_TIMEOUT_S)
    if not m:
        return s
    rows = [r.strip() for r in m[2].split("\\\\")]
    rows = [r for r in rows if r]
    return "(" + ", ".join(rows) + ")" if len(rows) >= 2 else s


_SYSTEM_RE = regex.compile(r"^\s*\\begin\{(cases|aligned|align\*?|gathered|array)\}(?:\{[lcr|]*\})?(.*)\\end\{\1\}\s*$",
                           regex.DOTALL)
_ROW_ASSIGNMENT_RE = regex.compile(r"^\s*([A-Za-z](?:_\{?[0-9A-Za-z]+\}?)?)\s*&?\s*=\s*&?\s*([^=&]+?)\s*[,;.]?\s*$")


def _system_of_values(s: str) -> str:
    """``\\begin{cases} x = 1 \\\\ y = 2 \\end{cases}`` is ``x = 1, y = 2``: a system whose every row names
    one variable's value; any other environment is left for the parser (or the lossless check)."""
    m = _SYSTEM_RE.match(s, timeout=REGEX_TIMEOUT_S)
    if m is None:
        return s
    rows = [r for r in m[2].split("\\\\") if r.strip()]
    pairs = [_ROW_ASSIGNMENT_RE.match(r, timeout=REGEX_TIMEOUT_S) for r in rows]
    if len(rows) < 2 or not all(pairs):
        return s
    return ", ".join(f"{p[1]} = {p[2]}" for p in pairs)


def answer_key(text: str) -> str:
    """A comparable identity of an answer's text (for majority voting): normalised, no spaces."""
    norm = normalize_answer(text)
    return norm.key + ("%" if norm.percent else "")


def assignment_rhs(clean: str) -> str | None:
    """``x = 5`` -> ``5`` for a single-variable assignment; ``None`` otherwise."""
    m = _ASSIGNMENT_RE.fullmatch(clean, timeout=REGEX_TIMEOUT_S)
    return m.group(1).strip() if m else None


@byte_cache(0.1)
def value_key(text: str) -> str | Fraction:
    """Identity used to decide whether two stated answers are the same answer (exact number or text). A
    temperature on a scale is keyed in degrees Celsius: "77 °F" and "25 °C" are one value, "25 °F" another
    (a number with no scale keys as itself; readers that hold an answer keep its bare number too)."""
    norm = normalize_answer(text)
    number = parse_number(norm.key)
    if number is not None:
        if not norm.percent and (degrees := celsius(number, norm.unit)) is not None:
            return degrees
        return number / 100 if norm.percent else number  # 2% is 0.02: never the same answer as 200
    return norm.key + ("%" if norm.percent else "")


def has_temperature_scale(text: str) -> bool:
    """Whether an answer is a temperature on a named scale ("25 °F", "298 K")."""
    return celsius(Fraction(0), normalize_answer(text).unit) is not None


def bare_number(text: str) -> Fraction | None:
    """The number an answer states without its unit or scale ("25 °F" -> 25), or ``None``."""
    norm = normalize_answer(text)
    return None if norm.percent else parse_number(norm.key)

