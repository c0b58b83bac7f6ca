"""A sign that chooses, ``\\pm`` or ``\\mp``, as the values it chooses between: inside a group
(``\\frac{1 \\pm \\sqrt{5}}{2}``) two values, in a tuple every choice of its signs (a ``\\mp`` goes with its
``\\pm``). A sign at the top level the math parser reads as a set itself; anything else is left as written."""

from __future__ import annotations

import itertools

import regex

from rlvr.verifiers.brackets import split_top_level
from rlvr.verifiers.limits import REGEX_TIMEOUT_S

__all__ = ["nested_plus_minus"]

_PLUS_MINUS_RE = regex.compile(r"\\(?:pm|mp)(?![A-Za-z])")


def nested_plus_minus(s: str) -> str:
    """``\\frac{1 \\pm \\sqrt{5}}{2}`` is the two values ``\\frac{1 + \\sqrt{5}}{2}, \\frac{1 - \\sqrt{5}}{2}``: one sign
    inside a group, which the parser does not expand (a sign at the top level it reads as a set itself). A
    second sign, a list or an equation is left alone: which signs go together is not written."""
    signs = list(_PLUS_MINUS_RE.finditer(s, timeout=REGEX_TIMEOUT_S))
    if (points := _signed_tuple(s, signs)) is not None:
        return points
    if len(signs) != 1 or "," in s or "=" in s:
        return s
    at, end = signs[0].span()
    depth = 0
    for c in s[:at]:
        depth += c in "({["
        depth -= c in ")}]"
    if depth <= 0:
        return s
    plus, minus = (" + ", " - ") if signs[0][0] == "\\pm" else (" - ", " + ")
    return f"{s[:at]}{plus}{s[end:]}, {s[:at]}{minus}{s[end:]}"


def _signed_tuple(s: str, signs: list) -> str | None:
    """``(\\pm \\sqrt{2}, 0, \\pm \\sqrt{2})`` is the four points its signs choose, each sign on its own; with a
    ``\\mp`` among them the signs go together (``(\\pm 1, \\mp 1)`` is (1, -1), (-1, 1)), as that sign is written
    for. One tuple, at most three signs and one to a coordinate; else ``None`` (left as written)."""
    body = s.strip()
    if not (1 <= len(signs) <= 3 and "=" not in body and body[:1] == "(" and body[-1:] == ")"):
        return None
    parts = split_top_level(body[1:-1], ",")
    if len(parts) < 2 or "," in "".join(parts):  # not one tuple of plain coordinates
        return None
    marked = [i for i, p in enumerate(parts) if _PLUS_MINUS_RE.search(p, timeout=REGEX_TIMEOUT_S)]
    if len(marked) != len(signs):
        return None
    together = any(m[0] == "\\mp" for m in signs)
    choices = [(1,), (-1,)] if together else list(itertools.product((1, -1), repeat=len(marked)))
    points = []
    for choice in choices:
        cells = list(parts)
        for n, i in enumerate(marked):
            up = choice[0] if together else choice[n]
            cells[i] = _PLUS_MINUS_RE.sub(lambda m: (" + " if (m[0] == "\\pm") == (up > 0) else " - "), parts[i],
                                          timeout=REGEX_TIMEOUT_S)
        points.append(body[0] + ", ".join(c.strip().removeprefix("+ ") for c in cells) + body[-1])
    return ", ".join(points)
