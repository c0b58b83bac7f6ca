"""Typed configuration: dataclass fields checked and coerced by their declared types.

One mechanism for every config rlvr reads (the run config, reward-model recipes, each reward's
parameters): ``build(cls, data, where)`` turns a plain mapping (YAML, JSON, ``--set`` overrides)
into the dataclass, refusing unknown keys with a "did you mean", coercing numbers written as text
(YAML 1.1 reads ``3e-1`` as a string), refusing non-finite floats, and checking the ``choices``,
``min`` and ``max`` a field declares with :func:`param`.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from rlvr.errors import ConfigError

__all__ = ["param", "coerce", "build", "field_docs"]


def param(default: Any, help: str, *, choices: tuple[Any, ...] | None = None, min: float | None = None,
          max: float | None = None) -> Any:
    """A dataclass field with help text and the checks :func:`build` applies to it."""
    meta = {"help": help, "choices": choices, "min": min, "max": max}
    if isinstance(default, (list, dict)):
        return dataclasses.field(default_factory=lambda: type(default)(default), metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


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


def field_docs(cls: type) -> dict[str, dict[str, Any]]:
    """Per field of a dataclass: its type (as written), default and help text."""
    out = {}
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
            default = f.default_factory()  # type: ignore[misc]
        else:
            default = None
        out[f.name] = {"type": str(f.type), "default": default, "help": f.metadata.get("help", "")}
    return out


def coerce(value: Any, type_text: str, where: str) -> Any:
    """``value`` as the field's declared type (``int``, ``float | None``, ``list[str]`` …), or ConfigError.

    ``--set`` values and YAML 1.1 scalars arrive as text (``3e-1`` is a string to YAML 1.1), so a
    number written as text is converted; anything that is not of the type is refused before a run
    starts, with the field named. Floats must be finite.
    """
    t = type_text.replace(" ", "")
    optional = t.endswith("|None") or t.startswith("None|")
    base = t.replace("|None", "").replace("None|", "")
    if base == "Any":
        return value
    if value is None:
        if optional:
            return None
        raise ConfigError(f"{where} must be {base}, got null")
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
    if base.startswith("list"):
        if isinstance(value, list):
            return value
        raise ConfigError(f"{where} must be a list, got {type(value).__name__} {value!r}")
    if base.startswith("dict"):
        if isinstance(value, dict):
            return value
        raise ConfigError(f"{where} must be a mapping, got {type(value).__name__} {value!r}")
    return value


def build(cls: type, data: dict[str, Any], where: str) -> Any:
    if not isinstance(data, dict):
        raise ConfigError(f"{where} must be a mapping, got {type(data).__name__}")
    fields_ = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields_))
    if unknown:
        import difflib

        hints = [f"{u} -> {difflib.get_close_matches(u, fields_, n=1)[0]}" for u in unknown
                 if difflib.get_close_matches(u, fields_, n=1)]
        raise ConfigError(f"{where}: unknown field(s) {unknown}" + (f" (did you mean {', '.join(hints)}?)" if hints else "")
                          + f"; fields: {sorted(fields_)}")
    kwargs = {}
    for name, value in data.items():
        f = fields_[name]
        sub = f.default_factory if f.default_factory is not dataclasses.MISSING else None  # type: ignore[misc]
        if isinstance(sub, type) and dataclasses.is_dataclass(sub):
            kwargs[name] = build(sub, value or {}, f"{where}.{name}" if where else name)
        else:
            kwargs[name] = coerce(value, str(f.type), f"{where}.{name}" if where else name)
            _check_constraints(kwargs[name], f, f"{where}.{name}" if where else name)
    return cls(**kwargs)
