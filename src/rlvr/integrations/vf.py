"""rlvr rewards inside the ``verifiers`` library (prime-rl's environments): v1 hooks, a math Task and
Taskset, and wrappers for the legacy (<= 0.3) ``Rubric``.

v1 (``import verifiers.v1 as vf``, 0.4.x): :func:`reward_hooks` turns a RewardSet into async
``@vf.reward`` functions, one per reward with the RewardSet's weight, that read the trace's last
model reply. The whole RewardSet is scored once per trace (the hooks of one trace share that
result), so gates and group-relative rewards keep their meaning, and each reward's status and
reason land in ``trace.info["rlvr"]``. verifiers records floats only: an abstaining reward (None)
scores 0.0 there and is flagged ``abstained`` in ``trace.info``. :class:`RlvrMathTaskset` yields
DAPO-Math-style rows (any ``rlvr.datasets`` loader) as :class:`RlvrMathTask` s scored this way.

Legacy ``Rubric``: it treats a function with a parameter named ``prompts``, ``completions``,
``answers``, ``states``, ``tasks`` or ``infos`` as a *group* function. :func:`legacy_reward_funcs`
returns per-rollout functions (``completion``, ``answer``, ``prompt``, ``info``) and their weights.

verifiers is imported only when these are called, never at rlvr import time. A completion whose
reasoning a server split off (``reasoning_content``) is put back as ``<think>…</think>`` before the
reply, so format rewards see what the model wrote.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterable
from typing import Any

from rlvr.rewards.scoring import ScoredRow, score_rows, shared_reward_set


# the Rlvr* classes subclass verifiers' own and are built on first access (module __getattr__)
__all__ = ["reward_hooks", "trace_completion", "legacy_reward_funcs", "RlvrMathTask", "RlvrMathTaskset",  # noqa: F822
           "RlvrTaskConfig", "RlvrTasksetConfig", "RlvrTaskData"]  # noqa: F822

_LOCK = threading.Lock()


def _message_text(message: Any) -> str:
    content = getattr(message, "content", None) if not isinstance(message, dict) else message.get("content")
    reasoning = (getattr(message, "reasoning_content", None) if not isinstance(message, dict)
                 else message.get("reasoning_content"))
    if isinstance(content, list):  # content parts: keep the text ones
        content = "".join(p.get("text", "") if isinstance(p, dict) else str(getattr(p, "text", "")) for p in content)
    text = content or ""
    return f"<think>{reasoning}</think>{text}" if reasoning else text


def trace_completion(trace: Any) -> str:
    """The model's final reply on a v1 trace, unstripped (lengths count), reasoning put back inline."""
    if getattr(trace, "root_reply", None) is not None:
        return trace.root_reply
    replies = trace.assistant_messages
    return _message_text(replies[-1]) if replies else ""


def _task_columns(task: Any) -> tuple[Any, dict[str, Any]]:
    data = task.model_dump(mode="python") if hasattr(task, "model_dump") else dict(task or {})
    prompt = data.pop("prompt", None)
    if isinstance(prompt, list):
        prompt = [{"role": m.get("role"), "content": m.get("content")} for m in prompt]
    for key in ("idx", "id", "name", "description", "system_prompt", "image", "workdir", "agent_user", "skills",
                "network_allow", "network_block", "artifacts", "artifact_max_bytes", "timeout", "resources"):
        data.pop(key, None)
    return prompt, data


def _score_one(rs: Any, task: Any, trace: Any) -> ScoredRow:
    prompt, columns = _task_columns(task)
    return score_rows(rs, [prompt if prompt is not None else ""], [trace_completion(trace)],
                      {k: [v] for k, v in columns.items()})[0]


class _SharedScore:
    """One RewardSet score per trace, shared by that trace's hooks (verifiers runs them concurrently)."""

    def __init__(self, rs: Any) -> None:
        self.rs = rs
        self.pending: dict[str, tuple[asyncio.Future, set[str]]] = {}

    async def get(self, name: str, task: Any, trace: Any) -> ScoredRow:
        key = trace.id
        if key not in self.pending:
            future = asyncio.ensure_future(asyncio.to_thread(self._safe, task, trace))
            self.pending[key] = (future, set(self.rs.names))
        future, waiting = self.pending[key]
        try:
            return await asyncio.shield(future)
        finally:
            waiting.discard(name)
            if not waiting:
                self.pending.pop(key, None)

    def _safe(self, task: Any, trace: Any) -> ScoredRow:
        # a reward that raises costs only its own value (the scoring core); what still raises (a config
        # that cannot load, a reward failing trace after trace) fails the scoring loudly
        row = _score_one(self.rs, task, trace)
        info = getattr(trace, "info", None)
        if isinstance(info, dict):
            info["rlvr"] = {n: {"value": r.value, "status": r.status, "reason": r.reason, "abstained": r.value is None}
                            for n, r in row.rewards.items()}
        return row


def reward_hooks(rewards: Any = None) -> list[Callable[..., Any]]:
    """``@vf.reward`` async functions ``(task, trace) -> float``, one per reward of the RewardSet
    (a config path, inline config, RewardSet, or None: ``RLVR_REWARDS``, else ``math_equivalence``), named as the
    RewardSet names them and weighted as it weights them."""
    import verifiers.v1 as vf

    rs = shared_reward_set(rewards)
    shared = _SharedScore(rs)
    hooks = []
    for name, spec in zip(rs.names, rs.specs):
        async def hook(task: Any, trace: Any, _name: str = name) -> float:
            return (await shared.get(_name, task, trace)).value(_name)

        hook.__name__ = hook.__qualname__ = name
        hooks.append(vf.reward(hook, weight=float(spec.weight)))
    return hooks


def legacy_reward_funcs(rewards: Any = None) -> tuple[list[Callable[..., float]], list[float]]:
    """Per-rollout functions for the legacy ``vf.Rubric(funcs=..., weights=...)``: each takes
    ``completion`` (a string or chat messages), ``answer``, ``prompt`` and ``info`` (extra columns)
    and returns its reward's value (0.0 when it abstains). Parameter names are singular on purpose:
    the Rubric would call a function with ``completions`` once per group. The functions of one
    rollout share one RewardSet score (the last rollout's is kept)."""
    import json

    rs = shared_reward_set(rewards)
    last: dict[str, Any] = {}

    def scored(completion: Any, answer: Any, prompt: Any, info: Any) -> ScoredRow:
        text = _message_text(completion[-1]) if isinstance(completion, list) and completion else (
            completion if isinstance(completion, str) else "")
        columns = {k: [v] for k, v in (info if isinstance(info, dict) else {}).items()
                   if k not in ("answer", "prompt", "completion")}
        key = json.dumps([text, "" if answer is None else str(answer), prompt, info], default=str, sort_keys=True)
        with _LOCK:
            if last.get("key") == key:
                return last["row"]
        row = score_rows(rs, [prompt if prompt is not None else ""], [text],
                         {"answer": ["" if answer is None else str(answer)], **columns})[0]
        with _LOCK:
            last.update(key=key, row=row)
        return row

    funcs = []
    for name in rs.names:
        def func(completion: Any, answer: Any = None, prompt: Any = None, info: Any = None, _name: str = name,
                 **_: Any) -> float:
            return scored(completion, answer, prompt, info).value(_name)

        func.__name__ = func.__qualname__ = name
        funcs.append(func)
    return funcs, [float(s.weight) for s in rs.specs]


def _define_task_classes() -> tuple[type, type, type, type, type]:
    """The v1 Task/Taskset classes (built on first use so rlvr imports without verifiers)."""
    import verifiers.v1 as vf
    from pydantic import ConfigDict

    class RlvrTaskData(vf.TaskData):
        """A math row: the prompt, its gold ``answer``, and any other dataset columns."""

        model_config = ConfigDict(frozen=True, extra="allow")
        answer: str = ""

    class RlvrTaskConfig(vf.TaskConfig):
        rlvr_rewards: str | None = None
        """The RewardSet file (or inline config) that scores each trace; unset: math_equivalence."""

    class RlvrMathTask(vf.Task[RlvrTaskData, vf.State, RlvrTaskConfig]):
        """Scored by the RewardSet in its config, one ``@vf.reward`` per reward."""

        def hooks(self, attr: str) -> list[Callable[..., Any]]:
            found = super().hooks(attr)
            if attr != "reward":
                return found
            mine = reward_hooks(self.config.rlvr_rewards)
            names = {h.__name__ for h in mine}
            return [h for h in found if h.__name__ not in names] + mine

    class RlvrTasksetConfig(vf.TasksetConfig):
        dataset: str = "dapo-math"
        """An rlvr.datasets loader (dapo-math, math-500, gsm8k, aime-2024, ...) or a generic file."""
        path: str | None = None
        """A local file or folder for the loader (no download when set)."""
        template: str = "boxed"
        """The prompt template (boxed, r1, ...)."""
        limit: int | None = None
        task: RlvrTaskConfig = RlvrTaskConfig()

    class RlvrMathTaskset(vf.Taskset[RlvrMathTask, RlvrTasksetConfig]):
        """DAPO-Math-style rows from an rlvr loader, as rlvr-scored tasks."""

        def load(self) -> Iterable[Any]:
            from rlvr.datasets import load

            shared_reward_set(self.config.task.rlvr_rewards)  # a config that cannot load fails here, at start
            ds = load(self.config.dataset, self.config.path, template=self.config.template)
            n = len(ds) if self.config.limit is None else min(self.config.limit, len(ds))
            for i in range(n):
                row = dict(ds[i])
                yield RlvrMathTask(RlvrTaskData(**{**row, "answer": str(row.get("answer", "")), "id": str(row.get("id", i))}),
                           self.config.task)

    classes = (RlvrTaskData, RlvrTaskConfig, RlvrMathTask, RlvrTasksetConfig, RlvrMathTaskset)
    for cls in classes:  # importable (and picklable) as rlvr.integrations.vf.<name>
        cls.__module__, cls.__qualname__ = __name__, cls.__name__
    return classes


_CLASSES: tuple[type, ...] | None = None


def __getattr__(name: str) -> Any:
    global _CLASSES
    index = {"RlvrTaskData": 0, "RlvrTaskConfig": 1, "RlvrMathTask": 2, "RlvrTasksetConfig": 3, "RlvrMathTaskset": 4}
    if name not in index:
        raise AttributeError(name)
    if _CLASSES is None:
        _CLASSES = _define_task_classes()
    return _CLASSES[index[name]]
