"""Every subcommand over a matrix of bad inputs: a one-line error naming the input, exit 1 or 2.

Never a traceback or an "internal error", and every file that existed before the command is
byte-identical afterwards (nothing the user owns is overwritten). Commands run in-process through
``rlvr.cli.main`` (the same code path as the console script, without a Python start per case).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from rlvr.cli import main

GOOD_ROWS = '{"id": "r1", "prompt": "q", "completion": "\\\\boxed{2}", "answer": "2"}\n'
GOOD_REWARDS = "rewards:\n  - {name: math_equivalence}\n"


def _files(tmp: Path) -> dict[str, Path]:
    """The bad (and a few good) files every case may point at."""
    f = {
        "rows": tmp / "rows.jsonl", "rewards": tmp / "rewards.yaml", "empty": tmp / "empty.jsonl",
        "truncated": tmp / "truncated.jsonl", "binary": tmp / "binary.jsonl", "huge": tmp / "huge.jsonl",
        "latin1": tmp / "latin1.jsonl", "null_completion": tmp / "null.jsonl", "no_assistant": tmp / "chat.jsonl",
        "empty_yaml": tmp / "empty.yaml", "string_yaml": tmp / "string.yaml", "binary_yaml": tmp / "binary.yaml",
        "nan_weight": tmp / "nan.yaml", "rm_no_model": tmp / "rm.yaml", "corrupt_parquet": tmp / "bad.parquet",
        "fixture_binary": tmp / "fx" / "reward_fixtures" / "bad.yaml", "folder": tmp / "folder",
        "existing_out": tmp / "existing.jsonl",
    }
    f["rows"].write_text(GOOD_ROWS)
    f["rewards"].write_text(GOOD_REWARDS)
    f["empty"].write_text("")
    f["truncated"].write_text(GOOD_ROWS + '{"prompt": "q", "compl')
    f["binary"].write_bytes(bytes(range(256)) * 40)
    f["huge"].write_text(json.dumps({"completion": "x" * 3_000_000, "answer": "1"}) + "\n" + "{not json\n")
    f["latin1"].write_bytes('{"completion": "caf\xe9", "answer": "1"}\n'.encode("latin-1"))
    f["null_completion"].write_text('{"completion": null, "answer": "2"}\n')
    f["no_assistant"].write_text('{"completion": [{"role": "user", "content": "hi"}], "answer": "2"}\n')
    f["empty_yaml"].write_text("")
    f["string_yaml"].write_text("just a string\n")
    f["binary_yaml"].write_bytes(b"\x00\x01\x02rewards")
    f["nan_weight"].write_text("rewards:\n  - {name: math_equivalence, weight: .nan}\n")
    f["rm_no_model"].write_text("rewards:\n  - {name: reward_model}\n")
    f["corrupt_parquet"].write_bytes(b"PAR1" + os.urandom(200) + b"PAR1")
    f["fixture_binary"].parent.mkdir(parents=True)
    f["fixture_binary"].write_bytes(b"\xff\xfe\x00cases")
    f["folder"].mkdir()
    f["existing_out"].write_text("precious\n")
    return f


# (name, argv built from the files, expected exit codes, a fragment the one-line message must hold)
CASES = [
    ("score: output is the input", lambda f: ["score", "--rewards", f["rewards"], f["rows"], "--out", f["rows"]], {2}, "input"),
    ("score: existing output", lambda f: ["score", "--rewards", f["rewards"], f["rows"], "--out", f["existing_out"]], {2}, "--force"),
    ("score: empty input", lambda f: ["score", "--rewards", f["rewards"], f["empty"]], {2}, "no rows"),
    ("score: truncated input", lambda f: ["score", "--rewards", f["rewards"], f["truncated"]], {2}, "truncated.jsonl:2"),
    ("score: binary input", lambda f: ["score", "--rewards", f["rewards"], f["binary"]], {2}, "binary.jsonl"),
    ("score: huge input with a bad line", lambda f: ["score", "--rewards", f["rewards"], f["huge"]], {2}, "huge.jsonl:2"),
    ("score: latin-1 input", lambda f: ["score", "--rewards", f["rewards"], f["latin1"]], {2}, "UTF-8"),
    ("score: missing input", lambda f: ["score", "--rewards", f["rewards"], f["folder"] / "none.jsonl"], {2}, "does not exist"),
    ("score: folder input", lambda f: ["score", "--rewards", f["rewards"], f["folder"]], {2}, "folder"),
    ("score: empty rewards file", lambda f: ["score", "--rewards", f["empty_yaml"], f["rows"]], {2}, "empty.yaml"),
    ("score: binary rewards file", lambda f: ["score", "--rewards", f["binary_yaml"], f["rows"]], {2}, "binary.yaml"),
    ("score: nan weight", lambda f: ["score", "--rewards", f["nan_weight"], f["rows"]], {2}, "finite"),
    ("score: reward_model without model", lambda f: ["score", "--rewards", f["rm_no_model"], f["rows"]], {2}, "params.model"),
    ("score: missing plugin", lambda f: ["score", "--import", f["folder"] / "mine.py", "--rewards", f["rewards"], f["rows"]], {2}, "mine.py"),
    ("verify: no gold", lambda f: ["verify", "\\boxed{1}"], {2}, "--gold"),
    ("verify: binary jsonl", lambda f: ["verify", "--jsonl", f["binary"]], {2}, "binary.jsonl"),
    ("verify: empty jsonl rows", lambda f: ["verify", "--jsonl", f["truncated"]], {2}, "truncated.jsonl:2"),
    ("verify: an empty jsonl file", lambda f: ["verify", "--jsonl", f["empty"]], {2}, "no rows"),
    ("verify: bad config", lambda f: ["verify", "--gold", "1", "--config", '{"percent": "sometimes"}', "1"], {2}, "percent"),
    ("rewards test: binary fixture", lambda f: ["rewards", "test", f["fixture_binary"]], {2}, "bad.yaml"),
    ("rewards test: nothing found", lambda f: ["rewards", "test", f["folder"]], {2}, "no fixture files"),
    ("rewards audit: unknown reward", lambda f: ["rewards", "audit", "math_equivalance"], {2}, "math_equivalence"),
    ("rewards audit: bad params", lambda f: ["rewards", "audit", "math_equivalence", "--params", "{oops"], {2}, "params"),
    ("data show: corrupt parquet", lambda f: ["data", "show", "dapo-math", "--path", f["corrupt_parquet"]], {2}, "bad.parquet"),
    ("data show: binary jsonl", lambda f: ["data", "show", "math-500", "--path", f["binary"]], {2}, "binary.jsonl"),
    ("data show: unknown set", lambda f: ["data", "show", "math-5000"], {2}, "math-500"),
    ("data lint: empty recipe", lambda f: ["data", "lint", "--recipe", f["empty_yaml"]], {2}, "empty"),
    ("train: empty recipe", lambda f: ["train", "--recipe", f["empty_yaml"], "--dry-run"], {2}, "empty"),
    ("train: recipe is a string", lambda f: ["train", "--recipe", f["string_yaml"], "--dry-run"], {2}, "mapping"),
    ("train: binary recipe", lambda f: ["train", "--recipe", f["binary_yaml"], "--dry-run"], {2}, "binary.yaml"),
    ("train: lora rank text", lambda f: ["train", "--dry-run", "--set", "model.lora.r=abc"], {2}, "model.lora.r"),
    ("train: fractional steps", lambda f: ["train", "--dry-run", "--set", "trainer.max_steps=2.5"], {2}, "trainer.max_steps"),
    ("train: data limit text", lambda f: ["train", "--dry-run", "--set", "data.limit=abc"], {2}, "data.limit"),
    ("train: negative hidden size", lambda f: ["train", "--dry-run", "--set", "model.hidden_size=-5"], {2}, "model.hidden_size"),
    ("train: nan learning rate", lambda f: ["train", "--dry-run", "--set", "trainer.learning_rate=.nan"], {2}, "finite"),
    ("train: misspelt data set", lambda f: ["train", "--dry-run", "--set", "data.name=dapo-mathh"], {2}, "dapo-math"),
    ("train: nan reward weight", lambda f: ["train", "--dry-run", "--set", "rewards=[{name: math_equivalence, weight: .inf}]"], {2}, "finite"),
    ("train: missing local model", lambda f: ["train", "--set", f"model.name_or_path={f['folder']}/nomodel"], {2}, "does not exist"),
    ("eval: samples 0", lambda f: ["eval", "--model", f["folder"], "--dataset", "math-500", "--samples", "0"], {2}, "--samples"),
    ("eval: n negative", lambda f: ["eval", "--model", f["folder"], "--dataset", "math-500", "--n", "-1"], {2}, "--n"),
    ("eval: missing model path", lambda f: ["eval", "--model", f["folder"] / "nomodel", "--dataset", "math-500"], {2}, "nomodel"),
    ("eval: folder without a model", lambda f: ["eval", "--model", f["folder"], "--dataset", "math-500"], {2}, "config.json"),
    ("eval: existing output", lambda f: ["eval", "--model", f["folder"], "--dataset", "math-500", "--out", f["existing_out"]], {2}, "--force"),
    ("rm eval: missing model", lambda f: ["rm", "eval", "--model", "/nonexistent/rm"], {2}, "/nonexistent/rm"),
    ("models prepare: unknown", lambda f: ["models", "prepare", "gpt-17"], {1, 2}, "gpt-17"),
]


def _snapshot(root: Path) -> dict[str, str]:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize("name,argv,codes,fragment", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_one_line_and_touches_nothing(tmp_path, capsys, monkeypatch, name, argv, codes, fragment):
    files = _files(tmp_path)
    monkeypatch.chdir(tmp_path)
    before = _snapshot(tmp_path)
    try:
        code = main([str(a) for a in argv(files)])
    except SystemExit as exc:  # argparse usage errors
        code = exc.code
    err = capsys.readouterr().err
    assert code in codes, (code, err)
    assert "Traceback" not in err and "internal error" not in err, err
    lines = [line for line in err.splitlines() if line.strip() and "error" in line]
    assert len(lines) == 1, err
    assert fragment in lines[0], lines[0]
    assert _snapshot(tmp_path) == before  # nothing pre-existing changed, nothing half-written left behind


def test_score_rows_keep_ids_and_inputs(tmp_path, capsys):
    rows = tmp_path / "rows.jsonl"
    rows.write_text(GOOD_ROWS + '{"id": "r2", "completion": null, "answer": "2"}\n')
    rewards = tmp_path / "r.yaml"
    rewards.write_text(GOOD_REWARDS)
    out = tmp_path / "scores.jsonl"
    assert main(["score", "--rewards", str(rewards), str(rows), "--out", str(out)]) == 2  # and says why, at the end
    scored = [json.loads(line) for line in out.read_text().splitlines()]
    assert [s["id"] for s in scored] == ["r1", "r2"]
    assert scored[0]["completion"] == "\\boxed{2}" and scored[0]["answer"] == "2" and scored[0]["total"] == 1.0
    assert scored[1]["rewards"]["math_equivalence"]["status"] == "error"  # one bad row costs only that row
    captured = capsys.readouterr()
    assert "wrote 2 rows" in captured.out and "r1" not in captured.out  # a summary, not the table
    assert f"{rows}:2: 'completion' is null, which is no completion" in captured.err
    rows.write_text(GOOD_ROWS)
    assert main(["score", "--rewards", str(rewards), str(rows), "--out", str(out), "--force"]) == 0


def test_custom_reward_from_the_command_line(tmp_path, capsys):
    plugin = tmp_path / "my_rewards.py"
    plugin.write_text("from rlvr.rewards import reward\n\n"
                      "@reward\ndef exclaims(completions, **kwargs):\n"
                      "    return [2.0 if c.endswith('!') else 0.0 for c in completions]\n")
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"completion": "done!"}\n{"completion": "done"}\n')
    rewards = tmp_path / "r.yaml"
    rewards.write_text("rewards:\n  - {name: exclaims}\n")
    out = tmp_path / "o.jsonl"
    assert main(["score", "--import", str(plugin), "--rewards", str(rewards), str(rows), "--out", str(out)]) == 0
    assert [json.loads(line)["total"] for line in out.read_text().splitlines()] == [2.0, 0.0]
    # the same reward named in the RewardSet file's plugins: list, relative to the file
    rewards.write_text("plugins: [my_rewards.py]\nrewards:\n  - {name: exclaims, alias: shout}\n")
    assert main(["score", "--rewards", str(rewards), str(rows), "--out", "-"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert [row["rewards"]["shout"]["value"] for row in lines] == [2.0, 0.0]


def test_non_finite_reward_value_is_an_error_status():
    from rlvr.rewards import get_reward, reward

    @reward("returns_nan_for_tests")
    def returns_nan(completions, **kwargs):
        return [float("nan"), 1.0]

    r = get_reward("returns_nan_for_tests")
    results = r.explain(completions=["a", "b"])
    assert results[0].value is None and results[0].status == "error" and "nan" in results[0].reason
    assert results[1].value == 1.0


def test_verify_exit_codes(capsys):
    assert main(["verify", "--gold", "2", "\\boxed{2}"]) == 0
    assert main(["verify", "--gold", "2", "\\boxed{3}"]) == 1
    assert main(["verify", "--gold", "2", "--config", "{bad json", "x"]) == 2


def test_no_signal_warning_names_causes():
    from rlvr.harness.run_log import no_signal_message

    message = no_signal_message({"reward": 0.0, "rewards/math_equivalence/mean": 0.0,
                                 "rewards/math_equivalence/status/no_answer": 0.9,
                                 "completions/clipped_ratio": 0.8}, ["math_equivalence"], 5)
    assert "no final answer" in message and "max_completion_length" in message and "never right" in message


def test_recipe_plugins_make_a_custom_reward_trainable(tmp_path, capsys):
    (tmp_path / "acme.py").write_text("from rlvr.rewards import reward\n\n"
                                      "@reward('acme_len')\ndef acme_len(completions, **kwargs):\n"
                                      "    return [min(1.0, len(c) / 100) for c in completions]\n")
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text("plugins: [acme.py]\nrewards:\n  - {name: math_equivalence}\n  - {name: acme_len, weight: 0.1}\n")
    assert main(["train", "--recipe", str(recipe), "--dry-run"]) == 0
    assert "acme_len" in capsys.readouterr().out


def _alias_bomb(levels: int = 9) -> str:
    """A ~1.2 KB YAML 'billion laughs' under a valid key (9 ** 9 strings once expanded)."""
    lines = ['    l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels):
        lines.append(f"    l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]")
    return "data:\n  name: synthetic\n  options:\n" + "\n".join(lines) + "\n"


def _bounded_files(tmp: Path) -> dict[str, Path]:
    f = {"rows": tmp / "rows.jsonl", "rewards": tmp / "rewards.yaml", "deep": tmp / "deep.jsonl",
         "digits": tmp / "digits.jsonl", "nan": tmp / "nan.jsonl", "bomb": tmp / "bomb.yaml",
         "bomb_rewards": tmp / "bomb_rewards.yaml", "out": tmp / "out.jsonl"}
    f["rows"].write_text(GOOD_ROWS)
    f["rewards"].write_text(GOOD_REWARDS)
    f["deep"].write_text(GOOD_ROWS + '{"completion": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    f["digits"].write_text('{"completion": "\\\\boxed{1}", "answer": ' + "1" * 5000 + "}\n")
    f["nan"].write_text('{"completion": "\\\\boxed{nan}", "answer": NaN}\n')
    f["bomb"].write_text(_alias_bomb())
    f["bomb_rewards"].write_text("rewards:\n  - name: math_equivalence\n    params:\n"
                                 + _alias_bomb().split("options:\n", 1)[1].replace("    l", "      l") )
    return f


def _busy_port() -> tuple[Any, int]:
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    return s, s.getsockname()[1]


# (name, argv built from the files, a fragment the one-line message must hold)
BOUNDED_CASES = [
    ("score: /dev/zero", lambda f: ["score", "--rewards", f["rewards"], "/dev/zero"], "binary"),
    ("score: /dev/zero to --out", lambda f: ["score", "--rewards", f["rewards"], "/dev/zero", "--out", f["out"]], "binary"),
    ("score: 100k-deep JSONL line", lambda f: ["score", "--rewards", f["rewards"], f["deep"], "--out", f["out"]],
     "deep.jsonl:2: nested too deeply"),
    ("score: 5,000-digit number", lambda f: ["score", "--rewards", f["rewards"], f["digits"]], "digits.jsonl:1"),
    ("score: NaN in a row", lambda f: ["score", "--rewards", f["rewards"], f["nan"]], "NaN is not JSON"),
    ("train: alias bomb in data.options", lambda f: ["train", "--recipe", f["bomb"], "--dry-run"], "aliases"),
    ("score: alias bomb in reward params", lambda f: ["score", "--rewards", f["bomb_rewards"], f["rows"]], "aliases"),
    ("serve: --port 99999", lambda f: ["serve", "--port", "99999"], "--port"),
    ("serve: --deadline-s nan", lambda f: ["serve", "--deadline-s", "nan"], "--deadline-s"),
    ("serve: --deadline-s inf", lambda f: ["serve", "--deadline-s", "inf"], "--deadline-s"),
    ("serve: --deadline-s 0", lambda f: ["serve", "--deadline-s", "0"], "--deadline-s"),
    ("serve: --header-timeout-s -1", lambda f: ["serve", "--header-timeout-s", "-1"], "--header-timeout-s"),
    ("serve: --max-connections 0", lambda f: ["serve", "--max-connections", "0"], "--max-connections"),
    ("serve: a port in use", lambda f: ["serve", "--port", str(f["busy_port"])], "cannot listen"),
]


# Linux keeps a process's peak RSS across fork and exec: a child forked straight from this pytest
# process (hundreds of MB once torch is imported) reports pytest's peak as its own. A small launcher
# starts with fresh memory, so the peak of the child it forks is the child's.
_LAUNCHER = """
import json, os, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_RDWR)
    os.dup2(fd, 0)
    os.dup2(fd, 1)
    os.execv(sys.executable, [sys.executable, "-m", "rlvr", *sys.argv[1:]])
_, status, usage = os.wait4(pid, 0)
print(json.dumps([os.waitstatus_to_exitcode(status), usage.ru_maxrss]))
"""


def _run_measured(argv: list[str], cwd: Path, timeout_s: float = 120) -> tuple[int, str, float, float]:
    """Run ``python -m rlvr ARGV``: exit code, stderr, seconds, and the child's own peak RSS in MB."""
    import json
    import signal
    import subprocess
    import sys
    import time

    began = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-S", "-c", _LAUNCHER, *argv], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # a regression must not take the machine down with it
        out, err = proc.communicate()
        return -9, err, time.monotonic() - began, float("inf")
    took = time.monotonic() - began
    code, maxrss_kb = json.loads(out)
    return code, err, took, maxrss_kb / 1024


def _startup_cost(tmp: Path) -> float:
    """What refusing a missing input costs ``rlvr score`` here and now (start Python, import rlvr,
    build the RewardSet, find the file missing): the yardstick a hostile input's refusal is held to."""
    (tmp / "r.yaml").write_text(GOOD_REWARDS)
    return min(_run_measured(["score", "--rewards", str(tmp / "r.yaml"), str(tmp / "missing.jsonl")], tmp)[2]
               for _ in range(2))


@pytest.fixture(scope="module")
def startup_cost(tmp_path_factory) -> float:
    return _startup_cost(tmp_path_factory.mktemp("startup"))


REFUSAL_FACTOR = 4  # a hostile input is refused at the cost of a start-up or so, never after reading it whole


@pytest.mark.parametrize("name,argv,fragment", BOUNDED_CASES, ids=[c[0] for c in BOUNDED_CASES])
def test_hostile_input_is_refused_early_in_bounded_memory_and_time(tmp_path, startup_cost, name, argv, fragment):
    files = _bounded_files(tmp_path)
    busy, files["busy_port"] = _busy_port()
    with busy:
        before = _snapshot(tmp_path)
        code, err, seconds, peak_mb = _run_measured([str(a) for a in argv(files)], tmp_path)
    assert code == 2, (code, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in err and "internal error" not in err, err
    assert fragment in lines[0], lines[0]
    assert peak_mb < 400, peak_mb
    yardstick = startup_cost
    if seconds >= REFUSAL_FACTOR * yardstick:  # the machine may have got busier since: measure it again, now
        import tempfile

        with tempfile.TemporaryDirectory() as again:
            yardstick = max(yardstick, _startup_cost(Path(again)))
    assert seconds < REFUSAL_FACTOR * yardstick, (seconds, yardstick)
    assert _snapshot(tmp_path) == before  # nothing written, nothing changed
