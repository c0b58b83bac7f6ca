"""A line slot's line ("Answer: 41 So it is 42.", "| Answer | 41 | So it is 42.", "#### 41 #### 42"): the value
the line opens with and what the rest of the same line states, so that a line stating two values is never
read as one of them."""

from __future__ import annotations

import regex

from rlvr.verifiers.choices import choice_letter
from rlvr.verifiers.document import Document
from rlvr.verifiers.lexicon import (
    ADDING_WORDS, ALTERNATIVE_WORDS, ANSWER_WORDS, CONCLUSION_WORDS, HEDGE_WORDS, RETRACTION_CUES, TENTATIVE_WORDS, UNSURE_PHRASES,
    WITHDRAWAL_CUES, words_pattern,
)
from rlvr.verifiers.line_reading import line_lead
from rlvr.verifiers.normalize import value_key
from rlvr.verifiers.prose import stated_values
from rlvr.verifiers.slots import Slot, clean

__all__ = ["line_values"]


def _value_key(text: str) -> object:
    return value_key(clean(text))


_LINE_KINDS = frozenset({"answer_line", "table_answer", "hash_answer"})
_LINE_REST = 400  # how much of the line after its opening value is read
_LINE_SLOTS = 4  # how many line slots before the final answer on its line are read
_BOX_MACRO_RE = regex.compile(r"\\(?:boxed|fbox|framebox)(?![A-Za-z])")
# what makes the rest of the line another answer under every policy: "Answer: 18. Actually 9.", "… Maybe 9.",
# "… So it is 9.", "… The other option is 9."
_CUED_RE = words_pattern(ADDING_WORDS + RETRACTION_CUES + WITHDRAWAL_CUES + HEDGE_WORDS + UNSURE_PHRASES + ALTERNATIVE_WORDS + CONCLUSION_WORDS
                         + ANSWER_WORDS + TENTATIVE_WORDS + ("other", "instead", "correction", "guess", "wait"))
# the opening value's sentence ends with it: a full stop, not a decimal point or the dots of "0.333..."
_FULL_STOP_RE = regex.compile(r"(?<![.…])[.。]\s*$")
# a choice letter in running text: "(D)", or "D" before punctuation or the end ("Or D.", "Answer: D")
_REST_LETTER_RE = regex.compile(r"\(([A-J])\)|(?<![\p{L}\\])([A-J])(?=\s*(?:[.,;!?)]|$))")


def _line_lead(doc: Document, all_slots: list[Slot], slot: Slot, timeout: float) -> tuple[str, int, int] | None:
    """(the value a line slot's line opens with, where the rest of the line starts, where it ends); ``None``
    when the line is one statement ("Answer: 42 apples", "Answer: The final answer is $3$.")."""
    view, a = doc.view, slot.value[0]
    line_end = view.find("\n", a)
    line_end = len(view) if line_end < 0 else line_end
    if slot.kind != "answer_line":
        return view[a:slot.value[1]], slot.value[1], line_end  # the cell ("| Answer | 41 | …"), the heading's value
    # a slot that begins on the line ends the line's own text ("Answer: 41 <answer>\\n42\\n</answer>")
    cut = min((s.start for s in all_slots if a < s.start < line_end and s.kind not in _LINE_KINDS),
              default=min(line_end, a + _LINE_REST))
    lead = line_lead(view[a:cut], timeout, closed=cut < line_end)
    return None if lead is None else (view[a:a + lead], a + lead, line_end)


def _rest_values(doc: Document, all_slots: list[Slot], a: int, b: int, lead_letter: bool, timeout: float) -> list[str]:
    """The values the rest of a line states: its slots' and its sentences' (a box is read as its slot)."""
    b = min(b, a + _LINE_REST)
    rest = doc.view[a:b]
    values = [v for v in stated_values(rest, timeout) if not _BOX_MACRO_RE.search(v, timeout=timeout)]
    if lead_letter:  # "| Answer | (B) | Or D.": letters, which sentences do not state as values
        values += [m[1] or m[2] for m in _REST_LETTER_RE.finditer(rest, timeout=timeout)]
    return values + [s.content for s in all_slots if a <= s.start < b]


def line_values(doc: Document, all_slots: list[Slot], final: Slot, answer: str,
                timeout: float) -> tuple[str, str, tuple[str, ...]] | None:
    """A line slot that opens with one value and goes on, on the same line, to state another ("Answer: 41 So
    it is 42.", "答案：36.7 答案：36.6", "| Answer | 41 | So it is 42.", "#### 41 #### 42", "Answer: 41 Putting
    this together, $\\boxed{42}$."): the line states both, whichever of them is read as its answer. Returns
    (the opening value, the other value, the values besides ``answer``), or ``None``."""
    line_start = doc.view.rfind("\n", 0, final.start) + 1
    line_end = doc.view.find("\n", final.start)
    line_slots = [s for s in all_slots if line_start <= s.start and (line_end < 0 or s.start < line_end)]
    lines = [s for s in line_slots if s.kind in _LINE_KINDS and s.start <= final.start]
    for slot in lines[-_LINE_SLOTS:]:
        read = _line_lead(doc, line_slots, slot, timeout)
        if read is None or not clean(read[0]):
            continue
        if slot.kind == "answer_line" and _FULL_STOP_RE.search(read[0], timeout=timeout) \
                and not _CUED_RE.search(doc.view, read[1], read[2], timeout=timeout) and "?" not in doc.view[read[1]:read[2]]:
            continue  # "Answer: 18. She sells 9 eggs at $2 each.": working of its own, read as the text after the answer
        lead = clean(read[0])
        rest = _rest_values(doc, line_slots, read[1], read[2], choice_letter(lead) is not None, timeout)
        other = next((v for v in rest if clean(v) and _value_key(v) != _value_key(lead)), None)
        if other is None:
            continue
        others = tuple(dict.fromkeys(clean(v) for v in (lead, *rest) if clean(v) and _value_key(v) != _value_key(answer)))
        if others:
            return lead, clean(other), others
    return None
