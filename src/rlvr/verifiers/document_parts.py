"""The records a document reader produces, and the span index its passes share.

:class:`Box` (a box-like macro and its content), :class:`Tag` (an HTML tag), :class:`Heading`,
:class:`Row` (a markdown table row and its cells) and :class:`Fence` (fenced code) are what
:func:`~rlvr.verifiers.document.read_document` finds; :class:`Spans` answers "does this position lie
in one of these spans" in O(log n); :func:`blank_chars` blanks a span of the view being built.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

__all__ = ["Box", "Tag", "Heading", "Row", "Fence", "Spans", "blank_chars"]


@dataclass(frozen=True)
class Box:
    """A box-like macro: ``start``..``end`` is the whole macro, ``inner`` its content span."""

    macro: str
    start: int
    end: int
    inner: tuple[int, int]


@dataclass(frozen=True)
class Tag:
    name: str  # lower case
    start: int
    end: int
    closing: bool


@dataclass(frozen=True)
class Heading:
    level: int
    start: int
    end: int
    content: tuple[int, int]


@dataclass(frozen=True)
class Row:
    start: int
    end: int
    cells: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Fence:
    info: str
    start: int
    end: int
    content: tuple[int, int]


class Spans:
    """Sorted disjoint spans with O(log n) membership."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        if not spans:
            self.spans, self.starts = [], []
            return
        merged: list[tuple[int, int]] = []
        for a, b in sorted(spans):  # overlapping spans (a box inside math) become one
            if merged and a <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], b))
            else:
                merged.append((a, b))
        self.spans = merged
        self.starts = [a for a, _b in merged]

    def holds(self, pos: int) -> bool:
        if not self.starts:
            return False
        i = bisect.bisect_right(self.starts, pos) - 1
        return i >= 0 and pos < self.spans[i][1]


def blank_chars(chars: list[str], start: int, end: int) -> None:
    for i in range(max(0, start), min(end, len(chars))):
        if chars[i] != "\n":
            chars[i] = " "
