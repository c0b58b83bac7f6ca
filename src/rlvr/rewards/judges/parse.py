"""Strict reading of a judgment: the scores on its ``Scores: \\boxed{...}`` line, or an abstention.

A judgment parses only when it has a ``Scores:`` label followed by ``\\boxed{a, b, ...}`` holding
exactly one integer per response, each within the scale, and no second score line that disagrees.
Anything else (no score line, a quoted ``\\boxed{420}`` without the label, decimals, ``7/10``, a score
of 11, two different score lines, the wrong count) is ``unparseable``: the judge has no opinion on
that sample, which is never read as a score of 0. The reason quotes the end of the raw text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["ParsedJudgment", "parse_judgment", "SCORE_LOW", "SCORE_HIGH"]

SCORE_LOW, SCORE_HIGH = 1, 10

# "Scores:" (markdown bold or not, singular or plural, any case) then a brace-free \boxed{...}
_SCORES = re.compile(r"\**\s*scores?\s*\**\s*[:：]\s*\**\s*\$?\s*\\boxed\{([^{}]*)\}", re.IGNORECASE)
_INTEGERS = re.compile(r"^\s*[+-]?\d+(?:\s*,\s*[+-]?\d+)*\s*$")
_SECTION = re.compile(r"^\s*\**\s*(principles|critique)\s*\**\s*[:：]", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class ParsedJudgment:
    """``scores``: one integer per response in the order the judge saw them, or ``None``
    (``status`` ``unparseable``, ``reason`` says why). ``principles`` / ``critique``: those sections
    of the text ("" when absent); ``body``: the text before the score line (what a meta RM reads)."""

    scores: tuple[int, ...] | None
    status: str
    reason: str
    principles: str = ""
    critique: str = ""
    body: str = ""


def _tail(text: str, n: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= n else "…" + flat[-n:]


def _sections(text: str) -> tuple[str, str]:
    found = {m.group(1).lower(): m for m in _SECTION.finditer(text)}
    out = {}
    for name, m in found.items():
        later = [o.start() for o in found.values() if o.start() > m.start()]
        out[name] = text[m.end():min(later) if later else len(text)].strip()
    return out.get("principles", ""), out.get("critique", "")


def parse_judgment(text: str, n: int, low: int = SCORE_LOW, high: int = SCORE_HIGH) -> ParsedJudgment:
    """The scores of a judgment of ``n`` responses, or an ``unparseable`` result saying why."""
    if not isinstance(text, str) or not text.strip():
        return ParsedJudgment(None, "unparseable", "the judge returned empty text")
    lines = [(m, m.group(1)) for m in _SCORES.finditer(text)]
    if not lines:
        return ParsedJudgment(None, "unparseable", f"no 'Scores: \\boxed{{...}}' line in the judgment: {_tail(text)!r}")
    contents = {" ".join(c.split()).replace(" ,", ",") for _, c in lines}
    if len(contents) > 1:
        return ParsedJudgment(None, "unparseable", f"{len(lines)} score lines that disagree "
                                                   f"({', '.join(sorted(contents))}): {_tail(text)!r}")
    match, content = lines[-1]
    if not _INTEGERS.match(content):
        return ParsedJudgment(None, "unparseable", f"scores must be integers separated by commas, got "
                                                   f"\\boxed{{{content.strip()}}}: {_tail(text)!r}")
    scores = tuple(int(x) for x in content.split(","))
    if len(scores) != n:
        return ParsedJudgment(None, "unparseable", f"{len(scores)} score(s) for {n} response(s): "
                                                   f"\\boxed{{{content.strip()}}}")
    outside = [s for s in scores if not low <= s <= high]
    if outside:
        return ParsedJudgment(None, "unparseable", f"score(s) {outside} outside {low}-{high}: "
                                                   f"\\boxed{{{content.strip()}}}")
    body = text[:lines[0][0].start()].rstrip()
    principles, critique = _sections(body)
    return ParsedJudgment(scores, "ok", f"scores {list(scores)}", principles, critique, body)
