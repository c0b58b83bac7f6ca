"""RewardSet: the weighted set of rewards a GRPO run trains on, built from YAML/TOML/dict.

    rewards:
      - {name: format_strict, weight: 0.5, params: {preset: r1}}
      - {name: math_equivalence, weight: 1.0, gate: format_strict}   # counts only with valid format
      - {name: overlong_penalty, weight: 0}                          # weight 0: logged, not trained on
    gold_column: reward_model.ground_truth                           # for every reward that reads a gold

``funcs`` and ``weights`` go straight into ``GRPOTrainer(reward_funcs=..., args=GRPOConfig(
reward_weights=...))``; :meth:`stats` counts each reward's statuses (timeouts, no_answer,
unparseable_gold, errors) for the harness to log.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlvr.errors import ConfigError
from rlvr.rewards.base import Reward, RewardResult
from rlvr.rewards.registry import get_reward
from rlvr.rewards.scoring import ScoredRow, score_rows

__all__ = ["RewardSet", "RewardSpec", "GatedReward"]

_ENTRY_KEYS = {"name", "weight", "params", "alias", "gate", "gate_fail_value", "max_consecutive_failures"}


@dataclass(frozen=True)
class RewardSpec:
    """One entry of a RewardSet config."""

    name: str
    weight: float = 1.0
    params: dict[str, Any] = field(default_factory=dict)
    alias: str | None = None
    gate: str | None = None
    gate_min: float | None = None  # the gate passes when its value >= gate_min (default: > 0)
    gate_fail_value: float | None = 0.0
    max_consecutive_failures: int = 3

    @property
    def label(self) -> str:
        return self.alias or self.name


class GatedReward(Reward):
    """A reward that counts only where another reward passed (e.g. accuracy only with valid format)."""

    def __init__(self, inner: Reward, gate: Reward, gate_min: float | None, fail_value: float | None):
        super().__init__()
        self.inner, self.gate, self.gate_min, self.fail_value = inner, gate, gate_min, fail_value
        self.__name__ = inner.__name__

    def params(self) -> dict[str, Any]:
        return {**self.inner.params(), "gate": self.gate.__name__, "gate_min": self.gate_min,
                "gate_fail_value": self.fail_value}

    def _passed(self, value: float | None) -> bool:
        if value is None:
            return False
        return value >= self.gate_min if self.gate_min is not None else value > 0

    def explain(self, prompts: Any = None, completions: Any = None, **columns: Any) -> list[RewardResult]:
        inner = self.inner.explain(prompts=prompts, completions=completions, **columns)
        gate = self.gate.explain(prompts=prompts, completions=completions, **columns)
        out = []
        for r, g in zip(inner, gate):
            if self._passed(g.value):
                out.append(r)
            else:
                out.append(RewardResult(self.fail_value, "gated",
                                        f"gate {self.gate.__name__} did not pass ({g.reason}); {r.status}: {r.reason}",
                                        {"gated_value": r.value, "gated_status": r.status}))
        return out


def _load_mapping(spec: str | Path) -> Any:
    from rlvr.files import read_config

    data = read_config(spec, "reward config")
    if data is None:
        raise ConfigError(f"reward config {spec} is empty; it needs a 'rewards' list, e.g. rewards: [{{name: math_equivalence}}]")
    return data


def _spec_from(entry: Any, index: int) -> RewardSpec:
    where = f"rewards[{index}]"
    if isinstance(entry, str):
        entry = {"name": entry}
    if not isinstance(entry, dict) or "name" not in entry:
        raise ConfigError(f"{where}: each reward needs at least a name, e.g. {{name: math_equivalence, weight: 1.0}}")
    unknown = sorted(set(entry) - _ENTRY_KEYS)
    if unknown:
        raise ConfigError(f"{where} ({entry['name']}): unknown key(s) {unknown}; valid: {sorted(_ENTRY_KEYS)} "
                          "(reward parameters go under 'params')")
    weight = entry.get("weight", 1.0)
    if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not math.isfinite(weight):
        raise ConfigError(f"{where} ({entry['name']}): weight must be a finite number, got {weight!r}")
    params = entry.get("params") or {}
    if not isinstance(params, dict):
        raise ConfigError(f"{where} ({entry['name']}): params must be a mapping, got {type(params).__name__}")
    gate, gate_min = entry.get("gate"), None
    if isinstance(gate, dict):
        gate_min = gate.get("min")
        gate = gate.get("reward") or gate.get("name")
    limit = entry.get("max_consecutive_failures", 3)
    if not isinstance(limit, int) or limit < 1:
        raise ConfigError(f"{where} ({entry['name']}): max_consecutive_failures must be an integer >= 1")
    return RewardSpec(name=entry["name"], weight=float(weight), params=dict(params), alias=entry.get("alias"),
                      gate=gate, gate_min=gate_min, gate_fail_value=entry.get("gate_fail_value", 0.0),
                      max_consecutive_failures=limit)


class RewardSet:
    """Weighted rewards, ready for TRL: ``funcs`` and ``weights`` in the same order."""

    def __init__(self, specs: Sequence[RewardSpec], gold_column: str | None = None):
        if not specs:
            raise ConfigError("a RewardSet needs at least one reward")
        labels = [s.label for s in specs]
        dupes = sorted({x for x in labels if labels.count(x) > 1})
        if dupes:
            raise ConfigError(f"reward name(s) {dupes} appear twice; give each copy an 'alias' (TRL logs by name)")
        self.specs = list(specs)
        self.gold_column = gold_column
        built: dict[str, Reward] = {}
        for spec in self.specs:
            params = dict(spec.params)
            if gold_column and "gold_column" not in params and _accepts(spec.name, "gold_column"):
                params["gold_column"] = gold_column
            r = get_reward(spec.name, **params)
            r.__name__ = spec.label
            r.max_consecutive_failures = spec.max_consecutive_failures
            built[spec.label] = r
        self.funcs: list[Reward] = []
        for spec in self.specs:
            r = built[spec.label]
            if spec.gate:
                if spec.gate not in built:
                    raise ConfigError(f"reward {spec.label!r}: gate {spec.gate!r} is not in this RewardSet; "
                                      f"add it (weight 0 if it should not count itself). Present: {list(built)}")
                if spec.gate == spec.label:
                    raise ConfigError(f"reward {spec.label!r} cannot gate itself")
                r = GatedReward(r, built[spec.gate], spec.gate_min, spec.gate_fail_value)
                r.max_consecutive_failures = spec.max_consecutive_failures
            self.funcs.append(r)
        self.weights: list[float] = [s.weight for s in self.specs]
        self.names: list[str] = [s.label for s in self.specs]

    @classmethod
    def from_config(cls, spec: str | Path | dict[str, Any] | list[Any]) -> RewardSet:
        """Build from a YAML/TOML/JSON file, inline JSON, a dict ``{rewards: [...], gold_column}``
        or a bare list of entries. Every error of a file's config is a ConfigError that names the file."""
        source = _file_of(spec)
        try:
            return cls._from_data(spec if isinstance(spec, (dict, list)) else _load_mapping(spec),
                                  source.parent if source is not None else None)
        except ConfigError as exc:
            if source is None or str(source) in str(exc):
                raise
            raise ConfigError(f"reward config {source}: {exc}") from exc

    @classmethod
    def _from_data(cls, data: Any, base: Path | None) -> RewardSet:
        if isinstance(data, dict) and "rewards" not in data:
            raise ConfigError(f"reward config has no 'rewards' list (keys present: {sorted(data)})")
        if not isinstance(data, (dict, list)):
            raise ConfigError(f"reward config must be a mapping with a 'rewards' list, got {type(data).__name__}")
        if isinstance(data, dict):
            unknown = sorted(set(data) - {"rewards", "gold_column", "plugins"})
            if unknown:
                raise ConfigError(f"reward config: unknown key(s) {unknown}; valid: gold_column, plugins, rewards")
            from rlvr.plugins import import_plugins

            import_plugins(data.get("plugins"), base)
        entries = data["rewards"] if isinstance(data, dict) else data
        gold_column = data.get("gold_column") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            raise ConfigError("'rewards' must be a list of {name, weight, params} entries")
        return cls([_spec_from(e, i) for i, e in enumerate(entries)], gold_column=gold_column)

    def to_config(self) -> dict[str, Any]:
        """The config this set was built from (round-trips through :meth:`from_config`)."""
        entries = []
        for s in self.specs:
            e: dict[str, Any] = {"name": s.name, "weight": s.weight, "params": s.params}
            if s.alias:
                e["alias"] = s.alias
            if s.gate:
                e["gate"] = {"reward": s.gate, "min": s.gate_min} if s.gate_min is not None else s.gate
                e["gate_fail_value"] = s.gate_fail_value
            e["max_consecutive_failures"] = s.max_consecutive_failures
            entries.append(e)
        return {"rewards": entries, **({"gold_column": self.gold_column} if self.gold_column else {})}

    def config_hash(self) -> str:
        """A short stable hash of the config (saved with every run)."""
        return hashlib.sha256(json.dumps(self.to_config(), sort_keys=True, default=str).encode()).hexdigest()[:16]

    def explain(self, prompts: Any = None, completions: Any = None, **columns: Any) -> list[ScoredRow]:
        """Per completion: each reward's :class:`RewardResult` and the weighted ``total`` (a
        :class:`~rlvr.rewards.scoring.ScoredRow`, read as ``row["rewards"]`` / ``row["total"]``).

        Scored by :func:`rlvr.rewards.scoring.score_rows`: a reward that raises costs only its own
        values for the batch (``error`` results naming the user's file:line), never the others'."""
        if completions is None:
            raise TypeError("RewardSet.explain needs completions=")
        return score_rows(self, prompts, completions, columns)

    def __call__(self, prompts: Any = None, completions: Any = None, **columns: Any) -> list[float | None]:
        """Weighted sum per completion (TRL's own combination: None counts as absent)."""
        return [row["total"] for row in self.explain(prompts=prompts, completions=completions, **columns)]

    def stats(self) -> dict[str, dict[str, int]]:
        """Status counts per reward since construction (or the last :meth:`reset_stats`)."""
        return {name: dict(f.stats) for name, f in zip(self.names, self.funcs)}

    def reset_stats(self) -> None:
        for f in self.funcs:
            f.stats.clear()

    def __repr__(self) -> str:
        return "RewardSet(" + ", ".join(f"{n}×{w:g}" for n, w in zip(self.names, self.weights)) + ")"


def _file_of(spec: Any) -> Path | None:
    """The config file ``spec`` names (``None`` for a mapping, a list or inline JSON)."""
    if not isinstance(spec, (str, Path)) or str(spec).lstrip().startswith(("{", "[")):
        return None
    try:
        path = Path(spec).expanduser()
        return path if path.is_file() else None
    except (OSError, ValueError):  # inline text that is no path
        return None


def _accepts(name: str, param: str) -> bool:
    from rlvr.rewards.registry import describe

    return param in describe(name)["params"]
