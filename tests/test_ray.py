"""Scoring on Ray (a local instance, as on a cluster): the same rows and values as the local path."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytest.importorskip("ray")


def _rows() -> list[dict]:
    rows = []
    for i in range(200):
        gold = str(i % 17)
        kind = i % 5
        completion = {0: f"\\boxed{{{gold}}}", 1: f"\\boxed{{{int(gold) + 1}}}", 2: f"Answer: {gold}",
                      3: [{"role": "assistant", "content": f"so it is {gold}."}],
                      4: [{"role": "user", "content": "no assistant turn"}]}[kind]
        rows.append({"id": f"r{i}", "prompt": "q", "completion": completion, "answer": gold})
    return rows


def _strip_timing(rewards: dict) -> dict:
    return {k: {f: v for f, v in r.items() if f != "details"} for k, r in rewards.items()}


@pytest.mark.slow
def test_ray_scores_like_the_local_path(tmp_path):
    rows = tmp_path / "rows.jsonl"
    rows.write_text("\n".join(json.dumps(r) for r in _rows()) + "\n")
    rewards = tmp_path / "r.yaml"
    rewards.write_text("rewards:\n  - {name: format_strict, weight: 0.2}\n  - {name: math_equivalence}\n")
    local, remote = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    base = [sys.executable, "-m", "rlvr", "score", "--rewards", str(rewards), str(rows)]
    # every fifth row has no assistant turn: both paths score the others, write every row, and end with exit 2
    # naming the first such row
    r = subprocess.run([*base, "--out", str(local)], capture_output=True, text=True)
    assert r.returncode == 2 and "rows.jsonl:5:" in r.stderr, r.stderr[-2000:]
    r = subprocess.run([*base, "--out", str(remote), "--ray", "--actors", "2"], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 2 and "rows.jsonl:5:" in r.stderr, r.stderr[-3000:]
    a = [json.loads(line) for line in local.read_text().splitlines()]
    b = [json.loads(line) for line in remote.read_text().splitlines()]
    assert [x["id"] for x in a] == [x["id"] for x in b]  # order kept
    assert [x["total"] for x in a] == [x["total"] for x in b]
    assert [_strip_timing(x["rewards"]) for x in a] == [_strip_timing(x["rewards"]) for x in b]
    assert {x["rewards"]["math_equivalence"]["status"] for x in b} >= {"correct", "incorrect", "error"}
