"""``RewardClient``: call an ``rlvr serve`` server (retries with backoff, timeouts, typed errors).

>>> client = RewardClient("http://127.0.0.1:8000", token="...")
>>> client.score([{"completion": "\\\\boxed{2}", "answer": "2"}])["rows"][0]["total"]
1.0
"""

from __future__ import annotations

import logging
import time
from typing import Any

from rlvr.errors import DependencyMissingError, RlvrError

logger = logging.getLogger(__name__)

__all__ = ["RewardClient", "RemoteError"]

_RETRY_STATUSES = {429, 502, 503, 504}


class RemoteError(RlvrError):
    """The server refused a request (4xx other than 429) or kept failing after the retries."""


class RewardClient:
    """A thin client of the reward server; thread-safe (one ``httpx.Client`` with a connection pool)."""

    def __init__(self, url: str, token: str | None = None, timeout_s: float = 120.0, retries: int = 3,
                 backoff_s: float = 0.5):
        try:
            import httpx
        except ImportError:
            raise DependencyMissingError("RewardClient needs httpx: pip install 'rlvr[serve]'") from None
        self.url, self.retries, self.backoff_s = url.rstrip("/"), retries, backoff_s
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._http = httpx.Client(timeout=timeout_s, headers=headers)

    def _post(self, path: str, payload: dict[str, Any]) -> dict[str, Any]:
        import httpx

        last: str = ""
        for attempt in range(self.retries + 1):
            try:
                response = self._http.post(self.url + path, json=payload)
            except httpx.TransportError as exc:  # connection refused, reset, timeout: retry
                last = f"{type(exc).__name__}: {exc}"
            else:
                if response.status_code < 400:
                    return response.json()
                message = _message(response)
                if response.status_code not in _RETRY_STATUSES:
                    raise RemoteError(f"{path} -> {response.status_code}: {message}")
                last = f"{response.status_code}: {message}"
                wait = response.headers.get("retry-after")
                if wait and wait.isdigit():
                    time.sleep(min(float(wait), 30.0))
                    continue
            if attempt < self.retries:
                time.sleep(self.backoff_s * 2 ** attempt)
        raise RemoteError(f"{path} failed after {self.retries + 1} attempts: {last}")

    def score(self, rows: list[dict[str, Any]]) -> dict[str, Any]:
        """``POST /v1/score``: each row's rewards (value, status, reason) and total."""
        return self._post("/v1/score", {"rows": rows})

    def verify(self, items: list[dict[str, Any]], config: dict[str, Any] | None = None) -> dict[str, Any]:
        """``POST /v1/verify``: verdicts for ``{completion, gold}`` items."""
        return self._post("/v1/verify", {"items": items, **({"config": config} if config else {})})

    def get_reward(self, queries: list[str], prompts: list[str], labels: list[Any]) -> dict[str, Any]:
        """``POST /get_reward``: OpenRLHF's remote reward protocol."""
        return self._post("/get_reward", {"query": queries, "prompts": prompts, "labels": labels})

    def close(self) -> None:
        self._http.close()


def _message(response: Any) -> str:
    try:
        return str(response.json().get("error", response.text))[:300]
    except ValueError:
        return response.text[:300]
