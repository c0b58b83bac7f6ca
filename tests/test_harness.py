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


def _grpo_fields():
    import dataclasses

    from trl import GRPOConfig

    from rlvr.harness.trainer_settings import MANAGED

    return [f for f in dataclasses.fields(GRPOConfig) if f.init and f.name not in MANAGED]


def test_every_field_of_the_installed_grpo_config_is_accepted_under_trainer():
    from rlvr.harness.config import to_dict
    from rlvr.typed import default_of

    fields = _grpo_fields()
    assert len(fields) > 100  # TRL 1.16 has about 190
    config = load_recipe("tiny-cpu-smoke", check_hardware=False)
    # every field, written back as --set text at the value it has: accepted, and read back unchanged
    values = to_dict(config)["trainer"]
    again = load_recipe("tiny-cpu-smoke", [f"trainer.{f.name}={json.dumps(values[f.name])}" for f in fields],
                        check_hardware=False)
    assert {f.name: getattr(again.trainer, f.name) for f in fields} == {f.name: values[f.name] for f in fields}
    # TRL's own defaults, except where rlvr documents its own
    from rlvr.harness.trainer_settings import CPU_DEFAULTS

    assert all(values[f.name] == default_of(f) for f in fields if f.name not in CPU_DEFAULTS)


def test_trainer_fields_are_checked_by_their_type():
    from rlvr.harness.trainer_settings import trainer_settings
    from rlvr.typed import build, type_text

    checked = 0
    for f in _grpo_fields():
        text = type_text(f.type).replace(" ", "")
        if text in ("int", "float", "bool", "int|None", "float|None", "bool|None", "str", "str|None"):
            with pytest.raises(ConfigError, match=f"trainer.{f.name} must be"):
                build(trainer_settings(), {f.name: [1, 2]}, "trainer")
            checked += 1
    assert checked > 100
    config = load_recipe("tiny-cpu-smoke", ["trainer.top_entropy_quantile=0.2", "trainer.num_iterations=2"])
    assert config.trainer.top_entropy_quantile == 0.2
    from rlvr.harness.train import _grpo_args

    args = _grpo_args(config, Path("/nonexistent/run"), [0.2, 1.0])  # the real GRPOConfig of the run
    assert args.top_entropy_quantile == 0.2 and args.num_iterations == 2 and args.reward_weights == [0.2, 1.0]
    assert args.use_cpu is True and args.bf16 is False and args.optim == "adamw_torch"
    assert args.output_dir == "/nonexistent/run/checkpoints"
    with pytest.raises(ConfigError, match="trainer.top_entropy_quantile must be a number, got 'high'"):
        load_recipe("tiny-cpu-smoke", ["trainer.top_entropy_quantile=high"])
    with pytest.raises(ConfigError, match=r"trainer.lr_scheduler_type='cosin'; use one of \['linear', 'cosine'"):
        load_recipe("tiny-cpu-smoke", ["trainer.lr_scheduler_type=cosin"])
    with pytest.raises(ConfigError, match="rlvr train --help-config trainer"):
        load_recipe("tiny-cpu-smoke", ["trainer.top_entropy_quantil=0.2"])


@pytest.mark.parametrize(
    "overrides,message",
    [
        (["trainer.generation_batch_size=12"],
         r"trainer.generation_batch_size=12: TRL's GRPOConfig refuses this: generation_batch_size \(12\) must be"),
        (["trainer.auto_find_batch_size=true"], "trainer.auto_find_batch_size=True: TRL's GRPOConfig refuses this"),
        (["trainer.generation_batch_size=16", "trainer.steps_per_generation=2"],
         "trainer.generation_batch_size=16, trainer.steps_per_generation=2: TRL's GRPOConfig refuses these"),
    ],
)
def test_trl_post_init_checks_speak_and_name_the_fields(overrides, message):
    with pytest.raises(ConfigError, match=message):
        load_recipe("tiny-cpu-smoke", overrides, check_hardware=False)


def test_trainer_extra_still_works_and_fields_rlvr_sets_are_refused(caplog, tmp_path):
    recipe = tmp_path / "r.yaml"
    recipe.write_text("trainer:\n  max_steps: 3\n  extra: {top_entropy_quantile: 0.5}\n")
    with caplog.at_level("WARNING"):
        config = load_recipe(str(recipe), check_hardware=False)
    assert config.trainer.top_entropy_quantile == 0.5 and config.trainer.extra == {}
    assert "fields now go directly under trainer:" in caplog.text
    with pytest.raises(ConfigError, match="repeats"):
        load_recipe(str(recipe), ["trainer.top_entropy_quantile=0.1"], check_hardware=False)
    with pytest.raises(ConfigError, match="trainer.output_dir: rlvr sets it from output.dir"):
        load_recipe("tiny-cpu-smoke", ["trainer.output_dir=/tmp/x"])
    with pytest.raises(ConfigError, match="set weight: in each entry of rewards:"):
        load_recipe("tiny-cpu-smoke", ["trainer.reward_weights=[1.0, 1.0]"])


def test_help_config_lists_every_grpo_config_field_with_trls_help():
    r = rlvr("train", "--help-config", "trainer")
    assert r.returncode == 0, r.stderr
    text = " ".join(r.stdout.split())
    for f in _grpo_fields():
        assert f"trainer.{f.name}: " in r.stdout, f.name
        help_text = " ".join(str(f.metadata.get("help", "")).split())
        assert help_text[:60] in text, f.name
    assert "trainer.learning_rate: float = 5e-06 (TRL; rlvr's default, TRL's is 1e-06" in r.stdout
    assert "trainer.max_minutes: float | None = None (rlvr)" in r.stdout
    everything = rlvr("train", "--help-config")
    assert everything.returncode == 0 and "model.lora.r: int = 16" in everything.stdout
    assert "runtime.threads: int | None = None" in everything.stdout
    bad = rlvr("train", "--help-config", "trainr")
    assert bad.returncode == 2 and "sections: " in bad.stderr


def test_a_pipeline_recipe_given_to_train_says_which_command_runs_it():
    with pytest.raises(ConfigError, match="this is a pipeline recipe .*: use rlvr pipeline --recipe r1-pipeline-tiny-cpu"):
        load_recipe("r1-pipeline-tiny-cpu")


@pytest.mark.parametrize("recipe", ["r1-pipeline-tiny-cpu", "r1-pipeline-smollm2-cpu", "r1-pipeline-qwen25-math-gpu"])
def test_pipeline_dry_run_honours_output_dir(recipe, tmp_path, capsys):
    from rlvr.cli import main
    from rlvr.harness.pipeline import load_pipeline, stage_config

    target = tmp_path / "elsewhere"
    assert main(["pipeline", "--recipe", recipe, "--dry-run", "--set", f"output.dir={target}"]) == 0
    assert f"output: {target} " in capsys.readouterr().out
    pipeline = load_pipeline(recipe, [f"output.dir={target}"])
    assert pipeline.output == str(target) and "output.dir" not in pipeline.set
    stage = pipeline.stages[0]
    config = stage_config(pipeline, stage, {"output.dir": str(target / f"01-{stage.name}")}, check_hardware=False)
    assert config.output.dir == str(target / f"01-{stage.name}")


def test_thread_counts_are_set_at_run_start_and_logged(monkeypatch, caplog):
    import torch

    from rlvr.harness.config import RuntimeSettings
    from rlvr.harness.threads import available_cpus, configure_threads

    before = torch.get_num_threads()
    try:
        monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
        monkeypatch.setenv("OMP_WAIT_POLICY", "PASSIVE")
        with caplog.at_level("INFO", logger="rlvr.harness.threads"):
            line = configure_threads(RuntimeSettings())
        assert torch.get_num_threads() == available_cpus() and "OpenMP wait policy PASSIVE" in line
        assert line in caplog.text
        monkeypatch.delenv("OMP_WAIT_POLICY")  # spinning waits: one thread unless the recipe asks for more
        assert "would spin" in configure_threads(RuntimeSettings()) and torch.get_num_threads() == 1
        configure_threads(RuntimeSettings(threads=2))
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)
    with pytest.raises(ConfigError, match="runtime.threads=0; use a value >= 1"):
        load_recipe("tiny-cpu-smoke", ["runtime.threads=0"])


@pytest.mark.slow
def test_smoke_run_end_to_end(tmp_path):
    out = tmp_path / "run"
    r = rlvr("train", "--recipe", "tiny-cpu-smoke", "--set", f"output.dir={out}")
    assert r.returncode == 0, r.stderr[-3000:]
    assert "held-out accuracy (pass@1): before GRPO" in r.stdout
    assert "held-out eval, 8 problems x 1 sample(s)" in r.stdout and "{'n':" not in r.stderr  # a table, no dicts
    # a run with nothing to learn from says so, and the recipe's note says that is expected here
    assert "warning: no learning signal: in all 4 logged GRPO steps" in r.stdout
    assert "note: tiny-cpu-smoke checks the plumbing, not learning" in r.stdout
    assert "OpenMP wait policy PASSIVE" in r.stderr  # the rlvr command's default, logged with the thread counts
    assert "it/s]" not in r.stderr and "examples/s]" not in r.stderr and "step/s]" not in r.stderr  # no bars
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
