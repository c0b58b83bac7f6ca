"""An answer that spells the gold's integer in words of any of the ninety languages CLDR spells numbers in.

"Ответ: двадцать пять.", "Respuesta: veinticinco", "答：一共有三十六种不同的排法。" state 25 and 36 in words. Reading
number words of every language back into numbers needs a parser per language (``text2num`` has eight); the
other direction is what CLDR's rule-based number formats (``unicode-rbnf``) do for ninety: spell the gold in
each language the answer's words belong to, in every grammatical form the rules know, and look for that
spelling in the answer. The spelling must stand alone (no number word of that language, no digit, beside or
elsewhere in the answer: "двадцать пять тысяч" is 25,000), only a count noun may follow it ("двадцать пять яблок",
never "two dozen"), and nothing may negate, doubt, bound or change it or offer another value.
A match pays; no match decides nothing (the other rules read the answer as before). Which languages a word
belongs to is read once from the spell-outs of 0-100, the hundreds and the scales, and cached per release.
"""

from __future__ import annotations

import functools
import logging
import os
from fractions import Fraction
from typing import Any

import regex

from rlvr.verifiers.lexicon import (
    ALTERNATIVE_WORDS, APPROXIMATION_WORDS, BOUND_WORDS, HEDGE_WORDS, NEGATION_WORDS, OPERATION_WORDS,
)
from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.percent_words import percent_words
from rlvr.verifiers.units import count_noun
from rlvr.verifiers.vocabulary_cache import cached, installed_version

logger = logging.getLogger(__name__)

__all__ = ["spells_gold", "number_word", "percent_spelled", "warm"]

_SPELLED = (-1,) + tuple(range(0, 101)) + tuple(range(200, 1001, 100)) + tuple(range(2000, 10001, 1000)) + (
    10**5, 10**6, 10**9)
_UNSPACED_RE = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}]")
_TOKEN_RE = regex.compile(r"[\p{L}\p{M}]+")
_MOST_LANGUAGES = 8  # languages tried for one answer: its words are number words of a few languages at most
# words that negate, doubt or offer another value, or change the number ("half of twenty", "about twenty")
_REFUSING = frozenset(w for group in (NEGATION_WORDS, HEDGE_WORDS, ALTERNATIVE_WORDS, APPROXIMATION_WORDS, BOUND_WORDS)
                      for w in group) | OPERATION_WORDS
_UNSPACED_REFUSING = tuple(w for w in _REFUSING if _UNSPACED_RE.match(w, timeout=REGEX_TIMEOUT_S) and (len(w) > 1 or w in ALTERNATIVE_WORDS
                                                                                or w in APPROXIMATION_WORDS))


def _rulesets(result: Any) -> set[str]:
    texts = dict(getattr(result, "text_by_ruleset", {}) or {}) or {"": result.text}
    return {t for name, t in texts.items() if "year" not in name and "days" not in name and "ordinal" not in name}


def _read_spellouts() -> dict[str, Any]:
    """``owners``: token (a word, or a character of a script without spaces) -> the languages whose spell-outs hold
    it; ``phrases``: a whole spell-out (its tokens joined by blanks) -> the numbers it spells in any language."""
    import unicode_rbnf
    from unicode_rbnf import RbnfEngine

    folder = os.path.join(os.path.dirname(unicode_rbnf.__file__), "rbnf")
    owners: dict[str, set[str]] = {}
    phrases: dict[str, set[int]] = {}
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".xml") or name == "root.xml":
            continue
        language = name[:-4]
        try:
            engine = RbnfEngine.for_language(language)
        except Exception:  # a locale whose rules this release cannot load
            continue
        for number in _SPELLED:
            try:
                texts = _rulesets(engine.format_number(number))
            except Exception:
                continue
            for text in texts:
                tokens = _tokens(text)
                for token in tokens:
                    owners.setdefault(token, set()).add(language)
                phrases.setdefault(" ".join(tokens), set()).add(number)
    return {"owners": {token: sorted(languages) for token, languages in owners.items()},
            "phrases": {phrase: sorted(numbers) for phrase, numbers in phrases.items()}}


def _tokens(text: str) -> list[str]:
    """Words, lower case; a word of a script written without spaces is split into its characters."""
    out: list[str] = []
    for word in _TOKEN_RE.findall(text.lower().replace("-", " "), timeout=REGEX_TIMEOUT_S):
        out.extend(word if _UNSPACED_RE.match(word, timeout=REGEX_TIMEOUT_S) else [word])
    return out


@functools.lru_cache(maxsize=1)
def _tables() -> dict[str, Any]:
    try:
        import unicode_rbnf  # noqa: F401  # pyflakes: only its presence is checked
        del unicode_rbnf
    except ImportError:
        logger.warning("unicode-rbnf is not installed: numbers spelled in words are read in fewer languages")
        return {"owners": {}, "phrases": {}}
    return cached("spelled-number-phrases", installed_version("unicode-rbnf"), _read_spellouts)


def _owners() -> dict[str, list[str]]:
    return _tables()["owners"]


def warm() -> None:
    """Load which languages each number word belongs to now (a worker does so before it reports ready)."""
    _tables()


@functools.lru_cache(maxsize=96)
def _engine(language: str) -> Any:
    from unicode_rbnf import RbnfEngine

    return RbnfEngine.for_language(language)


@functools.lru_cache(maxsize=1024)
def _spellings(number: int, language: str) -> tuple[tuple[str, ...], ...]:
    try:
        texts = _rulesets(_engine(language).format_number(number))
    except Exception:
        return ()
    return tuple(sorted({tuple(_tokens(t)) for t in texts if t}, key=len, reverse=True))


def number_word(word: str) -> bool:
    """Whether ``word`` (lower case) is a number word of one of CLDR's ninety languages (a word of a spell-out of
    0-100, the hundreds or the scales)."""
    return word in _owners()


def spelled_phrase(tokens: list[str]) -> bool:
    """Whether ``tokens`` (lower case) are one whole spell-out of one number in some CLDR language."""
    return " ".join(tokens) in _tables()["phrases"]


def spells_gold(answer: str, gold: Fraction | None) -> str | None:
    """The spelling of the integer ``gold`` that ``answer`` states on its own, or ``None``: the one number the
    answer's number words spell, read whole ("twenty-six" is 26, never the French "six" at its end) and
    unambiguous in every language ("tres" is 3 in Spanish and 60 in Danish: no number)."""
    if gold is None or gold.denominator != 1 or abs(gold) >= 10**12 or len(answer) > 200:
        return None
    if any(c.isdigit() for c in answer) or not any(c.isalpha() for c in answer):
        return None
    tokens = _without_percent(_tokens(answer))  # "forty per cent", "quarenta por cento": the number before the sign
    tables = _tables()
    if not tokens or not tables["owners"] or _refused(answer.lower(), tokens):
        return None
    found = _spelled_numbers(tokens, tables)
    if found is None or len(found) != 1:
        return None
    (start, end, numbers), = found
    if len(numbers) != 1 or numbers[0] != int(gold):
        return None
    after = tokens[end:]
    if after:
        unspaced = all(len(t) == 1 and _UNSPACED_RE.match(t, timeout=REGEX_TIMEOUT_S) for t in after)
        if not count_noun("".join(after) if unspaced else " ".join(after)):
            return None  # "two dozen", "twenty squared": only a count noun may follow
        from rlvr.verifiers.spelled_fractions import fraction_noun  # it spells with this module's tables

        if not unspaced and fraction_noun(after[0], tuple(_owners().get(tokens[start], ())[:_MOST_LANGUAGES])):
            return None  # "zwei Drittel", "tre quarti": a fraction, not a count of thirds
    return " ".join(tokens[start:end])


def _without_percent(tokens: list[str]) -> list[str]:
    """``tokens`` less a percent word after the number ("forty percent" states 40%, as "40%" does; the word is no
    operation on it), and what the percentage is of ("forty percent of the students")."""
    for i in range(1, min(len(tokens), 8)):
        for n in (2, 1):
            if " ".join(tokens[i:i + n]) in percent_words() and (i + n >= len(tokens) or (
                    tokens[i + n] in _OF_WORDS and not any(number_word(t) for t in tokens[i + n + 1:] if len(t) >= 3))):
                return tokens[:i]  # (never "forty percent of forty": a percentage of a number is another number)
    return tokens


def percent_spelled(answer: str) -> bool:
    """Whether ``answer`` spells a percentage: a percent word after its number words ("forty percent")."""
    tokens = _tokens(answer)
    return len(_without_percent(tokens)) < len(tokens)


_OF_WORDS = frozenset({"of", "de", "des", "du", "del", "der", "dei", "delle", "degli", "van", "от", "из"})


def _spelled_numbers(tokens: list[str], tables: dict[str, Any]) -> list[tuple[int, int, list[int]]] | None:
    """The spelled numbers of ``tokens``: (start, end, the numbers the phrase spells in any language), each the
    longest whole spell-out at its place; ``None`` when a number word is left over that is no part of one (a lone
    character of an unspaced script with no numeral beside it, "一" of "一共有", is no number)."""
    owners, phrases = tables["owners"], tables["phrases"]
    found, i = [], 0
    while i < len(tokens):
        if tokens[i] not in owners:
            i += 1
            continue
        end = next((j for j in range(min(len(tokens), i + 8), i, -1) if " ".join(tokens[i:j]) in phrases), None)
        if end is None:
            lone = len(tokens[i]) == 1 and _UNSPACED_RE.match(tokens[i], timeout=REGEX_TIMEOUT_S) and not (
                i + 1 < len(tokens) and tokens[i + 1] in owners)
            if not lone and not _CONNECTOR_RE.fullmatch(tokens[i], timeout=REGEX_TIMEOUT_S):
                return None  # a number word that spells nothing here: part of a number this table lacks
            i += 1
            continue
        numbers = phrases[" ".join(tokens[i:end])]
        if len(tokens[i]) == 1 and _UNSPACED_RE.match(tokens[i], timeout=REGEX_TIMEOUT_S) and end == i + 1 and not (
                end < len(tokens) and tokens[end] in owners) and not (i > 0 and tokens[i - 1] in owners):
            if found or any(_UNSPACED_RE.match(t, timeout=REGEX_TIMEOUT_S) and t in owners for t in tokens[end:]):
                i = end
                continue  # "一" of "一共有三十六种": a lone numeral character, no number of its own
        found.append((i, end, numbers))
        i = end
    return found


# short words that are number words of some language but join words in others ("a", "on", "en", "to", "et")
_CONNECTOR_RE = regex.compile(r"\p{L}{1,3}")


def _refused(text: str, tokens: list[str]) -> bool:
    """A word that negates, doubts, bounds or changes the number, or offers another: whole words, and in scripts
    without spaces the phrases themselves ("或", "不是"; a lone "不" is part of words such as "不同", different)."""
    if any(t in _REFUSING for t in tokens if not _UNSPACED_RE.match(t, timeout=REGEX_TIMEOUT_S)):
        return True
    return any(w in text for w in _UNSPACED_REFUSING)


# a closing sentence's number in words: each word a number word, joined by blanks or hyphens ("twenty-four")
_SPELLED_RUN_RE = regex.compile(r"(?<![\p{L}\p{M}\p{N}])[\p{L}\p{M}]+(?:[ \t\-\u2010]+[\p{L}\p{M}]+){0,7}")
# the function words of an English sentence (a closed class, and none of them a word of the languages whose
# number words it would take for numbers: "the", "she", "was" …)
_ENGLISH_CUE_RE = regex.compile(r"(?i)\b(?:the|is|are|was|were|she|he|it|they|her|his|has|have|had|of|and|with|this|that|"
                                r"there|which|each|so|took|visited|costs?)\b")
# "one" after these is a pronoun ("the right one", "each one"), never a count
_PRONOUN_ONE_AFTER = frozenset({"the", "this", "that", "which", "each", "every", "any", "no", "another", "only", "same",
                                "other", "last", "first", "right", "wrong", "correct", "new", "big", "small", "a"})


def fold_spelled_numbers(sentence: str) -> str:
    """``sentence`` with each number it spells in words as digits, at the same length (the digits end where the
    words did, blanks before them), so that what reads a sentence's digits reads these and its spans still point
    into the text: "There are six children." -> "There are   6 children.". A number word is folded only as a whole
    spell-out of one number in every language that has it; a word of three letters or fewer only when it is an
    English number word ("to", "en", "et" spell numbers in other languages and join words in English), and "one"
    only before a word and after no determiner ("the right one" is no count). Scripts without spaces stay as they
    are: their numeral characters sit inside words."""
    if len(sentence) > 2000 or not sentence.strip():
        return sentence
    from rlvr.verifiers.spelled_fractions import fraction_nouns  # it spells with this module's tables

    tables = _tables()
    owners, phrases = tables["owners"], tables["phrases"]
    if not owners:
        return sentence
    words = [(m.start(), m.end(), m[0].lower()) for m in _TOKEN_RE.finditer(sentence, timeout=REGEX_TIMEOUT_S)]
    # an English sentence folds English number words only: "once", "cent", "Otto" are numbers of other languages
    english = _ENGLISH_CUE_RE.search(sentence, timeout=REGEX_TIMEOUT_S) is not None
    out, i = list(sentence), 0
    folded: set[str] = set()  # the languages of the numbers folded
    skipped: set[str] = set()  # the languages of short number words left as words ("un" of "un chat")
    while i < len(words):
        a, _b, word = words[i]
        if word not in owners or _UNSPACED_RE.match(word, timeout=REGEX_TIMEOUT_S) or (english and "en" not in owners[word]):
            i += 1
            continue
        j = i
        while j + 1 < len(words) and j + 1 - i < 8 and words[j + 1][2] in owners \
                and not sentence[words[j][1]:words[j + 1][0]].strip(" \t-\u2010"):
            j += 1
        for end in range(j, i - 1, -1):  # the longest whole spell-out from here
            numbers = phrases.get(" ".join(w for _s, _e, w in words[i:end + 1]))
            if numbers and _foldable(words, i, end, owners):
                after = words[end + 1][2] if end + 1 < len(words) else ""
                digits = str(numbers[0])
                if len(numbers) > 1 or after in _CHANGING_NEXT or after in fraction_nouns() \
                        or len(digits) > words[end][1] - a:
                    return sentence  # "tres" (3 or 60), "two thirds", "two and a half": all or nothing
                out[a:words[end][1]] = list(digits.rjust(words[end][1] - a))
                folded.update(owners.get(word, ()))
                i = end + 1
                break
        else:
            skipped.update(owners.get(word, ()))
            i += 1
    if folded & skipped:
        return sentence  # "Il y a un chat et deux chiens": a number of the same language stays a word; fold none
    return "".join(out)


# a word after a number that makes it part of another ("two and a half", "two point five", "two halves")
_CHANGING_NEXT = frozenset({"and", "point", "comma", "half", "halves", "quarter", "quarters", "over", "out", "in",
                            "et", "und", "y", "e", "и", "virgule", "komma", "coma", "virgola"})


def _foldable(words: list[tuple[int, int, str]], i: int, end: int, owners: dict[str, list[str]]) -> bool:
    if i == end:
        word = words[i][2]
        if len(word) <= 3 and "en" not in owners.get(word, ()):
            return False
        if word == "one" and (i + 1 >= len(words) or (i > 0 and words[i - 1][2] in _PRONOUN_ONE_AFTER)):
            return False
    return True
