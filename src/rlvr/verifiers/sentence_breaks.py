"""Where the sentences of a completion's prose begin and end: at a full stop, "?", "!", a CJK or Devanagari
full stop or a line break, never inside ``$…$`` math or a display block, never at the "!" of a factorial
("5! = 120")."""

from __future__ import annotations

import regex

from rlvr.verifiers.currencies import is_currency

__all__ = ["sentences", "FACTORIAL_AHEAD"]

# "!" after a number followed by an operator is a factorial ("(5! = 120)", "4! \\times 3"), no sentence's end; so is
# one the sentence goes on after in lower case ("5! orders", "3! ways")
FACTORIAL_AHEAD = r"\s*(?:[=×*·+/<>≈]|\\(?:times|cdot|approx|div)(?![A-Za-z]))"
_SENTENCE_BREAK_RE = regex.compile(r"(?<=[.?])\s+|(?<=!)(?<![0-9)]!)\s+|(?<=[0-9)]!)(?!" + FACTORIAL_AHEAD + r"|\s+\p{Ll})\s+"
                                   r"|(?<=[。！？।])\s*|\n+")
_ABBREVIATION_BEFORE_RE = regex.compile(r"(?<![\p{L}])\p{L}{1,4}\.$")
_DISPLAY_RE = regex.compile(r"\\\[(?:(?!\\[\[\]]).)*?\\\]|\$\$(?:(?!\$\$).)*?\$\$", regex.DOTALL)


def sentences(text: str, timeout: float) -> list[tuple[int, int]]:
    """(start, end) of each sentence; a break inside ``$…$`` math or a display block is not a break."""
    spans, start = [], 0
    math_open = False
    last = 0
    displays = [m.span() for m in _DISPLAY_RE.finditer(text, timeout=timeout)] if "\\[" in text or "$$" in text else []
    d = 0
    for m in _SENTENCE_BREAK_RE.finditer(text, timeout=timeout):
        while d < len(displays) and displays[d][1] <= m.start():
            d += 1
        if d < len(displays) and displays[d][0] < m.start() < displays[d][1]:
            continue  # "\[ a = b \n = c \]" is one statement
        if text[m.start() - 1:m.start()] == "." and m.end() < len(text) and text[m.end()].isdigit() \
                and (sign := _ABBREVIATION_BEFORE_RE.search(text, max(0, m.start() - 6), m.start(), timeout=timeout)) \
                and is_currency(sign[0]):
            continue  # "Rs. 42", "Rp. 15.000": a currency's abbreviation before its amount ends no sentence
        math_open ^= text.count("$", last, m.start()) % 2 == 1
        last = m.start()
        if "\n" in m[0]:
            math_open = False  # a stray "$" never joins lines into one sentence
        elif math_open:
            continue
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(text)))
    return [(a, b) for a, b in spans if text[a:b].strip()]
