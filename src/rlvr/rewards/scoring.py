"""The scoring core: every door that scores (TRL's reward functions, verl, OpenRLHF, verifiers, Ray
Data, ``rlvr serve``, ``rlvr score``, fixtures and audits) goes through these functions, so a fix to
how a batch is scored lands once.

- :func:`score_reward`: one reward on one batch, under the failure policy. A reward that raises (or
  returns values that break the contract) costs only its own values for that batch: each becomes
  ``RewardResult(None, "error", reason)``, the reason naming the reward and the user's ``file:line``.
  After ``max_consecutive_failures`` failed batches in a row it raises :class:`RewardFailure`: a
  broken reward must not train a model for hours. A :class:`~rlvr.errors.ConfigError` (a missing
  column, a bad parameter) raises at once: it never fixes itself.
- :func:`score_rows`: a whole RewardSet on a batch, one :class:`ScoredRow` per completion (each
  reward's result and the weighted total, ``None`` counted as absent as TRL does).
- :class:`ScoredRow`'s ``value`` / ``score`` / ``correct`` / ``error`` / ``abstained`` are the one
  mapping for frameworks that take numbers only: an abstaining or failed reward counts
  :data:`ABSTAIN_SCORE` and the row is flagged.
- :func:`build_reward_set` is the one place the default RewardSet is built; :func:`shared_reward_set`
  is the per-process, thread-safe copy the framework adapters score with.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from rlvr.errors import ConfigError
from rlvr.rewards.base import RewardResult
from rlvr.rewards.failures import RewardError, RewardFailure

logger = logging.getLogger(__name__)

__all__ = ["score_reward", "score_rows", "ScoredRow", "ABSTAIN_SCORE", "DEFAULT_REWARDS", "build_reward_set",
           "shared_reward_set", "batch_from_rows", "RaisedErrors"]

ABSTAIN_SCORE = 0.0  # what an abstaining or failed reward counts where a framework takes numbers only
DEFAULT_REWARDS: list[dict[str, Any]] = [{"name": "math_equivalence"}]

_RESERVED = frozenset({"prompts", "completions", "self"})
_COUNTER_LOCK = threading.Lock()  # adapters score one RewardSet from several threads


def score_reward(reward: Any, prompts: Sequence[Any] | None, completions: Sequence[Any],
                 columns: dict[str, Any]) -> list[RewardResult]:
    """``reward.explain`` on one batch under the failure policy (see the module docstring); counts
    statuses in ``reward.stats`` and keeps the batch in ``reward.last_call`` for run logs."""
    n = len(completions)
    name = getattr(reward, "__name__", type(reward).__name__)
    try:
        results = reward.explain(prompts=prompts, completions=completions, **columns)
    except ConfigError:
        raise  # a wrong column name or parameter never fixes itself: stop now, say how to fix
    except Exception as exc:
        error = RewardError.from_exception(name, exc)
        with _COUNTER_LOCK:
            reward._consecutive_failures = getattr(reward, "_consecutive_failures", 0) + 1
            failures = reward._consecutive_failures
            reward.stats["error"] += n
        limit = getattr(reward, "max_consecutive_failures", 3)
        if failures >= limit:
            raise RewardFailure(name, f"failed on {failures} consecutive batches; last: {error.problem}", error.where,
                                exc) from exc
        if failures == 1:
            logger.warning("%s on a batch of %d; scoring that batch None (no opinion) — %d failed batches in a row "
                           "stop the run", error, n, limit)
            logger.debug("traceback of reward %r", name, exc_info=exc)
        else:
            logger.warning("reward %r failed again (%d in a row): %s", name, failures, error.problem)
        details = {"failure": "raised" if error.exception is not None else "contract", "problem": error.problem,
                   "exception": type(error.exception).__name__ if error.exception is not None else None,
                   "where": error.where}
        results = [RewardResult(None, "error", str(error), details) for _ in range(n)]
        reward.last_call, reward.last_prompts = (completions, results), prompts
        return results
    with _COUNTER_LOCK:
        reward._consecutive_failures = 0
        for r in results:
            reward.stats[r.status] += 1
    reward.last_call, reward.last_prompts = (completions, results), prompts  # for run logs: samples with reasons
    return results


class ScoredRow(Mapping):
    """One completion scored by a RewardSet: each reward's :class:`RewardResult` and the weighted total.

    Reads as the mapping ``{"rewards": ..., "total": ...}`` that ``RewardSet.explain`` always returned.
    """

    __slots__ = ("rewards", "total")

    def __init__(self, rewards: dict[str, RewardResult], total: float | None) -> None:
        self.rewards, self.total = rewards, total

    def __getitem__(self, key: str) -> Any:
        if key == "rewards":
            return self.rewards
        if key == "total":
            return self.total
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(("rewards", "total"))

    def __len__(self) -> int:
        return 2

    def __repr__(self) -> str:
        return f"ScoredRow(total={self.total!r}, rewards={self.rewards!r})"

    # -- the one mapping for frameworks that take numbers only -----------------------------------
    @property
    def abstained(self) -> bool:
        """No reward had an opinion (the total is ``None``)."""
        return self.total is None

    @property
    def error(self) -> bool:
        """Some reward's result is an ``error``."""
        return any(r.status == "error" for r in self.rewards.values())

    def score(self) -> float:
        """The total as a number: :data:`ABSTAIN_SCORE` when every reward abstained."""
        return ABSTAIN_SCORE if self.total is None else float(self.total)

    def value(self, name: str) -> float:
        """Reward ``name``'s value as a number: :data:`ABSTAIN_SCORE` when it abstained or failed."""
        v = self.rewards[name].value
        return ABSTAIN_SCORE if v is None else float(v)

    def correct(self, name: str) -> float:
        """1.0 when reward ``name`` judged the answer correct, else 0.0."""
        return 1.0 if self.rewards[name].status == "correct" else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"total": self.total, "rewards": {k: v.to_dict() for k, v in self.rewards.items()}}


def score_rows(reward_set: Any, prompts: Sequence[Any] | None, completions: Sequence[Any],
               columns: dict[str, Any]) -> list[ScoredRow]:
    """Every reward of ``reward_set`` on one batch (each under :func:`score_reward`'s policy), one
    :class:`ScoredRow` per completion; the total is TRL's: the weighted sum of the values that are
    not ``None``, ``None`` only when every reward abstains. A column named like the scorer's own
    arguments (``prompts``, ``completions``, ``self``) is a ConfigError naming it."""
    clash = sorted(set(columns) & _RESERVED)
    if clash:
        raise ConfigError(f"column(s) {clash} collide with the scorer's own arguments (prompts, completions); "
                          "rename them in the data (a row's text goes in 'prompt' and 'completion')")
    per_reward = {name: score_reward(f, prompts, completions, columns)
                  for name, f in zip(reward_set.names, reward_set.funcs)}
    rows = []
    for i in range(len(completions)):
        results = {name: per_reward[name][i] for name in reward_set.names}
        values = [(w, results[n].value) for n, w in zip(reward_set.names, reward_set.weights)]
        total = None if all(v is None for _, v in values) else sum(w * v for w, v in values if v is not None)
        rows.append(ScoredRow(results, total))
    return rows


class RaisedErrors:
    """Which rewards raised while a command scored its rows, for the one line it ends with."""

    def __init__(self) -> None:
        self.by_reward: dict[str, tuple[dict[str, Any], int]] = {}

    def add(self, name: str, status: str, details: dict[str, Any]) -> None:
        """Count one result (a RewardResult's fields, or their JSON form)."""
        if status == "error" and "failure" in details:
            first, count = self.by_reward.get(name, (details, 0))
            self.by_reward[name] = (first, count + 1)

    def add_rows(self, rows: Sequence[ScoredRow]) -> None:
        for row in rows:
            for name, r in row.rewards.items():
                self.add(name, r.status, r.details)

    def error(self, n_rows: int) -> RewardError | None:
        """One RewardError naming the first reward that raised, its file:line and the rows it cost."""
        if not self.by_reward:
            return None
        name, (details, count) = next(iter(self.by_reward.items()))
        others = [n for n in self.by_reward if n != name]
        problem = (f"{details.get('problem')} on {count} of {n_rows} rows (its values there are None with status "
                   f"'error'; the other rewards scored)" + (f"; {', '.join(map(repr, others))} also raised" if others
                                                           else ""))
        return RewardError(name, problem, details.get("where"))


def batch_from_rows(rows: Sequence[dict[str, Any]], keys: Sequence[str] | None = None,
                    ) -> tuple[list[Any], list[Any], dict[str, list[Any]]]:
    """JSON rows (``prompt``, ``completion``, the gold and any column) as ``(prompts, completions,
    columns)``: every column (``keys``, default: every key of ``rows``) as a list with ``None`` where
    a row lacks it; ``gold`` also serves as ``answer`` when no row has an ``answer``."""
    if keys is None:
        keys = sorted({k for r in rows for k in r} - {"prompt", "completion"})
    columns = {k: [r.get(k) for r in rows] for k in keys}
    if "answer" not in columns and "gold" in columns:
        columns["answer"] = columns["gold"]
    return [r.get("prompt", "") for r in rows], [r["completion"] for r in rows], columns


def build_reward_set(spec: Any = None) -> Any:
    """A RewardSet from ``spec`` (a RewardSet, a config file path, inline YAML/JSON, a mapping or a
    list of entries); ``None`` or ``""``: the default, :data:`DEFAULT_REWARDS`."""
    from rlvr.rewards.rewardset import RewardSet

    if isinstance(spec, RewardSet):
        return spec
    return RewardSet.from_config(DEFAULT_REWARDS if spec is None or spec == "" else spec)


_SHARED: dict[str, Any] = {}
_SHARED_LOCK = threading.Lock()


def shared_reward_set(spec: Any = None, extra: dict[str, Any] | None = None) -> Any:
    """The RewardSet a framework adapter scores with: ``spec``, else the ``RLVR_REWARDS`` environment
    variable, else the default; ``extra`` is one more entry to append (verl's DAPO overlong buffer).
    Built once per process and spec under a lock (one verifier pool per process, whichever thread or
    Ray actor scores first). A config that cannot load raises :class:`~rlvr.errors.ConfigError`
    naming the file: an adapter fails the run at start rather than score it wrong."""
    from rlvr.rewards.rewardset import RewardSet

    if isinstance(spec, RewardSet) and extra is None:
        return spec
    key = spec if spec is not None and not isinstance(spec, RewardSet) else os.environ.get("RLVR_REWARDS") or ""
    cache_key = repr((id(spec) if isinstance(spec, RewardSet) else str(key),
                      None if extra is None else sorted(extra.items())))
    with _SHARED_LOCK:
        if cache_key not in _SHARED:
            rs = build_reward_set(spec if isinstance(spec, RewardSet) else key)
            if extra is not None:
                config = rs.to_config()
                config["rewards"].append(extra)
                rs = RewardSet.from_config(config)
            _SHARED[cache_key] = rs
        return _SHARED[cache_key]
