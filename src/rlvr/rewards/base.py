"""The reward contract: a batch of completions in, one ``float | None`` per completion out.

:class:`Reward` is what every built-in and every registered reward becomes. Calling it follows
TRL's GRPOTrainer signature (``prompts=``, ``completions=``, dataset columns and ``trainer_state``
as keyword lists) and returns ``list[float | None]``; :meth:`Reward.explain` returns the same scores
as :class:`RewardResult` objects that say why. ``None`` means "no opinion on this sample" (TRL leaves
it out of the group baseline), never a silent 0.

Every reward grades the completion's *text* (the last assistant turn of a chat, via
:func:`rlvr.chat.completion_text`), in training, ``rlvr score``, fixtures and audits alike. A
function reward (:class:`FunctionReward`) also gets only the prompts, the dataset columns and its
own parameters, never TRL's trainer-only arguments, unless it is registered with
``raw_inputs=True``: then it gets exactly what the caller passed (chat message lists,
``completion_ids``, ``trainer_state``, ...). It may return floats, ``None`` or :class:`RewardResult`.

Calling a reward applies the failure policy of :mod:`rlvr.rewards.scoring`: a reward that raises
scores ``None`` for that batch, is counted and logged in one line naming the user's ``file:line``;
after ``max_consecutive_failures`` failed batches in a row it raises :class:`RewardFailure`, so a
broken reward cannot silently train a model for hours.
"""

from __future__ import annotations

import dataclasses
import inspect
import logging
import math
import numbers
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

from rlvr.chat import completion_text
from rlvr.errors import ConfigError
from rlvr.rewards.failures import RewardError, RewardFailure, definition_location

logger = logging.getLogger(__name__)

__all__ = ["RewardResult", "Reward", "Reads", "FunctionReward", "RewardFailure", "RewardError", "column_values",
           "TRAINER_KWARGS"]

#: the arguments TRL's GRPOTrainer passes besides prompts, completions and dataset columns
TRAINER_KWARGS = frozenset({"completion_ids", "trainer_state", "log_extra", "log_metric", "environments"})


@dataclass(frozen=True)
class RewardResult:
    """One sample's score with its explanation.

    ``value``: the score (``None`` = no opinion). ``status``: a short machine-readable outcome —
    the verifier's statuses (``correct``, ``incorrect``, ``no_answer``, ``unparseable_gold``,
    ``timeout``, ...) pass through; format rewards use ``ok`` / ``bad_format``; ``error`` when the
    reward raised. ``reason``: one human sentence. ``details``: anything else worth logging.
    """

    value: float | None
    status: str
    reason: str
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def column_values(columns: dict[str, Any], name: str, n: int) -> list[Any]:
    """The dataset column ``name`` (dotted paths reach into dict columns, e.g.
    ``reward_model.ground_truth``), as a list of ``n`` values.

    Raises :class:`ConfigError` naming the columns that are present when it is missing.
    """
    head, _, rest = name.partition(".")
    if head not in columns:
        present = sorted(k for k in columns if k not in TRAINER_KWARGS)
        raise ConfigError(f"dataset column {head!r} is missing; columns present: {present}. "
                          f"Set the reward's gold_column (or the RewardSet's) to one of them")
    values = columns[head]
    if not isinstance(values, (list, tuple)):
        values = [values] * n
    if len(values) != n:
        raise ConfigError(f"column {head!r} has {len(values)} values for {n} completions")
    out = list(values)
    for key in rest.split(".") if rest else []:
        try:
            out = [v[key] for v in out]
        except (KeyError, TypeError, IndexError) as exc:
            raise ConfigError(f"column path {name!r}: a value of {head!r} has no field {key!r}") from exc
    return out


@dataclass(frozen=True)
class Reads:
    """What a reward reads, so tools (``rlvr data lint``) can ask it instead of knowing its name.

    ``columns``: dataset columns it needs (the gold). ``answer_sources``: where it looks for the final
    answer (verifier source names such as ``boxed``, ``answer_line``, ``solution_tag``); ``None`` when
    it reads no answer. ``layout``: the tag layout it scores (``r1``, ``working_out``) or ``None``.
    ``tags``: tags the completion must contain. ``reasoning_open`` / ``think_prefilled``: the opening
    reasoning tag it expects, and whether it expects the chat template to have written it.
    """

    columns: tuple[str, ...] = ()
    answer_sources: frozenset[str] | None = None
    layout: str | None = None
    tags: tuple[str, ...] = ()
    reasoning_open: str | None = None
    think_prefilled: bool | None = None


class Reward:
    """Base class of all rewards: subclass, set ``name``/``description``, implement :meth:`score`.

    Subclasses take their parameters as keyword arguments of ``__init__`` and validate them there
    (raising :class:`ConfigError` with the valid range). Instances are plain picklable objects with
    a stable ``__name__`` (TRL logs ``rewards/<__name__>/mean``).
    """

    name: ClassVar[str] = "reward"
    description: ClassVar[str] = ""
    #: the reward's parameters as a frozen dataclass (fields made with :func:`rlvr.typed.param`);
    #: ``get_reward`` validates a config against it and the instance keeps it as ``self.p``
    Params: ClassVar[type | None] = None
    max_consecutive_failures: int = 3

    def __init__(self, **params: Any) -> None:
        self.__name__ = self.name
        self.stats: Counter[str] = Counter()
        self._consecutive_failures = 0
        self.last_call: tuple[Any, list[RewardResult]] | None = None
        if self.Params is not None:
            import difflib
            import os

            from rlvr.typed import build

            names = [f.name for f in dataclasses.fields(self.Params)]
            unknown = [k for k in params if k not in names]
            if unknown:
                hints = [f"{u} -> {m[0]}" for u in unknown if (m := difflib.get_close_matches(u, names, n=1))]
                raise ConfigError(f"reward {self.name!r} has no parameter(s) {unknown}"
                                  + (f" (did you mean {', '.join(hints)}?)" if hints else "") + f"; parameters: {names}")
            params = {k: os.fspath(v) if isinstance(v, os.PathLike) else v for k, v in params.items()}
            self.p = build(self.Params, params, self.name)
            for f in dataclasses.fields(self.p):  # read as attributes too: self.max_length, ...
                setattr(self, f.name, getattr(self.p, f.name))
            self.setup()
        elif params:
            raise ConfigError(f"reward {self.name!r} takes no parameters, got {sorted(params)}")

    def setup(self) -> None:
        """Derived state built once from ``self.p`` (compiled patterns, verifier configs)."""

    def reads(self) -> Reads:
        """What this reward reads (see :class:`Reads`); the default reads nothing in particular."""
        gold = getattr(self.p, "gold_column", None) if self.Params is not None else None
        return Reads(columns=(gold,) if gold else ())

    # -- to implement --------------------------------------------------------------------------
    def score(self, completions: list[str], prompts: list[Any] | None, **columns: Any) -> list[RewardResult]:
        """One :class:`RewardResult` per completion (completions are already plain text)."""
        raise NotImplementedError

    # -- the contract ----------------------------------------------------------------------------
    def explain(self, prompts: Sequence[Any] | None = None, completions: Sequence[Any] | None = None,
                **columns: Any) -> list[RewardResult]:
        """Scores with reasons. Raises on failure (use ``__call__`` for the failure policy)."""
        if completions is None:
            raise TypeError(f"reward {self.__name__!r} needs completions=")
        cached = _memo_get(self, prompts, completions, columns)
        if cached is not None:
            return cached
        texts, unreadable = [], {}
        for i, completion in enumerate(completions):
            try:
                texts.append(completion_text(completion))
            except TypeError as exc:  # one malformed row (a chat with no assistant turn) costs only that row
                texts.append("")
                unreadable[i] = str(exc)
        results = self.score(texts, list(prompts) if prompts is not None else None, **columns)
        if len(results) != len(texts):
            raise RewardError(self.__name__, f"returned {len(results)} results for {len(texts)} completions",
                              self.defined_at())
        for i, why in unreadable.items():
            results[i] = RewardResult(None, "error", f"the completion cannot be read: {why}")
        return _memo_put(self, prompts, completions, columns, _finite_or_error(results, self.__name__))

    def __call__(self, prompts: Sequence[Any] | None = None, completions: Sequence[Any] | None = None,
                 **columns: Any) -> list[float | None]:
        """TRL's reward-function call: the values, under the failure policy of :mod:`rlvr.rewards.scoring`."""
        from rlvr.rewards.scoring import score_reward

        if completions is None:
            raise TypeError(f"reward {self.__name__!r} needs completions=")
        results = score_reward(self, prompts, completions, columns)
        self._log_to_trainer(results, columns)
        return [r.value for r in results]

    def defined_at(self) -> str | None:
        """``file:line`` of the code that scores (named when a reward breaks the contract)."""
        return definition_location(type(self).score)

    def _log_to_trainer(self, results: list[RewardResult], columns: dict[str, Any]) -> None:
        """Inside TRL's GRPOTrainer: reasons go to the completions table, status rates to the metrics."""
        log_extra, log_metric = columns.get("log_extra"), columns.get("log_metric")
        try:
            if callable(log_extra):
                log_extra(f"{self.__name__}/reason", [r.reason for r in results])
            if callable(log_metric) and results:
                for status in sorted(set(self.stats)):
                    share = sum(r.status == status for r in results) / len(results)
                    log_metric(f"rewards/{self.__name__}/status/{status}", share)
        except Exception as exc:  # logging must never cost a training step
            logger.debug("could not log reward details to the trainer: %s", exc)

    # -- introspection ---------------------------------------------------------------------------
    def params(self) -> dict[str, Any]:
        """The constructor parameters of this instance (for logs, hashes and ``rewards list``)."""
        if self.Params is not None:
            return {f.name: getattr(self.p, f.name) for f in dataclasses.fields(self.p)}
        sig = inspect.signature(type(self).__init__)
        return {p: getattr(self, p) for p in sig.parameters if p != "self" and hasattr(self, p)}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params().items())
        return f"{type(self).__name__}({args})"

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_memo", None)  # the last batch stays behind: it is no part of the reward
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


def _memo_get(reward: Any, prompts: Any, completions: Any, columns: dict[str, Any]) -> list[RewardResult] | None:
    """The results of this reward's last call when it is called again on the very same batch objects.

    TRL calls every reward of a step with the same ``prompts``/``completions``/column lists, and a
    gated reward asks its gate for the batch the gate itself is also scored on: identity (``is``) of
    those objects means the same batch, so each reward is scored once per batch.
    """
    memo = getattr(reward, "_memo", None)
    if memo is None or memo[0] is not completions or memo[1] is not prompts or memo[2].keys() != columns.keys():
        return None
    if any(memo[2][k] is not v for k, v in columns.items()):
        return None
    return list(memo[3])


def _memo_put(reward: Any, prompts: Any, completions: Any, columns: dict[str, Any],
              results: list[RewardResult]) -> list[RewardResult]:
    reward._memo = (completions, prompts, dict(columns), list(results))
    return results


def _finite_or_error(results: list[RewardResult], name: str) -> list[RewardResult]:
    """Values as Python floats; a NaN, an infinity or a non-number becomes an ``error`` result (TRL
    would silently drop it)."""
    for i, r in enumerate(results):
        value = r.value
        if value is None or type(value) is float and math.isfinite(value):
            continue
        if isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value):
            results[i] = dataclasses.replace(r, value=float(value))
            continue
        results[i] = RewardResult(None, "error", f"reward {name!r} returned {value!r}, not a finite number",
                                  {"original_status": r.status})
    return results


class FunctionReward(Reward):
    """A registered function ``f(completions, **kwargs)`` as a Reward.

    By default it sees what a class reward sees: ``completions`` as text (the last assistant turn of
    a chat), ``prompts`` as given, the dataset columns and its own parameters, but none of TRL's
    trainer-only arguments (:data:`TRAINER_KWARGS`), so it gets the same inputs in training as in
    ``rlvr score`` and fixtures. Registered with ``raw_inputs=True`` it gets exactly what the caller
    passed (TRL: chat message lists, ``completion_ids``, ``trainer_state``, ``log_extra``, ...).
    It returns one value per completion: a number, ``None`` (no opinion) or a :class:`RewardResult`.
    """

    def __init__(self, func: Callable[..., Sequence[Any]], name: str, description: str = "",
                 raw_inputs: bool = False, **params: Any):
        super().__init__()
        self.func = func
        self.__name__ = name
        self.registered_name = name  # __name__ may become an alias in a RewardSet
        self.description_text = description
        self.raw_inputs = raw_inputs
        self.bound = params

    def params(self) -> dict[str, Any]:
        return dict(self.bound)

    def reads(self) -> Reads:
        from rlvr.rewards.registry import describe

        return Reads(columns=tuple(describe(self.registered_name)["columns"]))

    def defined_at(self) -> str | None:
        return definition_location(self.func)

    def explain(self, prompts: Sequence[Any] | None = None, completions: Sequence[Any] | None = None,
                **columns: Any) -> list[RewardResult]:
        if not self.raw_inputs:
            return super().explain(prompts=prompts, completions=completions, **columns)
        if completions is None:  # raw_inputs: the caller's completions untouched (chat lists stay chat lists)
            raise TypeError(f"reward {self.__name__!r} needs completions=")
        cached = _memo_get(self, prompts, completions, columns)
        if cached is not None:
            return cached
        results = self.score(list(completions), list(prompts) if prompts is not None else None, **columns)
        if len(results) != len(completions):
            raise RewardError(self.__name__, f"returned {len(results)} values for {len(completions)} completions",
                              self.defined_at())
        return _memo_put(self, prompts, completions, columns, _finite_or_error(results, self.__name__))

    def score(self, completions: list[Any], prompts: list[Any] | None, **columns: Any) -> list[RewardResult]:
        if not self.raw_inputs:
            columns = {k: v for k, v in columns.items() if k not in TRAINER_KWARGS}
        values = self.func(completions=completions, prompts=prompts, **self.bound, **columns)
        if isinstance(values, (str, bytes, dict)) or not hasattr(values, "__iter__"):
            raise RewardError(self.__name__, f"returned {type(values).__name__}; return a list with one value "
                              "per completion", self.defined_at())
        origin = f"returned by {getattr(self.func, '__qualname__', self.__name__)}"
        out = []
        for i, v in enumerate(values):
            if isinstance(v, RewardResult):
                out.append(v)
            elif v is None:
                out.append(RewardResult(None, "no_opinion", origin))
            elif isinstance(v, numbers.Real) and not isinstance(v, bool):
                out.append(RewardResult(float(v), "ok", origin))
            else:
                raise RewardError(self.__name__, f"returned {type(v).__name__} {_short(v)} for completion {i}; "
                                  "return a float, None or RewardResult per completion", self.defined_at())
        return out


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
