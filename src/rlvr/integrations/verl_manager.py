"""A verl reward manager that scores with an rlvr RewardSet and gives it what verl's own managers do not.

verl's ``naive`` and ``dapo`` managers call a custom ``compute_score`` with the decoded response
only. This manager (``reward.reward_manager: {source: importlib, name: RlvrRewardManager,
module: {path: pkg://rlvr.integrations.verl_manager}}``) also passes the decoded prompt and the
response's token ids, so prompt-aware rewards and token-length shaping work, and it reads DAPO's
``reward.reward_kwargs.overlong_buffer_cfg`` / ``max_resp_len`` as the equivalent rlvr reward
(:func:`rlvr.integrations.verl.overlong_entry`): a DAPO recipe switches to it with the same numbers.
It builds the RewardSet when verl constructs it, so a config that cannot load fails the run at start.

This module imports verl; rlvr never imports it itself (only verl's loader does).
"""

from __future__ import annotations

from typing import Any

from verl import DataProto
from verl.experimental.reward_loop.reward_manager.base import RewardManagerBase

from rlvr.integrations.verl import compute_score_batch, overlong_entry
from rlvr.rewards.scoring import shared_reward_set

__all__ = ["RlvrRewardManager"]


class RlvrRewardManager(RewardManagerBase):
    """Scores one verl sample at a time (verl's reward loop runs them concurrently) with rlvr."""

    def __init__(self, config: Any, tokenizer: Any, compute_score: Any = None, reward_router_address: Any = None,
                 reward_model_tokenizer: Any = None) -> None:
        super().__init__(config, tokenizer, compute_score)
        reward_kwargs = dict(config.reward.get("reward_kwargs", None) or {})
        custom = dict((config.reward.get("custom_reward_function", None) or {}).get("reward_kwargs", None) or {})
        self.rewards = custom.get("rewards") or reward_kwargs.get("rewards")
        self.extra_reward = overlong_entry(reward_kwargs.get("overlong_buffer_cfg"), reward_kwargs.get("max_resp_len"))
        shared_reward_set(self.rewards, self.extra_reward)  # a broken config fails here, before any rollout

    def _texts(self, item: Any) -> tuple[str, str, list[int]]:
        prompt_ids, response_ids = item.batch["prompts"], item.batch["responses"]
        mask = item.batch["attention_mask"]
        n_prompt, n_response = prompt_ids.shape[-1], response_ids.shape[-1]
        valid_prompt = prompt_ids[n_prompt - int(mask[:n_prompt].sum()):]  # verl left-pads prompts
        valid_response = response_ids[:int(mask[-n_response:].sum())]
        return (self.tokenizer.decode(valid_prompt, skip_special_tokens=False),
                self.tokenizer.decode(valid_response, skip_special_tokens=True), valid_response.tolist())

    async def run_single(self, data: DataProto) -> dict:
        item = data[-1:][0]  # as verl's managers do: the last sequence of a multi-sequence output
        prompt, response, ids = await self.loop.run_in_executor(None, self._texts, item)
        extra_info = dict(item.non_tensor_batch.get("extra_info", None) or {})
        extra_info.setdefault("prompt", prompt)
        extra_info["completion_ids"] = ids
        ground_truth = item.non_tensor_batch["reward_model"]["ground_truth"]
        row = await self.loop.run_in_executor(
            None, lambda: compute_score_batch([item.non_tensor_batch["data_source"]], [response], [ground_truth],
                                              [extra_info], rewards=self.rewards, _extra_reward=self.extra_reward)[0])
        return {"reward_score": row["score"], "reward_extra_info": row}
