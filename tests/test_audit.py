"""The adversarial audit finds cheating-friendly rewards and clears rlvr's math reward."""

from __future__ import annotations

import subprocess
import sys

from rlvr.rewards import get_reward, reward
from rlvr.testing import audit
from rlvr.testing.audit import ATTACKS


@reward("test_naive_substring")
def naive_substring(completions, answer, **kwargs):
    """1.0 when the gold appears anywhere in the completion (a classic exploitable grader)."""
    return [1.0 if a in c else 0.0 for c, a in zip(completions, answer)]


def test_math_equivalence_survives_every_attack():
    report = audit(get_reward("math_equivalence"))
    assert report.honest_correct == 1.0 and report.honest_wrong == 0.0
    assert len(report.rows) == len(ATTACKS) >= 30
    assert report.flagged == [], [(r.attack, r.score, r.reason) for r in report.flagged]
    assert all(r.seconds < 2.5 for r in report.rows)


def test_naive_reward_is_flagged():
    report = audit(get_reward("test_naive_substring"))
    flagged = {r.attack for r in report.flagged}
    assert {"several_boxes", "answer_only_in_think", "retract_to_correct", "candidate_list"} <= flagged
    assert all(r.flag == "EXPLOIT" for r in report.flagged)


def test_format_reward_report_picks_a_format_and_flags_spraying():
    report = audit(get_reward("format_approx"))
    assert report.style == "working_out"  # the format in which honest answers score best
    flags = {r.attack: r.flag for r in report.rows}
    # a format-only reward cannot see what the answer says: spraying inside one block passes
    assert flags["or_in_answer"] == "EXPLOIT" and flags["candidate_list"] == "EXPLOIT"
    # it does see broken structure (tags repeated), but not empty blocks: those pay like honest ones
    assert flags["several_boxes"] == "" and flags["duplicated_final_block"] == ""
    assert flags["empty_tags"] == "EXPLOIT" and flags["tags_only"] == "EXPLOIT"


def test_cli_audit_prints_report():
    r = subprocess.run([sys.executable, "-m", "rlvr", "rewards", "audit", "math_equivalence", "--params",
                        '{"preset": "dapo"}'], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "honest correct 1, honest wrong -1" in r.stdout and "0 of" in r.stdout
    r = subprocess.run([sys.executable, "-m", "rlvr", "rewards", "audit", "format_approx", "--strict"],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "attacks flagged" in r.stdout
    r = subprocess.run([sys.executable, "-m", "rlvr", "rewards", "audit", "math_equivalence", "--params", "{bad"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "--params is not valid JSON" in r.stderr
