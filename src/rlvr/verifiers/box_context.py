"""Does a box hold the whole stated result, or only part of an expression around it?

``y = -\\boxed{7}``, ``\\boxed{42}\\,000``, ``{\\boxed{2} \\over 3}``, ``\\boxed{2}\\pi`` and
``\\sqrt{\\boxed{49}}`` state something other than the box. The check is positive: within the box's
own math span (or its line, for a bare box) only *neutral* tokens may stand beside it — blanks and
spacing macros, punctuation, math delimiters, a unit (``^\\circ``, ``\\%``, ``\\text{ cm}``, ``m/s``),
a ``\\pmod`` remark, a footnote mark, words of prose and a ``\\text{}`` remark of several words — and
the last token before it must be a connector (``=``, ``\\approx``, ``\\Rightarrow``, ``:``, "is", an
opening parenthesis closed right after it). Anything else beside the box (a digit, an operator, a
macro, an empty group with an exponent, a one-word ``\\text{ squared}``) is part of the result, and
the box is refused.
"""

from __future__ import annotations

import regex

from rlvr.verifiers.approximations import TRUNCATED_RE
from rlvr.verifiers.conversions import measured_unit
from rlvr.verifiers.percent_words import percent_words

from rlvr.verifiers.currencies import is_currency
from rlvr.verifiers.document import Document
from rlvr.verifiers.lexicon import APPROVAL_MARKS, OR_WORDS, SIZE_SWITCHES, STYLE_WRAPPERS, alternation
from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.units import unit_after, unit_word as _unit_word

__all__ = ["box_context", "restated_after_box", "unit_after_box", "percent_after_box"]

_TOKEN_RE = regex.compile(
    r"\\(?:begin|end)\s*\{[A-Za-z]+[* ]?\}"  # an environment's delimiter (its star may be blank in the view): "\\end{align*}" closes, nothing more
    r"|\\(?:text|mathrm|textrm|mbox|textnormal|textit|textbf|operatorname)\s*\{[^{}]*\}"
    r"|\\(?:pmod|bmod|mod)\s*\{[^{}]*\}|\\(?:pmod|bmod|mod)\s*[0-9A-Za-z]+"
    r"|\^\s*\{\s*\\circ\s*\}|\^\s*\\circ|\^\s*\{\s*(?:\\prime\s*)+\}|\^\s*\\prime|\^\s*\{?\s*(?:\*|\\dagger|\\ast)\s*\}?"
    r"|\{[~\s]*(?:\\(?:rm|mathrm)(?![A-Za-z])\s*)?\p{L}[~\s\p{L}/]*\}"  # a bare group of letters: "{eV}", "{~m}", "{\\rm kg}", "{km/s}"
    r"|\\[A-Za-z]+|\\.|->|=>|:=|[0-9]+|\p{L}+|\s+|.", regex.DOTALL)
_SPACING = frozenset({"\\,", "\\;", "\\:", "\\!", "\\ ", "\\quad", "\\qquad", "~", "\\left.", "\\hfill", "\\nonumber",
                      "\\\\"} | {"\\" + name for name in SIZE_SWITCHES})  # "$\\Large\\boxed{42}$": a size shows nothing
_STYLES = frozenset("\\" + name for name in STYLE_WRAPPERS)  # "$\\underline{\\boxed{42}}$": a face for the box
_OPENERS = frozenset({"$", "$$", "\\(", "\\[", "&"})
_MARKS = frozenset(APPROVAL_MARKS) | {"\ufe0f", "\\checkmark"}  # "✅ \\boxed{42} ✔️": decoration beside the box
_CLOSERS = frozenset({"$", "\\)", "\\]", ".", ",", ";", ":", "!", "?", "。", "，", "；", "！", "？", "、"})
_CONNECTORS = frozenset({"=", ":=", "\\approx", "≈", "\\sim", "\\simeq", "\\equiv", "\\cong", "\\Rightarrow", "\\implies",
                         "\\to", "\\rightarrow", "\\longrightarrow", "\\Longrightarrow", "\\therefore", "\\mapsto",
                         "->", "=>", ":", "：", "\\colon", "→", "⇒", "∴", "\\iff", "\\Leftrightarrow", "\\coloneqq",
                         "\\triangleq", "&", "\\in", "∈"})
_TEXT_RE = regex.compile(r"\\[A-Za-z]+\s*\{([^{}]*)\}")
_SET_OPENING_RE = regex.compile(r"\s*(?:[\[(]|\\\{|\\left|\\mathbb|\\emptyset|\\varnothing|\\varnothing|\\R\b|ℝ)")
_WORDS_RE = regex.compile(r"\p{L}{2,}")
_LETTERS_RE = regex.compile(r"\p{L}+")


def _tokens(text: str) -> list[str]:
    return [t for t in _TOKEN_RE.findall(text, timeout=REGEX_TIMEOUT_S)]


# unit macros of TeX and its unit packages: "\\boxed{48} \\AA", "\\boxed{50} \\mu \\mathrm{m}", "\\boxed{5}\\Omega"
_UNIT_MACROS = frozenset({"\\AA", "\\angstrom", "\\mu", "\\micro", "\\ohm", "\\Omega", "\\degree", "\\celsius",
                          "\\degreeCelsius", "\\textdegree", "\\micron", "\\textmu", "\\textohm"})


# in a text remark after a box, what offers an alternative: an "or" word, or a letter in brackets ("(D)")
_ALTERNATIVE_RE = regex.compile(r"(?i:(?<![\p{L}])(?:" + alternation(OR_WORDS) + r")(?![\p{L}]))|\(\s*[A-J]\s*\)")
# a letter offered beside a choice box: after "or", "and", "also" or a slash (up to two words between), in brackets,
# or before "is also", "too", "works", "is correct"; never one negated ("not C", "neither B nor C")
_OFFERED_LETTER_RE = regex.compile(
    r"(?i:(?<![\p{L}])(?:" + alternation(OR_WORDS + ("and", "also", "plus")) + r")[ \t~]+(?:\\text\s*\{\s*)?(?:\p{L}+[ \t]+){0,2}"
    r"|/[ \t]*(?:\\[,;: ][ \t]*)*)\(?\s*(?P<a>[A-Ja-j])\s*\)?(?![\p{L}])"
    r"|\(\s*(?:\\text\s*\{\s*)?(?P<b>[A-Ja-j])\s*\}?\s*\)"
    r"|(?<![\p{L}\\])\(?(?P<c>[A-J])\)?[ \t]+(?i:(?:is[ \t]+)?(?:also|too|as[ \t]+well|correct|right)|works|also[ \t]+works)(?![\p{L}])")
_NEGATED_BEFORE_RE = regex.compile(r"(?i)(?:\bnot|\bneither|\bnor|n't|\bexcept|\bexcluding)[ \t]*\(?[ \t]*(?:\\text\s*\{\s*)?$")
_BOXED_LETTER_RE = regex.compile(r"\{\s*(?:\\text(?:bf)?\s*\{\s*)?\(?\s*([A-Ja-j])(?![A-Za-z])")


def _another_option(view: str, box_start: int, box_end: int, end: int, timeout: float) -> str | None:
    """The letter of another option offered after a choice box within ``[box_end, end)``, or ``None``."""
    own = _BOXED_LETTER_RE.search(view, box_start, box_end, timeout=timeout)
    mine = own[1].upper() if own else ""
    for m in _OFFERED_LETTER_RE.finditer(view, box_end, end, timeout=timeout):
        letter = (m["a"] or m["b"] or m["c"]).upper()
        at = m.start("a") if m["a"] else m.start("b") if m["b"] else m.start("c")
        if letter != mine and not _NEGATED_BEFORE_RE.search(view, max(box_end, at - 16), at, timeout=timeout):
            return letter
    return None


_SPACING_TOKEN_RE = regex.compile(r"\s+|\\[ ,;:!]|\\q?quad|~")
_UPRIGHT_RE = regex.compile(r"\\(?:rm|mathrm)(?![A-Za-z])")


def _upright_unit(word: str) -> bool:
    """A word set upright (in ``\\mathrm{}``, ``\\text{}`` or a bare group) that names a unit."""
    return _unit_word(word, open_class=True) or measured_unit(word, upright=True)


def _is_unit(token: str) -> bool:
    if (token.startswith("^") and len(token) > 1) or token.startswith(("\\pmod", "\\bmod", "\\mod")):
        return True  # ^\circ, ^{\prime}, a footnote ^*, and "\pmod{7}" say what the value is, not another one
    if token in _UNIT_MACROS:
        return True
    if token.startswith("{"):  # a bare group: "{eV}", "{~m}", "{\\rm kg}", "{km/s}"; an empty one is no unit by itself
        words = _UPRIGHT_RE.sub(" ", token[1:-1], timeout=REGEX_TIMEOUT_S).replace("~", " ").replace("/", " ").split()
        return bool(words) and all(_upright_unit(w) for w in words)
    m = _TEXT_RE.fullmatch(token, timeout=REGEX_TIMEOUT_S)
    if m:
        words = m[1].replace("/", " / ").replace("~", " ").split()
        if len(_WORDS_RE.findall(m[1], timeout=REGEX_TIMEOUT_S)) >= 2 and any(c in m[1] for c in " (") \
                and not _ALTERNATIVE_RE.search(m[1], timeout=REGEX_TIMEOUT_S):
            return True  # a remark of several words: "\text{ (since x > 0)}", "\text{ square units}" (not "(or D)")
        units = [w for w in words if w not in ("/", "^2", "^3")]
        return bool(units) and all(_upright_unit(w) for w in units)
    return _unit_word(token) or measured_unit(token)  # "\\boxed{4.03} amu": pint's dimensioned units


def box_context(doc: Document, box_start: int, box_end: int, timeout: float, choice: bool = False,
                suffix: bool = True) -> str | None:
    """Why the box at ``[box_start, box_end)`` is only part of the stated result, or ``None``.

    ``choice``: the box holds a choice letter, which its option's text may follow. ``suffix=False``
    looks only at what precedes the box.
    """
    view = doc.view
    span = doc.math_span(box_start)
    if span is not None:
        lo, hi, in_math = span[0], span[1], True
    else:
        lo = view.rfind("\n", 0, box_start) + 1
        hi = view.find("\n", box_end)
        hi, in_math = (len(view) if hi < 0 else hi), False
    before = _tokens(view[max(lo, box_start - 120):box_start])
    after = _tokens(view[box_end:min(hi, box_end + 120)])
    text_before = doc.text[max(lo, box_start - 120):box_start]  # the page's own characters: tags are no blanks
    prev_end = len(view[:box_start].rstrip())
    if any(b.end == prev_end for b in doc.boxes):
        before = []  # right after another box: the two are stated together, and read so elsewhere
    while choice and len(after) > 1 and _SPACING_TOKEN_RE.fullmatch(after[0], timeout=timeout) and after[1].isspace():
        after = after[1:]  # "\\boxed{(C)}\\quad \\frac35": a spacing command is a blank too
    if choice and after and _SPACING_TOKEN_RE.fullmatch(after[0], timeout=timeout) and not after[0].isspace():
        after = [" "] + after[1:]
    # another option offered after a choice box, read once (a sentence after the box's math is the later reader's)
    other = _another_option(view, box_start, box_end, min(hi, box_end + 2000), timeout) if choice else None
    if choice and other is None and after and after[0].isspace() and len(after) > 1 \
            and after[1] not in ("^", "_", "!", "*", "/"):
        after = []  # a choice box followed by its option's text: "\\boxed{\\text{(B)}} 3(1 + r/10)^x"
    if other is not None and in_math:  # "$\\boxed{C}\\quad \\text{D is also correct}$"
        return f"the choice box is followed by another option, {other}: it holds only part of the stated result"
    return _prefix_problem(before, after, in_math, view, box_start, timeout, text_before) or \
        (_suffix_problem(after, in_math, timeout) if suffix else None) or \
        (_outside_problem(view, span, suffix, timeout) if span is not None else None)


# "1/$\\boxed{42}$", "$\\boxed{42}$ - 1 = 41", "$\\boxed{42}$^2": arithmetic glued to the math span that holds the box
_GLUED_BEFORE_RE = regex.compile(r"(?:[0-9)\]}]\s*[-+*/^×÷·]|(?<!\s)[-*/^×÷·])\s*$")
_GLUED_AFTER_RE = regex.compile(r"^(?:\s*[-+*/×÷·]\s*[0-9(\\$]|\s*=\s*[-+]?[0-9(\\$]|\^|_)")


def _outside_problem(view: str, span: tuple[int, int], suffix: bool, timeout: float) -> str | None:
    line_start = view.rfind("\n", 0, span[0]) + 1
    before = view[max(line_start, span[0] - 12):span[0]]
    if _GLUED_BEFORE_RE.search(before, timeout=timeout):
        return f"the box's math is preceded by {before.strip()[-3:]!r}: it holds only part of the stated result"
    after = view[span[1]:span[1] + 12]
    if suffix and _GLUED_AFTER_RE.match(after, timeout=timeout):
        return f"the box's math is followed by {after.strip()[:6]!r}: it holds only part of the stated result"
    return None


def _spaced_dash(text_before: str) -> bool:
    """A dash with a blank on each side ("Final answer - \\boxed{7}"), a doubled dash ("Answer -- \\boxed{7}")
    or an em dash is punctuation; a single hyphen or en dash glued to the box is a minus."""
    stripped = text_before.rstrip()
    run = len(stripped) - len(stripped.rstrip("-—–"))
    if stripped.endswith("—") or run >= 2:
        return True
    return len(stripped) >= 2 and stripped[-2].isspace() and len(stripped) < len(text_before)


def _prefix_problem(before: list[str], after: list[str], in_math: bool, view: str, box_start: int,
                    timeout: float, text_before: str = "") -> str | None:
    """Blanks and delimiters, then a connector (or nothing, or prose) before the box."""
    while True:
        while before:
            if before[-1].isspace() or before[-1] in _SPACING or before[-1] in _STYLES or before[-1] in _MARKS or \
                    before[-1].startswith("\\begin") or (
                    before[-1] in _OPENERS and before[-1] != "&"):
                before.pop()
            elif before[-1] == "}" and len(before) >= 2 and (before[-2] == "{" or before[-2].isspace() and
                                                              len(before) >= 3 and before[-3] == "{"):
                del before[-3 if before[-2].isspace() else -2:]  # an empty group: what it held is hidden
            else:
                break
        if not (before and before[-1] in ("(", "\\left(", "{") and after):
            break
        rest = [t for t in after if not t.isspace()]
        closing = ("}",) if before[-1] == "{" else (")", "\\right)")
        if not (rest and rest[0] in closing):
            break
        before.pop()  # "(\\boxed{7})", "\\color{red}{\\boxed{7}}": a group holding just the box
        del after[:after.index(rest[0]) + 1]
    if not before:
        return None
    last = before[-1]
    if last in ("\\in", "∈") and not _SET_OPENING_RE.match(view, (at := view.find("{", box_start) + 1), at + 40, timeout=timeout):
        return f"the box is preceded by {last!r} but holds no set"  # "x \\in \\boxed{7}"
    if last in _CONNECTORS or (last in _CLOSERS and last not in ("$", "!")):
        return None
    prev = next((t for t in reversed(before[:-1]) if not t.isspace() and t not in _SPACING), None)
    if (last == "\\$" or is_currency(last)) and (prev is None or prev in _OPENERS or prev in _CONNECTORS or (
            not in_math and _LETTERS_RE.fullmatch(prev, timeout=timeout) is not None)):
        return None  # "\\$\\boxed{18}", "₹\\boxed{150000}": the amount's currency, no part of another value
    if last == "+" and "=" in before[-4:-1]:
        return None  # "= +\boxed{10}": a sign that states the whole value
    if not in_math and (_LETTERS_RE.fullmatch(last, timeout=timeout) or last in ("-", "—", "–", "*")):
        if last.isascii() and last.isalpha() and len(last) == 1 and not view[box_start - 1].isspace():
            return f"the box is preceded by {last!r}: it holds only part of the stated result"  # "x\boxed{7}"
        if last in ("-", "—", "–") and not _spaced_dash(text_before):
            return f"the box is preceded by {last!r}: a sign, so it holds only part of the stated result"
        return None  # prose ("the answer is \boxed{7}", "因此，得\boxed{42}", "Final answer - \boxed{7}")
    text = _TEXT_RE.fullmatch(last, timeout=timeout)
    if text and _WORDS_RE.search(text[1], timeout=timeout):
        return None  # "\text{Answer: }\boxed{7}"
    shown = "".join(before[-3:]).strip()
    return f"the box is preceded by {shown!r}: it holds only part of the stated result"


def _suffix_problem(after: list[str], in_math: bool, timeout: float) -> str | None:
    """Only blanks, punctuation, closing delimiters, a unit expression or prose after the box."""
    in_unit, skip_to, exponent = False, -1, None
    for i, token in enumerate(after):
        if i <= skip_to:
            continue
        if token.isspace() or token in _SPACING or token in _MARKS or token.startswith("\\end") or (
                token in _CLOSERS and not (in_math and token == "!")):
            continue  # in math "!" is a factorial; "\\end{align*}" closes the environment
        if token == "\\boxed" or token == "\\fbox":
            return None  # another box right after: stated together, read so elsewhere
        if token == "=" and in_math and _names_variable(after[i + 1:]):
            return None  # "36 - 19 = \\boxed{17} = x": the box is named, nothing is added to it
        if not in_math and _LETTERS_RE.fullmatch(token, timeout=timeout):
            if i == 0 and token.isascii() and not _unit_word(token):
                return f"the box is followed by {token!r}: it holds only part of the stated result"  # "\boxed{7}x"
            return None  # prose goes on: what it says is read as a later statement
        if _is_unit(token):
            in_unit = True
            continue
        if token == "{" and (close := _empty_group_end(after, i)) and _next_is_unit(after[close + 1:], raised=True):
            skip_to = close  # "\\boxed{5.3e3}{ }^{\\circ} \\mathrm{C}": an empty group carries the degree sign
            continue
        if token == "[" and (close := _bracketed_unit(after, i)):
            skip_to, in_unit = close, True  # "\\boxed{1e-8}[\\mathrm{~F}]": the unit in brackets
            continue
        if exponent == "open":  # right after a unit's "^": one digit or sign, or a group of them
            if token == "{":
                exponent = "group"
                continue
            if token.isdigit() and len(token) == 1 or token == "-":
                exponent = None if token != "-" else "open"
                continue
        elif exponent == "group":
            if token.isdigit() or token == "-":
                continue
            if token == "}":
                exponent = None
                continue
        if in_unit and exponent is None and token == "^":
            exponent = "open"
            continue  # "m/s^2", "cm^{3}", "s^{-1}": a digit after a unit only as its power
        if token == "/" and in_math and _per_in_prose(after[i + 1:]):
            return None  # "\\boxed{9e11} \\mathrm{~kJ} /$ bomb", "\\boxed{4} /$ can": per a thing named in prose
        if in_unit and token in ("/", "\\cdot", "·") and _next_is_unit(after[i + 1:]):
            continue  # the rest of a unit expression: km/h, N·m; never a digit or a sign after a unit ("5 {s}, 6 {s}")
        if token == "/" and _next_is_unit(after[i + 1:]):
            in_unit = True
            continue  # "\boxed{2.9e16} / \mathrm{cm}^{3}"
        if not in_math and i > 0 and after[i - 1].isspace() and token in ("-", "—", "–", "(", "*"):
            return None  # prose punctuation after a bare box
        shown = "".join(after[i:i + 3]).strip()
        return f"the box is followed by {shown!r}: it holds only part of the stated result"
    return None


def _next_is_unit(tokens: list[str], raised: bool = False) -> bool:
    """Whether the next token that is no blank is a unit (``raised``: a raised one, ``^{\\circ}``)."""
    rest = next((t for t in tokens if not t.isspace() and t not in _SPACING), None)
    return rest is not None and _is_unit(rest) and (not raised or rest.startswith("^"))




def _per_in_prose(tokens: list[str]) -> bool:
    """Nothing but the math's close after a "/" that ends the box's math: the quantity per a thing the prose goes
    on to name ("/$ bomb")."""
    return all(t.isspace() or t in ("$", "\\)", "$$") for t in tokens)


def _empty_group_end(tokens: list[str], i: int) -> int | None:
    """The index of the ``}`` that closes an empty group opened at ``i`` (``{ }``), or ``None``."""
    j = i + 1
    while j < len(tokens) and tokens[j].isspace():
        j += 1
    return j if j < len(tokens) and tokens[j] == "}" else None
# a variable ("x", "\\lambda_{\\text{ball}}"), a segment or product of letters ("AB"), a probability or measure of a
# named thing ("P(A)", "|S|")
_VARIABLE_RE = regex.compile(r"\s*(?:(?:[A-Za-z]{1,3}|\\[A-Za-z]+)(?:\s*_\s*(?:[A-Za-z0-9]|\{[^{}]*(?:\{[^{}]*\}[^{}]*)?\}))?"
                            r"|[A-Z]\s*\(\s*[A-Za-z](?:\s*[,|]\s*[A-Za-z])?\s*\)|\|\s*[A-Za-z]\s*\|)\s*")
_CONSTANT_RE = regex.compile(r"\s*\\(?:pi|infty|e|i)\s*")  # "= \\pi" names no variable: it multiplies
_ENDS_RE = regex.compile(r"(?:\s*\\end\s*\{[A-Za-z*]+\})+$")


def _names_variable(tokens: list[str]) -> bool:
    """The tokens after a ``=`` are one variable (``x``, ``\\lambda_{\\text{ball}}``) and then the math closes."""
    rest = "".join(tokens)
    for closer in ("$$", "$", "\\]", "\\)"):
        at = rest.find(closer)
        if at >= 0:
            rest = rest[:at]
    rest = _ENDS_RE.sub("", rest.rstrip(" .,;\n"), timeout=REGEX_TIMEOUT_S).rstrip(" .,;\n")  # "= x\\end{aligned}"
    m = _VARIABLE_RE.fullmatch(rest, timeout=REGEX_TIMEOUT_S)
    return m is not None and not _CONSTANT_RE.fullmatch(rest, timeout=REGEX_TIMEOUT_S) and rest.strip() not in ("e", "i")


def _bracketed_unit(tokens: list[str], i: int) -> int | None:
    """The index of the ``]`` that closes a bracket holding only a unit (``[\\mathrm{~F}]``), or ``None``."""
    inside = []
    for j in range(i + 1, min(len(tokens), i + 8)):
        if tokens[j] == "]":
            return j if inside and all(_is_unit(t) for t in inside) else None
        if not (tokens[j].isspace() or tokens[j] in _SPACING):
            inside.append(tokens[j])
    return None


_RELATION = r"(?:=|\\approx(?![A-Za-z])|≈|\\simeq(?![A-Za-z])|\\doteq(?![A-Za-z]))"
_RESTATED_RE = regex.compile(r"\s*(" + _RELATION + r")\s*([^=<>≈]{1,80}?)\s*(?:(?<!\.)[.,;])?\s*(?=$|" + _RELATION + r")")
_MATH_CLOSE_RE = regex.compile(r"\s*(?:\$\$|\$|\\\]|\\\))\s*[.,;]?\s*$")


def restated_after_box(doc: Document, box_end: int, timeout: float) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``\\boxed{\\frac{3}{8}} = 0.375 = 37.5\\%``, ``\\boxed{\\frac13} \\approx 0.333``: the box's math goes on
    to restate its value. Returns (each restatement, those that only approximate) for the reconciler
    to check against the box; empty when the math says more."""
    span = doc.math_span(box_end - 1)
    if span is None:  # a bare box ("\\boxed{\\frac23} \\approx 0.67"): its line goes on the same way
        line_end = doc.view.find("\n", box_end)
        tail = doc.view[box_end:line_end if line_end >= 0 else len(doc.view)]
    else:
        tail = _MATH_CLOSE_RE.sub("", doc.view[box_end:span[1]], count=1, timeout=timeout)
        if not tail.strip():  # "$\\boxed{\\frac38}$ = 0.375.": the math closes and its line goes on to restate it
            line_end = doc.view.find("\n", span[1])
            tail = doc.view[span[1]:line_end if line_end >= 0 else len(doc.view)]
    parts, approximate, pos = [], [], 0
    while pos < len(tail.rstrip()):
        m = _RESTATED_RE.match(tail, pos, timeout=timeout)
        if m is None or not m[2].strip() or m.end() == pos or len(parts) >= 3:
            return (), ()
        parts.append(m[2].strip())
        if m[1] != "=" or TRUNCATED_RE.search(m[2], timeout=timeout):  # "= 1.41421356...": the dots approximate
            approximate.append(m[2].strip())
        pos = m.end()
    return tuple(parts), tuple(approximate)



_PLAIN_NUMBER_RE = regex.compile(r"[-+]?[0-9]+(?:\.[0-9]+)?")


def unit_after_box(doc: Document, box_end: int, answer: str, timeout: float) -> str | None:
    """The unit a plain-number box is followed by ("\\boxed{2} hours" -> "hours"), so that a gold in
    other units ("120 minutes") can be converted; ``None`` for any other box or any other word."""
    if not _PLAIN_NUMBER_RE.fullmatch(answer, timeout=timeout):
        return None
    return unit_after(doc.view, box_end, timeout)


# after the box: its math's closing delimiter and spacing, then a percent sign ("\\boxed{10}\\%", "$\\boxed{10}$%")
# (on the box's line: a "%" that opens a line is a TeX comment)
_PERCENT_AFTER_RE = regex.compile(r"(?:[ \t]++|\\[,;:! ]|~|\$|\\\)|\\\]){0,6}(?:\\%|%|\\text\s*\{\s*\\?%\s*\})")
_WORD_AFTER_RE = regex.compile(r"(?:[ \t]++|\\[,;:! ]|~|\$|\\\)|\\\]){0,6}(?:\\text\s*\{\s*)?(\p{L}+(?:[ \u00a0]\p{L}+)?)")


def percent_after_box(doc: Document, box_end: int, answer: str, timeout: float) -> bool:
    """Whether a plain-number box is followed by a percent sign or word ("\\boxed{10}\\%", "\\boxed{10}
    percent", "\\boxed{10} Prozent"): the box states a percentage, as ``\\boxed{10\\%}`` does."""
    if not _PLAIN_NUMBER_RE.fullmatch(answer, timeout=timeout):
        return False
    if _PERCENT_AFTER_RE.match(doc.view, box_end, min(len(doc.view), box_end + 40), timeout=timeout):
        return True
    m = _WORD_AFTER_RE.match(doc.view, box_end, min(len(doc.view), box_end + 60), timeout=timeout)
    if m is None:
        return False
    words, word = percent_words(), m[1].lower()
    if word in words or word.split()[0] in words:
        return True
    # in a script without spaces the word runs on into the next ("パーセントです"): a percent word that opens it
    return not word.isascii() and any(word.startswith(w) for w in words if not w.isascii() and len(w) > 1)
