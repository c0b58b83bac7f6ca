"""R1 pipeline stages on the tiny local model: sample, select, sft, distill and the staged pipeline.

Real TRL trainers (SFTTrainer, GKDTrainer, GRPOTrainer), the real verifier, a model built locally.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rlvr.errors import ConfigError
from rlvr.harness.selection import SelectOptions, select

pytestmark = pytest.mark.slow

TINY = ["model.hidden_size=32", "model.num_layers=1", "model.num_heads=2", "model.vocab_size=200",
        "data.options.n=400", "trainer.max_prompt_length=64", "eval.n=16", "eval.samples=2", "eval.batch_size=16", "trainer.seed=0"]


def rlvr(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rlvr", *args], capture_output=True, text=True, cwd=cwd)


def _sample(i: int, problem: str, completion: str, correct: bool, total: float | None) -> dict:
    return {"id": problem, "sample": i, "prompt": [{"role": "user", "content": f"q {problem}"}],
            "completion": completion, "answer": "4", "correct": correct, "total": total}


def test_select_keeps_the_best_verified_samples_and_says_why_others_went():
    rows = [
        _sample(0, "a", "<answer>4</answer> long way round", True, 1.0),
        _sample(1, "a", "<answer>4</answer>", True, 1.2),
        _sample(2, "a", "<answer>4</answer>  ", True, 1.2),  # the same text, whitespace aside
        _sample(3, "a", "<answer>5</answer>", False, 0.2),
        _sample(4, "b", "<answer>9</answer>", False, 0.0),
        _sample(5, "c", "x" * 500 + "<answer>4</answer>", True, 1.0),
        _sample(6, "c", "<answer>4</answer> short", True, 0.4),
        {**_sample(7, "c", "<answer>4</answer> and then we multiply by", True, 2.0), "truncated": True},
    ]
    kept, report = select(rows, SelectOptions(k=1, max_chars=200))
    assert [(r["id"], r["sample"]) for r in kept] == [("a", 1), ("c", 6)]  # highest total; too-long dropped
    assert kept[0]["prompt"] == [{"role": "user", "content": "q a"}]
    assert kept[0]["completion"] == [{"role": "assistant", "content": "<answer>4</answer>"}]
    assert report.dropped == {"truncated": 1, "not_verified": 2, "below_min_total": 0, "too_short": 0,
                              "too_long": 1, "duplicate": 1, "over_k": 1}
    assert (report.samples, report.kept, report.problems, report.problems_kept) == (8, 2, 3, 2)
    # kept on request, the cut-off sample's high total puts it first
    assert select(rows, SelectOptions(k=1, max_chars=200, drop_truncated=False))[0][1]["sample"] == 7
    shortest, _ = select(rows, SelectOptions(k=2, shortest_correct=True))
    assert [r["sample"] for r in shortest if r["id"] == "a"] == [1, 0]
    assert [r["sample"] for r in select(rows, SelectOptions(k=3, min_total=1.1))[0]] == [1]
    with pytest.raises(ConfigError, match="k .* must be >= 1"):
        SelectOptions(k=0)
    with pytest.raises(ConfigError, match="max_tokens needs a tokenizer"):
        select(rows, SelectOptions(max_tokens=10))


def test_sample_scores_completions_made_elsewhere(tmp_path):
    from rlvr.harness.sampling import sample

    completions = tmp_path / "c.jsonl"
    completions.write_text("\n".join(json.dumps(r) for r in [
        {"id": "p1", "answer": "4", "completions": ["\\boxed{4}", "\\boxed{5}", "so \\boxed{4}", "no idea"]},
        {"id": "p2", "answer": "\\frac12", "completions": ["\\boxed{0.5}"] * 4},
        {"id": "p3", "answer": "7", "completions": ["\\boxed{1}"] * 4},
    ]) + "\n")
    summary = sample(tmp_path / "out", completions_file=str(completions),
                     rewards={"rewards": [{"name": "math_equivalence"}, {"name": "boxed_answer", "weight": 0.1}]})
    assert summary.problems == 3 and summary.samples_per_problem == 4
    assert summary.pass_at_1 == pytest.approx((0.5 + 1.0 + 0.0) / 3)
    assert (summary.solved_all, summary.solved_none) == (1, 1)
    rows = [json.loads(x) for x in (tmp_path / "out" / "samples.jsonl").read_text().splitlines()]
    assert len(rows) == 12 and rows[1]["correct"] is False and rows[1]["status"] == "incorrect"
    assert set(rows[0]["rewards"]) == {"math_equivalence", "boxed_answer"} and rows[0]["reason"]
    problems = [json.loads(x) for x in (tmp_path / "out" / "problems.jsonl").read_text().splitlines()]
    assert [p["pass_rate"] for p in problems] == [0.5, 1.0, 0.0]
    assert (tmp_path / "out" / "difficulty.png").stat().st_size > 1000
    assert (tmp_path / "out" / "pass_at_k.png").stat().st_size > 1000
    # without prompts, select refuses with a fix instead of writing rows it cannot train on
    r = rlvr("select", str(tmp_path / "out" / "samples.jsonl"), "--out", str(tmp_path / "sft.jsonl"))
    assert r.returncode != 0 and "needs the prompt" in r.stderr


def test_pipeline_runs_every_stage_resumes_and_reruns_from_a_stage(tmp_path):
    recipe = tmp_path / "pipe.yaml"
    recipe.write_text(json.dumps({
        "base": "default-cpu", "output": str(tmp_path / "pipe"), "set": TINY,
        "stages": [
            {"name": "cold", "type": "sft", "set": {"sft.max_steps": 30, "sft.batch_size": 16, "sft.examples": 400,
                                                    "sft.learning_rate": 3.0e-3}},
            {"name": "rl", "type": "grpo", "set": {"trainer.max_steps": 2, "trainer.per_device_train_batch_size": 16}},
            {"name": "sample", "type": "sample", "set": {"sample.n": 4, "sample.problems": 24}},
            {"name": "select", "type": "select", "set": {"select.k": 2, "select.require_correct": False}},
            {"name": "sft2", "type": "sft", "set": {"sft.max_steps": 3, "sft.batch_size": 8}},
        ]}))
    r = rlvr("pipeline", "--recipe", str(recipe), cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    result = json.loads((tmp_path / "pipe" / "pipeline.json").read_text())
    stages = {s["name"]: s for s in result["stages"]}
    assert list(stages) == ["cold", "rl", "sample", "select", "sft2"]
    # each stage started from the previous one's output
    rl_config = (tmp_path / "pipe" / "02-rl" / "config.yaml").read_text()
    assert stages["cold"]["model_dir"] in rl_config and "enabled: false" in rl_config
    assert json.loads((tmp_path / "pipe" / "02-rl" / "eval_before.json").read_text()) == \
        stages["cold"]["summary"]["after"]  # the same model is not evaluated twice
    samples = [json.loads(x) for x in Path(stages["sample"]["samples"]).read_text().splitlines()]
    assert len(samples) == 24 * 4 and all("rewards" in s and "reason" in s for s in samples)
    assert all(isinstance(s["truncated"], bool) for s in samples)  # generation knows where it stopped
    sft_rows = [json.loads(x) for x in Path(stages["select"]["sft_data"]).read_text().splitlines()]
    assert 0 < len(sft_rows) <= 48 and stages["select"]["report"]["kept"] == len(sft_rows)
    sft2 = (tmp_path / "pipe" / "05-sft2" / "config.yaml").read_text()
    assert stages["select"]["sft_data"] in sft2 and stages["rl"]["model_dir"] in sft2
    assert stages["sft2"]["summary"]["rows"] == len(sft_rows) and Path(result["model"], "config.json").is_file()
    assert "reused" not in r.stderr
    # a re-run finds every stage done; --from-stage redoes that stage and the ones after it
    again = rlvr("pipeline", "--recipe", str(recipe), cwd=tmp_path)
    assert again.returncode == 0 and again.stderr.count("done earlier") == 5
    redo = rlvr("pipeline", "--recipe", str(recipe), "--from-stage", "select", cwd=tmp_path)
    assert redo.returncode == 0, redo.stderr[-2000:]
    assert redo.stderr.count("done earlier") == 3
    assert len(list((tmp_path / "pipe").glob("04-select.old-*"))) == 1


def test_sft_resumes_and_distill_matches_a_teacher_with_the_same_tokenizer(tmp_path):
    from rlvr.harness.config import load_recipe
    from rlvr.harness.sft import run_distill, run_sft

    base = TINY + ["eval.enabled=false", "sft.examples=200", "sft.batch_size=8", "sft.learning_rate=3e-3"]
    first = run_sft(load_recipe("default-cpu", base + [f"output.dir={tmp_path / 'sft'}", "sft.max_steps=4",
                                                      "sft.save_steps=2"]))
    assert first.steps == 4 and Path(first.model_dir, "config.json").is_file()
    assert first.loss_last < first.loss_first
    more = run_sft(load_recipe("default-cpu", base + [f"output.dir={tmp_path / 'sft'}", "sft.max_steps=6",
                                                     "sft.save_steps=2"]), resume=True)
    assert more.run_dir == first.run_dir and more.steps == 6  # continued from checkpoint-4, not from 0
    teacher = first.model_dir
    kd = run_distill(load_recipe("default-cpu", base + [f"output.dir={tmp_path / 'kd'}", "sft.max_steps=2",
                                                       f"model.name_or_path={teacher}", f"distill.teacher={teacher}",
                                                       "distill.max_new_tokens=8"]))
    assert kd.steps == 2 and Path(kd.model_dir, "config.json").is_file()
    with pytest.raises(ConfigError, match="different tokenizers"):
        other = run_sft(load_recipe("default-cpu", base + [f"output.dir={tmp_path / 'other'}", "sft.max_steps=1",
                                                           "model.vocab_size=400"]))
        run_distill(load_recipe("default-cpu", base + [f"output.dir={tmp_path / 'kd2'}", "sft.max_steps=1",
                                                      f"model.name_or_path={other.model_dir}",
                                                      f"distill.teacher={teacher}"]))


def test_grpo_time_budget_stops_early_with_a_checkpoint(tmp_path):
    from rlvr.harness.config import load_recipe
    from rlvr.harness.train import run

    config = load_recipe("default-cpu", TINY + ["eval.enabled=false", "cold_start.enabled=false",
                                                "trainer.max_steps=50", "trainer.max_minutes=0.0001",
                                                "trainer.per_device_train_batch_size=16",
                                                f"output.dir={tmp_path / 'run'}"])
    summary = run(config)
    assert summary.steps == 1  # the budget ran out after the first step
    assert (tmp_path / "run" / "checkpoints" / "checkpoint-1").is_dir()  # and the stop saved the state


def test_shipped_pipeline_recipes_resolve_every_stage():
    for name in ("r1-pipeline-tiny-cpu", "r1-pipeline-smollm2-cpu", "r1-pipeline-qwen25-math-gpu"):
        r = rlvr("pipeline", "--recipe", name, "--dry-run")
        assert r.returncode == 0, r.stderr[-2000:]
        assert "output: runs/" in r.stdout
    bad = rlvr("pipeline", "--recipe", "r1-pipeline-tiny-cpu", "--from-stage", "nope")
    assert bad.returncode == 2 and "not a stage" in bad.stderr


def test_sample_and_select_from_the_command_line(tmp_path):
    """Completions made elsewhere, matched to the data set's prompts by id, then rejection-sampled."""
    from rlvr.datasets import load

    ds = load("synthetic", n=3, level=2, template="boxed")  # not the default level: --option must reach the loader
    rows = [{"id": ds[i]["id"], "answer": ds[i]["answer"],
             "completions": [f"\\boxed{{{ds[i]['answer']}}}", "\\boxed{-1}", f"So it is \\boxed{{{ds[i]['answer']}}}."]}
            for i in range(3)]
    (tmp_path / "c.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    r = rlvr("sample", "--completions", str(tmp_path / "c.jsonl"), "--dataset", "synthetic", "--problems", "3",
             "--option", "level=2", "--option", "n=3", "--out", str(tmp_path / "s"))
    assert r.returncode == 0, r.stderr[-2000:]
    assert "pass@1 66.7%" in r.stdout and "pass@3 100.0%" in r.stdout
    r = rlvr("select", str(tmp_path / "s" / "samples.jsonl"), "-k", "1", "--out", str(tmp_path / "sft.jsonl"))
    assert r.returncode == 0, r.stderr[-2000:]
    assert "kept 3 of 9 samples, covering 3 of 3 problems" in r.stdout and "not_verified" in r.stdout
    kept = [json.loads(x) for x in (tmp_path / "sft.jsonl").read_text().splitlines()]
    assert [k["prompt"] for k in kept] == [list(ds[i]["prompt"]) for i in range(3)]
    assert json.loads((tmp_path / "sft.report.json").read_text())["dropped"]["not_verified"] == 3
    for command in (["sft", "--data", str(tmp_path / "sft.jsonl")], ["distill", "--teacher", "t", "--student", "s"]):
        dry = rlvr(*command, "--dry-run")
        assert dry.returncode == 0 and "output:" in dry.stdout, dry.stderr[-1000:]
