"""``rlvr select``: rejection sampling, from scored samples to a supervised fine-tuning set.

Reads the ``samples.jsonl`` that ``rlvr sample`` writes and keeps, per problem, at most ``k``
samples that pass every filter, best first (highest RewardSet total; ``shortest_correct`` ranks the
shortest verified sample first, the R1 recipe's preference for concise solutions). Filters, in order,
each with its own drop reason in the report: cut off at the token limit (a truncated sample whose
last sentence happens to state the gold is not a solution to imitate), not verified, total below
``min_total``, shorter than ``min_chars``, longer than ``max_chars`` (or ``max_tokens`` with a
tokenizer), a duplicate of a kept completion (whitespace-normalised), beyond ``k`` for its problem. The output is TRL's conversational
prompt-completion format, so ``SFTTrainer`` trains on the completion only.
"""

from __future__ import annotations

import json
import logging
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlvr.errors import ConfigError

logger = logging.getLogger(__name__)

__all__ = ["SelectOptions", "SelectReport", "select", "select_file"]

DROP_REASONS = ("truncated", "not_verified", "below_min_total", "too_short", "too_long", "duplicate", "over_k")


@dataclass
class SelectOptions:
    k: int = 1
    drop_truncated: bool = True
    require_correct: bool = True
    min_total: float | None = None
    min_chars: int = 1
    max_chars: int | None = None
    max_tokens: int | None = None
    dedupe: bool = True
    shortest_correct: bool = False

    def __post_init__(self) -> None:
        if self.k < 1:
            raise ConfigError(f"k (samples kept per problem) must be >= 1, got {self.k}")
        if self.max_chars is not None and self.max_chars < self.min_chars:
            raise ConfigError(f"max_chars={self.max_chars} is below min_chars={self.min_chars}")


@dataclass
class SelectReport:
    samples: int
    kept: int
    problems: int
    problems_kept: int
    dropped: dict[str, int] = field(default_factory=dict)

    def lines(self) -> list[str]:
        out = [f"kept {self.kept} of {self.samples} samples, covering {self.problems_kept} of {self.problems} problems"]
        out += [f"dropped {n:>6}  {reason}" for reason, n in self.dropped.items() if n]
        return out


def _text(completion: Any) -> str:
    if isinstance(completion, list) and completion and isinstance(completion[-1], dict):
        return str(completion[-1].get("content", ""))
    return "" if completion is None else str(completion)


def _prompt_messages(prompt: Any) -> list[dict[str, str]]:
    if isinstance(prompt, list):
        return [{"role": m["role"], "content": m["content"]} for m in prompt]
    if isinstance(prompt, str) and prompt:
        return [{"role": "user", "content": prompt}]
    raise ConfigError("a sample has no prompt: rlvr select needs the prompt to build a training row "
                      "(pass --dataset to rlvr sample when scoring completions made elsewhere)")


def select(samples: list[dict], options: SelectOptions | None = None, tokenizer: Any = None) -> tuple[list[dict], SelectReport]:
    """The SFT rows kept from ``samples`` and the report of what was dropped and why."""
    o = options or SelectOptions()
    if o.max_tokens is not None and tokenizer is None:
        raise ConfigError("max_tokens needs a tokenizer (--tokenizer); or limit by max_chars")
    dropped: Counter[str] = Counter({r: 0 for r in DROP_REASONS})
    by_problem: dict[str, list[dict]] = defaultdict(list)
    order: dict[str, None] = {}  # problems in first-seen order
    for s in samples:
        key = json.dumps(s["id"], sort_keys=True)
        order.setdefault(key)
        text = _text(s["completion"])
        total = s.get("total")
        if o.drop_truncated and s.get("truncated"):
            dropped["truncated"] += 1
        elif o.require_correct and not s.get("correct"):
            dropped["not_verified"] += 1
        elif o.min_total is not None and (total is None or total < o.min_total):
            dropped["below_min_total"] += 1
        elif len(text.strip()) < o.min_chars:
            dropped["too_short"] += 1
        elif (o.max_chars is not None and len(text) > o.max_chars) or (
                o.max_tokens is not None and len(tokenizer(text, add_special_tokens=False)["input_ids"]) > o.max_tokens):
            dropped["too_long"] += 1
        else:
            by_problem[key].append(s)
    rows = []
    for key in order:
        candidates = by_problem.get(key, [])
        if o.shortest_correct:
            candidates.sort(key=lambda s: (len(_text(s["completion"])), -(s.get("total") or 0.0)))
        else:
            candidates.sort(key=lambda s: (-(s.get("total") if s.get("total") is not None else float("-inf")),
                                           len(_text(s["completion"]))))
        seen: set[str] = set()
        kept = 0
        for s in candidates:
            text = _text(s["completion"])
            norm = " ".join(text.split())
            if o.dedupe and norm in seen:
                dropped["duplicate"] += 1
                continue
            if kept >= o.k:
                dropped["over_k"] += 1
                continue
            seen.add(norm)
            kept += 1
            rows.append({"id": s["id"], "prompt": _prompt_messages(s.get("prompt")),
                         "completion": [{"role": "assistant", "content": text}], "answer": s.get("answer"),
                         "total": s.get("total"), "sample": s.get("sample")})
    report = SelectReport(len(samples), len(rows), len(order), len({json.dumps(r["id"], sort_keys=True) for r in rows}),
                          dict(dropped))
    return rows, report


def select_file(samples_path: str | Path, out_path: str | Path, options: SelectOptions | None = None,
                tokenizer: Any = None) -> SelectReport:
    """Read ``samples.jsonl``, write the SFT set (JSONL) and ``<out>.report.json`` beside it."""
    from rlvr.harness.evaluate import write_rows
    from rlvr.harness.sampling import read_samples

    rows, report = select(read_samples(samples_path), options, tokenizer)
    if not rows:
        raise ConfigError(f"rejection sampling kept nothing from {samples_path} ({', '.join(report.lines()[1:])}); "
                          "sample more per problem (-n), lower --min-total, or pass --keep-unverified")
    out = Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_rows(rows, out)
    out.with_suffix(".report.json").write_text(json.dumps(report.__dict__, indent=2))
    for line in report.lines():
        logger.info("select: %s", line)
    return report
