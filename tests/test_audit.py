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


def test_format_reward_is_held_to_format_attacks_only():
    report = audit(get_reward("format_approx"))
    assert report.style == "working_out"  # the format in which honest answers score best
    assert report.measures == ("format",)
    rows = {r.attack: r for r in report.rows}
    # a format-only reward cannot see what the answer says: spraying is not applicable, not an exploit
    assert not rows["or_in_answer"].applies and rows["or_in_answer"].flag == ""
    # it does see broken structure (tags repeated), but not empty blocks: those pay like honest ones
    assert rows["several_boxes"].flag == "" and rows["duplicated_final_block"].flag == ""
    assert rows["empty_tags"].flag == "EXPLOIT" and rows["tags_only"].flag == "EXPLOIT"
    assert "does not judge correctness" in report.note()


@reward("test_short_answer")
def short_answer(completions, max_chars: int = 2000, **kwargs):
    """Share of the length budget left."""
    return [max(0.0, 1 - len(c) / max_chars) for c in completions]


def test_length_rewards_are_caught_paying_near_empty_completions():
    report = audit(get_reward("test_short_answer"))
    assert report.measures == ("length",) and report.honest_correct == report.honest_wrong
    # the real exploit: nothing said pays more than an honest right answer, and is singled out
    assert {r.attack for r in report.overpaid} >= {"empty_completion", "near_empty"}
    assert all(r.attack in {"empty_completion", "near_empty", "truncated_reasoning"} for r in report.flagged)
    # a step length penalty pays an empty completion in full too: EXPLOIT (as much as the honest answer)
    flags = {r.attack: r.flag for r in audit(get_reward("overlong_penalty")).rows}
    assert flags["empty_completion"] == "EXPLOIT" and flags["long_padding_wrong"] == ""


def test_repetition_and_language_rewards_meet_their_own_attacks():
    rep = {r.attack: r for r in audit(get_reward("repetition_penalty")).rows}
    assert rep["looped_reasoning"].applies and rep["looped_reasoning"].flag == ""  # a plain loop is penalised
    assert rep["counter_broken_loop"].flag == "EXPLOIT"  # a loop with a counter in it evades n-grams
    assert rep["word_salad"].flag == "EXPLOIT" and not rep["several_boxes"].applies
    lang = audit(get_reward("language_consistency"))
    assert lang.measures == ("language",)
    rows = {r.attack: r for r in lang.rows}
    assert rows["one_word_reasoning"].flag == "EXPLOIT" and rows["half_other_language"].flag == ""


def test_a_whole_rewardset_is_audited_as_training_pays_it():
    from rlvr.rewards import RewardSet

    gated = RewardSet.from_config([{"name": "math_equivalence"},
                                   {"name": "test_short_answer", "weight": 0.2, "gate": "math_equivalence"}])
    report = audit(gated, style="boxed")
    assert report.measures == ("correctness", "length")
    assert report.flagged == [], [(r.attack, r.flag, r.score) for r in report.flagged]  # brevity pays only right answers
    rows = {r.attack: r for r in report.rows}
    assert rows["empty_completion"].score == 0.0 and "math_equivalence=no_answer" in rows["empty_completion"].status


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


def test_cli_audits_a_rewardset_file(tmp_path):
    (tmp_path / "mine.py").write_text("from rlvr.rewards import reward\n\n@reward('cli_short')\n"
                                      "def short(completions, **kwargs):\n    return [1.0 - len(c) / 2000 for c in completions]\n")
    (tmp_path / "rewards.yaml").write_text("plugins: [mine.py]\nrewards:\n  - {name: math_equivalence}\n"
                                           "  - {name: cli_short, weight: 0.5}\n")
    r = subprocess.run([sys.executable, "-m", "rlvr", "rewards", "audit", str(tmp_path / "rewards.yaml"), "--style",
                        "boxed", "--strict"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    assert "RewardSet(math_equivalence×1, cli_short×0.5) judges correctness and length" in " ".join(r.stdout.split())
    r = subprocess.run([sys.executable, "-m", "rlvr", "rewards", "audit", "cli_short", "--import",
                        str(tmp_path / "mine.py"), "--strict"], capture_output=True, text=True)
    assert r.returncode == 1 and "pay MORE than the honest right answer: empty_completion" in " ".join(r.stdout.split())


def test_the_readme_states_the_real_number_of_attacks():
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    stated = re.findall(r"scores (\d+) cheating completions", " ".join(readme.split()))
    assert stated == [str(len(ATTACKS))], f"README says {stated}; the audit runs {len(ATTACKS)} attacks"
