"""Request bodies of the reward server: read within byte budgets and the deadline, parsed with bounds,
checked field by field. Every refusal is an :class:`HTTPProblem` (a 4xx naming the field and the limit).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from rlvr.jsonl import MAX_DEPTH, JSONError, loads
from rlvr.rewards.base import TRAINER_KWARGS

__all__ = ["HTTPProblem", "ByteBudget", "read_json", "list_of", "check_text", "check_value"]

# keywords of the scoring call itself and of TRL's trainer, which a row's column may not be named
# (a row key ``completions`` would be passed twice); function rewards' own parameters are added per set
RESERVED_COLUMNS = frozenset({"self", "prompts", "completions"}) | TRAINER_KWARGS


class HTTPProblem(Exception):
    """A typed error response: status code, message, optional headers."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers or {}


class ByteBudget:
    """Request bytes held by the server at once, across requests; past it a request gets 503."""

    def __init__(self, limit: int) -> None:
        self.limit, self.used = limit, 0

    def take(self, n: int) -> None:
        if self.used + n > self.limit:
            raise HTTPProblem(503, f"server busy: request bodies held reach {self.limit:,} bytes", {"Retry-After": "1"})
        self.used += n

    def give(self, n: int) -> None:
        self.used -= n


async def read_json(request: Any, limits: Any, deadline: float, budget: ByteBudget, held: list[int]) -> dict[str, Any]:
    """The body as a JSON object; bytes taken from ``budget`` are added to ``held[0]`` (given back by the caller)."""
    from starlette.requests import ClientDisconnect

    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limits.max_body_bytes:
        raise HTTPProblem(413, f"body of {declared} bytes (limit {limits.max_body_bytes})")
    chunks: list[bytes] = []

    async def receive() -> None:
        async for chunk in request.stream():
            if held[0] + len(chunk) > limits.max_body_bytes:
                raise HTTPProblem(413, f"body over {limits.max_body_bytes} bytes")
            budget.take(len(chunk))
            held[0] += len(chunk)
            chunks.append(chunk)

    try:  # a client that never finishes its body hits the deadline, not the server
        await asyncio.wait_for(receive(), timeout=max(0.0, deadline - time.monotonic()))
    except asyncio.TimeoutError:
        raise HTTPProblem(408, f"request body not received within {limits.deadline_s:g}s") from None
    except ClientDisconnect:
        raise HTTPProblem(400, "the client disconnected before sending the whole body") from None
    try:
        text = b"".join(chunks).decode("utf-8") or "null"
    except UnicodeDecodeError as exc:
        raise HTTPProblem(400, f"body is not UTF-8 (byte {exc.start}: {exc.reason})") from None
    del chunks[:]
    try:
        body = loads(text, max_depth=MAX_DEPTH, max_values=limits.max_json_values)
    except JSONError as exc:
        raise HTTPProblem(400, f"body refused: {exc}") from None
    if not isinstance(body, dict):
        raise HTTPProblem(422, f"body must be a JSON object, got {type(body).__name__}")
    return body


def list_of(body: dict[str, Any], key: str, kind: type | tuple[type, ...], limits: Any) -> list[Any]:
    """``body[key]``: a list of at most ``max_rows`` items of ``kind``; text items within the size limits."""
    if key not in body:
        raise HTTPProblem(422, f"missing field {key!r}")
    value = body[key]
    if not isinstance(value, list):
        raise HTTPProblem(422, f"field {key!r} must be a list, got {type(value).__name__}")
    if len(value) > limits.max_rows:
        raise HTTPProblem(413, f"field {key!r} has {len(value)} items (limit {limits.max_rows} per request)")
    for i, item in enumerate(value):
        if not isinstance(item, kind) or isinstance(item, bool):
            raise HTTPProblem(422, f"{key}[{i}] must be {getattr(kind, '__name__', 'text or a number')}, "
                                   f"got {type(item).__name__}")
        if isinstance(item, str):
            check_text(item, f"{key}[{i}]", limits.max_completion_chars if key in ("query", "prompts")
                       else limits.max_field_chars)
    return value


def check_text(value: Any, where: str, limit: int) -> Any:
    """A completion or prompt: text, or chat messages (``{role, content}`` dicts), within ``limit`` characters."""
    if isinstance(value, list):
        size = 0
        for j, message in enumerate(value):
            if not isinstance(message, dict) or not isinstance(message.get("content", ""), (str, list)):
                raise HTTPProblem(422, f"{where}[{j}] must be a chat message {{role, content}}")
            size += len(str(message.get("content", "")))
        if size > limit:
            raise HTTPProblem(413, f"{where} has {size} characters of messages (limit {limit})")
        return value
    if not isinstance(value, str):
        raise HTTPProblem(422, f"{where} must be text or chat messages, got {type(value).__name__}")
    if len(value) > limit:
        raise HTTPProblem(413, f"{where} has {len(value)} characters (limit {limit})")
    return value


def check_value(value: Any, where: str, limit: int) -> None:
    """Any other column value: every text inside it within ``limit`` characters (golds, labels, metadata)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if len(item) > limit:
                raise HTTPProblem(413, f"{where} holds a text of {len(item)} characters (limit {limit})")
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
