"""Where the statement that holds an answer slot begins and ends: its sentence, with the line before when the slot
stands alone on its line and that line runs on into it ("… either 7 or\\n\\boxed{8}")."""

from __future__ import annotations

import bisect

import regex

from rlvr.verifiers.document import Document
from rlvr.verifiers.sentence_breaks import sentences
from rlvr.verifiers.slots import Slot

__all__ = ["statement_of"]

_WORD_CHAR_RE = regex.compile(r"[\p{L}\p{N}]")
# a line that breaks off on a joining mark or word runs on into the next ("Either 4 or", "$18 or $19:", "$18 vs.",
# "$18 / $19 ->", "I think it's 4, or maybe"); one that ends a sentence, a number or a noun is done
_OPEN_END_RE = regex.compile(r"(?:[,:;/—–-]|->|=>|(?<![\p{L}])(?:or|and|vs\.?|versus|either|maybe|perhaps|possibly|probably))[ \t]*$",
                             regex.IGNORECASE)


def statement_of(doc: Document, group: list[Slot], timeout: float) -> tuple[int, int]:
    """The span of the sentence that holds ``group`` (with the line before when the slot stands alone).

    A line's sentences are found once per document (``doc.memo``), so a line of thousands of slots
    costs one pass over it, not one per slot."""
    start, end = group[0].start, max(s.end for s in group)
    view = doc.view
    line_start = view.rfind("\n", 0, start) + 1
    line_end = view.find("\n", end)
    line_end = len(view) if line_end < 0 else line_end
    if not _WORD_CHAR_RE.search(view, line_start, start, timeout=timeout) \
            and not _WORD_CHAR_RE.search(view, end, line_end, timeout=timeout) \
            and not (any(s.kind == "hash_answer" for s in group)
                     and not _OPEN_END_RE.search(view, max(0, line_start - 40), max(0, line_start - 1), timeout=timeout)):
        # "… either 7 or\n\\boxed{8}": the line before goes on into the slot's; not into GSM8K's "#### 4", an
        # answer mark of its own under the working ("If he saves $2 a day, it takes him 4 days.\n#### 4"), unless
        # that line breaks off on a word ("Either 4 or\n#### 5", "I think it's 4, or maybe\n#### 5")
        line_start = view.rfind("\n", 0, max(0, line_start - 1)) + 1
    starts, spans = _line_sentences(doc, line_start, line_end, timeout)
    s_start = line_start
    i = bisect.bisect_left(starts, start - line_start) - 1  # the last sentence that starts before the slot
    if i >= 0:
        s_start = line_start + spans[i][0]
    s_end = end
    j = bisect.bisect_right(starts, end - line_start) - 1  # the sentence the slot ends in goes on to its end
    if j >= 0 and spans[j][1] > end - line_start:
        s_end = line_start + spans[j][1]
    return s_start, max(s_end, end)


def _line_sentences(doc: Document, line_start: int, line_end: int, timeout: float) -> tuple[list[int], list]:
    key = ("sentences", line_start, line_end)
    found = doc.memo.get(key)
    if found is None:
        spans = sentences(doc.view[line_start:line_end], timeout)
        found = doc.memo[key] = ([a for a, _b in spans], spans)
    return found
