"""What an answer written as a statement says: ``x = 5`` states 5, ``3y = 7`` does not state 7,
and ``\\frac{\\sqrt2}{2} \\approx 0.707`` states its exact value.

Text-level checks in the caller's process (no sympy): which side of an equation names the quantity,
and which part of an "exact ≈ approximation" answer is the answer.
"""

from __future__ import annotations



import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S

from rlvr.verifiers.approximations import approximates, is_exact_form
from rlvr.verifiers.normalize import SPACING_RE, NormalizedAnswer, normalize_answer, split_top_level
from rlvr.verifiers.lexicon import LIST_WORDS, OR_WORDS, alternation
from rlvr.verifiers.numbers import parse_number, simple_value

__all__ = ["approximation_part", "APPROX", "NAME_RE", "is_constant_side", "equation_problem", "exact_part", "relations_as_intervals",
           "labelled_values", "colon_labels", "named_values_only", "in_stated_order", "relations_as_intersection", "set_builder_interval", "renamed_definition"]

# what may stand on the left of "= value" and still state the value: a name, never an expression
# (x, y_1, AB, f(2), P(A), |z|, \angle ABC, m\angle A, \text{answer}); 3y = 7 states 3y, not y
NAME_RE = regex.compile(
    r"\s*(?:m\s*)?(?:\\angle\s*|\\overline\{|\\widehat\{)?[A-Za-z]{1,3}(?:_\{?[A-Za-z0-9]+\}?)?'*\}?"
    r"(?:\([^()=]{0,40}\))?\s*|\s*\|[A-Za-z]{1,3}\|\s*|\s*\\(?:text|mathrm)\{[^{}]*\}\s*"
    r"|\s*\\(?:alpha|beta|gamma|delta|theta|phi|lambda|mu|sigma|omega)\s*"
    r"|\s*\(\s*[A-Za-z](?:\s*,\s*[A-Za-z]){1,4}\s*\)\s*")
_COMMAND_OR_TEXT_RE = regex.compile(r"\\(?:text|mathrm|operatorname)\s*\{[^{}]*\}|\\[A-Za-z]+")
_LIST_SPLIT_RE = regex.compile(alternation(OR_WORDS + LIST_WORDS) + r"|\\(?:text|mbox)\{\s*(?:"
                               + alternation(OR_WORDS + LIST_WORDS) + r")\s*\}")
_BOUND_VARIABLES_RE = regex.compile(r"\\(?:sum|prod|int|lim)(?![A-Za-z])")
_VARIABLE_LETTER_RE = regex.compile(r"[A-Za-df-hj-z]")
_DIGIT_RE = regex.compile(r"[0-9]")
_LATIN_RE = regex.compile(r"[A-Za-z]")
# the names of a side ("x", "x_1", "d_{\min}"), once macros and text are gone; and the forms of one name that
# questions ask for: the name, decorated or primed, its floor, ceiling or modulus, a named function of it (a power
# on the function: "\sin^2 x"), a function's value at constants ("f(2)", "f^{-1}(3)"), an angle
_GREEK_NAMES = ("alpha|beta|gamma|delta|epsilon|varepsilon|zeta|eta|theta|vartheta|iota|kappa|lambda|mu|nu|xi|rho|sigma"
                "|tau|upsilon|phi|varphi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi|Sigma|Phi|Psi|Omega")
_GREEK = r"\\(?:" + _GREEK_NAMES + r")(?![A-Za-z])"
_NAME_TOKEN_RE = regex.compile(r"(?:(?<![A-Za-z\\])[A-Za-z]|" + _GREEK + r")(?:_\{[^{}]{1,8}\}|_[A-Za-z0-9])?")
_NOT_A_NAME_RE = regex.compile(r"\\(?:text|mathrm|operatorname)\s*\{[^{}]*\}|\\(?!(?:" + _GREEK_NAMES + r")(?![A-Za-z]))[A-Za-z]+")
_ONE_NAME = r"(?:[A-Za-z]|" + _GREEK + r")(?:_\{[^{}]{1,8}\}|_[A-Za-z0-9])?'*"
_ONE_NAME_FORM_RE = regex.compile(
    r"\s*(?:\\(?:sin|cos|tan|cot|sec|csc|log|ln|lg|exp|arcsin|arccos|arctan)(?:_\{?[0-9A-Za-z]+\}?)?(?:\^\{?-?[0-9]\}?)?\s*)?"
    r"(?:" + _ONE_NAME + r"|\\(?:bar|hat|tilde|vec|overline|dot|ddot|widehat|underline)\s*\{\s*" + _ONE_NAME + r"\s*\}'*"
    r"|\\lfloor\s*" + _ONE_NAME + r"\s*\\rfloor|\\lceil\s*" + _ONE_NAME + r"\s*\\rceil|\|\s*" + _ONE_NAME + r"\s*\|"
    r"|" + _ONE_NAME + r"(?:\^\{-1\})?\s*\([^A-Za-z()]{1,20}\)|\\angle\s*" + _ONE_NAME + r"|\(\s*" + _ONE_NAME + r"\s*\))\s*")


def _operates_on_one_name(side: str) -> bool:
    """``\\sqrt x``, ``\\frac{x}{2}``, ``x^{1/2}``, ``x \\cdot x^2``, ``x + x``: a side with one name in it that is no form
    of it a question asks for states the value of an expression of the unknown, not the unknown's."""
    side = side.replace("&", " ")  # "x &= 5": an alignment mark
    names = set(_NAME_TOKEN_RE.findall(_NOT_A_NAME_RE.sub(" ", side, timeout=REGEX_TIMEOUT_S), timeout=REGEX_TIMEOUT_S))
    if len(names) != 1 or NAME_RE.fullmatch(side, timeout=REGEX_TIMEOUT_S) or _ONE_NAME_FORM_RE.fullmatch(side, timeout=REGEX_TIMEOUT_S):
        return False
    # a sum of different terms of the name is a quantity questions ask for ("x^2 + \\frac{1}{x^2}"); "x + x" is not
    terms = ["".join(t.split()) for part in split_top_level(side, "+") for t in split_top_level(part, "-") if t.strip()]
    return len(terms) < 2 or len(set(terms)) < 2


def is_constant_side(side: str) -> bool:
    """No variables: only numbers, operators and commands (\\pi, \\sqrt, \\sum_{k=1}^{10} k is not)."""
    if _BOUND_VARIABLES_RE.search(side, timeout=REGEX_TIMEOUT_S):
        return True  # its variables are bound; the sandbox evaluates the side
    if any(_greek_variable(m[1]) for m in _COMMAND_NAME_RE.finditer(side, timeout=REGEX_TIMEOUT_S)):
        return False  # "\\theta = 60^\\circ": a Greek letter other than pi names a quantity
    bare = _COMMAND_OR_TEXT_RE.sub(" ", side, timeout=REGEX_TIMEOUT_S)
    return not _VARIABLE_LETTER_RE.search(bare, timeout=REGEX_TIMEOUT_S)  # e and i are constants


_COMMAND_NAME_RE = regex.compile(r"\\([A-Za-z]+)")


def _greek_variable(name: str) -> bool:
    """Whether a TeX command is a Greek letter (``theta``, ``varphi``, ``Omega``) other than pi, as the Unicode
    character names say: TeX's Greek commands are the letters' Unicode names."""
    import unicodedata

    letter = name[3:] if name.startswith("var") else name
    if letter.lower() == "pi" or not letter.isalpha():
        return False
    case = "CAPITAL" if letter[0].isupper() else "SMALL"
    try:
        unicodedata.lookup(f"GREEK {case} LETTER {letter.upper().replace('LAMBDA', 'LAMDA')}")  # Unicode's spelling
    except KeyError:
        return False
    return True


# (a power of a name is still a name's: "a^2 + b^2", "x_1^2 + x_2^2", "\\sin^2 x" are quantities questions ask for)
_BRACKETED_RE = regex.compile(r"_\{[^{}]*\}|_[A-Za-z0-9]|\^\{[^{}]*\}|(?<=[A-Za-z0-9})\]])\^[0-9]|\([^()]*\)|\[[^\[\]]*\]|\{[^{}]*\}")


def names_a_quantity(side: str) -> bool:
    """``m + n``, ``E[X]``, ``\\Pr(X=1)``, ``a_1 + a_2``, ``f(2)``: an expression of names that the
    question asks for (AIME's "find m + n"). A number outside brackets and subscripts (``3y``, ``x + 1``)
    makes it another quantity than the answer."""
    if len(side) > 60 or side.lstrip().startswith("-") or _operates_on_one_name(side):
        return False  # "\\sqrt{x} = 42", "\\frac{1}{x} = 42", "x^{-1} = 42", "-f(2) = 42": not the value of the name
    bare = side
    for _ in range(3):  # nested brackets, innermost first
        bare = _BRACKETED_RE.sub(" ", bare, timeout=REGEX_TIMEOUT_S)
    bare = _COMMAND_OR_TEXT_RE.sub(" x ", bare, timeout=REGEX_TIMEOUT_S)
    return not _DIGIT_RE.search(bare, timeout=REGEX_TIMEOUT_S) and bool(_LATIN_RE.search(bare, timeout=REGEX_TIMEOUT_S))


_OR_WORD_RE = regex.compile(alternation(OR_WORDS))
_BRACKETED_PART_RE = regex.compile(r"\([^()]*\)|\[[^\[\]]*\]|\{[^{}]*\}|\|[^|]*\|")  # a quantity's own argument


def quantity_rhs(clean: str) -> str | None:
    """``m + n = 12`` -> ``12``: the value an equation states for a named quantity; ``None`` otherwise."""
    sides = split_top_level(clean, "=")
    if len(sides) != 2 or not sides[1].strip() or not sides[0].strip():
        return None
    lhs = sides[0]
    if is_constant_side(lhs) or len(split_top_level(lhs, ",")) > 1 or _OR_WORD_RE.search(
            _BRACKETED_PART_RE.sub(" ", lhs, timeout=REGEX_TIMEOUT_S), timeout=REGEX_TIMEOUT_S):
        # "\\sum_{k=1}^{10} k = 56" is a statement to check; "plus or, x = 5" names no one quantity ("P(A or B)" does)
        return None
    if (negated := _negated_term(lhs)) is not None:
        if NAME_RE.fullmatch(negated, timeout=REGEX_TIMEOUT_S) or names_a_quantity(negated):
            return f"-({sides[1].strip()})"  # "-x = 42" states x = -42, "-f(2) = 42" states f(2) = -42
        return None
    if NAME_RE.fullmatch(lhs, timeout=REGEX_TIMEOUT_S) or names_a_quantity(lhs):
        return sides[1].strip()
    return None


def _negated_term(side: str) -> str | None:
    """``-f(2)`` -> ``f(2)``: one term under a leading minus; ``None`` for anything else ("-a + b" is two terms)."""
    side = side.strip()
    if not side.startswith("-"):
        return None
    rest = side[1:].strip()
    if not rest or len(split_top_level(rest, "+")) > 1 or len(split_top_level(rest, "-")) > 1:
        return None
    return rest


def equation_problem(clean: str) -> str | None:
    """Why an equation answer does not state the value (``3y = 7`` for gold 7), or ``None``."""
    for item in split_top_level(clean, ","):
        for part in _LIST_SPLIT_RE.split(item, timeout=REGEX_TIMEOUT_S) if "=" in item else ():
            sides = split_top_level(part, "=")
            for side in sides[:-1]:
                if side.strip() and not NAME_RE.fullmatch(side, timeout=REGEX_TIMEOUT_S) and not is_constant_side(side) \
                        and not names_a_quantity(side) and not (len(sides) == 2 and quantity_rhs(part) is not None):
                    return (f"{clean!r} states the value of {side.strip()!r}, not of the answer; "
                            "only a name (x = …) on the left states the value")
    return None


# an approximation sign (rlvr.verifiers.approximations has the words and signs every reader uses)
APPROX = r"\\approx(?![A-Za-z])|≈|\\simeq(?![A-Za-z])|\\doteq(?![A-Za-z])|\\sim(?![A-Za-z])"
_EXACT_THEN_APPROX_RE = regex.compile(r"(.+?)\s*(?:" + APPROX + r")\s*([^=<>]+)")
_APPROX_ONLY_RE = regex.compile(r"(?:" + NAME_RE.pattern + r")?\s*(?:" + APPROX + r")\s*([^=<>≈]+)")


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
    if e is None and is_exact_form(approx.clean) and exact.key != approx.key:
        x, y = simple_value(exact.clean), simple_value(approx.clean)
        if x is None or y is None or abs(x - y) > 1e-9 * max(1.0, abs(x)):
            return answer  # "\\sqrt{2} \\approx \\frac{3}{2}": two exact values (2\\sqrt{3} \\approx \\sqrt{12} is one)
    if e is not None and a is not None and not approximates(approx.clean + ("%" if approx.percent else ""),
                                                            a / 100 if approx.percent else a, e):
        return answer
    if e is None and a is not None and (x := simple_value(exact.clean)) is not None \
            and not approximates(approx.clean + ("%" if approx.percent else ""), a / 100 if approx.percent else a, x):
        return answer  # "\\pi \\approx 4": a simple exact form (a root, pi) held to the approximation's precision
    return exact


def approximation_part(answer: NormalizedAnswer) -> NormalizedAnswer | None:
    """``4\\pi \\approx 12.57`` -> 12.57: the decimal an answer gives beside its exact value, when the two agree at
    the decimal's precision (:func:`exact_part` keeps the exact one); ``None`` for any other answer."""
    m = _EXACT_THEN_APPROX_RE.fullmatch(answer.clean, timeout=REGEX_TIMEOUT_S)
    if not m or NAME_RE.fullmatch(m[1], timeout=REGEX_TIMEOUT_S) or not m[1].strip():
        return None
    exact, approx = normalize_answer(m[1]), normalize_answer(m[2])
    a, x = parse_number(approx.key), simple_value(exact.clean)
    if a is None or x is None or approx.percent or exact.key == approx.key or not approximates(approx.clean, a, x):
        return None
    return approx


_REL = r"(<|>|≤|≥|\\(?:le|leq|ge|geq|lt|gt|leqslant|geqslant)(?![A-Za-z]))"
_EXCLUDED_RE = regex.compile(r"\s*([A-Za-z])\s*(?:\\neq?(?![A-Za-z])|≠|!=)\s*([^<>=≤≥≠]+?)\s*")  # "x \neq 1"
_ONE_SIDED_RE = regex.compile(
    r"\s*+([A-Za-z])\s*" + _REL + r"\s*+([^<>=≤≥]+?)\s*"
    r"|\s*+([^<>=≤≥]+?)\s*" + _REL + r"\s*+([A-Za-z])\s*" + _REL + r"\s*+([^<>=≤≥]+?)\s*")
_OR_SPLIT_RE = regex.compile(r"\s*(?:\\(?:lor|vee)(?![A-Za-z])|" + alternation(OR_WORDS) + r"|\\cup(?![A-Za-z]))\s*")
_LESS = {"<": True, "\\lt": True, "\\le": False, "\\leq": False, "\\leqslant": False, "≤": False}  # strict?
_GREATER = {">": True, "\\gt": True, "\\ge": False, "\\geq": False, "\\geqslant": False, "≥": False}


def _relation_interval(part: str) -> tuple[str, str] | None:
    """``x \\le -1`` -> ``("(-\\infty, -1]", "x")``, ``-1 < x < 1`` -> ``("(-1, 1)", "x")``, ``x \\neq 1`` -> ``("(-\\infty, 1)
    \\cup (1, \\infty)", "x")``; ``None`` for anything but a one-variable inequality."""
    if (bounds := _bounds(part)) is None:
        if excluded := _EXCLUDED_RE.fullmatch(part, timeout=REGEX_TIMEOUT_S):  # every real number but one
            point = excluded[2]
            return f"(-\\infty, {point}) \\cup ({point}, \\infty)", excluded[1]
        return None
    low, low_open, high, high_open, name = bounds
    return _interval(low, low_open, high, high_open), name


def _interval(low: str | None, low_open: bool, high: str | None, high_open: bool) -> str:
    left = "(-\\infty" if low is None else ("(" if low_open else "[") + low
    right = "\\infty)" if high is None else high + (")" if high_open else "]")
    return f"{left}, {right}"


_POINT_RE = regex.compile(r"\s*([A-Za-z])\s*=\s*([^<>=≤≥≠]+?)\s*")


def _point(part: str) -> tuple[str, str] | None:
    m = _POINT_RE.fullmatch(part, timeout=REGEX_TIMEOUT_S)
    return (f"\\{{{m[2]}\\}}", m[1]) if m else None


# a second condition after a comma or "and" ("x < 2, x \\neq 1"): no bound of the first
_ANOTHER_CONDITION_RE = regex.compile(r"(?:,|(?<![A-Za-z\\])and(?![A-Za-z])|\\(?:land|wedge)(?![A-Za-z]))\s*[A-Za-z]\s*(?:[<>=≤≥≠]|\\(?:le|ge|leq|geq|lt|gt|neq?)(?![A-Za-z]))")
_AND_SPLIT_RE = regex.compile(r"\s*(?:\\(?:land|wedge)(?![A-Za-z])|(?<![A-Za-z])and(?![A-Za-z]))\s*")


def _bounds(part: str) -> tuple[str | None, bool, str | None, bool, str] | None:
    """(low, low open, high, high open, name) of a one-variable inequality (``None`` for an unbounded side)."""
    m = _ONE_SIDED_RE.fullmatch(part, timeout=REGEX_TIMEOUT_S)
    if not m or _ANOTHER_CONDITION_RE.search(part, timeout=REGEX_TIMEOUT_S):
        return None
    if m[1]:
        name, op, bound = m[1], m[2], m[3]
        return (None, True, bound, _LESS[op], name) if op in _LESS else (bound, _GREATER[op], None, True, name)
    low, op1, name, op2, high = m[4], m[5], m[6], m[7], m[8]
    if op1 in _LESS and op2 in _LESS:
        return low, _LESS[op1], high, _LESS[op2], name
    if op1 in _GREATER and op2 in _GREATER:
        return high, _GREATER[op2], low, _GREATER[op1], name
    return None


def relations_as_intersection(clean: str) -> str | None:
    """``x > 1 and x < 3`` as the interval ``(1, 3)``: one-variable inequalities joined by "and", ``\\land`` or
    ``\\wedge``, in the same variable and with bounds of known value, are the intersection of their sets
    (``\\emptyset`` for ``x < 1 and x > 3``); ``None`` for anything else."""
    parts = [part.strip(" ,;$") for part in _AND_SPLIT_RE.split(SPACING_RE.sub(" ", clean, timeout=REGEX_TIMEOUT_S),
                                                                  timeout=REGEX_TIMEOUT_S)]
    if len(parts) < 2:
        return None
    read = [_bounds(p) for p in parts]
    if any(r is None for r in read) or len({r[4] for r in read}) != 1:  # type: ignore[index]
        return None
    low, low_open, high, high_open = None, True, None, True
    for lo, lo_open, hi, hi_open, _name in read:  # type: ignore[misc]
        for bound, is_open, low_side in ((lo, lo_open, True), (hi, hi_open, False)):
            if bound is None:
                continue
            value = simple_value(bound)
            if value is None:
                return None
            current = low if low_side else high
            if current is None or (value > current[0] if low_side else value < current[0]) \
                    or (value == current[0] and is_open):
                if low_side:
                    low, low_open = (value, bound), is_open
                else:
                    high, high_open = (value, bound), is_open
    if low is not None and high is not None and (low[0] > high[0] or (low[0] == high[0] and (low_open or high_open))):
        return "\\emptyset"
    return _interval(low and low[1], low_open, high and high[1], high_open)


def relations_as_intervals(clean: str, minimum: int = 2) -> str | None:
    """``x \\le -1 or x \\ge 3`` as ``(-\\infty, -1] \\cup [3, \\infty)``; ``None`` unless every part (at least
    ``minimum`` of them) is a one-variable inequality in the same variable (a solution set written with "or",
    ``\\lor`` or ``\\cup``)."""
    parts = [part.strip(" ,;$") for part in _OR_SPLIT_RE.split(SPACING_RE.sub(" ", clean, timeout=REGEX_TIMEOUT_S),
                                                                   timeout=REGEX_TIMEOUT_S)]
    if len(parts) < minimum:
        return None
    read = [_relation_interval(p) for p in parts]
    if any(r is not None for r in read):  # beside an inequality, "a = 1" is the point {1}: "a \le -2 or a = 1"
        read = [r if r is not None else _point(p) for r, p in zip(read, parts)]
    if any(r is None for r in read) or len({name for _i, name in read}) != 1:  # type: ignore[misc]
        return None
    return " \\cup ".join(interval for interval, _name in read)  # type: ignore[misc]


# a label before "=": a letter with an optional subscript, a word, or a word in \text{} ("x", "a_1", "Maximum",
# "\text{Minimum}", "\mathrm{max}")
_ITEM_LABEL_RE = regex.compile(r"\s*(?:\\(?:text|mathrm|textbf|operatorname)\s*\{\s*(\p{L}[\p{L} ]{0,30}?)\s*\}"
                               r"|(\p{L}{2,30})|([A-Za-z](?:_\{?(?:\\(?:text|mathrm)\s*\{[A-Za-z]+\}|\\?[A-Za-z0-9]+)\}?"
                               r"|\(\s*[A-Za-z0-9+\-]{1,12}\s*\))?))\s*=\s*([^=]+?)\s*")  # … and a value of a function: T(10) = 2
# "Minimum: 1", "\text{Paolo: } 18": an item labelled with a colon, as a list of named values writes it
_COLON_ITEM_RE = regex.compile(r"\s*(?:\\(?:text|mathrm|textbf)\s*\{\s*(\p{L}[\p{L} ]{0,30}?)\s*:\s*\}|(\p{L}[\p{L} ]{0,30}?)\s*:)"
                               r"\s*([^:=]+?)\s*")


_ITEM_JOIN_RE = regex.compile(r"\s*(?:;|\n|(?<![A-Za-z])and(?![A-Za-z])|\\text\s*\{\s*and\s*\})\s*|(?<=[0-9}])\s+(?=\p{L}{2,30}\s*:)")


def colon_labels(clean: str) -> str | None:
    """``Minimum: 1, Maximum: 3`` as ``Minimum = 1, Maximum = 3``: a comma list whose every item names its value
    with a colon (two items or more, each label different); ``None`` for anything else (a ratio ``2:1`` or a time
    has no label)."""
    if ":" not in clean or len(clean) > 400:
        return None
    items = split_top_level(_ITEM_JOIN_RE.sub(",", clean, timeout=REGEX_TIMEOUT_S), ",")
    if len(items) < 2:
        return None
    out = []
    for item in items:
        m = _COLON_ITEM_RE.fullmatch(item, timeout=REGEX_TIMEOUT_S)
        if m is None or not m[3].strip():
            return None
        out.append(((m[1] or m[2]).strip(), m[3].strip()))
    if len({label.lower() for label, _value in out}) != len(out):
        return None
    return ", ".join(f"{label} = {value}" for label, value in out)


def in_stated_order(answer: str, gold: str) -> tuple[str, str] | None:
    """A list whose order the answer commits to (values it names, counts of things it names) against a bare gold
    list of numbers not written in increasing order: both as tuples, so that they compare in order (a named value
    swapped with another is wrong, and sorting the values is no way around the names). ``None`` where the gold is
    written increasing (a set, in any order) or is no bare list of numbers."""
    g = gold.strip()
    if g.startswith("(") and g.endswith(")") and len(split_top_level(g[1:-1], ",")) >= 2 \
            and all(simple_value(item) is not None for item in split_top_level(g[1:-1], ",")):
        return f"({answer})", g  # a tuple gold is in order already
    items = split_top_level(g, ",")
    if len(items) < 2 or g.startswith(("(", "[", "\\{", "\\left")):
        return None
    values = [simple_value(item) for item in items]
    if any(v is None for v in values) or all(x < y for x, y in zip(values, values[1:])):  # type: ignore[operator]
        return None
    return f"({answer})", f"({g})"


_VALUE_WORD_RE = regex.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}")


def named_values_only(text: str) -> bool:
    """Whether ``text`` is only values named one by one (``Minimum: 1, Maximum: 3``): labels of at most three words,
    values with no word in them (a macro is no word)."""
    named = colon_labels(text)
    return named is not None and all(
        len(label.split()) <= 3 and not _VALUE_WORD_RE.search(value, timeout=REGEX_TIMEOUT_S)
        for label, _eq, value in (item.partition(" = ") for item in split_top_level(named, ",")))


def labelled_values(clean: str) -> list[tuple[str, str]] | None:
    """``Maximum = 2, \\text{Minimum} = 1`` -> ``[("maximum", "2"), ("minimum", "1")]``: a comma list whose every
    item gives one labelled value, each label different; ``None`` for anything else."""
    items = split_top_level(clean, ",")
    out = _labelled_items(items) if len(items) >= 2 else None
    return out if out is not None and len({label for label, _value in out}) == len(out) else None


def _labelled_items(items: list[str]) -> list[tuple[str, str]] | None:
    """(label, value) of each item, or ``None`` when one item labels no value."""
    out = []
    for item in items:
        m = _ITEM_LABEL_RE.fullmatch(item, timeout=REGEX_TIMEOUT_S)
        if m is None or not m[4].strip():
            return None
        out.append(((m[1] or m[2] or m[3]).strip().lower(), m[4].strip()))
    return out


_MOST_LABELLED = 32
_SOLUTIONS_JOINED_RE = regex.compile(r"\s*(?:;|\\lor(?![A-Za-z])|\bor\b|\band\b)\s*")


def labelled_solutions(clean: str) -> list[list[tuple[str, str]]] | None:
    """``p=5, q=2; p=7, q=2`` (or ``x=1, y=2 \\text{ or } x=2, y=1``, read as ``p=5,q=2,p=7,q=2``) -> two groups,
    ``[[("p", "5"), ("q", "2")], [("p", "7"), ("q", "2")]]``: several solutions, each naming every label once (in
    any order); ``None`` for anything else (a single solution is :func:`labelled_values`)."""
    items = split_top_level(_SOLUTIONS_JOINED_RE.sub(",", clean, timeout=REGEX_TIMEOUT_S), ",")
    if not 4 <= len(items) <= _MOST_LABELLED:
        return None  # (a list of more solutions is compared as written: tuples of tuples cost a comparison each)
    pairs = _labelled_items(items)
    if pairs is None:
        return None
    names = {label for label, _value in pairs}
    size = len(names)
    if size < 2 or len(pairs) % size or len(pairs) == size:
        return None
    groups = [pairs[i:i + size] for i in range(0, len(pairs), size)]
    return groups if all({label for label, _v in g} == names for g in groups) else None  # any order within each


_LEAST_RE = regex.compile(r"(?i)min|least|smallest|lowest|lower")
_MOST_RE = regex.compile(r"(?i)max|greatest|largest|biggest|highest|upper")


def labels_contradicted(named: list[tuple[str, str]]) -> bool:
    """Whether labelled values contradict their labels: the value called least (``N_{\\min}``, "Minimum",
    "smallest") is above the one called greatest ("N_min = 7500, N_max = 2500"), so the list is no answer."""
    from rlvr.verifiers.numbers import parse_number

    least = [parse_number(v.replace(" ", "")) for label, v in named if _LEAST_RE.search(label, timeout=REGEX_TIMEOUT_S)]
    most = [parse_number(v.replace(" ", "")) for label, v in named if _MOST_RE.search(label, timeout=REGEX_TIMEOUT_S)]
    return any(a is not None and b is not None and a > b for a in least for b in most)


# {x | -1 < x < 1}, \{x \mid x > 2\}, \{x : x \le 0\}: one variable and one condition on it
_SET_BUILDER_RE = regex.compile(r"\s*\\\{\s*([A-Za-z])\s*(?:\\mid|\\vert|\||:|\\colon)\s*(.+?)\s*\\\}\s*")


def set_builder_interval(clean: str) -> str | None:
    """``\\{x \\mid -1<x<1\\}`` -> ``(-1, 1)``: a set written by a condition on one variable that is an inequality
    in it (or several joined by "or"), as the interval it is; ``None`` otherwise."""
    m = _SET_BUILDER_RE.fullmatch(clean, timeout=REGEX_TIMEOUT_S)
    removed = None
    if (m is None or "\\}" in m[2]) and (minus := _SET_MINUS_RE.fullmatch(clean, timeout=REGEX_TIMEOUT_S)) is not None:
        m, removed = _SET_BUILDER_RE.fullmatch(minus[1], timeout=REGEX_TIMEOUT_S), minus[2]  # "\{x | x < 2\} - \{-6\}"
    if m is None or "\\{" in m[2] or "\\}" in m[2]:  # a set inside the condition: not one of inequalities
        return None
    condition = regex.sub(r"\\(?:text|mathrm)\s*\{\s*(or|and)\s*\}", r" \1 ", m[2], timeout=REGEX_TIMEOUT_S)
    intervals = relations_as_intervals(condition, minimum=1)
    if intervals is None or _relation_interval(_OR_SPLIT_RE.split(condition, timeout=REGEX_TIMEOUT_S)[0])[1] != m[1]:
        intervals = _conditions_together(condition, m[1])
    if intervals is None or (removed is not None and "\\cup" in intervals):
        return None
    return intervals if removed is None else f"{intervals} \\setminus {removed}"


# a set-builder set less a finite set: "\{x \mid x < 2\} - \{-6\}", "… \setminus \{0\}"
_SET_MINUS_RE = regex.compile(r"(.+?\\\})\s*(?:-|\\setminus(?![A-Za-z])|\\backslash(?![A-Za-z]))\s*(\\\{[^{}<>=]{1,80}\\\})\s*")
_CONDITION_SPLIT_RE = regex.compile(r"\s*(?:,|;|\\(?:land|wedge)(?![A-Za-z])|(?<![A-Za-z])and(?![A-Za-z]))\s*")


def _conditions_together(condition: str, name: str) -> str | None:
    """``x < \\frac32, x \\neq -6`` (conditions that must all hold, joined by commas or "and") as the interval they
    leave, less the points they exclude; ``None`` unless each is an inequality in ``name`` or excludes a point."""
    parts = [p for p in _CONDITION_SPLIT_RE.split(condition, timeout=REGEX_TIMEOUT_S) if p.strip()]
    if len(parts) < 2 or len(parts) > 6:
        return None
    bounded, points = [], []
    for part in parts:
        if (excluded := _EXCLUDED_RE.fullmatch(part, timeout=REGEX_TIMEOUT_S)) is not None and excluded[1] == name:
            points.append(excluded[2].strip())
        elif (bounds := _bounds(part)) is not None and bounds[4] == name:
            bounded.append(part)
        else:
            return None
    if not bounded:
        return None
    interval = relations_as_intersection(" and ".join(bounded)) if len(bounded) > 1 else _relation_interval(bounded[0])[0]
    if interval is None:
        return None
    return interval if not points else f"{interval} \\setminus \\{{{', '.join(points)}\\}}"


_DEFINITION_RE = regex.compile(r"\s*([A-Za-z])\s*\(\s*([A-Za-z])\s*\)\s*=\s*(.+)")
_GRAPH_RE = regex.compile(r"\s*([yY])\s*=\s*(.+)")


def renamed_definition(answer: str, gold: str) -> str | None:
    """``f(z) = z^2`` against the gold ``f(x) = x^2``: the answer's definition written in the gold's variable
    (a function does not depend on its variable's name); ``None`` unless both define the same function of
    one variable and the names differ."""
    a, g = _DEFINITION_RE.fullmatch(answer, timeout=REGEX_TIMEOUT_S), _DEFINITION_RE.fullmatch(gold, timeout=REGEX_TIMEOUT_S)
    if a is None and g is not None and (y := _GRAPH_RE.fullmatch(answer, timeout=REGEX_TIMEOUT_S)) \
            and y[1] not in (g[1], g[2]) and not regex.search(rf"(?<![\\A-Za-z]){y[1]}(?![A-Za-z])", y[2], timeout=REGEX_TIMEOUT_S):
        return f"{g[1]}({g[2]}) = {y[2]}"  # "y = 2x + 3" against "f(x) = 2x + 3": the function's graph, named y
    if a is None or g is None or a[1] != g[1] or a[2] == g[2]:
        return None
    old, new = a[2], g[2]
    body = a[3]
    if regex.search(rf"(?<![\\A-Za-z]){new}(?![A-Za-z])", body, timeout=REGEX_TIMEOUT_S):
        return None  # the gold's variable already stands in the answer: renaming would merge two names
    renamed = regex.sub(rf"(?<![\\A-Za-z]){old}(?![A-Za-z])", new, body, timeout=REGEX_TIMEOUT_S)
    return f"{a[1]}({new}) = {renamed}"
