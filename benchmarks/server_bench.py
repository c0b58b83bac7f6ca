"""The reward server under load on loopback, side by side with in-process scoring of the same inputs.

Anchor: ``verify_batch`` in process on the 800 real Qwen2.5-Math outputs of
``../shared/data/qwen25math-rm-maj-example`` (batches of 64, warm pool). Server: ``rlvr serve`` in its
own process, ``POST /v1/verify`` with 64 completions a request, from 1, 8 and 32 concurrent clients
(threads with one httpx client each). The loop is bounded: a fixed number of requests and a time
limit per level; only 127.0.0.1 is contacted. Targets: server throughput at 8 clients >= 80% of
in-process, p99 < 250 ms for a 64-completion request.

Attack mix: the same 8-client load on a server with a token, clean and then beside an attacker (its
own process): unauthenticated requests, oversize bodies (a declared 100 MB) and slowloris
connections trickling a header byte a second (raw sockets), and, with the token, the config attacks
of issue 30: ``timeout_s``/``batch_timeout_s`` of 0.001 on 20 moderate rows (lowered limits that
made the pool kill and restart workers), 100,000 ``sources`` and a 1 MB closing think tag on 60 rows
(configs quoted into every row's reason). Target: legitimate p99 under attack within 1.5x of the
clean run, side by side.

Config attacks, one at a time (``--config-only`` runs just this part): each case on a warm server
with nothing else running, its status, request and response bytes, wall time, the CPU the server and
its workers spent, worker restarts (from ``/metrics``; ``n/a`` on a server without the counter) and
the growth of the server's peak RSS; beside the same 20 rows at the server's own limits.

    python benchmarks/server_bench.py [--requests 200] [--seconds 60] [--unauth-rate 200] [--config-only]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "qwen25math-rm-maj-example" / "math_cot_100.jsonl"


def _items() -> list[dict[str, str]]:
    rows = [json.loads(line) for line in DATA.read_text().splitlines()]
    return [{"completion": c, "gold": r["gt"]} for r in rows for c in r.get("code", [])[:8]]


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def _load(url: str, batches: list, clients: int, requests: int, seconds: float,
          headers: dict[str, str] | None = None) -> tuple[list[float], int, float]:
    """``requests`` POSTs of 64 completions from ``clients`` threads: latencies of the 200s, failures, wall."""
    import httpx

    latencies: list[float] = []
    errors = [0]
    counter = [0]
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def worker() -> None:
        with httpx.Client(timeout=60, headers=headers) as http:
            while time.monotonic() < stop_at:
                with lock:
                    if counter[0] >= requests:
                        return
                    n = counter[0]
                    counter[0] += 1
                start = time.perf_counter()
                r = http.post(url + "/v1/verify", json={"items": batches[n % len(batches)]})
                took = time.perf_counter() - start
                with lock:
                    if r.status_code == 200:
                        latencies.append(took)
                    else:  # 503 busy (bounded queue) or a failure: not a scored request
                        errors[0] += 1

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, errors[0], time.perf_counter() - began


def _cubes(start: int, n: int) -> list[dict[str, str]]:
    """``n`` distinct moderate symbolic comparisons (tens of milliseconds of sympy each; no cache answers them)."""
    return [{"completion": f"\\boxed{{(x+{i})^3}}", "gold": f"x^3+{3 * i}x^2+{3 * i * i}x+{i ** 3}"}
            for i in range(start, start + n)]


def _config_attack(kind: str, start: int) -> dict[str, Any]:
    """One config attack's body (issue 30 items 2 and 3); ``start`` keeps its rows uncached."""
    if kind == "timeout":
        return {"items": _cubes(start, 20), "config": {"timeout_s": 0.001, "batch_timeout_s": 0.001}}
    if kind == "sources":
        names = ("boxed", "answer_tag", "solution_tag", "answer_line", "table_answer", "json_answer", "hash_answer",
                 "final_answer_phrase", "bare_answer", "prose_answer")
        return {"items": [{"completion": f"step {start + i}", "gold": "1"} for i in range(8)],
                "config": {"sources": [names[i % len(names)] for i in range(100_000)]}}
    if kind == "tag":
        return {"items": [{"completion": f"<think> step {start + i}", "gold": "1"} for i in range(60)],
                "config": {"think_tags": ["<think>", "</" + "t" * 2 ** 20 + ">"]}}
    raise ValueError(kind)


def _config_attacker(url: str, token: str, stop_at: float, rate: float, counts: Any) -> None:
    """Config attacks with the token, one at a time, ``rate`` a second: counts[3] refused (422), counts[4]
    accepted or failed otherwise, counts[5] response bytes received."""
    import httpx

    kinds = ("timeout", "sources", "tag")
    n = 0
    with httpx.Client(timeout=120, headers={"Authorization": f"Bearer {token}"}) as http:
        next_at = time.monotonic()
        while time.monotonic() < stop_at:
            body = json.dumps(_config_attack(kinds[n % 3], 900_000 + 100 * n)).encode()
            n += 1
            try:
                r = http.post(url + "/v1/verify", content=body, headers={"content-type": "application/json"})
                counts[3 if r.status_code == 422 else 4] += 1
                counts[5] += len(r.content)
            except httpx.HTTPError:
                counts[4] += 1
            next_at += 1 / rate
            time.sleep(max(0.0, next_at - time.monotonic()))


def _attack(port: int, token: str, seconds: float, unauth_rate: float, oversize_rate: float, slowloris: int,
            counts: Any, config_rate: float = 1.0) -> None:
    """The attacker (run in its own process): paced raw-socket requests and slowloris connections, and
    config attacks with the token from a thread."""
    body = b'{"items": [{"completion": "1", "gold": 1}]}'
    unauth = (b"POST /v1/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    oversize = (f"POST /v1/verify HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
                "Content-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{").encode()
    address = ("127.0.0.1", port)
    slow: list[socket.socket] = []
    stop_at = time.monotonic() + seconds
    configs = threading.Thread(target=_config_attacker, args=(f"http://127.0.0.1:{port}", token, stop_at, config_rate,
                                                              counts), daemon=True)
    if config_rate > 0:
        configs.start()
    next_unauth = next_over = next_drip = time.monotonic()

    def one(request: bytes, slot: int) -> None:
        try:
            with socket.create_connection(address, timeout=5) as c:
                c.sendall(request)
                reply = c.recv(64)
            counts[slot] += 1 if reply[9:12] in (b"401", b"413") else 0
        except OSError:
            pass

    while (now := time.monotonic()) < stop_at:
        if now >= next_unauth:
            one(unauth, 0)
            next_unauth += 1 / unauth_rate
        if now >= next_over:
            one(oversize, 1)
            next_over += 1 / oversize_rate
        if now >= next_drip:  # every second: one header byte on each slow connection, reopen the closed ones
            for c in list(slow):
                try:
                    c.sendall(b"a")
                except OSError:
                    slow.remove(c)
                    c.close()
                    counts[2] += 1
            while len(slow) < slowloris:
                try:
                    c = socket.create_connection(address, timeout=5)
                    c.sendall(b"POST /v1/verify HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                    slow.append(c)
                except OSError:
                    break
            next_drip += 1.0
        time.sleep(max(0.0, min(next_unauth, next_over, next_drip) - time.monotonic()))
    for c in slow:
        c.close()


def _attack_mix(args: argparse.Namespace, batches: list, env: dict[str, str]) -> None:
    import multiprocessing

    import httpx

    token = "bench-token"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "rlvr", "serve", "--port", str(port), "--max-concurrent",
                               str(args.max_concurrent), "--header-timeout-s", "3"], env={**env, "RLVR_SERVE_TOKEN": token},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url, auth = f"http://127.0.0.1:{port}", {"Authorization": f"Bearer {token}"}
    try:
        for _ in range(300):
            try:
                if httpx.get(url + "/readyz", headers=auth, timeout=30).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        _load(url, batches, 8, len(batches), args.seconds, auth)  # the verifier's caches warm alike for both runs
        ctx = multiprocessing.get_context("spawn")
        runs = []
        for _round in range(2):  # clean and attacked in turn, twice: drift on a shared machine shows
            runs.append(("clean", *_load(url, batches, 8, args.attack_requests, args.seconds, auth), None))
            counts = ctx.Array("l", 6)
            attacker = ctx.Process(target=_attack, args=(port, token, args.seconds + 5, args.unauth_rate,
                                                         args.oversize_rate, args.slowloris, counts, args.config_rate))
            attacker.start()
            time.sleep(2)  # slowloris connections open, the flood running
            runs.append(("under attack", *_load(url, batches, 8, args.attack_requests, args.seconds, auth), counts))
            attacker.terminate()
            attacker.join()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    print(f"\n# attack mix: 8 clients with a token, {args.attack_requests} requests a run, beside an attacker process "
          f"sending {args.unauth_rate:g} unauthenticated and {args.oversize_rate:g} oversize requests/s, holding "
          f"{args.slowloris} slowloris connections (the server's --header-timeout-s 3) and sending "
          f"{args.config_rate:g} config attack(s)/s with the token (timeout_s 0.001, 100k sources, a 1 MB tag, in turn)\n")
    print("| load | scored requests | req/s | p50 ms | p99 ms | failed | attack refused (401 / 413) | slowloris closed "
          "| config attacks refused (422) / not | config attack response MB |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, latencies, errors, wall, counts in runs:
        refused = (f"{counts[0]} / {counts[1]} | {counts[2]} | {counts[3]} / {counts[4]} | {counts[5] / 1e6:.2f}"
                   if counts is not None else "- | - | - | -")
        print(f"| {name} | {len(latencies)} | {len(latencies) / wall:.1f} | {_pct(latencies, 0.5) * 1e3:.1f} | "
              f"{_pct(latencies, 0.99) * 1e3:.1f} | {errors} | {refused} |")
    p99 = {name: [_pct(r[1], 0.99) for r in runs if r[0] == name] for name in ("clean", "under attack")}
    ratio = (sum(p99["under attack"]) / len(p99["under attack"])) / (sum(p99["clean"]) / len(p99["clean"]))
    print(f"\nlegitimate p99 under attack / clean (means of the two runs each): {ratio:.2f}x (target <= 1.5x)")


def _server_cost(pid: int) -> float:
    """CPU seconds of the server, the children it reaped (killed workers) and its live children."""
    def fields(p: int) -> list[str]:
        return open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()

    tick = os.sysconf("SC_CLK_TCK")
    total = sum(int(x) for x in fields(pid)[11:15]) / tick
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                f = fields(int(entry))
            except OSError:
                continue
            if int(f[1]) == pid:
                total += (int(f[11]) + int(f[12])) / tick
    return total


def _settle(pid: int, within_s: float = 15.0) -> None:
    """Wait (bounded) until the server and its workers use no more CPU: nothing of one case runs into the next."""
    stop_at, last = time.monotonic() + within_s, _server_cost(pid)
    while time.monotonic() < stop_at:
        time.sleep(0.5)
        now = _server_cost(pid)
        if now - last < 0.03:
            return
        last = now


def _status_kb(pid: int, key: str) -> int:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def _restarts(url: str, auth: dict[str, str]) -> float | None:
    import httpx

    for line in httpx.get(url + "/metrics", headers=auth, timeout=30).text.splitlines():
        if line.startswith("rlvr_worker_restarts_total "):
            return float(line.split()[1])
    return None


def _config_cases(env: dict[str, str]) -> None:
    """Each config attack alone on a warm server: what it costs the server and what it sends back."""
    import httpx

    token = "bench-token"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "rlvr", "serve", "--port", str(port), "--max-body-mb", "4"],
                              env={**env, "RLVR_SERVE_TOKEN": token}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url, auth = f"http://127.0.0.1:{port}", {"Authorization": f"Bearer {token}"}
    floor = {"items": _cubes(700_000, 20), "config": {"timeout_s": 0.5, "batch_timeout_s": 1.25}}
    cases = [("20 moderate rows, the server's limits", {"items": _cubes(500_000, 20)}),
             ("the same rows, timeout_s 0.001 + batch_timeout_s 0.001", _config_attack("timeout", 600_000)),
             ("the same rows, timeout_s 0.5 + batch_timeout_s 1.25 (the floors)", floor),
             ("8 rows, sources of 100,000 entries", _config_attack("sources", 800_000)),
             ("60 rows, a closing think tag of 1 MB", _config_attack("tag", 800_100))]
    rows = []
    try:
        for _ in range(300):
            try:
                if httpx.get(url + "/readyz", headers=auth, timeout=30).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        httpx.post(url + "/v1/verify", json={"items": _cubes(400_000, 8)}, headers=auth, timeout=60)  # workers warm
        _settle(server.pid)
        for name, body in cases:
            data = json.dumps(body).encode()
            with open(f"/proc/{server.pid}/clear_refs", "w") as f:  # the peak RSS starts again from the RSS now
                f.write("5")
            rss0, cpu0, restarts0 = _status_kb(server.pid, "VmRSS"), _server_cost(server.pid), _restarts(url, auth)
            began = time.perf_counter()
            r = httpx.post(url + "/v1/verify", content=data, headers={**auth, "content-type": "application/json"},
                           timeout=300)
            wall = time.perf_counter() - began
            _settle(server.pid)  # killed workers' replacements finish starting: their CPU counts too
            restarts1 = _restarts(url, auth)
            restarts = f"{restarts1 - restarts0:.0f}" if restarts0 is not None and restarts1 is not None else "n/a"
            rows.append((name, r.status_code, len(data), len(r.content), wall, _server_cost(server.pid) - cpu0, restarts,
                         (_status_kb(server.pid, "VmHWM") - rss0) / 1024))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=120)
    print("\n# config attacks, one at a time on a warm server (issue 30 items 2 and 3)\n")
    print("| request | status | request KB | response KB | wall s | server + workers CPU s | worker restarts "
          "| peak RSS growth MB |")
    print("|---|---|---|---|---|---|---|---|")
    for name, code, sent, got, wall, cpu, restarts, rss in rows:
        print(f"| {name} | {code} | {sent / 1024:,.1f} | {got / 1024:,.1f} | {wall:.2f} | {cpu:.2f} | {restarts} | "
              f"{rss:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200, help="requests per concurrency level (bounded)")
    parser.add_argument("--seconds", type=float, default=60.0, help="time limit per level")
    parser.add_argument("--max-concurrent", type=int, default=1, help="the server's --max-concurrent")
    parser.add_argument("--attack-requests", type=int, default=600, help="requests per run of the attack mix")
    parser.add_argument("--unauth-rate", type=float, default=200, help="attack: unauthenticated requests per second")
    parser.add_argument("--oversize-rate", type=float, default=20, help="attack: oversize requests per second")
    parser.add_argument("--slowloris", type=int, default=64, help="attack: slowloris connections held")
    parser.add_argument("--config-rate", type=float, default=1.0, help="attack: config attacks per second (with the token)")
    parser.add_argument("--config-only", action="store_true", help="run only the config attacks, one at a time")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "RLVR_SERVE_TOKEN"}
    print(f"# load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} CPUs)")
    if args.config_only:
        _config_cases(env)
        return
    import httpx

    from rlvr.verifiers import clear_cache, verify_batch

    items = _items()
    batches = [items[i:i + 64] for i in range(0, len(items), 64)]
    verify_batch(["\\boxed{x+1}"], ["1+x"])  # warm pool
    clear_cache()
    t0 = time.perf_counter()
    for n in range(args.requests):  # the same request sequence the clients send (the caches warm alike)
        b = batches[n % len(batches)]
        verify_batch([x["completion"] for x in b], [x["gold"] for x in b])
    inproc = args.requests * 64 / (time.perf_counter() - t0)

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "rlvr", "serve", "--port", str(port), "--max-concurrent", str(args.max_concurrent)],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(url + "/readyz", timeout=30).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.2)
        print(f"# rlvr serve vs in-process verify_batch: {len(items)} real outputs, 64 completions a request\n")
        print(f"in-process verify_batch, same {args.requests} requests: {inproc:,.0f} completions/s\n")
        print("| clients | scored requests | req/s | completions/s | vs in-process | p50 ms | p99 ms | refused (503) or failed |")
        print("|---|---|---|---|---|---|---|---|")
        for clients in (1, 8, 32):
            latencies, errors, wall = _load(url, batches, clients, args.requests, args.seconds)
            done = len(latencies)
            cps = done * 64 / wall
            print(f"| {clients} | {done} | {done / wall:.1f} | {cps:,.0f} | {cps / inproc:.0%} | "
                  f"{_pct(latencies, 0.5) * 1e3:.1f} | {_pct(latencies, 0.99) * 1e3:.1f} | {errors} |")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    _config_cases(env)
    _attack_mix(args, batches, env)
    print(f"\n# load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
