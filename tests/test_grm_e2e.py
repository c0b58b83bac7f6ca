"""End to end: the ``grm`` reward against a real OpenAI-compatible server (``transformers serve``,
started here on 127.0.0.1 and killed mid-run), and GRPO runs whose RewardSet includes ``grm``
(real TRL; SmolLM2-135M-Instruct as judge when it is prepared), resumed from a checkpoint."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def judge_server(tiny_judge, tmp_path):
    """``transformers serve`` on a free loopback port with the tiny judge preloaded."""
    import httpx

    exe = shutil.which("transformers", path=str(Path(sys.executable).parent)) or shutil.which("transformers")
    if exe is None:
        pytest.skip("the transformers CLI is not installed")
    port = _free_port()
    log = (tmp_path / "serve.log").open("w")
    proc = subprocess.Popen([exe, "serve", "--host", "127.0.0.1", "--port", str(port), "--device", "cpu", tiny_judge],
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"transformers serve exited {proc.returncode}: {(tmp_path / 'serve.log').read_text()[-2000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(1)
    else:
        proc.kill()
        pytest.fail("transformers serve did not come up in 180 s")
    yield proc, f"http://127.0.0.1:{port}/v1", tiny_judge
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    log.close()


def _stop(proc) -> None:
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)


def test_http_judge_against_a_real_server_then_killed(judge_server):
    from rlvr.rewards import get_reward

    proc, url, model = judge_server
    deadline_s = 30  # the reward's own per-call deadline: what the dead server's call is held to
    r = get_reward("grm", backend="http", url=url, judge_model=model, k=2, max_new_tokens=8, cache_dir=None,
                   retries=1, timeout_s=deadline_s, max_concurrency=2)
    logged: dict[str, float] = {}
    results = r.explain(prompts=["What is 3*4?"] * 2, completions=["12", "13"],
                        log_metric=lambda k, v: logged.__setitem__(k, v))
    # the served tiny model answers, but writes no score line: an abstention saying what it wrote
    assert all(x.value is None and x.status == "unparseable" for x in results)
    assert all("raw text" in x.reason or "empty text" in x.reason for x in results)
    assert logged["rewards/grm/judge/prompt_tokens"] > 0 and logged["rewards/grm/judge/completion_tokens"] > 0
    _stop(proc)
    started = time.monotonic()
    down = r.explain(prompts=["What is 5*5?"] * 2, completions=["25", "24"])
    # bounded by the configured deadline (a contract, not a speed): retries within it, then an abstention
    assert time.monotonic() - started < deadline_s
    assert all(x.value is None and x.status == "judge_error" for x in down)
    assert "connection_error" in down[0].reason and url in down[0].reason
    assert r.judge_stats()["backend_connection_error"] == 2
    cached = r.explain(prompts=["What is 3*4?"] * 2, completions=["12", "13"])  # judged before the kill
    assert all(x.status == "unparseable" for x in cached)


def test_a_server_without_logprobs_leaves_the_text_parse(judge_server, caplog):
    """``transformers serve`` has no ``logprobs`` and refuses the fields of a continued answer (422): the
    judge says so once, never asks again, and the text parse stands (an abstention with the judge's text,
    never a 0); constrained decoding it refuses too, and the same holds."""
    import logging

    from rlvr.rewards import get_reward

    _, url, model = judge_server
    r = get_reward("grm", backend="http", url=url, judge_model=model, max_new_tokens=8, cache_dir=None, timeout_s=60)
    with caplog.at_level(logging.WARNING):
        results = r.explain(prompts=["What is 3*4?"] * 2, completions=["It is 12.", "It is 13."])
    assert all(x.value is None and x.status == "unparseable" for x in results)
    assert all("raw text" in x.reason or "empty text" in x.reason for x in results)
    assert r.engine.backend._no_logprobs and "rejected the log-probability request" in caplog.text
    assert caplog.text.count("rejected the log-probability request") == 1
    grammar = get_reward("grm", backend="http", url=url, judge_model=model, max_new_tokens=8, cache_dir=None,
                         timeout_s=60, logprobs=False, constrained="regex")
    with caplog.at_level(logging.WARNING):
        results = grammar.explain(prompts=["What is 5*5?"] * 2, completions=["25", "24"])
    assert all(x.value is None and x.status == "unparseable" for x in results)
    assert grammar.engine.backend._no_constrained and "rejected constrained decoding" in caplog.text


def test_grpo_goes_on_when_the_judge_server_dies(judge_server, tmp_path):
    """Real TRL: the server is killed after the first step; later steps abstain on grm, training ends."""
    from datasets import Dataset
    from transformers import TrainerCallback
    from trl import GRPOConfig, GRPOTrainer

    from rlvr.harness.local_models import build_qwen2, build_tokenizer
    from rlvr.harness.train import no_activation_checkpointing
    from rlvr.rewards import RewardSet

    proc, url, model = judge_server
    prompts = [[{"role": "user", "content": f"What is {a}+{a}?"}] for a in range(8)]
    tok = build_tokenizer([p[0]["content"] for p in prompts] * 5, vocab_size=300)
    policy = build_qwen2(tok, hidden_size=32, num_layers=1, num_heads=2)
    rs = RewardSet.from_config({"rewards": [
        {"name": "boxed_answer", "weight": 0.5},
        {"name": "grm", "weight": 1.0, "params": {"backend": "http", "url": url, "judge_model": model,
                                                   "max_new_tokens": 8, "cache_dir": None, "retries": 1,
                                                   "timeout_s": 20}}]})

    class KillAfterFirstStep(TrainerCallback):
        def on_step_end(self, args, state, control, **kw):
            if state.global_step == 1 and proc.poll() is None:
                _stop(proc)

    args = GRPOConfig(output_dir=str(tmp_path / "out"), max_steps=3, per_device_train_batch_size=4, num_generations=2,
                      max_completion_length=8, logging_steps=1, report_to=[], use_cpu=True, bf16=False,
                      save_strategy="no", reward_weights=rs.weights, disable_tqdm=True,
                      **no_activation_checkpointing(GRPOConfig))
    trainer = GRPOTrainer(model=policy, processing_class=tok, reward_funcs=rs.funcs, args=args,
                          train_dataset=Dataset.from_list([{"prompt": p} for p in prompts]),
                          callbacks=[KillAfterFirstStep()])
    trainer.train()
    assert trainer.state.global_step == 3
    logs = [h for h in trainer.state.log_history if "rewards/grm/judge/backend_errors" in h]
    assert logs[0]["rewards/grm/judge/backend_errors"] == 0 and logs[0]["rewards/grm/judge/prompt_tokens"] > 0
    assert logs[-1]["rewards/grm/judge/backend_errors"] > 0
    grm = rs.funcs[1]
    assert grm.stats["judge_error"] > 0 and "connection_error" in grm.last_call[1][0].reason


def test_grpo_run_with_smollm2_judge_logs_and_resumes(smollm2_judge, tmp_path):
    """``rlvr train`` with grm in its RewardSet (the tiny default policy, SmolLM2 as judge), resumed."""
    from rlvr.harness.config import load_recipe
    from rlvr.harness.train import run

    rewards = json.dumps([{"name": "format_strict", "weight": 0.2, "params": {"preset": "r1"}},
                          {"name": "math_equivalence", "weight": 1.0},
                          {"name": "grm", "weight": 0.1, "params": {
                              "judge_model": smollm2_judge, "max_new_tokens": 24, "max_response_chars": 200,
                              "cache_dir": str(tmp_path / "judgments"), "device": "cpu"}}])
    out = tmp_path / "run"
    overrides = [f"rewards={rewards}", f"output.dir={out}", "eval.enabled=false", "trainer.save_steps=1",
                 "trainer.per_device_train_batch_size=4", "trainer.num_generations=2"]
    first = run(load_recipe("tiny-cpu-smoke", overrides + ["trainer.max_steps=1"]))
    assert first.steps == 1
    resumed = run(load_recipe("tiny-cpu-smoke", overrides + ["trainer.max_steps=2"]), resume=True)
    assert resumed.steps == 2 and resumed.run_dir == first.run_dir
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    steps = [r for r in rows if "rewards/grm/judge/prompt_tokens" in r]
    assert [r["step"] for r in steps] == [1, 2]
    assert all(r["rewards/grm/judge/prompt_tokens"] > 0 and r["rewards/grm/judge/completion_tokens"] > 0
               and r["rewards/grm/judge/judgments"] == 2 for r in steps)  # two groups of two, k=1
    assert all("rewards/grm/mean" in r and "rewards/math_equivalence/mean" in r for r in steps)
    samples = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
    assert all("grm" in s["rewards"] and s["rewards"]["grm"]["reason"] for s in samples)
    # distribution scores: they differ (a reward GRPO can learn from); a judgment with too little probability
    # on the scale (the tiny policy writes bytes) abstains, saying how little
    scored = [s["rewards"]["grm"] for s in samples if s["rewards"]["grm"]["value"] is not None]
    assert len({g["value"] for g in scored}) > 1, samples
    assert all("transformers logits" in g["reason"] or "from text" in g["reason"] for g in scored)
    assert all("probability mass on the scale" in s["rewards"]["grm"]["reason"] for s in samples
               if s["rewards"]["grm"]["value"] is None)


def test_rlvr_train_survives_a_judge_that_abstains_on_every_sample(tiny_judge, tmp_path):
    """The harness's console line and run summary with a reward that has no mean for whole steps."""
    from rlvr.harness.config import load_recipe
    from rlvr.harness.train import run

    rewards = json.dumps([{"name": "format_strict", "weight": 0.2, "params": {"preset": "r1"}},
                          {"name": "judge", "weight": 1.0, "params": {"judge_model": tiny_judge, "max_new_tokens": 8,
                                                                     "cache_dir": None, "device": "cpu",
                                                                     "score_method": "text"}}])
    summary = run(load_recipe("tiny-cpu-smoke", [f"rewards={rewards}", f"output.dir={tmp_path / 'run'}",
                                                 "eval.enabled=false", "trainer.max_steps=1",
                                                 "trainer.per_device_train_batch_size=4", "trainer.num_generations=2"]))
    assert summary.steps == 1 and "judge" not in summary.reward_means and "format_strict" in summary.reward_means
