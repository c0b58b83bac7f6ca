"""The GRPO harness: recipes and validation, an end-to-end run, resume after kill -9, evaluation."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rlvr.errors import ConfigError
from rlvr.harness.config import load_recipe
from rlvr.harness.checkpoints import checkpoint_problem, last_checkpoint
from rlvr.harness.train import plan

RECIPES = ["default-cpu", "tiny-cpu-smoke", "unsloth-qwen3-working-out", "qwen25-math-r1-dapo", "smollm2-135m-cpu"]


def rlvr(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rlvr", *args], capture_output=True, text=True, **kw)


@pytest.mark.parametrize("recipe", RECIPES)
def test_shipped_recipes_validate_and_plan(recipe):
    config = load_recipe(recipe, check_hardware=False)
    p = plan(config)
    assert p["rewards"] and p["reward_config_hash"] and p["grpo"]


def test_dry_run_prints_config_and_plan_without_loading():
    r = rlvr("train", "--recipe", "unsloth-qwen3-working-out", "--dry-run")
    assert r.returncode == 0, r.stderr
    assert "# resolved config" in r.stdout and "# plan (nothing loaded)" in r.stdout
    assert "check_answer x1" in r.stdout and "LoRA r=32 alpha=64" in r.stdout


@pytest.mark.parametrize(
    "overrides,message",
    [
        (["trainer.per_device_train_batch_size=6", "trainer.num_generations=4"], "not divisible by num_generations"),
        (["trainer.epsilon_high=0.1"], "epsilon_high=0.1 < epsilon=0.2"),
        (["trainer.loss_type=ppo"], "loss_type='ppo'"),
        (["trainer.num_generations=1", "trainer.per_device_train_batch_size=1"], "num_generations must be >= 2"),
        (["trainer.learnig_rate=1e-5"], "did you mean learnig_rate -> learning_rate"),
        (["rewards=[{name: math_equivalance}]"], "Did you mean 'math_equivalence'"),
        (["trainer.max_completion_length=4000"], "exceeds model.max_seq_length"),
        (["trainer"], "use KEY=VALUE"),
    ],
)
def test_validation_errors_say_how_to_fix(overrides, message):
    with pytest.raises(ConfigError, match=message):
        load_recipe("tiny-cpu-smoke", overrides)


def test_gpu_only_settings_are_refused_on_cpu():
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    with pytest.raises(ConfigError, match="needs a CUDA GPU"):
        load_recipe("tiny-cpu-smoke", ["trainer.use_vllm=true"])
    with pytest.raises(ConfigError, match="needs a CUDA GPU"):
        load_recipe("unsloth-qwen3-working-out")


def test_overrides_are_typed():
    config = load_recipe("tiny-cpu-smoke", ["trainer.learning_rate=5e-6", "model.lora.r=2", "trainer.report_to=[]"])
    assert config.trainer.learning_rate == 5e-6 and config.model.lora.r == 2


@pytest.mark.slow
def test_smoke_run_end_to_end(tmp_path):
    out = tmp_path / "run"
    r = rlvr("train", "--recipe", "tiny-cpu-smoke", "--set", f"output.dir={out}")
    assert r.returncode == 0, r.stderr[-3000:]
    assert "held-out accuracy (pass@1): before GRPO" in r.stdout
    for name in ("config.yaml", "versions.json", "metrics.jsonl", "samples.jsonl", "reward_curve.png",
                 "eval_before.json", "eval_after.json", "summary.json"):
        assert (out / name).is_file(), name
    assert (out / "final" / "adapter_config.json").is_file()
    metrics = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    steps = [m for m in metrics if "reward" in m]
    assert len(steps) == 4 and all("rewards/math_equivalence/mean" in m and "step_time_s" in m for m in steps)
    assert any(k.startswith("rewards/math_equivalence/status/") for k in steps[0])
    sample = json.loads((out / "samples.jsonl").read_text().splitlines()[0])
    assert set(sample["rewards"]) == {"format_strict", "math_equivalence"}
    assert sample["rewards"]["math_equivalence"]["reason"]
    versions = json.loads((out / "versions.json").read_text())
    assert versions["trl"] != "not installed" and len(versions["reward_config_hash"]) == 16
    again = rlvr("train", "--recipe", "tiny-cpu-smoke", "--set", f"output.dir={out}", "--set", "eval.enabled=false")
    assert again.returncode == 0 and "--resume" in again.stderr  # a second run never overwrites the first
    assert (tmp_path / "run-2" / "summary.json").is_file()
    # --resume of a finished run: says so, exits 0, rewrites nothing and trains no step past max_steps
    finished = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    r = rlvr("train", "--recipe", "tiny-cpu-smoke", "--set", f"output.dir={out}", "--resume")
    assert r.returncode == 0 and "complete" in r.stderr, r.stderr[-2000:]
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == finished

    r = rlvr("eval", "--model", str(out / "final"), "--dataset", "math-500", "--path",
             str(Path(__file__).parent / "data" / "datasets" / "math500.jsonl"), "--max-new-tokens", "8",
             "--out", str(tmp_path / "eval.jsonl"))
    assert r.returncode == 0, r.stderr[-2000:]
    assert '"pass@1"' in r.stdout
    rows = [json.loads(line) for line in (tmp_path / "eval.jsonl").read_text().splitlines()]
    assert len(rows) == 2 and all(len(row["statuses"]) == 1 for row in rows)
    r = rlvr("eval", "--model", str(out / "final"), "--dataset", "math-500", "--path",
             str(Path(__file__).parent / "data" / "datasets" / "math500.jsonl"), "--out", str(tmp_path / "eval.jsonl"))
    assert r.returncode == 2 and "--force" in r.stderr  # an existing eval output is never overwritten silently


@pytest.mark.slow
def test_resume_after_kill_9_loses_at_most_the_steps_since_the_last_checkpoint(tmp_path):
    out = tmp_path / "run"
    args = ["train", "--recipe", "tiny-cpu-smoke", "--set", f"output.dir={out}", "--set", "trainer.max_steps=60",
            "--set", "trainer.save_steps=2", "--set", "trainer.save_total_limit=null", "--set", "eval.enabled=false"]
    proc = subprocess.Popen([sys.executable, "-m", "rlvr", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (out / "checkpoints" / "checkpoint-4").exists():
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    killed_at = last_checkpoint(out)
    assert killed_at is not None, "no checkpoint was written before the kill"
    saved_step = int(killed_at.name.split("-")[1])
    assert saved_step < 60, "the run finished before it could be killed"
    r = rlvr(*args, "--resume")
    assert r.returncode == 0, r.stderr[-3000:]
    assert "resuming from" in r.stderr and "checkpoint-" in r.stderr
    state = json.loads((last_checkpoint(out) / "trainer_state.json").read_text())
    assert state["global_step"] == 60
    logged = [h["step"] for h in state["log_history"] if "reward" in h]
    assert logged == sorted(set(logged)) and set(range(1, 61)) <= set(logged)


def _fake_checkpoint(root: Path, step: int, state: str | None = None) -> Path:
    """A checkpoint folder shaped like the Trainer's: real safetensors weights, then the state file."""
    from safetensors.torch import save_file
    import torch

    path = root / "checkpoints" / f"checkpoint-{step}"
    path.mkdir(parents=True)
    save_file({"w": torch.arange(64, dtype=torch.float32)}, str(path / "model.safetensors"))
    (path / "trainer_state.json").write_text(state if state is not None else json.dumps({"global_step": step}))
    return path


def test_a_checkpoint_cut_short_by_a_kill_is_skipped_for_the_one_before(tmp_path, caplog):
    good = _fake_checkpoint(tmp_path, 2)
    assert checkpoint_problem(good) is None
    cut_state = _fake_checkpoint(tmp_path, 4, state='{"global_step": 4, "log_history": [{"lo')
    assert "cut short" in checkpoint_problem(cut_state)
    no_state = _fake_checkpoint(tmp_path, 6)
    (no_state / "trainer_state.json").unlink()
    assert "trainer_state.json" in checkpoint_problem(no_state)
    cut_weights = _fake_checkpoint(tmp_path, 8)
    data = (cut_weights / "model.safetensors").read_bytes()
    (cut_weights / "model.safetensors").write_bytes(data[:-10])
    assert "header promises" in checkpoint_problem(cut_weights)
    with caplog.at_level("WARNING", logger="rlvr.harness.checkpoints"):
        assert last_checkpoint(tmp_path) == good
    assert {"checkpoint-4", "checkpoint-6", "checkpoint-8"} <= {m.split(":")[0].split()[-1] for m in caplog.messages}


@pytest.mark.slow
def test_resume_skips_a_half_written_checkpoint_and_keeps_it_aside(tmp_path):
    out = tmp_path / "run"
    args = ["train", "--recipe", "tiny-cpu-smoke", "--set", f"output.dir={out}", "--set", "trainer.save_steps=2",
            "--set", "trainer.save_total_limit=null", "--set", "eval.enabled=false"]
    r = rlvr(*args, "--set", "trainer.max_steps=4")
    assert r.returncode == 0, r.stderr[-3000:]
    state_file = out / "checkpoints" / "checkpoint-4" / "trainer_state.json"
    state_file.write_text(state_file.read_text()[:100])  # what a kill during the save leaves
    r = rlvr(*args, "--set", "trainer.max_steps=6", "--resume")
    assert r.returncode == 0, r.stderr[-3000:]
    assert "skipping checkpoint-4" in r.stderr and "checkpoint-2" in r.stderr
    assert [p.name.split("-")[1] for p in (out / "broken-checkpoints").iterdir()] == ["4"]
    state = json.loads((last_checkpoint(out) / "trainer_state.json").read_text())
    assert state["global_step"] == 6
    assert {h["step"] for h in state["log_history"] if "reward" in h} >= {1, 2, 3, 4, 5, 6}


def test_checkpointing_flag_uses_the_name_the_installed_transformers_knows():
    import dataclasses

    from trl import GRPOConfig

    from rlvr.harness.train import no_activation_checkpointing

    @dataclasses.dataclass
    class Before517:  # transformers <= 5.17 (unsloth's pin): only gradient_checkpointing
        gradient_checkpointing: bool = False

    assert no_activation_checkpointing(Before517) == {"gradient_checkpointing": False}
    chosen = no_activation_checkpointing(GRPOConfig)
    assert set(chosen) <= {f.name for f in dataclasses.fields(GRPOConfig)}
