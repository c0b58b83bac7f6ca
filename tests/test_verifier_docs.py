"""docs/verifier.md is the verifier's contract: it must name every rule a verdict can carry."""

from __future__ import annotations

from pathlib import Path

import regex

import rlvr.verifiers  # noqa: F401  (importing the package registers every rule)
from rlvr.verifiers.trace import RULES, STAGES

DOC = Path(__file__).resolve().parents[1] / "docs" / "verifier.md"


def _rules_table() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("\n## Rules", 1)[1].split("\n## ", 1)[0]
    return {m[1]: m[2].strip() for m in regex.finditer(r"^\| `([a-z_]+\.[a-z_]+)` \| (.*?) \|$", section, flags=regex.M)}


def test_every_rule_is_documented_with_what_it_decides():
    documented = _rules_table()
    missing = sorted(set(RULES) - set(documented))
    assert not missing, f"docs/verifier.md's Rules table lacks {missing}"
    assert all(documented[name] for name in RULES), "a documented rule says nothing about what it decides"


def test_documentation_names_no_rule_that_does_not_exist():
    stale = sorted(set(_rules_table()) - set(RULES))
    assert not stale, f"docs/verifier.md documents rules the verifier no longer has: {stale}"


def test_rules_are_documented_in_stage_order():
    order = [RULES[name].stage for name in _rules_table()]
    assert order == sorted(order, key=STAGES.index)
