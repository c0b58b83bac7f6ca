"""Splitting answer text at a separator that stands outside every bracket.

``a_{1}, a_{2}`` is two items at "," while ``\\sum_{k=1}^{n} k`` is one side at "=": braces, parentheses
and square brackets nest, and only a separator at depth 0 splits.
"""

from __future__ import annotations

__all__ = ["split_top_level", "top_level_rows"]


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


def top_level_rows(text: str, cells: bool = False) -> list[str]:
    """The rows (and cells) of ``text`` at its LaTeX row breaks (``\\\\``) and column breaks (``&``, ``\\&``)
    that stand outside every brace and every ``\\begin{…}…\\end{…}`` environment: ``41 \\\\ 42`` and
    (with ``cells``) ``41 & 42`` are two, ``\\begin{cases} … \\\\ … \\end{cases}`` and ``\\text{a \\\\ b}`` are one. A break's spacing argument (``\\\\[2pt]``) belongs to no row."""
    if "\\\\" not in text and not (cells and "&" in text):
        return [text]
    rows, depth, env, start, i, n = [], 0, 0, 0, 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            if cells and text.startswith("\\&", i) and depth == 0 and env == 0:  # "41 \\& 42": an escaped "and"
                rows.append(text[start:i])
                i += 2
                start = i
                continue
            if text.startswith("\\\\", i):
                if depth == 0 and env == 0:
                    rows.append(text[start:i])
                    i += 2
                    if i < n and text[i] == "[" and (close := text.find("]", i, i + 16)) > 0:
                        i = close + 1
                    start = i
                    continue
                i += 2
                continue
            if text.startswith("\\begin{", i):
                env += 1
            elif text.startswith("\\end{", i) and env:
                env -= 1
            i += 2  # an escaped brace (\{, \}) opens and closes nothing
            continue
        if cells and c == "&" and depth == 0 and env == 0:  # a column break outside an array: "41 & 42" is two cells
            rows.append(text[start:i])
            start = i + 1
        elif c == "{":
            depth += 1
        elif c == "}":
            depth = max(0, depth - 1)
        i += 1
    rows.append(text[start:])
    return rows
