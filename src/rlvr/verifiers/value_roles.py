"""The role of one value in a sentence: stated, or a bound ("more than 7"), a rejected candidate ("7 fails",
"except 7"), a supposition ("if it were 7") or denied ("not 7"). Only a stated value is a claim; every reader
of prose asks this module, and :class:`RoleIndex` reads a sentence once for all its values."""

from __future__ import annotations

import bisect

import regex

from rlvr.verifiers.lexicon import BOUND_WORDS, EXCLUDING_WORDS, HYPOTHETICAL_WORDS, NEGATIVE_EVALUATIONS, REJECTION_WORDS, words_pattern

__all__ = ["CLAUSE_BREAK_RE", "RoleIndex", "value_role"]

_BOUND = words_pattern(BOUND_WORDS)
_REJECTED = words_pattern(REJECTION_WORDS + NEGATIVE_EVALUATIONS)  # "7 fails", "7 is wrong"
_EXCLUDING = words_pattern(EXCLUDING_WORDS)
_BOUND_TAIL_RE = regex.compile(r"(?i)\s*(?:of|than|to)?\s*\$?\s*$")
_REJECTED_HEAD_RE = regex.compile(r"(?i)^\s*\$?\s*[,(]?\s*(?:is\s+|was\s+|also\s+)?")
_HYPOTHETICAL_RE = words_pattern(HYPOTHETICAL_WORDS)
_NEGATES_NEXT_RE = regex.compile(r"(?i)(?:\bnot|n't|\bnever|不是|不)\s*(?:(?:equal\s+to|be|equals?)\s+)?\$?\s*$")
_NEGATED_BY_NEXT_RE = regex.compile(r"(?i)^\s*\$?\s*(?:is|was)\s*(?:not\b|n't\b)|^\s*\$?\s*(?:isn't|wasn't)\b")
CLAUSE_BREAK_RE = regex.compile(r"[,;:，；：]|\s[-–—]\s|\bthen\b|\bso\b")
# the least or the most of something: with a verb of need or ability in its sentence ("We must draw at least 5
# socks", "At most 4 of them can be chosen", "we need no more than 6 colours") the bound states the extremum the
# problem asks for; said of the answer itself ("it must be at least 5", "the answer is at least 5") it only bounds
_EXTREMUM_BOUND_RE = regex.compile(
    r"(?i)(?:\bat\s+(?:least|most)|\bno\s+(?:more|fewer|less)\s+than|\bnot\s+(?:more|fewer|less)\s+than|"
    r"\ba\s+(?:minimum|maximum)\s+of|\bmindestens|\bhöchstens|\bau\s+(?:moins|plus)|\bal\s+menos|"
    r"\bcomo\s+(?:mínimo|máximo)|\bкак\s+(?:минимум|максимум)|\bне\s+(?:менее|более))[\s$*_]*$")
_EXTREMAL_VERB_RE = regex.compile(
    r"(?i)\b(?:needs?|needed|required?|requires|suffices?|guarantees?|guaranteed|it\s+takes|"
    r"(?:must|can(?:not)?|can't|have\s+to|has\s+to)(?!\s+(?:be|have\s+been)\s+(?:at|no|not|more|less|fewer|greater|"
    r"smaller|up|over|under|between|as)\b)|muss|müssen|braucht|brauchen|benötigt|faut|doit|doivent|necesita|necesitan|"
    r"hay\s+que|нужно|необходимо|надо)\b")


def _opening(sentence: str) -> str:
    """The first words of a sentence, past blanks and markdown marks (what a supposition opens with)."""
    k = 0
    while k < len(sentence) and sentence[k] in " \t*_>-":
        k += 1
    return sentence[k:k + 80]


class RoleIndex:
    """What :func:`value_role` reads of a whole sentence, found once: whether a supposition opens it,
    where its clauses end, and where its supposition words stand (one pass each, so a sentence of
    thousands of values costs a pass, not a pass per value)."""

    def __init__(self, sentence: str, timeout: float) -> None:
        self.opening = _HYPOTHETICAL_RE.starts(_opening(sentence), timeout) is not None
        self.clause_ends = [m.end() for m in CLAUSE_BREAK_RE.finditer(sentence, timeout=timeout)]
        self.suppositions = [m.start() for m in _HYPOTHETICAL_RE.finditer(sentence, timeout=timeout)]
        self.supposition_ends = [m.end() for m in _HYPOTHETICAL_RE.finditer(sentence, timeout=timeout)]

    def supposed(self, start: int) -> bool:
        if self.opening:
            return True
        i = bisect.bisect_right(self.clause_ends, start) - 1
        clause_start = self.clause_ends[i] if i >= 0 else 0
        j = bisect.bisect_left(self.suppositions, clause_start)
        return j < len(self.suppositions) and self.supposition_ends[j] <= start


def value_role(sentence: str, start: int, end: int, timeout: float, index: RoleIndex | None = None) -> str:
    """What the value at ``[start, end)`` of ``sentence`` is: stated, bound, rejected, supposed or denied.

    ``index`` (a :class:`RoleIndex` of ``sentence``) makes many calls on one sentence linear."""
    before, after = sentence[max(0, start - 60):start], sentence[end:end + 60]
    if _BOUND.ends(before, timeout):
        if _EXTREMUM_BOUND_RE.search(before, timeout=timeout) and _EXTREMAL_VERB_RE.search(sentence, timeout=timeout):
            return "stated"  # "We must draw at least 5 socks": the least number the problem asks for
        return "bound"
    tail = _BOUND_TAIL_RE.search(before, timeout=timeout)[0]
    if tail.strip(" \t\n$") and _BOUND.ends(before[:len(before) - len(tail)] + " ", timeout):
        return "bound"  # the bound's word before a linking "of", "than" or "to"
    if _REJECTED.starts(after[_REJECTED_HEAD_RE.match(after, timeout=timeout).end():], timeout) \
            or _EXCLUDING.ends(before, timeout):
        return "rejected"
    if _NEGATES_NEXT_RE.search(before, timeout=timeout) or _NEGATED_BY_NEXT_RE.match(after, timeout=timeout):
        return "denied"
    if index is not None:
        return "supposed" if index.supposed(start) else "stated"
    opening = _HYPOTHETICAL_RE.starts(_opening(sentence), timeout)
    if opening:  # "If it were 7, we would get 9": a conditional supposes all it says
        return "supposed"
    clause_start = 0
    for m in CLAUSE_BREAK_RE.finditer(sentence, 0, start, timeout=timeout):
        clause_start = m.end()
    if _HYPOTHETICAL_RE.search(sentence, clause_start, start, timeout=timeout):
        return "supposed"
    return "stated"
