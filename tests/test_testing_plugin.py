"""The reward-fixture workflow: a user's own reward, a YAML fixture, plain pytest and the CLI."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from rlvr.testing import FixtureError, load_fixture_file, run_case

USER_REWARD = textwrap.dedent('''
    from rlvr.rewards import reward

    @reward("acme_exclaims")
    def exclaims(completions, bonus: float = 1.0, **kwargs):
        """bonus for every completion that ends with an exclamation mark"""
        return [bonus if c.rstrip().endswith("!") else 0.0 for c in completions]
''')

FIXTURE = textwrap.dedent('''
    defaults:
      reward: {name: acme_exclaims, params: {bonus: 2.0}}
    cases:
      - {id: shouts, completion: "Done!", value: 2.0}
      - {id: whispers, completion: "done.", value: 0.0}
      - {id: math-too, reward: math_equivalence, completion: "\\\\boxed{4}", answer: "4", value: 1.0, status: correct}
''')


@pytest.fixture
def project(pytester):
    pytester.makepyfile(acme_rewards=USER_REWARD)
    pytester.makeconftest("import acme_rewards  # registers the user's reward\n")
    (pytester.path / "reward_fixtures").mkdir()
    (pytester.path / "reward_fixtures" / "acme.yaml").write_text(FIXTURE)
    return pytester


def test_fixture_cases_become_pytest_items(project):
    result = project.runpytest("-v")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["*acme.yaml::shouts PASSED*", "*acme.yaml::math-too PASSED*"])


def test_failure_shows_case_expected_got_and_reason(project):
    (project.path / "reward_fixtures" / "wrong.yaml").write_text(textwrap.dedent('''
        cases:
          - {id: expects-too-much, reward: math_equivalence, completion: "\\\\boxed{5}", answer: "4", value: 1.0}
    '''))
    result = project.runpytest()
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines([
        "*case 'expects-too-much' (#1) failed (math_equivalence)*",
        "*value: expected 1.0, got 0.0*",
        "*reason: '5' is not equal to gold '4'*",
    ])


def test_k_and_x_select_cases(project):
    project.runpytest("-k", "whispers").assert_outcomes(passed=1)
    (project.path / "reward_fixtures" / "a_first.yaml").write_text(
        "cases:\n  - {id: bad, reward: acme_exclaims, completion: 'x', value: 9}\n")
    project.runpytest("-x").assert_outcomes(failed=1)


def test_schema_error_names_file_case_and_field(project):
    (project.path / "reward_fixtures" / "broken.yaml").write_text(
        "cases:\n  - {id: typo, reward: acme_exclaims, completion: 'x', valeu: 1}\n")
    result = project.runpytest()
    result.stdout.fnmatch_lines(["*broken.yaml: case 'typo' (#1): unknown field(s) *valeu*"])
    assert result.ret != 0


def test_custom_pattern_and_rewards_yaml_suffix(project):
    (project.path / "more.rewards.yaml").write_text("cases:\n  - {id: suffix, reward: acme_exclaims, completion: 'a!', value: 1.0}\n")
    project.runpytest().assert_outcomes(passed=4)
    project.makeini("[pytest]\nrlvr_fixture_patterns = other/*.yaml\n")
    project.runpytest().assert_outcomes()  # nothing matches the custom pattern


def test_reward_case_fixture(project):
    project.makepyfile(test_inline=textwrap.dedent('''
        def test_ok(reward_case):
            reward_case(reward="acme_exclaims", completion="yes!", value=1.0)

        def test_bad(reward_case):
            reward_case(reward="math_equivalence", completion="\\\\boxed{3}", answer="4", status="correct")
    '''))
    result = project.runpytest("test_inline.py")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*status: expected 'correct', got 'incorrect'*"])


def test_cli_runs_the_same_files(project, tmp_path):
    fixture = tmp_path / "reward_fixtures" / "math.yaml"
    fixture.parent.mkdir()
    fixture.write_text("cases:\n  - {id: ok, reward: math_equivalence, completion: '\\\\boxed{2}', answer: '2', value: 1.0}\n"
                       "  - {id: bad, reward: math_equivalence, completion: '\\\\boxed{3}', answer: '2', value: 1.0}\n")
    r = subprocess.run([sys.executable, "-m", "rlvr", "rewards", "test", str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 1
    assert "1 passed, 1 failed" in r.stdout and "FAIL" in r.stdout
    fixture.write_text("cases:\n  - {id: ok, reward: math_equivalence, completion: '\\\\boxed{2}', answer: '2', value: 1.0}\n")
    r = subprocess.run([sys.executable, "-m", "rlvr", "rewards", "test", str(fixture)], capture_output=True, text=True)
    assert r.returncode == 0 and "1 passed, 0 failed" in r.stdout


@pytest.mark.parametrize(
    "text,message",
    [
        ("cases:\n  - {completion: x, reward: r, value: 1}\n", "missing field 'id'"),
        ("cases:\n  - {id: a, completion: x, value: 1}\n", "exactly one of 'reward'"),
        ("cases:\n  - {id: a, reward: r, completion: x}\n", "no expectation"),
        ("cases:\n  - {id: a, reward: r, completion: x, value: one}\n", "field 'value' must be a number"),
        ("cases:\n  - {id: a, reward: r, completion: x, value: 1}\n  - {id: a, reward: r, completion: y, value: 1}\n",
         "duplicate id"),
        ("cases:\n  - {id: a, reward: r, completion: x, value: 1, tol: 0.1}\n", "'tol' only applies with 'approx'"),
        ("rewards: []\n", "expected a mapping with a 'cases' list"),
        ("cases: [\n", "not valid YAML"),
    ],
)
def test_schema_errors(tmp_path, text, message):
    path = tmp_path / "f.yaml"
    path.write_text(text)
    with pytest.raises(FixtureError, match=message) as info:
        load_fixture_file(path)
    assert str(path) in str(info.value)


def test_jsonl_defaults_line(tmp_path):
    path = tmp_path / "f.jsonl"
    path.write_text('{"defaults": {"reward": "math_equivalence", "answer": "2"}}\n'
                    '{"id": "a", "completion": "\\\\boxed{2}", "value": 1.0}\n'
                    '{"id": "b", "completion": "\\\\boxed{3}", "max": 0.0, "status": "incorrect"}\n')
    outcomes = [run_case(c) for c in load_fixture_file(path)]
    assert [o.passed for o in outcomes] == [True, True]


MY_REWARDS = textwrap.dedent('''
    from rlvr.rewards import reward

    @reward("{name}")
    def shouts(completions, **kwargs):
        """1.0 for a completion that ends with '!'"""
        return [1.0 if c.endswith("!") else 0.0 for c in completions]

    @reward("{name}_raises")
    def raises(completions, **kwargs):
        """Raises: a bug in the user's reward."""
        return [len(c) / 0 for c in completions]
''')


def test_plain_pytest_in_a_fresh_folder_reads_tool_rlvr_plugins(pytester):
    """No conftest: ``[tool.rlvr] plugins`` in pyproject.toml is all plain pytest needs, in its own process."""
    pytester.makefile(".toml", pyproject='[tool.rlvr]\nplugins = ["my_rewards.py"]\n')
    pytester.makepyfile(my_rewards=MY_REWARDS.replace("{name}", "fresh_shouts"))
    (pytester.path / "reward_fixtures").mkdir()
    (pytester.path / "reward_fixtures" / "shouts.yaml").write_text(textwrap.dedent('''
        cases:
          - {id: text, reward: fresh_shouts, completion: "yes!", value: 1.0}
          - {id: chat, reward: fresh_shouts, completion: [{role: assistant, content: "yes!"}], value: 1.0}
    '''))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)


def test_fixture_plugins_key_is_relative_to_the_file_and_failures_are_one_line(pytester):
    (pytester.path / "src").mkdir()
    (pytester.path / "src" / "mine.py").write_text(MY_REWARDS.replace("{name}", "rel_shouts"))
    (pytester.path / "reward_fixtures").mkdir()
    (pytester.path / "reward_fixtures" / "mine.yaml").write_text(textwrap.dedent('''
        plugins: [../src/mine.py]
        cases:
          - {id: passes, reward: rel_shouts, completion: "ok!", value: 1.0}
          - {id: typo, reward: rel_shout, completion: "ok!", value: 1.0}
          - {id: raises, reward: rel_shouts_raises, completion: "ok", value: 1.0}
    '''))
    (pytester.path / "reward_fixtures" / "mine.jsonl").write_text(
        '{"plugins": ["../src/mine.py"], "defaults": {"reward": "rel_shouts"}}\n{"id": "jsonl", "completion": "a!", "value": 1.0}\n')
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, failed=2)
    out = result.stdout.str()
    # an unknown reward: one line naming the file and the case, the close match suggested, no traceback
    result.stdout.fnmatch_lines(["*mine.yaml: case 'typo' (#2): no reward named 'rel_shout'. Did you mean 'rel_shouts'*"])
    # a reward that raises: one line naming it and the user's file:line
    result.stdout.fnmatch_lines(["*mine.yaml: case 'raises' (#3) failed: reward 'rel_shouts_raises' raised "
                                 "ZeroDivisionError: division by zero (at src/mine.py:12 in raises*)"])
    assert "Traceback" not in out and "site-packages" not in out
    # the command line runs the same files the same way
    r = subprocess.run([sys.executable, "-m", "rlvr", "rewards", "test", "reward_fixtures"], cwd=pytester.path,
                       capture_output=True, text=True)
    assert r.returncode == 1 and "2 passed, 2 failed" in r.stdout and "internal error" not in r.stderr, r.stderr


def test_a_broken_project_plugin_is_one_usage_error(pytester):
    pytester.makefile(".toml", pyproject='[tool.rlvr]\nplugins = ["missing.py"]\n')
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret != 0
    assert "pyproject.toml [tool.rlvr] plugins: plugin file missing.py does not exist" in result.stderr.str()
    assert "Traceback" not in result.stderr.str()
