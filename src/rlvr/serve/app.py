"""``rlvr serve``: rlvr's rewards and verifier over HTTP (Starlette under uvicorn).

Endpoints: ``POST /get_reward`` (OpenRLHF's remote reward protocol), ``POST /v1/score`` (rows in,
each reward's value, status and reason out), ``POST /v1/verify``, ``GET /healthz`` (always open),
``GET /readyz`` (the verifier sandbox answers), ``GET /metrics`` (Prometheus text).

Guarantees: a bearer token (compared in constant time) closes everything but ``/healthz``; bodies,
rows and completions are size-limited; at most ``max_concurrent`` requests score at once and at most
``max_queue`` wait, the rest get ``503`` with ``Retry-After`` (no unbounded queue); a request past its
deadline gets ``504``; malformed JSON is ``400``, a wrong or missing field ``422`` naming it. Scoring
runs in worker threads; a verifier crash is an ``error`` status for its rows, never a 500 for the
batch. Every response carries ``X-Request-ID`` and logs name it; secrets are never echoed.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import time
import uuid
from dataclasses import dataclass
from typing import Any

from rlvr.serve.metrics import Metrics

logger = logging.getLogger(__name__)

__all__ = ["Limits", "create_app"]


@dataclass(frozen=True)
class Limits:
    max_body_bytes: int = 16 * 1024 * 1024
    max_rows: int = 1024
    max_completion_chars: int = 200_000
    deadline_s: float = 60.0
    max_concurrent: int = 1
    max_queue: int = 32


class HTTPProblem(Exception):
    """A typed error response: status code, message, optional headers."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers or {}


def _list_of(body: dict[str, Any], key: str, kind: type | tuple[type, ...], limits: Limits) -> list[Any]:
    if key not in body:
        raise HTTPProblem(422, f"missing field {key!r}")
    value = body[key]
    if not isinstance(value, list):
        raise HTTPProblem(422, f"field {key!r} must be a list, got {type(value).__name__}")
    if len(value) > limits.max_rows:
        raise HTTPProblem(413, f"field {key!r} has {len(value)} items (limit {limits.max_rows} per request)")
    for i, item in enumerate(value):
        if not isinstance(item, kind):
            raise HTTPProblem(422, f"{key}[{i}] must be {getattr(kind, '__name__', 'text')}, got {type(item).__name__}")
        if isinstance(item, str) and len(item) > limits.max_completion_chars:
            raise HTTPProblem(413, f"{key}[{i}] has {len(item)} characters (limit {limits.max_completion_chars})")
    return value


def create_app(rewards: Any = None, token: str | None = None, limits: Limits | None = None) -> Any:
    """The ASGI app serving a RewardSet (default: ``math_equivalence``)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, PlainTextResponse, Response
    from starlette.routing import Route

    from rlvr.integrations.openrlhf import score_queries
    from rlvr.rewards.scoring import batch_from_rows, build_reward_set, score_rows
    from rlvr.verifiers import VerifierConfig, verify_batch

    limits = limits or Limits()
    reward_set = build_reward_set(rewards)
    metrics = Metrics()
    gate = asyncio.Semaphore(limits.max_concurrent)
    waiting = {"n": 0}

    async def read_json(request: Request) -> dict[str, Any]:
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limits.max_body_bytes:
            raise HTTPProblem(413, f"body of {declared} bytes (limit {limits.max_body_bytes})")
        chunks: list[bytes] = []

        async def receive() -> None:
            size = 0
            async for chunk in request.stream():
                size += len(chunk)
                if size > limits.max_body_bytes:
                    raise HTTPProblem(413, f"body over {limits.max_body_bytes} bytes")
                chunks.append(chunk)

        try:  # a client that never finishes its body hits the deadline, not the server
            await asyncio.wait_for(receive(), timeout=limits.deadline_s)
        except asyncio.TimeoutError:
            raise HTTPProblem(408, f"request body not received within {limits.deadline_s:g}s") from None
        try:
            body = json.loads(b"".join(chunks) or b"null")
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise HTTPProblem(400, f"body is not valid JSON: {exc}") from None
        if not isinstance(body, dict):
            raise HTTPProblem(422, f"body must be a JSON object, got {type(body).__name__}")
        return body

    def authorised(request: Request) -> bool:
        if token is None:
            return True
        given = request.headers.get("authorization", "")
        scheme, _, value = given.partition(" ")
        if scheme.lower() == "bearer":
            return hmac.compare_digest(value.strip().encode(), token.encode())
        # OpenRLHF's remote reward client posts to the URL as given, with no headers: the token may ride
        # in it (``.../get_reward?access_token=...``); keep such URLs out of shared logs
        return hmac.compare_digest(request.query_params.get("access_token", "").encode(), token.encode())

    def endpoint(name: str, work: Any, open_: bool = False) -> Any:
        async def handle(request: Request) -> Response:
            rid = request.headers.get("x-request-id") or uuid.uuid4().hex[:16]
            started = time.perf_counter()
            code = 500
            try:
                if not open_ and not authorised(request):
                    raise HTTPProblem(401, "missing or wrong bearer token", {"WWW-Authenticate": "Bearer"})
                response = await work(request)
                code = response.status_code
            except HTTPProblem as problem:
                code = problem.status
                response = JSONResponse({"error": problem.message, "request_id": rid}, status_code=code,
                                        headers=problem.headers)
            except Exception as exc:  # a bug: say so without leaking internals, keep the server up
                code = 500
                logger.exception("request %s to %s failed", rid, name)
                response = JSONResponse({"error": f"internal error ({type(exc).__name__})", "request_id": rid},
                                        status_code=500)
            response.headers["X-Request-ID"] = rid
            metrics.observe(name, code, time.perf_counter() - started)
            if code >= 400:
                logger.info("request %s %s -> %d", rid, name, code)
            return response
        return handle

    async def scored(fn: Any, *args: Any) -> Any:
        """Run ``fn`` in a worker thread under the concurrency gate and the request deadline."""
        if gate.locked() and waiting["n"] >= limits.max_queue:
            raise HTTPProblem(503, "server busy: too many requests waiting", {"Retry-After": "1"})
        waiting["n"] += 1
        metrics.queue_depth = waiting["n"]
        try:
            await asyncio.wait_for(gate.acquire(), timeout=limits.deadline_s)
        except asyncio.TimeoutError:
            raise HTTPProblem(503, "server busy: no slot within the deadline", {"Retry-After": "1"}) from None
        finally:
            waiting["n"] -= 1
            metrics.queue_depth = waiting["n"]
        metrics.inflight += 1
        try:
            return await asyncio.wait_for(asyncio.to_thread(fn, *args), timeout=limits.deadline_s)
        except asyncio.TimeoutError:
            raise HTTPProblem(504, f"scoring exceeded the {limits.deadline_s:g}s request deadline") from None
        finally:
            metrics.inflight -= 1
            gate.release()

    async def get_reward(request: Request) -> Response:
        body = await read_json(request)
        queries = _list_of(body, "query", str, limits)
        prompts = _list_of(body, "prompts", str, limits) if "prompts" in body else [""] * len(queries)
        labels = _list_of(body, "labels", (str, int, float), limits) if "labels" in body else [""] * len(queries)
        if not len(queries) == len(prompts) == len(labels):
            raise HTTPProblem(422, f"query, prompts and labels differ in length ({len(queries)}, {len(prompts)}, "
                                   f"{len(labels)})")
        result = await scored(score_queries, reward_set, queries, prompts, [str(x) for x in labels])
        for statuses in result["statuses"]:
            metrics.count_statuses(statuses.values())
        return JSONResponse({k: result[k] for k in ("rewards", "scores", "extra_logs")})

    async def score(request: Request) -> Response:
        body = await read_json(request)
        rows = _list_of(body, "rows", dict, limits)
        for i, row in enumerate(rows):
            c = row.get("completion")
            if not isinstance(c, (str, list)):
                raise HTTPProblem(422, f"rows[{i}].completion must be text or chat messages")
            if isinstance(c, str) and len(c) > limits.max_completion_chars:
                raise HTTPProblem(413, f"rows[{i}].completion has {len(c)} characters (limit {limits.max_completion_chars})")

        def run() -> list[Any]:
            return score_rows(reward_set, *batch_from_rows(rows))

        out = await scored(run)
        payload = []
        for row in out:
            metrics.count_statuses(r.status for r in row["rewards"].values())
            payload.append({"total": row["total"], "rewards": {k: v.to_dict() for k, v in row["rewards"].items()}})
        return JSONResponse({"rows": payload})

    async def verify(request: Request) -> Response:
        body = await read_json(request)
        items = _list_of(body, "items", dict, limits)
        try:
            config = VerifierConfig.from_dict(body.get("config") or {})
        except Exception as exc:
            raise HTTPProblem(422, f"config: {exc}") from None
        for i, item in enumerate(items):
            if not isinstance(item.get("completion"), (str, list)) or "gold" not in item:
                raise HTTPProblem(422, f"items[{i}] needs 'completion' (text or chat) and 'gold'")
        verdicts = await scored(verify_batch, [it["completion"] for it in items], [str(it["gold"]) for it in items],
                                config)
        metrics.count_statuses(v.status for v in verdicts)
        return JSONResponse({"verdicts": [v.to_dict() for v in verdicts]})

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request) -> Response:
        try:
            v = await asyncio.wait_for(asyncio.to_thread(verify_batch, ["\\boxed{x+1}"], ["1+x"]), timeout=30)
        except Exception as exc:
            raise HTTPProblem(503, f"verifier not ready: {type(exc).__name__}", {"Retry-After": "5"}) from None
        if not v[0].correct:
            raise HTTPProblem(503, f"verifier sandbox not ready: {v[0].status}", {"Retry-After": "5"})
        return JSONResponse({"status": "ready", "rewards": reward_set.names})

    async def prometheus(request: Request) -> Response:
        return PlainTextResponse(metrics.render(), media_type="text/plain; version=0.0.4")

    routes = [
        Route("/get_reward", endpoint("get_reward", get_reward), methods=["POST"]),
        Route("/v1/score", endpoint("score", score), methods=["POST"]),
        Route("/v1/verify", endpoint("verify", verify), methods=["POST"]),
        Route("/healthz", endpoint("healthz", healthz, open_=True), methods=["GET"]),
        Route("/readyz", endpoint("readyz", readyz), methods=["GET"]),
        Route("/metrics", endpoint("metrics", prometheus), methods=["GET"]),
    ]
    app = Starlette(routes=routes)
    app.state.metrics = metrics
    return app
