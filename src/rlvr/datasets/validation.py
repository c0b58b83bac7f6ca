"""Checks that make a data set safe to train on: gold answers the verifier can parse, prompt lengths."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

logger = logging.getLogger(__name__)

__all__ = ["GoldReport", "check_golds", "filter_prompt_length"]


@dataclass
class GoldReport:
    """How many rows were checked, which golds the verifier cannot parse (row id, gold, reason)."""

    total: int
    bad: list[tuple[str, str, str]] = field(default_factory=list)
    duplicates_removed: int = 0

    def summary(self, examples: int = 3) -> str:
        if not self.bad:
            return f"all {self.total} gold answers parse"
        shown = "; ".join(f"{rid}: {gold!r} ({why})" for rid, gold, why in self.bad[:examples])
        return f"{len(self.bad)} of {self.total} gold answers do not parse, e.g. {shown}"


def check_golds(rows: list[dict[str, Any]], verifier_config: Any = None) -> GoldReport:
    """Parse every row's ``answer`` with the verifier (deduplicated, in parallel in the sandbox)."""
    from rlvr.verifiers import validate_golds

    reasons = validate_golds([r["answer"] for r in rows], verifier_config)
    bad = [(r["id"], r["answer"], why) for r, why in zip(rows, reasons) if why is not None]
    return GoldReport(len(rows), bad)


def filter_prompt_length(dataset: Any, tokenizer: Any, quantile: float | None = 0.9, max_tokens: int | None = None,
                         num_proc: int | None = None) -> tuple[Any, int]:
    """Keep rows whose templated prompt is at most the ``quantile`` of lengths (the Unsloth recipe keeps
    the 90th percentile) and at most ``max_tokens``; returns (filtered data set, cutoff in tokens)."""
    import numpy as np

    def measure(row: dict[str, Any]) -> dict[str, int]:
        if getattr(tokenizer, "chat_template", None):
            ids = tokenizer.apply_chat_template(row["prompt"], add_generation_prompt=True, tokenize=True)
            if isinstance(ids, dict) or hasattr(ids, "keys"):
                ids = ids["input_ids"]
        else:
            ids = tokenizer("\n".join(m["content"] for m in row["prompt"]))["input_ids"]
        return {"prompt_tokens": len(ids)}

    measured = dataset.map(measure, num_proc=num_proc, desc="measuring prompts")
    lengths = np.array(measured["prompt_tokens"])
    cutoff = int(np.quantile(lengths, quantile)) if quantile is not None else int(lengths.max())
    if max_tokens is not None:
        cutoff = min(cutoff, max_tokens)
    kept = measured.filter(lambda row: row["prompt_tokens"] <= cutoff, num_proc=num_proc, desc="length filter")
    logger.info("prompt length filter: kept %d of %d rows (cutoff %d tokens)", len(kept), len(measured), cutoff)
    return kept, cutoff
