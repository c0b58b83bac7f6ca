"""Number words of every language CLDR spells numbers in, and the Han characters that are numerals.

A word after a number either names what the number counts ("18 sheep", "42 яблока", "42 Äpfel",
"42个苹果") or changes the number ("18 hundred", "42 mille", "42 миллиона", "42万"). Which words
change it is a closed class — a language's number and scale words — and CLDR has it for ninety
languages: the words are taken from the spell-outs that ``unicode-rbnf`` (CLDR's rule-based number
formats) writes for scales and their multiples, in every grammatical case the rules know. A Han
character is a numeral when the Unicode Character Database gives it a numeric value (万 is 10000,
个 is none). Nothing here is typed by hand, so a language the lists never met is still covered.
"""

from __future__ import annotations

import functools
import logging
import os
import unicodedata

logger = logging.getLogger(__name__)

__all__ = ["scale_words", "numeral_char", "warm"]

# what is spelled out: the scales and a few multiples of each (so inflected forms appear: "два миллиона",
# "пять миллионов"), and the hundreds (a number word after a number: "18 hundred" is 1800)
_SPELLED = (100, 200, 500, 1_000, 2_000, 5_000, 21_000, 10**4, 10**6, 2 * 10**6, 5 * 10**6, 10**8, 10**9, 2 * 10**9,
            5 * 10**9, 10**12, 2 * 10**12)


@functools.lru_cache(maxsize=1)
def _spellouts() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(words of the scales' spell-outs, words of 1-9's, characters of spell-outs written without spaces)."""
    try:
        import unicode_rbnf
        from unicode_rbnf import RbnfEngine
    except ImportError:  # a dependency of rlvr; without it only the lexicon's English words are known
        logger.warning("unicode-rbnf is not installed: number words of other languages are not recognised")
        return frozenset(), frozenset(), frozenset()
    folder = os.path.join(os.path.dirname(unicode_rbnf.__file__), "rbnf")
    words: set[str] = set()
    small: set[str] = set()
    unspaced: set[str] = set()
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".xml") or name == "root.xml":
            continue
        try:
            engine = RbnfEngine.for_language(name[:-4])
        except Exception:  # a locale whose rules this version cannot load
            continue
        for number in _SPELLED + tuple(range(1, 10)):
            try:
                result = engine.format_number(number)
            except Exception:
                continue
            spelled = set(getattr(result, "text_by_ruleset", {}).values()) | {result.text}
            for text in spelled:
                tokens = text.replace("-", " ").split()
                (small if number < 10 else words).update(w.lower() for w in tokens)
                if number >= 10 and len(tokens) == 1 and len(text) <= 6 and not any(c.isascii() for c in text):
                    unspaced.update(text)  # 一万, 이천, 四十二万: scripts that write numbers without spaces
    return frozenset(words - small), frozenset(small), frozenset(unspaced)


def scale_words() -> frozenset[str]:
    """Every word (lower case) of CLDR's spell-outs of hundreds, thousands, millions, billions and
    trillions, in every language and case ``unicode-rbnf`` knows ("hundred", "mille", "Millionen",
    "миллиона", "milioni"); the words of 1-9 that these spell-outs hold are left out, since they occur
    as other words too ("en", "un", "bir")."""
    return _spellouts()[0]


def numeral_char(char: str) -> bool:
    """万, 千, 百, 十, 亿, 兆, 萬, 만, 천, 억: a character of a number written without spaces (it has a numeric
    value in the Unicode Character Database, or it occurs in CLDR's spell-out of a scale in such a
    script), never a measure word (个, 個, 개, 명)."""
    return unicodedata.numeric(char, None) is not None or char in _spellouts()[2]


def warm() -> None:
    """Build the vocabularies now (a worker does this before it reports ready)."""
    _spellouts()
