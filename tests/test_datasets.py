"""Loaders on small fixture files of every layout, templates, synthetic data, gold validation, pairs."""

from __future__ import annotations

from pathlib import Path

import pytest
from re import escape as regex_escape

from rlvr.datasets import (
    filter_prompt_length, get_template, load, load_preferences, load_with_report, synthetic_pairs, template_names,
)
from rlvr.errors import ConfigError

DATA = Path(__file__).parent / "data" / "datasets"


def test_hugging_face_datasets_is_not_shadowed():
    import datasets

    assert hasattr(datasets, "Dataset") and hasattr(datasets, "load_dataset")
    assert "site-packages" in datasets.__file__ or "dist-packages" in datasets.__file__


def test_dapo_original_layout_strips_wrapper_and_dedupes():
    ds, report = load_with_report("dapo-math", path=DATA / "dapo_original.jsonl", template="boxed")
    assert len(ds) == 3 and report.duplicates_removed == 2
    row = ds[0]
    assert row["problem"] == "What is 2+3?" and row["answer"] == "5" and row["source"] == "dapo-math"
    assert "Answer: $Answer" not in row["prompt"][-1]["content"] and "\\boxed{}" in row["prompt"][-1]["content"]
    assert row["orig_prompt"][0]["content"].startswith("Solve the following")  # originals kept
    assert row["reward_model"]["ground_truth"] == "5" and row["id"] == "dapo-math-uuid-0"


def test_dapo_processed_layout():
    ds = load("dapo-math", path=DATA / "dapo_processed.jsonl", template="dapo")
    assert len(ds) == 3  # "  what is 2+3? " is the same problem after normalisation
    assert ds[2]["answer"] == "42"
    assert ds[0]["prompt"][-1]["content"].startswith("Solve the following math problem step by step")


def test_dapo_verl_layout_from_parquet(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [{"data_source": "DAPO-17k", "prompt": [{"content": "In triangle ABC, find a+b+c.", "role": "user"}],
             "ability": "math", "reward_model": {"ground_truth": "34", "style": "rule"},
             "extra_info": {"answer": "", "index": 0, "split": "train"}}]
    path = tmp_path / "dapo.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path)
    ds = load("dapo-math", path=path, template="r1")
    assert ds[0]["answer"] == "34" and ds[0]["id"] == "dapo-math-0"
    assert ds[0]["prompt"][0]["role"] == "system" and "<think>" in ds[0]["prompt"][0]["content"]


def test_eval_sets():
    assert load("gsm8k", path=DATA / "gsm8k.jsonl")[0]["answer"] == "1234"
    assert load("olympiadbench", path=DATA / "olympiad.jsonl")[0]["answer"] == "2, -2"
    assert load("minerva-math", path=DATA / "minerva.jsonl")[0]["answer"] == "3 \\times 10^{8}"
    assert load("amc-2023", path=DATA / "amc.jsonl")[0]["answer"] == "27"


def test_bad_golds_are_reported_and_policy_applies():
    ds, report = load_with_report("math-500", path=DATA / "math500.jsonl")
    assert len(ds) == 2 and len(report.bad) == 1
    rid, gold, why = report.bad[0]
    assert rid == "math-500-test/algebra/2.json" and gold == "\\frac{1}{" and why
    assert "1 of 3 gold answers do not parse" in report.summary()
    assert len(load("math-500", path=DATA / "math500.jsonl", on_bad_gold="keep")) == 3
    with pytest.raises(ConfigError, match="on_bad_gold='error'"):
        load("math-500", path=DATA / "math500.jsonl", on_bad_gold="error")


def test_schema_errors_name_file_fields_and_options():
    with pytest.raises(ConfigError, match=r"missing field\(s\) \['problem', 'answer'\]; fields present: \['final', 'question'\]"
                       r".*problem_field="):
        load(str(DATA / "custom.jsonl"))
    ds = load(str(DATA / "custom.jsonl"), problem_field="question", answer_field="final")
    assert ds[0]["answer"] == "2" and ds[0]["problem"] == "1+1?"
    with pytest.raises(ConfigError, match="no data set named 'math-5000'"):
        load("math-5000")
    with pytest.raises(ConfigError, match="needs path="):
        load("minerva-math")
    with pytest.raises(ConfigError, match="does not exist"):
        load("math-500", path=DATA / "nope.jsonl")


def test_loader_options_of_the_wrong_type_are_config_errors():
    """Options typed on the command line (--option n=abc) fail with the option's name, not a TypeError."""
    for options, named in (({"n": "abc"}, "n='abc'"), ({"n": 0}, "n=0"), ({"seed": "x"}, "seed='x'"),
                           ({"limit": "5"}, "limit='5'"), ({"dedupe": "yes"}, "dedupe='yes'"),
                           ({"max_operand": True}, "max_operand=True")):
        with pytest.raises(ConfigError, match=regex_escape(named)):
            load("synthetic", **options)
    assert len(load("synthetic", n=7, level=[0, 1], limit=5)) == 5


def test_templates():
    assert {"r1", "working_out", "boxed", "dapo", "plain"} <= set(template_names())
    wo = get_template("working_out")
    assert wo.prefill == "<start_working_out>"
    assert wo.format_solution("r", "4") == "r<end_working_out><SOLUTION>4</SOLUTION>"
    custom = get_template({"instruction": "Q: {problem}\nEnd with 'Answer: X'.", "answer_format": "answer_line"})
    assert custom.messages("1+1?") == [{"role": "user", "content": "Q: 1+1?\nEnd with 'Answer: X'."}]
    with pytest.raises(ConfigError, match="must contain"):
        get_template({"instruction": "no slot"})


def test_synthetic_is_deterministic_and_splits_never_overlap():
    a = load("synthetic", n=300, level=[1, 2, 3], seed=7)
    b = load("synthetic", n=300, level=[1, 2, 3], seed=7)
    assert a["problem"] == b["problem"] and a["answer"] == b["answer"]
    test = load("synthetic", n=300, level=[1, 2, 3], seed=7, split="test")
    other_seed_train = load("synthetic", n=300, level=[1, 2, 3], seed=8)
    assert not set(test["problem"]) & (set(a["problem"]) | set(other_seed_train["problem"]))
    assert {"add", "sub", "fractions", "linear", "percent"} <= set(a["kind"])
    assert any("\\frac" in g for g in a["answer"])


def test_synthetic_golds_are_right():
    from rlvr.verifiers import verify_batch

    ds = load("synthetic", n=200, level=[1, 2, 3])
    solutions = [get_template("boxed").format_solution(r, g) for r, g in zip(ds["reasoning"], ds["answer"])]
    assert all(v.correct for v in verify_batch(solutions, ds["answer"]))
    with pytest.raises(ConfigError, match="level"):
        load("synthetic", level=9)


def test_preferences_including_stringified_chats():
    ds, report = load_preferences(DATA / "preferences.jsonl")
    assert len(ds) == 2 and report.total == 4
    assert ds[0]["prompt"] == [{"content": "What is 2+2?", "role": "user"}]
    assert ds[0]["chosen"][0]["content"] == "It is 4."
    assert set(report.skipped) == {"chosen identical to rejected", "empty chosen or rejected"}
    assert ds[1]["margin"] == 1.5


def test_synthetic_pairs_are_verifiable():
    from rlvr.verifiers import verify

    pairs = synthetic_pairs(n=40, level=1)
    assert {p["kind"] for p in pairs} == {"wrong_answer", "malformed"}
    boxed_only = {"sources": ["boxed"]}  # "malformed" breaks the boxed format; the prose may still be right
    for p in pairs:
        assert verify(p["chosen"], p["answer"], boxed_only).correct
        assert not verify(p["rejected"], p["answer"], boxed_only).correct
        if p["kind"] == "wrong_answer":
            assert not verify(p["rejected"], p["answer"]).correct


def test_prompt_length_filter():
    from rlvr.harness.local_models import build_tokenizer

    ds = load("synthetic", n=100, level=[1, 3], template="plain")
    tok = build_tokenizer(ds["problem"], vocab_size=300)
    kept, cutoff = filter_prompt_length(ds, tok, quantile=0.5)
    assert 30 <= len(kept) <= 80 and all(n <= cutoff for n in kept["prompt_tokens"])


def test_data_loads_and_lints_without_the_trainer():
    """rlvr.datasets never imports rlvr.harness (recipe-level lint lives in the harness)."""
    import subprocess
    import sys

    code = ("import sys, rlvr.datasets, rlvr.datasets.lint; "
            "print(any(m.startswith('rlvr.harness') for m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "False", r.stderr
