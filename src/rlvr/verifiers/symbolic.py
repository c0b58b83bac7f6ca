"""Symbolic comparison with math-verify and sympy: what only a sandbox worker runs.

:class:`Comparer` parses golds once (a cache bounded by bytes) and decides whether an answer equals
a gold: a quick check of plain expressions first (expansion, sample points), then math-verify's
``verify`` with strict settings, then the numeric and equation checks math-verify lacks (rounding
is not equality, a false side of an equation chain). Imported only inside
:mod:`rlvr.verifiers._worker`: untrusted text is parsed by sympy nowhere else.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import regex

from rlvr.verifiers.cache import ByteLRU
from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.numbers import LONG_GOLD_DIGITS, SHORT_GOLD_DIGITS, exact_rounds_to_gold

__all__ = ["Comparer"]

_GOLD_CACHE_BYTES = 48 * 1024 * 1024
# what a parsed gold holds beside its text: sympy trees take tens of bytes per character of LaTeX
_PARSED_BYTES_PER_CHAR = 48


class Comparer:
    """Parses golds once (bounded cache) and compares answers against them."""

    def __init__(self) -> None:
        from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse, verify

        self._parse = parse
        self._verify = verify
        from latex2sympy2_extended.latex2sympy2 import NormalizationConfig

        # LaTeX first, then plain expressions ("x**2 + 1") apart: math-verify's expression reader takes the last number
        # of a text it cannot read ("41 ? 42", "41 -> 42" are 42), so its reading counts only when it is the whole text
        self._configs = [LatexExtractionConfig(boxed_match_priority=0)]
        self._plain = [ExprExtractionConfig()]
        # math-verify's unit stripping drops a letter that spells a unit after the last term ("n + m", "3 o"): where
        # the text has other variables, that letter is a variable too, and the parser is given it with units off
        unitless = NormalizationConfig(basic_latex=True, units=False, malformed_operators=True, nits=True, boxed="all",
                                       equations=False)
        self._variable_configs = [LatexExtractionConfig(boxed_match_priority=0, normalization_config=unitless)]
        self._golds = ByteLRU("parsed golds", _GOLD_CACHE_BYTES)

    def clear(self) -> None:
        self._golds.clear()

    def parse(self, text: str) -> list[Any]:
        """Parsed forms of ``text``; empty when math-verify only echoes the string back.

        Boxing the (already extracted) text makes math-verify take all of it as one answer. A result
        holding nothing but the input string means the LaTeX did not parse (string equality was
        already tried before the sandbox).
        """
        # raise_on_error=True: math-verify otherwise swallows MemoryError too, turning the memory cap
        # into a silent "does not parse"; other errors do mean the text does not parse.
        text = _as_parser_reads(text)
        try:
            configs = self._variable_configs if _ends_in_variable(text) else self._configs
            parsed = self._parse("\\boxed{" + text + "}", extraction_config=configs,
                                 parsing_timeout=None, raise_on_error=True)
            if not any(not isinstance(p, str) for p in parsed) and "!" not in text:  # "11!!!" would be evaluated
                parsed = self._parse("\\boxed{" + text + "}", extraction_config=self._plain,
                                     parsing_timeout=None, raise_on_error=True)
                read = next((p for p in parsed if isinstance(p, str)), "")
                if "".join(read.split()) != "".join(text.split()):
                    return []  # the expression reader took a fragment: "42" of "41 ? 42"
        except (MemoryError, RecursionError):
            raise
        except Exception:
            return []
        if not any(not isinstance(p, str) for p in parsed):
            return []
        if _partial_number(parsed[0], text):
            return []
        return parsed

    def gold(self, text: str) -> list[Any]:
        parsed = self._golds.get(text)
        if parsed is None:
            parsed = self.parse(text)
            self._golds.put(text, parsed, size=256 + _PARSED_BYTES_PER_CHAR * len(text))
        return parsed

    def compare(self, answer: str, gold: str, abs_tol: float, rel_tol: float, gold_percent: bool = False) -> tuple[str, str]:
        """``gold_percent``: the gold is a percentage the policy lets stand for its fraction (41.4 for 41.4%), so an
        exact answer may be the fraction that gold rounds (sqrt(2) - 1)."""
        gold_parsed = self.gold(gold)
        if not gold_parsed:
            return "unparseable_gold", f"math-verify could not parse the gold answer {gold!r}"
        if _undefined(gold_parsed[0]):
            return "unparseable_gold", f"the gold answer {gold!r} is undefined (a division by zero or NaN): fix the data"
        answer_parsed = self.parse(answer)
        if not answer_parsed:
            return "unparseable_answer", f"math-verify could not parse the answer {answer!r}"
        gold_parsed, answer_parsed = _imaginary_unit(gold_parsed), _imaginary_unit(answer_parsed)
        if _exact_value_of_decimal_gold(answer_parsed[0], gold) \
                or (gold_percent and _exact_value_of_decimal_gold(answer_parsed[0], gold + "%")):
            return "correct", (f"{answer!r} is the exact value gold {gold!r} rounds (a decimal of {SHORT_GOLD_DIGITS} "
                               f"or more significant digits at its places, {LONG_GOLD_DIGITS} or more within its last digit)")
        named = _named_values(gold_parsed[0], answer_parsed[0])
        if named is False:
            return "incorrect", f"{answer!r} gives the value of another quantity than gold {gold!r}"
        if named is not None:
            gold_parsed, answer_parsed = [named[0]], [named[1]]
        quick = _quick_expression_check(gold_parsed[0], answer_parsed[0], exact=not (abs_tol or rel_tol))
        if quick is not None:
            return ("correct" if quick[0] else "incorrect"), f"{answer!r} {quick[1]} gold {gold!r}"
        kinds = {_kind(gold_parsed[0]), _kind(answer_parsed[0])}
        if "finite" in kinds and kinds & {"interval", "relation"}:
            # math-verify calls {2, 5} equal to the interval (2, 5) and to "2 < x < 5": values are no range
            return "incorrect", f"{answer!r} and gold {gold!r}: a set of values against an interval or inequality"
        unequal = _unequalities(gold_parsed[0], answer_parsed[0])
        if unequal is not None:
            return ("correct" if unequal else "incorrect"), (f"{answer!r} {'excludes' if unequal else 'does not exclude'} "
                                                            f"what gold {gold!r} excludes")
        # allow_set_relation_comp: `x < 3` answers the interval `(-\infty, 3)` and vice versa
        try:
            equal = self._verify(gold_parsed, answer_parsed, strict=True, allow_set_relation_comp=True,
                                 timeout_seconds=None, raise_on_error=True)
        except (MemoryError, RecursionError):
            raise
        except Exception as exc:  # a crash is not a wrong answer: report it as such
            return "error", (f"comparing {answer!r} with gold {gold!r} raised {type(exc).__name__}: "
                             f"{str(exc)[:160]}")
        g, a = gold_parsed[0], answer_parsed[0]
        numeric = _both_numbers(g, a)
        if equal and numeric and not _numerically_equal(g, a, 0.0, 0.0):
            if (abs_tol or rel_tol) and _numerically_equal(g, a, abs_tol, rel_tol):
                return "correct", f"{answer!r} is within tolerance of gold {gold!r}"  # math-verify's rounding agrees
            return "incorrect", f"{answer!r} equals gold {gold!r} only after rounding, not exactly"
        if equal and "=" not in gold:
            false_side = self._false_side(answer, g)
            if false_side is not None:
                return "incorrect", (f"{answer!r} ends in the gold value but also equates it with {false_side!r}, "
                                     f"which is not gold {gold!r}")
        if equal:
            return "correct", f"{answer!r} is symbolically equivalent to gold {gold!r}"
        if numeric and (abs_tol or rel_tol) and _numerically_equal(g, a, abs_tol, rel_tol):
            return "correct", f"{answer!r} is within tolerance of gold {gold!r}"
        if (solved := _solves_gold_equation(g, a)) is not None:
            return "correct", f"{answer!r} is gold {gold!r} solved for {solved}"
        return "incorrect", f"{answer!r} is not equivalent to gold {gold!r}"

    def _false_side(self, answer: str, g: Any) -> str | None:
        """A constant side of an equation chain that is not the gold (``2+2=5`` against 5).

        math-verify grades ``a = b = c`` by its last side, so a false statement ending in the right
        value would pass; every other side without variables must equal the gold too. Sides with
        variables (``x = 5``, ``f(2) = 5``) name the quantity and are not checked.
        """
        sides = _top_level_sides(answer)
        if len(sides) < 2 or not _is_real_number(g):
            return None
        for side in sides[:-1]:
            parsed = _imaginary_unit(self.parse(side)) if side.strip() else []
            if not parsed:
                continue
            value = parsed[0]
            if _is_real_number(value) and not _numerically_equal(g, value, 0.0, 0.0):
                return side.strip()
        return None


# LaTeX the parser misreads, written as it reads it: a fraction whose denominator is one unbraced character
# ("\frac{1+a}c" does not parse) and a function of one letter before a product sign ("\cot t \cdot \ln 2" is
# cot(t) times ln 2, which the parser would read as cot(t ln 2))
_UNBRACED_DENOMINATOR_RE = regex.compile(r"(\\[dt]?frac\s*\{(?:[^{}]|\{[^{}]*\})*\})\s*([A-Za-z0-9])")
_ARGUMENT_BEFORE_PRODUCT_RE = regex.compile(
    r"(\\(?:sin|cos|tan|cot|sec|csc|ln|log|exp|arcsin|arccos|arctan)(?:\s*\^\s*\{?-?[0-9]\}?)?)\s+([A-Za-z0-9])\s*(?=\\cdot|\\times)")


_TRAILING_LETTERS_RE = regex.compile(r"(?<![\\A-Za-z{~])([A-Za-z]{1,4})\s*$")
_MACRO_RE = regex.compile(r"\\[A-Za-z]+")
_LETTER_RE = regex.compile(r"[A-Za-z]")


def _ends_in_variable(text: str) -> bool:
    """Whether ``text`` ends in bare letters (not a \\text or \\mathrm unit) after other variables: "\\frac{3}{2}n +
    \\frac{1}{2}m" ends in the variable m, "2\\sqrt{5} m" and "4\\sqrt{3} \\mathrm{~cm}" in a unit."""
    m = _TRAILING_LETTERS_RE.search(text, timeout=REGEX_TIMEOUT_S)
    return m is not None and _LETTER_RE.search(_MACRO_RE.sub(" ", text[:m.start()], timeout=REGEX_TIMEOUT_S),
                                               timeout=REGEX_TIMEOUT_S) is not None


def _as_parser_reads(text: str) -> str:
    if "frac" in text:
        text = _UNBRACED_DENOMINATOR_RE.sub(r"\1{\2}", text, timeout=REGEX_TIMEOUT_S)
    if "\\cdot" in text or "\\times" in text:
        text = _ARGUMENT_BEFORE_PRODUCT_RE.sub(r"\1(\2) ", text, timeout=REGEX_TIMEOUT_S)
    return text


def _named_values(g: Any, a: Any) -> tuple[Any, Any] | bool | None:
    """A gold that gives the value of a named quantity, a function at a point (``f(2) = 5``, ``T(10) = 2``): the two
    values to compare when the answer gives that quantity's value or a bare value, ``False`` when it names another
    point (``T(9) = 2``), ``None`` for anything else. math-verify calls ``f(2) = 0`` equal to ``f(2) = 5``."""
    import sympy
    from sympy.core.function import AppliedUndef

    def point(side: Any) -> bool:
        return isinstance(side, AppliedUndef) and all(not arg.free_symbols for arg in side.args)

    if not isinstance(g, sympy.Equality) or not point(g.lhs):
        return None
    if isinstance(a, sympy.Equality):
        if not point(a.lhs):
            return None
        return (g.rhs, a.rhs) if a.lhs == g.lhs else False
    return (g.rhs, a) if isinstance(a, sympy.Expr) and not a.free_symbols else None


def _solves_gold_equation(g: Any, a: Any) -> str | None:
    """The variable a gold equation is solved for when the answer is that solution: ``6/x`` for ``xy = 6``,
    ``-4x^2 + 4x - 2`` for ``y + 1 = -(2x - 1)^2``, ``\\sqrt{3} \\csc\\theta`` for ``\\rho \\sin\\theta = \\sqrt{3}``.
    Only for the one gold variable the answer does not use, only where the equation is linear in it (one solution:
    a quadratic's two roots would make either root an answer), and never for a gold already solved (``y = 2x + 1``
    asks for 2x + 1, not for x); ``None`` otherwise. Sizes are bounded and the solution is compared at sample
    points, so no expansion of a large power runs."""
    import random

    import sympy

    if not isinstance(g, sympy.Equality) or not isinstance(a, sympy.Expr) or isinstance(a, sympy.Equality):
        return None
    if isinstance(g.lhs, sympy.Symbol) or isinstance(g.rhs, sympy.Symbol):
        return None
    missing = g.free_symbols - a.free_symbols
    if len(missing) != 1 or not a.free_symbols <= g.free_symbols or sympy.count_ops(g) + sympy.count_ops(a) > 80:
        return None
    (v,) = missing
    e = g.lhs - g.rhs
    slope = sympy.diff(e, v)
    if slope == 0 or sympy.diff(slope, v) != 0:
        return None
    solution = -e.subs(v, 0) / slope
    rng = random.Random(0)
    symbols = sorted(a.free_symbols | solution.free_symbols, key=lambda s: s.name)
    for _ in range(3):
        point = {s: sympy.Rational(rng.randint(11, 97), rng.randint(3, 13)) for s in symbols}
        try:
            sv, av = solution.subs(point), a.subs(point)
            if sv.is_Rational and av.is_Rational:  # exact at a rational point: "+ 1" beside a power of 30 counts
                if sv != av:
                    return None
                continue
            sc, ac = complex(sv.evalf(60)), complex(av.evalf(60))
        except (TypeError, ValueError, ZeroDivisionError, OverflowError, AttributeError):
            return None
        if any(z != z or abs(z) == float("inf") for z in (sc, ac)) or abs(sc - ac) > 1e-12 * max(abs(sc), abs(ac)):
            return None
    return str(v)


def _kind(value: Any) -> str:
    """What a parsed answer is, for comparing like with like: ``finite`` (a set or list of values),
    ``interval`` (an interval or a union of them), ``relation`` (an inequality, or several joined), ``value``."""
    import sympy

    if isinstance(value, sympy.FiniteSet) and len(value) > 1:
        return "finite"
    if isinstance(value, sympy.Union) and all(isinstance(a, sympy.FiniteSet) for a in value.args):
        return "finite"  # \\{41\\} \\cup \\{42\\}, left unevaluated: a set of values, no range
    if isinstance(value, (sympy.Interval, sympy.Union)) and not isinstance(value, sympy.FiniteSet):
        return "interval"
    if isinstance(value, (sympy.core.relational.Relational, sympy.And, sympy.Or)) and not isinstance(value, sympy.Eq):
        return "relation"
    return "value"


def _unequalities(g: Any, a: Any) -> bool | None:
    """``a \\neq 1`` against ``a \\ne 2``: whether two "≠" statements exclude the same thing, or ``None`` when
    neither side is one. math-verify has no inverse of sympy's Unequality and raises ``KeyError`` on
    it, so these are decided here: equal when their sides differ by the same expression (up to sign)."""
    import sympy

    g_ne, a_ne = isinstance(g, sympy.Ne), isinstance(a, sympy.Ne)
    if not (g_ne or a_ne):
        return None
    if not (g_ne and a_ne):
        # "x ≠ 0" against (-∞, 0) ∪ (0, ∞) or ℝ \ {0}: the one variable's solution set against the set
        ne, other = (g, a) if g_ne else (a, g)
        # only "x ≠ c" (a variable against a number): solving a relation of any degree would cost seconds
        if isinstance(other, sympy.Set) and ((ne.lhs.is_Symbol and ne.rhs.is_number) or (ne.rhs.is_Symbol and ne.lhs.is_number)):
            try:
                return ne.as_set().symmetric_difference(other) == sympy.S.EmptySet
            except (NotImplementedError, TypeError, ValueError):
                return False
        return False  # "≠" against anything else states something else
    dg, da = g.lhs - g.rhs, a.lhs - a.rhs
    return sympy.expand(dg - da) == 0 or sympy.expand(dg + da) == 0


def _imaginary_unit(parsed: list[Any]) -> list[Any]:
    """Read the symbol ``i`` as the imaginary unit, as competition answers write it (``|3+4i| = 5``).

    math-verify parses ``i`` as a plain symbol, so ``i^2`` never equals -1. Applied to both sides, a
    gold that does use ``i`` as a variable still compares equal to the same expression.
    """
    import sympy

    out = []
    for item in parsed:
        if isinstance(item, sympy.Basic):  # math-verify's symbols may carry assumptions: match by name
            units = [s for s in item.free_symbols if getattr(s, "name", None) == "i"]
            if units:
                swap = {u: sympy.I for u in units}
                if isinstance(item, sympy.Equality):  # keep the equation: Eq(e^{i pi}, -1) must not become True
                    item = sympy.Eq(item.lhs.subs(swap), item.rhs.subs(swap), evaluate=False)
                else:
                    item = item.subs(swap)
        out.append(item)
    return out


_COMMAND_RE = None


def _undefined(value: Any) -> bool:
    """sympy's zoo (1/0) or nan, anywhere in a parsed gold."""
    try:
        import sympy

        return isinstance(value, sympy.Basic) and (value.has(sympy.zoo) or value.has(sympy.nan))
    except Exception:
        return False


def _partial_number(value: Any, text: str) -> bool:
    """math-verify read only a fragment: a bare number out of text that names variables.

    ``Eq(x**2/16 + y**2/12, 1)`` is not LaTeX; math-verify's fallback then extracts the last number
    (``1``) and the answer would equal any gold 1. A plain number parsed from text with letters
    outside commands and ``\\text{}`` (e, i and E excepted) did not parse as a whole.
    """
    import re

    import sympy

    global _COMMAND_RE
    if not isinstance(value, sympy.Number):
        return False
    if _COMMAND_RE is None:
        _COMMAND_RE = re.compile(r"\\(?:text|mathrm|textbf|mbox|operatorname)\s*\{[^{}]*\}|\\[A-Za-z]+")
    letters = re.sub(r"[^A-Za-z]", "", _COMMAND_RE.sub("", text))
    return bool(letters.strip("eiE"))


def _top_level_sides(text: str) -> list[str]:
    """``text`` split at ``=`` signs outside braces and brackets (``\\sum_{k=1}`` stays whole)."""
    from rlvr.verifiers.normalize import split_top_level

    if "\\equiv" in text and "mod" not in text:
        text = text.replace("\\equiv", "=")  # "41 \\equiv 43" with no modulus is read as math-verify reads it: 41 = 43
    if any(r in text for r in ("<", ">", "\\le", "\\ge", "\\ne", "\\approx", "\\equiv", ":=")):
        return [text]
    return split_top_level(text, "=")


def _exact_value_of_decimal_gold(a: Any, gold: str) -> bool:
    """Whether the exact constant ``a`` (pi, sqrt(2), e, 10/3) is the value a decimal gold rounds: at the gold's places
    for three or more significant digits (sqrt(2) - 1 for 41.4%), within its last digit for eight or more
    ("3.14159265" for pi, rounded or truncated). See :func:`exact_rounds_to_gold`."""
    import sympy

    key = gold.strip().strip("$").replace(" ", "")
    if not isinstance(a, sympy.Expr) or a.free_symbols or a.has(sympy.Float) or len(key) > 60 or "." not in key:
        return False
    try:
        value = complex(sympy.N(a, 40))
        if value.imag != 0 or value.real != value.real or abs(value.real) == float("inf"):
            return False
        rational = bool(a.is_rational)
        exact = Fraction(int(a.p), int(a.q)) if rational and isinstance(a, sympy.Rational) else Fraction(str(sympy.N(a, 40)))
    except (TypeError, ValueError, ZeroDivisionError, OverflowError, AttributeError):
        return False
    return exact_rounds_to_gold(exact, key, irrational=not rational)


def _quick_expression_check(g: Any, a: Any, exact: bool = True) -> tuple[bool, str] | None:
    """Decide cheaply for two plain expressions, before math-verify's ``simplify`` (~10 ms a pair).

    (True, why) when ``expand(g - a)`` is 0; (False, why) when exactly one side has free symbols,
    or when the two differ clearly at random sample points (a different function cannot be
    equivalent); ``None`` when unsure (math-verify decides).
    """
    import random

    import sympy

    if not (isinstance(g, sympy.Expr) and isinstance(a, sympy.Expr)):
        return None
    if g.has(sympy.Float) or a.has(sympy.Float):
        return None  # decimals: leave rounding rules to the numeric checks
    fg, fa = g.free_symbols, a.free_symbols
    if not fg and not fa:
        if not exact:
            return None  # a tolerance applies: the numeric checks after math-verify decide
        try:  # two constants that differ at 30 digits cannot be equal (skips simplify)
            gv, av = complex(sympy.N(g, 30)), complex(sympy.N(a, 30))
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            return None
        if any(z != z or abs(z) == float("inf") for z in (gv, av)):
            return None
        if abs(gv - av) > 1e-12 * max(1.0, abs(gv), abs(av)):
            return False, "differs numerically from"
        return None
    if bool(fg) != bool(fa):
        if fa and _constant_in_disguise(a):
            return None  # cosh^2 t - sinh^2 t is 1: let math-verify simplify it
        return False, "has variables where there are none in" if fa else "is a constant, unlike"
    if sympy.expand(g - a) == 0:
        return True, "expands to"
    symbols = sorted(fg | fa, key=lambda s: s.name)
    rng = random.Random(0)
    differing = 0
    for _ in range(3):
        point = {s: sympy.Rational(rng.randint(11, 97), rng.randint(3, 13)) for s in symbols}
        try:
            gv, av = complex(g.evalf(30, subs=point)), complex(a.evalf(30, subs=point))
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            return None
        if any(map(lambda z: z != z or abs(z) == float("inf"), (gv, av))):
            return None
        scale = max(1.0, abs(gv), abs(av))
        if abs(gv - av) > 1e-9 * scale:
            differing += 1
    return (False, "differs at sample points from") if differing == 3 else None


def _constant_in_disguise(expr: Any) -> bool:
    """Whether an expression with variables takes one value at three sample points (an identity)."""
    import random

    import sympy

    rng = random.Random(1)
    values = []
    for _ in range(3):
        point = {s: sympy.Rational(rng.randint(11, 97), rng.randint(3, 13)) for s in expr.free_symbols}
        try:
            values.append(complex(expr.evalf(30, subs=point)))
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            return True  # cannot tell: let math-verify decide
    try:
        return all(abs(v - values[0]) <= 1e-9 * max(1.0, abs(values[0])) for v in values)
    except OverflowError:  # values too large to subtract as floats: cannot tell
        return True


def _is_real_number(x: Any) -> bool:
    """A constant sympy expression that is not known to be complex (``2+3``, ``\\sqrt{2}``)."""
    import sympy

    return isinstance(x, sympy.Expr) and bool(x.is_number) and x.is_real is not False


def _both_numbers(g: Any, a: Any) -> bool:
    return _is_real_number(g) and _is_real_number(a)


def _numerically_equal(g: Any, a: Any, abs_tol: float, rel_tol: float) -> bool:
    """High-precision comparison; floats in either side allow a 1e-12 relative slack."""
    import sympy

    gv, av = sympy.N(g, 60), sympy.N(a, 60)
    if not (gv.is_real and av.is_real):
        return _decided(sympy.Abs(gv - av) < sympy.Float("1e-40"))
    try:
        diff = abs(gv - av)
        scale = max(abs(gv), abs(av), sympy.Integer(1))
        has_float = bool(g.atoms(sympy.Float) or a.atoms(sympy.Float))
        slack = (sympy.Float("1e-12") if has_float else sympy.Float("1e-40")) * scale
        return _decided(diff <= max(slack, sympy.Float(abs_tol), sympy.Float(rel_tol) * abs(gv)))
    except TypeError:  # max() of values sympy cannot order: not shown equal
        return False


def _decided(relation: Any) -> bool:
    """True only for a comparison sympy settles as true; one it cannot decide (a symbol left in
    ``\\frac11%\\frac``) is not evidence of equality."""
    import sympy

    return relation is sympy.true or relation is True
