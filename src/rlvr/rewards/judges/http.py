"""An OpenAI-compatible chat-completions server as judge (vLLM ``serve``, SGLang, TGI, llama.cpp's
server, ``transformers serve``, a hosted API).

One POST to ``{url}/chat/completions`` per judgment (``n=1``: several servers ignore ``n``), at most
``max_concurrency`` in flight. Each call has a deadline (``timeout_s``, retries included); connection
errors, timeouts short of the deadline, 429 and 5xx are retried with exponential backoff and jitter
(a ``Retry-After`` is honoured within the deadline); any other answer ends the call. A call that
fails is a reply with an error status and the cause, never an exception. Token counts come from the
response's ``usage``.

Scores from the distribution (when a judgment's text does not parse): the score prefix is sent as
the start of the answer and one token is asked for with ``top_logprobs``. ``score_endpoint: chat``
sends it as a final assistant message with ``continue_final_message`` (vLLM, SGLang);
``completions`` renders the chat prompt here with the judge's own ``tokenizer`` (its chat template)
and posts raw text to ``/completions`` with ``logprobs`` (llama.cpp's servers, vLLM, any server of
the legacy endpoint). A server that returns no log-probabilities is asked once, then, with
``constrained`` set, to write the score line under a grammar (llama.cpp: ``grammar``) or a regular
expression (vLLM: ``structured_outputs``); without it the text parse stands.
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
from rlvr.rewards.judges.distribution import (NO_PROBABILITIES, DistributionScore, PositionScore, Scale, logprob_dict,
                                             read_scores, score_prefix)
from rlvr.rewards.judges.parse import parse_judgment

logger = logging.getLogger(__name__)

__all__ = ["OpenAICompatibleJudge", "SCORE_ENDPOINTS", "CONSTRAINED", "score_grammar", "score_regex"]

_RETRY_STATUS = {408, 429, 500, 502, 503, 504}
SCORE_ENDPOINTS = ("chat", "completions")
CONSTRAINED = ("none", "grammar", "regex")


def _alternatives(scale: Scale) -> list[str]:
    return sorted(scale.values, key=lambda v: (-len(v), v))  # longest first: "10" before "1"


def score_grammar(n: int, scale: Scale) -> str:
    """A GBNF grammar (llama.cpp) of the rest of a score line: ``n`` values, ``, `` between, ``}``."""
    values = " | ".join(f'"{v}"' for v in _alternatives(scale))
    rest = ' ", " score' * (n - 1)
    return f'root ::= score{rest} "}}"\nscore ::= {values}'


def score_regex(n: int, scale: Scale) -> str:
    """The same as a regular expression (vLLM's structured outputs)."""
    value = "(" + "|".join(_alternatives(scale)) + ")"
    return value + "".join([", " + value] * (n - 1)) + "\\}"


class OpenAICompatibleJudge(JudgeBackend):
    """``url``: the base URL (``http://host:port/v1``; a full ``.../chat/completions`` URL is kept as
    is); ``model``: the served model's id; ``api_key_env``: variable holding a bearer token, if any."""

    kind = "http"

    def __init__(self, url: str, model: str | None, api_key_env: str = "OPENAI_API_KEY", max_concurrency: int = 8,
                 retries: int = 3, backoff_s: float = 0.5, timeout_s: float = 120.0,
                 extra_body: dict[str, Any] | None = None, logprobs: bool = True, score_endpoint: str = "chat",
                 tokenizer: str | None = None, top_logprobs: int = 20, constrained: str = "none"):
        parsed = urlparse(url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ConfigError(f"judge url={url!r} is not an http(s) URL; use e.g. http://127.0.0.1:8000/v1")
        if not model:
            raise ConfigError("backend 'http' needs judge_model: the id the server serves "
                              f"(GET {url.rstrip('/')}/models lists them)")
        if max_concurrency < 1 or retries < 0 or backoff_s < 0 or not timeout_s > 0:
            raise ConfigError("max_concurrency >= 1, retries >= 0, backoff_s >= 0 and timeout_s > 0 are required")
        if score_endpoint not in SCORE_ENDPOINTS:
            raise ConfigError(f"score_endpoint={score_endpoint!r}; use one of {list(SCORE_ENDPOINTS)}")
        if constrained not in CONSTRAINED:
            raise ConfigError(f"constrained={constrained!r}; use one of {list(CONSTRAINED)}")
        if score_endpoint == "completions" and not tokenizer:
            raise ConfigError("score_endpoint 'completions' needs tokenizer: the judge's tokenizer folder or hub id, "
                              "whose chat template renders the prompt (the server is sent raw text)")
        if not 1 <= top_logprobs <= 20:
            raise ConfigError(f"top_logprobs={top_logprobs}; OpenAI-compatible servers take 1..20")
        try:
            import httpx  # noqa: F401
        except ImportError as exc:
            raise DependencyMissingError("backend 'http' needs httpx: pip install 'rlvr[judge]'") from exc
        base = url.rstrip("/")
        self.endpoint = base if base.endswith("/chat/completions") else base + "/chat/completions"
        self.model = self.model_id = model
        self.api_key_env, self.max_concurrency, self.retries = api_key_env, max_concurrency, retries
        self.backoff_s, self.timeout_s, self.extra_body = backoff_s, timeout_s, dict(extra_body or {})
        self.logprobs, self.score_endpoint, self.tokenizer = logprobs, score_endpoint, tokenizer
        self.top_logprobs, self.constrained = top_logprobs, constrained
        self.completions_url = self.endpoint.rsplit("/chat/completions", 1)[0] + "/completions"
        self.distribution = (f"HTTP top_logprobs ({score_endpoint})" if logprobs else
                             f"HTTP constrained decoding ({constrained})" if constrained != "none" else "")
        self._loaded: Any = None  # the httpx client
        self._tok: Any = None
        self._no_logprobs = self._no_constrained = False
        self._lock = threading.Lock()

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state["_tok"] = None
        return state

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
        response = self._post(self.endpoint, self._body(call))
        return response if isinstance(response, JudgeReply) else self._reply(response)

    def _post(self, url: str, body: dict[str, Any]) -> Any:
        """The server's 200 response, or a failed :class:`JudgeReply` (retries within the deadline)."""
        import httpx

        deadline = time.monotonic() + self.timeout_s
        failure = JudgeReply.failed("timeout", f"no answer from {url} within {self.timeout_s:g} s")
        for attempt in range(self.retries + 1):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            wait = self.backoff_s * (2 ** attempt) * (0.5 + random.random())
            try:
                response = self._client().post(url, json=body,
                                               timeout=httpx.Timeout(remaining, connect=min(remaining, 10.0)))
            except httpx.TimeoutException:
                failure = JudgeReply.failed("timeout", f"{url} did not answer within the "
                                                       f"{self.timeout_s:g} s deadline (attempt {attempt + 1})")
                continue
            except httpx.TransportError as exc:  # refused, reset, closed mid-answer: the server may come back
                failure = JudgeReply.failed("connection_error", f"{url}: {type(exc).__name__}: {exc} "
                                                                f"(after {attempt + 1} attempt(s))")
            else:
                if response.status_code == 200:
                    return response
                detail = " ".join(response.text.split())[:200]
                failure = JudgeReply.failed(f"http_{response.status_code}", f"{url} answered "
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

    # -- scores from the distribution -------------------------------------------------------------

    def _prompt_text(self, call: JudgeCall) -> str:
        with self._lock:
            if self._tok is None:
                from transformers import AutoTokenizer

                from rlvr.models import resolve_model

                self._tok = AutoTokenizer.from_pretrained(resolve_model(self.tokenizer, "tokenizer"))
        return self._tok.apply_chat_template(call.as_messages(), tokenize=False, add_generation_prompt=True)

    def _prefixed(self, call: JudgeCall, prefix: str, max_tokens: int) -> tuple[str, dict[str, Any]]:
        """(url, body) asking for the continuation of the answer ``prefix``, greedy."""
        common = {"model": self.model, "max_tokens": max_tokens, "temperature": 0.0, "n": 1, "stream": False}
        if self.score_endpoint == "completions":
            return self.completions_url, {**common, "prompt": self._prompt_text(call) + prefix}
        messages = call.as_messages() + [{"role": "assistant", "content": prefix}]
        return self.endpoint, {**common, "messages": messages, "continue_final_message": True,
                               "add_generation_prompt": False}

    def _top(self, response: Any) -> dict[str, float] | None:
        """The first generated token's top log-probabilities as probabilities, or None if absent."""
        try:
            choice = response.json()["choices"][0]
            lp = choice.get("logprobs") or {}
            if isinstance(lp.get("content"), list) and lp["content"]:  # chat: [{token, logprob, top_logprobs}]
                return logprob_dict([(t.get("token"), t.get("logprob")) for t in lp["content"][0].get("top_logprobs") or []])
            if isinstance(lp.get("top_logprobs"), list) and lp["top_logprobs"]:  # completions: [{token: logprob}]
                first = lp["top_logprobs"][0] or {}
                return logprob_dict(list(first.items()))
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            pass
        return None

    def next_tokens(self, items: list[tuple[JudgeCall, str]], kind: str = "scores") -> list[dict[str, float] | None]:
        if not items or self._no_logprobs:
            return [None] * len(items)

        def one(item: tuple[JudgeCall, str]) -> dict[str, float] | None:
            url, body = self._prefixed(item[0], item[1], 1)
            key = "top_logprobs" if self.score_endpoint == "chat" else "logprobs"
            body = {**body, **({"logprobs": True, "top_logprobs": self.top_logprobs} if key == "top_logprobs"
                               else {"logprobs": self.top_logprobs}), **self.extra_body}
            response = self._post(url, body)
            if isinstance(response, JudgeReply):
                if (response.error or "").startswith("http_4") and not self._no_logprobs:
                    self._no_logprobs = True  # the server refuses this request (unknown fields): never ask again
                    logger.warning("judge server %s rejected the log-probability request (%s); %s", url, response.reason,
                                   "constrained decoding is used instead" if self.constrained != "none"
                                   else "judgments whose text does not parse abstain")
                elif not self._no_logprobs:
                    logger.warning("judge %s: no log-probabilities: %s", self.model, response.reason)
                return None
            top = self._top(response)
            if top is None and not self._no_logprobs:
                self._no_logprobs = True
                logger.warning("judge server %s returned no log-probabilities; %s", url,
                               "constrained decoding is used instead" if self.constrained != "none"
                               else "judgments whose text does not parse abstain (set constrained: grammar or regex)")
            return top

        with ThreadPoolExecutor(max_workers=min(self.max_concurrency, len(items)), thread_name_prefix="judge") as pool:
            return list(pool.map(one, items))

    def _constrained(self, item: tuple[JudgeCall, str, int], scale: Scale) -> DistributionScore | None:
        call, text, n = item
        prefix = score_prefix(text)
        url, body = self._prefixed(call, prefix, 4 * n + 4)
        if self.constrained == "grammar":
            body["grammar"] = score_grammar(n, scale)
        else:
            body["structured_outputs"] = {"regex": score_regex(n, scale)}
        response = self._post(url, {**body, **self.extra_body})
        if isinstance(response, JudgeReply):
            if (response.error or "").startswith("http_4") and not self._no_constrained:
                self._no_constrained = True
                logger.warning("judge server %s rejected constrained decoding (%s); judgments whose text does not "
                               "parse abstain", url, response.reason)
            return DistributionScore((), text, self.distribution, f"{NO_PROBABILITIES} (constrained decoding failed: "
                                                                  f"{response.reason})")
        try:
            choice = response.json()["choices"][0]
            written = choice["text"] if "text" in choice else choice["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            return DistributionScore((), text, self.distribution, f"constrained decoding: no completion ({exc})")
        full = prefix + str(written)
        parsed = parse_judgment(full, n, scale.low, scale.high)
        if parsed.scores is None:  # a server that ignored the constraint
            return DistributionScore((), text, self.distribution, f"constrained decoding ignored: {parsed.reason}")
        # the server's sampler could write nothing but a value: all the mass is on the scale by construction
        return DistributionScore(tuple(PositionScore({s: 1.0}, 1.0) for s in parsed.scores), full,
                                 f"HTTP constrained decoding ({self.constrained})")

    def score_judgments(self, items: list[tuple[JudgeCall, str, int]], scale: Scale,
                        min_mass: float) -> list[DistributionScore | None]:
        results: list[DistributionScore | None] = [None] * len(items)
        if self.logprobs and not self._no_logprobs:
            results = list(read_scores(self.next_tokens, items, scale, min_mass, self.distribution))
        if self.constrained == "none":
            return [None if r is not None and r.transient else r for r in results]
        todo = [] if self._no_constrained else [i for i, r in enumerate(results) if r is None or r.transient]
        if todo:
            with ThreadPoolExecutor(max_workers=min(self.max_concurrency, len(todo)), thread_name_prefix="judge") as pool:
                for i, r in zip(todo, pool.map(lambda i: self._constrained(items[i], scale), todo)):
                    results[i] = r
        return [None if r is not None and r.transient else r for r in results]
