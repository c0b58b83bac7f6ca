"""Sandbox worker process: reads rows and compares answers, isolated from the caller.

Started by :mod:`rlvr.verifiers.sandbox` as ``python -m rlvr.verifiers._worker MEMORY_MB``. Speaks
JSON lines on stdin/stdout; each request with an ``id`` gets one reply with that ``id`` and the
worker's CPU seconds so far (``cpu``: the parent charges each task's budget with it). Requests:

- ``{"kind": "config", "key", "config", "sources"}``: a VerifierConfig for later tasks to name by
  ``key`` (``sources``: custom answer sources to import, name -> ``module:qualname``); no reply.
  ``{"kind": "forget", "key"}`` drops one; no reply.
- ``{"kind": "row", "cfg", "gen", "text", "gold"}``: verify one completion ->
  ``{"verdict": {...}, "stages": {"read": s, "compare": s}}``;
  ``{"kind": "extract", "cfg", "gen", "text"}`` -> ``{"extraction": {...}}``;
  ``{"kind": "gold", "cfg", "gen", "gold"}`` -> ``{"reason": why-unusable-or-null}``.
- ``{"answer", "gold", "abs_tol", "rel_tol"}`` (no kind): one symbolic comparison -> ``{"status", "reason"}``.
- ``{"kind": "ping"}`` -> ``{"status": "ok"}``.

A task's ``gen`` is the caller's cache generation: a new one clears this worker's caches first. The
parent kills this process when a task runs past its CPU budget, so nothing here needs a timeout of
its own; the address-space cap turns runaway memory into a MemoryError (an ``error`` result).
"""

from __future__ import annotations

import importlib
import json
import logging
import os
import sys
import time
from dataclasses import asdict
from typing import Any


def _harden(memory_mb: int) -> str | None:
    """Cap this process's memory and tie its life to the parent's; the reason when the cap failed."""
    problem = None
    try:
        import resource

        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError) as exc:  # the parent's timeout still applies; it says so
        problem = f"memory cap of {memory_mb} MB could not be set ({type(exc).__name__}: {exc})"
        print(f"rlvr verifier worker: {problem}", file=sys.stderr, flush=True)
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)  # sympy may print or parse long integers; the guards bound them
    try:  # die with the parent (Linux): no orphaned workers after a crash or kill -9 of the trainer
        import ctypes
        import signal

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    return problem


class _Server:
    """What one worker knows between requests: its comparer, the configs it was given, the cache generation."""

    def __init__(self) -> None:
        from rlvr.verifiers.symbolic import Comparer

        self.comparer = Comparer()
        self.comparer.parse("1")  # warm up the parser and the vocabularies before announcing readiness
        from rlvr.verifiers import calendar_names, conversions, number_words, spelled_fractions, spelled_numbers

        number_words.warm()
        calendar_names.warm()
        spelled_numbers.warm()
        spelled_fractions.fraction_nouns()  # built once from CLDR's ordinals (~1 CPU-s), then read from the cache
        conversions.warm()  # pint's registry takes ~0.5 CPU-s: never inside a row's budget
        from rlvr.verifiers.percent_words import percent_words

        percent_words()  # built from CLDR once per babel release (seconds): never inside a row's budget
        from rlvr.verifiers.compact_numbers import compact_scales

        compact_scales()  # likewise ("42K", "4.2万")
        from rlvr.verifiers.config import VerifierConfig
        from rlvr.verifiers.rows import clear_row_caches
        from rlvr.verifiers.warmup import warm

        warm(VerifierConfig(), self.compare_many, lambda: (clear_row_caches(), self.comparer.clear()))
        self.configs: dict[str, Any] = {}  # key -> VerifierConfig, or the reason it could not be built
        self.gen: int | None = None
        import gc

        # the vocabularies, regexes and parsers loaded so far live as long as the worker: out of the collector's
        # sight, so that a full collection during a row (tens of ms over them) never counts against its budget
        gc.collect()
        gc.freeze()

    def compare_one(self, task: dict[str, Any]) -> dict[str, Any]:
        try:
            status, reason = self.comparer.compare(task["answer"], task["gold"], task.get("abs_tol", 0.0),
                                                   task.get("rel_tol", 0.0), task.get("gold_percent", False))
        except MemoryError:
            status, reason = "error", "symbolic comparison exceeded the sandbox memory limit"
        except RecursionError:
            status, reason = "unparseable_answer", "answer nests too deeply to parse"
        except Exception as exc:  # report, never die: the parent turns this into a typed verdict
            status, reason = "error", f"symbolic comparison raised {type(exc).__name__}: {str(exc)[:200]}"
        return {"status": status, "reason": reason}

    def compare_many(self, tasks: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [self.compare_one(t) for t in tasks]

    def define(self, request: dict[str, Any]) -> None:
        from rlvr.verifiers.config import VerifierConfig
        from rlvr.verifiers.extraction import register_answer_source

        try:
            for name, spec in (request.get("sources") or {}).items():
                module, _, qualname = spec.partition(":")
                func: Any = importlib.import_module(module)
                for part in qualname.split("."):
                    func = getattr(func, part)
                register_answer_source(name, func, replace=True)
            self.configs[request["key"]] = VerifierConfig.from_dict(request["config"])
        except Exception as exc:
            self.configs[request["key"]] = f"the worker could not build this config: {type(exc).__name__}: {exc}"

    def config(self, request: dict[str, Any]) -> Any:
        gen = request.get("gen")
        if gen != self.gen:
            from rlvr.verifiers.rows import clear_row_caches

            clear_row_caches()
            self.comparer.clear()
            from sympy.core.cache import clear_cache as clear_sympy_cache

            clear_sympy_cache()  # a cold start means sympy's own memo too (benchmarks compare cold passes)
            self.gen = gen
        config = self.configs.get(request.get("cfg"))
        if config is None:
            return "the worker was not given this task's config"
        return config

    def handle(self, request: dict[str, Any]) -> dict[str, Any] | None:
        kind = request.get("kind")
        if kind is None:
            return self.compare_one(request)
        if kind == "config":
            self.define(request)
            return None
        if kind == "forget":
            self.configs.pop(request.get("key"), None)
            return None
        if kind == "ping":
            return {"status": "ok"}
        config = self.config(request)
        if isinstance(config, str):
            return {"status": "error", "reason": config}
        if kind == "row":
            from rlvr.verifiers.rows import verify_row

            stages: dict[str, float] = {}
            verdict = verify_row(request.get("text", ""), request.get("gold", ""), config, self.compare_many, stages)
            return {"verdict": verdict, "stages": stages}
        if kind == "extract":
            from rlvr.verifiers.extraction import extract_answer

            try:
                return {"extraction": asdict(extract_answer(request.get("text", ""), config))}
            except Exception as exc:
                return {"status": "error", "reason": f"reading raised {type(exc).__name__}: {str(exc)[:200]}"}
        if kind == "gold":
            from rlvr.verifiers.rows import validate_gold

            try:
                return {"reason": validate_gold(request.get("gold", ""), config, self.compare_many)}
            except Exception as exc:
                return {"reason": f"reading the gold raised {type(exc).__name__}: {str(exc)[:200]}"}
        return {"status": "error", "reason": f"unknown request kind {kind!r}"}


def main(argv: list[str]) -> int:
    memory_mb = int(argv[1]) if len(argv) > 1 else 1024
    problem = _harden(memory_mb)
    logging.disable(logging.CRITICAL)
    protocol = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)  # stray prints from libraries go to stderr, never into the protocol stream
    server = _Server()
    protocol.write(json.dumps({"ready": True, "memory_cap": problem is None, "problem": problem,
                               "cpu": time.process_time()}) + "\n")
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except json.JSONDecodeError:
            continue
        try:
            reply = server.handle(request)
        except MemoryError:
            reply = {"status": "error", "reason": "the task exceeded the sandbox memory limit"}
        except Exception as exc:  # report, never die
            reply = {"status": "error", "reason": f"the worker raised {type(exc).__name__}: {str(exc)[:200]}"}
        if reply is None:
            continue
        reply["id"] = request.get("id")
        reply["cpu"] = time.process_time()  # the worker's own CPU clock: the parent charges budgets with it
        protocol.write(json.dumps(reply) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
