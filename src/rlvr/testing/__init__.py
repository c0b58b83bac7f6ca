"""Unit-testing reward functions: fixture files, a pytest plugin, adversarial audits.

- :func:`load_fixture_file` / :func:`run_case`: the fixture format (see :mod:`rlvr.testing.fixtures`).
- The pytest plugin (:mod:`rlvr.testing.plugin`, auto-loaded through the ``pytest11`` entry point)
  collects fixture files as tests and provides the ``reward_case`` fixture.
- :func:`audit`: the adversarial suite behind ``rlvr rewards audit``.
"""

from rlvr.testing.audit import AuditReport, audit
from rlvr.testing.fixtures import CaseOutcome, FixtureCase, FixtureError, find_fixture_files, load_fixture_file, run_case

__all__ = ["load_fixture_file", "run_case", "find_fixture_files", "FixtureCase", "CaseOutcome", "FixtureError",
           "audit", "AuditReport"]
