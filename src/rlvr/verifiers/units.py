"""What a value carries besides its number: units, number words and clock times.

A unit after a number says what the number counts, not a different number: ``5\\ \\text{m}``,
``5 \\mathrm{~s}``, ``12\\ \\Omega``, ``20^\\circ\\text{C}``, ``9.8 \\text{ m/s}^2``, ``60 km/h`` and
"15 dollars per hour" all answer 5, 12, 20, 9.8, 60 and 15. A unit is read only after a plain
number and only when every part of it is in the lexicon's units, so ``5x`` or ``5 \\text{ is wrong}``
are never a number with a unit. "forty-two" is 42, and ``20:34:00`` is ``20:34``.
"""

from __future__ import annotations

import unicodedata

import regex

from rlvr.verifiers.lexicon import (
    ALTERNATIVE_WORDS, ANSWER_WORDS, APPROXIMATION_WORDS, MEASURE_WORDS, BOUND_WORDS, FUNCTION_WORDS, HEDGE_WORDS, LIST_WORDS, MODIFIERS_AFTER,
    NEGATION_WORDS, NEGATIVE_EVALUATIONS, OPERATION_WORDS, REJECTION_WORDS, RETRACTION_CUES, UNIT_SYMBOLS, UNIT_WORDS,
    UNSURE_PHRASES, WITHDRAWAL_CUES,
)
from rlvr.verifiers.conversions import unit_name
from rlvr.verifiers.east_asian_units import measure_after_number, measure_prefix
from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.number_words import han_value, numeral_char, scale_value, scale_words, small_words, words_value

__all__ = ["scale_word_after", "split_unit", "number_from_words", "clock_time", "unit_word", "unit_words", "canonical_unit", "unit_after", "count_noun",
           "scaled_value"]

_UNITS = frozenset(u.lower() for u in UNIT_WORDS + UNIT_SYMBOLS) | {"ω", "omega", "μ", "mu", "circ", "°", "per"}
# short unit symbols are case-sensitive (K is kelvin, k a prefix); unit words are not
_SYMBOLS = frozenset(u for u in UNIT_SYMBOLS if len(u) <= 2) | {"%", "\\%", "°", "'", "''", "\\prime", "Ω", "μ"}
_WORD_UNITS = frozenset(u.lower() for u in UNIT_WORDS + UNIT_SYMBOLS if len(u) > 2) | {"omega", "per"}


def _unit_symbol(word: str) -> bool:
    """A unit of the lexicon; symbols of one or two letters only in their own case (``7a`` is no ampere)."""
    w = word.strip(".")
    if len(w) <= 2 and w.isascii() and w.isalpha():
        return w in _SYMBOLS
    return w.lower() in _UNITS


def unit_word(word: str, open_class: bool = False, last: bool = True) -> bool:
    """A unit symbol or word; ``open_class``: also a count noun (:func:`count_noun`: "apples", "sheep",
    "children", "pommes", "яблока"), which says what the number counts without changing it."""
    w = word.strip(".")
    if w.lower() in _NOT_COUNTED:
        return False  # "18 k per day": a scale, not kelvin
    if w in _SYMBOLS or w.lower() in _WORD_UNITS or canonical_unit(w) is not None:
        return True  # "mins", "hrs", "wk": the unit table's own abbreviations and plurals
    return open_class and (_noun_word(w, last=last) or (not last and w.lower() in _DESCRIBING))


# words that change the number they follow or say something about it: operations ("squared", "halves"),
# comparisons and bounds ("more", "at least"), approximations, hedges, negations, withdrawals, alternatives
# and lists, in every language the lexicon has them; with the number and scale words of every language
# CLDR spells numbers in (number_words), they are the closed class a count noun is not
# (the words of answer labels are no such words: "kết quả" labels an answer, "12 quả táo" counts apples)
_CHANGING_GROUPS = (OPERATION_WORDS, FUNCTION_WORDS, MODIFIERS_AFTER, APPROXIMATION_WORDS, BOUND_WORDS, HEDGE_WORDS,
                    NEGATION_WORDS, WITHDRAWAL_CUES, RETRACTION_CUES, UNSURE_PHRASES, REJECTION_WORDS,
                    NEGATIVE_EVALUATIONS, ALTERNATIVE_WORDS, LIST_WORDS)
_CHANGING = frozenset(w.lower() for group in _CHANGING_GROUPS for phrase in group for w in phrase.split()) - (
    frozenset(w.lower() for phrase in ANSWER_WORDS for w in phrase.split() if not w.isascii()))
# the closed class's phrases whole ("al menos", "at best"), and its words that change a number on their own ("or", "max")
_CHANGING_PHRASES = frozenset(phrase.lower() for group in _CHANGING_GROUPS for phrase in group)
# adjectives of the closed class above that describe what is counted, before its noun ("3 possible values"): the
# count is said, not doubted
_DESCRIBING = frozenset({"possible", "feasible", "valid", "admissible", "allowable"})
_EAST_ASIAN_RE = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]+")
_NOUN_CHARS = frozenset("'’-")


def _noun_word(word: str, last: bool = True) -> bool:
    """One word that can only name what a number counts (see :func:`count_noun`); ``last``: the noun itself, not a
    word that describes it ("ordered" of "ordered pairs" is no participle done to the number)."""
    lowered = word.lower()
    if lowered in _COUNTED_PLURALS:
        return True
    if lowered in _NOT_COUNTED:
        return False
    if not word or not word[0].isalpha() or not all(
            c.isalpha() or c in _NOUN_CHARS or unicodedata.category(c).startswith("M") for c in word):
        return False  # letters, with the vowel signs and accents some scripts write as marks ("सेब")
    if _EAST_ASIAN_RE.fullmatch(word, timeout=REGEX_TIMEOUT_S):
        # a count opens with a classifier (个苹果, 個, 개, 명) and holds no numeral (万, 千, 만): "的平方" (squared),
        # "以上" (or more), "ではない" (is not) open with none
        if (unit := measure_prefix(word)) and not any(numeral_char(c) for c in word[unit:] if c not in MEASURE_WORDS):
            return True  # a measure: a unit's name as CLDR writes it ("小时", "千克", "キロメートル", "시간")
        opens = word[0] in MEASURE_WORDS or word[:2] in MEASURE_WORDS
        return opens and not any(numeral_char(c) for c in word if c not in MEASURE_WORDS)
    if word.isascii() and (len(word) < 3 or not any(c in "aeiouAEIOU" for c in word)):
        return unit_name(word)  # "ab", "xyz": variables as often as words; "kWh", "GB", "pcs": units
    if lowered in _CHANGING or lowered in scale_words() or lowered.rstrip("s") in _CHANGING \
            or lowered.rstrip("s") in scale_words() or lowered in small_words():
        return False  # a word that changes the number, or a number word of any language ("hoch zwei")
    if last and word.isascii() and len(word) >= 5 and lowered.endswith("ed") and not lowered.endswith("eed"):
        return False  # a participle does something to the number ("inverted", "quadrupled", "refuted")
    # fractions' words count parts of the number ("thirds", "billionths"), they do not count things
    return not (word.isascii() and lowered.endswith(("ths", "th")) and lowered[:-2].rstrip("t") in _ORDINAL_STEMS)


# the plurals of math objects an answer counts ("2 solutions", "3 real roots", "4 values"), whose singulars are
# words that change a number elsewhere ("the root of", "a factor of", "the solution is")
# words that say how the number is held, not what it counts ("(either sign)", "(estimate)", "42 k")
_NOT_COUNTED = frozenset("either neither sign signs estimate estimated draft guess rough k bn mn mln".split())
_COUNTED_PLURALS = frozenset("roots zeros zeroes solutions values factors divisors multiples terms".split())
_ORDINAL_STEMS = frozenset("four fif six seven eigh nin ten eleven twelf thirteen fourteen fifteen sixteen seventeen "
                           "eighteen nineteen twentie thirtie fortie fiftie sixtie seventie eightie ninetie hundred "
                           "thousand million billion trillion".split())


_AREA_VOLUME = frozenset({"sq", "cu"})


def count_noun(text: str) -> bool:
    """Words after a number that name what it counts: "sheep", "children", "red apples", "Äpfel", "яблока",
    "个苹果". Not a word that changes the number (a number or scale word of any language, an operation, a
    bound, an approximation, a hedge, a negation, an alternative), a digit, or a short ASCII word that may
    be variables. At most three words."""
    words = [w.strip(".,") for w in text.split()]
    if len(words) >= 2 and words[-2].lower() in RATE_WORDS and _noun_word(words[-1]):
        words = words[:-2]  # "cookies per person", "dollars every day", "per day": a rate and what it is taken over
        if not words:
            return True
    # "12 sq ft", "8 cu in": the abbreviations of square and cubic before a unit (pint's own "sq_ft", "cu_in");
    # "ordered pairs", "real roots": the words before the last describe what it counts
    return 1 <= len(words) <= 3 and all(_noun_word(w, last=i + 1 == len(words)) or (i + 1 < len(words) and w.lower() in _AREA_VOLUME | _DESCRIBING)
                                        for i, w in enumerate(words))


# "per", "every", "a": a rate's word before the unit it is taken over ("per day", "every day", "a week")
RATE_WORDS = frozenset({"per", "pro", "par", "por", "за", "every", "each", "a", "an"})


def _connector(word: str) -> bool:
    """A short word that joins a unit to what qualifies it ("in" total, "al" día, "в" день, "im" Jahr): no
    more than three lower-case letters, and none of the closed class that changes a number (:data:`_CHANGING`:
    "or", "not", "max", "to"…) or a number word of any language."""
    return (1 <= len(word) <= 3 and word.isalpha() and word.islower() and word not in _CHANGING_PHRASES
            and word not in small_words() and word not in scale_words())


def unit_words(text: str) -> bool:
    """Every word of ``text`` is a unit or count noun (see :func:`unit_word`), perhaps qualified by a
    phrase of its own ("dollars in total", "dólares al día", "долларов в день", "a week")."""
    words = [w.strip(".") for w in text.replace("/", " ").replace("~", " ").split()]  # "sq. ft.": abbreviations' periods
    if len(words) >= 2 and words[-2].lower() in RATE_WORDS and unit_word(words[-1], open_class=True):
        words = words[:-2] + ([] if words[-2].lower() in ("every", "each", "a", "an") else words[-1:])
        if not words:
            return True  # "18 per day": a rate of the answer's own unit
    if len(words) >= 3 and _connector(words[-2]) and _noun_word(words[-1]) and not words[-1].isupper() \
            and f"{words[-2]} {words[-1]}".lower() not in _CHANGING_PHRASES:
        words = words[:-2]  # what the count is qualified by: "in total", "in profit", "al día", "pro Jahr"
    return bool(words) and all(unit_word(w, open_class=True, last=i + 1 == len(words))
                               or (i + 1 < len(words) and w.lower() in _AREA_VOLUME) for i, w in enumerate(words))
# a plain number (sign, digits, groups, decimals, a fraction, scientific notation) then the unit tail
_VALUE_UNIT_RE = regex.compile(
    r"(?P<value>[-+]?(?:[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?|\.[0-9]+)(?:\s*(?:\\times|\\cdot)\s*10\^\{?-?[0-9]+\}?)?"
    r"|\\frac\{[0-9]+\}\{[0-9]+\})"
    r"(?P<unit>(?:\s|~|\\[,;: !]|\\(?:text|mathrm|textrm|rm|mbox|operatorname)\s*\{(?:[^{}]|\{-?[0-9]\}){1,40}\}|\\(?:Omega|mu|circ)(?![A-Za-z])"
    r"|\^\s*\{?\s*(?:-?[0-9]|\\circ)\s*\}?|[A-Za-zΩμ°]{1,12}|/|\\cdot)+)$")
_ATOM_RE = regex.compile(r"\\(?:cdot|times)(?![A-Za-z])|\\(?:text|mathrm|textrm|rm|mbox|operatorname)\s*\{((?:[^{}]|\{-?[0-9]\})*)\}"
                      r"|\\(Omega|mu|circ)|([A-Za-zΩμ°]+)")


def split_unit(clean: str) -> tuple[str, str] | None:
    """(number, unit) when ``clean`` is a plain number followed by a unit expression, else ``None``."""
    m = _VALUE_UNIT_RE.fullmatch(clean.strip(), timeout=REGEX_TIMEOUT_S)
    if not m or not m["unit"].strip(" ~\\,;:!"):
        return None
    words = []
    for atom in _ATOM_RE.finditer(m["unit"], timeout=REGEX_TIMEOUT_S):
        text = next((g for g in atom.groups() if g is not None), None)
        if text is None:
            continue  # \cdot between units ("kg\cdot m^2")
        words.extend(w for w in _UNIT_SPLIT_RE.split(text.strip(" ~"), timeout=REGEX_TIMEOUT_S) if w)
    if not words or not all(_unit_symbol(w) for w in words):
        return None
    powers = _POWER_RE.findall(m["unit"], timeout=REGEX_TIMEOUT_S)
    if len(words) == 1 and len(powers) == 1 and powers[0] in ("2", "3"):
        return m["value"], f"{words[0].lower()}^{powers[0]}"  # "5 m^2" is in m^2, as "5 \\text{ cm}^2" is in cm^2
    return m["value"], " ".join(words).lower()


_POWER_RE = regex.compile(r"\^\s*\{?\s*(-?[0-9])\s*\}?")


_UNIT_SPLIT_RE = regex.compile(r"[\s~/]+|\\[,;]|\\cdot|\^\s*\{?-?[0-9]\}?|[·*]")

_ONES = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                                    "fourteen fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if w != "_"}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_WORD_SPLIT_RE = regex.compile(r"[\s-]+")


# a value and what follows it: "2 thousand people", "1.5 Millionen Euro", "12 lakh", "42\\text{ million}"
_SCALED_VALUE_RE = regex.compile(r"([-+]?[0-9]{1,15}(?:,[0-9]{3})*(?:\.[0-9]{1,15})?|[-+]?[0-9]{1,15},[0-9]{1,2})\s*(?:\\[,;! ]\s*)*"
                                 r"(?:\\(?:text|mathrm|mbox|textrm)\s*\{\s*)?([\p{L}\p{M}]+)((?:\s+[\p{L}\p{M}'’]+){0,3})\s*\}?\.?")
_SCALE_OF_RE = regex.compile(r"(?i)(?:of|de|di|da|do)\s+|d['’]")  # "millones de unidades", "millions d'euros"
# a number in Chinese or Japanese numerals, then what it counts: "二十人", "一百二十种", "三万五千元"
_HAN_NUMBER_RE = regex.compile(r"([零〇一二两兩三四五六七八九十拾百佰千仟万萬亿億兆]+)\s*([\p{Han}\p{Hiragana}\p{Katakana}]{0,6})")


def scaled_value(text: str) -> tuple[str, str] | None:
    """(the value, what it counts) when ``text`` is a number times a scale word of any language, or a
    number in words or in Han numerals, with at most a count noun after it: "2 thousand people" is
    ("2000", "people"), "twelve apples" ("12", "apples"), "vingt et un" ("21", ""), "二十人" ("20", "人");
    ``None`` otherwise (the words must be a scale and then a count noun, nothing that changes the value)."""
    from decimal import Decimal

    s = text.strip()
    if m := _SCALED_VALUE_RE.fullmatch(s, timeout=REGEX_TIMEOUT_S):
        # a unit of the lexicon is that unit, even where another language has a scale word of the same letters
        # ("5.4 cents" are cents, not French hundreds)
        factor = None if m[2].lower() in _WORD_UNITS or m[2] in _SYMBOLS else scale_value(m[2])
        rest = m[3].strip()
        # "2 millones de unidades", "3 millions d'euros", "2 million of people": a scale word's "of" before its noun
        counted = _SCALE_OF_RE.match(rest, timeout=REGEX_TIMEOUT_S)
        if counted and count_noun(rest[counted.end():]):
            rest = rest[counted.end():]
        if factor is not None and (not rest or count_noun(rest)):
            number = m[1].replace(",", ".") if regex.fullmatch(r"[-+]?[0-9]+,[0-9]{1,2}", m[1], timeout=REGEX_TIMEOUT_S) \
                else m[1].replace(",", "")  # "1,5 Millionen": a decimal comma; "1,500 million": a group
            scaled = Decimal(number) * factor
            value = format(scaled.normalize(), "f") if scaled == scaled.to_integral() else format(scaled, "f").rstrip("0")
            return value, rest.lower()
        return None
    if m := _HAN_NUMBER_RE.fullmatch(s, timeout=REGEX_TIMEOUT_S):
        numeral, noun = m[1], m[2]
        if len(numeral) > 1 and numeral.endswith("千") and measure_after_number("千" + noun):
            numeral, noun = numeral[:-1], "千" + noun  # "三千克" is three kilograms, "三千米" three kilometres
        value = han_value(numeral)
        if value is not None and (not noun or count_noun(noun)):
            return str(value), noun
        return None
    words = s.replace("-", " ").split()
    if not words or any(any(c.isdigit() for c in w) for w in words):
        return None
    from rlvr.verifiers.spelled_fractions import fraction_nouns  # it reads CLDR's tables through this module

    for k in range(len(words), 0, -1):  # the number words, then perhaps the noun they count
        rest = " ".join(words[k:])
        if rest and (not count_noun(rest) or words[k].lower() in fraction_nouns()):
            continue  # "zwei Drittel", "tre quarti": a fraction, not a count of thirds
        value = words_value(" ".join(words[:k]))
        if value is not None:
            return str(value), rest.lower()
    return None


def number_from_words(text: str) -> int | None:
    """"forty-two" -> 42, "one hundred and five" -> 105, "negative three" -> -3; ``None`` unless the
    whole text is English number words."""
    words = [w for w in _WORD_SPLIT_RE.split(text.strip().lower(), timeout=REGEX_TIMEOUT_S) if w and w != "and"]
    if not words or len(words) > 12:
        return None
    sign = 1
    if words[0] in ("minus", "negative"):
        sign, words = -1, words[1:]
    total = current = 0
    seen = False
    for w in words:
        if w in _ONES:
            current += _ONES[w]
        elif w in _TENS:
            current += _TENS[w]
        elif w == "hundred":
            current = max(current, 1) * 100
        elif w in _SCALES:
            total += max(current, 1) * _SCALES[w]
            current = 0
        else:
            return None
        seen = True
    return sign * (total + current) if seen else None


_CLOCK_RE = regex.compile(r"(?i)([0-9]{1,2}):([0-5][0-9])(?::([0-5][0-9]))?\s*(a\.?m\.?|p\.?m\.?)?")


def clock_time(clean: str) -> str | None:
    """``20:34:00``, ``8:34 pm`` -> ``20:34``; ``None`` unless the text is a clock time (seconds kept if not 0)."""
    m = _CLOCK_RE.fullmatch(clean.strip(), timeout=REGEX_TIMEOUT_S)
    if not m or (m[3] is None and m[4] is None):
        return None  # "20:34" alone may be a ratio: only a time when seconds or am/pm say so
    hour = int(m[1])
    if m[4]:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if m[4].lower().startswith("p") else 0)
    if hour > 23:
        return None
    return f"{hour}:{m[2]}" + (f":{m[3]}" if m[3] and m[3] != "00" else "")


# one spelling per unit, for telling "42 mm" from "42 cm" (lower case, as normalisation leaves units)
_CANONICAL_SPELLINGS = {
    "mm": "mm millimeter millimeters millimetre millimetres", "cm": "cm centimeter centimeters centimetre centimetres",
    "m": "m meter meters metre metres", "km": "km kilometer kilometers kilometre kilometres",
    "in": "in inch inches", "ft": "ft foot feet", "yd": "yd yard yards", "mi": "mi mile miles",
    "ms": "ms millisecond milliseconds", "s": "s sec secs second seconds", "min": "min mins minute minutes",
    "h": "h hr hrs hour hours", "day": "d day days", "week": "week weeks wk", "month": "month months",
    "year": "yr yrs year years", "mg": "mg milligram milligrams", "g": "g gram grams", "kg": "kg kilogram kilograms",
    "lb": "lb lbs pound pounds", "oz": "oz ounce ounces", "ml": "ml milliliter milliliters millilitre millilitres",
    "l": "l liter liters litre litres", "gal": "gal gallon gallons", "qt": "qt quart quarts", "cup": "cup cups", "cent": "cent cents ct",
    "dollar": "dollar dollars usd", "euro": "euro euros eur", "mph": "mph", "km/h": "kph km/h", "m/s": "m/s",
    "kelvin": "k kelvin kelvins", "degree": "degree degrees deg", "degc": "°c celsius", "degf": "°f fahrenheit", "n": "n newton newtons", "j": "j joule joules", "w": "w watt watts",
    "v": "v volt volts", "a": "a ampere amperes amp amps", "ohm": "ohm ohms ω",
    # prefixed units whose lower-case spelling is unambiguous (mA and MA, mW and MW are not)
    "nm": "nm nanometer nanometers nanometre nanometres", "um": "um μm µm micrometer micrometers micron microns",
    "kj": "kj kilojoule kilojoules", "kw": "kw kilowatt kilowatts", "kwh": "kwh", "pa": "pa pascal pascals",
    "kpa": "kpa kilopascal kilopascals", "atm": "atm atmosphere atmospheres", "cal": "cal calorie calories",
    "kcal": "kcal kilocalorie kilocalories", "hz": "hz hertz", "khz": "khz kilohertz", "ghz": "ghz gigahertz",
    "ev": "ev electronvolt electronvolts", "mol": "mol mole moles", "furlong": "furlong furlongs",
    "acre": "acre acres", "hectare": "ha hectare hectares",
}
# the temperature scales: a plain "degree" against one of them is the same value with its scale left out
TEMPERATURES = frozenset({"degc", "degf", "kelvin"})
_CANONICAL = {spelling: unit for unit, spellings in _CANONICAL_SPELLINGS.items() for spelling in spellings.split()}


def canonical_unit(unit: str) -> str | None:
    """``"centimeters"`` -> ``"cm"``, ``"km h"`` (km/h) -> ``"km/h"``; ``None`` for a unit or count noun
    this table does not know ("ways", "square feet"), which is then never called different from another."""
    base, power = unit.lower().rsplit("^", 1) if "^" in unit else (unit, "")
    if power:  # "mm^2": an area in mm, spelled "mm^2"
        return f"{known}^{power}" if power in ("2", "3") and (known := canonical_unit(base)) else None
    lowered = unit.lower().strip()
    for mark in ("/", " per ", " pro ", " par "):
        if mark in lowered and lowered.count(mark.strip()) == 1:  # "km/hour", "kilometers per hour": a quotient
            top, bottom = (canonical_unit(side.strip()) for side in lowered.split(mark.strip() if mark == "/" else mark))
            return f"{top}/{bottom}" if top and bottom and "/" not in top + bottom else None
    words = unit.lower().split()
    if len(words) == 2 and _CANONICAL.get(words[0]) == "degree" and _CANONICAL.get(words[1]) in TEMPERATURES:
        return _CANONICAL[words[1]]  # "degrees fahrenheit"
    if len(words) == 2:  # "m s" is m/s, "km h" is km/h: a compound read from a quotient
        a, b = _CANONICAL.get(words[0]), _CANONICAL.get(words[1])
        return f"{a}/{b}" if a and b else None
    if len(words) != 1:
        return None
    word = words[0].strip(".")
    if word in _CANONICAL:
        return _CANONICAL[word]
    if len(word) >= 3 and word.endswith("s") and word[:-1] in _CANONICAL:
        return _CANONICAL[word[:-1]]  # "wks", "qts": an abbreviation's plural
    return None


# "\\boxed{2} hours", "$\\boxed{120}$ minutes", "5\\text{ cm}", "120 minutes": a unit word right after a value
_UNIT_AFTER_RE = regex.compile(r"[ \t]*(?:\$\$?|\\\)|\\\]|\})?[ \t]*(?:\\(?:text|mathrm|mbox|textrm)\s*\{\s*|\\[,;: ][ \t]*|~[ \t]*)*"
                               r"(\p{L}+(?:/\p{L}+)?)(?![\p{L}\p{M}^/_\-'’{(0-9])")
# English words that are also unit symbols: "\\boxed{5} in total", "\\boxed{3} a day"
_WORDS_NOT_UNITS = frozenset({"in", "a", "d", "k"})


def unit_after(text: str, pos: int, timeout: float = REGEX_TIMEOUT_S) -> str | None:
    """The unit word of :func:`canonical_unit`'s table that follows ``pos`` in ``text`` (after a closing
    delimiter and spacing), else ``None``: what a value stated in prose or after a box is measured in."""
    m = _UNIT_AFTER_RE.match(text, pos, min(len(text), pos + 60), timeout=timeout)
    if not m or m[1].lower() in _WORDS_NOT_UNITS or canonical_unit(m[1]) is None:
        return None
    return m[1]


def scale_word_after(after: str, timeout: float) -> str | None:
    """A scale word of any language CLDR spells ("\\boxed{5} crore", "5 Millionen", "\\boxed{5}万", "5억") right
    after the answer multiplies it. A unit's name is not one (CLDR's 千克 is a kilogram, pint's "mil" a length),
    nor a short Latin word that other languages use as one ("bin", "elf", "min"); scales under a thousand are
    left out, since their words are other words too ("cents", "set", "sta")."""
    m = _FIRST_WORD_RE.match(after, timeout=timeout)
    if m is None:
        return None
    word = m[1]
    if _EAST_ASIAN_WORD_RE.match(word, timeout=timeout):
        return word[0] if numeral_char(word[0]) and not measure_after_number(word) else None
    value = scale_value(word)
    if value is None or value < 1000 or (word.isascii() and len(word) < 4) or unit_name(word):
        return None
    return word


_FIRST_WORD_RE = regex.compile(r"[ \t\u00a0\u202f]*([\p{L}\p{M}]+)")
_EAST_ASIAN_WORD_RE = regex.compile(r"[\p{Han}\p{Hangul}\p{Hiragana}\p{Katakana}]")
