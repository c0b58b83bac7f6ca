"""Named rules: every verdict says which rule decided it, in which stage.

The verifier works in four stages — ``prepare`` (what part of the completion is graded and what a
reader sees there), ``locate`` (which answer slot holds the final answer), ``integrity`` (is it
really the one final answer: alternatives, later statements, retractions, partial boxes) and
``compare`` (does it equal the gold). Each decision comes from one :class:`Rule`; a
:class:`~rlvr.verifiers.verdict.Verdict` carries the rule's name in ``rule``, so a table row can
name the rule it expects and a test fails when the right verdict comes for the wrong reason.
Adding a rule is one :func:`rule` call where it is applied and one row in the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

__all__ = ["Rule", "RULES", "STAGES", "rule", "Decision", "Finding"]

STAGES = ("prepare", "locate", "integrity", "compare")


@dataclass(frozen=True)
class Rule:
    name: str  # "stage.what", e.g. "integrity.later_statement"
    stage: str
    summary: str


RULES: dict[str, Rule] = {}


def rule(name: str, summary: str) -> str:
    """Register a rule (``"stage.what"``) and return its name, for use as a constant."""
    stage = name.split(".", 1)[0]
    if stage not in STAGES:
        raise ValueError(f"rule {name!r}: the stage must be one of {STAGES}")
    existing = RULES.get(name)
    if existing is not None and existing.summary != summary:
        raise ValueError(f"rule {name!r} is registered twice with different summaries")
    RULES[name] = Rule(name, stage, summary)
    return name


class Decision(NamedTuple):
    """A compare-stage outcome: status, reason, the step that decided (``method``) and its rule."""

    status: str
    reason: str
    method: str
    rule: str


class Finding(NamedTuple):
    """An integrity rule's refusal: its rule, the reason, and the other values stated (equal forms of the
    answer are reconciled later, in the sandbox)."""

    rule: str
    reason: str
    others: tuple[str, ...] = ()
    #: for answers stated together, the name each one is given, in order, the final one last ("x", "y")
    labels: tuple[str, ...] = ()
    #: the values among ``others`` that only approximate the answer ("\\boxed{\\frac13} \\approx 0.333"): the
    #: reconciler holds each to its own precision (rlvr.verifiers.approximations)
    approximate: tuple[str, ...] = ()
