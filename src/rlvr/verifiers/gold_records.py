"""A gold stored as a record: the answer field of a dict, or of a JSON object written as text.

Data sets and environments often keep the label in a record rather than as a bare answer:
NeMo-Gym's MCQA rows carry ``{"expected_answer": "B", "options": [...]}``, verl rows
``{"ground_truth": "42"}``, and a TRL column of dicts reaches a reward as a dict. Read as text,
such a gold is a sentence that states no answer, and every completion would be refused. The
record's answer field is the gold; a record without one stays as it is (and is reported
``unparseable_gold``, naming it).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

# the fields that hold the answer, the most specific first; "solution" last (it may be a worked
# solution, whose box the gold reader then takes)
ANSWER_FIELDS = ("expected_answer", "ground_truth", "final_answer", "answer", "gold", "target", "label", "solution")
_NESTED = ("reward_model",)  # verl's layout: {"reward_model": {"ground_truth": ...}}
_MAX_RECORD = 100_000


def record_answer(record: Mapping[str, Any], depth: int = 0) -> str | None:
    """The answer field of a record as text, or ``None`` when it has none (or it is not a scalar)."""
    for field in ANSWER_FIELDS:
        value = record.get(field)
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, (str, int, float)):
            text = str(value).strip()
            if text:
                return text
    if depth < 1:
        for field in _NESTED:
            inner = record.get(field)
            if isinstance(inner, Mapping) and (found := record_answer(inner, depth + 1)) is not None:
                return found
    return None


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
    try:
        record = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
        return None
    return record_answer(record) if isinstance(record, dict) else None
