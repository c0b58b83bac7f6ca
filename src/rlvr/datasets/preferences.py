"""Preference pairs (prompt, chosen, rejected) for reward-model training.

Accepts plain strings, chat-message lists, and chat lists stored as their Python/JSON string form
(``"[{'role': 'user', 'content': '...'}]"``, as some exports write them; parsed with
``ast.literal_eval``, which reads literals only and never executes code). Pairs that cannot train a
model (identical chosen/rejected, empty or over-long texts) are counted, reported and skipped.
"""

from __future__ import annotations

import ast
import json
import logging
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlvr.errors import ConfigError

logger = logging.getLogger(__name__)

__all__ = ["load_preferences", "PairReport", "parse_chat", "synthetic_pairs"]


@dataclass
class PairReport:
    total: int = 0
    kept: int = 0
    skipped: dict[str, list[int]] = field(default_factory=dict)

    def skip(self, why: str, index: int) -> None:
        self.skipped.setdefault(why, []).append(index)

    def summary(self) -> str:
        parts = [f"{why}: {len(rows)} (rows {rows[:5]})" for why, rows in self.skipped.items()]
        return f"kept {self.kept} of {self.total} pairs" + ("; skipped " + "; ".join(parts) if parts else "")


def parse_chat(value: Any) -> Any:
    """A string, a list of messages, or the string form of a list of messages -> str or list."""
    if isinstance(value, str):
        s = value.strip()
        if s.startswith("[{") and s.endswith("}]"):
            for parse in (json.loads, ast.literal_eval):
                try:
                    parsed = parse(s)
                except (ValueError, SyntaxError, json.JSONDecodeError):
                    continue
                if isinstance(parsed, list) and all(isinstance(m, dict) and "content" in m for m in parsed):
                    return parsed
        return value
    if isinstance(value, list) and all(isinstance(m, dict) and "content" in m for m in value):
        return value
    raise ConfigError(f"expected text or a list of chat messages, got {type(value).__name__}")


def _text(value: Any) -> str:
    return value if isinstance(value, str) else "\n".join(str(m.get("content", "")) for m in value)


def load_preferences(path: str | Path | list[dict[str, Any]], prompt_field: str = "prompt",
                     chosen_field: str = "chosen", rejected_field: str = "rejected",
                     max_chars: int = 20_000) -> tuple[Any, PairReport]:
    """A ``datasets.Dataset`` of (prompt, chosen, rejected[, margin]) and the report of skipped pairs."""
    import datasets

    from rlvr.datasets.loaders import read_records

    records = path if isinstance(path, list) else read_records(path)
    report = PairReport(total=len(records))
    rows = []
    for i, r in enumerate(records):
        missing = [f for f in (chosen_field, rejected_field) if f not in r]
        if missing:
            raise ConfigError(f"preference row {i}: missing field(s) {missing}; fields present: {sorted(r)}. "
                              "Pass chosen_field=/rejected_field= to map them")
        try:
            prompt = parse_chat(r.get(prompt_field, ""))
            chosen, rejected = parse_chat(r[chosen_field]), parse_chat(r[rejected_field])
        except ConfigError as exc:
            report.skip(f"malformed ({exc})", i)
            continue
        c, rj = _text(chosen), _text(rejected)
        if not c.strip() or not rj.strip():
            report.skip("empty chosen or rejected", i)
        elif c.strip() == rj.strip():
            report.skip("chosen identical to rejected", i)
        elif len(c) + len(_text(prompt)) > max_chars or len(rj) + len(_text(prompt)) > max_chars:
            report.skip(f"longer than {max_chars} characters", i)
        else:
            row = {"prompt": prompt, "chosen": chosen, "rejected": rejected}
            if "margin" in r:
                row["margin"] = float(r["margin"])
            rows.append(row)
    # Arrow needs one type per column: when any row is conversational, make every row so
    for key, role in (("prompt", "user"), ("chosen", "assistant"), ("rejected", "assistant")):
        if any(isinstance(r[key], list) for r in rows):
            for r in rows:
                if isinstance(r[key], str):
                    r[key] = [{"role": role, "content": r[key]}] if r[key] else []
    if any("margin" in r for r in rows):
        for r in rows:
            r.setdefault("margin", 0.0)
    report.kept = len(rows)
    if report.skipped:
        logger.warning("preference pairs: %s", report.summary())
    if not rows:
        raise ConfigError(f"no usable preference pairs: {report.summary()}")
    return datasets.Dataset.from_list(rows), report


def synthetic_pairs(n: int = 1000, level: int | list[int] = (1, 2), seed: int = 0, split: str = "train",
                    template: Any = None) -> list[dict[str, Any]]:
    """Verifiable pairs from synthetic math: a correct worked solution is chosen over a wrong one
    (correct steps, then a final answer that contradicts them) or a malformed one (the right number
    without the answer format)."""
    from rlvr.datasets.synthetic import synthetic_rows
    from rlvr.datasets.templates import get_template

    # default: the r1 answer format without its long system prompt (keeps pairs short for small scorers)
    tmpl = get_template(template or {"name": "r1-bare", "answer_format": "think_answer"})
    rng = random.Random(f"pairs-{seed}-{split}")
    pairs = []
    for problem, gold, _rid, fields in synthetic_rows(n=n, level=list(level) if not isinstance(level, int) else level,
                                                      seed=seed, split=split):
        good = tmpl.format_solution(fields["reasoning"], gold)
        if rng.random() < 0.5:
            # the worked steps stay right but the final answer contradicts them: the slip a verifier
            # catches and a reward model can learn to see (comparing the last step with the answer)
            wrong = str(int(gold) + rng.choice([-2, -1, 1, 2])) if gold.lstrip("-").isdigit() else gold + "+1"
            bad = tmpl.format_solution(fields["reasoning"], wrong)
            kind = "wrong_answer"
        else:
            bad = f"{fields['reasoning']} So it is {gold}."
            kind = "malformed"
        pairs.append({"prompt": tmpl.messages(problem), "chosen": [{"role": "assistant", "content": good}],
                      "rejected": [{"role": "assistant", "content": bad}], "kind": kind, "answer": gold})
    return pairs
