"""A JSON answer's text: its value as answer text, and a body escaped again where the reader already undid a
LaTeX macro's JSON escape (``"\\\\frac"`` read as ``"\\frac"``, which JSON would take for a form feed)."""

from __future__ import annotations

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S

__all__ = ["json_escaped", "json_value"]


# a backslash before a letter: a LaTeX macro whose JSON escape ("\\\\frac") the reader already undid; JSON would
# read "\\f" as a form feed, "\\t" as a tab and "\\d" as an error, so it is escaped again ("\\u00e9" is left alone)
_MACRO_BACKSLASH_RE = regex.compile(r"(?<!\\)\\(?=[A-Za-z])(?!u[0-9a-fA-F]{4})")


def json_escaped(body: str) -> str:
    return _MACRO_BACKSLASH_RE.sub(r"\\\\", body, timeout=REGEX_TIMEOUT_S)


def json_value(value: object) -> str | None:
    """A JSON answer's value as answer text: a string or number, or a list of them ("[1, 2]" is "1, 2")."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (str, int, float)):
        return str(value)
    if isinstance(value, list) and value and len(value) <= 50 and all(
            isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in value):
        return ", ".join(str(v) for v in value)
    return None
