"""``remote``: a reward scored by an ``rlvr serve`` server (rewards computed away from the trainer)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from rlvr.rewards.base import TRAINER_KWARGS, Reward, RewardResult
from rlvr.rewards.registry import reward
from rlvr.typed import param


@reward("remote")
class Remote(Reward):
    """The total (or one reward's value) that a reward server returns for each completion.

    The rows sent carry the prompt, the completion and every dataset column TRL passes.
    """

    @dataclass(frozen=True)
    class Params:
        url: str = param("http://127.0.0.1:8000", "the server's base URL")
        token_env: str = param("RLVR_SERVE_TOKEN", "environment variable holding the bearer token (if any)")
        reward: str | None = param(None, "one reward of the server's set to use (default: the weighted total)")
        timeout_s: float = param(120.0, "per-request timeout", min=0.1)
        retries: int = param(3, "retries on connection errors and 429/503/504", min=0)

    def setup(self) -> None:
        self._client: Any = None

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state["_client"] = None  # a connection pool does not cross processes
        return state

    def score(self, completions: list[str], prompts: Any, **columns: Any) -> list[RewardResult]:
        from rlvr.client import RewardClient

        if self._client is None:
            self._client = RewardClient(self.p.url, os.environ.get(self.p.token_env), self.p.timeout_s, self.p.retries)
        keys = [k for k, v in columns.items() if isinstance(v, list) and len(v) == len(completions)
                and k not in TRAINER_KWARGS]
        rows = [{"prompt": (prompts[i] if prompts is not None else ""), "completion": c,
                 **{k: columns[k][i] for k in keys}} for i, c in enumerate(completions)]
        out = []
        for row in self._client.score(rows)["rows"]:
            if self.p.reward is None:
                statuses = sorted({r["status"] for r in row["rewards"].values()})
                out.append(RewardResult(row["total"], "/".join(statuses), "remote total: " + "; ".join(
                    f"{k} {r['value']} [{r['status']}]" for k, r in row["rewards"].items())))
            else:
                r = row["rewards"][self.p.reward]
                out.append(RewardResult(r["value"], r["status"], f"remote: {r['reason']}"))
        return out
