"""Typed configuration: dataclass fields checked and coerced by their declared types.

One mechanism for every config rlvr reads (the run config with every field of the installed TRL's
``GRPOConfig``, reward-model recipes, each reward's parameters): ``build(cls, data, where)`` turns a
plain mapping (YAML, JSON, ``--set`` overrides) into the dataclass, refusing unknown keys with a
"did you mean", coercing numbers written as text (YAML 1.1 reads ``3e-1`` as a string), refusing
non-finite floats, and checking the ``choices``, ``min`` and ``max`` a field declares with
:func:`param`. Types may be written as text (``from __future__ import annotations``) or be the
type objects another library's dataclass carries (``int | None``, ``Literal['a', 'b']``,
``list[str]``): :func:`type_text` renders both the same way.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import math
import types
import typing
from typing import Any

from rlvr.errors import ConfigError

__all__ = ["param", "coerce", "build", "field_docs", "type_text", "default_of"]


def param(default: Any, help: str, *, choices: tuple[Any, ...] | None = None, min: float | None = None,
          max: float | None = None) -> Any:
    """A dataclass field with help text and the checks :func:`build` applies to it."""
    meta = {"help": help, "choices": choices, "min": min, "max": max}
    if isinstance(default, (list, dict)):
        return dataclasses.field(default_factory=lambda: copy.deepcopy(default), metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


def type_text(tp: Any) -> str:
    """A field's type as text in one grammar (``int | None``, ``list[str]``, ``Literal['a', 'b']``),
    whether it is written as text or is a type object. An enum renders as its class name."""
    if isinstance(tp, str):
        return tp
    if tp is type(None):
        return "None"
    if tp is Any:
        return "Any"
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Union or origin is types.UnionType:
        return " | ".join(type_text(a) for a in args)
    if origin is typing.Literal:
        return "Literal[" + ", ".join(repr(a) for a in args) + "]"
    if origin is not None:
        name = getattr(origin, "__name__", str(origin))
        return f"{name}[{', '.join(type_text(a) for a in args)}]" if args else name
    if isinstance(tp, type):
        return tp.__name__
    return str(tp)


def _alternatives(text: str) -> list[str]:
    """``'int | list[str] | None'`` -> ``['int', 'list[str]', 'None']`` (bars inside brackets kept)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == "|" and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    out.append(text[start:].strip())
    return [a for a in out if a]


def _literal_values(alt: str) -> tuple[Any, ...]:
    inner = alt[len("Literal["):-1]
    try:
        values = ast.literal_eval(f"({inner},)")
    except (ValueError, SyntaxError):
        return ()
    return tuple(values)


def _element_type(alt: str) -> str | None:
    """``list[float]`` -> ``float``; ``list`` -> None."""
    return alt[alt.index("[") + 1:-1].strip() if "[" in alt else None


def _exact(value: Any, alt: str) -> bool:
    """Whether ``value`` already is of the alternative's type (no conversion needed)."""
    base = alt.replace(" ", "").split("[", 1)[0]
    if base == "bool":
        return isinstance(value, bool)
    if base == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if base == "float":
        return isinstance(value, float)
    if base == "str":
        return isinstance(value, str)
    if base == "list":
        return isinstance(value, list)
    if base == "dict":
        return isinstance(value, dict)
    if base == "Literal":
        return any(value == v and type(value) is type(v) for v in _literal_values(alt))
    return False


def _describe(alt: str) -> str:
    base = alt.replace(" ", "").split("[", 1)[0]
    return {"bool": "true or false", "int": "an integer", "float": "a number", "str": "text", "list": "a list",
            "dict": "a mapping"}.get(base, alt)


def _one(value: Any, alt: str, where: str) -> Any:
    """``value`` as one (non-None) alternative of a field's type, or ConfigError."""
    base = alt.replace(" ", "").split("[", 1)[0]
    if base == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        raise ConfigError(f"{where} must be true or false, got {value!r}")
    if base in ("int", "float"):
        if isinstance(value, bool):
            raise ConfigError(f"{where} must be a number, got {value!r}")
        number = value
        if isinstance(value, str):
            try:
                number = float(value) if base == "float" else int(value)
            except ValueError:
                raise ConfigError(f"{where} must be {'an integer' if base == 'int' else 'a number'}, "
                                  f"got {value!r}") from None
        if not isinstance(number, (int, float)):
            raise ConfigError(f"{where} must be a number, got {type(value).__name__} {value!r}")
        if base == "int":
            if isinstance(number, float) and not number.is_integer():
                raise ConfigError(f"{where} must be an integer, got {value!r}")
            return int(number)
        if not math.isfinite(float(number)):
            raise ConfigError(f"{where} must be a finite number, got {value!r}")
        return float(number)
    if base == "str":
        if isinstance(value, str):
            return value
        raise ConfigError(f"{where} must be text, got {type(value).__name__} {value!r}")
    if base == "list":
        if not isinstance(value, list):
            raise ConfigError(f"{where} must be a list, got {type(value).__name__} {value!r}")
        element = _element_type(alt)
        if element is None:
            return value
        return [coerce(item, element, f"{where}[{i}]") for i, item in enumerate(value)]
    if base == "dict":
        if isinstance(value, dict):
            return value
        raise ConfigError(f"{where} must be a mapping, got {type(value).__name__} {value!r}")
    if base == "Literal":
        allowed = _literal_values(alt)
        if any(value == v and type(value) is type(v) for v in allowed):
            return value
        raise ConfigError(f"{where}={value!r}; use one of {list(allowed)}")
    return value  # a type this mechanism does not know (another library's class): its own checks apply


def coerce(value: Any, type_: Any, where: str) -> Any:
    """``value`` as the field's declared type (``int``, ``float | None``, ``list[str]``, a union …), or
    ConfigError.

    ``--set`` values and YAML 1.1 scalars arrive as text (``3e-1`` is a string to YAML 1.1), so a
    number written as text is converted; anything that is not of the type is refused before a run
    starts, with the field named. Floats must be finite. In a union, a value that already is one of
    the types is kept as it is (``str | bool`` keeps the text ``"true"``); otherwise the first type it
    converts to wins.
    """
    alts = _alternatives(type_text(type_))
    if "Any" in alts or not alts:
        return value
    optional = "None" in alts
    alts = [a for a in alts if a != "None"]
    if value is None:
        if optional or not alts:
            return None
        raise ConfigError(f"{where} must be {' or '.join(_describe(a) for a in alts)}, got null")
    for alt in alts:
        if _exact(value, alt):
            return _one(value, alt, where)
    errors = []
    for alt in alts:
        try:
            return _one(value, alt, where)
        except ConfigError as exc:
            errors.append(exc)
    if len(errors) == 1:
        raise errors[0]
    raise ConfigError(f"{where} must be {' or '.join(_describe(a) for a in alts)}, got {type(value).__name__} "
                      f"{value!r}")


def _check_constraints(value: Any, f: dataclasses.Field, where: str) -> None:
    meta = f.metadata
    choices = meta.get("choices")
    if choices is not None and value is not None and value not in choices:
        raise ConfigError(f"{where}={value!r}; use one of {list(choices)}")
    low, high = meta.get("min"), meta.get("max")
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float)):
        return
    if low is not None and value < low:
        raise ConfigError(f"{where}={value!r}; use a value >= {low}")
    if high is not None and value > high:
        raise ConfigError(f"{where}={value!r}; use a value <= {high}")


def default_of(f: dataclasses.Field) -> Any:
    """A field's default value (a fresh one for a default factory; None when it has none)."""
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
        return f.default_factory()  # type: ignore[misc]
    return None


def _section(f: dataclasses.Field) -> type | None:
    """The dataclass a field holds, if it is a nested section (declared, or built on first use)."""
    lazy = f.metadata.get("section")
    if lazy is not None:
        return lazy()
    sub = f.default_factory if f.default_factory is not dataclasses.MISSING else None  # type: ignore[misc]
    return sub if isinstance(sub, type) and dataclasses.is_dataclass(sub) else None


def field_docs(cls: type, prefix: str = "", recursive: bool = False) -> dict[str, dict[str, Any]]:
    """Per field of a dataclass: its type (as text), default, help text and the rest of its metadata.

    ``recursive`` descends into nested sections, naming their fields ``section.field``."""
    out: dict[str, dict[str, Any]] = {}
    for f in dataclasses.fields(cls):
        sub = _section(f) if recursive else None
        if sub is not None:
            out.update(field_docs(sub, f"{prefix}{f.name}.", recursive=True))
            continue
        out[prefix + f.name] = {**{k: v for k, v in f.metadata.items() if k != "help"}, "type": type_text(f.type),
                                "default": default_of(f), "help": f.metadata.get("help", "")}
    return out


def build(cls: type, data: dict[str, Any], where: str) -> Any:
    """The dataclass ``cls`` from a mapping: unknown keys refused (with a "did you mean"), every value
    coerced to its field's type and checked against its declared choices and range."""
    if not isinstance(data, dict):
        raise ConfigError(f"{where} must be a mapping, got {type(data).__name__}")
    fields_ = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields_))
    if unknown:
        import difflib

        hints = [f"{u} -> {difflib.get_close_matches(u, fields_, n=1)[0]}" for u in unknown
                 if difflib.get_close_matches(u, fields_, n=1)]
        listing = getattr(cls, "fields_hint", None) or f"fields: {sorted(fields_)}"
        raise ConfigError(f"{where}: unknown field(s) {unknown}" + (f" (did you mean {', '.join(hints)}?)" if hints else "")
                          + f"; {listing}")
    kwargs = {}
    for name, value in data.items():
        f = fields_[name]
        sub = _section(f)
        here = f"{where}.{name}" if where else name
        if sub is not None:
            kwargs[name] = build(sub, value or {}, here)
        else:
            kwargs[name] = coerce(value, f.type, here)
            _check_constraints(kwargs[name], f, here)
    return cls(**kwargs)
