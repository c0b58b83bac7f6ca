"""``rlvr grm eval``: a generative judge on preference pairs, as DeepSeek-GRM measures one.

For each pair (a prompt, the chosen and the rejected response, optionally a gold answer) the judge
scores both responses together; a pair counts as right only when the chosen response gets the
strictly higher value (ties and abstentions are wrong, as the paper counts them). One run of k
sampled judgments per pair gives voting@j for every j <= k (the first j samples) and MetaRM@k (the
meta RM's top k_meta of the k); a greedy judgment and a no-principles run sit beside them, and the
Bradley-Terry reward model (``rlvr rm train``) scores the same pairs. Every judgment goes through
the verdict cache, so a re-run (or ``rlvr grm train`` on judgments made here) pays nothing twice.
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlvr.chat import completion_text
from rlvr.errors import ConfigError
from rlvr.rewards.builtin.grm import query_text
from rlvr.rewards.judges import EngineSettings, GroupVerdict, JudgeEngine, JudgePrompt, VerdictCache, vote
from rlvr.rewards.judges.backends import JudgeBackend

logger = logging.getLogger(__name__)

__all__ = ["read_pairs", "JudgeRun", "judge_pairs", "pair_accuracy", "wilson_interval", "evaluate_judge", "format_table"]


def read_pairs(path: str | Path, limit: int | None = None) -> list[dict[str, Any]]:
    """Preference pairs from JSONL/JSON/parquet: ``prompt``, ``chosen``, ``rejected`` (text or chat) and
    optionally ``answer`` (or ``gold``) and ``id``; each is checked, and problems name the row."""
    from rlvr.datasets.loaders import read_records

    rows = []
    for i, r in enumerate(read_records(path)):
        missing = [k for k in ("prompt", "chosen", "rejected") if k not in r]
        if missing:
            raise ConfigError(f"{path} row {i}: missing {missing}; a pair needs prompt, chosen and rejected")
        try:
            chosen, rejected = completion_text(r["chosen"]), completion_text(r["rejected"])
        except TypeError as exc:
            raise ConfigError(f"{path} row {i}: {exc}") from None
        gold = r.get("answer", r.get("gold"))
        rows.append({**r, "id": str(r.get("id", i)), "query": query_text(r["prompt"]), "chosen_text": chosen,
                     "rejected_text": rejected, "gold": None if gold is None else str(gold)})
    if not rows:
        raise ConfigError(f"{path} holds no pairs")
    return rows[:limit] if limit else rows


@dataclass
class JudgeRun:
    """The verdicts of one configuration on every pair, and what producing them cost."""

    name: str
    verdicts: list[GroupVerdict]
    seconds: float
    generated: int
    judgments: int
    counters: dict[str, int] = field(default_factory=dict)

    @property
    def seconds_per_judgment(self) -> float | None:
        return self.seconds / self.generated if self.generated else None

    def methods(self, k: int | None = None) -> dict[str, int]:
        """How many scored judgments each method gave (``text``, ``transformers logits``, ...)."""
        return dict(Counter(v.method for verdict in self.verdicts for v in verdict.votes[:k] if v.scores is not None))

    def unparseable_share(self, k: int | None = None) -> float:
        votes = [v for verdict in self.verdicts for v in verdict.votes[:k]]
        return sum(v.status == "unparseable" for v in votes) / len(votes) if votes else 0.0


def judge_pairs(backend: JudgeBackend, pairs: list[dict[str, Any]], prompt: JudgePrompt, settings: EngineSettings,
                cache: VerdictCache, reference: bool = False, name: str = "", chunk: int = 8,
                progress: Callable[[str], None] | None = None) -> JudgeRun:
    """Judge every pair as a group of two (chosen first; the engine shuffles), ``chunk`` pairs per batch."""
    engine = JudgeEngine(backend, prompt, settings, cache)
    started, verdicts = time.perf_counter(), []
    for start in range(0, len(pairs), chunk):
        part = pairs[start:start + chunk]
        verdicts += engine.judge_groups([(p["query"], [p["chosen_text"], p["rejected_text"]],
                                          p["gold"] if reference else None) for p in part])
        if progress is not None:
            done = min(start + chunk, len(pairs))
            progress(f"{name}: {done}/{len(pairs)} pairs, {engine.counters['generated']} generated, "
                     f"{engine.counters['cache_hits']} cached, {time.perf_counter() - started:.0f} s")
    c = engine.counters
    return JudgeRun(name, verdicts, c["seconds_x1000"] / 1000, c["generated"], c["judgments"], dict(c))


def wilson_interval(right: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share ``right / n`` (sound at small n and at 0% or 100%)."""
    if n == 0:
        return 0.0, 1.0
    share = right / n
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((share * (1 - share) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def pair_accuracy(values: list[list[float | None]]) -> float:
    """Share of pairs whose chosen value is strictly above the rejected one (None or a tie: wrong)."""
    right = sum(v[0] is not None and v[1] is not None and v[0] > v[1] for v in values)
    return right / len(values) if values else 0.0


def _voted(run: JudgeRun, k: int, k_meta: int | None = None) -> list[list[float | None]]:
    return [vote(v.votes[:k], 2, k_meta)[0] for v in run.verdicts]


def with_meta_scores(run: JudgeRun, meta: Any) -> JudgeRun:
    """The same run with every parseable judgment scored by the meta RM (``meta.score(votes)``)."""
    verdicts = []
    for verdict in run.verdicts:
        scores = meta.score(verdict.votes)
        votes = [v.with_meta(s) for v, s in zip(verdict.votes, scores)]
        verdicts.append(GroupVerdict(verdict.n, verdict.values, votes, verdict.counted))
    return JudgeRun(run.name, verdicts, run.seconds, run.generated, run.judgments, run.counters)


def evaluate_judge(greedy: JudgeRun | None, sampled: JudgeRun | None, no_principles: JudgeRun | None,
                   meta: Any = None, k: int = 8, k_meta: int = 4) -> dict[str, dict[str, Any]]:
    """Rows of the accuracy table: ``{row name: {accuracy, unparseable, s_per_judgment, pairs}}``."""
    rows: dict[str, dict[str, Any]] = {}

    def add(name: str, run: JudgeRun, values: list[list[float | None]], used_k: int | None) -> None:
        accuracy = pair_accuracy(values)
        rows[name] = {"accuracy": accuracy, "ci95": wilson_interval(round(accuracy * len(values)), len(values)),
                      "unparseable": run.unparseable_share(used_k), "s_per_judgment": run.seconds_per_judgment,
                      "pairs": len(values), "methods": run.methods(used_k)}

    if greedy is not None:
        add("greedy", greedy, [v.values for v in greedy.verdicts], None)
    if sampled is not None:
        for j in sorted({min(4, k), k}):
            add(f"voting@{j}", sampled, _voted(sampled, j), j)
        if meta is not None:
            scored = with_meta_scores(sampled, meta)
            add(f"MetaRM@{k} (k_meta={k_meta})", scored, _voted(scored, k, k_meta), k)
    if no_principles is not None:
        add(f"no principles, voting@{k}", no_principles, _voted(no_principles, k), k)
    return rows


def format_table(columns: dict[str, dict[str, dict[str, Any]]]) -> str:
    """A plain-text table: one row per configuration, one column group per judge/condition."""
    names = list(dict.fromkeys(row for col in columns.values() for row in col))
    width = max([len(n) for n in names] + [14])
    head = f"{'':{width}}" + "".join(f" | {c:>45}" for c in columns)
    sub = f"{'':{width}}" + "".join(f" | {'acc':>6} {'95% CI':>13} {'unparsed':>9} {'s/judg':>8} {'n':>4}" for _ in columns)
    lines = [head, sub, "-" * len(sub)]
    for n in names:
        cells = []
        for col in columns.values():
            r = col.get(n)
            if r is None:
                cells.append(f" | {'':>45}")
                continue
            spj = r.get("s_per_judgment")
            unparsed = "" if r.get("unparseable") is None else f"{r['unparseable']:.1%}"
            ci = r.get("ci95") or wilson_interval(round(r["accuracy"] * r["pairs"]), r["pairs"])
            cells.append(f" | {r['accuracy']:>6.1%} {f'{ci[0]:.0%}-{ci[1]:.0%}':>13} {unparsed:>9} "
                         f"{('' if spj is None else f'{spj:.2f}'):>8} {r['pairs']:>4}")
        lines.append(f"{n:{width}}" + "".join(cells))
    lines.append("acc: pairwise accuracy (ties and abstentions count as wrong); 95% CI: Wilson interval; unparsed: "
                 "share of judgments with no score (neither the text nor the distribution); s/judg: seconds per "
                 "generated judgment; n: pairs")
    return "\n".join(lines)


def bt_rows(pairs: list[dict[str, Any]], reference: bool = False, max_chars: int | None = None) -> list[dict[str, Any]]:
    """Pairs as a Bradley-Terry reward model reads them (prompt, plus the gold when ``reference``),
    each response cut as the judge's prompt cuts it (``max_chars``), so both see the same text."""
    from rlvr.rewards.judges.prompts import truncate_middle

    cut = (lambda t: truncate_middle(t, max_chars)) if max_chars else (lambda t: t)  # noqa: E731
    return [{"prompt": cut(p["query"]) + (f"\n\nReference answer: {p['gold']}" if reference and p["gold"] else ""),
             "chosen": cut(p["chosen_text"]), "rejected": cut(p["rejected_text"])} for p in pairs]


def bt_accuracy(model: str, pairs: list[dict[str, Any]], reference: bool = False, max_chars: int | None = None,
                max_length: int = 512) -> dict[str, Any]:
    """The Bradley-Terry reward model's pairwise accuracy on the same pairs (see :func:`bt_rows`)."""
    from rlvr.harness.rm import evaluate_pairs

    rows = bt_rows(pairs, reference, max_chars)
    out = evaluate_pairs(model, rows, max_length=max_length)
    return {"accuracy": out["accuracy"], "ci95": wilson_interval(round(out["accuracy"] * len(rows)), len(rows)),
            "unparseable": None, "s_per_judgment": None, "pairs": len(rows)}


def counts(run: JudgeRun) -> dict[str, int]:
    """Statuses of every vote of a run (for the report)."""
    return dict(Counter(v.status for verdict in run.verdicts for v in verdict.votes))


def write_json(path: str | Path, data: Any) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(data, indent=2, default=str))
