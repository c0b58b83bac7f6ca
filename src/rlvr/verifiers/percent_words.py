"""The word for "percent" in every language CLDR formats the unit in ("percent", "Prozent", "por ciento",
"pour cent", "процентов", "パーセント", "प्रतिशत"), read from ``babel``'s locale data and cached per release.

"The price rose by 12 percent" and "Antwort: 12 Prozent" say what "12%" says; a hand list would hold the few
languages its writer knew, and the Russian forms that change with the number ("процент", "процента",
"процентов") only where the writer remembered them.
"""

from __future__ import annotations

import functools
import logging

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.vocabulary_cache import cached, installed_version

logger = logging.getLogger(__name__)

__all__ = ["percent_words", "percent_word_after", "ANSWER_LANGUAGES"]

_NUMBERS = (1, 2, 3, 5, 7, 11, 12, 21, 22, 25, 100, 1.5)  # every plural form CLDR's rules give a count
# the languages whose answer labels are read (lexicon.ANSWER_WORDS): a percent word of another language may be an
# everyday word of one of these ("kaso" is Hausa's percent and Tagalog's "case", "posto" Croatian's and Italian's
# "place")
ANSWER_LANGUAGES = frozenset("en de fr es it pt ru uk pl nl tr vi id ms ja ko zh hi ar fa he el fi hu cs sk ro sv nb no da "
                       "th ca bg".split())
_DIGITS_RE = regex.compile(r"[\p{N}.,\u066b\u066c\s\u00a0\u202f\u200e\u200f\u061c-]+")


def _read_babel() -> list[str]:
    from babel import Locale, localedata
    from babel.units import format_unit

    words: set[str] = set()
    for identifier in localedata.locale_identifiers():
        if identifier.split("_")[0] not in ANSWER_LANGUAGES:
            continue
        try:
            locale = Locale.parse(identifier)
        except Exception:  # a locale this release cannot parse
            continue
        for number in _NUMBERS:
            for length in ("long", "short"):
                try:
                    shown = format_unit(number, "percent", length=length, locale=locale)
                except Exception:  # no pattern of that length in this locale
                    continue
                word = _DIGITS_RE.sub(" ", shown, timeout=REGEX_TIMEOUT_S).strip().lower()
                if word and any(c.isalpha() for c in word):
                    words.add(" ".join(word.split()))
    return sorted(words)


@functools.lru_cache(maxsize=1)
def percent_words() -> frozenset[str]:
    """Every locale's word for percent, lower case (see the module's docstring)."""
    import importlib.util

    if importlib.util.find_spec("babel") is None:
        logger.warning("babel is not installed: only the English percent words are recognised")
        return frozenset({"percent", "per cent"})
    return frozenset(cached("percent-words-2", installed_version("babel"), _read_babel))


_TAIL_RE = regex.compile(r"(?<=[0-9}.])[ \u00a0]*(\p{L}[\p{L}\p{M} '’]{0,24}?)\.?\s*$")


def percent_word_after(text: str) -> regex.Match | None:
    """The percent word that ends ``text`` right after its number ("12 Prozent", "12 por ciento"), if any."""
    m = _TAIL_RE.search(text[-40:], timeout=REGEX_TIMEOUT_S)
    return m if m and m[1].lower() in percent_words() else None
