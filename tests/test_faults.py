"""`rlvr serve` under faults and abuse: a real uvicorn on 127.0.0.1, real sandbox worker processes.

Each test holds one promise of the server (see rlvr.serve.app): a client's verifier config is typed
like a file's, cannot raise a resource limit, lower one below its floor, start a pool or amplify its
answer; a deadline stops the work and frees the slot only when the work has stopped; a wedged server
says so on /healthz and /metrics; a server without symbolic comparison becomes ready without
workers; SIGTERM exits 0 after a drain that finished and non-zero when it was cut short; the first
request after start is scored right; slow and idle connections are closed; malformed bodies are a
4xx with one log line; no redirects. Every loop is bounded in count and time; only 127.0.0.1 is
contacted. No test asserts an absolute time the server's contract does not state.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
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


def _cpu_s(pid: int) -> float:
    """CPU seconds of the server process, of the children it reaped (killed workers) and of its live children."""
    def fields(p: int) -> list[str]:
        return open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()

    tick = 100.0  # SC_CLK_TCK on Linux
    mine = fields(pid)
    total = sum(int(x) for x in mine[11:15]) / tick  # utime, stime, cutime, cstime
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                f = fields(int(entry))
            except OSError:
                continue
            if int(f[1]) == pid:
                total += (int(f[11]) + int(f[12])) / tick
    return total


def _metric(server, name: str, headers=AUTH) -> float:
    """One sample of the server's /metrics (the sum over its labels)."""
    text = httpx.get(server.url + "/metrics", headers=headers, timeout=30).text
    values = [float(m[1]) for m in re.finditer(rf"^{name}(?:{{[^}}]*}})? (\S+)$", text, re.M)]
    assert values, f"{name} not in /metrics:\n{text}"
    return sum(values)


def _peak_rss_mb(pid: int) -> float:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


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
    assert over.status_code == 422 and "outside this server's band [1, 2]" in over.json()["error"], over.text
    # a request may narrow: lower limits (to half the server's time limits), its own extraction and comparison
    for i in range(10):
        r = _verify(server, item, {"timeout_s": 1.0 + i / 100, "batch_timeout_s": 2.5, "max_nesting": 20,
                                   "sources": ["boxed"], "percent": "strict", "abs_tol": i / 1000})
        assert r.status_code == 200 and r.json()["verdicts"][0]["status"] == "correct", r.text
    assert _verify(server, [{"completion": "\\boxed{15\\%}", "gold": "15"}], {"percent": "strict"}).json()[
        "verdicts"][0]["status"] == "incorrect"
    assert len(server.children()) == workers  # no request started a pool


# -- a request's config: typed like a file's, floors, no amplification (issue 30, items 1-3) ------------

@pytest.fixture(scope="module")
def plain(tmp_path_factory, serve_process):
    """A server that compares nothing symbolically: its /v1/verify config and its reward's say so."""
    folder = tmp_path_factory.mktemp("plain")
    (folder / "verifier.yaml").write_text("symbolic: false\n")
    (folder / "rewards.yaml").write_text("rewards:\n  - {name: math_equivalence, params: {verifier: {symbolic: false}}}\n")
    server = serve_process(folder, "--verifier-config", "verifier.yaml", "--rewards", "rewards.yaml", token=TOKEN)
    yield server
    server.stop()


def test_a_server_without_symbolic_comparison_is_ready_and_starts_one_pool(plain):
    from rlvr.verifiers.sandbox import default_workers

    assert plain.ready(AUTH) == 200  # its warm-up expects no symbolic match
    workers = plain.children()
    assert 1 <= len(workers) <= default_workers() + 1  # the one pool that reads its rows (and a warm spare)
    r = _verify(plain, [{"completion": "\\boxed{0.5}", "gold": "\\frac{1}{2}"},
                        {"completion": "\\boxed{(x+1)^2}", "gold": "x^2+2x+1"}])
    assert r.status_code == 200, r.text
    first, second = r.json()["verdicts"]
    assert first["status"] == "correct" and second["method"] != "symbolic"
    scored = httpx.post(plain.url + "/v1/score", json={"rows": [{"completion": "\\boxed{7}", "answer": "7"}]},
                        headers=AUTH, timeout=30)
    assert scored.status_code == 200 and scored.json()["rows"][0]["total"] == 1.0, scored.text
    assert plain.children() == workers and _metric(plain, "rlvr_worker_restarts_total") == 0  # no other pool started


NOT_BOOLEANS = (1, 0, 1.0, "yes", "true", "", None, [], [True], {}, {"on": True})


def test_a_request_config_is_typed_like_a_file(plain, tmp_path):
    item = [{"completion": "\\boxed{2}", "gold": "2"}]
    for field in ("symbolic", "integer_answers", "think_prefilled", "detect_retraction"):
        for value in NOT_BOOLEANS:  # truthy or not, none is a boolean: one 422 naming the field, never 200
            r = _verify(plain, item, {field: value})
            assert r.status_code == 422 and f"config.{field} must be true or false" in r.json()["error"], \
                (field, value, r.text)
    for field, value in (("timeout_s", True), ("timeout_s", "0.8"), ("max_nesting", 5.0), ("abs_tol", [0.1]),
                         ("sources", "boxed"), ("sources", [["boxed"]]), ("policy", ["strict"]), ("think_tags", "<t>"),
                         ("percent", 1)):
        r = _verify(plain, item, {field: value})
        assert r.status_code == 422 and f"config.{field}" in r.json()["error"], (field, value, r.text)
    refused = _verify(plain, item, {"symbolic": True})  # a real boolean, but this server has no symbolic comparison
    assert refused.status_code == 422 and "does not run symbolic" in refused.json()["error"]
    ok = _verify(plain, item, {"symbolic": False, "integer_answers": True, "think_prefilled": False})
    assert ok.status_code == 200 and ok.json()["verdicts"][0]["status"] == "correct", ok.text
    # one checker for both: the same value in a config file stops `rlvr serve` at start, in the same words
    (tmp_path / "bad.json").write_text('{"symbolic": 1}')
    run = subprocess.run([sys.executable, "-m", "rlvr", "serve", "--verifier-config", str(tmp_path / "bad.json"),
                          "--port", "1"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "VerifierConfig.symbolic must be true or false, got int 1" in run.stderr, run.stderr


def test_lowering_a_limit_never_costs_the_server_more(rlvr_server):
    server = rlvr_server(token=TOKEN)
    assert server.ready(AUTH) == 200
    bands = httpx.get(server.url + "/readyz", headers=AUTH, timeout=30).json()["config_bands"]
    assert set(bands) == {"timeout_s", "batch_timeout_s", "regex_timeout_s", "max_completion_chars",
                          "max_answer_chars", "max_nesting", "max_digits", "max_factorial"}
    fresh = iter(range(1, 10_000, 20))

    def cost(config):
        """Restarts and CPU seconds (server and workers) of 20 fresh moderate rows; their statuses."""
        restarts, cpu = _metric(server, "rlvr_worker_restarts_total"), _cpu_s(server.pid)
        r = _verify(server, _cubes(next(fresh), 20), config)
        assert r.status_code == 200, (config, r.text)
        return (_metric(server, "rlvr_worker_restarts_total") - restarts, _cpu_s(server.pid) - cpu,
                {v["status"] for v in r.json()["verdicts"]})

    base_restarts, base_cpu, base_statuses = cost(None)
    assert base_restarts == 0 and base_statuses == {"correct"}
    # the attack, and every limit under its floor: one 422 naming the field and the band, before any work
    cpu = _cpu_s(server.pid)
    low_time = {"timeout_s": bands["timeout_s"][0], "batch_timeout_s": bands["batch_timeout_s"][0]}
    for field, config in (("timeout_s", {"timeout_s": 0.001, "batch_timeout_s": 0.001}),
                          ("timeout_s", {"timeout_s": bands["timeout_s"][0] * 0.99}),
                          ("batch_timeout_s", {**low_time, "batch_timeout_s": low_time["batch_timeout_s"] * 0.99}),
                          ("regex_timeout_s", {"regex_timeout_s": 0.001}),
                          ("max_completion_chars", {"max_completion_chars": 99}), ("max_nesting", {"max_nesting": 1})):
        r = _verify(server, _cubes(1, 20), config)
        assert r.status_code == 422 and f"config.{field}" in r.json()["error"], (config, r.text)
    assert _cpu_s(server.pid) - cpu < base_cpu  # refused before any comparison
    # at its floor, each limit costs no restart and no more CPU than the server's own limits (the attack cost 34
    # restarts and 50x the CPU); at the time floors honest answers are still scored right, at a size cap's floor
    # a row may be refused (a gold longer than max_answer_chars), cheaply
    for config in [low_time, {"regex_timeout_s": bands["regex_timeout_s"][0]}] + \
            [{name: band[0]} for name, band in bands.items() if name not in ("timeout_s", "batch_timeout_s", "regex_timeout_s")]:
        restarts, spent, statuses = cost(config)
        assert restarts == 0 and not statuses & {"timeout", "error"}, (config, restarts, statuses)
        assert statuses == {"correct"} or "max_" in next(iter(config)), (config, statuses)
        assert spent < 3 * base_cpu, (config, spent, base_cpu)


def _no_answer_rows(n: int) -> list[dict[str, str]]:
    return [{"completion": f"<think> step {i}, no answer yet", "gold": str(i)} for i in range(n)]


def test_no_config_amplifies_a_response(rlvr_server):
    from rlvr.verifiers.config import DEFAULT_SOURCES, MAX_TAG_CHARS

    server = rlvr_server("--max-body-mb", "4", token=TOKEN)
    assert server.ready(AUTH) == 200
    peak = _peak_rss_mb(server.pid)

    def post(items, config) -> tuple[httpx.Response, int]:
        body = json.dumps({"items": items, "config": config}).encode()
        r = httpx.post(server.url + "/v1/verify", content=body, timeout=60,
                       headers={**AUTH, "content-type": "application/json"})
        return r, len(body)

    # the two cases: 100,000 sources (a 95 MB answer before); a 1 MB closing tag on 60 rows (63 MB before)
    sources = [DEFAULT_SOURCES[i % len(DEFAULT_SOURCES)] for i in range(100_000)]
    for field, items, config in (("sources", [{"completion": "x", "gold": "1"}], {"sources": sources}),
                                 ("think_tags", _no_answer_rows(60), {"think_tags": ["<think>", "</" + "t" * 2 ** 20 + ">"]})):
        r, sent = post(items, config)
        assert r.status_code == 422 and f"config.{field}" in r.json()["error"], r.text[:500]
        assert len(r.content) < 1024, (field, len(r.content), sent)  # the value is quoted once, shortened
    # the server's peak memory grew by what reading two bodies of about a megabyte costs, not by responses
    assert _peak_rss_mb(server.pid) - peak < 64, (peak, _peak_rss_mb(server.pid))
    # the largest config a request may give: every source, tags of the longest allowed length; rows whose reasons
    # quote the config (no answer, an unclosed reasoning block) or a long answer
    tags = ["<" + "o" * (MAX_TAG_CHARS - 2) + ">", "</" + "c" * (MAX_TAG_CHARS - 3) + ">"]
    rows = [{"completion": f"{tags[0]} step {i}", "gold": str(i)} for i in range(60)]
    rows += [{"completion": f"step {i}, no answer", "gold": str(i)} for i in range(60)]
    rows += [{"completion": "\\boxed{" + "+".join(["1"] * 450) + "}", "gold": "2"}] * 4
    r, sent = post(rows, {"sources": list(DEFAULT_SOURCES), "think_tags": tags})
    assert r.status_code == 200, r.text[:500]
    verdicts = r.json()["verdicts"]
    assert {v["status"] for v in verdicts} >= {"no_answer"}
    assert all(len(v["reason"]) <= 500 + 40 for v in verdicts), max(len(v["reason"]) for v in verdicts)
    assert len(r.content) <= sent + 2048 * len(rows), (len(r.content), sent, len(rows))


def _heavy(start: int, n: int) -> list[dict[str, str]]:
    """``n`` distinct right answers that each cost the sandbox about 0.2 s of CPU and the reader almost
    nothing: the work a request asks of the sandbox dwarfs what is read in process."""
    return [{"completion": f"\\boxed{{(x+y+{i})^{{20}}}}", "gold": f"({i}+y+x)^{{10}}({i}+x+y)^{{10}}"}
            for i in range(start, start + n)]


@pytest.mark.slow
def test_requests_past_their_deadline_stop_their_work(rlvr_server):
    # Each request asks for 100 fresh comparisons of about 0.2 s of CPU each: ten times what two
    # workers do in the 2 s deadline. The rows are few and cheap to read, so what the deadline has to
    # stop is sandbox work: reading in process does not look at the deadline yet (issue 28; that is
    # the xfail test of the 15,000 boxes below), and 600 cheap rows made a loaded machine overrun the
    # grace in the reader, not in the sandbox.
    deadline_s = 2.0
    server = rlvr_server("--deadline-s", str(deadline_s), "--max-concurrent", "2", token=TOKEN)
    assert server.ready(AUTH) == 200
    right = [{"completion": c, "gold": g} for c, g in RIGHT]
    assert [v["status"] for v in _verify(server, right).json()["verdicts"]] == ["correct"] * 3
    threads, workers = server.threads(), len(server.children())
    answers: list[tuple[int, float, set[str]]] = []

    def attack(k: int) -> None:
        for j in range(5):
            began = time.monotonic()
            r = _verify(server, _heavy(1 + (k * 5 + j) * 100, 100), timeout=60)
            took = time.monotonic() - began
            answers.append((r.status_code, took, {v["status"] for v in r.json().get("verdicts", [])}))

    clients = [threading.Thread(target=attack, args=(k,)) for k in range(4)]
    for t in clients:
        t.start()
    for t in clients:
        t.join(timeout=120)
    assert len(answers) == 20
    # 200 (scored up to the deadline) or 503 (no slot in time); a 504 would mean work outlived deadline + grace
    assert {code for code, _, _ in answers} <= {200, 503}, str(sorted((c, round(t, 2)) for c, t, _ in answers))
    scored = [(took, statuses) for code, took, statuses in answers if code == 200]
    assert scored and all("timeout" in statuses for _, statuses in scored)  # the deadline reached the work
    # the slot is free as soon as the work has stopped: nothing held, nothing stuck, no thread or worker left over
    assert _until(lambda: httpx.get(server.url + "/healthz").json()["inflight"] == 0, 10)
    assert httpx.get(server.url + "/healthz").json() == {"status": "ok", "inflight": 0, "stuck": 0}
    assert _until(lambda: server.threads() <= threads and len(server.children()) <= workers, 10), \
        (server.threads(), threads, len(server.children()), workers)
    # and the next request is scored: at once (200, never a 503 for a slot), right once the killed workers'
    # replacements have started (their start-up counts against no budget but against the wall deadline)
    for _attempt in range(5):
        r = _verify(server, right, timeout=30)
        assert r.status_code == 200, r.text
        if [v["status"] for v in r.json()["verdicts"]] == ["correct"] * 3:
            break
        assert {v["status"] for v in r.json()["verdicts"]} <= {"correct", "timeout"}, r.text
        time.sleep(1)
    assert [v["status"] for v in r.json()["verdicts"]] == ["correct"] * 3, r.text


SLEEPY = ("import time\nfrom rlvr.rewards import reward\n\n@reward('sleeps_for_tests')\n"
          "def sleeps(completions, **kwargs):\n    time.sleep(6)\n    return [1.0] * len(completions)\n")


def _sleepy_rewards(folder) -> None:
    """``folder/rewards.yaml``: a plug-in reward that sleeps 6 s in a call (a scorer that ignores the deadline)."""
    (folder / "sleepy.py").write_text(SLEEPY)
    (folder / "rewards.yaml").write_text("plugins: [sleepy.py]\nrewards:\n  - {name: sleeps_for_tests}\n")


def test_healthz_reports_a_server_wedged_by_a_scorer_that_ignores_its_deadline(rlvr_server, tmp_path):
    _sleepy_rewards(tmp_path)
    server = rlvr_server("--rewards", "rewards.yaml", "--deadline-s", "1")
    assert server.ready() == 200
    began = time.monotonic()
    r = httpx.post(server.url + "/v1/score", json={"rows": [{"completion": "x"}]}, timeout=30)
    assert r.status_code == 504 and "slot stays held" in r.json()["error"]
    assert time.monotonic() - began < 4.5  # deadline + grace (2 s), not the 6 s the scorer takes
    health = httpx.get(server.url + "/healthz")
    assert health.status_code == 503 and "wedged" in health.json()["error"]
    assert _metric(server, "rlvr_stuck_slots", headers={}) == 1  # and /metrics counts the stuck slot
    assert httpx.get(server.url + "/readyz").status_code == 503
    busy = httpx.post(server.url + "/v1/score", json={"rows": [{"completion": "x"}]}, timeout=30)
    assert busy.status_code == 503 and busy.headers["retry-after"]  # the slot is still held: no pile-up
    assert _until(lambda: httpx.get(server.url + "/healthz").status_code == 200, 10)  # the scorer returned
    assert _metric(server, "rlvr_stuck_slots", headers={}) == 0


def test_sigterm_exits_0_after_a_drain_and_non_zero_when_cut_short(rlvr_server, tmp_path):
    # a drain that finishes: the request in flight is answered, then exit 0 (not -15: supervisors read that as a crash)
    server = rlvr_server(token=TOKEN)
    assert server.ready(AUTH) == 200
    result = {}
    t = threading.Thread(target=lambda: result.update(r=_verify(server, _heavy(1, 12), timeout=120)))  # ~2.4 CPU-s
    t.start()
    assert _until(lambda: httpx.get(server.url + "/healthz").json()["inflight"] == 1, 10)
    server.proc.send_signal(signal.SIGTERM)
    t.join(timeout=120)
    assert server.proc.wait(timeout=60) == 0
    assert result["r"].status_code == 200 and {v["status"] for v in result["r"].json()["verdicts"]} == {"correct"}
    # a drain cut short: the scorer outlives the drain's time (deadline + 1 s), so the request gets no answer
    _sleepy_rewards(tmp_path)
    wedged = rlvr_server("--rewards", "rewards.yaml", "--deadline-s", "1")
    assert wedged.ready() == 200

    def call() -> None:
        try:
            result["wedged"] = httpx.post(wedged.url + "/v1/score", json={"rows": [{"completion": "x"}]}, timeout=30)
        except httpx.TransportError as exc:  # the connection closed without an answer
            result["wedged"] = exc

    t = threading.Thread(target=call)
    t.start()
    assert _until(lambda: httpx.get(wedged.url + "/healthz").json()["inflight"] == 1, 10)
    wedged.proc.send_signal(signal.SIGTERM)
    t.join(timeout=60)
    code = wedged.proc.wait(timeout=60)
    assert code not in (0, -signal.SIGTERM) and code == 1, code
    assert any("shutdown drain cut short" in line for line in wedged.lines), wedged.lines[-10:]


def _kill_workers_mid_request(server) -> httpx.Response:
    """SIGKILL every sandbox worker while a request of 300 fresh comparisons runs; that request's answer."""
    result = {}
    t = threading.Thread(target=lambda: result.update(r=_verify(server, _cubes(50_000, 300), timeout=120)))
    t.start()
    assert _until(lambda: httpx.get(server.url + "/healthz").json()["inflight"] == 1, 10)
    time.sleep(0.3)  # the batch is with the workers
    for pid in server.children():
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    t.join(timeout=120)
    return result["r"]


def test_metrics_count_restarts_cache_bytes_and_scoring_time(rlvr_server):
    server = rlvr_server(token=TOKEN)
    assert server.ready(AUTH) == 200
    names = ("rlvr_worker_restarts_total", "rlvr_cache_bytes", "rlvr_stuck_slots")
    before = {name: _metric(server, name) for name in names}
    assert before["rlvr_stuck_slots"] == 0
    r = _verify(server, _cubes(1, 100))
    assert r.status_code == 200 and {v["status"] for v in r.json()["verdicts"]} == {"correct"}
    wall, cpu = _metric(server, "rlvr_scoring_seconds_total"), _metric(server, "rlvr_scoring_cpu_seconds_total")
    assert 0 < cpu and 0 < wall  # both measured (cpu is this process's threads only, the workers' not counted)
    assert _metric(server, "rlvr_cache_bytes") > before["rlvr_cache_bytes"]  # the verdicts were cached
    killed = len(server.children())
    r = _kill_workers_mid_request(server)
    assert r.status_code == 200
    restarts = _metric(server, "rlvr_worker_restarts_total") - before["rlvr_worker_restarts_total"]
    assert 1 <= restarts <= killed + 4, (restarts, killed)  # each killed worker replaced, none in a loop
    assert _metric(server, "rlvr_stuck_slots") == 0


def test_a_killed_worker_is_logged_as_died_and_replaced_with_its_signal(rlvr_server):
    server = rlvr_server(token=TOKEN)
    assert server.ready(AUTH) == 200
    before = len(server.lines)
    assert _kill_workers_mid_request(server).status_code == 200
    time.sleep(0.5)
    lines = server.lines[before:]
    assert not any("failed to start" in line for line in lines), lines  # it started; it was killed
    assert any(re.search(r"verifier sandbox worker \d+ died \(signal SIGKILL\) and was replaced", line)
               for line in lines), lines


def test_a_normal_request_is_answered_while_a_row_of_15000_boxes_is_read(rlvr_server):
    # Two slots: the big request holds one, a normal request the other. Reading the big row must not starve
    # the server (the normal request answers within the 2 s, calibrated below) and must stop at the
    # request's deadline: the big request is answered (200, its row a typed verdict), never 504, and its slot
    # is never stuck, so /healthz never comes near "restart". The row is read in a sandbox worker, under its
    # own budget and the request's deadline, never in the server's process.
    deadline_s = 5.0
    server = rlvr_server("--max-concurrent", "2", "--deadline-s", str(deadline_s), token=TOKEN)
    assert server.ready(AUTH) == 200
    right = [{"completion": c, "gold": g} for c, g in RIGHT]
    alone = []
    for _ in range(3):  # calibrated in this run: the same request with nothing else running
        began = time.monotonic()
        assert _verify(server, right).status_code == 200
        alone.append(time.monotonic() - began)
    limit = max(2.0, 10 * sorted(alone)[1])  # the 2 s, or ten times this machine's own time for it
    # one such row is read in a fifth of a second now, so the request holds 60 distinct ones (6 MB, about ten
    # CPU-seconds of reading): it is still being read when the normal request comes, and runs into its deadline
    big = [{"completion": " ".join(f"\\boxed{{{i + k}}}" for i in range(15_000)), "gold": "7"} for k in range(60)]
    result = {}
    t = threading.Thread(target=lambda: result.update(r=_verify(server, big, timeout=60)), daemon=True)
    t.start()
    try:
        assert _until(lambda: httpx.get(server.url + "/healthz", timeout=5).json()["inflight"] == 1, 10)
        time.sleep(0.5)  # the big row is being read
        began = time.monotonic()
        r = _verify(server, right, timeout=60)
        took = time.monotonic() - began
        assert r.status_code == 200 and [v["status"] for v in r.json()["verdicts"]] == ["correct"] * 3, r.text
        assert took < limit, (took, limit, alone)
        stop_at = time.monotonic() + deadline_s + 5  # past the big request's deadline and grace
        while t.is_alive() and time.monotonic() < stop_at:
            health = httpx.get(server.url + "/healthz", timeout=5)  # answers in time, nothing stuck, no "restart"
            assert health.status_code == 200 and health.json()["stuck"] == 0, health.text
            time.sleep(0.25)
        t.join(timeout=5)
        assert result["r"].status_code == 200, result["r"].text  # answered at its deadline, not 504
        assert len(result["r"].json()["verdicts"]) == len(big)
        assert _until(lambda: httpx.get(server.url + "/healthz", timeout=5).json()["inflight"] == 0, 5)
    finally:
        server.proc.kill()  # a reader that ignores the deadline holds its thread (and the drain) for minutes


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
