"""Numbers hidden in ``\\text{}``: ``41\\text{ (or 42)}``, ``\\text{3}\\text{4}``, ``42\\text{ ₄₁}`` state a second value
that math parsers silently drop or merge; a whole answer in ``\\text{17}`` or a unit (``5\\text{ cm}``, ``5\\text{ m²}``)
states one."""

from __future__ import annotations

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.rules import TEXT_GROUP_RE

__all__ = ["numbers_hidden_in_text"]

_TEXT_NUMERAL_RE = regex.compile(r"\\(?:text|mathrm)\s*\{\s*([0-9A-Z]{1,64})\s*\}(?=_)")


def numbers_hidden_in_text(raw: str) -> bool:
    """``41\\text{ (or 42)}``, ``\\text{3}\\text{4}``: digits inside ``\\text{}`` next to other digits.

    A whole answer in ``\\text{17}`` or a unit such as ``5\\text{ cm}`` is fine; prose with numbers
    beside a number is a second answer that math parsers silently drop or merge.
    """
    raw = _TEXT_NUMERAL_RE.sub(r"\1", raw, timeout=REGEX_TIMEOUT_S)  # \text{1011}_2: a numeral and its base
    # a number is any numeral character (digits of any script, subscripts, "½"), but a superscript: "m²", "cm³" are powers
    groups = [m for m in TEXT_GROUP_RE.finditer(raw, timeout=REGEX_TIMEOUT_S) if any(_numeral_char(c) for c in m[1])]
    if not groups:
        return False
    outside = TEXT_GROUP_RE.sub(" ", raw, timeout=REGEX_TIMEOUT_S)
    return len(groups) > 1 or any(_numeral_char(c) for c in outside)


def _numeral_char(c: str) -> bool:
    return c.isnumeric() and c not in "⁰¹²³⁴⁵⁶⁷⁸⁹"
