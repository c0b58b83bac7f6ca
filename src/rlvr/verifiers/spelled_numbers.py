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
from rlvr.verifiers.units import count_noun
from rlvr.verifiers.vocabulary_cache import cached, installed_version

logger = logging.getLogger(__name__)

__all__ = ["spells_gold", "number_word", "warm"]

_SPELLED = (-1,) + tuple(range(0, 101)) + tuple(range(200, 1001, 100)) + (2000, 10**4, 10**5, 10**6, 10**9)
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


def _read_spellouts() -> dict[str, list[str]]:
    """Token (a word, or a character of a script without spaces) -> the languages whose spell-outs hold it."""
    import unicode_rbnf
    from unicode_rbnf import RbnfEngine

    folder = os.path.join(os.path.dirname(unicode_rbnf.__file__), "rbnf")
    owners: dict[str, set[str]] = {}
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
                for token in _tokens(text):
                    owners.setdefault(token, set()).add(language)
    return {token: sorted(languages) for token, languages in owners.items()}


def _tokens(text: str) -> list[str]:
    """Words, lower case; a word of a script written without spaces is split into its characters."""
    out: list[str] = []
    for word in _TOKEN_RE.findall(text.lower().replace("-", " "), timeout=REGEX_TIMEOUT_S):
        out.extend(word if _UNSPACED_RE.match(word, timeout=REGEX_TIMEOUT_S) else [word])
    return out


@functools.lru_cache(maxsize=1)
def _owners() -> dict[str, list[str]]:
    try:
        import unicode_rbnf  # noqa: F401
    except ImportError:
        logger.warning("unicode-rbnf is not installed: numbers spelled in words are read in fewer languages")
        return {}
    return cached("spelled-number-tokens", installed_version("unicode-rbnf"), _read_spellouts)


def warm() -> None:
    """Load which languages each number word belongs to now (a worker does so before it reports ready)."""
    _owners()


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


def spells_gold(answer: str, gold: Fraction | None) -> str | None:
    """The language in which ``answer`` spells the integer ``gold`` on its own, or ``None``."""
    if gold is None or gold.denominator != 1 or abs(gold) >= 10**12 or len(answer) > 200:
        return None
    if any(c.isdigit() for c in answer) or not any(c.isalpha() for c in answer):
        return None
    tokens = _tokens(answer)
    owners = _owners()
    if not tokens or not owners or _refused(answer.lower(), tokens):
        return None
    languages = sorted({lang for t in tokens for lang in owners.get(t, ())})
    if not languages or len(languages) > 4 * _MOST_LANGUAGES:
        return None
    # the languages most of the answer's number words belong to come first
    languages.sort(key=lambda lang: -sum(lang in owners.get(t, ()) for t in tokens))
    for language in languages[:_MOST_LANGUAGES]:
        for spelling in _spellings(int(gold), language):
            if _alone(tokens, spelling, language, owners):
                return language
    return None


def _refused(text: str, tokens: list[str]) -> bool:
    """A word that negates, doubts, bounds or changes the number, or offers another: whole words, and in scripts
    without spaces the phrases themselves ("或", "不是"; a lone "不" is part of words such as "不同", different)."""
    if any(t in _REFUSING for t in tokens if not _UNSPACED_RE.match(t, timeout=REGEX_TIMEOUT_S)):
        return True
    return any(w in text for w in _UNSPACED_REFUSING)


def _alone(tokens: list[str], spelling: tuple[str, ...], language: str, owners: dict[str, list[str]]) -> bool:
    """Whether ``spelling`` occurs once in ``tokens`` and no other token is a number word of ``language``; a
    character of an unspaced script with no numeral beside it ("一" of "一共有": altogether) is no number."""
    n = len(spelling)
    at = [i for i in range(len(tokens) - n + 1) if tuple(tokens[i:i + n]) == spelling]
    if len(at) != 1:
        return False

    def numeral(i: int) -> bool:
        return 0 <= i < len(tokens) and language in owners.get(tokens[i], ())

    for i, token in enumerate(tokens):
        if at[0] <= i < at[0] + n or not numeral(i):
            continue
        if not (len(token) == 1 and _UNSPACED_RE.match(token, timeout=REGEX_TIMEOUT_S)):
            return False
        if numeral(i - 1) or numeral(i + 1):
            return False  # a run of numerals: another number
    after = tokens[at[0] + n:]
    if not after:
        return True
    unspaced = all(len(t) == 1 and _UNSPACED_RE.match(t, timeout=REGEX_TIMEOUT_S) for t in after)
    return count_noun("".join(after) if unspaced else " ".join(after))  # "двадцать пять яблок", not "two dozen"
