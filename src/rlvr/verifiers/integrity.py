"""Is the answer found really the completion's one final answer?

Checks that run after a source has found an answer: a retraction after it ("wait, actually 8"), a
hedge or a disowning sentence, a box that holds only part of the stated result, a struck-through
box, text addressed to the grader and LaTeX that redefines ``\\boxed``. Each returns the reason
(one sentence) or ``None``; all regexes run with a timeout.
"""

from __future__ import annotations

from fractions import Fraction

import regex

from rlvr.verifiers.normalize import value_key

__all__ = ["retraction", "disowned", "box_context", "GRADER_NOTE_RE", "NOTE_HINTS", "REDEFINE_RE", "REDEFINE_HINTS",
           "STRUCK_RE"]

_RETRACTION_CUE_RE = regex.compile(
    r"(?i)\b(?:wait|actually|oops|correction|mistake|instead|on second thought|i was wrong|scratch that|"
    r"disregard|ignore (?:that|this|the (?:above|previous))|should (?:be|have been)|not\s+\S+\s*,?\s*but|"
    r"let me (?:re-?)(?:consider|do|compute|calculate))\b"
)
_TAIL_NUMBER_RE = regex.compile(r"\\frac\{-?[0-9]+\}\{-?[0-9]+\}|-?[0-9]+(?:\.[0-9]+)?(?:/[0-9]+)?")
# the answer disowned or hedged after it is given: "… is not the answer", "either 7 or 8"
_NEGATION_RE = regex.compile(
    r"(?i)^[^.\n]{0,40}?\b(?:is|was|are)\s+(?:not|n't|never)\s+(?:the|my|a|our)?\s*(?:correct\s+|final\s+|right\s+)?"
    r"(?:answer|solution|result)|^[^.\n]{0,40}?\b(?:is|was)\s+(?:wrong|incorrect)\b")
_HEDGE_RE = regex.compile(r"(?i)\beither\b[^.\n]{0,200}?\bor\b[^.\n]{0,60}")
# "… The answer is not 12.", "It isn't 12." after the answer: the value itself denied
_DENIED_VALUE_RE = regex.compile(
    r"(?i)\b(?:answer|result|it|this|that)\s+(?:is\s+not|isn't|is\s+never|cannot\s+be|can't\s+be)\s+"
    r"(?:equal\s+to\s+)?\$?\s*(?:\\\(\s*)?([-+]?[0-9][0-9.,{}]*(?:/[0-9]+)?|\\frac\{[^{}]*\}\{[^{}]*\})")
# text addressed to whoever grades the answer, and LaTeX that redefines what a box shows
GRADER_NOTE_RE = regex.compile(
    r"(?i)\b(?:note|message|instructions?)\s+(?:to|for)\s+(?:the\s+)?(?:grader|evaluator|checker|verifier|marker)|"
    r"\b(?:dear|attention|hey)\s+(?:grader|evaluator|verifier)|\b(?:grader|evaluator|verifier)\s*:|"
    r"\b(?:mark|grade|score|count)\s+(?:this|it|me|my answer)\s+(?:as\s+)?(?:correct|right|full)|"
    r"\b(?:please\s+)?accept\s+(?:both|either|any|all)\s+(?:answers?|of\s+(?:these|them|my\s+answers))\b")
REDEFINE_RE = regex.compile(
    r"\\(?:re)?newcommand\s*\{?\s*\\(?:boxed|fbox)|\\(?:def|let|gdef|edef)\s*\\(?:boxed|fbox)|"
    r"\\DeclareRobustCommand\s*\{?\s*\\(?:boxed|fbox)|\\renewcommand")
REDEFINE_HINTS = ("command", "\\def", "\\let", "\\gdef", "\\edef")
NOTE_HINTS = ("grader", "evaluator", "checker", "verifier", "marker", "mark ", "grade ", "score ", "count ", "accept ")
# a box drawn struck through or cancelled is not an answer: \cancel{\boxed{7}}, ~~\boxed{7}~~
STRUCK_RE = regex.compile(r"\\(?:[bx]?cancel|sout|st|xout|stkout)\s*\{\s*\\(?:boxed|fbox)|~~[^~\n]{0,200}\\(?:boxed|fbox)[^~\n]{0,200}~~")
# a box that holds only part of the stated result: what stands right before or after it continues
# the expression (y = -\boxed{7}, \boxed{7}0, \frac{1}{\boxed{7}}, \ne \boxed{7}, 2\boxed{7}); "= +\boxed{10}" and
# "\approx \boxed{32,348}" state the whole value (an approximation is compared as the value it states)
_BOX_PREFIX_RE = regex.compile(
    r"(?:(?<!=\s{0,3}&?\s{0,3})\+|[-*/^_{0-9]|\\(?:pm|mp|cdot|times|div|ne|neq|not|le|leq|ge|geq|lt|gt|sqrt|frac|dfrac|tfrac)"
    r"|(?<![A-Za-z\"'/])[<>]|[≤≥≠])\s*\$?\s*$")
# right after the box: digits, exponents, factorials, products; a letter or bracket glued to it
# (a unit is not a continuation: \boxed{41.8}^{\circ}, \boxed{0.003}^{\prime\prime}, \boxed{2.9e16} / \mathrm{cm}^3)
_BOX_SUFFIX_RE = regex.compile(
    r"^(?!\s*(?:\{\s*\}\s*)?\^\s*\{?\s*\\(?:circ|prime)|\s*/\s*\$?\s*(?:\\(?:mathrm|text|textrm|mbox)\b|[A-Za-z]{2,}))"
    r"(?:\s*(?:[0-9^_!/*]|\.[0-9]|\\(?:cdot|times|div|frac)(?![A-Za-z]))|[A-Za-z(])")
# a box that holds a choice letter ("\boxed{\text{(B)}} 3(1 + r/10)^x = 7"): the option's text may follow
_CHOICE_BOX_RE = regex.compile(r"\\(?:boxed|fbox)\s*\{\s*(?:\\text(?:bf)?\s*\{\s*)?\(?[A-E]\)?\s*\}?\s*\}")
_WRAPPED_BOX_RE = regex.compile(r"\\(?:text|textbf|mathbf|bf|color\{[^{}]*\}|displaystyle|mathrm)\s*\{\s*\$?\s*$")


def retraction(answer: str, tail: str, timeout: float) -> str | None:
    """A final answer followed by a cue ("wait, actually") and then a different number."""
    answer_value = value_key(answer)
    if not isinstance(answer_value, Fraction):
        return None
    cue = _RETRACTION_CUE_RE.search(tail, timeout=timeout)
    if not cue:
        return None
    numbers = _TAIL_NUMBER_RE.findall(tail[cue.start():], timeout=timeout)
    if not numbers:
        return None
    last = numbers[-1]
    if value_key(last) != answer_value:
        return f"the final answer {answer!r} is followed by a retraction naming {last!r}"
    return None


def disowned(answer: str, tail: str, sentence: str, timeout: float) -> str | None:
    """The answer is negated, hedged or followed by a note to the grader."""
    if _NEGATION_RE.search(tail, timeout=timeout):
        return f"the final answer {answer!r} is followed by a statement that it is not the answer"
    answer_value = value_key(answer)
    for m in _DENIED_VALUE_RE.finditer(tail[:2000], timeout=timeout):
        if value_key(m[1].rstrip(".,")) == answer_value:
            return f"the final answer {answer!r} is followed by a statement that denies it ({m[0].strip()!r})"
    hedge = _HEDGE_RE.search(sentence, timeout=timeout)
    if hedge:
        # "either 2 or 3, so \boxed{2, 3}" lists the answer's own values; a hedge names another one
        own = {value_key(v) for v in regex.split(r"\s*,\s*", answer)}
        others = [n for n in _TAIL_NUMBER_RE.findall(hedge[0], timeout=timeout) if value_key(n) not in own]
        if others:
            return (f"the final answer {answer!r} is hedged ('either … or …' names {others[0]!r} too); "
                    "one final answer is required")
    return None


def box_context(search: str, start: int, end: int, timeout: float) -> str | None:
    """Why the box at [start, end) is only part of the stated result, or ``None``."""
    before = search[max(0, start - 40):start]
    after = search[end:end + 12]
    if _WRAPPED_BOX_RE.search(before, timeout=timeout):
        return None
    if _BOX_PREFIX_RE.search(before, timeout=timeout):
        shown = before.strip()[-12:]
        return f"the box is preceded by {shown!r}: it holds only part of the stated result"
    box = search[start:end]
    # a choice box may be followed by its option's text; "(B)" marks a choice plainly enough for the
    # text to start with a digit, a bare letter needs a word after it ("\boxed{A}^2" stays a power)
    option_next = r"\s+[^\s^_!*/]" if "(" in box else r"\s+[A-Za-z]"
    option_text = regex.match(option_next, after) and _CHOICE_BOX_RE.fullmatch(box, timeout=timeout)
    if _BOX_SUFFIX_RE.match(after, timeout=timeout) and not option_text:
        return f"the box is followed by {after.strip()[:12]!r}: it holds only part of the stated result"
    return None
