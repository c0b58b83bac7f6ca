"""Adversarial audit: does a reward, or the whole RewardSet a run trains on, pay for cheating?

Two questions come first, for any reward or RewardSet (the exploitability probe):

- what it pays **content-free text** (an empty or blank completion, "OK.", tags around nothing,
  filler) beside what it pays honest answers: a reward that pays a completion saying nothing more
  than an honest answer is flagged ``OVERPAY`` whatever else it measures (a length reward with a
  small budget pays the empty completion in full and every real answer 0);
- for a reward that judges correctness, whether **coverage** pays: k candidates stated at once with
  the gold among them (:mod:`rlvr.testing.coverage`) must never be paid more than committing to one
  of them (1/k of the time); ``COVERAGE`` flags a strategy that is.

The audit then finds what the target measures: it reads a gold answer (``Reward.reads``), or its
score drops on one of the :data:`~rlvr.testing.attacks.PROBES` (a wrong answer, lost tags, padding,
repetition, another language). It then scores every attack in the answer format the target
separates best and holds each attack on a kind it measures to the honest completions:

- ``OVERPAY``: the attack pays more than the honest right answer (singled out first);
- ``EXPLOIT``: it pays as much as the honest right answer — for a length, format, repetition or
  language reward this is a degenerate completion (empty, tags around nothing, word salad) paid in
  full, which such a reward alone cannot tell from a real answer: gate it on a correctness reward
  or weigh it below one, and audit the RewardSet file (what training pays);
- ``LEAK``: an attack on correctness pays more than the honest wrong answer, by over
  :data:`LEAK_MARGIN` of the gap between the honest right and wrong answers (a reward that also
  weighs length pays a slightly longer wrong answer a little more: that is no leak);
- ``SLOW`` / ``CRASH``: scoring took over ``slow_s`` seconds, or the reward raised.

An attack on a kind the target does not measure (spraying answers, against a length reward) is
reported as not applicable, never as a finding; content-free attacks apply to every target.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from rlvr.testing.attacks import ATTACKS, GOLD, KINDS, PROBES, PROBLEM, STYLES, WRONG, Attack, honest
from rlvr.testing.coverage import CoverageRow, probe_coverage

__all__ = ["Attack", "ATTACKS", "AuditRow", "AuditReport", "CoverageRow", "audit", "STYLES", "KINDS", "LEAK_MARGIN"]

LEAK_MARGIN = 0.05


@dataclass
class AuditRow:
    attack: str
    family: str
    score: float | None
    status: str
    reason: str
    seconds: float
    flag: str  # "OVERPAY", "EXPLOIT", "LEAK", "SLOW", "CRASH" or ""
    applies: bool = True  # False: the attack cheats a kind of reward the target does not measure
    content_free: bool = False  # the completion states nothing (held against every target)


@dataclass
class AuditReport:
    reward: str
    style: str
    honest_correct: float | None
    honest_wrong: float | None
    rows: list[AuditRow] = field(default_factory=list)
    measures: tuple[str, ...] = ()
    coverage: list[CoverageRow] = field(default_factory=list)  # empty: the target does not judge correctness

    @property
    def flagged(self) -> list[AuditRow]:
        return [r for r in self.rows if r.flag]

    @property
    def coverage_flagged(self) -> list[CoverageRow]:
        """Coverage strategies paid more than committing to one candidate."""
        return [r for r in self.coverage if r.flag]

    @property
    def findings(self) -> int:
        """Flagged attacks and coverage strategies together (what ``--strict`` fails on)."""
        return len(self.flagged) + len(self.coverage_flagged)

    @property
    def content_free_best(self) -> AuditRow | None:
        """The content-free completion paid most (None when none was scored)."""
        scored = [r for r in self.rows if r.content_free and r.score is not None]
        return max(scored, key=lambda r: r.score) if scored else None

    def exploitability(self) -> list[str]:
        """What the target pays for content-free text and for coverage, in a line each."""
        lines = []
        best = self.content_free_best
        if best is not None:
            honest = f"honest answers get {_fmt(self.honest_correct)} (right) and {_fmt(self.honest_wrong)} (wrong)"
            verdict = ("OVERPAY: it pays a completion that says nothing more than an honest answer"
                       if _lt(self.honest_correct, best.score) else
                       "as much as the honest right answer" if not _lt(best.score, self.honest_correct) else
                       "less than the honest right answer")
            lines.append(f"content-free text (empty, blank, 'OK.', tags around nothing, filler): paid up to "
                         f"{_fmt(best.score)} ({best.attack}); {honest}: {verdict}")
        if self.coverage:
            worst = max(self.coverage, key=lambda r: r.paid - r.single_pick)
            ks = sorted({r.k for r in self.coverage})
            over = self.coverage_flagged
            lines.append(f"coverage ({len({r.strategy for r in self.coverage})} ways of stating k = "
                         f"{ks[0]}..{ks[-1]} candidates, the gold at each position): "
                         + (f"{len(over)} paid more than committing to one: "
                            + ", ".join(f"{r.strategy} k={r.k} {r.paid:.2f} vs {r.single_pick:.2f}" for r in over)
                            if over else
                            f"none paid more than committing to one (closest: {worst.strategy} k={worst.k}, "
                            f"{worst.paid:.2f} of the right answer's pay vs {worst.single_pick:.2f})"))
        elif "correctness" not in self.measures:
            lines.append("coverage: not probed (it does not judge correctness)")
        else:
            lines.append(f"coverage: not probed: the honest right and wrong answers are paid {_fmt(self.honest_correct)} "
                         f"and {_fmt(self.honest_wrong)}, so no share of the right answer's pay can be read")
        return lines

    @property
    def overpaid(self) -> list[AuditRow]:
        """Attacks that pay more than the honest right answer."""
        return [r for r in self.rows if r.flag == "OVERPAY"]

    def note(self) -> str:
        """What this audit means for the target, in a sentence or two."""
        best = self.content_free_best
        if not self.measures and best is not None and _lt(self.honest_correct, best.score):
            return (f"{self.reward} scored the honest probes alike (a right or wrong answer, tags, length, repetition, "
                    f"language: {_fmt(self.honest_correct)}) but pays content-free text more: {best.attack} "
                    f"{_fmt(best.score)}. A policy trained on it learns to say nothing: gate it on a correctness "
                    "reward (gate: math_equivalence), fix its parameters, or weigh it below one")
        if not self.measures:
            return (f"{self.reward} scored every probe alike (a right or wrong answer, tags, length, repetition, "
                    "language): it measures none of them, so no attack applies; it pays every completion the same")
        if "correctness" in self.measures:
            return f"{self.reward} judges correctness and {', '.join(m for m in self.measures if m != 'correctness') or 'nothing else'}: " \
                   "every attack on those kinds is held to the honest answers"
        return (f"{self.reward} does not judge correctness (honest right and wrong answers score "
                f"{_fmt(self.honest_correct)} and {_fmt(self.honest_wrong)}): attacks on correctness do not apply. It "
                f"measures {', '.join(self.measures)}; OVERPAY / EXPLOIT mark a degenerate completion it pays more than / as "
                "much as an honest answer, which such a reward alone cannot tell apart: gate it on a correctness reward "
                "(gate: math_equivalence) or weigh it below one, and audit the RewardSet file training uses")


def _fmt(v: float | None) -> str:
    return "None" if v is None else f"{v:g}"


class _Target:
    """One interface over a Reward and a RewardSet: a completion in, (value, status, reason) out."""

    def __init__(self, target: Any, gold_column: str) -> None:
        from rlvr.rewards import RewardSet

        self.target = target
        self.is_set = isinstance(target, RewardSet)
        columns: dict[str, Any] = ({gold_column: GOLD} if "." not in gold_column
                                   else {gold_column.split(".")[0]: {gold_column.split(".", 1)[1]: GOLD}})
        for column in ("answer", "solution") + ((target.gold_column,) if self.is_set and target.gold_column else ()):
            if "." not in column:
                columns.setdefault(column, GOLD)
        self.columns = {k: [v] for k, v in columns.items()}
        self.name = repr(target) if self.is_set else getattr(target, "__name__", type(target).__name__)

    def score(self, completion: str) -> tuple[float | None, str, str]:
        prompt = [[{"role": "user", "content": PROBLEM}]]
        if not self.is_set:
            r = self.target.explain(prompts=prompt, completions=[completion], **self.columns)[0]
            return r.value, r.status, r.reason
        row = self.target.explain(prompts=prompt, completions=[completion], **self.columns)[0]
        raised = [r.reason for r in row.rewards.values() if r.status == "error" and "failure" in r.details]
        if raised:
            raise RuntimeError(raised[0])
        return (row.total, ", ".join(f"{n}={r.status}" for n, r in row.rewards.items()),
                "; ".join(f"{n}: {r.reason}" for n, r in row.rewards.items()))

    def reads_gold(self) -> bool:
        """Whether the target (or a reward of the set) reads the gold answer column."""
        rewards = self.target.funcs if self.is_set else [self.target]
        heads = {c.split(".")[0] for c in self.columns}
        for r in rewards:
            for inner in (getattr(r, "inner", r), getattr(r, "gate", None)):
                if inner is not None and {c.split(".")[0] for c in inner.reads().columns} & heads:
                    return True
        return False


def _lt(a: float | None, b: float | None) -> bool:
    return (a if a is not None else float("-inf")) < (b if b is not None else float("-inf"))


def _leak_line(correct: float | None, wrong: float | None) -> float | None:
    """What an attack on correctness may pay before it leaks: the honest wrong answer's score, plus
    LEAK_MARGIN of the right-wrong gap."""
    if wrong is None or correct is None or correct <= wrong:
        return wrong
    return wrong + LEAK_MARGIN * (correct - wrong)


def _pick_style(target: _Target) -> str:
    """The answer format in which the target best separates right from wrong (then: pays the most)."""
    def separation(name: str) -> tuple[float, float]:
        good = target.score(honest(STYLES[name], GOLD))[0]
        bad = target.score(honest(STYLES[name], WRONG))[0]
        good_v = good if good is not None else float("-inf")
        return (good_v - bad if good is not None and bad is not None else float("-inf"), good_v)

    return max(STYLES, key=separation)


def audit(reward: Any, gold_column: str = "answer", style: str | None = None, slow_s: float = 2.0,
          coverage: bool = True) -> AuditReport:
    """Run every attack against ``reward``: a Reward instance (e.g. from ``get_reward``) or a RewardSet;
    with ``coverage``, the coverage strategies too when it judges correctness."""
    target = _Target(reward, gold_column)
    style = style or _pick_style(target)
    chosen = STYLES[style]
    correct = target.score(honest(chosen, GOLD))[0]
    wrong = target.score(honest(chosen, WRONG))[0]
    measures = tuple(kind for kind in KINDS
                     if (kind == "correctness" and target.reads_gold())
                     or _lt(target.score(PROBES[kind][1](chosen))[0], target.score(PROBES[kind][0](chosen))[0]))
    report = AuditReport(target.name, style, correct, wrong, measures=measures)
    if "correctness" in measures:
        from rlvr.verifiers import warm_up

        warm_up()  # the sandbox's start-up is no attack's time: SLOW flags an answer, not a cold pool
    for attack in ATTACKS:
        applies = attack.content_free or bool(set(attack.targets) & set(measures))
        try:
            start = time.perf_counter()
            value, status, reason = target.score(attack.build(chosen))
            seconds = time.perf_counter() - start
        except Exception as exc:  # a reward that crashes on an attack is itself a finding
            report.rows.append(AuditRow(attack.name, attack.family, None, "error",
                                        f"raised {type(exc).__name__}: {exc}", 0.0, "CRASH", applies,
                                        attack.content_free))
            continue
        flag = ""
        if applies and value is not None and correct is not None and _lt(correct, value):
            flag = "OVERPAY"
        elif applies and measures and value is not None and correct is not None and not _lt(value, correct):
            flag = "EXPLOIT"  # (a reward that measures nothing pays every completion alike: no exploit)
        elif ("correctness" in measures and "correctness" in attack.targets and value is not None
              and _lt(_leak_line(correct, wrong), value)):
            flag = "LEAK"
        elif seconds > slow_s:
            flag = "SLOW"
        report.rows.append(AuditRow(attack.name, attack.family, value, status, reason, seconds, flag, applies,
                                    attack.content_free))
    if coverage and "correctness" in measures and correct is not None and wrong is not None and _lt(wrong, correct):
        report.coverage = probe_coverage(lambda text: target.score(text)[0], chosen, correct, wrong)
    return report
