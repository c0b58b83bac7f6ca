"""A RewardSet drives real GRPO training steps in TRL's GRPOTrainer on a tiny local model."""

from __future__ import annotations

from pathlib import Path

import pytest

from rlvr.rewards import RewardSet

pytest.importorskip("trl")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    from rlvr.harness.local_models import build_qwen2, build_tokenizer

    corpus = [f"<think>{a}+{b}={a + b}</think><answer>\\boxed{{{a + b}}}</answer> What is {a} plus {b}?"
              for a in range(20) for b in range(20)]
    tok = build_tokenizer(corpus, vocab_size=300)
    model = build_qwen2(tok, hidden_size=32, num_layers=1, num_heads=2)
    return model, tok


def test_grpo_trainer_accepts_rewardset(tiny, tmp_path):
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    model, tok = tiny
    rows = [{"prompt": [{"role": "user", "content": f"What is {a} plus {b}?"}], "answer": str(a + b)}
            for a, b in [(1, 2), (3, 4), (5, 6), (7, 8)]]
    rs = RewardSet.from_config({"rewards": [
        {"name": "format_approx", "weight": 0.5, "params": {"preset": "r1"}},
        {"name": "math_equivalence", "weight": 1.0},
        {"name": "overlong_penalty", "weight": 0.0, "params": {"max_length": 16, "cache_length": 4}},
    ]})
    args = GRPOConfig(output_dir=str(tmp_path), per_device_train_batch_size=4, num_generations=4,
                      max_completion_length=8, max_steps=2, logging_steps=1, use_cpu=True, bf16=False,
                      report_to=[], save_strategy="no", learning_rate=1e-3, reward_weights=rs.weights,
                      temperature=1.0, seed=0, activation_checkpointing=False)
    trainer = GRPOTrainer(model=model, processing_class=tok, reward_funcs=rs.funcs, args=args,
                          train_dataset=Dataset.from_list(rows))
    trainer.train()
    logged = {k for entry in trainer.state.log_history for k in entry}
    for name in rs.names:
        assert f"rewards/{name}/mean" in logged, sorted(logged)
    stats = rs.stats()
    # 2 steps x 4 completions reached every reward, each with a typed status
    assert sum(stats["math_equivalence"].values()) == 8
    assert sum(stats["format_approx"].values()) == 8
    assert any(k.startswith("rewards/math_equivalence/status/") for k in logged)


def _train(tiny, tmp_path, reward_set, rows, steps):
    """``steps`` real GRPO steps on ``rows`` (a conversational dataset) with ``reward_set``."""
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    model, tok = tiny
    args = GRPOConfig(output_dir=str(tmp_path / "grpo"), per_device_train_batch_size=8, num_generations=4,
                      max_completion_length=12, max_steps=steps, logging_steps=1, use_cpu=True, bf16=False,
                      report_to=[], save_strategy="no", learning_rate=1e-3, reward_weights=reward_set.weights,
                      temperature=1.0, seed=0, activation_checkpointing=False)
    trainer = GRPOTrainer(model=model, processing_class=tok, reward_funcs=reward_set.funcs, args=args,
                          train_dataset=Dataset.from_list(rows))
    trainer.train()
    return trainer


CHAT_ROWS = [{"prompt": [{"role": "user", "content": f"What is {a} plus {b}?"}], "answer": str(a + b)}
             for a, b in [(1, 2), (3, 4), (5, 6), (7, 8)]]


def test_a_function_reward_receives_the_completion_text_in_training(tiny, tmp_path):
    """TRL passes chat message lists (a conversational dataset): a function reward gets their text and
    the dataset columns, as in `rlvr score`; a raw_inputs one gets exactly what TRL passed."""
    from rlvr.chat import completion_text
    from rlvr.rewards import reward

    seen, raw = [], []

    @reward("trl_seen_text")
    def seen_text(completions, prompts, answer, **kwargs):
        seen.append({"completions": completions, "prompts": prompts, "answer": answer, "kwargs": sorted(kwargs)})
        return [float(len(c)) for c in completions]

    @reward("trl_seen_raw", raw_inputs=True)
    def seen_raw(completions, **kwargs):
        raw.append({"completions": completions, "kwargs": kwargs})
        return [0.0] * len(completions)

    rs = RewardSet.from_config([{"name": "trl_seen_text"}, {"name": "trl_seen_raw", "weight": 0.0}])
    _train(tiny, tmp_path, rs, CHAT_ROWS, steps=2)
    assert len(seen) == len(raw) == 2
    for text_call, raw_call in zip(seen, raw):
        chats = raw_call["completions"]
        assert all(isinstance(c, list) and c[-1]["role"] == "assistant" for c in chats)  # what TRL passes
        assert text_call["completions"] == [completion_text(c) for c in chats]
        assert all(isinstance(c, str) for c in text_call["completions"])
        assert all(isinstance(p, list) for p in text_call["prompts"])  # prompts as given, like class rewards
        assert text_call["kwargs"] == [] and len(text_call["answer"]) == 8  # no trainer-only arguments
        assert {"completion_ids", "trainer_state", "log_extra", "log_metric"} <= set(raw_call["kwargs"])


README = Path(__file__).resolve().parents[1] / "README.md"


def _readme_files() -> dict[str, str]:
    """The README's code blocks whose first line names a file (``# my_rewards.py``), exactly as printed."""
    import re

    files = {}
    for block in re.findall(r"```[a-z]*\n(.*?)```", README.read_text(encoding="utf-8"), re.S):
        named = re.match(r"# (\S+\.(?:py|yaml))(?:\s|$)", block)
        if named:
            files[named.group(1)] = block
    return files


@pytest.mark.slow
def test_readme_custom_reward_passes_its_fixture_and_pays_in_training_what_score_pays(tiny, tmp_path):
    import json
    import subprocess
    import sys

    import yaml

    from rlvr.chat import completion_text

    files = _readme_files()
    assert {"my_rewards.py", "rewards.yaml", "reward_fixtures/short_answer.yaml"} <= set(files), sorted(files)
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    # plain pytest, in the folder, collects the README's fixture file and passes
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "reward_fixtures"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    cases = len(yaml.safe_load(files["reward_fixtures/short_answer.yaml"])["cases"])
    assert done.returncode == 0 and f"{cases} passed" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]

    # the README's RewardSet, plus short_answer on its own (ungated, so its values vary), in a real GRPO step
    config = yaml.safe_load(files["rewards.yaml"])
    config["rewards"].append({"name": "short_answer", "alias": "short_answer_alone", "weight": 0.0})
    (tmp_path / "train_rewards.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    rs = RewardSet.from_config(str(tmp_path / "train_rewards.yaml"))
    trainer = _train(tiny, tmp_path, rs, CHAT_ROWS, steps=1)
    alone = rs.funcs[rs.names.index("short_answer_alone")]
    completions, results = alone.last_call
    gold = {json.dumps(r["prompt"]): r["answer"] for r in CHAT_ROWS}
    prompts = alone.last_prompts
    assert all(isinstance(c, list) for c in completions)  # TRL's chat messages reached the reward...
    # ...which measured their text, not the list
    assert [r.reason for r in results] == [f"{len(completion_text(c))} of 2000 characters" for c in completions]
    assert len({r.value for r in results}) > 1
    logged = trainer.state.log_history[0]["rewards/short_answer_alone/mean"]
    assert logged == pytest.approx(sum(r.value for r in results) / len(results), abs=1e-6)

    # the same completions through the command line: the same value for every reward
    rows = [{"id": f"s{i}", "prompt": p, "completion": c, "answer": gold[json.dumps(p)]}
            for i, (p, c) in enumerate(zip(prompts, completions))]
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "rlvr", "score", "--rewards", "train_rewards.yaml", "rows.jsonl",
                           "--out", "scored.jsonl"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    scored = [json.loads(line) for line in (tmp_path / "scored.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [s["id"] for s in scored] == [r["id"] for r in rows]
    for name, f in zip(rs.names, rs.funcs):
        trained = [r.value for r in f.last_call[1]]
        assert [s["rewards"][name]["value"] for s in scored] == trained, name


BOOM = '''from rlvr.rewards import reward


@reward("boom_in_user_code")
def boom(completions, **kwargs):
    values = []
    for c in completions:
        values.append(1.0 / (len(c) - len(c)))
    return values
'''


@pytest.mark.slow
def test_a_reward_that_raises_ends_training_and_score_with_one_line_naming_its_line(tmp_path):
    """The user's exception is the user's: one line naming the reward and file:line, never 'internal
    error'; the steps before the limit log its mean as None."""
    import json
    import subprocess
    import sys

    recipe = Path(__file__).resolve().parents[1] / "recipes" / "tiny-cpu-smoke.yaml"
    (tmp_path / "boom.py").write_text(BOOM, encoding="utf-8")
    rewards = "rewards=[{name: boom_in_user_code}, {name: math_equivalence}]"
    done = subprocess.run([sys.executable, "-m", "rlvr", "train", "--import", "boom.py", "--recipe", str(recipe),
                           "--set", rewards, "--set", f"output.dir={tmp_path / 'run'}", "--set", "eval.enabled=false"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    last = done.stderr.strip().splitlines()[-1]
    assert done.returncode == 1, done.stderr[-3000:]
    assert last == ("rlvr train: error: reward 'boom_in_user_code' failed on 3 consecutive batches; last: raised "
                    "ZeroDivisionError: float division by zero (at boom.py:8 in boom)"), last
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    logged = [json.loads(line) for line in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    steps = [row for row in logged if "reward" in row]
    assert len(steps) == 2 and all(row["rewards/boom_in_user_code/mean"] is None for row in steps), steps

    (tmp_path / "rows.jsonl").write_text('{"id": "q1", "completion": "\\\\boxed{2}", "answer": "2"}\n')
    (tmp_path / "r.yaml").write_text("plugins: [boom.py]\nrewards:\n  - {name: boom_in_user_code}\n"
                                     "  - {name: math_equivalence}\n")
    done = subprocess.run([sys.executable, "-m", "rlvr", "score", "--rewards", "r.yaml", "rows.jsonl", "--out",
                           "out.jsonl"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        "rlvr score: error: reward 'boom_in_user_code' raised ZeroDivisionError: float division by zero on 1 of 1 "
        "rows (its values there are None with status 'error'; the other rewards scored) "
        "(at boom.py:8 in boom)")
    row = json.loads((tmp_path / "out.jsonl").read_text())  # every row still scored and written
    assert row["id"] == "q1" and row["rewards"]["math_equivalence"]["value"] == 1.0 and row["total"] == 1.0


FLAKY = '''from rlvr.rewards import reward

calls = []


@reward("flaky_in_user_code")
def flaky(completions, **kwargs):
    calls.append(len(completions))
    if len(calls) == 4:
        raise RuntimeError("only the fourth batch")
    return [0.5 for _ in completions]
'''


@pytest.mark.slow
def test_a_reward_that_raises_once_costs_one_step_of_its_values_and_the_run_finishes(tmp_path):
    """It fails on the last of 4 steps: that step logs None for it (not 0), the run summary, curve and
    report are still written."""
    import json
    import subprocess
    import sys

    recipe = Path(__file__).resolve().parents[1] / "recipes" / "tiny-cpu-smoke.yaml"
    (tmp_path / "flaky.py").write_text(FLAKY, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "rlvr", "train", "--import", "flaky.py", "--recipe", str(recipe),
                           "--set", "rewards=[{name: flaky_in_user_code}, {name: math_equivalence}]",
                           "--set", f"output.dir={tmp_path / 'run'}", "--set", "eval.enabled=false"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    warning = " ".join(done.stderr.split())
    assert "reward 'flaky_in_user_code' raised RuntimeError: only the fourth batch (at flaky.py:10 in flaky)" in warning
    steps = [json.loads(line) for line in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    means = [row["rewards/flaky_in_user_code/mean"] for row in steps if "reward" in row]
    assert means == [0.5, 0.5, 0.5, None]
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    # the last quarter of the run is the None step: no mean for it rather than a 0
    assert "flaky_in_user_code" not in summary["reward_means"] and "math_equivalence" in summary["reward_means"]
    assert (tmp_path / "run" / "reward_curve.png").is_file() and (tmp_path / "run" / "report.html").is_file()
