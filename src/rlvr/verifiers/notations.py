"""Other notations of one value, written as the form the comparison reads.

- A vector in unit vectors, ``\\mathbf{i} - 2\\mathbf{j} + 3\\mathbf{k}`` (also ``\\hat``, ``\\vec``; plain ``i - 2j + 3k``
  only against a gold that is a vector): the tuple ``(1, -2, 3)``.
- A matrix as nested lists, ``[[0, -1], [1, 0]]`` (Python's, NumPy's, Mathematica's braces): the ``pmatrix``.
- An angle in degrees, minutes and seconds, ``45^\\circ 30'``, ``22°30′``, ``10°15'36"``: its degrees,
  ``45.5^\\circ``.
- A quantity in several units, ``2 \\text{ hours and } 30 \\text{ minutes}``, ``5 feet 6 inches``, ``3 kg 200 g``:
  one number in its first, largest unit (2.5 h, 5.5 ft, 3.2 kg), converted with pint: one reading only, so
  that one answer is never paid as two numbers (a gold in the smallest unit, 150 against "2 hours 30
  minutes", is refused: the gold's number alone does not say which unit it counts).
- Plain TeX's ``{5 \\over 7}``, sympy's and Python's ``x**2``, ``!=`` and ``Eq(a, b)``, a congruence's residue and
  ``23 \\bmod 7``, and French intervals (``]0, 1[``, ``[1 ; 3[``).
- Counts of different things, ``7 \\text{ goats and } 4 \\text{ helicopters}``, ``40 \\text{ red}, 60 \\text{ blue}``: the
  list of the counts, ``7, 4`` (each noun names its count; "or" or "not" among the words leaves the text as written).
- A count, ``C(8, 3)``, ``P(8, 3)``, ``{}_8C_3``: the number it counts, against a number gold.

Each rewrite reads the whole answer or nothing: a notation inside a longer expression is left as written.
"""

from __future__ import annotations

from fractions import Fraction

import regex

from rlvr.verifiers.lexicon import CHANGING, LIST_WORDS, alternation
from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.units import canonical_unit

__all__ = ["compound_quantity", "counting_value", "counted_list", "counted_pairs", "counts_compared", "unit_vector_tuple", "nested_list_matrix", "degrees_minutes_seconds", "plain_tex_fractions", "python_syntax",
           "modular", "french_interval"]

_NUMBER = r"[-+]?\s*(?:[0-9]+(?:\.[0-9]+)?|\\frac\{-?[0-9]+\}\{[0-9]+\}|[0-9]+/[0-9]+)?"
# one unit vector, decorated or plain: \mathbf{i}, \mathbf i, \hat{j}, \vec{k}, \boldsymbol{i}, i
_UNIT = r"(?:\\(?:mathbf|hat|vec|boldsymbol|bm)\s*\{\s*(?P<d>[ijk])\s*\}|\\(?:mathbf|hat|vec)\s+(?P<e>[ijk])|(?P<p>[ijk]))"
_TERM_RE = regex.compile(r"\s*(?P<c>" + _NUMBER + r")\s*(?:\\cdot\s*)?" + _UNIT + r"(?![A-Za-z])\s*")
_DECORATED_RE = regex.compile(r"\\(?:mathbf|hat|vec|boldsymbol|bm)\s*\{?\s*[ijk]\b")


def unit_vector_tuple(text: str, plain: bool = False) -> str | None:
    """``a\\mathbf{i} + b\\mathbf{j} + c\\mathbf{k}`` as ``(a, b, c)`` (``(a, b)`` without a ``k``); ``None`` unless the
    whole text is such a sum, each unit vector once, and decorated. ``plain``: letters without decoration count too
    when two of them stand ("i - 2j + 3k"; the caller knows the gold is a vector: elsewhere they are variables)."""
    if len(text) > 200 or not any(c in text for c in "ijk"):
        return None
    coefficients: dict[str, str] = {}
    pos, decorated = 0, _DECORATED_RE.search(text, timeout=REGEX_TIMEOUT_S) is not None
    while pos < len(text):
        m = _TERM_RE.match(text, pos, timeout=REGEX_TIMEOUT_S)
        if m is None or m.end() == pos:
            return None
        name = m["d"] or m["e"] or m["p"]
        if name in coefficients:
            return None
        c = m["c"].replace(" ", "")
        if pos > 0 and not c.startswith(("+", "-")):
            return None  # terms are joined by signs
        coefficients[name] = {"": "1", "+": "1", "-": "-1"}.get(c, c.lstrip("+"))
        pos = m.end()
    if not decorated and not (plain and len(coefficients) >= 2 and {"j", "k"} & coefficients.keys()):
        return None  # "3 + 4i" is a complex number, "i + j - k" variables unless the gold is a vector
    names = "ijk" if "k" in coefficients else "ij"
    return "(" + ", ".join(coefficients.get(n, "0") for n in names) + ")"


_ROW_RE = regex.compile(r"\s*[\[{]\s*([^\[\]{}]*?)\s*[\]}]\s*")
_OUTER_RE = regex.compile(r"\s*[\[{]\s*((?:[\[{][^\[\]{}]*[\]}]\s*,\s*)+[\[{][^\[\]{}]*[\]}])\s*[\]}]\s*")


def nested_list_matrix(text: str) -> str | None:
    """``[[0, -1], [1, 0]]`` (or ``{{0, -1}, {1, 0}}``) as ``\\begin{pmatrix} 0 & -1 \\\\ 1 & 0 \\end{pmatrix}``; ``None``
    unless every row has as many entries (two rows at least)."""
    if len(text) > 400 or "[" not in text and "\\{" not in text and "{" not in text:
        return None
    m = _OUTER_RE.fullmatch(text, timeout=REGEX_TIMEOUT_S)
    if m is None:
        return None
    rows = [[cell.strip() for cell in r[1].split(",")] for r in _ROW_RE.finditer(m[1], timeout=REGEX_TIMEOUT_S)]
    if len(rows) < 2 or len({len(r) for r in rows}) != 1 or any(not cell for r in rows for cell in r):
        return None
    return "\\begin{pmatrix} " + " \\\\ ".join(" & ".join(r) for r in rows) + " \\end{pmatrix}"


_DEGREE = r"(?:\^\s*\{?\s*\\circ\s*\}?|°)"
_MINUTE = r"(?:'|′|\^\s*\{?\s*\\prime\s*\}?)"
_SECOND = r"(?:''|″|\"|\^\s*\{?\s*\\prime\s*\\prime\s*\}?|\^\s*\{?\s*\\dprime\s*\}?)"
_DMS_RE = regex.compile(r"\s*(?P<sign>-)?\s*(?P<d>[0-9]+)\s*" + _DEGREE + r"\s*(?P<m>[0-9]+(?:\.[0-9]+)?)\s*" + _MINUTE
                        + r"(?:\s*(?P<s>[0-9]+(?:\.[0-9]+)?)\s*" + _SECOND + r")?\s*")


def degrees_minutes_seconds(text: str) -> str | None:
    """``45^\\circ 30'`` as ``45.5^\\circ`` (``10^\\circ 20'`` as ``\\frac{31}{3}^\\circ``): minutes and seconds are
    sixtieths; ``None`` unless the whole text is such an angle with minutes (and seconds) under 60."""
    m = _DMS_RE.fullmatch(text, timeout=REGEX_TIMEOUT_S) if len(text) < 80 else None
    if m is None:
        return None
    minutes, seconds = Fraction(m["m"]), Fraction(m["s"] or 0)
    if minutes >= 60 or seconds >= 60:
        return None
    value = Fraction(int(m["d"])) + minutes / 60 + seconds / 3600
    if m["sign"]:
        value = -value
    shown = _decimal(value)
    return (shown if shown is not None else f"\\frac{{{value.numerator}}}{{{value.denominator}}}") + "^\\circ"


def _decimal(value: Fraction) -> str | None:
    """The exact decimal of ``value`` when it terminates within twelve places (45.5), else ``None``."""
    for places in range(13):
        scaled = value * 10**places
        if scaled.denominator == 1:
            digits = str(abs(scaled.numerator)).rjust(places + 1, "0")
            whole, frac = digits[:len(digits) - places], digits[len(digits) - places:]
            return ("-" if value < 0 else "") + whole + ("." + frac if frac else "")
    return None


# plain TeX's fraction: {5 \over 7} (a group with one \over and no braces inside) is \frac{5}{7}
# (its sides may hold groups of their own: {{5} \over {7}}, {\sqrt{3} \over 2})
_OVER_SIDE = r"((?:[^{}]|\{[^{}]*\})*?)"
_TEX_OVER_RE = regex.compile(r"(?<!\\)\{" + _OVER_SIDE + r"\\over(?![A-Za-z])" + _OVER_SIDE + r"\}")
_BARE_OVER_RE = regex.compile(_OVER_SIDE + r"\\over(?![A-Za-z])((?:[^{}]|\{[^{}]*\})*)")
# sympy/Python spellings that models print: x**2 is x^2; Eq(a, b) is a = b
_PY_POWER_RE = regex.compile(r"\*\*")
_PY_NOT_EQUAL_RE = regex.compile(r"!=|=/=|<>")  # x != 5, x =/= 5, x <> 5: x \neq 5
_PY_EQ_RE = regex.compile(r"Eq\((.*)\)")
# 23 \bmod 7 and 23 \mod 7 of plain integers are evaluated here (math-verify misreads them)
_MOD_RE = regex.compile(r"(?<![0-9.])([0-9]{1,30})\s*\\(?:bmod|mod)(?![A-Za-z])\s*\{?([0-9]{1,30})\}?(?![0-9.])")
# "a \equiv b \pmod{n}" states the residue b
_CONGRUENCE_RE = regex.compile(r"^(.*?)\\equiv\s*(.+?)\s*\\?\(?\s*\\?(?:pmod|bmod|mod)\s*\{?\s*([^{}()]+?)\s*\}?\s*\)?$")


def plain_tex_fractions(s: str) -> str:
    """``{5 \\over 7}`` and a whole ``5 \\over 7`` as ``\\frac{5}{7}`` (``\\overline`` is another macro)."""
    s = _TEX_OVER_RE.sub(lambda m: f"\\frac{{{m[1].strip()}}}{{{m[2].strip()}}}", s, timeout=REGEX_TIMEOUT_S)
    if m := _BARE_OVER_RE.fullmatch(s, timeout=REGEX_TIMEOUT_S):
        s = f"\\frac{{{m[1].strip()}}}{{{m[2].strip()}}}"
    return s


# an integer written in base 16, 8 or 2 as programs write it: "0x2A" is 42, never 0 times x2A
_BASE_LITERAL_RE = regex.compile(r"(?<![\w.\\])0(?:[xX][0-9A-Fa-f]{1,64}|[oO][0-7]{1,86}|[bB][01]{1,256})(?![\w.])")


def python_syntax(s: str) -> str:
    """sympy's and Python's spellings: ``x**2`` is ``x^2``, ``x != 5`` is ``x \\neq 5``, ``Eq(a, b)`` is ``a = b``,
    ``0x2A`` is 42."""
    if "0" in s:
        s = _BASE_LITERAL_RE.sub(lambda m: str(int(m[0], 0)), s, timeout=REGEX_TIMEOUT_S)
    s = _PY_POWER_RE.sub("^", s, timeout=REGEX_TIMEOUT_S)
    s = _PY_NOT_EQUAL_RE.sub(r" \\neq ", s, timeout=REGEX_TIMEOUT_S)
    m = _PY_EQ_RE.fullmatch(s.strip(), timeout=REGEX_TIMEOUT_S)
    if m:
        depth = 0
        for i, c in enumerate(m[1]):
            depth += c in "([{"
            depth -= c in ")]}"
            if c == "," and depth == 0:
                return f"{m[1][:i].strip()} = {m[1][i + 1:].strip()}"
    return s


def modular(s: str) -> str:
    """``a \\equiv 3 \\pmod{7}`` states the residue 3; ``23 \\bmod 7`` of plain integers is 2."""
    m = _CONGRUENCE_RE.fullmatch(s.strip(), timeout=REGEX_TIMEOUT_S)
    if m:
        s = m[2].strip()
    return _MOD_RE.sub(lambda m: str(int(m[1]) % int(m[2])) if int(m[2]) else m[0], s, timeout=REGEX_TIMEOUT_S)


# "]0, 1[", "[1 ; 3[" (a semicolon where the decimal comma is used), "x \in [1 ; 3[": the interval
_FRENCH_INTERVAL_RE = regex.compile(r"\s*(?:[A-Za-z]\s*\\in\s*)?([\[\]])([^\[\](),;]+)[,;]([^\[\](),;]+)([\[\]])\s*")


def french_interval(s: str) -> str:
    """``]0, 1[`` and ``[0, 1[`` (French notation: an outward bracket is open) as ``(0, 1)`` and ``[0, 1)``."""
    m = _FRENCH_INTERVAL_RE.fullmatch(s, timeout=REGEX_TIMEOUT_S)
    if not m or (m[1] == "[" and m[4] == "]"):
        return s
    return ("(" if m[1] == "]" else "[") + f"{m[2]},{m[3]}" + (")" if m[4] == "[" else "]")


_TEXT_UNWRAP_RE = regex.compile(r"\\(?:text|mathrm|textrm|mbox)\s*\{([^{}]*)\}")
_TERM_UNIT_RE = regex.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]{1,12})\.?\s*(?:,|\band\b)?")


def compound_quantity(text: str, in_smallest: bool = False) -> str | None:
    """``2 \\text{ hours and } 30 \\text{ minutes}`` as ``\\frac{5}{2} \\text{ h}``: two or more amounts of one
    dimension, each in a smaller unit than the one before, summed in the first; ``None`` for anything else."""
    from rlvr.verifiers.conversions import unit_factor  # pint: loaded by the worker before it reports ready
    from rlvr.verifiers.units import canonical_unit

    if len(text) > 160 or not any(c.isdigit() for c in text):
        return None
    plain = _TEXT_UNWRAP_RE.sub(r" \1 ", text, timeout=REGEX_TIMEOUT_S).strip()
    terms, pos = [], 0
    while pos < len(plain):
        m = _TERM_UNIT_RE.match(plain, pos, timeout=REGEX_TIMEOUT_S)
        if m is None or m.end() == pos:
            return None
        unit = canonical_unit(m[2])
        if unit is None:
            return None
        terms.append((Fraction(m[1]), unit))
        pos = m.end()
    if len(terms) < 2:
        return None
    # summed in the first (largest) unit, which a unitless gold gives ("2.5" hours for 2 hours 30 minutes, "5.5" m
    # for 5 m 50 cm); one reading only, so that one answer is never paid as two numbers
    # ``in_smallest``: the sum in the last unit instead (150 min), read only against a unitless gold (``rows``)
    total, (_, largest) = Fraction(0), terms[-1 if in_smallest else 0]
    for (amount, unit), (_, following) in zip(terms, terms[1:] + [(0, None)]):
        if following is not None and ((step := unit_factor(unit, following)) is None or step <= 1):
            return None  # another dimension, or not each unit smaller than the one before
        factor = unit_factor(unit, largest)
        if factor is None:
            return None
        total += amount * factor
    shown = str(total.numerator) if total.denominator == 1 else f"\\frac{{{total.numerator}}}{{{total.denominator}}}"
    return f"{shown} \\text{{ {largest}}}"


# the counting notations: C(n, k), P(n, k), nCk and nPk with the numbers as sub- and superscripts
_COUNTING_CALL_RE = regex.compile(r"\s*(?:(?P<f>[CP])\s*\(\s*(?P<n>[0-9]{1,4})\s*,\s*(?P<k>[0-9]{1,4})\s*\)"
                                  r"|(?:\{\s*\}\s*)?[_^]\s*\{?\s*(?P<n2>[0-9]{1,4})\s*\}?\s*(?P<f2>[CP])\s*_\s*\{?\s*(?P<k2>[0-9]{1,4})\s*\}?)\s*")


def counting_value(text: str) -> int | None:
    """The number ``C(8,3)``, ``P(8,3)``, ``{}_8C_3`` or ``^8P_3`` counts; ``None`` for any other text."""
    import math

    m = _COUNTING_CALL_RE.fullmatch(text, timeout=REGEX_TIMEOUT_S)
    if m is None:
        return None
    kind, n, k = (m["f"], int(m["n"]), int(m["k"])) if m["f"] else (m["f2"], int(m["n2"]), int(m["k2"]))
    if k > n:
        return 0
    return math.comb(n, k) if kind == "C" else math.perm(n, k)


# "7 \text{ goats and } 4 \text{ helicopters}", "40 \ \text{chocolate candies},\ 60 \ \text{hard candies}": a count
# with its noun, then the next after a comma or "and" (inside the text or outside it)
_COUNTED_ITEM_RE = regex.compile(r"\s*(?:\\[ ,;]\s*)*([0-9]+(?:\.[0-9]+)?)\s*(?:\\[ ,;]\s*)*\\(?:text|textrm|mbox)\s*\{\s*(\p{L}[\p{L} ]{0,40}?)\s*\}"
                                 r"\s*(?:\\[ ,;]\s*)*(?:,|;|\\&|" + alternation(LIST_WORDS)
                                 + r"|\\text\s*\{\s*(?:" + alternation(LIST_WORDS) + r")\s*\})?")
# the same in plain words: "7 goats and 4 helicopters", "3 goats, 4 helicopters" (a noun of at most three words)
_PLAIN_COUNTED_ITEM_RE = regex.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s+(\p{L}+(?:[ ]\p{L}+){0,3}?)\s*(?:,?\s*(?<!\p{L})(?:"
                                       + alternation(LIST_WORDS) + r")(?!\p{L})|,|;|&)?")  # "and", "und", "et", "y", "和" …
_DIGITS_IN_MATH_RE = regex.compile(r"\$\s*([0-9]+(?:\.[0-9]+)?)\s*\$")
_WHOLE_TEXT_RE = regex.compile(r"\s*\\(?:text|textrm|mbox)\s*\{([^{}]*)\}\s*")
_AND_END_RE = regex.compile(r"\s+(?:" + alternation(LIST_WORDS) + r")$")  # "goats and", "Ziegen und", "chèvres et"
_LONGEST_COUNTS = 400  # counts of things are a short answer; a longer text is read as anything else


def counted_pairs(text: str) -> list[tuple[str, str]] | None:
    """``7 \\text{ goats and } 4 \\text{ helicopters}`` as ``[("7", "goats"), ("4", "helicopters")]``; ``None`` unless the
    whole text is two or more counts, each with a noun in ``\\text{}`` that is no unit of measure (``3 \\text{ cm
    and } 4 \\text{ m}`` is two lengths, not counts of things), and no noun adds, denies or doubts a value."""
    if len(text) > _LONGEST_COUNTS:
        return None
    text = _DIGITS_IN_MATH_RE.sub(r"\1", text, timeout=REGEX_TIMEOUT_S).strip().strip("$")  # "$7$ goats and $4$ …"
    if (whole := _WHOLE_TEXT_RE.fullmatch(text, timeout=REGEX_TIMEOUT_S)) is not None:
        text = whole[1]  # "\\text{7 goats and 4 helicopters}"
    if "\\" in text:
        pattern = _COUNTED_ITEM_RE
    elif text[:1].isdigit():
        pattern = _PLAIN_COUNTED_ITEM_RE
    else:
        return None
    pairs, end = [], 0
    while end < len(text) and (m := pattern.match(text, end, timeout=REGEX_TIMEOUT_S)) is not None and m.end() > end:
        noun = _AND_END_RE.sub("", m[2], timeout=REGEX_TIMEOUT_S).strip()  # each item where the last ended: linear
        if CHANGING.search(noun) or canonical_unit(noun) is not None:
            return None
        pairs.append((m[1], noun))
        end = m.end()
    return pairs if len(pairs) >= 2 and not text[end:].strip(" .") else None


def counted_list(text: str) -> str | None:
    """``7 \\text{ goats and } 4 \\text{ helicopters}`` as the list ``7, 4`` (see :func:`counted_pairs`)."""
    pairs = counted_pairs(text)
    return ", ".join(count for count, _noun in pairs) if pairs else None


def _noun_key(noun: str) -> str:
    return " ".join(w[:-1] if w.endswith("s") and len(w) > 3 else w for w in noun.lower().split())


def counts_compared(answer: str, gold: str) -> bool | None:
    """Two texts of counts of things compared by their nouns: ``False`` when a noun both name has different counts
    (``15 \\text{ boys and } 12 \\text{ girls}`` against ``15 \\text{ girls and } 12 \\text{ boys}``), ``True`` when
    both name the same nouns with the same counts, in any order; ``None`` when either is no such text or a noun is
    named on one side only (the counts are then compared as a list)."""
    mine, theirs = counted_pairs(answer), counted_pairs(gold)
    if not mine or not theirs:
        return None
    stated = {_noun_key(noun): count for count, noun in theirs}
    given = {_noun_key(noun): count for count, noun in mine}
    if any(key in stated and stated[key] != count for key, count in given.items()):
        return False  # a noun counted otherwise (nouns in another language name nothing the gold names)
    return True if given == stated and len(mine) == len(theirs) else None
