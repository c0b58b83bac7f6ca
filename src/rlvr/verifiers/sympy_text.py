"""Values written as sympy or Python print them, read as LaTeX by their text alone (never evaluated).

``sqrt(2)/2``, ``log(2)``, ``Rational(1, 3)``, ``oo``, ``Interval(0, 1)``, ``FiniteSet(1, 2)``, ``E**2``:
golds of some data sets and answers of some models are sympy's printout. Each call is rewritten
innermost first; sympy's ``log`` is the natural logarithm.
"""

from __future__ import annotations

import regex

from rlvr.verifiers.brackets import split_top_level
from rlvr.verifiers.limits import REGEX_TIMEOUT_S

__all__ = ["sympy_text"]


# sympy's and Python's spelling of constants and functions in plain-text golds: 13*pi*R^2, ln(a)*a^x


_SYMPY_CALL_RE = regex.compile(r"(?<![A-Za-z\\])(sqrt|log|ln|exp|sin|cos|tan|asin|acos|atan|Abs|Rational|Interval|"
                               r"FiniteSet|Integer|Float)\(")
# E is Euler's number only inside an expression ("E**2", "2*E"); alone it is a choice letter
_SYMPY_NAME_RE = regex.compile(r"(?<![A-Za-z\\])(?:(oo|pi)(?![A-Za-z(])|(?<![0-9.])(E)(?=\s*(?:\*\*|\^|[-+*/]))|(?<=[-+*/]\s*)(E)(?![A-Za-z(]))")
_SYMPY_NAMES = {"oo": "\\infty", "E": "e", "pi": "\\pi"}
_SYMPY_LATEX = {"sqrt": "\\sqrt{%s}", "log": "\\ln\\left(%s\\right)", "ln": "\\ln\\left(%s\\right)",
                "exp": "e^{%s}", "sin": "\\sin\\left(%s\\right)", "cos": "\\cos\\left(%s\\right)",
                "tan": "\\tan\\left(%s\\right)", "asin": "\\arcsin\\left(%s\\right)",
                "acos": "\\arccos\\left(%s\\right)", "atan": "\\arctan\\left(%s\\right)", "Abs": "\\left|%s\\right|",
                "Integer": "%s", "Float": "%s", "FiniteSet": "\\{%s\\}"}


def sympy_text(s: str) -> str:
    """A value written as sympy prints it (``sqrt(2)/2``, ``log(2)``, ``Rational(1, 3)``, ``oo``,
    ``Interval(0, 1)``, ``FiniteSet(1, 2)``, ``E**2``) in LaTeX, read by text alone, never evaluated.
    sympy's ``log`` is the natural logarithm."""
    if len(s) > 2000:
        return s
    s = _SYMPY_NAME_RE.sub(lambda m: _SYMPY_NAMES[m[1] or m[2] or m[3]] + " ", s, timeout=REGEX_TIMEOUT_S)
    for _ in range(50):  # innermost call first, so arguments are already LaTeX
        calls = list(_SYMPY_CALL_RE.finditer(s, timeout=REGEX_TIMEOUT_S))
        if not calls:
            break
        done = False
        for m in reversed(calls):
            close = _matching_paren(s, m.end() - 1)
            if close is None:
                continue
            inner = s[m.end():close]
            if _SYMPY_CALL_RE.search(inner, timeout=REGEX_TIMEOUT_S):
                continue
            s = s[:m.start()] + _sympy_call(m[1], inner) + s[close + 1:]
            done = True
            break
        if not done:
            break
    return s


def _matching_paren(s: str, open_at: int) -> int | None:
    depth = 0
    for i in range(open_at, min(len(s), open_at + 2000)):
        depth += (s[i] == "(") - (s[i] == ")")
        if depth == 0:
            return i
    return None


def _sympy_call(name: str, inner: str) -> str:
    args = [a.strip() for a in split_top_level(inner, ",")]
    if name == "Rational" and len(args) == 2:
        return f"\\frac{{{args[0]}}}{{{args[1]}}}"
    if name == "Interval" and len(args) >= 2:
        left_open = any(a.replace(" ", "") in ("True", "left_open=True") for a in args[2:3])
        right_open = any(a.replace(" ", "") in ("True", "right_open=True") for a in args[3:4])
        return f"{'(' if left_open else '['}{args[0]}, {args[1]}{')' if right_open else ']'}"
    if name == "log" and len(args) == 2:
        return f"\\log_{{{args[1]}}}\\left({args[0]}\\right)"
    if name == "FiniteSet":
        return "\\{" + ", ".join(args) + "\\}"
    return _SYMPY_LATEX[name] % inner
