"""rlvr.typed: one mechanism that checks and coerces every config by its fields' declared types."""

from __future__ import annotations

import dataclasses
from typing import Any, Literal, Optional, Union

import pytest

from rlvr.errors import ConfigError
from rlvr.typed import build, coerce, field_docs, param, type_text


@pytest.mark.parametrize(
    "tp,text",
    [
        (int, "int"), (Optional[float], "float | None"), (int | None, "int | None"), (list[str], "list[str]"),
        (dict[str, Any], "dict[str, Any]"), (Literal["a", "b"], "Literal['a', 'b']"),
        (Union[str, None, Literal[False]], "str | None | Literal[False]"), ("float | None", "float | None"),
    ],
)
def test_type_objects_and_type_text_read_alike(tp, text):
    assert type_text(tp) == text


@pytest.mark.parametrize(
    "value,tp,expected",
    [
        ("3e-1", "float", 0.3),  # YAML 1.1 reads 3e-1 as text
        (2, "float", 2.0),
        ("true", "bool | None", True),
        (None, "int | None", None),
        ("true", "str | bool", "true"),  # already one of the types: kept as it is
        (False, "str | bool", False),
        ({"a": 1}, "dict | str | None", {"a": 1}),
        (5, "int | str | None", 5),
        (["1", 2], "list[float] | None", [1.0, 2.0]),
        ([[1, "2"]], "list[list[float]] | None", [[1.0, 2.0]]),
        (False, Union[str, None, Literal[False]], False),
        ("a", Literal["a", "b"], "a"),
    ],
)
def test_values_are_coerced_to_their_declared_type(value, tp, expected):
    got = coerce(value, tp, "x")
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize(
    "value,tp,message",
    [
        ([1], "float", "x must be a number"),
        ("abc", "int | None", "x must be an integer, got 'abc'"),
        (2.5, "int", "x must be an integer"),
        (float("nan"), "float", "finite"),
        (None, "int", "x must be an integer, got null"),
        (True, "Literal['a', 'b']", r"x=True; use one of \['a', 'b'\]"),
        ([1, "a"], "list[int]", r"x\[1\] must be an integer"),
        (3, "str | list[str]", "x must be text or a list, got int 3"),
    ],
)
def test_values_of_another_type_are_refused_naming_the_field(value, tp, message):
    with pytest.raises(ConfigError, match=message):
        coerce(value, tp, "x")


def test_build_checks_choices_ranges_and_unknown_fields():
    @dataclasses.dataclass
    class Inner:
        rate: float = param(0.1, "a rate", min=0, max=1)

    @dataclasses.dataclass
    class Outer:
        mode: str = param("a", "a mode", choices=("a", "b"))
        inner: Inner = dataclasses.field(default_factory=Inner, metadata={"help": "nested"})
        lazy: Any = dataclasses.field(default_factory=Inner, metadata={"help": "built on first use",
                                                                       "section": lambda: Inner})

    built = build(Outer, {"mode": "b", "inner": {"rate": "0.5"}, "lazy": {"rate": 1}}, "cfg")
    assert built.inner.rate == 0.5 and built.lazy.rate == 1.0
    with pytest.raises(ConfigError, match=r"cfg.mode='c'; use one of \['a', 'b'\]"):
        build(Outer, {"mode": "c"}, "cfg")
    with pytest.raises(ConfigError, match="cfg.lazy.rate=2.0; use a value <= 1"):
        build(Outer, {"lazy": {"rate": 2}}, "cfg")
    with pytest.raises(ConfigError, match="did you mean mdoe -> mode"):
        build(Outer, {"mdoe": "a"}, "cfg")
    docs = field_docs(Outer, recursive=True)
    assert set(docs) == {"mode", "inner.rate", "lazy.rate"} and docs["inner.rate"]["type"] == "float"
    assert docs["mode"]["choices"] == ("a", "b") and docs["lazy.rate"]["help"] == "a rate"
