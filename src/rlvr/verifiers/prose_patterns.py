"""Patterns every reader of prose shares: a word of a sentence, a word of another script, a math span, the
words right after a value."""

from __future__ import annotations

import regex

__all__ = ["MATH_SPAN_RE", "OTHER_SCRIPT_WORD_RE", "SENTENCE_WORD_RE", "WORDS_AFTER_RE", "blank_count_modifiers"]

SENTENCE_WORD_RE = regex.compile(r"(?<![\\A-Za-z])[A-Za-z]{3,}")
OTHER_SCRIPT_WORD_RE = regex.compile(r"[^\x00-\x7f\d\s\p{P}\p{S}]{2,}")  # two letters of a script other than ASCII
# "$\$18$": an escaped dollar inside inline math is a currency sign, not the span's end
MATH_SPAN_RE = regex.compile(r"\$\$((?:(?!\$\$).)+?)\$\$|(?<!\\)\$(?![\s$])((?:\\.|[^$\\])*?)(?<![\s\\])\$(?![0-9])|\\\(((?:(?!\\[()]).)+?)\\\)"
                             r"|\\\[((?:(?!\\[\[\]]).)+?)\\\]", regex.DOTALL)
# up to three words after a value, on its line
WORDS_AFTER_RE = regex.compile(r"[^\S\n]*[^\W\d_]+(?:[^\S\n]+[^\W\d_]+){0,2}")
# a Chinese or Japanese count's modifier between its classifier and its noun ("24 种不同的排法", "6 种不同的走法"):
# it describes the things counted ("different"), so a character in it that negates elsewhere (不) negates nothing
_COUNT_MODIFIER_RE = regex.compile(r"(?<=[0-9]\s*\p{Han})\p{Han}{1,6}?的(?=\p{Han})")


def blank_count_modifiers(text: str, timeout: float) -> str:
    """``text`` with each count's modifier blanked (positions kept), for the readers of doubt and negation."""
    if "的" not in text:
        return text
    return _COUNT_MODIFIER_RE.sub(lambda m: " " * len(m[0]), text, timeout=timeout)
