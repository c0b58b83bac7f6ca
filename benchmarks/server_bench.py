"""The reward server under load on loopback, side by side with in-process scoring of the same inputs.

Anchor: ``verify_batch`` in process on the 800 real Qwen2.5-Math outputs of
``../shared/data/qwen25math-rm-maj-example`` (batches of 64, warm pool). Server: ``rlvr serve`` in its
own process, ``POST /v1/verify`` with 64 completions a request, from 1, 8 and 32 concurrent clients
(threads with one httpx client each). The loop is bounded: a fixed number of requests and a time
limit per level; only 127.0.0.1 is contacted. Targets: server throughput at 8 clients >= 80% of
in-process, p99 < 250 ms for a 64-completion request.

    python benchmarks/server_bench.py [--requests 200] [--seconds 60]
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

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "qwen25math-rm-maj-example" / "math_cot_100.jsonl"


def _items() -> list[dict[str, str]]:
    rows = [json.loads(line) for line in DATA.read_text().splitlines()]
    return [{"completion": c, "gold": r["gt"]} for r in rows for c in r.get("code", [])[:8]]


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200, help="requests per concurrency level (bounded)")
    parser.add_argument("--seconds", type=float, default=60.0, help="time limit per level")
    parser.add_argument("--max-concurrent", type=int, default=1, help="the server's --max-concurrent")
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
            latencies: list[float] = []
            errors = [0]
            counter = [0]
            lock = threading.Lock()
            stop_at = time.monotonic() + args.seconds

            def worker() -> None:
                with httpx.Client(timeout=60) as http:
                    while time.monotonic() < stop_at:
                        with lock:
                            if counter[0] >= args.requests:
                                return
                            n = counter[0]
                            counter[0] += 1
                        body = {"items": batches[n % len(batches)]}
                        start = time.perf_counter()
                        r = http.post(url + "/v1/verify", json=body)
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
            wall = time.perf_counter() - began
            done = len(latencies)
            cps = done * 64 / wall
            print(f"| {clients} | {done} | {done / wall:.1f} | {cps:,.0f} | {cps / inproc:.0%} | "
                  f"{_pct(latencies, 0.5) * 1e3:.1f} | {_pct(latencies, 0.99) * 1e3:.1f} | {errors[0]} |")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)


if __name__ == "__main__":
    main()
