"""Nothing hangs, nothing crashes, nothing executes: callers of every kind, killed workers, and
pathological inputs that each return within 2 s."""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import os
import signal
import threading
import time

import pytest

from rlvr.verifiers import VerifierConfig, averify, averify_batch, clear_cache, verify, verify_batch
from rlvr.verifiers.sandbox import RETRY_FACTOR, SandboxPool

SYMBOLIC = ("\\boxed{(x+1)^2}", "x^2+2x+1")  # needs the sandbox: not decidable as string or number


@pytest.mark.parametrize(
    "completion",
    [
        "\\boxed{9^{9^{9^{9}}}}",
        "\\boxed{10^{10^{10}}}",
        "\\boxed{10^10^10}",
        "\\boxed{(10^8)!}",
        "\\boxed{(10^{8})!}",
        "\\boxed{100000000!}",
        "\\boxed{" + "(" * 5000 + "1" + ")" * 5000 + "}",
        "\\boxed{" + "{" * 5000 + "1" + "}" * 5000 + "}",
        "\\boxed{" + "\\frac{1}{" * 3000 + "1" + "}" * 3000 + "}",
        "\\boxed{" + "9" * 100_000 + "}",
        "x" * 1_000_000 + "\\boxed{3}",
        "\\boxed{3}" + " wait" * 200_000,
        "(" * 1_000_000,
        "\\boxed{" * 100_000,
        "<answer>" * 100_000,
        "Answer: " + "a" * 1_000_000,
        "the answer is " * 50_000,
        "\\boxed{\\binom{10^{9}}{10^{5}}}",
        "\\boxed{2^{2^{2^{2^{2}}}}}",
        "\\boxed{x^{x^{x^{x^{x}}}}}",
        "\\boxed{9**9**9**9}",
    ],
    ids=lambda s: (s[:30] + f"...[{len(s)}]") if len(s) > 30 else s,
)
def test_pathological_inputs_return_fast(completion):
    clear_cache()
    v = verify(completion, "3")
    assert v.elapsed_s <= VerifierConfig().timeout_s * (1 + RETRY_FACTOR) + 0.5, v  # its own CPU budget bounds it
    assert v.status in ("correct", "incorrect", "no_answer", "unparseable_answer", "timeout")
    assert v.reason


def test_huge_gold_is_refused_not_parsed():
    v = verify("\\boxed{3}", "9^{9^{9^{9}}}")
    assert v.status == "unparseable_gold"


def test_from_threads():
    results: list[bool] = []
    lock = threading.Lock()

    def work(k: int) -> None:
        vs = verify_batch([f"\\boxed{{(x+{k})^2}}", f"\\boxed{{{k}}}"], [f"x^2+{2 * k}x+{k * k}", str(k)])
        with lock:
            results.extend(v.correct for v in vs)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(1, 7)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert results == [True] * 12


def test_from_asyncio():
    async def main():
        a, b = await asyncio.gather(averify(*SYMBOLIC), averify_batch(["\\boxed{2}"], ["3"]))
        return a, b

    a, b = asyncio.run(main())
    assert a.correct and b[0].status == "incorrect"


def _child(queue) -> None:
    v = verify("\\boxed{(y-1)(y+1)}", "y^2-1")
    queue.put((v.status, os.getpid()))


@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_from_other_processes(method):
    verify(*SYMBOLIC)  # the parent's pool is running before the fork
    ctx = mp.get_context(method)
    queue = ctx.Queue()
    p = ctx.Process(target=_child, args=(queue,))
    p.start()
    status, pid = queue.get(timeout=60)
    p.join(timeout=30)
    assert status == "correct" and pid != os.getpid()
    assert verify("\\boxed{(z+2)^2}", "z^2+4z+4").correct  # the parent's pool still works


def test_survives_killed_worker():
    pool = SandboxPool(size=2)
    try:
        task = {"answer": "(x+1)^2", "gold": "x^2+2x+1", "abs_tol": 0, "rel_tol": 0}
        assert pool.run([task], 5.0)[0]["status"] == "correct"
        for pid in pool.worker_pids():
            os.kill(pid, signal.SIGKILL)
        time.sleep(0.2)
        results = pool.run([task] * 4, 5.0)
        assert [r["status"] for r in results] == ["correct"] * 4
        assert pool.restarts >= 1
    finally:
        pool.close()


def test_timeout_kills_and_replaces_worker():
    pool = SandboxPool(size=1)
    try:
        slow = {"answer": "(2^{64})!", "gold": "3", "abs_tol": 0, "rel_tol": 0}
        fast = {"answer": "(x+1)^2", "gold": "x^2+2x+1", "abs_tol": 0, "rel_tol": 0}
        pool.run([fast], 30.0)  # warm
        start = time.monotonic()
        results = pool.run([slow, fast], 0.5)
        assert results[0]["status"] == "timeout" and "exceeded 0.5s and then 2s" in results[0]["reason"]
        assert results[1]["status"] == "correct"
        assert results[0]["cpu_s"] <= 0.5 * RETRY_FACTOR + 0.5  # 0.5 s, then the retry's 2 s, of CPU time
    finally:
        pool.close()


def test_workers_run_under_the_memory_cap():
    pool = SandboxPool(size=1, memory_mb=300)
    try:
        pool.run([{"answer": "(x+1)^2", "gold": "x^2+2x+1", "abs_tol": 0, "rel_tol": 0}], 30.0)
        [pid] = pool.worker_pids()
        limits = open(f"/proc/{pid}/limits").read()
        line = next(row for row in limits.splitlines() if row.startswith("Max address space"))
        assert line.split()[3] == str(300 * 1024 * 1024), line
    finally:
        pool.close()


def test_pool_shutdown_stops_workers():
    pool = SandboxPool(size=2)
    pool.run([{"answer": "(x+1)^2", "gold": "x^2+2x+1", "abs_tol": 0, "rel_tol": 0}], 5.0)
    pids = pool.worker_pids()
    pool.close()
    time.sleep(0.1)
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_nothing_is_executed():
    marker = "/tmp/rlvr_injection_marker"
    if os.path.exists(marker):
        os.remove(marker)
    for payload in (f"__import__('os').system('touch {marker}')", f"eval(\"open('{marker}','w')\")",
                    f"exec('open(\"{marker}\",\"w\")')"):
        v = verify(f"\\boxed{{{payload}}}", "3")
        assert not v.correct
    assert not os.path.exists(marker)
