"""Names of the weekdays and months in every language CLDR has, read from ``babel`` and cached per release.

A day or month answer is written in many ways: "Wednesday", "Wed", "Mittwoch", "mercredi", "星期三",
"水曜日", "во вторник". Each is one calendar value; :func:`calendar_key` says which ("d2": Wednesday,
Monday being d0; "m3": March), so that an answer and a gold that name the same day compare equal in any
language or abbreviation. Names come from CLDR (wide and abbreviated, format and stand-alone forms of
every locale), never from a list typed here. Where two languages give one spelling different meanings
("mar": March in English, martes in Spanish; "sat"), the first of ``_FIRST`` (then every other locale,
alphabetically) decides; spellings of one or two Latin letters ("Mo", "Di") are left out.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

import regex

from rlvr.verifiers.lexicon import ALTERNATIVE_WORDS, HEDGE_WORDS, LIST_WORDS, NEGATION_WORDS
from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.vocabulary_cache import cached, installed_version

logger = logging.getLogger(__name__)

__all__ = ["calendar_key", "gold_calendar_key", "calendar_names", "warm"]

# the languages whose meaning of a shared spelling wins, in this order (then every other locale)
_FIRST = ("en", "de", "fr", "es", "it", "pt", "ru", "zh", "ja", "ko", "nl", "pl", "tr", "vi", "id", "ar", "hi", "uk",
          "cs", "sv", "da", "nb", "fi", "hu", "ro", "el", "he", "th")


def _read_babel() -> dict[str, Any]:
    from babel import Locale, localedata

    identifiers = sorted(localedata.locale_identifiers())
    order = [i for lang in _FIRST for i in identifiers if i == lang or i.startswith(lang + "_")]
    order += [i for i in identifiers if i not in set(order)]
    names: dict[str, str] = {}
    wide: dict[str, str] = {}  # the full names of the languages in _FIRST, for abbreviations CLDR lacks ("Thurs")
    golds: dict[str, str] = {}  # what a gold may be: an English name, or one in a script other than Latin
    for identifier in order:
        try:
            locale = Locale.parse(identifier)
            tables = (("d", locale.days), ("m", locale.months))
        except Exception:  # a locale this release cannot load
            continue
        first = identifier.split("_")[0] in _FIRST
        for kind, table in tables:
            for context in ("format", "stand-alone"):
                for width in ("wide", "abbreviated"):
                    try:
                        entries = dict(table[context][width])
                    except (KeyError, TypeError):
                        continue
                    for number, name in entries.items():
                        name = name.lower().strip().rstrip(".")
                        if any(c.isdigit() for c in name) or (name.isascii() and len(name) < 3) or len(name) < 2:
                            continue
                        key = f"{kind}{number}"
                        names.setdefault(name, key)
                        if width == "wide" and first and name.isascii():
                            wide.setdefault(name, key)
                        if width == "wide" and (identifier == "en" or not name.isascii()):
                            golds.setdefault(name, key)
    return {"names": names, "wide": wide, "golds": golds}


@functools.lru_cache(maxsize=1)
def _tables() -> dict[str, Any]:
    import importlib.util

    if importlib.util.find_spec("babel") is None:
        logger.warning("babel is not installed: weekday and month names are not recognised")
        return {"names": {}, "wide": {}, "golds": {}}
    return cached("calendar-names-2", installed_version("babel"), _read_babel)


def calendar_names() -> dict[str, str]:
    """Every weekday and month name CLDR has, lower case, to its key ("wednesday" -> "d2", "märz" -> "m3")."""
    return _tables()["names"]


def warm() -> None:
    """Load the names now (a worker does so before it reports ready)."""
    _tables()


_WORD_RE = regex.compile(r"[\p{L}\p{M}']+")
_UNSPACED_RE = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}\p{Thai}]")
_WRAPPER_RE = regex.compile(r"\\(?:text|mathrm|textbf|mbox|textit|operatorname)\s*\{([^{}]*)\}")
# what lists names: a slash, a comma, an ampersand, a semicolon, a dash between words, or a list word ("and")
_LIST_MARK_RE = regex.compile(r"[/,，、・&;；]|\p{L}\s*[-–—]\s*\p{L}|(?i:(?<!\p{L})(?:" + "|".join(
    regex.escape(w) for w in LIST_WORDS if len(w) > 1) + r")(?!\p{L}))")
_MOST_WORDS = 6  # "It will be a Wednesday": a name and a few words around it; more is a sentence about it
# words that deny, doubt or offer another value, or that count from the name ("the day after Tuesday")
_REFUSING = frozenset(w for group in (NEGATION_WORDS, HEDGE_WORDS, ALTERNATIVE_WORDS) for w in group if " " not in w) | \
    frozenset("after before next following previous preceding than later earlier until since from past ago plus minus "
              "nach vor après avant después antes dopo prima после до".split())
# English number words ("one day past Wednesday", "Monday plus one"): a count from the name
_NUMBER_WORDS = frozenset("zero one two three four five six seven eight nine ten eleven twelve".split())


def gold_calendar_key(text: str) -> str | None:
    """The day or month a gold names: an English name or one in a script other than Latin ("Wednesday", "März",
    "星期三"); "Mars", "Sun" or "Jan" in a gold are a planet, a star and a name."""
    plain = _WRAPPER_RE.sub(r"\1", text, timeout=REGEX_TIMEOUT_S).strip(" .$").lower()
    return _tables()["golds"].get(plain)


def calendar_key(text: str) -> str | None:
    """The one weekday or month ``text`` names ("Wed", "Mittwoch", "星期三", "во вторник", "Thurs" …), or ``None``:
    no name, names of two days, digits or number words, a question, too many words, or a word that negates,
    doubts, offers another or counts from the name ("not Wednesday", "Wednesday or Thursday", "the day after
    Tuesday"). An English name inside a sentence counts only capitalised ("It may be" names no month)."""
    if len(text) > 120 or any(c.isdigit() or c in "?？+" for c in text):
        return None
    tables = _tables()
    names, wide = tables["names"], tables["wide"]
    if not names:
        return None
    raw = _WRAPPER_RE.sub(r"\1", text, timeout=REGEX_TIMEOUT_S)
    if _LIST_MARK_RE.search(raw, timeout=REGEX_TIMEOUT_S):
        return None  # "Wed/Thurs", "Monday, Tues", "Wed-Thurs", "March & April": names listed, however written
    originals = _WORD_RE.findall(raw, timeout=REGEX_TIMEOUT_S)
    words = [w.lower() for w in originals]
    if not words or len(words) > _MOST_WORDS or any(w in _REFUSING or w in _NUMBER_WORDS for w in words):
        return None
    keys = set()
    for original, word in zip(originals, words):
        if _UNSPACED_RE.search(word, timeout=REGEX_TIMEOUT_S):
            if not _unspaced_keys(word, names, keys):
                return None
            continue
        if len(words) > 1 and word.isascii() and original.islower() and wide.get(word) and word in tables["golds"]:
            continue  # "may", "march", "sun" inside a sentence: a verb or a noun, not the month
        if word in names:
            keys.add(names[word])
        elif len(word) >= 3 and word.isascii():
            # "Thurs", "Tues", "Thursdays": a form CLDR lacks, read against the full names; several days is none
            near = {k for name, k in wide.items() if name.startswith(word) or word.startswith(name)}
            if len(near) > 1:
                return None
            keys |= near
    return keys.pop() if len(keys) == 1 else None


def _unspaced_keys(word: str, names: dict[str, str], keys: set[str]) -> bool:
    """Add the names of a run of an unspaced script to ``keys`` (the longest name at each place: "十一月" is
    November, not "一月" inside it); ``False`` when a character of a name is left over ("星期三、四", "水・木曜日":
    a second day written short) or a word refuses."""
    if any(r in word for r in _REFUSING if _UNSPACED_RE.search(r, timeout=REGEX_TIMEOUT_S)):
        return False
    i = 0
    while i < len(word):
        size = next((k for k in range(min(len(word) - i, 6), 1, -1) if word[i:i + k] in names), 0)
        if size:
            keys.add(names[word[i:i + size]])
        elif word[i] in _name_chars():
            return False
        i += size or 1
    return True


@functools.lru_cache(maxsize=1)
def _name_chars() -> frozenset[str]:
    """The characters of the unspaced scripts' names (星, 期, 三, 曜, 日 …): one left over is part of another name."""
    return frozenset(c for name in calendar_names() for c in name if _UNSPACED_RE.match(c, timeout=REGEX_TIMEOUT_S))
