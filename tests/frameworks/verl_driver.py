"""Score rows through verl's own reward loop (run inside a venv that has verl; see framework_envs.py).

verl's ``RewardLoopWorker`` (the class verl wraps as a Ray actor) is built from verl's packaged
``reward.yaml`` with a local tokenizer, loads the reward function / manager named in the job the
way verl does (``load_reward_manager``), and scores a ``DataProto`` of tokenized prompts and
responses. Usage: ``python verl_driver.py JOB.json OUT.json``; the job holds ``rows`` ({prompt,
completion, gold, data_source, extra_info}), ``tokenizer_dir``, ``custom_reward_function``,
``reward_manager`` and ``reward_kwargs``.
"""

from __future__ import annotations

import asyncio
import json
import sys
from importlib import resources

import numpy as np
import torch
import yaml
from omegaconf import OmegaConf


def config_for(job: dict) -> object:
    reward = yaml.safe_load((resources.files("verl") / "trainer/config/reward/reward.yaml").read_text())
    reward["num_workers"] = 1
    reward["custom_reward_function"].update(job.get("custom_reward_function") or {})
    reward["reward_manager"].update(job.get("reward_manager") or {})
    reward["reward_kwargs"] = job.get("reward_kwargs") or {}
    return OmegaConf.create({"actor_rollout_ref": {"model": {"path": job["tokenizer_dir"], "tokenizer_path": None}},
                             "reward": reward})


def batch_for(rows: list[dict], tokenizer: object) -> object:
    from verl import DataProto

    prompts = [tokenizer(r["prompt"], add_special_tokens=False)["input_ids"] for r in rows]
    responses = [tokenizer(r["completion"], add_special_tokens=False)["input_ids"] for r in rows]
    width_p, width_r = max(map(len, prompts)), max(map(len, responses))
    pad = tokenizer.pad_token_id
    prompt_t = torch.tensor([[pad] * (width_p - len(p)) + p for p in prompts])  # left-padded, as verl's rollout
    response_t = torch.tensor([r + [pad] * (width_r - len(r)) for r in responses])
    mask = torch.tensor([[0] * (width_p - len(p)) + [1] * len(p) + [1] * len(r) + [0] * (width_r - len(r))
                         for p, r in zip(prompts, responses)])
    non_tensors = {
        "data_source": np.array([r.get("data_source", "math_dapo") for r in rows], dtype=object),
        "reward_model": np.array([{"ground_truth": r["gold"], "style": "rule"} for r in rows], dtype=object),
        "extra_info": np.array([dict(r.get("extra_info") or {}) for r in rows], dtype=object),
    }
    return DataProto.from_dict(tensors={"prompts": prompt_t, "responses": response_t, "attention_mask": mask,
                                        "input_ids": torch.cat([prompt_t, response_t], dim=1)},
                               non_tensors=non_tensors), responses


def main(job_path: str, out_path: str) -> None:
    from verl.experimental.reward_loop.reward_loop import RewardLoopWorker

    job = json.loads(open(job_path, encoding="utf-8").read())
    worker = RewardLoopWorker(config_for(job))
    data, responses = batch_for(job["rows"], worker.input_tokenizer)
    outputs = worker.loop.run_until_complete(worker.compute_score_batch(data)) if not worker.loop.is_running() \
        else asyncio.run(worker.compute_score_batch(data))
    result = []
    for out, ids in zip(outputs, responses):
        info = {k: (v.item() if hasattr(v, "item") else v) for k, v in out.get("reward_extra_info", {}).items()}
        result.append({"reward_score": float(out["reward_score"]), "extra": info, "n_tokens": len(ids),
                       "decoded": worker.input_tokenizer.decode(ids, skip_special_tokens=True)})
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
