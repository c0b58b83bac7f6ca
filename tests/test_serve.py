"""`rlvr serve` as a real uvicorn server on loopback, called over HTTP (httpx and raw sockets)."""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
import time

import pytest

httpx = pytest.importorskip("httpx")

TOKEN = "s3cret-token"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory, serve_process):
    proc = serve_process(tmp_path_factory.mktemp("serve"), "--max-body-mb", "1", "--deadline-s", "3", token=TOKEN)
    yield proc.url
    proc.stop()


AUTH = {"Authorization": f"Bearer {TOKEN}"}


def test_health_is_open_everything_else_needs_the_token(server):
    assert httpx.get(server + "/healthz").json()["status"] == "ok"
    r = httpx.get(server + "/readyz")
    assert r.status_code == 401 and TOKEN not in r.text and r.headers["x-request-id"]
    assert httpx.get(server + "/readyz", headers={"Authorization": "Bearer wrong"}).status_code == 401
    deadline = time.monotonic() + 60
    while (ready := httpx.get(server + "/readyz", headers=AUTH, timeout=10)).status_code == 503 \
            and time.monotonic() < deadline:  # 503 while the verifier sandbox warms up
        assert "warming up" in ready.json()["error"]
        time.sleep(0.1)
    assert ready.status_code == 200 and ready.json()["rewards"] == ["math_equivalence"]
    # OpenRLHF sends no headers: the token may ride in the URL instead
    assert httpx.get(server + "/readyz?access_token=wrong").status_code == 401
    assert httpx.get(server + f"/readyz?access_token={TOKEN}", timeout=60).status_code == 200


def test_openrlhf_protocol(server):
    prompt = "<|im_start|>user\nWhat is 1+1?<|im_end|>\n<|im_start|>assistant\n"
    body = {"query": [prompt + "So \\boxed{2}<|im_end|>", prompt + "It is \\boxed{3}<|im_end|>"],
            "prompts": [prompt, prompt], "labels": ["2", "2"]}
    r = httpx.post(server + "/get_reward", json=body, headers=AUTH, timeout=60)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["rewards"] == [1.0, 0.0] and out["scores"] == [1.0, 0.0]
    assert out["extra_logs"]["math_equivalence/correct"] == [1.0, 0.0]


def test_score_and_verify(server):
    rows = [{"id": "a", "prompt": "q", "completion": "\\boxed{0.5}", "answer": "\\frac{1}{2}"},
            {"id": "b", "prompt": "q", "completion": [{"role": "user", "content": "no answer"}], "answer": "2"}]
    r = httpx.post(server + "/v1/score", json={"rows": rows}, headers=AUTH, timeout=60)
    assert r.status_code == 200, r.text
    scored = r.json()["rows"]
    assert scored[0]["total"] == 1.0 and scored[0]["rewards"]["math_equivalence"]["status"] == "correct"
    assert scored[1]["rewards"]["math_equivalence"]["status"] == "error"  # one bad row, not a 500
    v = httpx.post(server + "/v1/verify", json={"items": [{"completion": "\\boxed{15\\%}", "gold": "15"}],
                                                "config": {"percent": "strict"}}, headers=AUTH, timeout=60)
    assert v.status_code == 200 and v.json()["verdicts"][0]["status"] == "incorrect"


@pytest.mark.parametrize("body,code,fragment", [
    (b"{not json", 400, "not valid JSON"),
    (json.dumps({"rows": "x"}).encode(), 422, "'rows' must be a list"),
    (json.dumps({"nothing": 1}).encode(), 422, "missing field 'rows'"),
    (json.dumps({"rows": [{"completion": 5}]}).encode(), 422, "rows[0].completion"),
    (json.dumps({"rows": [{"completion": "x" * 300_000}]}).encode(), 413, "characters"),
    (b"[" + b"1," * 700_000 + b"1]", 413, "bytes"),
])
def test_bad_requests_get_typed_errors(server, body, code, fragment):
    r = httpx.post(server + "/v1/score", content=body, headers={**AUTH, "content-type": "application/json"}, timeout=60)
    assert r.status_code == code and fragment in r.json()["error"], r.text


def test_a_slow_client_hits_the_deadline(server):
    host, port = server.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(f"POST /v1/score HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\n"
                  "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"rows\": [".encode())
        reply = b""
        while b"not received" not in reply:  # the server answers after its 3 s deadline
            chunk = s.recv(4096)
            if not chunk:
                break
            reply += chunk
        reply = reply.decode()
    assert reply.startswith("HTTP/1.1 408") and "not received within" in reply


def test_metrics_count_requests_and_statuses(server):
    text = httpx.get(server + "/metrics", headers=AUTH).text
    assert 'rlvr_requests_total{endpoint="score",code="200"}' in text
    assert 'rlvr_verdicts_total{status="correct"}' in text and "rlvr_request_seconds_bucket" in text


def test_client_and_remote_reward(server, monkeypatch):
    from rlvr.client import RemoteError, RewardClient
    from rlvr.rewards import get_reward

    client = RewardClient(server, token=TOKEN)
    assert client.score([{"completion": "\\boxed{4}", "answer": "4"}])["rows"][0]["total"] == 1.0
    with pytest.raises(RemoteError, match="401"):
        RewardClient(server, token="wrong").score([{"completion": "x"}])
    with pytest.raises(RemoteError, match="after 3 attempts"):
        RewardClient(f"http://127.0.0.1:{_free_port()}", retries=2, backoff_s=0.01).score([{"completion": "x"}])
    monkeypatch.setenv("RLVR_SERVE_TOKEN", TOKEN)
    remote = get_reward("remote", url=server)
    assert remote(prompts=["q", "q"], completions=["\\boxed{4}", "\\boxed{5}"], answer=["4", "4"]) == [1.0, 0.0]


def test_sigterm_drains_a_request_in_flight(rlvr_server):
    server = rlvr_server()
    proc, url = server.proc, server.url
    result = {}

    def call() -> None:
        # distinct symbolic comparisons: each one goes to the sandbox
        rows = [{"completion": f"\\boxed{{(x+{i})^2}}", "answer": f"x^2+{2 * i}x+{i * i}"} for i in range(1, 301)]
        result["r"] = httpx.post(url + "/v1/score", json={"rows": rows}, timeout=120)

    t = threading.Thread(target=call)
    t.start()
    # SIGTERM once the server says the request holds a scoring slot (an observed order, not a sleep)
    deadline = time.monotonic() + 60  # a hang guard only
    while t.is_alive() and time.monotonic() < deadline:
        if httpx.get(url + "/healthz", timeout=10).json().get("inflight", 0) >= 1:
            break
        time.sleep(0.005)
    assert t.is_alive(), "the request finished before it was seen in flight: nothing to drain"
    proc.send_signal(signal.SIGTERM)
    t.join(timeout=120)
    assert proc.wait(timeout=60) == 0  # a drain that finished: exit 0, not the signal (uvicorn would re-raise it)
    assert result["r"].status_code == 200 and len(result["r"].json()["rows"]) == 300
    assert all(row["total"] == 1.0 for row in result["r"].json()["rows"])


def test_refuses_a_public_address_without_a_token(monkeypatch, capsys):
    from rlvr.cli import main

    monkeypatch.delenv("RLVR_SERVE_TOKEN", raising=False)
    assert main(["serve", "--host", "0.0.0.0"]) == 2
    assert "without a token" in capsys.readouterr().err


def test_a_verifier_worker_killed_mid_request_costs_no_500(rlvr_server):
    server = rlvr_server()
    url = server.url
    assert server.ready() == 200  # the sandbox pool is up
    workers = server.children()
    assert workers
    result = {}

    def call() -> None:
        rows = [{"completion": f"\\boxed{{(x+{i})^3}}", "answer": f"x^3+{3 * i}x^2+{3 * i * i}x+{i ** 3}"}
                for i in range(1, 301)]
        result["r"] = httpx.post(url + "/v1/score", json={"rows": rows}, timeout=120)

    t = threading.Thread(target=call)
    t.start()
    time.sleep(0.3)
    for pid in workers:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    t.join(timeout=120)
    r = result["r"]
    assert r.status_code == 200  # the batch is answered: lost comparisons are retried or reported per row
    statuses = {row["rewards"]["math_equivalence"]["status"] for row in r.json()["rows"]}
    assert statuses <= {"correct", "error", "timeout"} and "correct" in statuses
    assert httpx.get(url + "/healthz").status_code == 200  # and the server stays up
    again = httpx.post(url + "/v1/verify", json={"items": [{"completion": "\\boxed{2x}", "gold": "x+x"}]}, timeout=60)
    assert again.json()["verdicts"][0]["status"] == "correct"
