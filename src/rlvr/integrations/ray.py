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

__all__ = ["score_dataset", "rows_dataset", "RowScorer"]


def rows_dataset(rows: list[dict[str, Any]]) -> Any:
    """A Ray Dataset of JSON rows whose columns may mix types (text and chat messages): each row is
    carried whole as JSON text next to its index."""
    import ray

    return ray.data.from_items([{"_index": i, "_row": json.dumps(r, ensure_ascii=False, default=str)}
                                for i, r in enumerate(rows)])


class RowScorer:
    """A Ray Data actor: builds its RewardSet once, then scores batches of rows."""

    def __init__(self, rewards: Any) -> None:
        from rlvr.rewards import RewardSet

        self.reward_set = RewardSet.from_config(rewards if rewards is not None else [{"name": "math_equivalence"}])

    def __call__(self, batch: dict[str, Any]) -> dict[str, Any]:
        if "_row" in batch:  # rows carried as JSON text: columns of mixed types (text or chat) fit Arrow
            decoded = [json.loads(str(r)) for r in batch["_row"]]
            keys = sorted({k for r in decoded for k in r})
            as_list = {k: [r.get(k) for r in decoded] for k in keys}
            batch = {k: v for k, v in batch.items() if k != "_row"}
        else:
            as_list = {k: [v.item() if hasattr(v, "item") and not isinstance(v, (str, bytes)) else v for v in values]
                       for k, values in batch.items()}
        n = len(as_list["completion"])
        if "answer" not in as_list and "gold" in as_list:
            as_list["answer"] = as_list["gold"]
        columns = {k: v for k, v in as_list.items() if k not in ("prompt", "completion")}
        rows = self.reward_set.explain(prompts=as_list.get("prompt", [""] * n),
                                       completions=[_plain(c) for c in as_list["completion"]], **columns)
        out = dict(batch)
        out["total"] = [r["total"] for r in rows]
        out["rewards"] = [json.dumps({k: v.to_dict() for k, v in r["rewards"].items()}, ensure_ascii=False,
                                     default=str) for r in rows]
        return out


def _plain(value: Any) -> Any:
    """numpy's str_ and object arrays back to Python text and lists (chat messages)."""
    if isinstance(value, str):
        return str(value)
    if hasattr(value, "tolist"):
        return value.tolist()
    return value


def score_dataset(ds: Any, rewards: Any = None, actors: int = 2, batch_size: int = 256) -> Any:
    """``ds`` (a Ray Dataset of rows) scored by ``rewards`` on ``actors`` actors; order kept."""
    try:
        import ray
    except ImportError:
        raise DependencyMissingError("scoring on Ray needs pip install 'rlvr[ray]'") from None
    ctx = ray.data.DataContext.get_current()
    ctx.execution_options.preserve_order = True
    return ds.map_batches(RowScorer, fn_constructor_kwargs={"rewards": rewards}, batch_size=batch_size,
                          concurrency=actors, batch_format="numpy", num_cpus=1)
