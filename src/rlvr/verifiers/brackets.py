"""Splitting answer text at a separator that stands outside every bracket.

``a_{1}, a_{2}`` is two items at "," while ``\\sum_{k=1}^{n} k`` is one side at "=": braces, parentheses
and square brackets nest, and only a separator at depth 0 splits.
"""

from __future__ import annotations

__all__ = ["split_top_level"]


def split_top_level(text: str, separator: str) -> list[str]:
    """``text`` split at ``separator`` characters outside brackets (``\\sum_{k=1}`` stays whole)."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "{([":
            depth += 1
        elif c in "})]":
            depth = max(0, depth - 1)
        elif c == separator and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts
