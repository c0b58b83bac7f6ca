"""Ratios of exact numbers (``2:4:6``), which math-verify reads as chained divisions (``5:7:1`` is 5/7/1)."""

from __future__ import annotations

from fractions import Fraction

from rlvr.verifiers.numbers import parse_number

__all__ = ["ratio_parts", "in_proportion"]


def ratio_parts(key: str) -> list[Fraction] | None:
    """``2:4:6`` -> [2, 4, 6]: a ratio of exact numbers; ``None`` for anything else (a clock time was read before)."""
    if ":" not in key or "::" in key:
        return None
    parts = [parse_number(p) for p in key.split(":")]
    return parts if len(parts) >= 2 and None not in parts else None


def in_proportion(a_parts: list[Fraction], g_parts: list[Fraction]) -> bool:
    """Whether two ratios of as many parts are one ratio (``2:4:6`` and ``1:2:3``): every cross product agrees,
    and neither is all zeros (``0:0:0`` is in proportion to anything)."""
    pairs = list(zip(a_parts, g_parts))
    return len(a_parts) == len(g_parts) and any(a_parts) and any(g_parts) and all(
        a1 * g2 == a2 * g1 for a1, g1 in pairs for a2, g2 in pairs)
