"""Scoring at scale on Ray Data: one RewardSet (and so one verifier pool) per actor.

``score_dataset(ds, rewards)`` maps a Ray Dataset of rows (``completion`` plus ``prompt``, the gold
and any other columns) to the same rows with ``total`` and ``rewards`` (a JSON string per row with
each reward's value, status and reason, as ``rlvr score --out`` writes them). Order is preserved.
The same code runs on a laptop (``ray.init(num_cpus=2)``) and on a cluster (``ray.init("auto")`` or
``rlvr score --ray ray://head:10001``): actors are placed wherever Ray has CPUs.
"""

from __future__ import annotations

import json
from typing import Any

from rlvr.errors import DependencyMissingError
from rlvr.rewards.scoring import batch_from_rows, build_reward_set, score_rows

__all__ = ["score_dataset", "rows_dataset", "RowScorer"]


def rows_dataset(rows: list[dict[str, Any]]) -> Any:
    """A Ray Dataset of JSON rows whose columns may mix types (text and chat messages): each row is
    carried whole as JSON text next to its index."""
    import ray

    return ray.data.from_items([{"_index": i, "_row": json.dumps(r, ensure_ascii=False, default=str)}
                                for i, r in enumerate(rows)])


class RowScorer:
    """A Ray Data actor: builds its RewardSet once, then scores batches of rows through the scoring core."""

    def __init__(self, rewards: Any) -> None:
        self.reward_set = build_reward_set(rewards)

    def __call__(self, batch: dict[str, Any]) -> dict[str, Any]:
        if "_row" in batch:  # rows carried as JSON text: columns of mixed types (text or chat) fit Arrow
            rows = [json.loads(str(r)) for r in batch["_row"]]
            batch = {k: v for k, v in batch.items() if k != "_row"}
        else:
            keys = list(batch)
            n = len(batch[keys[0]]) if keys else 0
            rows = [{k: _plain(batch[k][i]) for k in keys} for i in range(n)]
        prompts, completions, columns = batch_from_rows(rows)
        scored = score_rows(self.reward_set, prompts, [_plain(c) for c in completions], columns)
        out = dict(batch)
        out["total"] = [r.total for r in scored]
        out["rewards"] = [json.dumps(r.to_dict()["rewards"], ensure_ascii=False, default=str) for r in scored]
        return out


def _plain(value: Any) -> Any:
    """numpy's str_, scalars and object arrays back to Python text, numbers and lists (chat messages)."""
    if isinstance(value, str):
        return str(value)
    if hasattr(value, "tolist"):
        return value.tolist()
    return value


def score_dataset(ds: Any, rewards: Any = None, actors: int = 2, batch_size: int = 256) -> Any:
    """``ds`` (a Ray Dataset of rows) scored by ``rewards`` on ``actors`` actors; order kept. The
    RewardSet is built here first, so a config that cannot load fails before any actor starts."""
    try:
        import ray
    except ImportError:
        raise DependencyMissingError("scoring on Ray needs pip install 'rlvr[ray]'") from None
    build_reward_set(rewards)
    ctx = ray.data.DataContext.get_current()
    ctx.execution_options.preserve_order = True
    return ds.map_batches(RowScorer, fn_constructor_kwargs={"rewards": rewards}, batch_size=batch_size,
                          concurrency=actors, batch_format="numpy", num_cpus=1)
