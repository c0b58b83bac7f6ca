"""One RewardSet, scored through each framework's own calling code, gives the same numbers.

TRL: ``GRPOTrainer._calculate_rewards`` on a real trainer (tiny local model). verl 0.9.1:
``RewardLoopWorker`` with the custom ``compute_score`` and with ``RlvrRewardManager``. OpenRLHF
0.11.2: ``SingleTurnAgentExecutor`` with the reward file and with ``rlvr serve`` as its remote URL.
verifiers 0.4.0 (``Task.score`` on v1 traces) and 0.3.1 (the legacy ``Rubric``). Each framework runs
in its own overlay venv (tests/frameworks/envs.py) because its pins clash with ours.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import math
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.slow

_spec = importlib.util.spec_from_file_location("framework_envs", Path(__file__).parent / "frameworks" / "envs.py")
envs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(envs)

REWARDS = """rewards:
  - {name: math_equivalence}
  - {name: think_format, weight: 0.1}
  - {name: overlong_penalty, weight: 0.5, params: {max_length: 60, cache_length: 20, length_unit: chars}}
"""
PROMPTS = ["Solve the problem. Put the final answer in \\boxed{}.", "What is the value? Think first.",
           "Answer the question below.", "计算并给出答案。"]


def _chatml(question: str) -> str:
    return f"<|im_start|>user\n{question}<|im_end|>\n<|im_start|>assistant\n"


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    """200 labelled completions from the verifier table (numbers, LaTeX, sets, traps, Unicode),
    every third one with a reasoning block so the format reward varies too."""
    table = yaml.safe_load((Path(__file__).parent / "data" / "verifier_cases.yaml").read_text(encoding="utf-8"))
    cases = [c for section in table.values() for c in section]
    out = []
    for i, (gold, completion, *_label) in enumerate(cases[:200]):
        text = f"<think>checking step {i}</think> {completion}" if i % 3 == 0 else completion
        out.append({"prompt": _chatml(PROMPTS[i % len(PROMPTS)]), "completion": text, "gold": str(gold),
                    "data_source": "math_dapo"})
    assert len(out) == 200
    return out


@pytest.fixture(scope="module")
def setup(tmp_path_factory, rows):
    """The RewardSet file and a tokenizer saved where every framework loads it from."""
    from rlvr.harness.local_models import build_tokenizer

    home = tmp_path_factory.mktemp("parity")
    (home / "rewards.yaml").write_text(REWARDS)
    tok = build_tokenizer([r["prompt"] + r["completion"] for r in rows], vocab_size=600)
    tok.save_pretrained(home / "tok")
    return home, tok


def _trl_scores(rewards_file: Path, rows: list[dict], tok, out_dir: Path) -> tuple[list[float], dict[str, list[float]]]:
    """TRL's own reward call, ``GRPOTrainer._calculate_rewards`` on a real trainer: the weighted nansum
    of each reward function's output, and each function's values."""
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    from rlvr.harness.local_models import build_qwen2
    from rlvr.harness.train import no_activation_checkpointing
    from rlvr.rewards import RewardSet

    rs = RewardSet.from_config(str(rewards_file))
    args = GRPOConfig(output_dir=str(out_dir), per_device_train_batch_size=2,
                      num_generations=2, max_completion_length=8, use_cpu=True, bf16=False, report_to=[],
                      reward_weights=rs.weights, save_strategy="no", **no_activation_checkpointing(GRPOConfig))
    trainer = GRPOTrainer(model=build_qwen2(tok, hidden_size=16, num_layers=1, num_heads=2), processing_class=tok,
                          reward_funcs=rs.funcs, args=args,
                          train_dataset=Dataset.from_list([{"prompt": r["prompt"], "answer": r["gold"]} for r in rows]))
    inputs = [{"prompt": r["prompt"], "answer": r["gold"]} for r in rows]
    ids = [tok(r["completion"], add_special_tokens=False)["input_ids"] for r in rows]
    per_func = trainer._calculate_rewards(inputs, [r["prompt"] for r in rows], [r["completion"] for r in rows], ids)
    totals = (per_func * trainer.reward_weights.unsqueeze(0)).nansum(dim=1)
    return [float(x) for x in totals], {n: [float(v) for v in per_func[:, i]] for i, n in enumerate(rs.names)}


@pytest.fixture(scope="module")
def trl_totals(setup, rows, tmp_path_factory):
    home, tok = setup
    return _trl_scores(home / "rewards.yaml", rows, tok, tmp_path_factory.mktemp("trl"))


def _same(name: str, got: list[float], want: list[float], rows: list[dict]) -> None:
    bad = [(i, g, w, rows[i]["completion"][:60], rows[i]["gold"]) for i, (g, w) in enumerate(zip(got, want))
           if not math.isclose(g, w, abs_tol=1e-6)]  # TRL sums in float32
    assert not bad, f"{name}: {len(bad)} of {len(want)} rows differ from TRL, e.g. {bad[:5]}"


def test_all_frameworks_score_200_rows_the_same(setup, rows, trl_totals, tmp_path):
    home, _ = setup
    want, per_reward = trl_totals
    assert len(set(want)) >= 5, "the rows must exercise different reward values for parity to mean something"

    verl_job = {"rows": rows, "tokenizer_dir": str(home / "tok"),
                "custom_reward_function": {"path": "pkg://rlvr.integrations.verl", "name": "compute_score",
                                           "reward_kwargs": {"rewards": str(home / "rewards.yaml")}}}
    verl_out = envs.run_driver("verl", "verl_driver.py", verl_job, tmp_path)
    assert [o["decoded"] for o in verl_out] == [r["completion"] for r in rows]  # the same text reached the reward
    _same("verl compute_score", [o["reward_score"] for o in verl_out], want, rows)
    _same("verl per-reward math", [o["extra"]["math_equivalence"] for o in verl_out],
          [0.0 if math.isnan(v) else v for v in per_reward["math_equivalence"]], rows)

    managed = dict(verl_job, reward_manager={"source": "importlib", "name": "RlvrRewardManager",
                                             "module": {"path": "pkg://rlvr.integrations.verl_manager"}})
    _same("verl RlvrRewardManager", [o["reward_score"] for o in envs.run_driver("verl", "verl_driver.py", managed,
                                                                                 tmp_path)], want, rows)

    orl_job = {"rows": rows, "tokenizer_dir": str(home / "tok"), "remote": str(_module_file("openrlhf"))}
    orl_out = envs.run_driver("openrlhf", "openrlhf_driver.py", orl_job, tmp_path,
                              env={"RLVR_REWARDS": str(home / "rewards.yaml")})
    _same("OpenRLHF reward_func", [o["reward"] for o in orl_out], want, rows)

    vf_job = {"rows": rows, "rewards": str(home / "rewards.yaml")}
    v1 = envs.run_driver("verifiers", "verifiers_driver.py", vf_job, tmp_path)
    assert v1["version"] == "0.4.0"
    _same("verifiers v1 Task.score", [o["reward"] for o in v1["rows"]], want, rows)
    assert all(set(o["info"]) == {"math_equivalence", "think_format", "overlong_penalty"} for o in v1["rows"])
    assert all(o["info"]["math_equivalence"]["reason"] for o in v1["rows"])  # every score says why
    legacy = envs.run_driver("verifiers-legacy", "verifiers_driver.py", vf_job, tmp_path)
    assert legacy["version"].startswith("0.3")
    _same("verifiers legacy Rubric", [o["reward"] for o in legacy["rows"]], want, rows)


def _module_file(name: str) -> Path:
    import rlvr.integrations

    return Path(rlvr.integrations.__file__).parent / f"{name}.py"


def test_verl_dapo_recipe_keeps_its_numbers_with_rlvr_manager(setup, rows, tmp_path):
    """verl's DAPO manager (its overlong buffer on top of rlvr's compute_score) and RlvrRewardManager
    (the same buffer read as rlvr's soft_overlong in tokens) give every row the same reward."""
    home, tok = setup
    (home / "math.yaml").write_text("rewards:\n  - {name: math_equivalence, params: {preset: dapo}}\n")
    lengths = sorted(len(tok(r["completion"], add_special_tokens=False)["input_ids"]) for r in rows)
    # verl's rollout never returns more than max_resp_len tokens: the longest row is the limit, and the
    # buffer starts where the longest quarter of the rows begins
    max_resp_len = lengths[-1]
    dapo_cfg = {"overlong_buffer_cfg": {"enable": True, "len": max(2, max_resp_len - lengths[len(lengths) * 3 // 4]),
                                        "penalty_factor": 0.7,
                                        "log": True}, "max_resp_len": max_resp_len}
    job = {"rows": rows, "tokenizer_dir": str(home / "tok"), "reward_kwargs": dapo_cfg,
           "custom_reward_function": {"path": "pkg://rlvr.integrations.verl", "name": "compute_score",
                                      "reward_kwargs": {"rewards": str(home / "math.yaml")}}}
    verl_dapo = envs.run_driver("verl", "verl_driver.py", dict(job, reward_manager={"name": "dapo"}), tmp_path)
    ours = envs.run_driver("verl", "verl_driver.py", dict(job, reward_manager={
        "source": "importlib", "name": "RlvrRewardManager", "module": {"path": "pkg://rlvr.integrations.verl_manager"}}),
        tmp_path)
    penalised = [o for o in verl_dapo if o["extra"].get("overlong_reward", 0) < 0]
    assert len(penalised) >= 20, "the buffer must bite for the comparison to mean something"
    _same("RlvrRewardManager vs verl dapo", [o["reward_score"] for o in ours],
          [o["reward_score"] for o in verl_dapo], rows)


@contextlib.contextmanager
def _serving(rewards_file: Path, token: str = "parity-secret"):
    """``rlvr serve`` on a free loopback port with ``rewards_file``; yields the port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "RLVR_SERVE_TOKEN": token}
    proc = subprocess.Popen([sys.executable, "-m", "rlvr", "serve", "--port", str(port), "--rewards", str(rewards_file)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        import httpx

        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read().decode()[-2000:]
                time.sleep(0.2)
        yield port
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


def test_openrlhf_remote_url_is_rlvr_serve(setup, rows, trl_totals, tmp_path):
    """OpenRLHF's executor posting to ``rlvr serve``'s /get_reward (token in the URL: OpenRLHF sends no
    headers) scores as TRL does."""
    home, _ = setup
    with _serving(home / "rewards.yaml") as port:
        subset = rows[:40]
        out = envs.run_driver("openrlhf", "openrlhf_driver.py",
                              {"rows": subset, "tokenizer_dir": str(home / "tok"),
                               "remote": f"http://127.0.0.1:{port}/get_reward?access_token=parity-secret"}, tmp_path)
        _same("OpenRLHF remote_url → rlvr serve", [o["reward"] for o in out], trl_totals[0][:40], subset)


BOOM = """from rlvr.rewards import reward


@reward("parity_boom")
def parity_boom(completions, **kwargs):
    raise ValueError("a bug in the user's reward")
"""


def test_a_reward_that_raises_costs_only_its_own_values_in_every_framework(setup, rows, tmp_path):
    """The same rows with one reward that always raises: every door gives the other rewards TRL's
    values, flags the failed one, and never stops the run (the failure limit is set above the rows)."""
    home, tok = setup
    (home / "boom_rewards.py").write_text(BOOM)
    # generous verifier time limits: this test is about the raising reward, not about a busy machine's timeouts
    (home / "raising.yaml").write_text(
        REWARDS.replace("rewards:\n", "plugins: [boom_rewards.py]\nrewards:\n", 1).replace(
            "{name: math_equivalence}", "{name: math_equivalence, params: {verifier: {timeout_s: 20, batch_timeout_s: 60}}}")
        + "  - {name: parity_boom, weight: 1.0, max_consecutive_failures: 1000}\n")
    raising = str(home / "raising.yaml")
    subset = rows[:24]
    want, per_reward = _trl_scores(home / "raising.yaml", subset, tok, tmp_path / "trl")
    assert all(math.isnan(v) for v in per_reward["parity_boom"])  # TRL: None, left out of the sum
    others = {n: [0.0 if math.isnan(v) else v for v in per_reward[n]] for n in ("math_equivalence", "think_format")}
    assert len(set(want)) >= 3

    def check(door: str, totals: list[float], values: dict[str, list[float]]) -> None:
        _same(door, totals, want, subset)
        for name, got in values.items():
            _same(f"{door} {name}", got, others[name], subset)

    job = {"rows": subset, "tokenizer_dir": str(home / "tok"),
           "custom_reward_function": {"path": "pkg://rlvr.integrations.verl", "name": "compute_score",
                                      "reward_kwargs": {"rewards": raising}}}
    managed = dict(job, reward_manager={"source": "importlib", "name": "RlvrRewardManager",
                                        "module": {"path": "pkg://rlvr.integrations.verl_manager"}})
    for door, verl_job in (("verl compute_score", job), ("verl RlvrRewardManager", managed)):
        out = envs.run_driver("verl", "verl_driver.py", verl_job, tmp_path)
        check(door, [o["reward_score"] for o in out], {n: [o["extra"][n] for o in out] for n in others})
        assert all(o["extra"]["rlvr_error"] == 1.0 and o["extra"]["parity_boom"] == 0.0 for o in out)

    orl = envs.run_driver("openrlhf", "openrlhf_driver.py",
                          {"rows": subset, "tokenizer_dir": str(home / "tok"), "remote": str(_module_file("openrlhf"))},
                          tmp_path, env={"RLVR_REWARDS": raising})
    with _serving(home / "raising.yaml") as port:
        served = envs.run_driver("openrlhf", "openrlhf_driver.py",
                                 {"rows": subset, "tokenizer_dir": str(home / "tok"),
                                  "remote": f"http://127.0.0.1:{port}/get_reward?access_token=parity-secret"}, tmp_path)
    for door, out in (("OpenRLHF reward_func", orl), ("OpenRLHF → rlvr serve", served)):
        check(door, [o["reward"] for o in out], {n: [o["extra_logs"][f"{n}/value"] for o in out] for n in others})
        assert all(o["extra_logs"]["rlvr_error"] == 1.0 for o in out)

    v1 = envs.run_driver("verifiers", "verifiers_driver.py", {"rows": subset, "rewards": raising}, tmp_path)
    check("verifiers v1", [o["reward"] for o in v1["rows"]], {n: [o["rewards"][n] for o in v1["rows"]] for n in others})
    assert all(o["info"]["parity_boom"]["status"] == "error" and "boom_rewards.py:6" in o["info"]["parity_boom"]["reason"]
               for o in v1["rows"])
    legacy = envs.run_driver("verifiers-legacy", "verifiers_driver.py", {"rows": subset, "rewards": raising}, tmp_path)
    check("verifiers legacy", [o["reward"] for o in legacy["rows"]],
          {n: [o["rewards"][n] for o in legacy["rows"]] for n in others})

    # Ray Data, through `rlvr score --ray`: every row scored and written, then the one line naming the reward
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps({"id": f"r{i}", "prompt": r["prompt"], "completion":
                                                             r["completion"], "answer": r["gold"]}) + "\n"
                                                 for i, r in enumerate(subset)))
    done = subprocess.run([sys.executable, "-m", "rlvr", "score", "--rewards", raising, str(tmp_path / "rows.jsonl"),
                           "--out", str(tmp_path / "ray.jsonl"), "--ray", "--actors", "1"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1 and "reward 'parity_boom' raised ValueError" in done.stderr.splitlines()[-1]
    ray_rows = [json.loads(line) for line in (tmp_path / "ray.jsonl").read_text().splitlines()]
    check("Ray", [o["total"] for o in ray_rows], {n: [o["rewards"][n]["value"] or 0.0 for o in ray_rows] for n in others})
    assert all(o["rewards"]["parity_boom"]["status"] == "error" for o in ray_rows)


def test_a_broken_rewardset_file_fails_every_adapter_at_start_naming_the_file(setup, rows, tmp_path):
    from rlvr.errors import ConfigError
    from rlvr.rewards import RewardSet

    home, _ = setup
    broken = home / "broken.yaml"
    broken.write_text("rewards:\n  - {name: math_equivalence}\n  - {name: no_such_reward}\n")
    message = f"reward config {broken}: no reward named 'no_such_reward'"
    with pytest.raises(ConfigError, match=message):  # TRL: the RewardSet the trainer is given
        RewardSet.from_config(str(broken))
    subset = rows[:2]
    job = {"rows": subset, "tokenizer_dir": str(home / "tok"),
           "custom_reward_function": {"path": "pkg://rlvr.integrations.verl", "name": "compute_score",
                                      "reward_kwargs": {"rewards": str(broken)}}}
    failures = {
        "verl compute_score": envs.run_driver("verl", "verl_driver.py", job, tmp_path, expect_failure=True),
        "verl RlvrRewardManager": envs.run_driver("verl", "verl_driver.py", dict(job, reward_manager={
            "source": "importlib", "name": "RlvrRewardManager",
            "module": {"path": "pkg://rlvr.integrations.verl_manager"}}), tmp_path, expect_failure=True),
        "OpenRLHF": envs.run_driver("openrlhf", "openrlhf_driver.py",
                                    {"rows": subset, "tokenizer_dir": str(home / "tok"),
                                     "remote": str(_module_file("openrlhf"))},
                                    tmp_path, env={"RLVR_REWARDS": str(broken)}, expect_failure=True),
        "verifiers v1": envs.run_driver("verifiers", "verifiers_driver.py", {"rows": subset, "rewards": str(broken)},
                                        tmp_path, expect_failure=True),
        "verifiers legacy": envs.run_driver("verifiers-legacy", "verifiers_driver.py",
                                            {"rows": subset, "rewards": str(broken)}, tmp_path, expect_failure=True),
    }
    for door, output in failures.items():
        assert message in output, f"{door}: {output[-3000:]}"
    ray = subprocess.run([sys.executable, "-c", "import sys; from rlvr.integrations.ray import score_dataset; "
                          "import ray; ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False); "
                          "score_dataset(ray.data.from_items([{'completion': 'x'}]), sys.argv[1])", str(broken)],
                         capture_output=True, text=True, timeout=300)
    assert ray.returncode != 0 and message in ray.stderr, ray.stderr[-3000:]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    serve = subprocess.run([sys.executable, "-m", "rlvr", "serve", "--port", str(port), "--rewards", str(broken)],
                           capture_output=True, text=True, timeout=120)
    assert serve.returncode == 2 and message in serve.stderr and "Traceback" not in serve.stderr, serve.stderr[-2000:]


def test_verifiers_taskset_loads_dapo_rows_and_scores_them(setup, tmp_path):
    """``RlvrMathTaskset`` iterated as verifiers iterates a taskset (idx set, prompts as v1 messages)."""
    home, _ = setup
    data = Path(__file__).parent / "data" / "datasets" / "dapo_processed.jsonl"
    out = envs.run_driver("verifiers", "verifiers_driver.py", {"taskset": str(data), "rewards": str(home / "rewards.yaml")},
                          tmp_path)
    # the fourth row repeats the first (whitespace and case aside): rlvr's loader drops it
    assert [t["idx"] for t in out["rows"]] == [0, 1, 2] and [t["answer"] for t in out["rows"]] == ["5", "5", "42"]
    assert all(t["roles"] == ["user"] for t in out["rows"])
    assert all(t["right"] == 1.0 and t["wrong"] <= 0.0 for t in out["rows"]), out["rows"]
