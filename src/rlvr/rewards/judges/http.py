"""An OpenAI-compatible chat-completions server as judge (vLLM ``serve``, SGLang, TGI, llama.cpp's
server, ``transformers serve``, a hosted API).

One POST to ``{url}/chat/completions`` per judgment (``n=1``: several servers ignore ``n``), at most
``max_concurrency`` in flight. Each call has a deadline (``timeout_s``, retries included); connection
errors, timeouts short of the deadline, 429 and 5xx are retried with exponential backoff and jitter
(a ``Retry-After`` is honoured within the deadline); any other answer ends the call. A call that
fails is a reply with an error status and the cause, never an exception. Token counts come from the
response's ``usage``.
"""

from __future__ import annotations

import logging
import os
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlparse

from rlvr.errors import ConfigError, DependencyMissingError
from rlvr.rewards.judges.backends import JudgeBackend, JudgeCall, JudgeReply

logger = logging.getLogger(__name__)

__all__ = ["OpenAICompatibleJudge"]

_RETRY_STATUS = {408, 429, 500, 502, 503, 504}


class OpenAICompatibleJudge(JudgeBackend):
    """``url``: the base URL (``http://host:port/v1``; a full ``.../chat/completions`` URL is kept as
    is); ``model``: the served model's id; ``api_key_env``: variable holding a bearer token, if any."""

    kind = "http"

    def __init__(self, url: str, model: str | None, api_key_env: str = "OPENAI_API_KEY", max_concurrency: int = 8,
                 retries: int = 3, backoff_s: float = 0.5, timeout_s: float = 120.0,
                 extra_body: dict[str, Any] | None = None):
        parsed = urlparse(url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ConfigError(f"judge url={url!r} is not an http(s) URL; use e.g. http://127.0.0.1:8000/v1")
        if not model:
            raise ConfigError("backend 'http' needs judge_model: the id the server serves "
                              f"(GET {url.rstrip('/')}/models lists them)")
        if max_concurrency < 1 or retries < 0 or backoff_s < 0 or not timeout_s > 0:
            raise ConfigError("max_concurrency >= 1, retries >= 0, backoff_s >= 0 and timeout_s > 0 are required")
        try:
            import httpx  # noqa: F401
        except ImportError as exc:
            raise DependencyMissingError("backend 'http' needs httpx: pip install 'rlvr[judge]'") from exc
        base = url.rstrip("/")
        self.endpoint = base if base.endswith("/chat/completions") else base + "/chat/completions"
        self.model = self.model_id = model
        self.api_key_env, self.max_concurrency, self.retries = api_key_env, max_concurrency, retries
        self.backoff_s, self.timeout_s, self.extra_body = backoff_s, timeout_s, dict(extra_body or {})
        self._loaded: Any = None  # the httpx client
        self._lock = threading.Lock()

    def _client(self) -> Any:
        with self._lock:
            if self._loaded is None:
                import httpx

                key = os.environ.get(self.api_key_env) if self.api_key_env else None
                headers = {"Authorization": f"Bearer {key}"} if key else {}
                limits = httpx.Limits(max_connections=self.max_concurrency, max_keepalive_connections=self.max_concurrency)
                self._loaded = httpx.Client(headers=headers, limits=limits)
        return self._loaded

    def generate(self, calls: list[JudgeCall]) -> list[JudgeReply]:
        if not calls:
            return []
        with ThreadPoolExecutor(max_workers=min(self.max_concurrency, len(calls)), thread_name_prefix="judge") as pool:
            return list(pool.map(self._one, calls))

    def _body(self, call: JudgeCall) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "messages": call.as_messages(), "temperature": call.temperature,
                                "max_tokens": call.max_tokens, "n": 1, "stream": False}
        if call.temperature > 0:
            body["seed"] = call.seed
        return {**body, **self.extra_body}

    def _one(self, call: JudgeCall) -> JudgeReply:
        import httpx

        deadline = time.monotonic() + self.timeout_s
        failure = JudgeReply.failed("timeout", f"no answer from {self.endpoint} within {self.timeout_s:g} s")
        for attempt in range(self.retries + 1):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            wait = self.backoff_s * (2 ** attempt) * (0.5 + random.random())
            try:
                response = self._client().post(self.endpoint, json=self._body(call),
                                               timeout=httpx.Timeout(remaining, connect=min(remaining, 10.0)))
            except httpx.TimeoutException:
                failure = JudgeReply.failed("timeout", f"{self.endpoint} did not answer within the "
                                                       f"{self.timeout_s:g} s deadline (attempt {attempt + 1})")
                continue
            except httpx.TransportError as exc:  # refused, reset, closed mid-answer: the server may come back
                failure = JudgeReply.failed("connection_error", f"{self.endpoint}: {type(exc).__name__}: {exc} "
                                                                f"(after {attempt + 1} attempt(s))")
            else:
                if response.status_code == 200:
                    return self._reply(response)
                detail = " ".join(response.text.split())[:200]
                failure = JudgeReply.failed(f"http_{response.status_code}", f"{self.endpoint} answered "
                                                                            f"{response.status_code}: {detail}")
                if response.status_code not in _RETRY_STATUS:
                    return failure
                retry_after = response.headers.get("retry-after", "")
                if retry_after.replace(".", "", 1).isdigit():
                    wait = max(wait, float(retry_after))
            if attempt < self.retries:
                time.sleep(max(0.0, min(wait, deadline - time.monotonic())))
        return failure

    def _reply(self, response: Any) -> JudgeReply:
        try:
            data = response.json()
            text = data["choices"][0]["message"]["content"]
            if not isinstance(text, str):
                raise TypeError(f"message content is {type(text).__name__}")
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            return JudgeReply.failed("bad_response", f"{self.endpoint} sent no chat completion "
                                                     f"({type(exc).__name__}: {exc}): {response.text[:200]!r}")
        usage = data.get("usage") or {}
        return JudgeReply(text, prompt_tokens=int(usage.get("prompt_tokens") or 0),
                          completion_tokens=int(usage.get("completion_tokens") or 0))
