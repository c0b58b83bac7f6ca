"""Answers and golds that state their values with more than the values: read as the values they state.

Before the comparison: a qualifier saying where an answer holds ("\\text{ for all } x \\in \\mathbb{Q}") is no
value (on either side); counts of things ("7 \\text{ goats and } 4 \\text{ helicopters}") are their counts, and a count paired with
another noun than the gold pairs it with is wrong; values named with colons ("Minimum: 1, Maximum: 3") are named
values, as "Minimum = 1, …" writes them. An answer whose names or nouns fix its order is compared in that order
against a gold list not written increasing (:func:`rlvr.verifiers.statements.in_stated_order`).
"""

from __future__ import annotations

from typing import Any

from rlvr.verifiers.config import VerifierConfig
from rlvr.verifiers.normalize import normalize_answer
from rlvr.verifiers.notations import counted_pairs, counts_compared
from rlvr.verifiers.rules import gold_info
from rlvr.verifiers.qualifiers import without_qualifier
from rlvr.verifiers.statements import colon_labels, in_stated_order
from rlvr.verifiers.trace import Decision, rule

__all__ = ["restated", "counted_decision", "COUNTS_PAIRED"]

COUNTS_PAIRED = rule("compare.counts_paired", "counts of things compared noun by noun: a noun of the gold with "
                     "another count is wrong ('15 boys and 12 girls' against '15 girls and 12 boys'), the same in any order right")


def counted_decision(answer_text: str, gold_text: str,
                     config: VerifierConfig) -> tuple[Decision | None, tuple[str, str] | None]:
    """Counts of things, read from the answer as written (normalised, "7 goats and 4 helicopters" is the list "7, 4"
    and shares its cache entry with it): a decision when the gold counts things too, else the answer and gold as
    tuples when the gold is a list not written increasing (the nouns fix the answer's order), else nothing."""
    if counted_pairs(answer_text) is None:
        return None, None
    if (same := counts_compared(answer_text, gold_text)) is not None:
        return Decision("correct" if same else "incorrect", f"{answer_text[:80]!r} "
                        f"{'counts the things the gold counts' if same else 'pairs a noun of the gold with another count'}",
                        "string", COUNTS_PAIRED), None
    return None, in_stated_order(normalize_answer(answer_text).clean, gold_info(gold_text, config).norm.clean)


def restated(answer: Any, gold_text: str, config: VerifierConfig) -> tuple[Any, str]:
    """(the answer, the gold text) once qualifiers and colon labels are read (counts are read before the cache, by
    :func:`counted_decision`)."""
    if (unqualified := without_qualifier(answer.clean)) is not None:
        answer = normalize_answer(unqualified)
    gold_clean = gold_info(gold_text, config).norm.clean
    if (unqualified := without_qualifier(gold_clean)) is not None:
        gold_text = gold_clean = unqualified
    if ":" in gold_clean and (relabelled := colon_labels(gold_clean)) is not None:
        gold_text = gold_clean = gold_info(relabelled, config).norm.clean  # "\text{Paolo: } 18, …" names values too
    if ":" in answer.clean and (relabelled := colon_labels(answer.clean)) is not None:
        answer = normalize_answer(relabelled)
    return answer, gold_text
