"""The reward server under load on loopback, side by side with in-process scoring of the same inputs.

Anchor: ``verify_batch`` in process on the 800 real Qwen2.5-Math outputs of
``../shared/data/qwen25math-rm-maj-example`` (batches of 64, warm pool). Server: ``rlvr serve`` in its
own process, ``POST /v1/verify`` with 64 completions a request, from 1, 8 and 32 concurrent clients
(threads with one httpx client each). The loop is bounded: a fixed number of requests and a time
limit per level; only 127.0.0.1 is contacted. Targets: server throughput at 8 clients >= 80% of
in-process, p99 < 250 ms for a 64-completion request.

Attack mix: the same 8-client load on a server with a token, clean and then beside an attacker (its
own process, raw sockets): unauthenticated requests, oversize bodies (a declared 100 MB) and
slowloris connections trickling a header byte a second. Target: legitimate p99 under attack within
1.5x of the clean run, side by side.

    python benchmarks/server_bench.py [--requests 200] [--seconds 60] [--unauth-rate 200]
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


def _attack(port: int, token: str, seconds: float, unauth_rate: float, oversize_rate: float, slowloris: int,
            counts: Any) -> None:
    """The attacker (run in its own process): paced raw-socket requests and slowloris connections."""
    body = b'{"items": [{"completion": "1", "gold": 1}]}'
    unauth = (b"POST /v1/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    oversize = (f"POST /v1/verify HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
                "Content-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{").encode()
    address = ("127.0.0.1", port)
    slow: list[socket.socket] = []
    stop_at = time.monotonic() + seconds
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
            counts = ctx.Array("l", 3)
            attacker = ctx.Process(target=_attack, args=(port, token, args.seconds + 5, args.unauth_rate,
                                                         args.oversize_rate, args.slowloris, counts))
            attacker.start()
            time.sleep(2)  # slowloris connections open, the flood running
            runs.append(("under attack", *_load(url, batches, 8, args.attack_requests, args.seconds, auth), counts))
            attacker.terminate()
            attacker.join()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    print(f"\n# attack mix: 8 clients with a token, {args.attack_requests} requests a run, beside an attacker process "
          f"sending {args.unauth_rate:g} unauthenticated and {args.oversize_rate:g} oversize requests/s and holding "
          f"{args.slowloris} slowloris connections (the server's --header-timeout-s 3)\n")
    print("| load | scored requests | req/s | p50 ms | p99 ms | failed | attack refused (401 / 413) | slowloris closed |")
    print("|---|---|---|---|---|---|---|---|")
    for name, latencies, errors, wall, counts in runs:
        refused = f"{counts[0]} / {counts[1]} | {counts[2]}" if counts is not None else "- | -"
        print(f"| {name} | {len(latencies)} | {len(latencies) / wall:.1f} | {_pct(latencies, 0.5) * 1e3:.1f} | "
              f"{_pct(latencies, 0.99) * 1e3:.1f} | {errors} | {refused} |")
    p99 = {name: [_pct(r[1], 0.99) for r in runs if r[0] == name] for name in ("clean", "under attack")}
    ratio = (sum(p99["under attack"]) / len(p99["under attack"])) / (sum(p99["clean"]) / len(p99["clean"]))
    print(f"\nlegitimate p99 under attack / clean (means of the two runs each): {ratio:.2f}x (target <= 1.5x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200, help="requests per concurrency level (bounded)")
    parser.add_argument("--seconds", type=float, default=60.0, help="time limit per level")
    parser.add_argument("--max-concurrent", type=int, default=1, help="the server's --max-concurrent")
    parser.add_argument("--attack-requests", type=int, default=600, help="requests per run of the attack mix")
    parser.add_argument("--unauth-rate", type=float, default=200, help="attack: unauthenticated requests per second")
    parser.add_argument("--oversize-rate", type=float, default=20, help="attack: oversize requests per second")
    parser.add_argument("--slowloris", type=int, default=64, help="attack: slowloris connections held")
    args = parser.parse_args()
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
    env = {k: v for k, v in os.environ.items() if k != "RLVR_SERVE_TOKEN"}
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
    _attack_mix(args, batches, env)


if __name__ == "__main__":
    main()
