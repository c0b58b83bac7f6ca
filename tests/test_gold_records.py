"""Golds stored as records (a dict, or a JSON object as text) are compared by their answer field."""

from __future__ import annotations

import json

import pytest

from rlvr.verifiers import validate_golds, verify_batch
from rlvr.verifiers.gold_records import gold_of_record


@pytest.mark.parametrize("gold,completion,expected", [
    # NeMo-Gym's MCQA rows: the expected letter, with the options beside it
    (json.dumps({"expected_answer": "B", "options": [{"A": "yes", "B": "no", "C": "maybe"}]}), "I think the answer is \\boxed{B}", True),
    (json.dumps({"expected_answer": "C", "options": [{"A": "x", "B": "y", "C": "z"}]}), "Answer: B", False),
    ({"ground_truth": 42}, "So the total is $\\boxed{42}$.", True),
    ({"reward_model": {"ground_truth": "7"}}, "$\\boxed{7}$", True),
    ({"reward_model": {"ground_truth": "7"}}, "$\\boxed{8}$", False),
])
def test_record_gold_is_its_answer_field(gold, completion, expected):
    [v] = verify_batch([completion], [gold])
    assert v.correct is expected, v.reason


@pytest.mark.parametrize("gold", ["{1, 2}", "\\{1, 2\\}", "{x}", '{"a": [1, 2]}', "[1, 2]", "{" * 5000 + "}" * 5000,
                                  '{"a": ' * 10_000 + "1" + "}" * 10_000])
def test_sets_groups_and_records_without_an_answer_are_no_records(gold):
    assert gold_of_record(gold) is None


def test_a_set_gold_keeps_its_meaning():
    [v] = verify_batch(["$\\boxed{\\{1, 2\\}}$"], ["{1, 2}"])
    assert v.correct, v.reason


def test_validate_golds_reads_records():
    reasons = validate_golds([{"ground_truth": "3"}, json.dumps({"expected_answer": "A"}), ""])
    assert reasons[0] is None and reasons[1] is None
    assert reasons[2] is not None
