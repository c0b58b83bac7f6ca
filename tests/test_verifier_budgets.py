"""Verdicts do not depend on the machine or on their neighbours.

Budgets are each task's own worker CPU time (no budget is shared between rows), start-up is free,
a caller's deadline ends the work it bounds, and no sequence of configs multiplies worker
processes. No test here assumes how fast this machine is: a task's cost is measured in the same run
and budgets are set relative to it.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time

import pytest

from rlvr.verifiers import VerifierConfig, clear_cache, scoring_deadline, verify_batch, warm_up
from rlvr.verifiers import sandbox
from rlvr.verifiers.sandbox import RETRY_FACTOR, SandboxPool

# a right answer that takes math-verify a while: its CPU cost is measured before it is used
SLOW_RIGHT = {"answer": "\\sum_{k=1}^{3000} k^{2}", "gold": "9004500500", "abs_tol": 0.0, "rel_tol": 0.0}
NEVER_ENDS = {"answer": "(2^{64})!", "gold": "3", "abs_tol": 0.0, "rel_tol": 0.0}


def _cost(pool: SandboxPool, task: dict, repeats: int = 2) -> float:
    """The worker CPU seconds ``task`` takes on a warm worker (the most of ``repeats`` runs)."""
    costs = []
    for _ in range(repeats):
        [result] = pool.run([task], timeout_s=120)
        assert result["status"] == "correct", result
        costs.append(result["cpu_s"])
    return max(costs)


def _burn(stop_at: float) -> None:
    os.sched_setaffinity(0, {0})
    while time.monotonic() < stop_at:  # a busy loop that always ends by itself
        pass


def _children() -> set[int]:
    me = os.getpid()
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    if int(f.read().rsplit(b")", 1)[1].split()[1]) == me:
                        out.add(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    return out


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs Linux CPU affinity")
def test_a_crowded_core_does_not_turn_a_right_answer_into_a_timeout():
    pool = SandboxPool(size=1)
    burners = []
    try:
        pool.warm_up()
        cost = _cost(pool, SLOW_RIGHT)
        for pid in pool.worker_pids() + pool.spare_pids():
            os.sched_setaffinity(pid, {0})
        ctx = mp.get_context("fork")
        stop_at = time.monotonic() + 120
        burners = [ctx.Process(target=_burn, args=(stop_at,)) for _ in range(4)]
        for b in burners:
            b.start()
        time.sleep(0.2)
        start = time.monotonic()
        [result] = pool.run([SLOW_RIGHT], timeout_s=2 * cost)  # twice its cost: enough, whatever the wall clock
        wall = time.monotonic() - start
    finally:
        for b in burners:
            b.terminate()
            b.join()
        pool.close()
    assert result["status"] == "correct", (result, cost, wall)


def test_worker_start_up_counts_against_no_budget():
    warm = SandboxPool(size=1)
    try:
        warm.warm_up()
        task = {"answer": "(x+3)^2", "gold": "x^2+6x+9", "abs_tol": 0.0, "rel_tol": 0.0}
        cost = _cost(warm, task)
    finally:
        warm.close()
    pool = SandboxPool(size=2)  # cold: its workers start (seconds of CPU) inside this call
    try:
        tasks = [{"answer": f"(x+{k})^2", "gold": f"x^2+{2 * k}x+{k * k}", "abs_tol": 0.0, "rel_tol": 0.0}
                 for k in range(1, 7)]
        results = pool.run(tasks, timeout_s=max(5 * cost, 0.05), retry_factor=1)
    finally:
        pool.close()
    assert [r["status"] for r in results] == ["correct"] * 6, results


def test_a_spent_budget_is_retried_once_with_a_larger_one():
    pool = SandboxPool(size=1)
    try:
        pool.warm_up()
        cost = _cost(pool, SLOW_RIGHT)
        budget = cost / 2  # too little once; RETRY_FACTOR times it is enough
        [result] = pool.run([SLOW_RIGHT], timeout_s=budget)
        [never] = pool.run([NEVER_ENDS], timeout_s=0.2)
    finally:
        pool.close()
    assert RETRY_FACTOR * budget > cost
    assert result["status"] == "correct", (result, cost)
    assert never["status"] == "timeout" and "exceeded 0.2s and then 0.8s of CPU time" in never["reason"]


def test_a_callers_deadline_ends_the_work_and_leaves_no_process_behind():
    warm_up()
    before = _children()
    answers = [f"\\boxed{{{18446744073709551616 + i}!}}" for i in range(6)]  # guards off: minutes of sympy each
    config = VerifierConfig(timeout_s=120, batch_timeout_s=120, max_factorial=10**30)
    start = time.monotonic()
    with scoring_deadline(1.0):
        verdicts = verify_batch(answers, ["1"] * len(answers), config)
    took = time.monotonic() - start
    assert {v.status for v in verdicts} == {"timeout"}
    assert {v.rule for v in verdicts} == {"prepare.deadline"}
    assert all("deadline" in v.reason for v in verdicts), [v.reason for v in verdicts]
    assert took < 60, took  # not the minutes the comparisons would take: the deadline ended them
    time.sleep(0.5)  # killed workers were replaced by fresh ones: the count is what it was
    assert len(_children()) <= len(before) + 1, (before, _children())
    # and the next batch without a deadline is decided as usual
    assert verify_batch(["\\boxed{(x+1)^2}"], ["x^2+2x+1"])[0].correct


def test_rows_not_read_by_the_callers_deadline_are_timeouts_and_the_rest_keep_their_verdicts():
    completions = [f"The answer is \\boxed{{{i}}}." for i in range(2_000)]
    golds = [str(i) for i in range(2_000)]
    with scoring_deadline(0.0):  # already passed: nothing is read
        late = verify_batch(completions[:50], golds[:50])
    assert {(v.status, v.rule) for v in late} == {("timeout", "prepare.deadline")}
    assert all("deadline" in v.reason for v in late)
    # a clock the batch fits in changes no verdict
    on_time = verify_batch(completions, golds, deadline=time.monotonic() + 600)
    assert all(v.correct for v in on_time)


def test_nested_deadlines_keep_the_earlier_one():
    with scoring_deadline(5.0) as outer:
        with scoring_deadline(60.0) as inner:
            assert inner == outer
        with scoring_deadline(0.5) as tighter:
            assert tighter < outer


HARD_AND_EASY = (
    # comparisons that take sympy real work, beside ones decided at once; with the old shared batch
    # budget the later ones of a big batch turned into timeouts
    [(f"\\boxed{{(x+{k})^{{3}}}}", f"x^3+{3 * k}x^2+{3 * k * k}x+{k ** 3}") for k in range(1, 25)]
    + [(f"\\boxed{{\\frac{{{k}}}{{{k + 1}}}}}", f"{k}/{k + 1}") for k in range(1, 25)]
    + [(f"So the answer is {k}.", str(k + (k % 2))) for k in range(1, 25)]
    + [(f"\\boxed{{\\sin^2 x + \\cos^2 x + {k}}}", str(k + 1)) for k in range(1, 17)]
)


def test_the_same_rows_get_the_same_verdicts_in_batches_of_any_size():
    completions, golds = [c for c, _ in HARD_AND_EASY], [g for _, g in HARD_AND_EASY]
    by_size = {}
    for size in (1, 7, 64, len(completions)):
        clear_cache()
        verdicts = []
        for i in range(0, len(completions), size):
            verdicts += verify_batch(completions[i:i + size], golds[i:i + size])
        by_size[size] = [(v.status, v.rule, v.answer) for v in verdicts]
    first = by_size[1]
    assert all(v[0] != "timeout" for v in first), first
    for size, got in by_size.items():
        assert got == first, [(size, a, b) for a, b in zip(first, got) if a != b]


def test_a_pathological_row_costs_only_itself():
    """A repetition loop's row (thousands of distinct boxes on a line) beside normal rows: the caller's
    process reads none of it, and the normal rows are decided as they are alone."""
    looping = "The answer is " + " ".join(f"\\boxed{{{i}}}" for i in range(2_500))
    plain = "The answer is " + "x" * (len(looping) - 14)  # the same number of bytes, nothing to read
    normal = ["So the answer is \\boxed{42}.", "Answer: $\\frac{1}{2}$", "\\boxed{7}"]
    golds = ["42", "0.5", "8"]
    alone = [(v.status, v.rule) for v in verify_batch(normal, golds)]

    def caller_cpu(text: str) -> float:
        best = float("inf")
        for _ in range(3):
            clear_cache()
            start = time.process_time()
            verify_batch([text], ["1"])
            best = min(best, time.process_time() - start)
        return best

    warm_up()
    caller_cpu(plain)
    assert caller_cpu(looping) < 3 * caller_cpu(plain) + 0.02  # shipping bytes, not reading them
    mixed = verify_batch([looping] + normal, ["1"] + golds)
    assert [(v.status, v.rule) for v in mixed[1:]] == alone == [
        ("correct", "compare.string"), ("correct", "compare.number"), ("incorrect", "compare.number")]
    assert mixed[0].status in ("incorrect", "timeout") and not mixed[0].correct


def test_configs_cannot_multiply_pools():
    before = len(_children())
    for memory in (600, 700, 800, 900, 1000):
        verify_batch(["\\boxed{(y+1)^2}"], ["y^2+2y+1"], VerifierConfig(memory_mb=memory))
    assert len(sandbox._POOLS) <= sandbox._MAX_POOLS
    time.sleep(1.5)
    per_pool = sandbox.default_workers() + 1  # workers and a warm spare
    assert len(_children()) <= before + sandbox._MAX_POOLS * per_pool


def test_caches_stay_under_their_byte_bound():
    from rlvr.verifiers.cache import TOTAL_BYTES, all_caches

    clear_cache()
    for batch in range(6):  # 80 unique 200k-character golds a batch, as a hostile client would send
        golds = [f"{batch * 80 + i}" + "1" * 200_000 for i in range(80)]
        verify_batch(["\\boxed{7}"] * 80, golds)
        verify_batch([f"\\boxed{{{7 + i}}}" for i in range(80)], [f"{i}" * 3 for i in range(80)])
    held = sum(c.bytes for c in all_caches())
    assert held <= TOTAL_BYTES, held


def test_a_rule_that_reads_the_answer_as_written_is_not_shared_through_the_cache():
    """"0.\\overline{3}" and "\\frac{1}{3}" normalise alike; only the repeating decimal rounds to a gold of
    0.33 (the table's decision). Whichever a worker met first, each keeps its own verdict."""
    clear_cache()
    exact, repeating = "\\boxed{\\frac{1}{3}}", "\\boxed{0.\\overline{3}}"
    for _ in range(4):  # every worker meets both, in both orders
        for pair in ((exact, repeating), (repeating, exact)):
            verdicts = {c: v for c, v in zip(pair, verify_batch(list(pair), ["0.33", "0.33"]))}
            assert (verdicts[repeating].correct, verdicts[repeating].rule) == (True, "compare.rounded")
            assert not verdicts[exact].correct, verdicts[exact].reason


def test_a_call_waiting_for_busy_workers_keeps_its_own_deadline():
    """Another call holding every worker until its later deadline must not make this call outlive its own:
    the wait for a free worker ends at the deadline, and the rows come back as timeouts (in `rlvr serve`, a
    request queued behind another's slot overran deadline + grace and answered 504)."""
    import threading

    pool = SandboxPool(size=1)
    try:
        assert pool.warm_up(timeout_s=90)
        slow = [{"answer": f"\\sin^2 x + \\cos^2 x + {k}", "gold": str(k + 1)} for k in range(1, 400)]
        holder = threading.Thread(target=pool.run, args=(slow, 30.0), kwargs={"until": time.monotonic() + 6.0})
        holder.start()
        time.sleep(0.5)  # the holder has the only worker
        began = time.monotonic()
        results = pool.run([{"answer": "1", "gold": "1"}], 30.0, until=began + 0.5)
        waited = time.monotonic() - began
        holder.join(timeout=30)
        assert results[0]["status"] == "timeout" and results[0].get("deadline"), results
        assert waited < 3.0, waited  # ended at its own deadline, not at the holder's (6 s)
    finally:
        pool.close()
