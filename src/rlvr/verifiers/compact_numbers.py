"""Numbers in CLDR's compact forms: "$42K", "\\$2.5\\text{M}", "4.2万", "300万円", "3 млн", "3만 원".

Salaries, prices and populations are written this way by models and in Chinese, Japanese and Korean K-12 sets
("答：共有42万人。" is 420,000 people). The abbreviations and what each multiplies by are read from the compact
decimal formats of ``babel``'s locale data (``0K``/``0M`` in English, ``0万``/``0亿`` in Chinese, ``0만``/``0억``
in Korean, ``0 тыс.``/``0 млн`` in Russian …), and cached per release; an abbreviation two locales give different
values is none. A Latin letter after a space is also a unit ("42 K" is kelvin, "2.5 M" molar), so a Latin abbreviation
counts only glued to the digits ("42K", "2.5M") or beside a currency sign ("$42 K"), and only as English writes it
("Bn" and "bil" are 10^12 in some locales and are not read); one of another script ("万", "млн") is never a unit and
always counts.
"""

from __future__ import annotations

import functools
import logging
from decimal import Decimal, InvalidOperation

import regex

from rlvr.verifiers.currencies import is_currency
from rlvr.verifiers.east_asian_units import measure_after_number
from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.vocabulary_cache import cached, installed_version

logger = logging.getLogger(__name__)

__all__ = ["compact_scales", "compact_value"]

_PATTERN_CHARS_RE = regex.compile(r"[0#'.\s\u00a0\u202f]+")


def _read_babel() -> dict[str, int]:
    from babel import Locale, localedata

    from rlvr.verifiers.percent_words import ANSWER_LANGUAGES

    found: dict[str, dict[str, int]] = {}  # abbreviation -> language -> factor
    for identifier in localedata.locale_identifiers():
        if identifier.split("_")[0] not in ANSWER_LANGUAGES:
            continue  # the languages answers are read in: another's abbreviation may be one of their words
        try:
            formats = Locale.parse(identifier).compact_decimal_formats
        except Exception:  # a locale this release cannot parse, or one without compact formats
            continue
        for length in formats.values():
            for by_magnitude in length.values():
                for magnitude, pattern in by_magnitude.items():
                    text = str(getattr(pattern, "pattern", pattern)).split(";")[0]
                    abbreviation = _PATTERN_CHARS_RE.sub(" ", text, timeout=REGEX_TIMEOUT_S).strip()
                    zeros = text.count("0")
                    if not text.startswith("0") or not abbreviation or " " in abbreviation or not zeros or not any(c.isalpha() for c in abbreviation):
                        continue
                    found.setdefault(abbreviation, {})[identifier.split("_")[0]] = int(magnitude) // 10 ** (zeros - 1)
    # one value in every locale that has the abbreviation; where they disagree ("M": a million in English, a
    # thousand in Portuguese's "mil"-less forms), English's, as the answers read here are written
    # a Latin abbreviation is read as English writes it and no other way: "Bn", "bil" and "mm" mean 10^12, 10^12
    # and 10^9 in some locales and a billion, a billion and a million to an English reader
    return {word: by.get("en") or next(iter(set(by.values()))) for word, by in found.items()
            if "en" in by or (len(set(by.values())) == 1 and not _LATIN_RE.search(word, timeout=REGEX_TIMEOUT_S))}


@functools.lru_cache(maxsize=1)
def compact_scales() -> dict[str, int]:
    """Every CLDR locale's compact abbreviation -> the power of ten it multiplies by ("K" 1000, "万" 10000)."""
    import importlib.util

    if importlib.util.find_spec("babel") is None:
        logger.warning("babel is not installed: compact numbers ('42K', '4.2万') are not read")
        return {}
    scales = dict(cached("compact-scales-4", installed_version("babel"), _read_babel))
    for word, factor in list(scales.items()):  # "42k", "2.5m": the lower case spelling, where it names no other
        scales.setdefault(word.lower(), factor)
    return scales


# a thousand, a million or a billion written straight after the digits ("42K", "2.5M", "3B"): never a unit there
# (kelvin and molar are written with a space, metres in lower case)
_GLUED_RE = regex.compile(r"(?<=[0-9])(?:K|k|M|B)(?![\p{L}])")


_LATIN_RE = regex.compile(r"\p{Latin}")
_NOUN_RE = regex.compile(r"[\p{L} ]*")
# two letters of a spaced script in a row: the abbreviation would end inside a word
_WORD_LETTER_RE = regex.compile(r"[\p{Latin}\p{Cyrillic}\p{Greek}]{2}")
# [currency] number [\text{]abbreviation[.][}] [currency] [what it counts]
_COMPACT_RE = regex.compile(
    r"\s*(?P<pre>\\?\$|[^\w\s\\{}()\[\].,+\-]{1,3}|[A-Z]{3}\s|R\\?\$|US\\?\$)?\s*(?P<number>[-+]?[0-9]{1,15}(?:,[0-9]{3})*"
    r"(?:\.[0-9]{1,12})?)\s*(?:\\[,;! ]\s*)*(?:\\(?:text|mathrm|mbox|textrm)\s*\{\s*)?(?P<rest>.{1,40}?)\s*$", regex.DOTALL)
_TAIL_RE = regex.compile(r"\.?\s*\}?\s*(?:\\[,;! ]\s*)*(?:\\(?:text|mathrm|mbox|textrm)\s*\{\s*)?(?P<tail>.*?)\s*\}?\s*[.。]?\s*$",
                      regex.DOTALL)
_SIGN_RE = regex.compile(r"\\?\$|[^\w\s\\{}]{1,3}|\p{L}{1,4}\.?")


def compact_value(text: str) -> str | None:
    """``text`` as its plain number, with what it counts after it, when its number is written in a compact form
    ("\\$42\\text{K}" -> "42000", "42万人" -> "420000 人", "3만 원" -> "30000"); ``None`` when it is not one."""
    if len(text) > 80 or not any(c.isalpha() for c in text):
        return None
    m = _COMPACT_RE.fullmatch(text, timeout=REGEX_TIMEOUT_S)
    if m is None:
        return None
    scales = compact_scales()
    rest = m["rest"]
    # the longest abbreviation there; one of letters ends at its word's end ("$5 mil" holds no "m")
    word = next((rest[:k] for k in range(min(len(rest), 5), 0, -1) if rest[:k] in scales
                 and not (_WORD_LETTER_RE.match(rest[k - 1:k + 1], timeout=REGEX_TIMEOUT_S))), None)
    if word is None or measure_after_number(rest):
        return None  # "150 千米" is 150 km, "3.5千克" 3.5 kg: a measure word that opens with a scale character
    if m["pre"] and not is_currency(m["pre"].strip().replace("\\$", "$")):
        return None
    currency = m["pre"] is not None
    tail = _TAIL_RE.fullmatch(rest, len(word), timeout=REGEX_TIMEOUT_S)
    noun = tail["tail"] if tail else ""
    if noun and (sign := _SIGN_RE.match(noun, timeout=REGEX_TIMEOUT_S)) and is_currency(sign[0].replace("\\$", "$")):
        currency, noun = True, noun[sign.end():].strip(" }")  # "300万円", "3만 원"
    glued = _GLUED_RE.match(text, m.start("rest"), timeout=REGEX_TIMEOUT_S) is not None and word in ("K", "k", "M", "B")
    if _LATIN_RE.search(word, timeout=REGEX_TIMEOUT_S) and not currency and not glued:
        return None  # "42K" may be kelvin, "2.5M" metres: a Latin letter is a scale only beside a currency sign
    if glued and not currency and not _NOUN_RE.fullmatch(noun, timeout=REGEX_TIMEOUT_S):
        return None  # "2k\pi", "2k + 1": a glued letter before maths is a variable, not a thousand
    try:
        value = Decimal(m["number"].replace(",", "")) * scales[word]
    except InvalidOperation:
        return None
    shown = format(value.normalize(), "f") if value == value.to_integral() else format(value, "f").rstrip("0")
    return f"{shown} {noun}".strip() if noun else shown
