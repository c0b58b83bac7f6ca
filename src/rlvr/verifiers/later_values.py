"""How the later reader sees a sentence's values: digits of any script and number words (English,
Chinese, Roman) folded into ASCII digits, the key a value is compared by (an equation's right side; a
temperature in degrees Celsius), and whether an approximation agrees with the answer at its precision."""

from __future__ import annotations

import unicodedata

import regex

from rlvr.verifiers.approximations import approximates
from rlvr.verifiers.cache import byte_cache
from rlvr.verifiers.east_asian_units import measure_after_number
from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.normalize import value_key
from rlvr.verifiers.numbers import simple_value
from rlvr.verifiers.slots import clean
from rlvr.verifiers.units import number_from_words

__all__ = ["fold_digits", "fold_odds", "key", "agrees_approximately"]

_DIGIT_RE = regex.compile(r"[0-9]")
_ROMAN_RE = regex.compile(r"\b(?=[MDCLXVI]{2,}\b)M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})\b")
_CJK_NUMBER_RE = regex.compile(r"[零〇一二两三四五六七八九十百千]+")
_CJK_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_CJK_SCALES = {"十": 10, "百": 100, "千": 1000}
_NUMBER_WORDS = (
    r"(?i)\b(?:(?:minus|negative)[ -])?(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
    r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|"
    r"hundred|thousand|million)(?:[ -](?:and[ -])?(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|"
    r"ninety|hundred|thousand|million))*+\b")  # possessive: "forty-one apples" is read whole or not at all, never "40-one"
# "two tables", "no two guests": a count, no value
_NUMBER_WORDS_RE = regex.compile(_NUMBER_WORDS + r"(?![ \t]+(?!(?:and|or|but|then|so|is|was|instead|ways)\b)\p{L})")
# in a sentence that takes the answer back, a count said as what something is or has is a value too ("Wait,
# actually it's forty-one apples", "she really has eleven marbles", "it has only one"); "all three methods agree",
# "the two masses" and "I mean ten distinct handshakes" describe
_COUNT_WORDS_RE = regex.compile(r"(?<=\b(?:is|are|'s|was|were|has|have|had|gets?|got|gives?|makes?|leaves?|only|just|"
                                r"equals?|totals?)\s+)" + _NUMBER_WORDS)


_CLAUSE_END_RE = regex.compile(r"\s*(?:[.!?,;)]|$)")


def _number_word(m: regex.Match) -> str:
    if m[0].lower() == "one" and not (m.re is _COUNT_WORDS_RE and _CLAUSE_END_RE.match(m.string, m.end(), timeout=REGEX_TIMEOUT_S)):
        return m[0]  # "one squig", "one of them": a pronoun or article as often as a number ("only one." is one)
    n = number_from_words(m[0])
    return m[0] if n is None else str(n)


def _cjk_number(m: regex.Match) -> str:
    run = m[0]
    if run.endswith("千") and len(run) > 1 and measure_after_number(m.string[m.end() - 1:m.end() + 12]):
        run = run[:-1]  # "三千克" is three kilograms: the 千 of a unit stays with it
    elif measure_after_number(m.string[m.start():m.start() + 12]):
        return run  # "千克" after a digit: a unit, not the number 1000
    total = current = 0
    for c in run:
        if c in _CJK_DIGITS:
            current = _CJK_DIGITS[c]
        else:
            total += max(current, 1) * _CJK_SCALES[c]
            current = 0
    return f" {total + current} " + m[0][len(run):]


def _roman_number(m: regex.Match) -> str:
    values = {"M": 1000, "D": 500, "C": 100, "L": 50, "X": 10, "V": 5, "I": 1}
    total = 0
    for a, b in zip(m[0], m[0][1:] + " "):
        total += -values[a] if b != " " and values[a] < values[b] else values[a]
    return str(total)


# "1 in 6", "a 1 in 6 chance", "1 chance in 52", "3 out of 4": a probability written as its odds
_ODDS_RE = regex.compile(r"(?i)(?<![\p{L}\p{N}.])(?:an?\s+)?([0-9]{1,9})\s+(?:chances?\s+)?(?:in|out\s+of)\s+([0-9]{1,9})"
                         r"(?:\s+chances?)?(?!\.?\p{N})")


def fold_odds(text: str) -> str:
    """Odds written in words as the fraction they state ("or 1 in 6" -> "or 1/6")."""
    if " in " not in text and " out of " not in text:
        return text
    return _ODDS_RE.sub(r"\1/\2", text, timeout=REGEX_TIMEOUT_S)


def fold_digits(text: str, counts: bool = False) -> str:
    """Digits of any script (fullwidth, Arabic-Indic, Devanagari …) as ASCII, and number words (English,
    Chinese, Roman) as digits; ``counts``: a number word before a noun too ("forty-one apples")."""
    if not text.isascii():
        text = "".join(str(unicodedata.digit(c)) if unicodedata.category(c) == "Nd" else c for c in text)
        if _CJK_NUMBER_RE.search(text, timeout=REGEX_TIMEOUT_S):
            text = _CJK_NUMBER_RE.sub(_cjk_number, text, timeout=REGEX_TIMEOUT_S)
    if _ROMAN_RE.search(text, timeout=REGEX_TIMEOUT_S):
        text = _ROMAN_RE.sub(_roman_number, text, timeout=REGEX_TIMEOUT_S)
    words = _COUNT_WORDS_RE if counts else _NUMBER_WORDS_RE
    if words.search(text, timeout=REGEX_TIMEOUT_S):
        text = words.sub(_number_word, text, timeout=REGEX_TIMEOUT_S)
    if counts:
        text = _other_language_numbers(text)
    return fold_odds(text)


def _other_language_numbers(text: str) -> str:
    """Number words of text2num's other languages as digits ("Eigentlich sind es einundvierzig" -> "… 41"), in the
    first language that reads any (an article alone, "un", "eine", stays a word). Read only in a sentence that
    takes the answer back, where a number in words is the value it names."""
    if len(text) > 2000:
        return text  # a retraction is a sentence; a page of words is read as it is
    try:
        from text_to_num import alpha2digit
    except ImportError:  # text2num is a dependency; without it the words stay words
        return text
    for lang in _OTHER_LANGUAGES:
        try:
            read = alpha2digit(text, lang)
        except (ValueError, TypeError, IndexError, KeyError):
            continue
        if read != text and _DIGIT_RE.search(read, timeout=REGEX_TIMEOUT_S):
            return read
    return text


_OTHER_LANGUAGES = ("fr", "es", "pt", "de", "it", "nl", "da")  # text2num's, English read above


@byte_cache(0.02)
def key(text: str) -> object:
    value = clean(text)
    lhs, eq, rhs = value.partition("=")
    if eq and rhs.strip() and not _DIGIT_RE.search(lhs, timeout=REGEX_TIMEOUT_S):
        value = rhs.strip()  # "c/a = 6", "x = 2": what the equation states is its right side
    return value_key(value)


def agrees_approximately(value: str, answer: str) -> bool:
    """``0.707`` for ``\\frac{\\sqrt{2}}{2}``, ``33.3%`` for 1/3: equal at the approximation's own precision."""
    v, a = simple_value(value.rstrip("%").rstrip("\\").strip()), simple_value(answer)
    if v is None or a is None:
        return True  # an approximation of an answer we cannot evaluate here is no evidence against it
    if value.strip().endswith("%"):
        v /= 100
    return approximates(clean(value), v, a)
