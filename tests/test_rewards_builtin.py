"""Each built-in reward against its documented scores, the Unsloth recipe's numbers and the R1 scheme."""

from __future__ import annotations

import math

import pytest

from rlvr.rewards import get_reward

WO = "<start_working_out>"


def sol(answer: str, reasoning: str = "Let me think") -> str:
    """A completion in the Unsloth recipe's format (the template prefills <start_working_out>)."""
    return f"{reasoning}<end_working_out><SOLUTION>{answer}</SOLUTION>"


# -- format rewards ------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "completion,expected",
    [
        ("<think>reasoning</think><answer>42</answer>", 1.0),
        ("<think>\nreasoning\n</think>\n<answer>\n42\n</answer>\n", 1.0),
        ("  <think>r</think>  <answer>42</answer>  ", 1.0),
        ("<think>r</think>text between<answer>42</answer>", 0.0),  # r1: nothing between the blocks
        ("<think>r</think><answer>42</answer> trailing text", 0.0),
        ("<think>r</think><answer></answer>", 0.0),
        ("<think>r</think><answer>1</answer><answer>2</answer>", 0.0),
        ("<answer>42</answer><think>r</think>", 0.0),
        ("r</think><answer>42</answer>", 0.0),  # opening tag required unless prefilled
        ("<think>r<think>s</think><answer>42</answer>", 0.0),
        ("", 0.0),
    ],
)
def test_format_strict_r1(completion, expected):
    assert get_reward("format_strict")(completions=[completion]) == [expected]


def test_format_strict_prefilled_and_working_out():
    assert get_reward("format_strict", think_prefilled=True)(completions=["r</think><answer>4</answer>"]) == [1.0]
    wo = get_reward("format_strict", preset="working_out")
    assert wo(completions=[sol("4"), "x" + sol("4") + "\n", sol(""), WO + sol("4"), "<SOLUTION>4</SOLUTION>"]) \
        == [3.0, 3.0, 0.0, 0.0, 0.0]
    assert get_reward("format_strict", preset="working_out", think_prefilled=False)(
        completions=[WO + sol("4"), sol("4")]) == [3.0, 0.0]
    custom = get_reward("format_strict", tags={"answer_open": "<final>", "answer_close": "</final>"}, match_score=2.0)
    assert custom(completions=["<think>r</think><final>4</final>"]) == [2.0]
    assert get_reward("format_strict", preset="working_out", eos_token="<|im_end|>")(
        completions=[sol("4") + "<|im_end|>"]) == [3.0]


@pytest.mark.parametrize(
    "completion,expected",
    [
        (sol("4"), 1.5),  # the recipe: three tags exactly once
        ("no tags at all", -3.0),
        ("<end_working_out><SOLUTION>4", 0.0),  # two present, closing missing: 0.5 + 0.5 - 1.0
        (sol("4") + sol("5"), -3.0),  # every tag twice
        ("<SOLUTION>4</SOLUTION>", 0.0),
        (WO + sol("4"), 1.5),  # the prefilled opening tag is not counted (as in the recipe)
    ],
)
def test_format_approx_recipe_numbers(completion, expected):
    assert get_reward("format_approx")(completions=[completion]) == [expected]


def test_format_approx_counts_opening_tag_when_not_prefilled():
    f = get_reward("format_approx", think_prefilled=False)
    assert f(completions=[WO + sol("4"), sol("4")]) == [2.0, 0.5]
    assert get_reward("format_approx", preset="r1")(completions=["<think>a</think><answer>1</answer>"]) == [2.0]


@pytest.mark.parametrize(
    "completion,expected",
    [
        ("<think>\nr\n</think>\n<answer>\n4\n</answer>", 1.0),
        ("<think>r</think><answer>4</answer>", 0.0),
        ("<think>\nr\n</think>\n<answer>4</answer>", 0.5),
        ("<think>\nr\n</think>\n<answer>\n4\n</answer>\n</answer>", 0.75),
    ],
)
def test_tag_count_open_r1(completion, expected):
    assert get_reward("tag_count")(completions=[completion]) == [expected]


def test_tag_count_prefilled():
    assert get_reward("tag_count", think_prefilled=True)(completions=["r\n</think>\n<answer>\n4\n</answer>"]) == [1.0]


@pytest.mark.parametrize(
    "completion,expected",
    [
        ("<think>r</think><answer>\\boxed{4}</answer>", 0.25),
        ("<think>r</think><answer>4</answer>", 0.2),
        ("<think>r</think>", 0.1),
        ("\\boxed{4}", 0.05),
        ("nothing", 0.0),
    ],
)
def test_r1_tags_scheme(completion, expected):
    assert get_reward("r1_tags")(completions=[completion]) == [expected]
    assert get_reward("r1_tags", think_prefilled=True)(completions=["r</think><answer>\\boxed{4}</answer>"]) == [0.25]


def test_boxed_answer():
    f = get_reward("boxed_answer")
    assert f(completions=["\\boxed{3}", "\\boxed{3} \\boxed{4}", "<think>\\boxed{3}</think>", "no box",
                          "\\boxed{3} \\boxed{3}"]) == [1.0, 0.0, 0.0, 0.0, 1.0]


# -- correctness ---------------------------------------------------------------------------------

def test_math_equivalence_presets_and_statuses():
    completions = ["\\boxed{\\frac{1}{2}}", "\\boxed{0.5}", "\\boxed{3}", "no answer", "\\boxed{1}"]
    golds = ["\\frac{1}{2}", "\\frac{1}{2}", "\\frac{1}{2}", "\\frac{1}{2}", "\\frac{1}{}"]
    assert get_reward("math_equivalence")(completions=completions, answer=golds) == [1.0, 1.0, 0.0, 0.0, None]
    assert get_reward("math_equivalence", preset="dapo")(completions=completions, answer=golds) == [1.0, 1.0, -1.0, -1.0, None]
    assert get_reward("math_equivalence", preset="r1")(completions=completions, answer=golds) == [2.0, 1.5, 0.0, 0.0, None]
    f = get_reward("math_equivalence", correct=5.0, incorrect=-1.0, scores={"no_answer": -2.0})
    assert f(completions=completions, answer=golds) == [5.0, 5.0, -1.0, -2.0, None]
    results = f.explain(completions=completions, answer=golds)
    assert [r.status for r in results] == ["correct", "correct", "incorrect", "no_answer", "unparseable_gold"]
    assert all(r.reason for r in results)
    assert results[1].details["method"] == "number"


def test_math_equivalence_verifier_options():
    strict = get_reward("math_equivalence", verifier={"percent": "strict"})
    loose = get_reward("math_equivalence", verifier={"rel_tol": 0.01, "percent": "ignore"})
    assert strict(completions=["\\boxed{3.14}", "\\boxed{50\\%}"], answer=["\\pi", "50"]) == [0.0, 0.0]
    assert loose(completions=["\\boxed{3.14}", "\\boxed{50\\%}"], answer=["\\pi", "50"]) == [1.0, 1.0]


@pytest.mark.parametrize(
    "answer,expected",
    [
        ("34", 5.0),  # exact string
        (" 34 ", 3.5),  # equal after stripping
        ("36", 2.0),  # ratio 1.059: within 10%
        ("40", 1.5),  # ratio 1.176: within 20%
        ("31", 2.0),  # ratio 0.912
        ("27", -2.5),  # ratio 0.794: outside 20%
        ("100", -2.5),  # wrong
        ("thirty-four", -4.5),  # not a number
        ("34.0", 2.0),  # ratio 1.0 but not the same string (as in the recipe)
    ],
)
def test_numeric_tolerance_check_answer_recipe(answer, expected):
    assert get_reward("numeric_tolerance")(completions=[sol(answer)], answer=["34"]) == [expected]


def test_numeric_tolerance_check_answer_missing_and_safe_parsing():
    f = get_reward("numeric_tolerance")
    assert f(completions=["no solution block"], answer=["34"]) == [-2.0]
    assert f(completions=[sol("1,000")], answer=["1000"]) == [2.0]  # thousands separator parsed, not a crash
    for text in ("nan", "inf", "1_000", "٣٤"):  # float() would accept these; a grader must not
        assert f(completions=[sol(text)], answer=["34"]) == [-4.5]


@pytest.mark.parametrize(
    "completion,gold,expected",
    [
        (sol("34"), "34", 3.5),
        (sol("The answer is 34"), "34", 3.5),
        (sol("1,234"), "1234", 3.5),
        (sol("-5"), "-5", 3.5),
        (sol("35"), "34", -1.5),
        (sol("."), "34", 0.0),  # extracted but not a number
        (sol("no digits"), "34", -2.5),
        ("no solution tag 34", "34", -2.5),
    ],
)
def test_numeric_tolerance_check_numbers_recipe(completion, gold, expected):
    assert get_reward("numeric_tolerance", preset="check_numbers")(completions=[completion], answer=[gold]) == [expected]


def test_numeric_tolerance_custom_bands():
    f = get_reward("numeric_tolerance", extractor=r"Answer:\s*(\S+)", bands=[[0.05, 1.0]], wrong=-1.0, stripped=None)
    assert f(completions=["Answer: 102", "Answer: 110", "Answer: 100"], answer=["100"] * 3) == [1.0, -1.0, 5.0]


# -- length and repetition -----------------------------------------------------------------------

def test_overlong_penalty_dapo_formula():
    f = get_reward("overlong_penalty", max_length=100, cache_length=20)
    ids = [[0] * n for n in (50, 80, 90, 100, 101)]
    assert f(completions=["x"] * 5, completion_ids=ids) == [0.0, 0.0, -0.5, -1.0, -1.0]
    assert f(completions=["x" * 90]) == [-0.5]  # characters outside TRL
    with pytest.raises(Exception, match="needs completion_ids"):
        get_reward("overlong_penalty", length_unit="tokens")(completions=["x"])


def test_cosine_scaled():
    f = get_reward("cosine_scaled", max_length=100)
    ids = [[0] * n for n in (0, 100, 0, 100, 50)]
    values = f(completions=["\\boxed{1}", "\\boxed{1}", "\\boxed{2}", "\\boxed{2}", "\\boxed{1}"], answer=["1"] * 5,
               completion_ids=ids)
    assert values[:4] == [1.0, 0.5, -1.0, -0.5]
    assert math.isclose(values[4], 0.75)


def test_repetition_penalty():
    f = get_reward("repetition_penalty", ngram_size=2, max_penalty=-1.0)
    values = f(completions=["a b c d e", "a b a b a b a b", "a"])
    assert values[0] == 0.0 and values[2] == 0.0
    assert math.isclose(values[1], -(1 - 2 / 7))


# -- language ------------------------------------------------------------------------------------

ZH = "首先，我们计算两个数的和。然后把结果乘以三。所以答案是十二。"
EN = "First, we add the two numbers. Then multiply the result by three. So the answer is twelve."


@pytest.mark.parametrize(
    "reasoning,target,low,high",
    [
        (EN, "en", 0.99, 1.0),
        (ZH, "zh", 0.99, 1.0),
        (ZH, "en", 0.0, 0.01),
        (EN + " " + ZH, "en", 0.5, 0.85),  # mixed: the English share of letters
        ("We compute $x^2 + 3x = 10$ and get $x = 2$. " + EN, "en", 0.99, 1.0),  # math is neutral
    ],
)
def test_language_consistency(reasoning, target, low, high):
    f = get_reward("language_consistency", language=target)
    [value] = f(completions=[f"<think>{reasoning}</think>\\boxed{{12}}"])
    assert low <= value <= high


def test_language_consistency_from_column_and_empty():
    f = get_reward("language_consistency", language_column="lang")
    assert f(completions=[f"<think>{ZH}</think>", f"<think>{EN}</think>"], lang=["zh", "zh"])[0] > 0.99
    assert get_reward("language_consistency")(completions=["<think>$1+1=2$</think>"]) == [None]


def test_len_reward_reproduces_open_r1_reference_values():
    """open-r1's len_reward tests (Kimi k1.5 length reward), on the same completions."""
    r = get_reward("len_reward")
    right, wrong = r"\boxed{\frac{63}{400}}", r"\boxed{\frac{64}{400}}"
    gold = [r"\frac{63}{400}"] * 4
    assert r(completions=[right, wrong], answer=gold[:2]) == [0.0, 0.0]  # same length: no signal
    short_long = r(completions=[right, right + "  " + "x" * 10], answer=gold[:2])
    assert short_long[0] == pytest.approx(0.5) and short_long[0] > short_long[1]
    wrong_pair = r(completions=[wrong, wrong + "  " + "x" * 10], answer=gold[:2])
    assert wrong_pair[0] <= 0 and wrong_pair[1] <= 0 and wrong_pair[0] > wrong_pair[1]
    mixed = r(completions=[right, right + "  " + "x" * 10, wrong, wrong + "  " + "x" * 10], answer=gold)
    assert mixed[0] > 0 and mixed[2] > mixed[1] >= mixed[3] and mixed[2] <= 0 and mixed[3] <= 0
    # groups are per prompt: two prompts never share a length range
    grouped = r(prompts=["p", "p", "q", "q"], completions=[right, right + "x" * 10, right, right + "x" * 40],
                answer=gold)
    assert grouped[0] == grouped[2] == pytest.approx(0.5) and grouped[1] == grouped[3] == pytest.approx(-0.5)


@pytest.mark.parametrize("length,expected", [(50, 0.0), (110, -1.0), (90, -0.5)])
def test_soft_overlong_reproduces_open_r1_reference_values(length, expected):
    r = get_reward("soft_overlong", max_completion_len=100, soft_punish_cache=20)
    assert r(completions=["x"], completion_ids=[[1] * length]) == [pytest.approx(expected)]


def test_language_consistency_splits_mixed_script_sentences():
    r = get_reward("language_consistency", language="zh", scope="all")
    pure, mixed = r.explain(completions=["我们先计算两个数的和，然后得到答案十二。",
                                         "我们先计算 the sum of the two numbers，然后得到答案。"])
    assert pure.value == 1.0
    assert 0.2 < mixed.value < 0.7  # the English run counts as English, not as Chinese


def test_a_prose_gold_that_states_no_answer_makes_accuracy_rewards_abstain():
    gold = ["The answer cannot be determined from the given data"]
    for name in ("math_equivalence", "cosine_scaled"):
        [result] = get_reward(name).explain(completions=["\\boxed{3}"], answer=gold)
        assert result.value is None and result.status == "unparseable_gold", (name, result)
