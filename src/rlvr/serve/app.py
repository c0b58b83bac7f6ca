"""``rlvr serve``: rlvr's rewards and verifier over HTTP (Starlette under uvicorn).

Endpoints: ``POST /get_reward`` (OpenRLHF's remote reward protocol), ``POST /v1/score`` (rows in,
each reward's value, status and reason out), ``POST /v1/verify``, ``GET /healthz`` (always open: 503
when every scoring slot is stuck past its deadline), ``GET /readyz`` (the verifier sandbox is warm),
``GET /metrics`` (Prometheus text).

Guarantees: a bearer token (compared in constant time) closes everything but ``/healthz``, checked
before routing (an unknown path is 401, then 404; no redirects), refused cheaply (a pre-encoded
reply, ``Connection: close``, one summary log line a minute). Bodies, rows, texts and JSON (depth,
values, number length; no ``NaN``) are bounded; request bodies held at once are bounded in bytes.
At most ``max_concurrent`` requests score at once and at most ``max_queue`` wait, the rest get
``503`` with ``Retry-After``. A request's deadline reaches its work: the verifier stops at it and the
rows it did not decide are ``timeout`` results; only a scorer that ignores the deadline gets a
``504`` and keeps its slot until it returns. Malformed input is a 4xx naming the problem (one log
line), never a 500. A client's verifier config is typed like a file's and may narrow extraction and
comparison and lower a limit to its floor, never raise one (:mod:`rlvr.serve.policy`; ``/readyz``
lists the bands). No answer amplifies its request: config fields are bounded in size, a reason is
cut at ``max_reason_chars`` and an error message at ``max_message_chars``, so a response is at most
its request's bytes plus about 2 KB a row for each reward. Every response carries ``X-Request-ID``;
secrets are never echoed. Connection guards (header timeout, connection cap) are in
:mod:`rlvr.serve.protocol`; the shutdown drain and its exit status in :mod:`rlvr.serve.drain`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import re
import time
import uuid
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from rlvr.errors import ConfigError
from rlvr.serve.bodies import RESERVED_COLUMNS, ByteBudget, HTTPProblem, check_text, check_value, list_of, read_json
from rlvr.serve.logs import RefusalTally
from rlvr.serve.metrics import Metrics
from rlvr.serve.slots import Busy, Overran, ScoringSlots

logger = logging.getLogger(__name__)

__all__ = ["Limits", "create_app"]

_UNAUTHORISED = b'{"error": "missing or wrong bearer token"}'
_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")


@dataclass(frozen=True)
class Limits:
    """Everything a request may cost the server."""

    max_body_bytes: int = 16 * 1024 * 1024
    max_buffered_bytes: int = 64 * 1024 * 1024  # request bodies held at once, all requests together
    max_rows: int = 1024
    max_completion_chars: int = 200_000
    max_field_chars: int = 20_000  # any other text: a gold, a label, a metadata column
    max_json_values: int = 200_000
    deadline_s: float = 60.0
    max_concurrent: int = 1
    max_queue: int = 32
    grace_s: float | None = None  # a scoring call this long past its deadline is stuck (default: deadline / 4, >= 2 s)
    warm_up_s: float = 120.0
    max_reason_chars: int = 500  # a verdict's or reward's reason in a response (it may quote the completion)
    max_message_chars: int = 1000  # an error message (it may quote a client's value)

    @property
    def stuck_after_s(self) -> float:
        return self.grace_s if self.grace_s is not None else max(2.0, self.deadline_s / 4)


def _reserved_columns(reward_set: Any) -> frozenset[str]:
    """Row keys the scoring call would take as its own arguments (a function reward's bound parameters too)."""
    names = set(RESERVED_COLUMNS)
    for f in reward_set.funcs:
        for r in (f, getattr(f, "inner", None), getattr(f, "gate", None)):
            names.update(getattr(r, "bound", None) or ())
    return frozenset(names)


def _cut(text: Any, limit: int) -> Any:
    """``text`` within ``limit`` characters, saying how much was cut."""
    if not isinstance(text, str) or len(text) <= limit:
        return text
    return f"{text[:limit]}... [{len(text) - limit:,} more characters]"


def create_app(rewards: Any = None, token: str | None = None, limits: Limits | None = None,
               verifier_config: Any = None) -> Any:
    """The ASGI app serving a RewardSet (default: ``math_equivalence``); ``verifier_config`` is the
    server's config for ``/v1/verify`` (requests may narrow it, see :mod:`rlvr.serve.policy`)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, PlainTextResponse, Response
    from starlette.routing import Route

    from rlvr.integrations.openrlhf import score_queries
    from rlvr.rewards.scoring import batch_from_rows, build_reward_set, score_rows
    from rlvr.serve.drain import Drain
    from rlvr.serve.policy import bands, request_config
    from rlvr.serve.readiness import sandbox_configs, warm as warm_sandbox
    from rlvr.verifiers import VerifierConfig, verify_batch
    from rlvr.verifiers.cache import all_caches
    from rlvr.verifiers.sandbox import get_pool

    limits = limits or Limits()
    reward_set = build_reward_set(rewards)
    reserved = _reserved_columns(reward_set)
    server_config = VerifierConfig.load(verifier_config)
    pools = [c.memory_mb for c in sandbox_configs(server_config, reward_set)]  # the sandbox pools this server uses
    metrics = Metrics()
    drain = Drain()
    slots = ScoringSlots(limits.max_concurrent, limits.max_queue, limits.stuck_after_s,
                         min_budget_s=limits.deadline_s / 10)  # less left than that: 503, not a batch of timeouts
    bodies = ByteBudget(limits.max_buffered_bytes)
    refusals = RefusalTally(logger, "without a valid token")
    warm = {"done": asyncio.Event(), "problem": None}

    async def warm_up() -> None:
        try:
            await slots.run(lambda: warm_sandbox(server_config, reward_set, limits.warm_up_s),
                            time.monotonic() + limits.warm_up_s, bounded=False)
        except Exception as exc:  # requests still run; /readyz says why it is not ready
            warm["problem"] = f"{type(exc).__name__}: {exc}"
            logger.error("verifier warm-up failed: %s", warm["problem"])
        warm["done"].set()

    async def flush_refusals() -> None:
        while True:
            await asyncio.sleep(refusals.interval_s)
            refusals.flush()

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> Any:
        slots.start()
        tasks = [asyncio.create_task(warm_up()), asyncio.create_task(flush_refusals())]
        try:
            yield
        finally:  # after uvicorn's drain: was anything cut short?
            drain.close(slots.inflight - (0 if warm["done"].is_set() else 1))  # the warm-up is no request
            if not drain.finished:
                logger.error("shutdown drain cut short: %s", drain.problem)
            for task in tasks:
                task.cancel()
            refusals.flush()
            slots.stop()

    def endpoint(name: str, work: Any) -> Any:
        async def handle(request: Request) -> Response:
            given = request.headers.get("x-request-id", "")
            rid = given if _REQUEST_ID.fullmatch(given) else uuid.uuid4().hex[:16]
            started = time.monotonic()
            held = [0]
            drain.inflight += 1
            try:
                response = await work(request, started + limits.deadline_s, held)
            except HTTPProblem as problem:
                headers = {**problem.headers, "Connection": "close"}  # the body may be unread: start afresh
                response = JSONResponse({"error": _cut(problem.message, limits.max_message_chars), "request_id": rid},
                                        status_code=problem.status, headers=headers)
                logger.info("request %s %s -> %d: %s", rid, name, problem.status, problem.message[:300])
            except asyncio.CancelledError:  # the shutdown drain ran out of time: this request gets no answer
                drain.cancelled += 1
                raise
            except Exception as exc:  # a bug: say so without leaking internals, keep the server up
                logger.exception("request %s to %s failed", rid, name)
                response = JSONResponse({"error": f"internal error ({type(exc).__name__})", "request_id": rid},
                                        status_code=500)
            finally:
                bodies.give(held[0])
                drain.inflight -= 1
            response.headers["X-Request-ID"] = rid
            metrics.observe(name, response.status_code, time.monotonic() - started)
            return response
        return handle

    async def scored(name: str, fn: Any, deadline: float) -> Any:
        """``fn`` on a scoring thread, after the warm-up, under the concurrency gate and the deadline."""
        def timed() -> Any:
            wall, cpu = time.perf_counter(), time.thread_time()
            try:
                return fn()
            finally:
                metrics.scoring(name, time.perf_counter() - wall, time.thread_time() - cpu)

        try:
            await asyncio.wait_for(warm["done"].wait(), timeout=max(0.0, deadline - time.monotonic()))
        except asyncio.TimeoutError:
            raise HTTPProblem(503, "server warming up: the verifier sandbox is starting", {"Retry-After": "5"}) from None
        try:
            return await slots.run(timed, deadline)
        except Busy as exc:
            raise HTTPProblem(503, f"server busy: {exc}", {"Retry-After": "1"}) from None
        except Overran as exc:
            raise HTTPProblem(504, str(exc)) from None
        except ConfigError as exc:  # the request does not fit the reward set (a missing column, ...)
            raise HTTPProblem(422, str(exc)) from None

    async def get_reward(request: Request, deadline: float, held: list[int]) -> Response:
        body = await read_json(request, limits, deadline, bodies, held)
        queries = list_of(body, "query", str, limits)
        prompts = list_of(body, "prompts", str, limits) if "prompts" in body else [""] * len(queries)
        labels = list_of(body, "labels", (str, int, float), limits) if "labels" in body else [""] * len(queries)
        if not len(queries) == len(prompts) == len(labels):
            raise HTTPProblem(422, f"query, prompts and labels differ in length ({len(queries)}, {len(prompts)}, "
                                   f"{len(labels)})")
        result = await scored("get_reward", lambda: score_queries(reward_set, queries, prompts, [str(x) for x in labels]),
                              deadline)
        for statuses in result["statuses"]:
            metrics.count_statuses(statuses.values())
        return JSONResponse({k: result[k] for k in ("rewards", "scores", "extra_logs")})

    async def score(request: Request, deadline: float, held: list[int]) -> Response:
        body = await read_json(request, limits, deadline, bodies, held)
        rows = list_of(body, "rows", dict, limits)
        completions = []
        for i, row in enumerate(rows):
            if "completion" not in row:
                raise HTTPProblem(422, f"rows[{i}] has no 'completion'")
            completions.append(check_text(row["completion"], f"rows[{i}].completion", limits.max_completion_chars))
            check_text(row.get("prompt", ""), f"rows[{i}].prompt", limits.max_completion_chars)
            for key, value in row.items():
                if key in reserved:
                    raise HTTPProblem(422, f"rows[{i}] has a column named {key!r}, which the scorer takes as its "
                                           f"own argument; rename it (reserved: {sorted(reserved)})")
                if key not in ("prompt", "completion"):
                    check_value(value, f"rows[{i}].{key}", limits.max_field_chars)

        def run() -> list[Any]:
            return score_rows(reward_set, *batch_from_rows(rows))

        out = await scored("score", run, deadline)
        payload = []
        for row in out:
            metrics.count_statuses(r.status for r in row["rewards"].values())
            rewards = {k: v.to_dict() for k, v in row["rewards"].items()}
            for result in rewards.values():
                result["reason"] = _cut(result.get("reason"), limits.max_reason_chars)
            payload.append({"total": row["total"], "rewards": rewards})
        return JSONResponse({"rows": payload})

    async def verify(request: Request, deadline: float, held: list[int]) -> Response:
        body = await read_json(request, limits, deadline, bodies, held)
        items = list_of(body, "items", dict, limits)
        try:
            config = request_config(server_config, body.get("config"))
        except ConfigError as exc:
            raise HTTPProblem(422, str(exc)) from None
        for i, item in enumerate(items):
            gold = item.get("gold")
            if "completion" not in item or isinstance(gold, bool) or not isinstance(gold, (str, int, float)):
                raise HTTPProblem(422, f"items[{i}] needs 'completion' (text or chat) and 'gold' (text or a number)")
            check_text(item["completion"], f"items[{i}].completion", limits.max_completion_chars)
            check_value(gold, f"items[{i}].gold", limits.max_field_chars)
        verdicts = await scored("verify", lambda: verify_batch([it["completion"] for it in items],
                                                               [str(it["gold"]) for it in items], config), deadline)
        metrics.count_statuses(v.status for v in verdicts)
        return JSONResponse({"verdicts": [{**v.to_dict(), "reason": _cut(v.reason, limits.max_reason_chars)}
                                          for v in verdicts]})

    async def healthz(request: Request, deadline: float, held: list[int]) -> Response:
        stuck = slots.stuck()
        if stuck >= slots.size:
            raise HTTPProblem(503, f"wedged: all {stuck} scoring slot(s) held over {slots.grace_s:g}s past their "
                                   "deadline by a scorer that does not stop; restart the server")
        return JSONResponse({"status": "ok", "inflight": slots.inflight, "stuck": stuck})

    async def readyz(request: Request, deadline: float, held: list[int]) -> Response:
        if not warm["done"].is_set():
            raise HTTPProblem(503, "warming up: the verifier sandbox is starting", {"Retry-After": "2"})
        if warm["problem"]:
            raise HTTPProblem(503, f"verifier sandbox not ready: {warm['problem']}", {"Retry-After": "5"})
        if slots.stuck() >= slots.size:
            raise HTTPProblem(503, "wedged: every scoring slot is stuck past its deadline", {"Retry-After": "5"})
        return JSONResponse({"status": "ready", "rewards": reward_set.names, "config_bands": bands(server_config)})

    async def prometheus(request: Request, deadline: float, held: list[int]) -> Response:
        metrics.queue_depth, metrics.inflight, metrics.stuck = slots.waiting, slots.inflight, slots.stuck()
        metrics.worker_restarts = sum(get_pool(memory_mb).restarts for memory_mb in pools)
        metrics.cache_bytes = {}
        for cache in all_caches():
            metrics.cache_bytes[cache.name] = metrics.cache_bytes.get(cache.name, 0) + cache.bytes
        return PlainTextResponse(metrics.render(), media_type="text/plain; version=0.0.4")

    routes = [
        Route("/get_reward", endpoint("get_reward", get_reward), methods=["POST"]),
        Route("/v1/score", endpoint("score", score), methods=["POST"]),
        Route("/v1/verify", endpoint("verify", verify), methods=["POST"]),
        Route("/healthz", endpoint("healthz", healthz), methods=["GET"]),
        Route("/readyz", endpoint("readyz", readyz), methods=["GET"]),
        Route("/metrics", endpoint("metrics", prometheus), methods=["GET"]),
    ]
    inner = Starlette(routes=routes, lifespan=lifespan)
    inner.router.redirect_slashes = False  # a redirect would be built from the client's Host and repeat its token

    def authorised(scope: dict[str, Any]) -> bool:
        if token is None:
            return True
        for key, value in scope["headers"]:
            if key == b"authorization":
                scheme, _, given = value.partition(b" ")
                if scheme.lower() == b"bearer":
                    return hmac.compare_digest(given.strip(), token.encode())
        # OpenRLHF's remote reward client posts to the URL as given, with no headers: the token may ride
        # in it (``.../get_reward?access_token=...``); keep such URLs out of shared logs
        query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("access_token", [""])[0]
        return hmac.compare_digest(query.encode("latin-1"), token.encode())

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        """The token check, before routing and before any body is read."""
        if scope["type"] != "http" or scope["path"] == "/healthz" or authorised(scope):
            await inner(scope, receive, send)
            return
        client = scope.get("client")
        refusals.add(client[0] if client else "unknown")
        metrics.observe("unauthorised", 401, 0.0)
        await send({"type": "http.response.start", "status": 401, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(_UNAUTHORISED)).encode()),
            (b"www-authenticate", b"Bearer"), (b"x-request-id", uuid.uuid4().hex[:16].encode()),
            (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": _UNAUTHORISED})

    app.state = inner.state  # type: ignore[attr-defined]
    app.state.metrics = metrics
    app.state.slots = slots
    app.state.drain = drain
    return app
