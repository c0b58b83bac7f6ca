"""Verifier API, statuses, extraction sources, one-final-answer policy and configuration."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys

import pytest

from rlvr.errors import ConfigError
from rlvr.verifiers.sandbox import RETRY_FACTOR
from rlvr.verifiers import (
    Verdict, VerifierConfig, extract_answer, register_answer_source, verify, verify_batch,
)


def test_verdict_fields_and_correct_flag():
    v = verify("so \\boxed{0.5}", "\\frac{1}{2}")
    assert isinstance(v, Verdict)
    assert (v.status, v.correct, v.answer, v.source, v.method) == ("correct", True, "0.5", "boxed", "number")
    assert "0.5" in v.reason and v.elapsed_s >= 0
    d = v.to_dict()
    assert d["correct"] is True and json.dumps(d)
    with pytest.raises(ValueError):
        Verdict("maybe", None, "")


@pytest.mark.parametrize(
    "completion,gold,status",
    [
        ("\\boxed{3}", "3", "correct"),
        ("\\boxed{4}", "3", "incorrect"),
        ("no answer here at all, just words", "3", "no_answer"),
        ("\\boxed{" + "x" * 2000 + "}", "3", "unparseable_answer"),
        ("\\boxed{\\frac{1}{}+)(}", "3", "unparseable_answer"),
        ("\\boxed{3}", "\\frac{1}{}+)(", "unparseable_gold"),
        ("\\boxed{3}", "", "unparseable_gold"),
    ],
)
def test_each_status(completion, gold, status):
    assert verify(completion, gold).status == status


def test_timeout_status_when_guards_are_off():
    # the guard refuses 2^64 factorial; with its cap raised, the sandbox kills it at the time limit
    huge = "\\boxed{18446744073709551616!}"
    assert verify(huge, "3").method == "guard"
    v = verify(huge, "3", VerifierConfig(max_factorial=10**30, timeout_s=0.5))
    assert v.status == "timeout" and v.method == "sandbox"
    # a CPU-time budget, retried once with four times the budget before the verdict is 'timeout'
    assert "exceeded 0.5s and then 2s of CPU time" in v.reason, v.reason
    assert v.elapsed_s <= 0.5 * (1 + RETRY_FACTOR) + 0.5  # the row's own CPU: its budget and retry, no more


def test_error_status_for_bad_completion_type():
    v = verify(12345, "3")
    assert v.status == "error" and "string or a list of chat messages" in v.reason


def test_reasoning_parts_of_a_chat_message_are_not_graded():
    # OpenAI-style content parts: the reasoning part is the model's thinking (a box there is no answer), and glued to
    # the text part it would change what the box reads ("6*7=42\\boxed{42}" holds only part of a result)
    parts = [{"type": "reasoning", "text": "maybe 41? no: 6*7=42"}, {"type": "text", "text": "\\boxed{42}"}]
    assert verify([{"role": "assistant", "content": parts}], "42").correct
    thinking_only = [{"type": "thinking", "text": "\\boxed{42}"}, {"type": "text", "text": "I am not sure."}]
    assert not verify([{"role": "assistant", "content": thinking_only}], "42").correct


@pytest.mark.parametrize(
    "completion,source",
    [
        ("\\boxed{7}", "boxed"),
        ("\\fbox{7}", "boxed"),
        ("<answer>7</answer>", "answer_tag"),
        ("<SOLUTION>7</SOLUTION>", "solution_tag"),
        ("work\nAnswer: 7", "answer_line"),
        ("work\n#### 7", "hash_answer"),
        ("So the final answer is 7.", "final_answer_phrase"),
        ("$7$", "bare_answer"),
    ],
)
def test_each_answer_source(completion, source):
    v = verify(completion, "7")
    assert v.correct and v.source == source


def test_source_priority_is_configurable():
    text = "<answer>7</answer>\n\nLet me check this once more from the start.\n\n\\boxed{8}"
    # sources say where the answer is read; under the lenient policy nothing after it is checked
    assert verify(text, "7", VerifierConfig(sources=("answer_tag",), policy="lenient")).correct
    assert verify(text, "8", VerifierConfig(sources=("boxed",))).correct
    assert verify(text, "8").correct  # the box comes first in the default priority
    # strict (the default policy): a later box that states another value makes two answers
    v = verify(text, "7", VerifierConfig(sources=("answer_tag",)))
    assert v.status == "incorrect" and v.rule == "integrity.later_statement", v


def test_custom_answer_source():
    import regex

    pattern = regex.compile(r"RESULT=(\S+)")
    register_answer_source("result_eq", lambda text, t: [(m[1], m.start(), m.end()) for m in pattern.finditer(text, timeout=t)],
                           replace=True)
    cfg = VerifierConfig(sources=("result_eq",))
    assert verify("blah RESULT=42", "42", cfg).correct
    with pytest.raises(ValueError, match="already registered"):
        register_answer_source("boxed", lambda text, t: [])


@pytest.mark.parametrize("policy,gold,expected", [("reject", "7", False), ("reject", "5", False), ("last", "7", True),
                                                   ("first", "5", True)])
def test_multiple_answer_policy(policy, gold, expected):
    cfg = VerifierConfig(multiple_answers=policy)
    assert verify("\\boxed{5} or \\boxed{7}", gold, cfg).correct is expected


def test_a_later_final_answer_supersedes_an_earlier_one():
    # the commitment rule: earlier work is superseded; only answers stated together are alternatives
    v = verify("First I got \\boxed{5}.\n\nChecking again, that was an arithmetic slip: \\boxed{7}", "7")
    assert v.correct and v.rule == "compare.string", v
    assert verify("\\boxed{5}, \\boxed{7}", "7").rule == "integrity.alternatives"


def test_retraction_detection_can_be_turned_off():
    text = "\\boxed{5}. Wait, actually it's 7."
    assert verify(text, "5").status == "incorrect"
    assert verify(text, "5", VerifierConfig(detect_retraction=False)).correct


def test_think_prefilled():
    assert verify("all reasoning \\boxed{4}", "4").correct
    v = verify("all reasoning \\boxed{4}", "4", VerifierConfig(think_prefilled=True))
    assert v.status == "no_answer"
    assert verify("reasoning</think>\\boxed{4}", "4", VerifierConfig(think_prefilled=True)).correct
    cfg = VerifierConfig(think_tags=("<reasoning>", "</reasoning>"))
    assert verify("<reasoning>\\boxed{3}</reasoning>\\boxed{4}", "4", cfg).correct


@pytest.mark.parametrize(
    "policy,answer,gold,expected",
    [
        ("strict", "10\\%", "10\\%", True), ("strict", "10", "10\\%", False), ("strict", "0.1", "10\\%", False),
        ("ignore", "10", "10\\%", True), ("ignore", "0.1", "10\\%", False),
        ("fraction", "0.1", "10\\%", True), ("fraction", "10", "10\\%", False),
        ("either", "10", "10\\%", True), ("either", "0.1", "10\\%", True), ("either", "0.2", "10\\%", False),
    ],
)
def test_percent_policy(policy, answer, gold, expected):
    assert verify(f"\\boxed{{{answer}}}", gold, VerifierConfig(percent=policy)).correct is expected


def test_numeric_tolerance():
    assert not verify("\\boxed{3.14}", "\\pi").correct
    assert verify("\\boxed{3.14}", "\\pi", VerifierConfig(abs_tol=0.01)).correct
    assert verify("\\boxed{105}", "100", VerifierConfig(rel_tol=0.1)).correct
    assert not verify("\\boxed{115}", "100", VerifierConfig(rel_tol=0.1)).correct


def test_integer_answers_mode_skips_symbolic_work():
    cfg = VerifierConfig(integer_answers=True)
    v = verify("\\boxed{\\sqrt{4}}", "2", cfg)
    assert v.status == "incorrect" and v.method == "number" and "integer_answers" in v.reason
    assert verify("\\boxed{2.0}", "2", cfg).correct


def test_config_validation_names_the_fix():
    with pytest.raises(ConfigError, match="multiple_answers"):
        VerifierConfig(multiple_answers="sometimes")
    with pytest.raises(ConfigError, match="unknown answer sources"):
        VerifierConfig(sources=("boxed", "telepathy"))
    with pytest.raises(ConfigError, match="timeout_s"):
        VerifierConfig(timeout_s=0)
    with pytest.raises(ConfigError, match="valid fields"):
        VerifierConfig.from_dict({"tolerance": 0.1})
    assert VerifierConfig.from_dict({"sources": ["boxed"]}).sources == ("boxed",)


def test_config_is_hashable_and_picklable():
    cfg = VerifierConfig(rel_tol=0.1)
    assert hash(cfg) == hash(VerifierConfig(rel_tol=0.1))
    assert pickle.loads(pickle.dumps(cfg)) == cfg


def test_batch_length_mismatch():
    with pytest.raises(ValueError, match="2 completions but 1 golds"):
        verify_batch(["a", "b"], ["1"])


def test_batch_deduplicates_and_caches():
    from rlvr.verifiers import clear_cache
    from rlvr.verifiers.sandbox import get_pool

    clear_cache()
    golds = ["x^2-9"] * 8
    completions = ["\\boxed{(x-3)(x+3)}"] * 6 + ["\\boxed{(x-3)^2}"] * 2
    pool = get_pool()
    sent: list[int] = []
    original = pool.run
    pool.run = lambda tasks, timeout, **kw: (sent.append(len(tasks)), original(tasks, timeout, **kw))[1]
    try:
        verdicts = verify_batch(completions, golds)
        assert sent == [2]  # eight completions, two distinct answers, two sandbox tasks
        verify_batch(completions, golds)
        assert sent == [2]  # the second batch is answered from the cache
    finally:
        pool.run = original
    assert [v.correct for v in verdicts] == [True] * 6 + [False] * 2
    assert {v.method for v in verdicts} == {"symbolic"}


def test_extract_answer_reports_what_is_graded():
    cfg = VerifierConfig()
    ex = extract_answer("<think>\\boxed{1}</think> so \\boxed{2}", cfg)
    assert (ex.status, ex.answer, ex.source) == ("ok", "2", "boxed")
    assert extract_answer("<think>\\boxed{1}", cfg).status == "no_answer"


def test_cli_verify(tmp_path):
    run = lambda *a, **kw: subprocess.run([sys.executable, "-m", "rlvr", *a], capture_output=True, text=True, **kw)
    r = run("verify", "--gold", "\\frac{1}{2}", "\\boxed{0.5}")
    assert r.returncode == 0 and r.stdout.startswith("correct:")
    r = run("verify", "--gold", "3", "\\boxed{4}")
    assert r.returncode == 1 and r.stdout.startswith("incorrect:")
    rows = tmp_path / "rows.jsonl"
    rows.write_text("\n".join(json.dumps(r) for r in [
        {"completion": "\\boxed{2}", "gold": "2"}, {"completion": "Answer: 5", "answer": "4"}]) + "\n")
    r = run("verify", "--jsonl", str(rows))
    out = [json.loads(line) for line in r.stdout.splitlines()]
    assert [o["status"] for o in out] == ["correct", "incorrect"] and r.returncode == 1
    rows.write_text('{"completion": "x"}\n')
    r = run("verify", "--jsonl", str(rows))
    assert r.returncode == 2 and "needs 'completion' and 'gold'" in r.stderr and "Traceback" not in r.stderr


def test_validate_golds_reads_worked_solutions_and_reports_bad_golds():
    from rlvr.verifiers import validate_golds

    golds = ["So the answer is $\\boxed{12}$.", "10,\\!080", "The roots are \\boxed{1} and \\boxed{-2}.",
             "np.arcsin(10/13)", ""]
    reasons = validate_golds(golds)
    assert reasons[:3] == [None, None, None]
    assert "could not parse" in reasons[3] and reasons[4] == "the gold answer is empty"
    # the bad gold found at load time is what verify reports, without a second sandbox parse
    assert verify("\\boxed{0.66}", "np.arcsin(10/13)").status == "unparseable_gold"
    assert verify("\\boxed{-2, 1}", golds[2]).correct and verify("\\boxed{10080}", golds[1]).correct


def test_list_order_policy():
    """Bare comma lists: a set when written in increasing order on either side, else in order (auto)."""
    from rlvr.verifiers import verify

    given, any_order = {"list_order": "given"}, {"list_order": "any"}
    # MATH-500's golds list solution sets in any order: an increasing list on either side is a set
    assert verify("\\boxed{-2, 1}", "1,-2").correct and verify("\\boxed{1, -2}", "-2,1").correct
    assert verify("\\boxed{7, 3, 5}", "3, 5, 7").correct
    assert verify("\\boxed{-2} and \\boxed{1}", "1,-2").correct  # one box per solution
    # neither side increasing: both chose an order, and it counts (MATH's grader tests assert this)
    order = verify("\\boxed{10, 4, -2}", "4, 10, -2")
    assert order.status == "incorrect" and "another order" in order.reason and "list_order='auto'" in order.reason
    assert not verify("\\boxed{0.1, 4, 2}", "4, .1, 2").correct
    assert verify("\\boxed{4, 10, -2}", "4, 10, -2").correct and verify("\\boxed{4, 0.1, 2}", "4, .1, 2").correct
    assert not verify("\\boxed{10, 4, -3}", "4, 10, -2").correct  # other values: wrong in any order
    # labelled items match by label; lists of expressions are sets
    assert verify("\\boxed{a_{37} = 19, a_3 = 2}", "a_3 = 2, a_{37} = 19").correct
    assert verify("\\boxed{a_{37} = 19, a_3 = 2}", "a_3 = 2, a_{37} = 19", given).correct
    assert verify("\\boxed{x+1, x^2}", "x^2, x+1").correct
    # the two fixed policies
    assert verify("\\boxed{10, 4, -2}", "4, 10, -2", any_order).correct
    assert not verify("\\boxed{-2, 1}", "1,-2", given).correct
    assert verify("\\boxed{4, 10, -2}", "4, 10, -2", given).correct
    assert verify("\\boxed{\\{2, 1\\}}", "\\{1, 2\\}", given).correct  # a set stays a set
    assert not verify("\\boxed{(2, 1)}", "(1, 2)").correct  # a tuple stays ordered
