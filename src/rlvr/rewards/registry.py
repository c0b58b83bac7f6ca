"""The reward registry: names -> reward factories, validated when they register.

``@reward("name")`` registers a function ``f(completions, **kwargs) -> list[float | None | RewardResult]``
(it gets the completions as text; ``@reward("name", raw_inputs=True)``: TRL's inputs untouched, see
:class:`~rlvr.rewards.base.FunctionReward`) or a :class:`~rlvr.rewards.base.Reward` subclass; :func:`get_reward` builds a configured instance;
:func:`available` lists what is registered. Third-party packages register through the entry-point
group ``rlvr.rewards`` (each entry point names a module to import, or a function/class to register
under the entry point's name); they are loaded on first lookup, and a broken plug-in is reported
by name without breaking the others.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from rlvr.errors import ConfigError
from rlvr.rewards.base import TRAINER_KWARGS, FunctionReward, Reward

logger = logging.getLogger(__name__)

__all__ = ["reward", "register", "get_reward", "available", "describe", "ENTRY_POINT_GROUP"]

ENTRY_POINT_GROUP = "rlvr.rewards"
T = TypeVar("T")


@dataclass(frozen=True)
class _Entry:
    name: str
    target: Any  # a Reward subclass or a function
    description: str
    origin: str
    raw_inputs: bool = False


_REGISTRY: dict[str, _Entry] = {}
_plugins_loaded = False
_builtins_loaded = False


def _origin(obj: Any) -> str:
    return f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', repr(obj))}"


def _first_line(doc: str | None) -> str:
    """The first sentence of a docstring (its first paragraph up to the first full stop)."""
    if not doc:
        return ""
    paragraph = " ".join(inspect.cleandoc(doc).split("\n\n")[0].split())
    end = paragraph.find(". ")
    return paragraph if end < 0 else paragraph[:end + 1]


def _check_function(name: str, func: Callable[..., Any], raw_inputs: bool = False) -> None:
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"reward {name!r}: cannot read the signature of {func!r}") from exc
    params = sig.parameters.values()
    if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        raise TypeError(
            f"reward {name!r}: {func.__qualname__}{sig} must accept **kwargs "
            "(TRL passes prompts, dataset columns and trainer_state as keywords)")
    positional = [p for p in params if p.kind in (inspect.Parameter.POSITIONAL_ONLY,)]
    if positional:
        raise TypeError(f"reward {name!r}: parameter {positional[0].name!r} is positional-only; "
                        "TRL passes everything by keyword (completions=..., prompts=...)")
    trainer_only = [p.name for p in params if p.name in TRAINER_KWARGS]
    if trainer_only and not raw_inputs:
        raise TypeError(f"reward {name!r}: parameter(s) {trainer_only} are TRL's trainer-only arguments, which a "
                        "function reward gets only when registered with @reward(..., raw_inputs=True)")


def register(name: str, target: Any, description: str | None = None, raw_inputs: bool = False) -> None:
    """Register ``target`` (a Reward subclass or a reward function) under ``name``; ``raw_inputs``
    (functions only): pass it TRL's inputs untouched instead of the completion text."""
    if not isinstance(name, str) or not name.replace("-", "_").isidentifier():
        raise ValueError(f"reward name must be an identifier-like string, got {name!r}")
    if not isinstance(raw_inputs, bool):
        raise TypeError(f"reward {name!r}: raw_inputs must be True or False, got {raw_inputs!r}")
    if inspect.isclass(target):
        if not issubclass(target, Reward):
            raise TypeError(f"reward {name!r}: class {target.__qualname__} must subclass rlvr.rewards.Reward")
        if raw_inputs:
            raise TypeError(f"reward {name!r}: raw_inputs applies to function rewards; a Reward subclass "
                            "overrides explain() to read raw inputs")
    elif callable(target):
        _check_function(name, target, raw_inputs)
    else:
        raise TypeError(f"reward {name!r}: expected a function or Reward subclass, got {type(target).__name__}")
    _load_builtins()  # a user's name must not shadow a built-in that loads later
    origin = _origin(target)
    existing = _REGISTRY.get(name)
    if existing is not None and existing.origin != origin:
        raise ValueError(f"reward {name!r} is already registered by {existing.origin}; "
                         f"{origin} must use another name")
    _REGISTRY[name] = _Entry(name, target, description or _first_line(target.__doc__), origin, raw_inputs)


def reward(name: Any = None, description: str | None = None, raw_inputs: bool = False) -> Any:
    """Decorator: register a reward function or Reward subclass under ``name``; returns it unchanged.

    ``@reward("my_reward")`` names it; a bare ``@reward`` (or ``@reward()``) uses the function's or
    class's own name. A function gets each completion as text unless ``raw_inputs=True`` (then: the
    caller's inputs untouched — TRL's chat message lists, ``completion_ids``, ``trainer_state``, ...).
    """
    if callable(name) and not isinstance(name, str):  # bare @reward: called with the target itself
        target = name
        register(getattr(target, "__name__", ""), target, description, raw_inputs)
        if inspect.isclass(target):
            target.name = target.__name__  # type: ignore[attr-defined]
        return target
    if name is not None and not isinstance(name, str):
        raise TypeError(f"@reward takes a name string, got {type(name).__name__} {name!r}")

    def decorate(target: T) -> T:
        nonlocal name
        if name is None:
            name = getattr(target, "__name__", "")
        register(name, target, description, raw_inputs)
        if inspect.isclass(target):
            target.name = name  # type: ignore[attr-defined]
        return target

    return decorate


def _load_builtins() -> None:
    global _builtins_loaded
    if not _builtins_loaded:
        _builtins_loaded = True
        import rlvr.rewards.builtin  # noqa: F401  (registers the built-in rewards)


def _load_plugins() -> None:
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            obj = ep.load()
        except Exception as exc:  # a broken plug-in must not take the others down
            logger.warning("reward plug-in %r (%s) failed to load: %s: %s", ep.name, ep.value, type(exc).__name__, exc)
            continue
        if inspect.ismodule(obj):
            continue  # importing the module registered its rewards
        try:
            if ep.name not in _REGISTRY:
                register(ep.name, obj)
        except (TypeError, ValueError) as exc:
            logger.warning("reward plug-in %r (%s) is invalid: %s", ep.name, ep.value, exc)


def _entry(name: str) -> _Entry:
    _load_builtins()
    if name not in _REGISTRY:
        _load_plugins()
    if name not in _REGISTRY:
        import difflib

        close = difflib.get_close_matches(name, _REGISTRY, n=3)
        hint = f" Did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise ConfigError(f"no reward named {name!r}.{hint} Registered: {', '.join(sorted(_REGISTRY))}")
    return _REGISTRY[name]


def get_reward(name: str, **params: Any) -> Reward:
    """A configured, picklable reward instance; bad parameters fail here with the valid ones."""
    entry = _entry(name)
    target = entry.target
    if inspect.isclass(target) and getattr(target, "Params", None) is not None:
        instance = target(**params)  # rlvr.typed.build checks names, types and ranges
        instance.__name__ = name
        return instance
    if inspect.isclass(target):
        sig = inspect.signature(target.__init__)
        accepted = [p for p in sig.parameters if p != "self"]
        has_var_kw = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in sig.parameters.values())
        unknown = [k for k in params if k not in accepted]
        if unknown and not has_var_kw:
            raise ConfigError(f"reward {name!r} has no parameter(s) {unknown}; parameters: {accepted or 'none'}")
        instance = target(**params)
        instance.__name__ = name
        return instance
    sig = inspect.signature(target)
    named = [p.name for p in sig.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    unknown = [k for k in params if k not in named or k in ("completions", "prompts")]
    if unknown:
        raise ConfigError(f"reward {name!r} has no parameter(s) {unknown}; parameters: "
                          f"{[p for p in named if p not in ('completions', 'prompts')] or 'none'}")
    return FunctionReward(target, name, entry.description, raw_inputs=entry.raw_inputs, **params)


_RST_RE = None


def _plain(text: str) -> str:
    """Docstring markup as plain text (``x`` -> x, :func:`f` -> f)."""
    import re

    global _RST_RE
    if _RST_RE is None:
        _RST_RE = re.compile(r":[a-z]+:`~?([^`]+)`|``([^`]+)``|`([^`]+)`")
    return _RST_RE.sub(lambda m: next(g for g in m.groups() if g is not None), text)


def describe(name: str) -> dict[str, Any]:
    """Name, description, origin, parameters and the dataset columns a reward reads.

    ``params`` maps each parameter to ``{type, default, help}``: from the reward's ``Params``
    dataclass, or for a function reward from its keyword parameters that have defaults. A function
    parameter without a default (other than completions/prompts) is a dataset column it reads.
    """
    entry = _entry(name)
    target = entry.target
    columns: list[str] = []
    if inspect.isclass(target) and getattr(target, "Params", None) is not None:
        from rlvr.typed import field_docs

        params = field_docs(target.Params)
        for doc in params.values():
            doc["help"] = _plain(doc["help"])
    else:
        func = target.__init__ if inspect.isclass(target) else target
        params = {}
        for p in inspect.signature(func).parameters.values():
            if p.name in ("self", "completions", "prompts", *TRAINER_KWARGS) or p.kind in (p.VAR_KEYWORD,
                                                                                             p.VAR_POSITIONAL):
                continue
            if p.default is inspect.Parameter.empty and not inspect.isclass(target):
                columns.append(p.name)
                continue
            default = None if p.default is inspect.Parameter.empty else p.default
            annotation = "" if p.annotation is inspect.Parameter.empty else str(p.annotation)
            params[p.name] = {"type": annotation, "default": default, "help": ""}
    return {"name": name, "description": _plain(entry.description), "origin": entry.origin, "params": params,
            "columns": columns}


def available() -> list[tuple[str, str]]:
    """(name, one-line description) of every registered reward, sorted by name."""
    _load_builtins()
    _load_plugins()
    return sorted((e.name, e.description) for e in _REGISTRY.values())
