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


def _tiny_grpo_trainer(tmp_path, base=None):
    """A real GRPOTrainer of the installed TRL: a 1-layer policy, two prompts, a reward that varies."""
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    from rlvr.harness.local_models import build_qwen2, build_tokenizer
    from rlvr.harness.train import no_activation_checkpointing

    prompts = [[{"role": "user", "content": f"What is {a}+{a}?"}] for a in range(4)]
    tok = build_tokenizer([p[0]["content"] for p in prompts] * 5, vocab_size=300)
    policy = build_qwen2(tok, hidden_size=32, num_layers=1, num_heads=2)

    def length(completions, **kwargs):
        return [float(len(str(c))) for c in completions]

    args = GRPOConfig(output_dir=str(tmp_path / "out"), max_steps=1, per_device_train_batch_size=4, num_generations=2,
                      max_completion_length=6, logging_steps=1, report_to=[], use_cpu=True, bf16=False,
                      save_strategy="no", disable_tqdm=True, **no_activation_checkpointing(GRPOConfig))
    return (base or GRPOTrainer)(model=policy, processing_class=tok, reward_funcs=[length], args=args,
                                 train_dataset=Dataset.from_list([{"prompt": p} for p in prompts]))


def test_the_generation_adapter_runs_against_the_installed_trl(tmp_path):
    """TRL has no public hook between scoring a batch and training on it: the adapter's private step
    must be the installed TRL's. If this fails after a TRL upgrade, the message names the range."""
    from trl import GRPOTrainer

    from rlvr.harness.trl_generation import MERGEABLE_KEYS, REQUIRED_KEYS, check_trainer, with_generation_hook

    check_trainer(GRPOTrainer)
    seen = {}

    def hook(trainer, generate, inputs):
        out = generate(inputs)
        seen["keys"], seen["rows"] = set(out), out["completion_ids"].shape[0]
        again = generate(inputs[:2])  # what dynamic sampling does: more prompts through TRL's own step
        return merge_batches([select_rows(out, list(range(2))), select_rows(again, [0, 1])],
                             trainer.processing_class.pad_token_id)

    trainer = _tiny_grpo_trainer(tmp_path, with_generation_hook(GRPOTrainer, hook, "HookedGRPOTrainer"))
    trainer.train()  # one real step trains on the hook's merged batch
    assert trainer.state.global_step == 1 and seen["rows"] == 4
    assert REQUIRED_KEYS <= seen["keys"] <= MERGEABLE_KEYS, seen["keys"]


def test_a_trl_without_the_step_fails_at_load_naming_the_supported_range(tmp_path):
    from trl import GRPOTrainer, SFTTrainer

    from rlvr.harness.trl_generation import SUPPORTED_TRL, UnsupportedTRLError, check_output, check_trainer

    with pytest.raises(UnsupportedTRLError, match=rf"supported TRL {SUPPORTED_TRL}.*SFTTrainer has no "
                                                  r"_generate_and_score_completions.*dynamic_sampling.enabled=false"):
        check_trainer(SFTTrainer)  # a real TRL trainer class without GRPO's generation step
    renamed = dict(_batch(2, 3, [0.5, -0.5]))
    renamed["advantage"] = renamed.pop("advantages")  # a release that renames a key
    with pytest.raises(UnsupportedTRLError, match=r"batch has no \['advantages'\]"):
        check_output(renamed)
    assert check_output({**_batch(2, 3, [0.5, -0.5]), "pixel_values": torch.zeros(2, 1)}) == {"pixel_values"}
    assert check_trainer(GRPOTrainer) is None
