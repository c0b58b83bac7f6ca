"""DAPO dynamic sampling on TRL's GRPOTrainer: group filtering, batch merging, and a real run."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import torch

from rlvr.harness.dynamic_sampling import kept_groups, merge_batches, select_rows


def _batch(prompt_len: int, completion_len: int, advantages: list[float]) -> dict:
    n = len(advantages)
    return {
        "prompt_ids": torch.arange(n * prompt_len).reshape(n, prompt_len) + 1,
        "prompt_mask": torch.ones(n, prompt_len, dtype=torch.long),
        "completion_ids": torch.arange(n * completion_len).reshape(n, completion_len) + 100,
        "completion_mask": torch.ones(n, completion_len, dtype=torch.long),
        "advantages": torch.tensor(advantages),
        "old_per_token_logps": torch.full((n, completion_len), -1.0),
        "num_items_in_batch": torch.tensor(float(n * completion_len)),
    }


def test_groups_with_equal_rewards_are_dropped():
    adv = torch.tensor([0.0, 0.0, 0.7, -0.7, 0.0, 0.0, 1e-12, -1e-12])
    assert kept_groups(adv, 2) == [1]


def test_merge_pads_prompts_left_and_completions_right():
    a = select_rows(_batch(3, 2, [0.5, -0.5]), [0, 1])
    b = select_rows(_batch(5, 4, [1.0, -1.0]), [0, 1])
    merged = merge_batches([a, b], pad_token_id=0)
    assert merged["prompt_ids"].shape == (4, 5) and merged["completion_ids"].shape == (4, 4)
    assert merged["prompt_mask"][0].tolist() == [0, 0, 1, 1, 1]  # left padding, as TRL pads prompts
    assert merged["completion_mask"][0].tolist() == [1, 1, 0, 0]  # right padding
    assert merged["prompt_ids"][0, :2].tolist() == [0, 0] and merged["completion_ids"][0, 2:].tolist() == [0, 0]
    assert merged["old_per_token_logps"][0].tolist() == [-1.0, -1.0, 0.0, 0.0]
    assert merged["advantages"].tolist() == [0.5, -0.5, 1.0, -1.0]
    assert int(merged["num_items_in_batch"]) == 2 * 2 + 2 * 4  # loss normaliser: real completion tokens


@pytest.mark.slow
def test_a_run_with_dynamic_sampling_trains_and_logs_its_metrics(tmp_path):
    out = tmp_path / "run"
    r = subprocess.run([sys.executable, "-m", "rlvr", "train", "--recipe", "tiny-cpu-smoke", "--set", f"output.dir={out}",
                        "--set", "trainer.dynamic_sampling.enabled=true", "--set",
                        "trainer.dynamic_sampling.max_gen_batches=2"], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    steps = [m for m in map(json.loads, (out / "metrics.jsonl").read_text().splitlines()) if "reward" in m]
    assert len(steps) == 4
    assert all(1 <= m["dynamic_sampling/gen_batches"] <= 2 for m in steps)
    assert all(0.0 <= m["dynamic_sampling/groups_kept_share"] <= 1.0 for m in steps)
    assert (out / "summary.json").is_file()
