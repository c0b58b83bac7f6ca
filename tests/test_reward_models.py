"""Reward models: train a Bradley-Terry scorer, evaluate it, and use it as a reward in a GRPO run."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rlvr.errors import ConfigError
from rlvr.harness.rm import evaluate_pairs, load_rm_recipe, train_reward_model


def tiny_recipe(tmp_path, steps=40, n=240):
    recipe_file = tmp_path / "rm.yaml"
    recipe_file.write_text(
        "model: {name_or_path: local-tiny, hidden_size: 32, num_layers: 1}\n"
        f"data: {{name: synthetic, n: {n}}}\n"
        f"training: {{max_steps: {steps}, learning_rate: 3.0e-3, batch_size: 16, max_length: 128}}\n"
        f"output: {{dir: {tmp_path / 'rm'}}}\n")
    return recipe_file


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("rm")
    recipe = load_rm_recipe(str(tiny_recipe(tmp)))
    return recipe, train_reward_model(recipe)


def test_training_lowers_the_loss_and_saves_a_card(trained):
    recipe, metrics = trained
    assert metrics["loss_last"] < metrics["loss_first"]
    out = recipe.output.dir
    card = json.loads(open(f"{out}/rlvr_card.json").read())
    assert "synthetic verifiable pairs" in card["trained_on"] and card["held_out"]["pairs"] == 24
    assert 0.0 <= metrics["accuracy"] <= 1.0 and "malformed" in metrics["accuracy_by_kind"]


def test_evaluation_scores_chosen_against_rejected(trained):
    recipe, _ = trained
    pairs = [{"prompt": "q", "chosen": "a", "rejected": "a"}]
    result = evaluate_pairs(recipe.output.dir, pairs)
    assert result["pairs"] == 1 and result["accuracy"] == 0.0  # identical texts: no margin


def test_trained_model_as_reward_in_a_grpo_run(trained, tmp_path):
    recipe, _ = trained
    out = tmp_path / "run"
    rewards = ("[{name: math_equivalence, weight: 1.0}, "
               f"{{name: reward_model, weight: 0.2, params: {{model: '{recipe.output.dir}', max_length: 128}}}}]")
    r = subprocess.run([sys.executable, "-m", "rlvr", "train", "--recipe", "tiny-cpu-smoke", "--set", f"output.dir={out}",
                        "--set", f"rewards={rewards}", "--set", "eval.enabled=false", "--set", "trainer.max_steps=2"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    metrics = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert any("rewards/reward_model/mean" in m for m in metrics)


def test_recipe_errors():
    with pytest.raises(ConfigError, match="unknown field"):
        load_rm_recipe(None, ["training.steps=3"])
    with pytest.raises(ConfigError, match="eval_share"):
        load_rm_recipe(None, ["data.eval_share=1.5"])


def test_cli_rm_train_and_eval(tmp_path):
    recipe = tiny_recipe(tmp_path, steps=4, n=60)
    r = subprocess.run([sys.executable, "-m", "rlvr", "rm", "train", "--recipe", str(recipe)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    assert '"accuracy"' in r.stdout
    r = subprocess.run([sys.executable, "-m", "rlvr", "rm", "eval", "--model", str(tmp_path / "rm"), "--n", "20"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    assert json.loads(r.stdout)["pairs"] == 20
