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


@pytest.mark.parametrize("gold", [
    json.dumps({"target": 24, "numbers": [3, 8, 2, 1]}),   # Countdown: the target is what the answer evaluates to
    json.dumps({"answer": ["3", "-3"], "label": 1}),       # the answer field is a list: no other field stands in
    json.dumps({"label": 2}),
])
def test_fields_that_are_not_the_answer_are_not_read(gold):
    assert gold_of_record(gold) is None


@pytest.mark.parametrize("text,expected", [
    ('{"answer": "\\frac{1}{2}"}', "\\frac{1}{2}"),   # JSON would read \f as a form feed
    ('{"answer": "\\theta + \\pi"}', "\\theta + \\pi"),
    ('{"answer": "\\sqrt{2}"}', "\\sqrt{2}"),         # \s is no JSON escape at all
    ('{"answer": "\\\\frac{1}{2}"}', "\\frac{1}{2}"),  # escaped as JSON should be
])
def test_tex_in_json_text_keeps_its_backslashes(text, expected):
    assert gold_of_record(text) == expected


def test_the_training_reward_reads_a_dict_column():
    from rlvr.rewards import get_reward

    golds = [{"ground_truth": "\\frac{1}{2}"}, {"ground_truth": "7"}]
    completions = [[{"role": "assistant", "content": "So the answer is $\\boxed{0.5}$."}],
                   [{"role": "assistant", "content": "So the answer is $\\boxed{8}$."}]]
    assert get_reward("math_equivalence")(completions=completions, answer=golds) == [1.0, 0.0]


def test_a_gsm8k_record_is_its_closing_mark():
    gold = json.dumps({"question": "Natalia sold clips to 48 friends in April and half as many in May.",
                       "answer": "Natalia sold 48/2 = <<48/2=24>>24 clips in May.\nNatalia sold 48+24 = <<48+24=72>>72 clips "
                                 "altogether in April and May.\n#### 72"})
    right, wrong = verify_batch(["48 + 24 = 72.\n#### 72", "In May she sold 24.\n#### 24"], [gold, gold])
    assert right.correct and not wrong.correct, (right.reason, wrong.reason)


@pytest.mark.parametrize("record,completion", [
    ({"answer": True}, "The statement holds: $\\boxed{\\text{Yes}}$"),
    ({"answer": 0.1 + 0.2}, "So the total is $\\boxed{0.3}$."),
])
def test_json_scalars_are_read_as_written_answers(record, completion):
    [v] = verify_batch([completion], [json.dumps(record)])
    assert v.correct, v.reason


def test_a_one_item_list_is_its_item_and_a_longer_one_is_not_guessed():
    assert gold_of_record({"ground_truth": ["5"]}) == "5"
    assert gold_of_record({"answer": ["1/2", "0.5"]}) is None


@pytest.mark.parametrize("options", [
    [{"A": "3"}, {"B": "5"}, {"C": "7"}],   # NeMo-Gym's MCQA layout
    {"A": "3", "B": "5", "C": "7"},
    ["3", "5", "7"],                          # lettered in order
])
def test_a_choice_record_accepts_its_letter_or_its_text_and_nothing_else(options):
    gold = json.dumps({"expected_answer": "B", "options": options})
    completions = ["\\boxed{B}", "So the answer is $\\boxed{5}$.", "\\boxed{C}", "\\boxed{7}"]
    assert [v.correct for v in verify_batch(completions, [gold] * 4)] == [True, True, False, False]
