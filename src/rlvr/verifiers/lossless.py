"""Compare an answer only when every part of it means something to the math parser.

math-verify reads LaTeX leniently: it skips macros and symbols it does not know and grades what is
left, so ``x \\succcurlyeq 7``, ``3 \\nmid 7``, ``7 \\text{ is wrong}`` or ``3 oder 7`` would be graded
as if they said 7. :func:`unread_part` runs on the normalised answer before the sandbox and names
the first part the parser would drop: a macro outside :data:`KNOWN_MACROS` (the ones math-verify
maps to sympy with their meaning, checked against math-verify itself by
``tests/test_verifier_lossless.py``), a symbol that is neither ASCII nor a known letter, a word of a
language (the lexicon's words: "oder", "或", "wrong"), or a ``\\text{}`` that is neither a unit nor
an answer word. One check closes the whole "the parser dropped it" family.
"""

from __future__ import annotations

import unicodedata

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S

from rlvr.verifiers.cache import byte_cache
from rlvr.verifiers.lexicon import (
    ALTERNATIVE_WORDS, ANSWER_WORDS, HEDGE_WORDS, LIST_WORDS, NEGATION_WORDS, ORDINAL_SUFFIXES, REJECTION_WORDS,
    RETRACTION_CUES, UNIT_SYMBOLS, UNIT_WORDS,
)

__all__ = ["KNOWN_MACROS", "unread_part"]

#: macros whose meaning math-verify keeps (anything else in an answer is dropped by its parser)
KNOWN_MACROS: frozenset[str] = frozenset("""
frac dfrac tfrac cfrac sqrt binom dbinom tbinom choose left right bigl bigr Bigl Bigr big Big bigg Bigg
cdot times div pm mp le leq ge geq ne neq lt gt leqslant geqslant equiv approx sim cup cap in notin setminus
subset subseteq emptyset varnothing infty infinity pi alpha beta gamma delta epsilon varepsilon zeta eta theta
vartheta iota kappa lambda mu nu xi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta
Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega sin cos tan cot sec csc arcsin arccos arctan arccot arcsec arccsc
sinh cosh tanh coth sech csch log ln lg exp max min gcd lcm floor ceil lfloor rfloor lceil rceil det mod bmod pmod
text mathrm mathbf mathit textbf textit textrm textnormal operatorname mbox displaystyle textstyle quad qquad
circ degree prime ldots cdots dots vdots ddots langle rangle begin end hline sum prod int iint lim limits to
overline angle triangle mathbb vert lvert rvert Vert lVert rVert colon cdotp
""".split())
_ENVIRONMENTS = frozenset({"pmatrix", "bmatrix", "matrix", "vmatrix", "Vmatrix", "array", "cases", "smallmatrix",
                           "aligned", "align", "align*", "split"})
_MACRO_RE = regex.compile(r"\\([A-Za-z]+)")
_ENV_RE = regex.compile(r"\\(?:begin|end)\s*\{([^{}]*)\}")
_TEXT_RE = regex.compile(r"\\(?:text|mathrm|textbf|textit|textrm|textnormal|mbox|operatorname|mathbf|mathit)\s*\{([^{}]*)\}")
_WORD_RE = regex.compile(r"(?<![\\\p{L}])\p{L}{2,}")
# words that are never variables: the languages' own words the lexicon holds, and common prose
_PROSE_WORDS = (frozenset(w.lower() for group in (ALTERNATIVE_WORDS, LIST_WORDS, HEDGE_WORDS, NEGATION_WORDS,
                                                 REJECTION_WORDS, RETRACTION_CUES, ANSWER_WORDS)
                         for w in group for w in w.split() if len(w) >= 2) | frozenset(
    "is are was were be the this that wrong right correct incorrect true false yes no none answer final "
    "then because since so also too than but if else when where which maybe perhaps nope".split())) - {"or", "and"}
# "or" and "and" are read before this check: a list gold takes them as separators, any other gold as alternatives
_ANSWER_WORDS_OK = frozenset(
    "and or none undefined infinity infinite all real numbers number no solution solutions integer integers even odd "
    "prime composite true false yes no impossible exists not exist does dne empty set sets natural rational "
    "irrational positive negative zero one two three four five six seven eight nine ten".split())
_UNITS = frozenset(u.lower() for u in UNIT_WORDS + UNIT_SYMBOLS) | frozenset(ORDINAL_SUFFIXES)
_FUNCTION_WORDS = frozenset(m.lower() for m in KNOWN_MACROS) | frozenset(
    {"sqrt", "frac", "pi", "ln", "log", "exp", "sin", "cos", "tan", "infty", "inf", "nan", "mod", "abs", "max",
     "min", "gcd", "lcm", "floor", "ceil"})

_WORD_OR_NUMBER_RE = regex.compile(r"\p{L}+|[0-9]+")
# a Greek letter is a variable, but four of them written together are a word ("τουλάχιστον 25")
_GREEK_WORD_RE = regex.compile(r"(?<!\p{L})(?:\p{Greek}\p{Mn}*){4,}(?!\p{L})")


def _text_ok(content: str) -> bool:
    words = _WORD_OR_NUMBER_RE.findall(content.lower(), timeout=REGEX_TIMEOUT_S)
    return all(w in _UNITS or w in _ANSWER_WORDS_OK or w.isdigit() or len(w) == 1 for w in words)


@byte_cache(0.02)
def unread_part(clean: str) -> str | None:
    """Why the parser would not read all of ``clean`` (a normalised answer), or ``None``."""
    for m in _ENV_RE.finditer(clean, timeout=0.5):
        if m[1].strip() not in _ENVIRONMENTS:
            return f"the answer uses the environment {m[1]!r}, which the math parser does not read"
    for m in _TEXT_RE.finditer(clean, timeout=0.5):
        if not _text_ok(m[1]):
            return (f"the answer holds the words {m[1].strip()!r} in \\text{{}}: the math parser would drop them "
                    "and grade what is left")
    bare = _TEXT_RE.sub(" ", clean, timeout=0.5)
    for m in _MACRO_RE.finditer(bare, timeout=0.5):
        if m[1] not in KNOWN_MACROS:
            return f"the answer uses \\{m[1]}, which the math parser does not read; it would grade what is left"
    if word := _GREEK_WORD_RE.search(bare, timeout=0.5):
        return f"the answer holds the Greek word {word[0]!r}: prose, which the math parser would read as variables"
    for c in bare:
        if ord(c) < 128:
            continue
        category = unicodedata.category(c)
        if category.startswith("L") and unicodedata.name(c, "").startswith("GREEK"):
            if unicodedata.decomposition(c)[:1] not in ("", "<"):  # "ή", "ί": an accent marks a word's letter
                return f"the answer holds {c!r}, a Greek letter with an accent: a word, not a variable"
            continue  # a Greek letter is a variable
        return f"the answer holds {c!r} ({unicodedata.name(c, 'an unknown character').lower()}), which the math parser does not read"
    if shape := _misshapen(bare):
        return shape
    for m in _WORD_RE.finditer(_MACRO_RE.sub(" ", bare, timeout=REGEX_TIMEOUT_S), timeout=0.5):
        word = m[0].lower()
        if word in _PROSE_WORDS and word not in _FUNCTION_WORDS:
            return f"the answer holds the word {m[0]!r}: prose, which the math parser would read as variables"
    return None


# operators that need their parts: the parser reads "\\lim 7" as 7 and "x \\in 7" or "\\emptyset 7" as 7 times
# something; what they say is not what it grades
_LIM_RE = regex.compile(r"\\lim(?![A-Za-z])(?!\s*(?:\\limits\s*)?_)")
_BIG_OPERATOR_RE = regex.compile(r"\\(?:sum|prod|int|iint)(?![A-Za-z])\s*(?:[_^]\s*(?:\{[^{}]*\}|\S)\s*){0,2}$")
_IN_RE = regex.compile(r"\\(?:in|notin)(?![A-Za-z])(?!\s*(?:\\\{|\\mathbb|\\mathbf|[(\[]|\\emptyset|\\varnothing|[A-Z](?![A-Za-z])))")
_EMPTY_RE = regex.compile(r"\\(?:emptyset|varnothing)(?![A-Za-z])")
_VALUE_CHAR_RE = regex.compile(r"[0-9A-Za-z]")


# "42_{41}", "42_{(41)}", and error bars "42^{+1}_{-1}" (base numerals were read before)
_NUMBER_SUBSCRIPT_RE = regex.compile(r"(?<![A-Za-z\\])[0-9.]+\s*(?:\^\s*(?:\{[^{}]{0,40}\}|[^{}\s])\s*)?_")
_EVALUATION_BAR_RE = regex.compile(r"\\(?:big|Big|bigg|Bigg|right)\s*\|\s*_|\|\s*_\s*\{|\\Big[lr]?\|\s*_|\\vert\s*_")


def _misshapen(bare: str) -> str | None:
    if _NUMBER_SUBSCRIPT_RE.search(bare, timeout=REGEX_TIMEOUT_S):
        return "the answer puts a subscript on a number, which the math parser would drop"
    if _EVALUATION_BAR_RE.search(bare, timeout=REGEX_TIMEOUT_S):
        return "the answer has an evaluation bar (|_{…}), which the math parser would drop"
    if _LIM_RE.search(bare, timeout=REGEX_TIMEOUT_S):
        return "the answer has \\lim without its limit (\\lim_{x \\to a}): the math parser would drop it"
    if _BIG_OPERATOR_RE.search(bare, timeout=REGEX_TIMEOUT_S):
        return "the answer ends in a sum, product or integral with nothing to apply it to"
    if _IN_RE.search(bare, timeout=REGEX_TIMEOUT_S):
        return "the answer says a value is an element of something that is no set"
    if _EMPTY_RE.search(bare, timeout=REGEX_TIMEOUT_S) and "," not in bare and "\\cup" not in bare \
            and _VALUE_CHAR_RE.search(_EMPTY_RE.sub("", bare.replace("\\{", "").replace("\\}", ""),
                                                    timeout=REGEX_TIMEOUT_S), timeout=REGEX_TIMEOUT_S):
        return "the answer puts the empty set beside a value"
    return None
