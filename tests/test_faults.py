"""`rlvr serve` under faults and abuse: a real uvicorn on 127.0.0.1, real sandbox worker processes.

Each test holds one promise of the server (see rlvr.serve.app): a client's verifier config cannot
raise a resource limit or start a pool; a deadline stops the work and frees the slot only when the
work has stopped; a wedged server says so on /healthz; the first request after start is scored
right; slow and idle connections are closed; malformed bodies are a 4xx with one log line; no
redirects. Every loop is bounded in time; only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest

httpx = pytest.importorskip("httpx")

TOKEN = "fault-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
# three right answers that only the sandbox can decide (symbolic comparisons)
RIGHT = [("\\boxed{(x+1)^2}", "x^2+2x+1"), ("\\boxed{\\frac{\\sqrt{8}}{2}}", "\\sqrt{2}"),
         ("\\boxed{\\sin^2 x + \\cos^2 x}", "1")]


def _cubes(start: int, n: int) -> list[dict[str, str]]:
    """``n`` distinct symbolic comparisons (the verifier's cache cannot answer them)."""
    return [{"completion": f"\\boxed{{(x+{i})^3}}", "gold": f"x^3+{3 * i}x^2+{3 * i * i}x+{i ** 3}"}
            for i in range(start, start + n)]


def _verify(server, items, config=None, timeout=60, headers=AUTH) -> httpx.Response:
    body = {"items": items, **({"config": config} if config is not None else {})}
    return httpx.post(server.url + "/v1/verify", json=body, headers=headers, timeout=timeout)


def _until(predicate, within_s: float) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def test_a_client_config_cannot_raise_resources_or_start_pools(rlvr_server):
    server = rlvr_server("--verifier-config", '{"timeout_s": 2.0, "batch_timeout_s": 5.0}', token=TOKEN)
    assert server.ready(AUTH) == 200
    workers = len(server.children())
    item = [{"completion": "\\boxed{(x+1)^2}", "gold": "x^2+2x+1"}]
    for config in ({"memory_mb": 2048}, {"memory_mb": 512}, {"memory_mb": 10 ** 12}, {"timeout_s": 600},
                   {"batch_timeout_s": 3600}, {"max_nesting": 10 ** 6}, {"max_completion_chars": 10 ** 9},
                   {"max_answer_chars": 10 ** 7}, {"max_digits": 10 ** 6}, {"max_factorial": 10 ** 9},
                   {"regex_timeout_s": 60}, {"timeout_s": True}):
        r = _verify(server, item, config)
        field = next(iter(config))
        assert r.status_code == 422 and f"config.{field}" in r.json()["error"], (config, r.text)
    over = _verify(server, item, {"timeout_s": 2.5})  # the server's own config sets the limits
    assert over.status_code == 422 and "over the server's limit of 2.0" in over.json()["error"]
    # a request may narrow: lower limits, its own extraction and comparison settings
    for i in range(10):
        r = _verify(server, item, {"timeout_s": 0.5 + i / 100, "batch_timeout_s": 2.0, "max_nesting": 20,
                                   "sources": ["boxed"], "percent": "strict", "abs_tol": i / 1000})
        assert r.status_code == 200 and r.json()["verdicts"][0]["status"] == "correct", r.text
    assert _verify(server, [{"completion": "\\boxed{15\\%}", "gold": "15"}], {"percent": "strict"}).json()[
        "verdicts"][0]["status"] == "incorrect"
    assert len(server.children()) == workers  # no request started a pool


@pytest.mark.slow
def test_requests_past_their_deadline_stop_their_work(rlvr_server):
    deadline_s = 2.0
    server = rlvr_server("--deadline-s", str(deadline_s), "--max-concurrent", "2", token=TOKEN)
    assert server.ready(AUTH) == 200
    right = [{"completion": c, "gold": g} for c, g in RIGHT]
    assert [v["status"] for v in _verify(server, right).json()["verdicts"]] == ["correct"] * 3
    threads, workers = server.threads(), len(server.children())
    answers: list[tuple[int, float, set[str]]] = []

    def attack(k: int) -> None:
        for j in range(5):  # 600 fresh comparisons a request: far more than 2 s of work
            began = time.monotonic()
            r = _verify(server, _cubes(1 + (k * 5 + j) * 600, 600), timeout=60)
            took = time.monotonic() - began
            answers.append((r.status_code, took, {v["status"] for v in r.json().get("verdicts", [])}))

    clients = [threading.Thread(target=attack, args=(k,)) for k in range(4)]
    for t in clients:
        t.start()
    for t in clients:
        t.join(timeout=120)
    assert len(answers) == 20
    assert {code for code, _, _ in answers} <= {200, 503}, str(sorted((c, round(t, 2)) for c, t, _ in answers))
    scored = [(took, statuses) for code, took, statuses in answers if code == 200]
    assert scored and all("timeout" in statuses for _, statuses in scored)  # the deadline reached the work
    assert max(took for took, _ in scored) < deadline_s + 2  # answered at its deadline, not after the work
    began = time.monotonic()
    r = _verify(server, right, timeout=30)
    assert time.monotonic() - began < deadline_s
    assert r.status_code == 200 and [v["status"] for v in r.json()["verdicts"]] == ["correct"] * 3
    assert _until(lambda: server.threads() <= threads and len(server.children()) <= workers, 10), \
        (server.threads(), threads, len(server.children()), workers)
    assert httpx.get(server.url + "/healthz").json() == {"status": "ok", "inflight": 0, "stuck": 0}


def test_healthz_reports_a_server_wedged_by_a_scorer_that_ignores_its_deadline(rlvr_server, tmp_path):
    (tmp_path / "sleepy.py").write_text("import time\nfrom rlvr.rewards import reward\n\n"
                                        "@reward('sleeps_for_tests')\ndef sleeps(completions, **kwargs):\n"
                                        "    time.sleep(6)\n    return [1.0] * len(completions)\n")
    (tmp_path / "rewards.yaml").write_text("plugins: [sleepy.py]\nrewards:\n  - {name: sleeps_for_tests}\n")
    server = rlvr_server("--rewards", "rewards.yaml", "--deadline-s", "1")
    assert server.ready() == 200
    began = time.monotonic()
    r = httpx.post(server.url + "/v1/score", json={"rows": [{"completion": "x"}]}, timeout=30)
    assert r.status_code == 504 and "slot stays held" in r.json()["error"]
    assert time.monotonic() - began < 4.5  # deadline + grace (2 s), not the 6 s the scorer takes
    health = httpx.get(server.url + "/healthz")
    assert health.status_code == 503 and "wedged" in health.json()["error"]
    assert httpx.get(server.url + "/readyz").status_code == 503
    busy = httpx.post(server.url + "/v1/score", json={"rows": [{"completion": "x"}]}, timeout=30)
    assert busy.status_code == 503 and busy.headers["retry-after"]  # the slot is still held: no pile-up
    assert _until(lambda: httpx.get(server.url + "/healthz").status_code == 200, 10)  # the scorer returned


def test_memory_stays_under_the_documented_byte_bound(rlvr_server):
    from rlvr.verifiers.cache import TOTAL_BYTES

    server = rlvr_server("--max-body-mb", "4")
    assert server.ready() == 200

    def request(k: int) -> None:  # 80 golds of 20,000 characters a request, none seen before
        items = [{"completion": f"So \\boxed{{{k * 100 + i}}}", "gold": f"\\boxed{{{k * 100 + i}}} " + "w " * 9_990}
                 for i in range(80)]
        r = _verify(server, items)
        assert r.status_code == 200 and {v["status"] for v in r.json()["verdicts"]} == {"correct"}

    request(0)
    base = server.rss_mb()
    for k in range(1, 81):  # 128 MB of distinct gold text in all
        request(k)
    # the verifier's caches (64 MiB together) and one request's body (4 MiB) and its parse, as documented
    bound_mb = TOTAL_BYTES / 2 ** 20 + 4 * 4
    assert server.rss_mb() - base < bound_mb, (server.rss_mb() - base, bound_mb)


def test_the_first_request_after_start_scores_right_answers_right(rlvr_server):
    server = rlvr_server(token=TOKEN)  # returns as soon as /healthz answers: the sandbox is still starting
    body = {"query": [c for c, _ in RIGHT], "prompts": [""] * 3, "labels": [g for _, g in RIGHT]}
    r = httpx.post(server.url + "/get_reward", json=body, headers=AUTH, timeout=120)
    assert r.status_code == 200 and r.json()["rewards"] == [1.0, 1.0, 1.0], r.text
    assert server.ready(AUTH) == 200


def _closed_after(sock: socket.socket, within_s: float, trickle: bytes = b"") -> float | None:
    """Seconds until the server closes ``sock`` (sending ``trickle`` a byte every 0.2 s), or None."""
    began = time.monotonic()
    sock.settimeout(0.2)
    for byte in (trickle[i:i + 1] for i in range(len(trickle))) if trickle else iter(lambda: b"", None):
        if time.monotonic() - began > within_s:
            return None
        try:
            if byte:
                sock.sendall(byte)
            if sock.recv(4096) == b"":
                return time.monotonic() - began
        except socket.timeout:
            continue
        except OSError:  # reset: closed too
            return time.monotonic() - began
    return None


def test_slow_headers_and_idle_connections_are_closed(rlvr_server):
    server = rlvr_server("--header-timeout-s", "1", "--idle-timeout-s", "1", "--max-connections", "8")
    address = ("127.0.0.1", server.port)
    with socket.create_connection(address) as silent:  # connects and sends nothing
        assert 0.8 < (_closed_after(silent, 5) or 99) < 3
    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: " + b"a" * 200 + b"\r\n\r\n"
    with socket.create_connection(address) as slowloris:  # a header byte every 0.2 s never completes in time
        assert 0.8 < (_closed_after(slowloris, 8, trickle=head) or 99) < 3
    with socket.create_connection(address) as idle:  # one request, then silence
        idle.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert idle.recv(4096).startswith(b"HTTP/1.1 200")
        assert (_closed_after(idle, 5) or 99) < 3
    held = [socket.create_connection(address) for _ in range(12)]  # more idle connections than allowed
    try:
        began = time.monotonic()
        assert httpx.get(server.url + "/healthz", timeout=5).status_code == 200  # evicts the longest idle
        assert time.monotonic() - began < 1
        assert sum(_closed_after(s, 0.5) is not None for s in held) >= 4
    finally:
        for s in held:
            s.close()


def _raw_post(server, path: str, body: bytes, rid: str) -> httpx.Response:
    return httpx.post(server.url + path, content=body, timeout=30,
                      headers={**AUTH, "content-type": "application/json", "x-request-id": rid})


MALFORMED = [  # (case, path, body, status)
    ("100k-deep JSON", "/v1/score", b"[" * 100_000 + b"]" * 100_000, 400),
    ("5,000-digit integer", "/v1/score", b'{"rows": [{"completion": "x", "answer": ' + b"7" * 5000 + b"}]}", 400),
    ("NaN gold", "/v1/verify", b'{"items": [{"completion": "\\\\boxed{nan}", "gold": NaN}]}', 400),
    ("Infinity label", "/get_reward", b'{"query": ["\\\\boxed{1}"], "labels": [Infinity]}', 400),
    ("not UTF-8", "/v1/score", b'{"rows": [{"completion": "caf\xe9"}]}', 400),
    ("a list, not an object", "/v1/score", b"[1, 2]", 422),
    ("column 'completions'", "/v1/score", json.dumps({"rows": [{"completion": "x", "completions": ["y"]}]}).encode(), 422),
    ("column 'prompts'", "/v1/score", json.dumps({"rows": [{"completion": "x", "prompts": "y"}]}).encode(), 422),
    ("column 'self'", "/v1/score", json.dumps({"rows": [{"completion": "x", "self": 1}]}).encode(), 422),
    ("no answer column", "/v1/score", json.dumps({"rows": [{"completion": "\\boxed{1}"}]}).encode(), 422),
    ("config not a mapping", "/v1/verify", json.dumps({"items": [], "config": [1]}).encode(), 422),
    ("gold a list", "/v1/verify", json.dumps({"items": [{"completion": "x", "gold": [1]}]}).encode(), 422),
    ("label true", "/get_reward", json.dumps({"query": ["x"], "labels": [True]}).encode(), 422),
    ("a gold of 200k characters", "/v1/verify",
     json.dumps({"items": [{"completion": "\\boxed{1}", "gold": "1" * 200_000}]}).encode(), 413),
]


@pytest.fixture(scope="module")
def guarded(tmp_path_factory, serve_process):
    server = serve_process(tmp_path_factory.mktemp("faults"), token=TOKEN)
    yield server
    server.stop()


def _one_line_for(server, rid: str) -> list[str]:
    _until(lambda: any(rid in line for line in server.lines), 5)
    time.sleep(0.2)  # a traceback would follow its line at once
    return [line for line in server.lines if rid in line]


@pytest.mark.parametrize("case,path,body,status", MALFORMED, ids=[c[0] for c in MALFORMED])
def test_malformed_bodies_are_a_4xx_with_one_log_line(guarded, case, path, body, status):
    rid = "case-" + "".join(ch if ch.isalnum() else "-" for ch in case)
    before = len(guarded.lines)
    r = _raw_post(guarded, path, body, rid)
    assert r.status_code == status, r.text
    assert r.headers["x-request-id"] == rid and r.json()["error"]
    assert len(_one_line_for(guarded, rid)) == 1
    assert not any("Traceback" in line for line in guarded.lines[before:])


def test_a_client_that_disconnects_mid_body_costs_one_log_line(guarded):
    with socket.create_connection(("127.0.0.1", guarded.port)) as s:
        s.sendall(f"POST /v1/score HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\nX-Request-ID: gone-away\r\n"
                  "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"rows\": [".encode())
        time.sleep(0.3)
    lines = _one_line_for(guarded, "gone-away")
    assert len(lines) == 1 and "disconnected" in lines[0]
    assert httpx.get(guarded.url + "/healthz").status_code == 200


def test_no_redirect_on_a_trailing_slash_and_the_token_is_never_echoed(guarded):
    for path in ("/get_reward/", "/v1/score/", "/readyz/", "/nowhere"):
        r = httpx.post(guarded.url + path, json={}, headers={"Host": "evil.example"})
        assert r.status_code == 401 and "location" not in r.headers
        r = httpx.post(guarded.url + path + f"?access_token={TOKEN}", json={}, headers={"Host": "evil.example"})
        assert r.status_code in (404, 405) and "location" not in r.headers
        assert TOKEN not in r.text and not any(TOKEN in v for v in r.headers.values())


def test_an_unauthenticated_flood_is_refused_cheaply_and_summarised(guarded):
    before = len(guarded.lines)
    with httpx.Client(timeout=10) as client:
        for _ in range(300):
            r = client.post(guarded.url + "/get_reward", json={"query": ["x"]})
            assert r.status_code == 401 and r.headers["connection"] == "close"
    time.sleep(0.3)
    refusals = [line for line in guarded.lines[before:] if "refused" in line]
    assert len(refusals) <= 1 and len(guarded.lines) - before <= 2  # not one line per 401
    ok = httpx.post(guarded.url + "/get_reward", json={"query": ["\\boxed{2}"], "labels": ["2"]}, headers=AUTH,
                    timeout=60)
    assert ok.status_code == 200 and ok.json()["rewards"] == [1.0]
