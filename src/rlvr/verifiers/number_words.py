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
from typing import Any

import regex

from rlvr.verifiers.lexicon import ALTERNATIVE_WORDS, ANSWER_WORDS, CONCLUSION_WORDS, RESULT_VERBS
from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.vocabulary_cache import cached, installed_version

logger = logging.getLogger(__name__)

__all__ = ["scale_words", "small_words", "scale_values", "scale_value", "numeral_char", "words_value", "han_value", "warm",
           "sign_words", "negated_number", "sign_before", "negative_of"]

# what is spelled out: the scales and a few multiples of each (so inflected forms appear: "два миллиона",
# "пять миллионов"), and the hundreds (a number word after a number: "18 hundred" is 1800)
_SPELLED = (100, 200, 500, 1_000, 2_000, 5_000, 21_000, 10**4, 10**6, 2 * 10**6, 5 * 10**6, 10**8, 10**9, 2 * 10**9,
            5 * 10**9, 10**12, 2 * 10**12)


@functools.lru_cache(maxsize=1)
def _vocabulary() -> dict[str, Any]:
    """Every vocabulary this module reads off CLDR, computed once per ``unicode-rbnf`` release and kept in
    the user's cache folder (one pass over ninety languages takes seconds; a worker loads it in milliseconds)."""
    try:
        import unicode_rbnf
    except ImportError:  # a dependency of rlvr; without it only the lexicon's English words are known
        logger.warning("unicode-rbnf is not installed: number words of other languages are not recognised")
        return {"scale_words": [], "small_words": [], "unspaced": "",
                "scale_values": {w: {"en": v} for w, v in _ENGLISH_SCALES.items()}, "sign_words": ["minus"]}
    release = getattr(unicode_rbnf, "__version__", None) or installed_version("unicode-rbnf")
    folder = os.path.join(os.path.dirname(unicode_rbnf.__file__), "rbnf")
    return cached("number-words-4", release, lambda: _read_spellouts(folder))


def _read_spellouts(folder: str) -> dict[str, Any]:
    from unicode_rbnf import RbnfEngine

    words: set[str] = set()
    small: set[str] = set()
    unspaced: set[str] = set()
    values: dict[str, dict[str, int]] = {}  # word -> {language: the scale it names there}
    signs: set[str] = set()  # what a language's spell-out of -7 puts before 7: "minus", "moins", "menos", "минус", "负"
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".xml") or name == "root.xml":
            continue
        try:
            engine = RbnfEngine.for_language(name[:-4])
        except Exception:  # a locale whose rules this version cannot load
            continue
        try:
            negative, positive = engine.format_number(-7).text, engine.format_number(7).text
            if negative.endswith(positive) and negative != positive:
                signs.add(negative[:-len(positive)].strip().lower())
        except Exception:
            pass
        spelled: dict[int, dict[str, str]] = {}
        for number in set(_SPELLED) | set(range(1, 10)) | {m * s for s in _SCALES for m in (1, 2, 5)}:
            try:
                result = engine.format_number(number)
            except Exception:
                continue
            spelled[number] = dict(getattr(result, "text_by_ruleset", {}) or {}) or {"": result.text}
            spelled[number].setdefault("", result.text)
        for number, texts in spelled.items():
            for text in texts.values():
                tokens = text.replace("-", " ").split()
                (small if number < 10 else words).update(w.lower() for w in tokens)
                if number >= 10 and len(tokens) == 1 and len(text) <= 6 and not any(c.isascii() for c in text):
                    unspaced.update(text)  # 一万, 이천, 四十二万: scripts that write numbers without spaces
        for scale in _SCALES:  # a scale's word is what its spell-out adds to the multiplier's
            for m in (1, 2, 5):
                for ruleset, text in spelled.get(m * scale, {}).items():
                    tokens = text.replace("-", " ").split()
                    head = spelled.get(m, {}).get(ruleset, spelled.get(m, {}).get("", "")).replace("-", " ").split()
                    if m == 1 and len(tokens) == 1:  # "mille", "hundred" in languages that drop the "one"
                        values.setdefault(tokens[0].lower(), {}).setdefault(name[:-4], scale)
                    elif len(tokens) == len(head) + 1 and tokens[:-1] == head:
                        values.setdefault(tokens[-1].lower(), {}).setdefault(name[:-4], scale)
                    elif m > 1 and len(tokens) == 1 and len(head) == 1 and tokens[0].startswith(head[0]) \
                            and len(tokens[0]) > len(head[0]) + 2:  # "zweitausend", "duemila": written as one word
                        suffix = tokens[0][len(head[0]):].lower()
                        values.setdefault(suffix, {}).setdefault(name[:-4], scale)
                        words.add(suffix)
    return {"scale_words": sorted(words - small), "small_words": sorted(small), "unspaced": "".join(sorted(unspaced)),
            "scale_values": values, "sign_words": sorted(w for w in signs if w)}


_ENGLISH_SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9, "trillion": 10**12}


@functools.lru_cache(maxsize=1)
def _sets() -> tuple[frozenset[str], frozenset[str]]:
    v = _vocabulary()
    return frozenset(v["scale_words"]), frozenset(v["unspaced"])


def small_words() -> frozenset[str]:
    """The words of 1-9 in every language CLDR spells ("zwei", "due", "trois"): never what a number counts."""
    return frozenset(_vocabulary()["small_words"])


def scale_words() -> frozenset[str]:
    """Every word (lower case) of CLDR's spell-outs of hundreds, thousands, millions, billions and
    trillions, in every language and case ``unicode-rbnf`` knows ("hundred", "mille", "Millionen",
    "миллиона", "milioni"); the words of 1-9 that these spell-outs hold are left out, since they occur
    as other words too ("en", "un", "bir")."""
    return _sets()[0]


def numeral_char(char: str) -> bool:
    """万, 千, 百, 十, 亿, 兆, 萬, 만, 천, 억: a character of a number written without spaces (it has a numeric
    value in the Unicode Character Database, or it occurs in CLDR's spell-out of a scale in such a
    script), never a measure word (个, 個, 개, 명)."""
    return unicodedata.numeric(char, None) is not None or char in _sets()[1]


def warm() -> None:
    """Build the vocabularies now (a worker does this before it reports ready)."""
    _sets()
    words_value("twelve")


# the scales whose words a value may be followed by ("2 thousand people", "1.5 Millionen", "12 lakh")
_SCALES = (10**2, 10**3, 10**4, 10**5, 10**6, 10**7, 10**8, 10**9, 10**12, 10**15, 10**18)


def scale_values() -> dict[str, dict[str, int]]:
    """What each scale word multiplies by, in every language and case CLDR spells, by language: "thousand"
    {"en": 1000}, "millionen" {"de": 10**6}, "миллиона" {"ru": 10**6}, "lakh" 10**5, "billion" {"en": 10**9,
    "fr": 10**12, …}. Read from the spell-outs: a scale's word is what the spell-out of 1, 2 or 5 times the scale
    adds to the spell-out of 1, 2 or 5."""
    return _vocabulary()["scale_values"]


def scale_value(word: str) -> int | None:
    """What the scale word ``word`` multiplies by, or ``None`` when it is none or its languages disagree. A word
    of two scales ("billion": 10**9 in English, 10**12 in French and German) takes its English value when it is
    written in lower case (a German noun is capitalised: "1 Billion" may be either, and is read as neither)."""
    by_language = scale_values().get(word.lower())
    if not by_language:
        return None
    found = set(by_language.values())
    if len(found) == 1:
        return found.pop()
    return by_language.get("en") if word.islower() else None


_TEXT2NUM_LANGUAGES = ("en", "fr", "es", "pt", "de", "nl", "da", "it")


def words_value(text: str) -> int | None:
    """The number that ``text`` spells out ("twelve", "vingt et un", "zwölf", "dreiundzwanzig"), read by
    ``text2num`` in each of its languages; ``None`` unless the languages that read it agree on one value."""
    words = text.strip().lower()
    if len(words) < 3 or not any(c.isalpha() for c in words) or any(c.isdigit() for c in words):
        return None
    try:
        from text_to_num import text2num
    except ImportError:
        return None
    found = set()
    for lang in _TEXT2NUM_LANGUAGES:
        try:
            found.add(int(text2num(words, lang)))
        except (ValueError, TypeError, IndexError, KeyError):
            continue
    return found.pop() if len(found) == 1 else None


# English writes a negative number "negative five" as often as "minus five"; CLDR spells only the latter
_SIGN_WORDS_BESIDE_CLDR = ("negative",)


@functools.lru_cache(maxsize=1)
def sign_words() -> frozenset[str]:
    """The words that make a number negative, in every language CLDR spells numbers in."""
    words = {w.strip().strip("\u200b").strip() for w in _vocabulary().get("sign_words", ())}
    # short Latin words are other words too ("min" is a minute or a minimum, "kaw"), as for scale words
    return frozenset(w for w in words if w and not (w.isascii() and len(w) < 4)) | frozenset(_SIGN_WORDS_BESIDE_CLDR)


def negated_number(text: str) -> str | None:
    """``"-5"`` for "negative five", "minus 5", "moins cinq", "минус 5", "负五": a sign word and then one number in
    digits or in words; ``None`` otherwise (so "minus signs" and "5 minus 3" are left as they are)."""
    words = text.strip()
    lowered = words.lower()
    for sign in sign_words():
        if not lowered.startswith(sign) or len(lowered) <= len(sign):
            continue
        rest = words[len(sign):]
        if sign.isascii() and not rest[0].isspace():
            continue  # "minusfive" is no sign word; unspaced scripts write the sign glued on ("负五")
        rest = rest.strip()
        if _SIGNED_AMOUNT_RE.fullmatch(rest, timeout=REGEX_TIMEOUT_S):
            return "-" + rest  # "minus 5", "minus 1,000", "minus 5 degrees Celsius"
        if (value := words_value(rest)) is not None or (value := han_value(rest)) is not None:
            return str(-value)
        maths = rest.strip("$ ")
        # one math span (the slot reader drops its closing sign): "negative $2 - \\sqrt{3}$" is -(2 - √3); plain text
        # with a sign inside ("minus 5 - 5", "minus \\pi-1", "minus 2-.5") may be read two ways: refused
        one_span = rest.startswith("$") and rest.count("$") <= 2
        if _MATH_OPERAND_RE.fullmatch(maths, timeout=REGEX_TIMEOUT_S) and any(c.isdigit() for c in maths) and (
                one_span or not any(c in maths for c in "+-−")):
            return f"-({maths})"
    return None


_LAST_WORD_RE = regex.compile(r"(\p{L}+)[ \t\u200b]*+$")
_MATH_OPERAND_RE = regex.compile(r"(?:\\[A-Za-z]+|[0-9{}()\[\]^_.+\-*/ \t])+")  # digits, operators and macros: no words
_LAST_TOKEN_RE = regex.compile(r"(\S+)[ \t\u200b]*+$")
# words that make a sign word after them part of a hedge: "or" in the languages read, and the plus it pairs with
_HEDGING = frozenset(w for w in ALTERNATIVE_WORDS if " " not in w) | {"plus", "positive"}
# a name and "=" ("x = minus 5"), or a conclusion word and its comma ("Thus, negative 5"), right before a sign word
_NAMED_OR_CONCLUDED_RE = regex.compile(r"(?i)(?:(?<![\p{L}\p{N}])[A-Za-z][ \t]*=|(?<![\p{L}])(?:" + "|".join(
    regex.escape(w) for w in CONCLUSION_WORDS if " " not in w) + r")[ \t]*,?)[ \t\u200b]*+$")
# a stating word right before a sign word ("is minus 5", "equals minus 5", "at negative 3")
_WORD_RE = regex.compile(r"\p{L}+")
_UNSPACED_RE = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]")
# a number in digits (with its thousands groups) and the words of its unit or noun
_SIGNED_AMOUNT_RE = regex.compile(r"(?:[0-9]{1,3}(?:,[0-9]{3})++|[0-9]++)(?:\.[0-9]++)?(?:[ \t]?°)?(?:[ \t]+\p{L}{1,20}){0,3}")
_STATING_RE = regex.compile(r"(?i)(?<![\p{L}])(?:is|are|was|were|be|equals?|becomes?|gives?|at|to)[ \t\u200b]*+$")


def negative_of(value: str) -> str:
    """``value`` with a minus sign: before a plain number, or around anything else ("-(2 - \\sqrt{3})")."""
    return "-" + value if value.replace(".", "", 1).replace(",", "").isdigit() else f"-({value})"


def _opens_value(before: str) -> bool:
    """Whether a sign word after ``before`` opens a value: at the start of the text, a line or a clause, after a
    one-letter name and "=", after a conclusion word, or after an English stating word that no hedge or other sign
    word precedes ("The answer is minus 5"; not "or is minus 5", "plus, minus 5")."""
    line = before[before.rfind("\n") + 1:]
    if not line.strip(" \t,;:：，"):
        return True  # "minus 5", ", negative 5"
    words = {w.lower() for w in _WORD_RE.findall(line[-80:], timeout=REGEX_TIMEOUT_S)}
    if words & _HEDGING or words & sign_words():
        return False  # "plus or, x = minus 5", "positive; therefore negative 5": a hedge earlier on the line
    tail = line[-60:]
    return bool(_NAMED_OR_CONCLUDED_RE.search(tail, timeout=REGEX_TIMEOUT_S) or _STATING_RE.search(tail, timeout=REGEX_TIMEOUT_S)
                or _stating_phrases().search(tail, timeout=REGEX_TIMEOUT_S))


@functools.lru_cache(maxsize=1)
def _stating_phrases() -> Any:
    """The lexicon's result verbs and answer words of every language it reads, right before a sign word: "x равен
    минус 5", "ответ минус 5", "x等于负5", "it comes to minus 5" (unspaced scripts glue them to what precedes)."""
    phrases = sorted(RESULT_VERBS + ANSWER_WORDS, key=len, reverse=True)
    glued = {p for p in phrases if _UNSPACED_RE.search(p, timeout=REGEX_TIMEOUT_S)}
    spaced = "|".join(regex.escape(p) for p in phrases if p not in glued)
    unspaced = "|".join(regex.escape(p) for p in phrases if p in glued)
    return regex.compile(r"(?i)(?:(?<![\p{L}])(?:" + spaced + r")|(?:" + unspaced + r"))[ \t:：]*+$")


def sign_before(text: str, start: int) -> tuple[str, int] | None:
    """The sign word right before the value at ``start`` and where it begins: ``("sign", at)`` when it makes the
    value negative ("is negative 3", "Answer: minus 5", "答案：负5"), ``("operation", at)`` when something stands
    before it that it may subtract from or hedge with ("ten minus 3", "plus or minus 5", "正负5"), where ``at`` is
    that word's start; ``None`` when no sign word stands there."""
    head = text[max(0, start - 60):start]
    m = _LAST_WORD_RE.search(head, timeout=REGEX_TIMEOUT_S)
    if m is None:
        return None
    run, at = m[1].lower(), m.start(1)
    if run not in sign_words():  # unspaced scripts glue the sign word to what comes before it ("答えはマイナス5")
        glued = next((w for w in sign_words() if not w.isascii() and run.endswith(w)), None)
        if glued is None:
            return None
        at += len(run) - len(glued)
    kind = "sign" if _opens_value(text[:start - len(head) + at]) else "operation"
    if kind == "operation":  # the operand or hedge word before it belongs to the value ("plus/minus 5", "[x] minus 3")
        operand = _LAST_TOKEN_RE.search(head[:at], timeout=REGEX_TIMEOUT_S)
        at = operand.start(1) if operand else at
    return kind, start - len(head) + at


_HAN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
               "九": 9}
_HAN_SMALL = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
_HAN_LARGE = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8, "兆": 10**12}


def han_value(text: str) -> int | None:
    """A number in Chinese or Japanese numerals ("二十" 20, "一百二十" 120, "三万五千" 35000, "十二" 12), or
    ``None`` when ``text`` is not one."""
    if not text or any(c not in _HAN_DIGITS and c not in _HAN_SMALL and c not in _HAN_LARGE for c in text):
        return None
    total = section = digit = 0
    seen = False
    for c in text:
        if c in _HAN_DIGITS:
            digit, seen = _HAN_DIGITS[c], True
        elif c in _HAN_SMALL:
            section += (digit or 1) * _HAN_SMALL[c]
            digit, seen = 0, True
        else:
            if not seen and not section:
                return None
            total += (section + digit) * _HAN_LARGE[c]
            section = digit = 0
    return total + section + digit if seen or total else None
