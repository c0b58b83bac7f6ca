"""A difference stated as a count: "\\boxed{3 \\text{ more}}", "5 fewer students", "на 5 больше", "5 manzanas más";
and a percentage that names its change: "\\boxed{25\\% \\text{ increase}}", "a 20% discount", "20% off".

"How many more apples does Ann have than Bob?" is answered "5 more" as often as "5": the comparative says the
number is a difference, which the question asked for, and changes nothing of it. What may not follow is a
comparison's object ("5 more than Bob" is an expression, not a number), so the words after the comparative must
be a count noun or nothing. The comparatives are the closed class of a few languages (no library lists them);
a bound written with them ("at least", "or more") is read by the bound rules before this.
"""

from __future__ import annotations

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.units import count_noun

__all__ = ["comparative_count", "percent_named"]

# after the number (and perhaps its noun): English, French, Spanish, Portuguese, Italian, German, Russian
_AFTER = ("more", "fewer", "less", "de plus", "de moins", "más", "menos", "a mais", "a menos", "in più", "in meno",
          "mehr", "weniger", "больше", "меньше")
_COMPARATIVE_RE = regex.compile(
    r"(?i)\s*(?P<lead>на\s+)?(?P<number>[-+]?[0-9]+(?:[.,][0-9]+)?)\s*(?:\\[,;! ]\s*)*(?:\\text\s*\{\s*)?"
    r"(?P<before>(?:[\p{L}'’-]+\s+){0,2}?)(?P<word>" + "|".join(regex.escape(w) for w in _AFTER) + r")(?![\p{L}])"
    r"(?P<after>(?:\s+[\p{L}'’-]+){0,3})\s*\}?\s*[.!]?\s*")


def comparative_count(text: str) -> tuple[str, str] | None:
    """(the number, what it counts) when ``text`` is a number stated as a difference ("5 more apples" -> ("5",
    "apples")); ``None`` otherwise ("5 more than Bob", "5 or more", "more 5")."""
    if len(text) > 80:
        return None
    m = _COMPARATIVE_RE.fullmatch(text, timeout=REGEX_TIMEOUT_S)
    if m is None or (m["lead"] and m["word"].lower() not in ("больше", "меньше")):
        return None
    before, after = m["before"].strip(), m["after"].strip()
    if before and after:
        return None
    noun = before or after
    if noun and not count_noun(noun):
        return None  # "5 more than Bob", "3 more times": a comparison's object or an operation, not what it counts
    return m["number"], noun


# a percentage and the change it names ("25\\% \\text{ increase}", "a 20% decrease", "20% off"); never what it is of
_PERCENT_NAMED_RE = regex.compile(r"(?i)\s*(?:an?\s+)?(?P<value>[-+]?[0-9]+(?:[.,][0-9]+)?\s*\\?%)\s*(?:\\[,;! ]\s*)*"
                                  r"(?:\\text\s*\{\s*)?(?P<noun>[\p{L}'’-]+(?:\s+[\p{L}'’-]+){0,2})\s*\}?\s*[.!]?\s*")
_OF_WORDS = frozenset({"of", "de", "des", "du", "del", "di", "von", "der", "от", "из"})


def percent_named(text: str) -> str | None:
    """The percentage of ``text`` when the words after it name what it measures ("25% increase" -> "25%", "20% off");
    ``None`` otherwise ("25% of 80", "25% of the class": a percentage of something is another number)."""
    if len(text) > 80 or "%" not in text:
        return None
    m = _PERCENT_NAMED_RE.fullmatch(text, timeout=REGEX_TIMEOUT_S)
    if m is None or m["noun"].split()[0].lower() in _OF_WORDS or not (count_noun(m["noun"]) or m["noun"].lower() == "off"):
        return None
    return m["value"]
