"""Another reading of the problem: the conditions an answer is offered under ("If order matters, …", "For ordered
selections, …", "In the ordered case, …", "Alternatively, if repetition is allowed, …").

An answer given under another reading beside the committed one offers two answers, one per reading: the strict
policy refuses it, whether the second comes in a later box (``commitment``) or in a sentence after the box
(``later_reader``). What is no other reading: a condition of the writer's own doing ("If we recount carefully, we
get …", a correction), one that gives a parameter its value ("When n = 3, …", another case the problem poses), and
a path not taken ("If we had excluded the empty set we would get 40, but …").
"""

from __future__ import annotations

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S

__all__ = ["READING_OPENING_RE", "OPENS_WITH_CONDITION_RE", "COUNTERFACTUAL_RE", "RESULT_LEAD_RE", "CONDITION_AFTER_RE",
           "READING_AFTER_RE", "another_reading"]

# a version of the problem named by a phrase: "for the ordered version", "in the ordered case", "with repetition allowed"
_READING_PHRASE = (r"(?:in|for|under)\s+(?:the\s+|an?\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:case|version|reading|interpretation|"
                   r"setting|selections?|arrangements?)|with\s+[\w-]+\s+(?:allowed|permitted)")
_CONDITIONS = r"if|when|assuming|in\s+case|provided|under\s+the"
# a statement that opens on a condition or an alternative reading (a later box's statement)
READING_OPENING_RE = regex.compile(
    r"(?i)[\s*_>#-]*(?P<contrast>(?:(?:however|but|or|alternatively|otherwise|on\s+the\s+other\s+hand)\s*+,?+\s*+)+)?"
    r"(?:" + _CONDITIONS + r")\b|[\s*_>#-]*(?P<contrast2>alternatively|otherwise)\b|[\s*_>#-]*(?P<reading>"
    + _READING_PHRASE + r")\b")
# a sentence after the answer that opens on a condition or a reading ("If the problem means distinct seats, then 41.",
# "Edge case: excluding zero gives 3.", "The ordered version gives 3.")
OPENS_WITH_CONDITION_RE = regex.compile(
    r"(?i)[\s(*_>\-\u2013\u2014]*(?:\p{L}[\p{L} ]{0,24}:[\s*_]*)?(?:but\s+|and\s+)?(?:" + _CONDITIONS
    + r"|unless|excluding|including|counting|ignoring|" + _READING_PHRASE + r"|the\s+[\w-]+\s+(?:version|reading|interpretation))\b")
# a path not taken: "If we had excluded the empty set we would get 40", "Had we counted zero, …"
COUNTERFACTUAL_RE = regex.compile(r"(?i)\bif\s+(?:we|you|they|i|one|it)\s+had\b|^\W*had\s+(?:we|you|they|i|one)\b")
# what leads to the result of a condition: "then 41", "it would be 41", "would have been 41", "gives 41"
RESULT_LEAD_RE = regex.compile(r"(?i)(?:\bthen|\bis|\bbe|\bbeen|\bare|\bget|\bgives?|=|:|,)\s*\$?\s*$")
# a condition or a reading a value is given under ("41 if zero counts", "41 excluding the corner seat", "41 under
# the stricter reading", "41 counting only intact seats")
CONDITION_AFTER_RE = regex.compile(r"(?i)(?<![\p{L}-])(?:if|when|assuming|unless|provided|depending|otherwise)\b")
# a reading right after a number ("41 excluding …", "41 under the stricter reading"), not a remark on what it counts
# ("20 students, not counting the 2 teachers") nor on an expression ("the minimum of $(x+y)(y+z)$ under the constraint")
READING_AFTER_RE = regex.compile(r"(?i)^[\s$}*_)]*(?:by\s+|when\s+)?(?:excluding|including|counting|ignoring|discounting|without|"
                              r"under\s+the|per\s+the)\b")
_MODAL_RE = regex.compile(r"(?i)\b(?:would|could|might)\b")
_GIVEN_VALUE_RE = regex.compile(r"[A-Za-z]\s*=\s*[-0-9]")
_FIRST_PERSON_RE = regex.compile(r"(?i)\s+(?:we|i|you|one)\b")


def another_reading(text: str, start: int, end: int) -> regex.Match | None:
    """The opening of ``text[start:end]`` (the words of a statement before its answer) when it names another reading
    of the problem: a contrast ("However, if …"), a modal ("it would be"), a named version ("For ordered
    selections"), or a condition on the problem ("If order matters"); ``None`` for a condition of the writer's own
    doing ("If we recount …") or one that gives a parameter a value ("When n = 3, …")."""
    m = READING_OPENING_RE.match(text, start, end, timeout=REGEX_TIMEOUT_S)
    if m is None:
        return None
    if not (m["contrast"] or m["contrast2"] or m["reading"] or _MODAL_RE.search(text, m.end(), end, timeout=REGEX_TIMEOUT_S)
            or not _FIRST_PERSON_RE.match(text, m.end(), end, timeout=REGEX_TIMEOUT_S)):
        return None
    condition = text[start:end]
    if _GIVEN_VALUE_RE.search(condition[:condition.find(",") if "," in condition else None], timeout=REGEX_TIMEOUT_S):
        return None
    return m
