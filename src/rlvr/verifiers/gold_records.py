"""A gold stored as a record: the answer field of a dict, or of a JSON object written as text.

Data sets and environments often keep the label in a record rather than as a bare answer:
NeMo-Gym's MCQA rows carry ``{"expected_answer": "B", "options": [...]}``, verl rows
``{"ground_truth": "42"}``, and a TRL column of dicts reaches a reward as a dict. Read as text,
such a gold is a sentence that states no answer, and every completion would be refused. The
record's answer field is the gold; a record without one stays as it is (and is reported
``unparseable_gold``, naming it). :func:`gold_answer` reads a gold that is a worked solution: its box, or
GSM8K's closing "#### 72".
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.normalize import find_boxed, strip_outer_box

__all__ = ["ANSWER_FIELDS", "gold_answer", "gold_of_record", "record_answer"]

# the fields that hold the answer, the most specific first; "solution" last (it may be a worked
# solution, whose box the gold reader then takes). Not "target" or "label": Countdown's target is what the
# answer must evaluate to, not the answer, and a label may be an index
ANSWER_FIELDS = ("expected_answer", "ground_truth", "final_answer", "correct_answer", "gold_answer", "reference_answer",
                 "answer", "gold", "solution")
_NESTED = ("reward_model",)  # verl's layout: {"reward_model": {"ground_truth": ...}}
_MAX_RECORD = 100_000
# a TeX macro whose backslash JSON would read as an escape ("\\frac", "\\theta", "\\nabla", "\\bar"): a lower-case
# letter after the escape's; "\\nNatalia" (a newline, then a sentence) is JSON's
_TEX_ESCAPE_RE = regex.compile(r"(?<!\\)\\[bfnrt][a-z]")
_TEX_BACKSLASH_RE = regex.compile(r"(?<!\\)\\(?=[A-Za-z])")


def record_answer(record: Mapping[str, Any], depth: int = 0) -> str | None:
    """The answer field of a record as text, or ``None`` when it has none (or it is not a scalar)."""
    for field in ANSWER_FIELDS:
        if field not in record:
            continue
        value = record[field]
        if isinstance(value, list) and len(value) == 1:
            value = value[0]  # ["5"]: one answer in a list (several are alternatives or a list: not guessed here)
        if isinstance(value, bool):
            return "True" if value else "False"  # JSON's true: the answer "True" ("Yes" compares with it)
        if isinstance(value, float):
            return format(value, ".15g")  # 0.30000000000000004 is the float nearest 0.3, written as 0.3
        if isinstance(value, (str, int)) and str(value).strip():
            return _with_option_text(str(value).strip(), record)
        return None  # the answer field holds a list, a record or nothing: no other field stands in for it
    if depth < 1:
        for field in _NESTED:
            inner = record.get(field)
            if isinstance(inner, Mapping) and (found := record_answer(inner, depth + 1)) is not None:
                return found
    return None


_OPTION_FIELDS = ("options", "choices")
_LETTER_RE = regex.compile(r"\(?([A-Z])\)?")


def _options(record: Mapping[str, Any]) -> dict[str, str]:
    """A multiple-choice record's options by letter: ``{"A": "3", "B": "5"}``, NeMo-Gym's ``[{"A": "3"}, {"B": "5"}]``,
    or a list of texts lettered in order."""
    for field in _OPTION_FIELDS:
        options = record.get(field)
        if isinstance(options, Mapping):
            return {str(k).strip(): str(v) for k, v in options.items()}
        if isinstance(options, list) and options and all(isinstance(o, Mapping) for o in options):
            return {str(k).strip(): str(v) for o in options for k, v in o.items()}
        if isinstance(options, list) and 0 < len(options) <= 26 and all(isinstance(o, (str, int, float)) for o in options):
            return {chr(ord("A") + i): str(o) for i, o in enumerate(options)}
    return {}


def _with_option_text(answer: str, record: Mapping[str, Any]) -> str:
    """A letter answer with its option's text ("(B) 5"), so that an answer naming the letter or stating the text is
    compared as the choice; any other answer as it is."""
    letter = _LETTER_RE.fullmatch(answer, timeout=REGEX_TIMEOUT_S)
    text = _options(record).get(letter[1]) if letter else None
    return f"({letter[1]}) {text.strip()}" if text and text.strip() else answer


def gold_of_record(gold: Any) -> str | None:
    """The answer a record gold states: a mapping, or text that is a JSON object; ``None`` otherwise.

    Only a JSON object whose keys are quoted strings counts: a set ``{1, 2}`` or a TeX group is no
    JSON, and ``json.loads`` refuses it.
    """
    if isinstance(gold, Mapping):
        return record_answer(gold)
    if not isinstance(gold, str):
        return None
    text = gold.strip()
    if not (text.startswith("{") and text.endswith("}") and '"' in text) or len(text) > _MAX_RECORD:
        return None
    # TeX written with single backslashes: JSON reads "\\frac" as a form feed and "rac", "\\theta" as a tab and
    # "heta", and refuses "\\sqrt"; then every backslash before a letter is read as the backslash it was meant to be
    as_tex = _TEX_BACKSLASH_RE.sub(r"\\\\", text, timeout=REGEX_TIMEOUT_S)
    for candidate in ((text,) if not _TEX_ESCAPE_RE.search(text, timeout=REGEX_TIMEOUT_S) else ()) + (as_tex,):
        try:
            record = json.loads(candidate)
        except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
            continue
        return record_answer(record) if isinstance(record, dict) else None
    return None


_GSM8K_MARK_RE = regex.compile(r"(?:^|\n)[ \t]*####[ \t]*([^\n#]{1,200}?)[ \t]*$")


def gold_answer(gold: str) -> str:
    """The answer a gold states when the gold is a worked solution: its boxed content.

    MATH-style data sometimes ships the whole solution ("… so the answer is $\\boxed{12}$.") where
    an answer is expected; the box is its answer, as graders have always read it. Several distinct
    boxes are several answers and become a list gold. A gold that is only a box, or has none, is
    returned unchanged.
    """
    boxes = find_boxed(gold)
    if not boxes and (mark := _GSM8K_MARK_RE.search(gold, timeout=REGEX_TIMEOUT_S)):
        return mark[1]  # GSM8K's answer column: the worked solution, then "#### 72"
    if not boxes or (len(boxes) == 1 and strip_outer_box(gold) == boxes[0][0].strip()):
        return gold
    contents = list(dict.fromkeys(b[0].strip() for b in boxes))
    return ", ".join(contents)  # several boxes ("\\boxed{1} and \\boxed{-2}") list several answers
