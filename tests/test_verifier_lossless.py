"""The lossless check against math-verify itself: a known macro keeps its meaning, an unknown one
would have been dropped, so refusing it is what stops "the parser dropped it" hacks.

math-verify runs here as the verifier's sandbox worker runs it (``rlvr.verifiers._worker``), in
this process because these are trusted test strings.
"""

from __future__ import annotations

import logging

import pytest

from rlvr.verifiers import verify
from rlvr.verifiers.lossless import KNOWN_MACROS, unread_part

pytest.importorskip("math_verify")

# macros that only format, or that rlvr's normalisation reads before the parser sees them
_FORMATTING = {"text", "mathrm", "mathbf", "mathit", "textbf", "textit", "textrm", "textnormal", "operatorname",
               "mbox", "displaystyle", "textstyle", "quad", "qquad", "left", "right", "bigl", "bigr", "Bigl", "Bigr",
               "big", "Big", "bigg", "Bigg", "limits", "hline", "begin", "end", "vert", "lvert", "rvert", "Vert",
               "lVert", "rVert", "colon", "cdotp", "ldots", "cdots", "dots", "vdots", "ddots", "circ", "degree",
               "prime", "mathbb", "overline", "langle", "rangle", "approx", "sim", "equiv", "mod", "bmod", "pmod",
               "infinity", "lfloor", "rfloor", "lceil", "rceil", "to", "lim", "int", "iint", "sum", "prod",
               "setminus", "subset", "subseteq", "notin", "in", "cup", "cap", "emptyset", "varnothing", "angle",
               "triangle", "floor", "ceil", "det", "lg", "choose", "dbinom", "tbinom", "cfrac", "max", "min", "gcd", "lcm"}


@pytest.fixture(scope="module")
def parse():
    from rlvr.verifiers.symbolic import Comparer

    logging.disable(logging.CRITICAL)
    comparer = Comparer()
    yield comparer.parse
    logging.disable(logging.NOTSET)


def _shown(values) -> str:
    return str(values[0]) if values else "<nothing>"


@pytest.mark.parametrize("macro", sorted(KNOWN_MACROS - _FORMATTING))
def test_a_known_macro_keeps_its_meaning(parse, macro):
    probes = [parse(f"2 \\{macro} 3"), parse(f"\\{macro}{{3}}"), parse(f"\\{macro}{{2}}{{3}}")]
    dropped = {_shown(parse("2 3")), _shown(parse("3")), _shown(parse("2")), _shown(parse("2 3")), "<nothing>"}
    assert any(_shown(p) not in dropped for p in probes), f"math-verify reads \\{macro} as nothing: {probes}"


@pytest.mark.parametrize("answer", [
    "x \\succcurlyeq 7", "3 \\nmid 7", "7 \\mid 7", "\\partial 7", "\\deg 7", "\\arg 7", "\\hat 7", "\\neg 7",
    "x ≽ 7", "3 乘 7", "7 \\text{ is wrong}", "x \\overset{?}{=} 7",
])
def test_what_the_parser_would_drop_is_refused(answer):
    assert unread_part(answer) is not None
    v = verify(f"The answer is $\\boxed{{{answer}}}$.", "7")
    assert v.status == "unparseable_answer" and v.rule == "compare.unread", v


def test_alternatives_joined_by_another_languages_or_are_no_answer():
    v = verify("The answer is $\\boxed{3 或 7}$.", "7")  # read before the parser could drop the 3
    assert v.status == "incorrect" and v.rule == "compare.or_in_answer", v


@pytest.mark.parametrize("answer,gold", [
    ("\\frac{\\sqrt{3}}{2}", "\\frac{\\sqrt3}{2}"), ("x \\in [2, 5)", "[2,5)"), ("2 \\le x < 5", "[2,5)"),
    ("\\{1, 2\\}", "1, 2"), ("e^{i\\pi}", "-1"), ("\\binom{5}{2}", "10"), ("\\log_2 8", "3"), ("\\sin^2 x + \\cos^2 x", "1"),
    ("\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "(1, 2)"), ("5\\ \\text{cm}", "5"), ("\\infty", "\\infty"),
])
def test_what_the_parser_reads_is_compared(answer, gold):
    assert unread_part(answer) is None
    assert verify(f"$\\boxed{{{answer}}}$", gold).correct
