"""Evaluation scoring: the unbiased pass@k estimator, intervals, and completions made elsewhere."""

from __future__ import annotations

import json
from math import comb

import pytest

from rlvr.cli import main
from rlvr.harness.evaluate import pass_at_k, read_completions, score_completions


@pytest.mark.parametrize("n", [1, 2, 5, 16, 50])
def test_pass_at_k_is_the_combinatorial_estimator(n):
    for c in range(n + 1):
        for k in range(1, n + 1):
            expected = 1.0 - comb(n - c, k) / comb(n, k)  # Chen et al. 2021, eq. (1) for one problem
            assert pass_at_k(n, c, k) == pytest.approx(expected, abs=1e-12)


def test_pass_at_k_needs_enough_samples():
    with pytest.raises(ValueError):
        pass_at_k(2, 1, 4)


def test_score_completions_curve_and_intervals():
    golds = ["2", "5", "7", "1"]
    groups = [["\\boxed{2}", "\\boxed{3}", "\\boxed{2}", "\\boxed{9}"], ["\\boxed{5}"] * 4,
              ["\\boxed{1}"] * 4, ["\\boxed{0}", "\\boxed{0}", "\\boxed{0}", "\\boxed{1}"]]
    result = score_completions(golds, groups)
    summary = result.summary()
    assert result.samples == 4 and set(summary["pass@k"]) == {"1", "2", "4"}
    assert summary["pass@1"] == pytest.approx((2 / 4 + 1 + 0 + 1 / 4) / 4)
    assert summary["pass@4"] == pytest.approx(3 / 4)
    low, high = summary["pass@k"]["1"]["ci95"]
    assert 0.0 <= low < summary["pass@1"] < high <= 1.0
    assert [row["pass_rate"] for row in result.rows] == [0.5, 1.0, 0.0, 0.25]


def test_eval_scores_completions_made_elsewhere(tmp_path, capsys):
    rows = [{"id": "p1", "answer": "2", "completion": "\\boxed{2}"},
            {"id": "p1", "answer": "2", "completion": "\\boxed{3}"},
            {"id": "p2", "answer": "\\frac{1}{2}", "completions": ["\\boxed{0.5}", "\\boxed{1/2}"]}]
    path = tmp_path / "samples.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    out = tmp_path / "scored.jsonl"
    assert main(["eval", "--completions", str(path), "--out", str(out)]) == 0
    printed = json.loads(capsys.readouterr().out.split("per-problem")[0])
    assert printed["pass@1"] == 0.75 and printed["pass@2"] == 1.0 and printed["samples"] == 2
    scored = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in scored] == ["p1", "p2"] and scored[0]["correct"] == [True, False]
    assert main(["eval", "--completions", str(path), "--out", str(out)]) == 2  # never overwritten silently


def test_read_completions_refuses_inconsistent_rows(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": 1, "answer": "2", "completion": "a"}\n{"id": 1, "answer": "3", "completion": "b"}\n')
    with pytest.raises(Exception, match="two different golds"):
        read_completions(str(path))
    path.write_text('{"id": 1, "completion": "a"}\n')
    with pytest.raises(Exception, match="no 'answer'"):
        read_completions(str(path))


def test_vllm_engine_without_vllm_says_how_to_get_it(tmp_path, capsys):
    """On a machine without vLLM the engine fails with the install line, before loading anything."""
    import importlib.util

    from rlvr.harness.local_models import build_qwen2, build_tokenizer

    if importlib.util.find_spec("vllm") is not None:
        pytest.skip("vLLM is installed here")
    tok = build_tokenizer(["What is 1 + 1? \\boxed{2}"], vocab_size=120)
    model_dir = tmp_path / "model"
    build_qwen2(tok, hidden_size=16, num_layers=1, num_heads=2).save_pretrained(model_dir)
    tok.save_pretrained(model_dir)
    data = tmp_path / "data.jsonl"
    data.write_text('{"problem": "What is 1 + 1?", "answer": "2", "unique_id": "a"}\n')
    code = main(["eval", "--model", str(model_dir), "--dataset", "math-500", "--path", str(data), "--engine", "vllm",
                 "--out", str(tmp_path / "o.jsonl")])
    assert code == 1 and "pip install 'rlvr[gpu]'" in capsys.readouterr().err
