"""Reward fixture files: cases that pin a reward's behaviour, in YAML or JSONL.

YAML::

    defaults:                        # merged into every case (case keys win)
      reward: {name: math_equivalence, params: {preset: binary}}
    cases:
      - id: half-as-decimal
        completion: "\\boxed{0.5}"
        answer: "\\frac{1}{2}"       # shorthand for columns: {answer: ...}
        value: 1.0
      - id: spray
        completion: "\\boxed{1} \\boxed{2}"
        answer: "2"
        status: incorrect
        max: 0

JSONL: one case per line; an optional first line ``{"defaults": {...}, "plugins": [...]}``.

``plugins:`` (a top-level key, as in RewardSet files and recipes) imports the user's reward files
or modules, paths relative to the fixture file; the ``[tool.rlvr] plugins`` list of the nearest
``pyproject.toml`` is imported too, so plain ``pytest`` finds a project's rewards without a conftest.

A case: ``id`` (unique in its file), ``reward`` (a registered name, or ``{name, params}``) or
``reward_set`` (a RewardSet config), ``completion`` (string or chat messages), optional ``prompt``
and ``columns`` (dataset columns; ``answer`` may stand at the top level), and at least one
expectation: ``value`` (exact), ``approx`` with ``tol`` (default 1e-6), ``min``, ``max``,
``status`` (for a reward_set: a mapping reward name -> status). ``skip`` / ``xfail`` take a reason.
Errors name the file, the case and the field; a reward that is not registered or takes other
parameters fails its case in one line naming the file and the case.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlvr.errors import ConfigError
from rlvr.jsonl import parse_jsonl

__all__ = ["FixtureError", "FixtureCase", "CaseOutcome", "load_fixture_file", "run_case", "find_fixture_files",
           "DEFAULT_PATTERNS", "matches_pattern"]

DEFAULT_PATTERNS = ("reward_fixtures/**/*.yaml", "reward_fixtures/**/*.yml", "reward_fixtures/**/*.jsonl",
                    "**/*.rewards.yaml", "**/*.rewards.yml", "**/*.rewards.jsonl")
_CASE_KEYS = {"id", "reward", "reward_set", "completion", "prompt", "columns", "answer", "value", "approx", "tol",
              "min", "max", "status", "skip", "xfail", "description"}
_EXPECTATIONS = ("value", "approx", "min", "max", "status")


class FixtureError(ConfigError):
    """A fixture file or case does not follow the schema; the message says where and how to fix it."""


@dataclass(frozen=True)
class FixtureCase:
    """One validated case of a fixture file."""

    id: str
    path: str
    index: int
    reward: dict[str, Any] | None
    reward_set: Any
    completion: Any
    prompt: Any
    columns: dict[str, Any]
    expect: dict[str, Any]
    skip: str | None = None
    xfail: str | None = None

    @property
    def where(self) -> str:
        return f"{self.path}: case {self.id!r} (#{self.index + 1})"


@dataclass
class CaseOutcome:
    """What running a case gave: pass/fail, the value(s), statuses and reasons, and what failed."""

    case: FixtureCase
    passed: bool
    value: float | None
    status: Any
    reason: str
    failures: list[str] = field(default_factory=list)


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _validate(raw: Any, defaults: dict[str, Any], path: str, index: int, seen: set[str]) -> FixtureCase:
    label = f"{path}: case #{index + 1}"
    if not isinstance(raw, dict):
        raise FixtureError(f"{label}: expected a mapping with id, reward, completion and an expectation; "
                           f"got {type(raw).__name__}")
    case = {**defaults, **raw}
    if "id" not in raw:
        raise FixtureError(f"{label}: missing field 'id' (fields present: {sorted(raw)})")
    cid = case["id"]
    if not isinstance(cid, (str, int)) or not str(cid).strip():
        raise FixtureError(f"{label}: field 'id' must be a non-empty string, got {cid!r}")
    cid = str(cid)
    label = f"{path}: case {cid!r} (#{index + 1})"
    if cid in seen:
        raise FixtureError(f"{label}: duplicate id; each case in a file needs its own id")
    seen.add(cid)
    unknown = sorted(set(case) - _CASE_KEYS)
    if unknown:
        raise FixtureError(f"{label}: unknown field(s) {unknown}; valid fields: {sorted(_CASE_KEYS)} "
                           "(dataset columns go under 'columns')")
    if "completion" not in case:
        raise FixtureError(f"{label}: missing field 'completion' (fields present: {sorted(case)})")
    completion = case["completion"]
    if not isinstance(completion, (str, list)):
        raise FixtureError(f"{label}: field 'completion' must be a string or a list of chat messages")
    if ("reward" in case) == ("reward_set" in case):
        raise FixtureError(f"{label}: give exactly one of 'reward' (a registered name or {{name, params}}) "
                           "or 'reward_set' (a RewardSet config), here or in the file's defaults")
    reward = case.get("reward")
    if isinstance(reward, str):
        reward = {"name": reward, "params": {}}
    if reward is not None:
        if not isinstance(reward, dict) or "name" not in reward or set(reward) - {"name", "params"}:
            raise FixtureError(f"{label}: field 'reward' must be a name or {{name, params}}, got {reward!r}")
        if not isinstance(reward.get("params") or {}, dict):
            raise FixtureError(f"{label}: field 'reward.params' must be a mapping")
        reward = {"name": reward["name"], "params": dict(reward.get("params") or {})}
    columns = case.get("columns") or {}
    if not isinstance(columns, dict):
        raise FixtureError(f"{label}: field 'columns' must be a mapping of dataset column -> value")
    columns = dict(columns)
    if "answer" in case:
        columns.setdefault("answer", case["answer"])
    expect = {k: case[k] for k in _EXPECTATIONS if k in case}
    if not expect:
        raise FixtureError(f"{label}: no expectation; add one or more of {list(_EXPECTATIONS)}")
    for key in ("value", "approx", "min", "max"):
        if key in expect and expect[key] is not None and not _is_number(expect[key]):
            raise FixtureError(f"{label}: field {key!r} must be a number, got {expect[key]!r}")
    if "tol" in case:
        if not _is_number(case["tol"]) or case["tol"] < 0:
            raise FixtureError(f"{label}: field 'tol' must be a number >= 0")
        if "approx" not in expect:
            raise FixtureError(f"{label}: field 'tol' only applies with 'approx'")
        expect["tol"] = case["tol"]
    if "status" in expect and not isinstance(expect["status"], (str, dict)):
        raise FixtureError(f"{label}: field 'status' must be a status name (or, for a reward_set, a mapping)")
    return FixtureCase(cid, path, index, reward, case.get("reward_set"), completion, case.get("prompt"),
                       columns, expect, case.get("skip"), case.get("xfail"))


def load_fixture_file(path: str | Path) -> list[FixtureCase]:
    """Read and validate every case of a YAML or JSONL fixture file."""
    p = Path(path)
    name = str(p)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise FixtureError(f"{name}: cannot read: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise FixtureError(f"{name}: not UTF-8 text (byte {exc.start}: {exc.reason}); fixture files are "
                           "YAML or JSON Lines") from None
    defaults: dict[str, Any] = {}
    if p.suffix == ".jsonl":
        raw_cases = []
        plugins = None
        for n, row in parse_jsonl(text, name, FixtureError):
            if isinstance(row, dict) and row and set(row) <= {"defaults", "plugins"}:
                if raw_cases:
                    raise FixtureError(f"{name}:{n}: a defaults/plugins line must come before the cases")
                defaults, plugins = row.get("defaults", {}), row.get("plugins")
                continue
            raw_cases.append(row)
    else:
        import yaml

        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise FixtureError(f"{name}: not valid YAML: {exc}") from exc
        if isinstance(data, list):
            data = {"cases": data}
        if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
            raise FixtureError(f"{name}: expected a mapping with a 'cases' list (and optional 'defaults')")
        extra = sorted(set(data) - {"cases", "defaults", "description", "plugins"})
        if extra:
            raise FixtureError(f"{name}: unknown top-level key(s) {extra}; use 'cases', 'defaults' and 'plugins'")
        defaults = data.get("defaults") or {}
        raw_cases, plugins = data["cases"], data.get("plugins")
    if not isinstance(defaults, dict):
        raise FixtureError(f"{name}: 'defaults' must be a mapping")
    _import_plugins(p, plugins)
    seen: set[str] = set()
    return [_validate(raw, defaults, name, i, seen) for i, raw in enumerate(raw_cases)]


def _import_plugins(path: Path, plugins: Any) -> None:
    """The file's own ``plugins:`` (relative to it) and its project's ``[tool.rlvr] plugins``."""
    from rlvr.plugins import import_plugins, import_project_plugins

    try:
        import_project_plugins(path.parent)
        import_plugins(plugins, path.parent)
    except FixtureError:
        raise
    except ConfigError as exc:
        raise FixtureError(f"{path}: plugins: {exc}") from exc


_REWARD_CACHE: dict[str, Any] = {}


def _build(case: FixtureCase) -> Any:
    from rlvr.rewards import RewardSet, get_reward

    key = json.dumps({"r": case.reward, "s": case.reward_set}, sort_keys=True, default=str)
    if key not in _REWARD_CACHE:
        if case.reward is not None:
            _REWARD_CACHE[key] = get_reward(case.reward["name"], **case.reward["params"])
        else:
            _REWARD_CACHE[key] = RewardSet.from_config(case.reward_set)
    return _REWARD_CACHE[key]


def run_case(case: FixtureCase) -> CaseOutcome:
    """Score the case's completion as training would and compare with its expectations (never raises
    for a mismatch). A reward that cannot be built (not registered, other parameters) is a
    FixtureError naming the file and the case; a reward that raises is a RewardError naming it and
    the user's file:line (its ``__cause__`` the original exception)."""
    from rlvr.rewards import RewardError, RewardSet

    try:
        target = _build(case)
    except ConfigError as exc:
        raise FixtureError(f"{case.where}: {' '.join(str(exc).split())}") from None
    columns = {k: [v] for k, v in case.columns.items()}
    prompts = [case.prompt] if case.prompt is not None else None
    if isinstance(target, RewardSet):
        row = target.explain(prompts=prompts, completions=[case.completion], **columns)[0]
        value = row["total"]
        status: Any = {name: r.status for name, r in row["rewards"].items()}
        reason = "; ".join(f"{name}: {r.reason}" for name, r in row["rewards"].items())
    else:
        try:
            result = target.explain(prompts=prompts, completions=[case.completion], **columns)[0]
        except ConfigError as exc:
            raise FixtureError(f"{case.where}: {' '.join(str(exc).split())}") from None
        except Exception as exc:
            raise RewardError.from_exception(getattr(target, "__name__", case.reward["name"]), exc) from exc
        value, status, reason = result.value, result.status, result.reason
    failures = []
    e = case.expect
    if "value" in e:
        if e["value"] is None:
            if value is not None:
                failures.append(f"value: expected None, got {value!r}")
        elif value is None or value != e["value"]:
            failures.append(f"value: expected {e['value']!r}, got {value!r}")
    if "approx" in e:
        tol = e.get("tol", 1e-6)
        if value is None or not math.isclose(value, e["approx"], rel_tol=0.0, abs_tol=tol):
            failures.append(f"value: expected {e['approx']!r} ± {tol}, got {value!r}")
    if "min" in e and (value is None or value < e["min"]):
        failures.append(f"value: expected >= {e['min']!r}, got {value!r}")
    if "max" in e and (value is None or value > e["max"]):
        failures.append(f"value: expected <= {e['max']!r}, got {value!r}")
    if "status" in e:
        want = e["status"]
        if isinstance(want, dict) and isinstance(status, dict):
            for name, s in want.items():
                if status.get(name) != s:
                    failures.append(f"status of {name}: expected {s!r}, got {status.get(name)!r}")
        elif want != status:
            failures.append(f"status: expected {want!r}, got {status!r}")
    return CaseOutcome(case, not failures, value, status, reason, failures)


def _glob_regex(pattern: str) -> Any:
    import regex

    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif pattern[i] == "*":
            out += "[^/]*"
            i += 1
        elif pattern[i] == "?":
            out += "[^/]"
            i += 1
        else:
            out += regex.escape(pattern[i])
            i += 1
    return regex.compile(r"(?:.*/)?" + out)


def matches_pattern(path: str | Path, patterns: tuple[str, ...] | list[str] = DEFAULT_PATTERNS) -> bool:
    """Whether ``path`` (any prefix) matches one of the glob ``patterns`` (``**`` spans folders)."""
    posix = Path(path).as_posix()
    return any(_glob_regex(p).fullmatch(posix) for p in patterns)


def find_fixture_files(paths: list[str | Path], patterns: tuple[str, ...] | list[str] = DEFAULT_PATTERNS) -> list[Path]:
    """Files named directly, plus fixture files (matching ``patterns``) under folders."""
    found: list[Path] = []
    for item in paths:
        p = Path(item)
        if p.is_dir():
            found += sorted(f for f in p.rglob("*") if f.is_file() and matches_pattern(f, patterns))
        elif p.is_file():
            found.append(p)
        else:
            raise FixtureError(f"{p}: no such file or folder")
    return found
