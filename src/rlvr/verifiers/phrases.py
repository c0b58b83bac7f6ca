"""Finding the words and phrases of a vocabulary in model text, in any case, in linear time.

A big alternation of words is slow in either regex engine (half a millisecond per kilobyte): a
:class:`PhraseMatcher` lowers the text once, tokenises it with one C-level scan (shared by every
vocabulary that reads the same text), intersects the tokens with the words it looks for, and only then
checks word boundaries and the rest of each phrase at each hit. The vocabularies themselves live in
:mod:`rlvr.verifiers.lexicon`.
"""

from __future__ import annotations

import re

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S

__all__ = ["PhraseMatcher", "PhraseMatch", "words_pattern", "any_in"]


# stdlib re: a tokeniser of one character class cannot backtrack, and runs at C speed
_WORD_TOKENS = re.compile(r"[^\W_]+")


_TOKEN_SETS: dict[str, set[str]] = {}
_TOKEN_SETS_MAX = 256


def _tokens(lowered: str) -> set[str]:
    """The word tokens of ``lowered``, remembered for the last few texts: a sentence is read by several
    vocabularies in a row."""
    found = _TOKEN_SETS.get(lowered)
    if found is None:
        if len(_TOKEN_SETS) >= _TOKEN_SETS_MAX:
            _TOKEN_SETS.clear()
        found = _TOKEN_SETS[lowered] = set(_WORD_TOKENS.findall(lowered)) if len(lowered) < 4096 else \
            set(_WORD_TOKENS.findall(lowered))
        if len(lowered) >= 4096:
            del _TOKEN_SETS[lowered]  # long texts are read once: keep the memo small
    return found


class PhraseMatch:
    """Where a phrase of a :class:`PhraseMatcher` occurs (the ``regex`` match API it needs)."""

    __slots__ = ("_start", "_end", "_text")

    def __init__(self, start: int, end: int, text: str) -> None:
        self._start, self._end, self._text = start, end, text

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end

    def span(self) -> tuple[int, int]:
        return self._start, self._end

    def __getitem__(self, group: int) -> str:
        return self._text[self._start:self._end]


class PhraseMatcher:
    """Finds whole words and phrases of a vocabulary, in any case, in linear time.

    A big alternation of words is slow in either regex engine (half a millisecond per kilobyte);
    this lowers the text once and looks for each distinct first word with ``str.find`` (C speed),
    then checks word boundaries and the rest of the phrase at each hit. Phrases in scripts without
    spaces (Chinese, Japanese) match as plain substrings; "n't" matches "isn't" and "can't".
    """

    def __init__(self, phrases: tuple[str, ...]) -> None:
        self.phrases = tuple(phrases)
        # each phrase is looked up by its longest word ("answer" in "the final answer"), so the
        # common words it starts with ("the", "my") cost nothing
        self._keyed: dict[str, list[tuple[tuple[str, ...], int]]] = {}
        self._literal: list[str] = []
        for phrase in set(phrases):
            p = phrase.lower().strip()
            if not p:
                continue
            if regex.search(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]", p, timeout=REGEX_TIMEOUT_S):
                self._literal.append(p)
                continue
            words = tuple(p.split())
            k = max(range(len(words)), key=lambda i: len(words[i]))
            self._keyed.setdefault(words[k], []).append((words, k))
        for options in self._keyed.values():
            options.sort(key=lambda o: len(o[0]), reverse=True)
        # keys that are not plain word tokens ("n't", "e.g."): looked for as substrings
        self._odd_keys = {w for w in self._keyed if not _WORD_TOKENS.fullmatch(w)}
        # one C-level scan says whether any odd key occurs at all (stdlib re: a literal alternation cannot backtrack)
        self._odd_re = re.compile("|".join(re.escape(w) for w in sorted(self._odd_keys, key=len, reverse=True))) \
            if self._odd_keys else None

    @staticmethod
    def _boundary(lowered: str, i: int) -> bool:
        return i < 0 or i >= len(lowered) or not (lowered[i].isalnum() or lowered[i] == "_")

    @staticmethod
    def _back(lowered: str, end: int, word: str) -> int:
        """Where ``word`` starts when it ends at ``end`` after blanks are skipped backwards, or -1."""
        j = end
        while j > 0 and lowered[j - 1] in " \t\n":
            j -= 1
        if j == end or not lowered.endswith(word, 0, j):
            return -1
        return j - len(word)

    @staticmethod
    def _forward(lowered: str, start: int, word: str) -> int:
        j = start
        while j < len(lowered) and lowered[j] in " \t\n":
            j += 1
        if j == start or not lowered.startswith(word, j):
            return -1
        return j + len(word)

    def _spans(self, lowered: str, base: int) -> list[tuple[int, int]]:
        hits: list[tuple[int, int]] = []
        # which key words occur at all: one C-level tokenisation (shared by every vocabulary that reads
        # the same text) and a set intersection, so a text with none of the vocabulary costs microseconds
        present = self._keyed.keys() & _tokens(lowered)
        if self._odd_re is not None and self._odd_re.search(lowered):
            present |= {w for w in self._odd_keys if w in lowered}
        if not present and (not self._literal or lowered.isascii()):
            return hits  # the usual case: nothing of this vocabulary here
        for key in present:
            suffix = key in ("n't", "n’t")  # the end of "isn't", "don't": no boundary before it
            word_like = key[0].isalnum() and not suffix
            i = lowered.find(key)
            while i >= 0:
                if not word_like or self._boundary(lowered, i - 1):
                    for words, k in self._keyed[key]:
                        start, end = i, i + len(key)
                        for w in reversed(words[:k]):
                            start = self._back(lowered, start, w)
                            if start < 0:
                                break
                        if start < 0:
                            continue
                        for w in words[k + 1:]:
                            end = self._forward(lowered, end, w)
                            if end < 0:
                                break
                        if end < 0:
                            continue
                        if (suffix or not words[0][0].isalnum() or self._boundary(lowered, start - 1)) and \
                                (not words[-1][-1].isalnum() or self._boundary(lowered, end)):
                            hits.append((base + start, base + end))
                            break
                i = lowered.find(key, i + 1)
        for lit in (self._literal if not lowered.isascii() else ()):  # the literals are CJK phrases
            i = lowered.find(lit)
            while i >= 0:
                hits.append((base + i, base + i + len(lit)))
                i = lowered.find(lit, i + 1)
        hits.sort(key=lambda h: (h[0], -h[1]))
        out, last_end = [], -1
        for a, b in hits:
            if a >= last_end:
                out.append((a, b))
                last_end = b
        return out

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None, timeout: float | None = None):
        end = len(text) if endpos is None else endpos
        for a, b in self._spans(text[pos:end].lower(), pos):
            yield PhraseMatch(a, b, text)

    def search(self, text: str, pos: int = 0, endpos: int | None = None, timeout: float | None = None) -> PhraseMatch | None:
        end = len(text) if endpos is None else endpos
        spans = self._spans(text[pos:end].lower(), pos)
        return PhraseMatch(spans[0][0], spans[0][1], text) if spans else None

    def sub(self, repl: str, text: str, timeout: float | None = None) -> str:
        """``text`` with every phrase replaced by ``repl``."""
        spans = self._spans(text.lower(), 0)
        if not spans:
            return text
        out, last = [], 0
        for a, b in spans:
            out.append(text[last:a])
            out.append(repl)
            last = b
        out.append(text[last:])
        return "".join(out)

    def ends(self, text: str, timeout: float | None = None) -> PhraseMatch | None:
        """The phrase that ``text`` ends with (trailing blanks and ``$`` ignored), if any."""
        pos = max(0, len(text) - 60)
        spans = self._spans(text[pos:].lower(), pos)
        if spans and not text[spans[-1][1]:].strip(" \t\n$"):
            return PhraseMatch(spans[-1][0], spans[-1][1], text)
        return None

    def starts(self, text: str, timeout: float | None = None) -> PhraseMatch | None:
        """The phrase that ``text`` starts with (leading blanks, ``$`` and commas ignored), if any."""
        spans = self._spans(text[:60].lower(), 0)
        if spans and not text[:spans[0][0]].strip(" \t\n$,"):
            return PhraseMatch(spans[0][0], spans[0][1], text)
        return None


def words_pattern(words: tuple[str, ...]) -> PhraseMatcher:
    """The matcher of a vocabulary (see :class:`PhraseMatcher`)."""
    return PhraseMatcher(words)


def any_in(lowered: str, words: tuple[str, ...]) -> bool:
    """The quick filter: does any word of ``words`` (lower case, first word only) occur in ``lowered``?"""
    return any(w.split()[0].lower() in lowered for w in words)
