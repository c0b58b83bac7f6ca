"""DAPO dynamic sampling on top of TRL's GRPOTrainer (TRL has none: its issue #3708 is open).

A group whose completions all earn the same reward has zero advantages and adds no gradient. DAPO
drops such groups and samples more prompts until the batch holds enough groups with signal
(verl: ``algorithm.filter_groups`` with ``max_num_gen_batches``). Here TRL's own generation step is
called again on fresh prompts and the kept groups of every generation batch are merged (prompts
left-padded, completions right-padded, as TRL pads them). When ``max_gen_batches`` is reached the
batch is topped up with dropped groups, so shapes stay fixed and the run goes on; the metrics say how
often that happened. TRL has no public hook for this: :mod:`rlvr.harness.trl_generation` is the one
adapter that reaches its private generation step and checks it against the installed TRL.
"""

from __future__ import annotations

import logging
import random
from typing import Any

logger = logging.getLogger(__name__)

__all__ = ["dynamic_sampling_trainer", "kept_groups", "merge_batches", "select_rows"]

_PROMPT_KEYS = ("prompt_ids", "prompt_mask")  # left-padded, as TRL pads prompts


def kept_groups(advantages: Any, group_size: int, eps: float = 1e-8) -> list[int]:
    """Indices of the groups whose advantages are not all zero (their rewards differ)."""
    n = advantages.shape[0] // group_size
    flat = advantages.reshape(n, group_size).abs().amax(dim=1)
    return [g for g in range(n) if float(flat[g]) > eps]


def select_rows(out: dict[str, Any], rows: list[int]) -> dict[str, Any]:
    """The generation output restricted to ``rows`` (completion indices)."""
    import torch

    index = torch.tensor(rows, dtype=torch.long)
    picked = {}
    for key, value in out.items():
        if key == "num_items_in_batch":
            continue
        picked[key] = value.index_select(0, index.to(value.device))
    return picked


def _pad(tensor: Any, width: int, value: float, left: bool) -> Any:
    import torch.nn.functional as F

    missing = width - tensor.shape[1]
    if missing <= 0:
        return tensor
    return F.pad(tensor, (missing, 0) if left else (0, missing), value=value)


def merge_batches(parts: list[dict[str, Any]], pad_token_id: int) -> dict[str, Any]:
    """Concatenate generation outputs row-wise; prompts left-padded, completions right-padded."""
    import torch

    merged: dict[str, Any] = {}
    for key in parts[0]:
        values = [p[key] for p in parts]
        if values[0].dim() == 1:
            merged[key] = torch.cat(values)
            continue
        width = max(v.shape[1] for v in values)
        left = key in _PROMPT_KEYS
        fill = pad_token_id if key.endswith("_ids") else 0
        merged[key] = torch.cat([_pad(v, width, fill, left) for v in values])
    mask = merged["completion_mask"]
    if "tool_mask" in merged:
        mask = mask * merged["tool_mask"]
    merged["num_items_in_batch"] = mask.sum()
    return merged


def dynamic_sampling_trainer(base: type, max_gen_batches: int = 3, seed: int = 0) -> type:
    """A subclass of ``base`` (TRL's GRPOTrainer) that fills each generation batch with informative groups."""
    from rlvr.harness.trl_generation import with_generation_hook

    return with_generation_hook(base, _DynamicSampler(max_gen_batches, seed), f"DynamicSampling{base.__name__}")


class _DynamicSampler:
    """The hook: TRL's batch, its zero-signal groups replaced by groups of fresh prompts."""

    def __init__(self, max_gen_batches: int, seed: int) -> None:
        self.max_gen_batches, self.rng, self.order = max_gen_batches, random.Random(seed), []
        self.warned = False

    def _extra_rows(self, trainer: Any, groups: int) -> list[dict[str, Any]]:
        """``groups`` fresh prompts from the training set, each repeated once per generation."""
        rows = []
        for _ in range(groups):
            if not self.order:
                self.order = list(range(len(trainer.train_dataset)))
                self.rng.shuffle(self.order)
            row = trainer.train_dataset[self.order.pop()]
            rows += [row] * trainer.num_generations
        return rows

    def __call__(self, trainer: Any, generate: Any, inputs: list[dict[str, Any]]) -> dict[str, Any]:
        from rlvr.harness.trl_generation import check_output, log_metric

        out = generate(inputs)
        if not trainer.model.training or trainer.accelerator.num_processes > 1:
            return out  # eval batches, and multi-process runs (groups are sharded), are left as they are
        unknown = check_output(out)
        if unknown:
            if not self.warned:
                self.warned = True
                logger.warning("dynamic sampling is off for this run: generation outputs %s (multimodal?) "
                               "cannot be merged", sorted(unknown))
            return out
        g = trainer.num_generations
        wanted = out["advantages"].shape[0] // g
        kept, dropped = [], []
        batches, total_groups, total_kept = 0, 0, 0
        while True:
            batches += 1
            groups = kept_groups(out["advantages"], g)
            n = out["advantages"].shape[0] // g
            total_groups += n
            total_kept += len(groups)
            kept.append(select_rows(out, [gi * g + j for gi in groups for j in range(g)]))
            rest = [gi for gi in range(n) if gi not in set(groups)]
            dropped.append(select_rows(out, [gi * g + j for gi in rest for j in range(g)]))
            have = sum(k["advantages"].shape[0] for k in kept) // g
            if have >= wanted or batches >= self.max_gen_batches:
                break
            out = generate(self._extra_rows(trainer, wanted - have))
        parts = [k for k in kept if k["advantages"].shape[0]]
        have = sum(p["advantages"].shape[0] for p in parts) // g
        if have < wanted:  # out of generation batches: top up with groups that carry no signal
            for d in dropped:
                if have >= wanted:
                    break
                take = min(wanted - have, d["advantages"].shape[0] // g)
                if take:
                    parts.append(select_rows(d, list(range(take * g))))
                    have += take
        pad = getattr(trainer.processing_class, "pad_token_id", None)
        if pad is None and hasattr(trainer.processing_class, "tokenizer"):  # a processor wraps the tokenizer
            pad = trainer.processing_class.tokenizer.pad_token_id
        merged = merge_batches(parts, pad)
        merged = select_rows({**merged}, list(range(wanted * g))) | {"num_items_in_batch": None}
        mask = merged["completion_mask"] * merged["tool_mask"] if "tool_mask" in merged else merged["completion_mask"]
        merged["num_items_in_batch"] = mask.sum()
        filled = max(0, wanted - sum(k["advantages"].shape[0] for k in kept) // g)
        log_metric(trainer, "dynamic_sampling/gen_batches", batches)
        log_metric(trainer, "dynamic_sampling/groups_kept_share", total_kept / max(1, total_groups))
        log_metric(trainer, "dynamic_sampling/filled_with_zero_signal", filled)
        log_metric(trainer, "dynamic_sampling/zero_std_share_trained", filled / max(1, wanted))
        return merged
