"""Two training processes on CPU (gloo), as `accelerate launch` starts them for DDP / DeepSpeed runs.

accelerate's own ``--cpu`` flag always runs one process; ``--multi_gpu --num_processes N`` on a machine
without CUDA starts N processes that rlvr joins over gloo (the same code path as N GPUs).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.slow
def test_two_cpu_processes_share_one_run_folder(tmp_path):
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "accelerate.commands.launch", "--num_processes", "2", "--num_machines", "1",
           "--multi_gpu", "--mixed_precision", "no", "--dynamo_backend", "no", "-m", "rlvr", "train",
           "--recipe", "tiny-cpu-smoke", "--set", f"output.dir={out}"]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, timeout=900)
    assert r.returncode == 0, (r.stdout[-2000:], r.stderr[-4000:])
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("run")) == ["run"]  # no run-2 race
    versions = json.loads((out / "versions.json").read_text())
    assert versions["processes"] == 2
    steps = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert [m["step"] for m in steps if "reward" in m] == [1, 2, 3, 4]  # one writer: no duplicated rows
    assert (out / "final" / "adapter_config.json").is_file() and (out / "summary.json").is_file()
    assert (out / "report.html").is_file()
    assert r.stdout.count("held-out accuracy (pass@1)") == 1  # rank 0 reports for the run
    # `rlvr eval` sharded over the same two processes: every problem once, in order, one writer
    data = Path(__file__).parent / "data" / "datasets" / "math500.jsonl"
    evals = tmp_path / "eval.jsonl"
    cmd = [*cmd[:cmd.index("-m", 3) + 2], "eval", "--model", str(out / "final"), "--dataset", "math-500",
           "--path", str(data), "--max-new-tokens", "8", "--samples", "2", "--out", str(evals)]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    rows = [json.loads(line) for line in evals.read_text().splitlines()]
    single = tmp_path / "eval-single.jsonl"
    one = subprocess.run([sys.executable, "-m", "rlvr", "eval", *cmd[cmd.index("eval") + 1:-1], str(single)],
                         capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert one.returncode == 0, one.stderr[-2000:]
    expected = [json.loads(line)["id"] for line in single.read_text().splitlines()]
    assert [row["id"] for row in rows] == expected and all(len(row["completions"]) == 2 for row in rows)
    assert r.stdout.count('"pass@1"') == 1


@pytest.mark.slow
def test_resume_after_one_rank_is_killed(tmp_path):
    """kill -9 of one rank ends the launch; --resume continues from the last whole checkpoint."""
    import os
    import signal
    import time

    out = tmp_path / "run"
    launch = [sys.executable, "-m", "accelerate.commands.launch", "--multi_gpu", "--num_processes", "2",
              "--num_machines", "1", "--mixed_precision", "no", "--dynamo_backend", "no", "-m", "rlvr", "train",
              "--recipe", "tiny-cpu-smoke", "--set", f"output.dir={out}", "--set", "trainer.max_steps=40",
              "--set", "trainer.save_steps=2", "--set", "eval.enabled=false"]
    proc = subprocess.Popen(launch, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        while not (out / "checkpoints" / "checkpoint-4").exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert (out / "checkpoints" / "checkpoint-4").exists(), "no checkpoint appeared"
        ranks = [int(p) for p in os.listdir("/proc") if p.isdigit() and _is_rank(int(p), out)]
        assert len(ranks) == 2
        os.kill(max(ranks), signal.SIGKILL)  # one rank dies mid-run
        assert proc.wait(timeout=120) != 0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    r = subprocess.run([*launch, "--resume"], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["steps"] == 40
    steps = [json.loads(line)["step"] for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert max(steps) == 40 and steps.count(1) == 1  # the second launch went on from a checkpoint, not from step 1


def _is_rank(pid: int, out: Path) -> bool:
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return b"rlvr" in cmdline and f"output.dir={out}".encode() in cmdline and b"accelerate.commands.launch" not in b" ".join(cmdline)
