"""The HTTP judge against a real llama.cpp server (llama-cpp-python's OpenAI-compatible server, the
SmolLM2-135M-Instruct GGUF file): scores from its top log-probabilities, and from its grammar-
constrained decoding when log-probabilities are not asked for."""

from __future__ import annotations

import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory, smollm2_judge):
    """llama_cpp.server on a free loopback port serving SmolLM2's GGUF file (the one rlvr prepared from)."""
    import httpx

    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip("llama-cpp-python is not installed (pip install 'rlvr[dev]' builds it)")
    from rlvr.models.packaged import gguf_file

    log_path = tmp_path_factory.mktemp("llama") / "server.log"
    port = _free_port()
    log = log_path.open("w")
    proc = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(gguf_file("smollm2-135m")),
                             "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048", "--n_threads", "1",
                             "--model_alias", "smollm2"], stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"llama_cpp.server exited {proc.returncode}: {log_path.read_text()[-2000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/v1/models", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.5)
    else:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("llama_cpp.server did not come up in 120 s")
    yield f"http://127.0.0.1:{port}/v1", smollm2_judge
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    log.close()


PAIR = ("What is 7*6?", ["7*6 = 42, so the answer is \\boxed{42}.", "7*6 = 48, so the answer is \\boxed{48}."])


def _engine(url, tokenizer, **options):
    from rlvr.rewards.judges import EngineSettings, JudgeEngine, JudgePrompt
    from rlvr.rewards.judges.http import OpenAICompatibleJudge

    backend = OpenAICompatibleJudge(url, "smollm2", tokenizer=tokenizer, max_concurrency=2, **options)
    return JudgeEngine(backend, JudgePrompt(max_response_chars=200),
                       EngineSettings(k=1, temperature=0.0, max_new_tokens=24, shuffle=False, min_mass=0.0))


def test_scores_from_the_servers_top_logprobs_match_the_local_model(llama_server):
    """The same weights read two ways: llama.cpp's top-20 log-probabilities over HTTP, and
    transformers' full distribution over the de-quantised copy, on the judgment text the server wrote."""
    from rlvr.rewards.judges import EngineSettings, JudgeEngine, JudgePrompt
    from rlvr.rewards.judges.backends import JudgeCall, TransformersJudge
    from rlvr.rewards.judges.distribution import read_scores

    url, folder = llama_server
    engine = _engine(url, folder, score_endpoint="completions")
    [verdict] = engine.judge_groups([(*PAIR, None)])
    [vote] = verdict.votes
    assert vote.status == "ok" and vote.method == "HTTP top_logprobs (completions)", vote.reason
    assert all(v is not None for v in verdict.values) and 0 < vote.mass <= 1
    written = vote.text.rsplit("\nScores:", 1)[0]
    local = TransformersJudge(folder, device="cpu")
    call = JudgeCall.of(JudgePrompt(max_response_chars=200).messages(PAIR[0], PAIR[1]), 0.0, 24, 0)
    [mine] = read_scores(local.next_tokens, [(call, written, 2)], min_mass=0.0)
    assert [p.argmax for p in mine.positions] == list(vote.argmax)
    assert all(abs(p.expected - v) < 0.75 for p, v in zip(mine.positions, verdict.values))


def test_grammar_constrained_scores_when_no_logprobs(llama_server):
    url, folder = llama_server
    engine = _engine(url, folder, score_endpoint="completions", logprobs=False, constrained="grammar")
    [verdict] = engine.judge_groups([(*PAIR, None)])
    [vote] = verdict.votes
    assert vote.status == "ok" and vote.method == "HTTP constrained decoding (grammar)", vote.reason
    assert all(isinstance(v, float) and 1 <= v <= 10 for v in verdict.values)
    assert vote.text.endswith("}") and "Scores: \\boxed{" in vote.text


def test_the_grm_reward_over_http_with_logprobs(llama_server):
    from rlvr.rewards import get_reward

    url, folder = llama_server
    r = get_reward("grm", backend="http", url=url, judge_model="smollm2", score_endpoint="completions",
                   tokenizer=folder, max_new_tokens=16, max_response_chars=200, cache_dir=None, min_mass=0.0)
    results = r.explain(prompts=[PAIR[0]] * 2, completions=PAIR[1])
    assert all(x.status == "ok" and x.value is not None for x in results), [x.reason for x in results]
    assert "HTTP top_logprobs" in results[0].reason and r.judge_stats()["distribution_scored"] == 1
