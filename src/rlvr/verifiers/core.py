"""verify / verify_batch: the caller's side — rows out to the worker pool, verdicts back.

The caller's process reads no model text: it turns chat messages into text, drops rows it has
already decided (identical rows in the batch are one task; a byte-bounded cache remembers rows by
a digest of their text), ships the rest to the sandbox workers and collects one verdict per row.
Each worker reads its row, finds the one final answer and compares it with the gold
(:func:`~rlvr.verifiers.rows.verify_row`) under that row's own CPU budget, so a reader that runs out
is that row's ``timeout``, reading runs on every core, and the caller's deadline reaches all work.
No budget is shared between rows: a verdict never depends on the rows beside it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import logging
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict
from functools import lru_cache
from typing import Any

from rlvr.chat import completion_text
from rlvr.verifiers.cache import TOTAL_BYTES, ByteLRU
from rlvr.verifiers.config import DEFAULT_SOURCES, VerifierConfig
from rlvr.verifiers.extraction import Extraction, custom_sources
from rlvr.verifiers.gold_records import gold_of_record
from rlvr.verifiers.rows import READ_ERROR, SANDBOX, clear_row_caches, verify_row
from rlvr.verifiers.sandbox import get_pool
from rlvr.verifiers.trace import rule
from rlvr.verifiers.verdict import Verdict

logger = logging.getLogger(__name__)

__all__ = ["verify", "verify_batch", "averify", "averify_batch", "clear_cache", "validate_golds", "gold_string", "scoring_deadline",
           "warm_up", "extract_batch", "reading_stats"]

DEADLINE = rule("prepare.deadline", "the caller's deadline passed before the row was read")
#: rows queued on one worker at once: it goes from one to the next without waiting for the parent
_DEPTH = 4
_ROWS = ByteLRU("row verdicts", int(TOTAL_BYTES * 0.1))  # (digest of text and gold, config) -> verdict fields
_GENERATION = [0]  # the cache generation: clear_cache() moves it on, and each worker clears its caches then
_STATS_LOCK = threading.Lock()
_STATS = {"rows": 0, "read_s": 0.0, "compare_s": 0.0, "worker_s": 0.0, "cached": 0, "timeouts": 0}


def clear_cache() -> None:
    """Forget cached outcomes and gold parses, here and in every worker (for benchmarks and tests)."""
    _ROWS.clear()
    clear_row_caches()
    _GENERATION[0] += 1


def reading_stats() -> dict[str, float]:
    """What verification has cost this process so far: rows verified, worker CPU seconds spent
    reading (prepare, locate, integrity) and comparing, rows answered from the cache, timeouts."""
    with _STATS_LOCK:
        return dict(_STATS)


def _count(result: dict[str, Any]) -> None:
    stages = result.get("stages") or {}
    with _STATS_LOCK:
        _STATS["rows"] += 1
        _STATS["read_s"] += float(stages.get("read", 0.0))
        _STATS["compare_s"] += float(stages.get("compare", 0.0))
        _STATS["worker_s"] += float(result.get("cpu_s", 0.0))
        _STATS["timeouts"] += result.get("status") == "timeout" or (result.get("verdict") or {}).get("status") == "timeout"


_DEADLINE: ContextVar[float | None] = ContextVar("rlvr_verifier_deadline", default=None)


@contextmanager
def scoring_deadline(seconds: float | None) -> Iterator[float | None]:
    """Within this block every ``verify_batch`` stops its work ``seconds`` from now.

    For callers that answer to a clock of their own (a reward server's request deadline): at the
    deadline running rows are killed and the rows not yet decided come back as ``timeout`` ("the
    caller's deadline passed"; the rewards abstain on them), so no work outlives the request. Nested
    blocks keep the earlier deadline. A context variable, so it follows the work into
    ``asyncio.to_thread``. Verdicts inside the deadline are the same as without one.
    """
    until = None if seconds is None else time.monotonic() + max(0.0, float(seconds))
    outer = _DEADLINE.get()
    if outer is not None:
        until = outer if until is None else min(until, outer)
    token = _DEADLINE.set(until)
    try:
        yield until
    finally:
        _DEADLINE.reset(token)


def warm_up(timeout_s: float = 90.0, config: VerifierConfig | None = None) -> bool:
    """Start the sandbox workers now and wait until they answer (``True`` when all did in time).

    Worker start-up never counts against a row's budget, but a server should report ready only
    once its pool is up, so its first request is not the one that waits for it.
    """
    config = VerifierConfig.load(config)
    return get_pool(config.memory_mb).warm_up(timeout_s)


@lru_cache(maxsize=256)
def _config_message(config: VerifierConfig) -> tuple[str, dict[str, Any]] | None:
    """The key and definition message of ``config`` for workers; ``None`` when a custom answer source
    it reads cannot be imported by a worker (its rows are then read here)."""
    sources = custom_sources(config)
    if any(spec is None for spec in sources.values()):
        return None
    fields = asdict(config)
    key = hashlib.blake2b(json.dumps([fields, sources], sort_keys=True, default=list).encode(), digest_size=12).hexdigest()
    return key, {"kind": "config", "key": key, "config": fields, "sources": sources}


def _until(deadline: float | None) -> float | None:
    caller = _DEADLINE.get()
    if deadline is None:
        return caller
    return deadline if caller is None else min(deadline, caller)


def _digest(text: str, gold: str) -> bytes:
    h = hashlib.blake2b(digest_size=16)
    h.update(text.encode("utf-8", "surrogatepass"))
    h.update(b"\x00")
    h.update(gold.encode("utf-8", "surrogatepass"))
    return h.digest()


def _pool_verdict(result: dict[str, Any]) -> dict[str, Any]:
    """A row's verdict fields from what the pool returned: the worker's verdict, or the pool's own
    ``timeout`` or ``error`` (the row's budget spent twice, the caller's deadline, a dead worker)."""
    if isinstance(result.get("verdict"), dict):
        return result["verdict"]
    status = result.get("status", "error")
    if status not in ("timeout", "error"):
        status = "error"
    why = DEADLINE if result.get("deadline") else SANDBOX
    reason = result.get("reason") or "no result"
    if status == "timeout" and not result.get("deadline"):
        reason = f"reading and comparing this row {reason}"
    return {"status": status, "answer": None, "reason": reason, "source": None, "method": "sandbox", "rule": why}


def verify_batch(
    completions: Sequence[Any], golds: Sequence[str], config: VerifierConfig | None = None, *,
    deadline: float | None = None,
) -> list[Verdict]:
    """Verify ``completions[i]`` against ``golds[i]`` for every i; one :class:`Verdict` each.

    Never raises for a bad completion or gold (it gets a typed verdict, and only its own row is
    affected); raises ``ValueError`` when the two sequences differ in length and
    :class:`~rlvr.errors.ConfigError` for a bad config. Each row is read and compared in a sandbox
    worker under its own CPU budget (``config.timeout_s``, retried once with more); ``deadline`` (a
    ``time.monotonic()`` instant) or an enclosing :func:`scoring_deadline` ends the work at that time:
    rows not decided by then are ``timeout`` (rule ``prepare.deadline``).
    """
    config = VerifierConfig.load(config)
    if len(completions) != len(golds):
        raise ValueError(f"verify_batch got {len(completions)} completions but {len(golds)} golds")
    until = _until(deadline)
    fields: list[dict[str, Any] | None] = [None] * len(completions)
    cost = [0.0] * len(completions)
    groups: dict[tuple[str, str], list[int]] = {}
    for i, (completion, gold) in enumerate(zip(completions, golds)):
        try:
            text = completion_text(completion)
        except TypeError as exc:
            fields[i] = {"status": "error", "answer": None, "reason": str(exc), "source": None, "method": "extraction",
                         "rule": READ_ERROR}
            continue
        gold = gold_string(gold)
        groups.setdefault((text, gold), []).append(i)
    if until is not None and time.monotonic() >= until:
        for members in groups.values():
            for i in members:
                fields[i] = {"status": "timeout", "answer": None, "method": "extraction", "source": None,
                             "reason": "the caller's deadline passed before this row was read", "rule": DEADLINE}
        return [Verdict(**f) for f in fields]  # type: ignore[arg-type]
    message = _config_message(config)
    todo: list[tuple[tuple[str, str], bytes]] = []
    for pair in groups:
        digest = _digest(*pair)
        cached = _ROWS.get((digest, config))
        if cached is not None:
            for i in groups[pair]:
                fields[i] = cached
            with _STATS_LOCK:
                _STATS["cached"] += len(groups[pair])
        else:
            todo.append((pair, digest))
    if todo:
        results = (_run_in_pool(todo, config, message, until) if message is not None
                   else _run_here(todo, config, until))
        for (pair, digest), result in zip(todo, results):
            _count(result)
            row = _pool_verdict(result)
            if row["status"] not in ("timeout", "error"):
                _ROWS.put((digest, config), row)
            for i in groups[pair]:
                fields[i] = row
                cost[i] = float(result.get("cpu_s", 0.0))
    return [Verdict(**f, elapsed_s=c) for f, c in zip(fields, cost)]  # type: ignore[arg-type]


def _run_in_pool(todo: list, config: VerifierConfig, message: tuple[str, dict[str, Any]],
                 until: float | None) -> list[dict[str, Any]]:
    key, definition = message
    gen = _GENERATION[0]
    tasks = [{"kind": "row", "cfg": key, "gen": gen, "text": text, "gold": gold} for (text, gold), _digest in todo]
    return get_pool(config.memory_mb).run(tasks, config.timeout_s, until=until, depth=_DEPTH,
                                          configs={key: definition})


def _run_here(todo: list, config: VerifierConfig, until: float | None) -> list[dict[str, Any]]:
    """Rows of a config whose custom answer source no worker can import (a lambda, a closure): read in
    this process (the source is the user's own code), compared in the pool."""
    pool = get_pool(config.memory_mb)

    def compare(tasks: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return pool.run(tasks, config.timeout_s, until=until)

    out = []
    for (text, gold), _digest in todo:
        if until is not None and time.monotonic() >= until:
            out.append({"status": "timeout", "reason": "not started: the caller's deadline passed first",
                        "deadline": True})
            continue
        t0 = time.process_time()
        stages: dict[str, float] = {}
        verdict = verify_row(text, gold, config, compare, stages)
        out.append({"verdict": verdict, "stages": stages, "cpu_s": time.process_time() - t0})
    return out


def extract_batch(completions: Sequence[Any], config: VerifierConfig | None = None, *,
                  deadline: float | None = None) -> list[Extraction]:
    """What :func:`~rlvr.verifiers.extract_answer` finds in each completion, read in the sandbox pool
    (each under its own CPU budget), for rewards that judge the answer's form without a gold."""
    config = VerifierConfig.load(config)
    message = _config_message(config)
    if message is None:
        from rlvr.verifiers.extraction import extract_answer

        return [extract_answer(c, config) for c in completions]
    key, definition = message
    out: list[Extraction | None] = [None] * len(completions)
    tasks, where = [], []
    for i, completion in enumerate(completions):
        try:
            text = completion_text(completion)
        except TypeError as exc:
            out[i] = Extraction("error", None, str(exc), rule=READ_ERROR)
            continue
        tasks.append({"kind": "extract", "cfg": key, "gen": _GENERATION[0], "text": text})
        where.append(i)
    results = get_pool(config.memory_mb).run(tasks, config.timeout_s, until=_until(deadline), depth=_DEPTH,
                                             configs={key: definition})
    for i, result in zip(where, results):
        found = result.get("extraction")
        if isinstance(found, dict):
            found = dict(found, candidates=tuple(found.get("candidates") or ()), values=tuple(found.get("values") or ()))
            out[i] = Extraction(**found)
        else:
            status = "timeout" if result.get("status") == "timeout" else "error"
            out[i] = Extraction(status, None, result.get("reason") or "no result",
                                rule=DEADLINE if result.get("deadline") else SANDBOX)
    return out  # type: ignore[return-value]


def gold_string(gold: Any) -> str:
    """The gold as the text to compare with: a record's answer field (a dict, or a JSON object as text),
    else the gold itself as text (``None`` is empty)."""
    if (answer := gold_of_record(gold)) is not None:
        return answer
    return gold if isinstance(gold, str) else ("" if gold is None else str(gold))


def validate_golds(golds: Sequence[str], config: VerifierConfig | None = None) -> list[str | None]:
    """For each gold: ``None`` when the verifier can use it, else the reason it cannot.

    Each distinct gold is read once in the sandbox (in parallel, cached like every other comparison).
    Data loaders call this at load time so a bad gold is a reported data error, not a silent zero
    reward during training.
    """
    config = VerifierConfig.load(config)
    distinct = list(dict.fromkeys(gold_string(g) for g in golds))
    if _config_message(config) is None:  # a gold is read without answer sources: the custom ones are not needed
        config = dataclasses.replace(config, sources=DEFAULT_SOURCES)
    key, definition = _config_message(config)  # type: ignore[misc]
    tasks = [{"kind": "gold", "cfg": key, "gen": _GENERATION[0], "gold": g} for g in distinct]
    results = get_pool(config.memory_mb).run(tasks, config.timeout_s, until=_until(None), depth=_DEPTH,
                                             configs={key: definition})
    reasons = {}
    for gold, result in zip(distinct, results):
        if "reason" in result and "status" not in result:
            reasons[gold] = result["reason"]
        else:
            reasons[gold] = f"{result.get('status', 'error')}: {result.get('reason', '')}"
    return [reasons[gold_string(g)] for g in golds]


def verify(completion: Any, gold: str, config: VerifierConfig | None = None) -> Verdict:
    """Verify one completion (string or chat messages) against one gold answer."""
    return verify_batch([completion], [gold], config)[0]


async def averify_batch(
    completions: Sequence[Any], golds: Sequence[str], config: VerifierConfig | None = None
) -> list[Verdict]:
    """:func:`verify_batch` for asyncio code: runs in a thread, never blocks the event loop."""
    return await asyncio.to_thread(verify_batch, completions, golds, config)


async def averify(completion: Any, gold: str, config: VerifierConfig | None = None) -> Verdict:
    """:func:`verify` for asyncio code."""
    return (await averify_batch([completion], [gold], config))[0]
