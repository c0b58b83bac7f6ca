"""The `rlvr` command line: version, help, exit codes and one-line errors."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import rlvr
from rlvr.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rlvr", *args], capture_output=True, text=True, cwd=cwd)


def test_version():
    r = run("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"rlvr {rlvr.__version__}"


def test_help_lists_every_command():
    r = run("--help")
    assert r.returncode == 0
    for command in ("train", "eval", "score", "verify", "rewards", "data", "rm", "models"):
        assert command in r.stdout
    for cmd in COMMANDS:
        for child in cmd.children:
            sub = run(cmd.name, child.name, "--help")
            assert sub.returncode == 0 and child.help.split()[0] in sub.stdout


def test_unknown_command_is_one_line_exit_2():
    r = run("trian")
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "invalid choice: 'trian'" in lines[0] and "rlvr --help" in lines[0]


def test_missing_subcommand_and_bad_option():
    assert run("rewards").returncode == 2
    r = run("verify", "--golden", "1")
    assert r.returncode == 2 and "unrecognized arguments" in r.stderr


def test_errors_are_one_line_unless_debug(tmp_path):
    missing = tmp_path / "nope.yaml"
    r = run("score", "--rewards", str(missing), str(missing))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines() == [f"rlvr score: error: reward config {missing} does not exist"]
    r = run("--debug", "score", "--rewards", str(missing), str(missing))
    assert r.returncode != 0 and "Traceback" in r.stderr


def test_main_returns_exit_codes(capsys):
    assert main(["verify", "--gold", "2", "\\boxed{2}"]) == 0
    assert main(["verify", "--gold", "2", "\\boxed{3}"]) == 1
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0


def test_datasets_is_hugging_face_from_repo_root():
    r = subprocess.run([sys.executable, "-c", "import datasets; print(datasets.__file__, hasattr(datasets, 'Dataset'))"],
                       capture_output=True, text=True, cwd=ROOT)
    path, has_dataset = r.stdout.split()
    assert has_dataset == "True" and "site-packages" in path, path


def test_datasets_is_hugging_face_inside_the_package():
    code = ("import rlvr.datasets, datasets, sys; ds = rlvr.datasets.load('synthetic', n=3); "
            "print(type(ds).__module__, datasets.__file__, 'rlvr.datasets' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    module, path, loaded = r.stdout.split()
    assert module.startswith("datasets.") and "site-packages" in path and loaded == "True", r.stderr


def test_every_subcommand_help_has_an_example_defaults_and_exit_codes():
    from rlvr.cli import COMMANDS

    leaves = [(c.name,) for c in COMMANDS if not c.children] + \
             [(c.name, k.name) for c in COMMANDS for k in c.children]
    for path in leaves:
        r = run(*path, "--help")
        assert r.returncode == 0, path
        assert "example:" in r.stdout and "exit codes:" in r.stdout and "--import" in r.stdout, path


def test_help_names_each_default_once():
    from rlvr.cli import COMMANDS

    leaves = [(c.name,) for c in COMMANDS if not c.children] + \
             [(c.name, k.name) for c in COMMANDS for k in c.children]
    for path in leaves:
        out = run(*path, "--help").stdout
        assert "(default: None)" not in out and "(default: False)" not in out, path
        for option in re.split(r"\n  (?=-)", out.split("options:", 1)[1]):  # one block per option
            assert option.count("(default") <= 1, (path, option)  # a help that names its default gets no second
    assert "(default: the embedded CPU default)" in " ".join(run("train", "--help").stdout.split())


def test_the_old_demo_subcommand_says_where_it_went():
    r = run("demo")
    assert r.returncode == 2 and "'rlvr demo' is now 'rlvr tour'" in r.stderr and "rlvr train" in r.stderr
    tour = run("tour")
    assert tour.returncode == 0 and "correct" in tour.stdout


def test_closed_pipe_exits_zero():
    r = subprocess.run(["bash", "-c", f"set -o pipefail; {sys.executable} -m rlvr rewards list | head -c 10"],
                       capture_output=True, text=True)
    assert r.returncode == 0 and "Broken pipe" not in r.stderr and "Traceback" not in r.stderr
