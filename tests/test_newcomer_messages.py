"""What a newcomer reads: each message says what happened, run as a user runs the command (the real
`rlvr` process, or its ``main()``), from a fresh folder with a reward file of their own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rlvr.cli import main

HALF = ("from rlvr.rewards import reward\n\n@reward('{name}')\n"
        "def half(completions, **kwargs):\n    '''0.5 for every completion (garbage too).'''\n"
        "    return [0.5 for _ in completions]\n")


def rlvr(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rlvr", *args], capture_output=True, text=True, cwd=cwd)


def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def test_dry_run_lists_the_plugins_the_command_line_imported(tmp_path, capsys):
    (tmp_path / "mine.py").write_text(HALF.format(name="newcomer_half_dry"))
    assert main(["train", "--recipe", "tiny-cpu-smoke", "--import", str(tmp_path / "mine.py"), "--set",
                 "rewards=[{name: newcomer_half_dry}]", "--dry-run"]) == 0
    out = capsys.readouterr().out
    resolved = out.split("# plan")[0]
    assert "plugins: []" not in resolved and f"- {(tmp_path / 'mine.py').resolve()}" in resolved


def test_a_folder_given_as_a_config_file_is_called_a_folder(tmp_path):
    (tmp_path / "adir").mkdir()
    (tmp_path / "rows.jsonl").write_text('{"completion": "x"}\n')
    line = _one_line(rlvr("score", "--rewards", "adir", "rows.jsonl", cwd=tmp_path).stderr)
    assert line == "rlvr score: error: reward config adir is a folder; give the config file in it (YAML, TOML or JSON)"
    r = rlvr("train", "--recipe", "adir", "--dry-run", cwd=tmp_path)
    assert r.returncode == 2 and "recipe adir is a folder" in _one_line(r.stderr)


def test_a_bad_set_value_names_the_flag_not_the_shipped_recipe(capsys):
    assert main(["train", "--recipe", "tiny-cpu-smoke", "--set", "trainer.max_steps=abc", "--dry-run"]) == 2
    line = _one_line(capsys.readouterr().err)
    assert line == "rlvr train: error: --set trainer.max_steps=abc: trainer.max_steps must be an integer, got 'abc'"
    assert "tiny-cpu-smoke.yaml" not in line
    assert main(["train", "--recipe", "tiny-cpu-smoke", "--set", "trainer.max_stepz=4", "--dry-run"]) == 2
    assert _one_line(capsys.readouterr().err).startswith("rlvr train: error: --set trainer.max_stepz=4: trainer: "
                                                         "unknown field(s) ['max_stepz'] (did you mean")


def test_a_grpo_config_value_out_of_trls_stated_range_is_refused(capsys):
    # TRL's help says "Range: [0.0-1.0]" and nothing checks it: rlvr does, when the recipe loads
    assert main(["train", "--recipe", "tiny-cpu-smoke", "--set", "trainer.top_entropy_quantile=1.5", "--dry-run"]) == 2
    assert _one_line(capsys.readouterr().err) == ("rlvr train: error: --set trainer.top_entropy_quantile=1.5: "
                                                  "trainer.top_entropy_quantile=1.5; use a value <= 1")
    assert main(["train", "--recipe", "tiny-cpu-smoke", "--set", "trainer.top_entropy_quantile=0.2", "--dry-run"]) == 0
    assert "top_entropy_quantile: 0.2" in capsys.readouterr().out


def test_a_completion_that_is_not_text_is_bad_input_named_by_line(tmp_path):
    (tmp_path / "rewards.yaml").write_text("rewards: [{name: math_equivalence}]\n")
    (tmp_path / "rows.jsonl").write_text('{"completion": "\\\\boxed{5}", "answer": "5"}\n{"completion": 5, "answer": "5"}\n')
    r = rlvr("score", "--rewards", "rewards.yaml", "rows.jsonl", "--out", "scored.jsonl", cwd=tmp_path)
    assert r.returncode == 2, r.stdout
    line = _one_line(r.stderr)
    assert line.startswith("rlvr score: error: rows.jsonl:2: 'completion' is 5, which is no completion")
    assert "1 of 2 rows could not be scored" in line
    scored = [json.loads(x) for x in (tmp_path / "scored.jsonl").read_text().splitlines()]
    assert [s["total"] for s in scored] == [1.0, None]  # the readable row is scored all the same


def test_the_projects_plugins_reach_rewards_list_and_audit(tmp_path):
    (tmp_path / "mine.py").write_text(HALF.format(name="newcomer_half_project"))
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "acme"\n\n[tool.rlvr]\nplugins = ["mine.py"]\n')
    (tmp_path / "sub").mkdir()  # run from a folder below the project's root
    listed = rlvr("rewards", "list", cwd=tmp_path / "sub")
    assert listed.returncode == 0 and "newcomer_half_project" in listed.stdout, listed.stderr
    audited = rlvr("rewards", "audit", "newcomer_half_project", cwd=tmp_path / "sub")
    assert audited.returncode == 0, audited.stderr
    assert "scored every probe alike" in " ".join(audited.stdout.split())  # it pays everything 0.5: no exploit


@pytest.mark.slow
def test_a_smoke_run_with_a_reward_of_ones_own_says_what_it_paid_and_that_completions_were_cut(tmp_path):
    """The smoke recipe's note claims nothing the run contradicts; the console says which "clip" is
    which, and warns, during the run and at its end, that most completions hit max_completion_length."""
    (tmp_path / "mine.py").write_text(HALF.format(name="newcomer_half_run"))
    out = tmp_path / "run"
    r = rlvr("train", "--recipe", "tiny-cpu-smoke", "--import", "mine.py", "--set", f"output.dir={out}", "--set",
             "rewards=[{name: math_equivalence}, {name: newcomer_half_run, weight: 0.5}]", "--set", "eval.n=4",
             cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "newcomer_half_run 0.500" in r.stdout  # what the user's reward paid
    note = r.stdout.split("note: ", 1)[1]
    assert "all rewards 0" not in note and "answer rewards pay it 0" in note
    steps = [m for m in map(json.loads, (out / "metrics.jsonl").read_text().splitlines()) if "reward" in m]
    cut = [m["completions/clipped_ratio"] for m in steps]
    assert sum(cut) / len(cut) > 0.5  # a 1-layer model never stops within 16 tokens
    log = " ".join(r.stderr.split())
    assert "ratio clipped 0" in log and "| truncated " in log and "| clip " not in log
    assert "completions hit trainer.max_completion_length=16 (truncated)" in log  # the warning during the run
    assert "warning: most completions were truncated:" in r.stdout  # and at its end
    assert (out / "config.yaml").read_text().count(str((tmp_path / "mine.py").resolve())) == 1  # the run records it
    summary = json.loads((out / "summary.json").read_text())
    assert summary["truncated"].startswith("most completions were truncated")


def test_a_percentage_is_quoted_with_its_percent_sign(tmp_path):
    done = rlvr("verify", "\\boxed{25\\%}", "--gold", "\\frac{1}{4}", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "'25%' equals gold" in done.stdout and "'25' equals" not in done.stdout, done.stdout
