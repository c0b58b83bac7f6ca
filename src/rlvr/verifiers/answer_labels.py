"""Answer labels: where a line (or a sentence, or a clause) opens with "Answer:", "**Final Answer:**", "答案：" and
what stands after the label. :func:`rlvr.verifiers.slots.answer_line` reads the value under each label found here.
"""

from __future__ import annotations

import regex

from rlvr.verifiers.lexicon import (ANSWER_LINE_LABELS, HEDGE_WORDS, NEGATION_WORDS, NEGATIVE_EVALUATIONS, TENTATIVE_WORDS,
                                    UNSURE_PHRASES, words_pattern)

__all__ = ["LABELS", "answer_labels"]

LABELS = words_pattern(ANSWER_LINE_LABELS)
_ARTICLES = ("the", "my", "our")
# what may stand before a label on its line (a list number), or before it in the line (a sentence end)
_LINE_PREFIX_RE = regex.compile(r"[ \t]*(?:\d{1,2}[.)][ \t]*)?$")
_SENTENCE_END_RE = regex.compile(r"[.!?。]\s{1,3}$")
_CLAUSE_END_RE = regex.compile(r"[,;，；]\s{1,3}$")  # "After thinking about this, Answer: C": capitalised, with a colon
_PREFIX = 24  # a label stands at most this far from its line's start ("   12. **Final Answer**")
# after the label: "Answer: 5", "Answer (in cm) = 5", "Ans - 5", "Answer is 5", "Answer $5$", or nothing
_AFTER_LABEL_RE = regex.compile(
    r"(?:[ \t]*\([^()\n]{0,40}\))?(?:(?P<colon>[ \t]*(?:[:：=]|[-–—→](?=\s)|=>))|(?P<verb>[ \t]+(?:is|equals)\b)"
    r"|(?P<math>[ \t]*(?=\$|\\\(|\\\[|\\boxed|[0-9])))?[ \t]*(?P<value>[^\n]{0,2000})")


_CLAUSE_VALUE_RE = regex.compile(r"[0-9$\\]|\b(?:answer|result|if|case|part)\b", regex.IGNORECASE)
_CLAUSE_SCAN = 200
_CLAUSE_DOUBT = words_pattern(HEDGE_WORDS + NEGATION_WORDS + TENTATIVE_WORDS + UNSURE_PHRASES + NEGATIVE_EVALUATIONS)


def _comma_led(view: str, m: regex.Match, after: regex.Match, timeout: float) -> bool:
    """A capitalised label with a colon after a clause's comma ("After thinking about this, Answer: C"), where the
    clause states nothing itself: no value, maths, answer word, condition, case, hedge or negation ("The answer is 13,
    Answer: 12", "If a = 2, Answer: 12", "For part (a), Answer: 12", "Not fully confident, Answer: 12" are not one)."""
    if not (_CLAUSE_END_RE.search(view, max(0, m.start() - 5), m.start(), timeout=timeout) and m[0][:1].isupper()
            and after["colon"] is not None and view[m.end():after.start("value")].strip() in (":", "：")):
        return False
    lo = max(0, m.start() - _CLAUSE_SCAN)
    clause_start = max(view.rfind("\n", lo, m.start()), *(view.rfind(p, lo, m.start()) for p in ". ! ? 。".split()))
    clause = view[max(lo, clause_start + 1):m.start()]
    return not _CLAUSE_VALUE_RE.search(clause, timeout=timeout) and not _CLAUSE_DOUBT.search(clause, timeout=timeout)


def answer_labels(view: str, timeout: float, start: int = 0):
    """(slot start, label end, value start, value, alone) for each answer label at a line's or sentence's start.

    "Answer: 5", "**Final Answer:** 5", "My final answer = 5", "Answer is 5", "Ans - 5", "答案：5";
    a label alone on its line ("**Final Answer**") takes the value on the next lines. "The answer
    is 5" is a phrase (``final_answer_phrase``), not a line.
    """
    comma_led = labelled = -1  # the line whose one label after a clause comma was taken; the last labelled line
    own_line, scanned = view.rfind("\n", 0, start) + 1, start  # the line of the label read, found incrementally
    for m in LABELS.finditer(view, start, timeout=timeout):
        if (newline := view.rfind("\n", scanned, m.start())) >= 0:
            own_line = newline + 1
        scanned = m.start()
        line_start = view.rfind("\n", max(0, m.start() - _PREFIX), m.start()) + 1
        before = view[max(line_start, m.start() - _PREFIX):m.start()]
        at_line_start = (line_start > 0 or m.start() <= _PREFIX) and _LINE_PREFIX_RE.match(before, timeout=timeout)
        after = _AFTER_LABEL_RE.match(view, m.end(), timeout=timeout)
        if not (at_line_start or _SENTENCE_END_RE.search(before[-5:], timeout=timeout)):
            if not _comma_led(view, m, after, timeout):
                continue
            if own_line in (comma_led, labelled):
                continue  # after another label on its line ("Answer: A. On reflection though, Answer: B"), or a
                # second of its kind ("Case 1, Answer: 12, case 2, Answer: 13"): no answer line
            comma_led = own_line
        article = m[0].split()[0].lower() in _ARTICLES
        value = after["value"]
        # the slot starts at its line when the label opens the line, else at the label ("… $10,455. Final Answer: …")
        slot_start = line_start if at_line_start else m.start()
        labelled = own_line
        if after["colon"] is not None:
            yield slot_start, m.end(), after.start("value"), value, False
        elif after["verb"] is not None or after["math"] is not None:
            if not article:
                yield slot_start, m.end(), after.start("value"), value, False
        elif not value.strip(" \t.:："):
            yield slot_start, m.end(), after.end(), "", True
