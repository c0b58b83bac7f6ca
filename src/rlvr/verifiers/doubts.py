"""Doubt about a final answer in the words before it: the strict policy's tentative words, unless resolved.

"I'm not sure. \\boxed{42}", "IDK. Answer: 42" and "Placeholder: 42" do not assert the answer. A doubt the
writer tells in the past tense, right before the doubt word ("I was unsure at first whether the corner
counts, but …", "Initially I was not sure"), was resolved before the answer; "as computed earlier, I'm not
sure" and "the answer was tentative" still hold. Each doubt word is checked against the few characters before
it, so a text of many doubt words is read in linear time.
"""

from __future__ import annotations

import regex

from rlvr.verifiers.lexicon import TENTATIVE_WORDS, words_pattern

__all__ = ["unresolved_doubt", "doubt_before", "doubted_before"]

_TENTATIVE = words_pattern(TENTATIVE_WORDS)
_PAST_COPULA_RE = regex.compile(r"(?i)\b(?:I|we)\s+(?:was|were|had\s+been)\s+(?:(?:a\s+bit|a\s+little|quite|initially|first)\s+)?$")
# tentative words that are also the work's ordinary words: they speak of the answer only where their clause ends
# ("I gave up.", "not verified,", "(unproven)"); followed by their object they narrate ("gave up 2 marbles",
# "a sample of 200", "commonly known as", "the dummy variable u", "to be checked are n = 4")
_ORDINARY_USES = frozenset((
    "give up", "gave up", "a sample", "dummy", "template", "commonly", "the format", "should be written",
    "written like", "without proof", "no proof", "unproven", "not checked", "to be checked", "to be verified",
    "to be confirmed", "not verified", "unverified", "without solving", "without computing", "without checking",
    "without working", "put your answer", "valid format", "example format", "is around", "something like"))
_CONTINUED_RE = regex.compile(r"[ \t]+[\p{L}\p{N}$\\]")
_EXAMPLE_RE = regex.compile(r"(?i)for\s+example|for\s+instance|e\.g\.|such\s+as|an\s+example")
_INTRODUCES_RE = regex.compile(r"[\s:,.*_-]*(?:(?:the|my|an?)\s+)?(?:final\s+)?(?:answer|result)?[\s:,.*_-]*")
_LEAD_CHARS = 160  # how far before the final statement a short preface still speaks of its answer


def unresolved_doubt(text: str, timeout: float, lead: bool = False) -> regex.Match | None:
    """The first tentative word of ``text`` that still holds (see the module's docstring), or ``None``.

    ``lead``: ``text`` is the preface before the final statement, where an example word ("e.g.", "for
    instance", "such as") speaks of the answer only when it introduces it ("For example: \\boxed{3}"); inside
    an earlier sentence it gives an example of the work ("such a function exists, e.g. $f(x)=x^3$.")."""
    for m in _TENTATIVE.finditer(text, timeout=timeout):
        if _PAST_COPULA_RE.search(text, max(0, m.start() - 24), m.start(), timeout=timeout):
            continue
        if m[0].lower() in _ORDINARY_USES and _CONTINUED_RE.match(text, m.end(), timeout=timeout):
            continue  # "She gave up 4 stickers", "a sample space", "boxes not checked is": the work's own words
        if lead and _EXAMPLE_RE.fullmatch(m[0], timeout=timeout) \
                and not _INTRODUCES_RE.fullmatch(text, m.end(), timeout=timeout):
            continue
        return m
    return None


def _lead(view: str, start: int) -> str:
    """The text just before the final statement within its paragraph (a preface such as "I give up.")."""
    lo = max(0, start - _LEAD_CHARS)
    blank = max(view.rfind("\n\n", lo, start), view.rfind("</think>", lo, start))
    return view[(blank + 2 if blank >= 0 else lo):start]


def doubt_before(view: str, start: int, timeout: float) -> regex.Match | None:
    """The unresolved doubt word of the short preface before a final statement at ``start``, or ``None``."""
    return unresolved_doubt(_lead(view, start), timeout, lead=True)


def doubted_before(view: str, start: int, timeout: float) -> str | None:
    """The doubt word before a final statement at ``start`` ("I'm not sure. The solutions are 2 and 3."), or ``None``."""
    m = doubt_before(view, start, timeout)
    return m[0] if m else None
