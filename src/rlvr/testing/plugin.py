"""pytest plugin: collect reward fixture files as test items, one per case.

Registered through the ``pytest11`` entry point, so installing rlvr is enough. Files matching the
ini option ``rlvr_fixture_patterns`` (default ``reward_fixtures/**/*.yaml|yml|jsonl`` and
``*.rewards.yaml|yml|jsonl``) become ``RewardFixtureFile`` collectors; each case is an item named
by its id, so ``-k``, ``-x`` and xdist work as usual. A failure shows the case, what was expected
and what came back, and the reward's own reason. The ``reward_case`` fixture runs a case inline.

The project's own rewards are found without a ``conftest.py``: the ``[tool.rlvr] plugins`` list of
the ``pyproject.toml`` nearest the rootdir is imported when pytest starts (and, for each fixture
file, the nearest one above it and the file's own ``plugins:``). A reward that is not registered,
or that raises, fails its case in one line naming the file, the case and (for a raise) the
reward's file:line.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rlvr.testing.fixtures import (
    DEFAULT_PATTERNS, FixtureCase, FixtureError, _validate, load_fixture_file, matches_pattern, run_case,
)


class RewardCaseFailed(AssertionError):
    """A fixture case's expectations were not met."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def pytest_configure(config: pytest.Config) -> None:
    from rlvr.errors import ConfigError
    from rlvr.plugins import import_project_plugins

    try:
        import_project_plugins(Path(config.rootpath))
    except ConfigError as exc:
        raise pytest.UsageError(" ".join(str(exc).split())) from None


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("rlvr_fixture_patterns", type="linelist", default=list(DEFAULT_PATTERNS),
                  help="glob patterns of reward fixture files to collect (rlvr)")


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix not in (".yaml", ".yml", ".jsonl"):
        return None
    patterns = parent.config.getini("rlvr_fixture_patterns") or list(DEFAULT_PATTERNS)
    if matches_pattern(file_path, patterns):
        return RewardFixtureFile.from_parent(parent, path=file_path)
    return None


class RewardFixtureFile(pytest.File):
    """A YAML/JSONL fixture file; a schema error is one collection error naming the file, case and
    field (pytest's ``CollectError`` prints just the message)."""

    def collect(self) -> Iterator[pytest.Item]:
        try:
            cases = load_fixture_file(self.path)
        except FixtureError as exc:
            raise self.CollectError(str(exc)) from None
        for case in cases:
            item = RewardFixtureItem.from_parent(self, name=case.id, case=case)
            if case.skip:
                item.add_marker(pytest.mark.skip(reason=str(case.skip)))
            if case.xfail:
                item.add_marker(pytest.mark.xfail(reason=str(case.xfail), strict=True))
            yield item


class RewardFixtureItem(pytest.Item):
    """One fixture case."""

    def __init__(self, *, case: FixtureCase, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        from rlvr.rewards import RewardError

        try:
            outcome = run_case(self.case)
        except FixtureError as exc:
            raise RewardCaseFailed(str(exc)) from None
        except RewardError as exc:
            raise RewardCaseFailed(f"reward fixture {self.case.where} failed: {exc}") from None
        if not outcome.passed:
            reward = self.case.reward["name"] if self.case.reward else "reward_set"
            lines = [f"reward fixture {self.case.where} failed ({reward})"]
            lines += [f"  {failure}" for failure in outcome.failures]
            lines.append(f"  got value={outcome.value!r} status={outcome.status!r}")
            lines.append(f"  reason: {outcome.reason}")
            raise RewardCaseFailed("\n".join(lines))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, RewardCaseFailed):
            return excinfo.value.message
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"reward fixture {self.case.id}"


@pytest.fixture
def reward_case() -> Any:
    """Run a fixture case written in Python: ``reward_case(reward=..., completion=..., value=...)``.

    Takes the same fields as a fixture file's case (``id`` optional); fails the test with the same
    message as a file case would.
    """

    def check(**fields: Any) -> Any:
        fields.setdefault("id", "inline")
        case = _validate(fields, {}, "<reward_case>", 0, set())
        outcome = run_case(case)
        if not outcome.passed:
            details = "; ".join(outcome.failures)
            raise RewardCaseFailed(f"reward case {case.id!r} failed: {details} (reason: {outcome.reason})")
        return outcome

    return check
