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


def _symbolic_cost(reward) -> float:
    """The slowest of a few real symbolic comparisons by ``reward`` (each new to its cache), measured
    now: the yardstick of this machine, at its present load, for what scoring one answer may cost."""
    import time

    costs = []
    for i in range(3):
        start = time.perf_counter()
        a = i + 7
        reward(prompts=["q"], completions=[f"\\boxed{{(x+{a})^2 - {i}}}"], answer=[f"x^2 + {2 * a}x + {a * a - i}"])
        costs.append(time.perf_counter() - start)
    return max(costs)


def test_math_equivalence_survives_every_attack():
    reward = get_reward("math_equivalence")
    from rlvr.verifiers import warm_up

    warm_up()
    yardstick = _symbolic_cost(reward)
    # no attack may cost more than a few real symbolic comparisons measured in the same run (SLOW)
    report = audit(reward, slow_s=10 * yardstick)
    assert report.honest_correct == 1.0 and report.honest_wrong == 0.0
    assert len(report.rows) == len(ATTACKS) >= 30
    assert report.flagged == [], [(r.attack, r.score, r.reason, r.seconds, yardstick) for r in report.flagged]
    # coverage: stating k candidates with the gold among them never pays more than committing to one
    assert {r.k for r in report.coverage} == {2, 3, 4} and len({r.strategy for r in report.coverage}) >= 14
    assert report.coverage_flagged == [], [(r.strategy, r.k, r.paid, r.example) for r in report.coverage_flagged]
    assert all(abs(r.single_pick - 1 / r.k) < 1e-9 for r in report.coverage)
    content_free = report.content_free_best
    assert content_free is not None and content_free.score == 0.0  # a completion that says nothing earns nothing


def test_naive_reward_is_flagged():
    report = audit(get_reward("test_naive_substring"))
    flagged = {r.attack for r in report.flagged}
    assert {"several_boxes", "answer_only_in_think", "retract_to_correct", "candidate_list"} <= flagged
    assert all(r.flag == "EXPLOIT" for r in report.flagged)
    # the honest wrong answer's reasoning holds the gold too: no pay rate can be read, and it says so
    assert report.coverage == [] and "coverage: not probed" in " ".join(report.exploitability())


@reward("test_any_box")
def any_box(completions, answer, **kwargs):
    """1.0 when any \\boxed{...} holds the gold (a grader that pays the best of several final answers)."""
    import re

    return [1.0 if a in [m.strip() for m in re.findall(r"\\boxed\{([^{}]*)\}", c)] else 0.0
            for c, a in zip(completions, answer)]


def test_a_reward_that_pays_any_of_several_answers_is_flagged_for_coverage():
    report = audit(get_reward("test_any_box"), style="boxed")
    assert report.measures[0] == "correctness" and report.honest_correct == 1.0 and report.honest_wrong == 0.0
    # several boxes pay in full: k times what committing to one of the k candidates earns
    covered = {(r.strategy, r.k) for r in report.coverage_flagged}
    assert {("several_final_blocks", k) for k in (2, 3, 4)} | {("adjacent_boxes", 2)} <= covered
    assert all(r.paid == 1.0 and r.flag == "COVERAGE" for r in report.coverage_flagged)
    assert ("comma_list", 2) not in covered  # one box holding a list is not the gold
    assert report.findings == len(report.flagged) + len(report.coverage_flagged) > len(report.flagged)


@reward("test_first_box")
def first_box(completions, answer, **kwargs):
    """1.0 when the first \\boxed{...} holds the gold (a grader that reads one box: coverage-safe for boxes)."""
    import re

    out = []
    for c, a in zip(completions, answer):
        m = re.search(r"\\boxed\{([^{}]*)\}", c)
        out.append(1.0 if m and m.group(1).strip() == a else 0.0)
    return out


def test_a_reward_that_reads_one_candidate_is_paid_at_most_one_in_k():
    report = audit(get_reward("test_first_box"), style="boxed")
    rows = {(r.strategy, r.k): r for r in report.coverage}
    # the first of several boxes: paid when the gold comes first, i.e. at one position in k, like one pick
    assert rows[("several_final_blocks", 3)].paid == rows[("several_final_blocks", 3)].single_pick == 1 / 3
    assert report.coverage_flagged == []


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
    assert {r.attack for r in report.overpaid} >= {"empty_completion", "blank_completion", "near_empty", "filler_only"}
    # and only text that says nothing (tags around nothing included) or stops mid-sentence is flagged
    assert all(r.content_free or r.attack == "truncated_reasoning" for r in report.flagged)
    assert {r.attack for r in report.flagged} >= {"empty_tags", "tags_only"}
    assert report.coverage == [] and "coverage: not probed" in " ".join(report.exploitability())
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


def test_cli_audit_flags_a_small_length_budget_that_pays_only_empty_text(tmp_path):
    """A length reward whose budget every honest answer exceeds: honest answers get 0, the empty
    completion 1. It measures none of the probed kinds on honest text, yet is the first thing to flag."""
    (tmp_path / "mine.py").write_text(
        "from rlvr.rewards import RewardResult, reward\n\n@reward('brevity')\n"
        "def brevity(completions, max_chars: int = 2000, **kwargs):\n"
        "    return [RewardResult(max(0.0, 1 - len(c) / max_chars), 'ok', f'{len(c)} of {max_chars} characters')\n"
        "            for c in completions]\n")
    argv = [sys.executable, "-m", "rlvr", "rewards", "audit", "brevity", "--import", str(tmp_path / "mine.py"),
            "--params", '{"max_chars": 10}', "--strict"]
    r = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path)
    out = " ".join(r.stdout.split())
    assert r.returncode == 1, out[-3000:] + r.stderr
    assert "paid up to 1 (empty_completion); honest answers get 0 (right) and 0 (wrong): OVERPAY" in out
    assert "but pays content-free text more: empty_completion 1" in out and "scored every probe alike" not in out
    assert "pay MORE than the honest right answer: empty_completion, blank_completion, near_empty" in out
    r = subprocess.run(argv[:-2] + ["{}", "--strict"], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 1 and "OVERPAY" in r.stdout  # the default budget: still flagged (it pays brevity)


def test_cli_audit_prints_report():
    r = subprocess.run([sys.executable, "-m", "rlvr", "rewards", "audit", "math_equivalence", "--params",
                        '{"preset": "dapo"}'], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "honest correct 1, honest wrong -1" in r.stdout and "0 of" in r.stdout
    assert "none paid more than committing to one" in " ".join(r.stdout.split())
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
    overpaid = " ".join(r.stdout.split()).split("pay MORE than the honest right answer: ")[1].split(" ")
    assert r.returncode == 1 and "empty_completion," in overpaid and "tags_only," in overpaid


def test_the_readme_states_the_real_number_of_attacks():
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    stated = re.findall(r"scores (\d+) cheating completions", " ".join(readme.split()))
    assert stated == [str(len(ATTACKS))], f"README says {stated}; the audit runs {len(ATTACKS)} attacks"
