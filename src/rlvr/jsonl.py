"""Reading JSON and JSON Lines: one bounded parser for every command, loader and the reward server.

:func:`loads` is :func:`json.loads` with bounds checked before any object is built: nesting depth,
the number of values (so a 16 MB body cannot become gigabytes of Python objects), the length of a
number, and no ``NaN``/``Infinity`` (not JSON; a gold ``NaN`` would equal ``\\boxed{nan}``). A text
past a bound raises :class:`JSONError` naming it, never ``RecursionError`` or a bare ``ValueError``.
:func:`parse_jsonl` reads JSON Lines from a text or from a stream of lines, one line at a time.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator
from typing import Any

from rlvr.errors import ConfigError

__all__ = ["JSONError", "loads", "parse_jsonl", "MAX_DEPTH", "MAX_VALUES", "MAX_NUMBER_CHARS"]

MAX_DEPTH = 64  # the deepest legitimate input (a row holding chat messages) nests 5 levels
MAX_VALUES = 1_000_000
MAX_NUMBER_CHARS = 400  # more digits than any float holds; a longer gold is written as text

# a JSON string, unrolled so the regex engine runs through plain characters without backtracking
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)


class JSONError(ValueError):
    """Not JSON, or JSON past one of :func:`loads`' bounds; the message says which."""


def _number(text: str, limit: int) -> str:
    if len(text) > limit:
        raise JSONError(f"a number of {len(text):,} characters (limit {limit}); write long values as strings")
    return text


def _finite_float(text: str, limit: int) -> float:
    value = float(_number(text, limit))
    if not math.isfinite(value):
        raise JSONError(f"number {text[:40]} is out of range (not a finite float)")
    return value


def _constant(name: str) -> Any:
    raise JSONError(f"{name} is not JSON (write non-finite values as strings, e.g. \"nan\")")


def _count_values(text: str, max_values: int) -> None:
    """Refuse more than ``max_values`` values before any is built (C-speed counts; strings are
    skipped only when the plain count, which includes their commas, is already over the limit)."""
    if text.count(",") + text.count(":") < max_values:
        return
    bare = _STRING.sub("", text)
    if bare.count(",") + bare.count(":") >= max_values:
        raise JSONError(f"more than {max_values:,} values (limit {max_values:,})")


def _depth_over(value: Any, max_depth: int) -> bool:
    level, depth = [value], 1  # breadth first: one comprehension per level, no call per value
    while level:
        if depth > max_depth:
            return True
        level = [c for item in level for c in (item.values() if type(item) is dict else item)
                 if type(c) is dict or type(c) is list]
        depth += 1
    return False


def loads(text: str, max_depth: int = MAX_DEPTH, max_values: int = MAX_VALUES,
          max_number_chars: int = MAX_NUMBER_CHARS) -> Any:
    """Parse one JSON document within the bounds; raises :class:`JSONError` naming the problem.

    The value count and number lengths are checked before objects are built; nesting is bounded
    while parsing by the interpreter's recursion guard (so a 100k-deep text fails at once, having
    built a few hundred empty containers) and then checked against ``max_depth``.
    """
    _count_values(text, max_values)
    try:
        value = json.loads(text, parse_int=lambda s: int(_number(s, max_number_chars)),
                           parse_float=lambda s: _finite_float(s, max_number_chars), parse_constant=_constant)
    except JSONError:
        raise
    except json.JSONDecodeError as exc:
        raise JSONError(f"not valid JSON ({exc.msg} at character {exc.pos})") from None
    except RecursionError:
        raise JSONError(f"nested too deeply (limit {max_depth} levels)") from None
    if isinstance(value, (dict, list)) and text.count("[") + text.count("{") > max_depth \
            and _depth_over(value, max_depth):
        raise JSONError(f"nested too deeply (limit {max_depth} levels)")
    return value


def parse_jsonl(lines: str | Iterable[str], name: str, error: type[Exception] = ConfigError) -> Iterator[tuple[int, Any]]:
    """(line number, value) for each non-blank line of a text or a stream of lines; a bad line raises
    ``error`` with ``name:line`` and the reason."""
    for n, line in enumerate(lines.splitlines() if isinstance(lines, str) else lines, 1):
        if not line.strip():
            continue
        try:
            yield n, loads(line)
        except JSONError as exc:
            raise error(f"{name}:{n}: {exc}") from None
