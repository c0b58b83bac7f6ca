"""What a closing line states: a line of one sentence at the end of a completion concludes by its place,
whatever its verb or language, when its one value comes after words of its own and before what it counts
("James writes 624 pages a year.", "Janet gagne 18 dollars par jour.", "The price rose by 12 percent.")."""

from __future__ import annotations

from collections.abc import Callable

import regex

from rlvr.verifiers.currencies import is_currency
from rlvr.verifiers.lexicon import (ADDING_WORDS, ALTERNATIVE_WORDS, HEDGE_WORDS, NEGATION_WORDS, NEGATIVE_EVALUATIONS,
                                    TENTATIVE_WORDS, words_pattern)
from rlvr.verifiers.percent_words import percent_word_after, percent_words
from rlvr.verifiers.prose_patterns import MATH_SPAN_RE, OTHER_SCRIPT_WORD_RE, SENTENCE_WORD_RE, WORDS_AFTER_RE
from rlvr.verifiers.stating_verb import object_value

__all__ = ["QUALIFIED", "counted", "spelled_after_verb", "stressed_word"]

_LETTERS_RE = regex.compile(r"\p{L}")
_MONEY_BEFORE_RE = regex.compile(r"[$€£¥₹]\s?\\?[0-9]?")
# a sign or code right after the amount ("18 €", "18 \\$", "18 CHF", "18 zł"), closed by no letter
_SIGN_AFTER_RE = regex.compile(r"[ \t\u00a0]*\\?([^\s\w\\.,;:!?()\[\]{}]{1,3}|\p{L}{1,4}(?!\p{L}))")


def counted(sentence: str, timeout: float, values_of: Callable[[], list[tuple[str, int, int]]]) -> bool:
    """The sentence's one value comes after words of the sentence's own and before what it counts ("James writes
    624 pages a year", "Janet gagne 18 dollars par jour"): a closing line of that shape states a result; a bare
    value after a word or two ("Vermutlich 18.", "I still need to confirm 18.") is no such statement; math alone on
    the line is the result it displays. ``values_of``: the sentence's values, (content, start, end)."""
    from rlvr.verifiers.units import unit_words  # units reads the number words of CLDR: loaded with it

    if not _LETTERS_RE.search(MATH_SPAN_RE.sub(" ", sentence, timeout=timeout), timeout=timeout) \
            and MATH_SPAN_RE.search(sentence, timeout=timeout):
        return True  # a display alone on the closing line ("… reduces to\n\n$$2\sin x\cos x$$")
    values = values_of()
    values = object_value(sentence, 0, values) or values  # "Janet gana 18 dólares al día con los 9 huevos"
    if len({c for c, _s, _e in values}) != 1:
        return False
    _c, a, b = values[-1]
    if not SENTENCE_WORD_RE.search(sentence, 0, a, timeout=timeout) and not OTHER_SCRIPT_WORD_RE.search(sentence, 0, a, timeout=timeout):
        return False
    if _MONEY_BEFORE_RE.search(sentence, max(0, a - 3), a + 2, timeout=timeout) or sentence[b:b + 2].lstrip()[:1] == "%" \
            or sentence[a:b].endswith("%") or _percent_word_next(sentence, a, b, timeout):
        return True  # "Each person should pay $12.", "The price rose by 12% / 12 percent.": the sign is what it counts
    if (sign := _SIGN_AFTER_RE.match(sentence, b, timeout=timeout)) and is_currency(sign[1]):
        return True  # "Janet verdient 18 \\$ pro Tag.", "Il gagne 18 € par jour": the sign after the amount
    tail = WORDS_AFTER_RE.match(sentence, b, timeout=timeout)
    tokens = tail[0].split() if tail else []
    return any(unit_words(" ".join(tokens[:k])) for k in range(1, len(tokens) + 1))


def _percent_word_next(sentence: str, start: int, end: int, timeout: float) -> bool:
    """A word for percent of any CLDR language ending the value at ``[start, end)`` or right after it."""
    if percent_word_after(sentence[start:end]):
        return True
    words = WORDS_AFTER_RE.match(sentence, end, timeout=timeout)
    tokens = words[0].lower().split() if words else []
    return any(" ".join(tokens[:k]) in percent_words() for k in (1, 2, 3))


_STRESSED_WORD_RE = regex.compile(r"\p{L}[\p{L}'’\-]*(?:[ \t]+\p{L}[\p{L}'’\-]*){0,3}")


def stressed_word(text: str, inside: list[tuple[int, int]], start: int, end: int,
                  timeout: float) -> tuple[str, int, int] | None:
    """The one stressed word or short phrase (``**Wednesday**``, at most four words, no digit) of a sentence at
    ``[start, end)`` of ``text``, whose stressed spans are ``inside``, when it says what something is: after a
    copula or a colon, in a sentence that offers no alternative, hedge, negation or other speaker; else ``None``."""
    if len(inside) != 1:
        return None
    a, b = inside[0]
    content = text[a:b].strip()
    if not _STRESSED_WORD_RE.fullmatch(content, timeout=timeout):
        return None
    before = text[start:a].replace("*", " ").replace("_", " ")
    if not _COPULA_BEFORE_RE.search(before, timeout=timeout) or text[b:end].strip(" \t*_.!"):
        # "**Alice** wins", "**Bob** loses", "a **Wednesday** last year", "… at the earliest": only what the sentence,
        # ending on it, says something is ("It will be a **Wednesday**.")
        return None
    clause = before[max(before.rfind(","), before.rfind(";"), before.rfind(":")) + 1:]  # its clause, the word aside
    if QUALIFIED.search(clause, timeout=timeout) or _ATTRIBUTED_RE.search(clause, timeout=timeout):
        return None  # "Bob claims it will be a **Wednesday**", "maybe it is …": not the writer's one answer
    return content, a, b


# the stressed word is the complement of a copula or of "answer:" ("It will be a **Wednesday**", "The winner is
# **Alice**", "The answer: **odd**")
_COPULA_BEFORE_RE = regex.compile(r"(?i)(?:\b(?:is|are|was|were|be|becomes|equals|answer)\b[ \t:]*(?:(?:a|an|the)[ \t]+)?|:)[ \t]*$")
QUALIFIED = words_pattern(ALTERNATIVE_WORDS + HEDGE_WORDS + ADDING_WORDS + NEGATION_WORDS + TENTATIVE_WORDS
                           + NEGATIVE_EVALUATIONS + ("but", "though", "although", "except"))
# another speaker, a condition, a modal or a judgement before it ("We should verify it is …", "The wrong answer would be …")
_ATTRIBUTED_RE = regex.compile(r"(?i)\b(?:claims?|says?|said|thinks?|believes?|argues?|suggests?|guess(?:es)?|if|unless|whether|"
                               r"should|would|could|might|may|can|verify|check|wrong|incorrect|not)\b")


_SPELLED_AFTER_VERB_RE = regex.compile(r"(?i)\b(?:is|are|was|equals)[ \t]+((?:\p{L}+[ \t-]){0,4}\p{L}+)[ \t]*[.!]?[ \t]*$")


def spelled_after_verb(sentence: str, timeout: float) -> tuple[str, int, int] | None:
    """The number a concluding sentence spells after its verb ("So the probability is two thirds.", "The total is
    twenty-four apples."): words that are number words of a CLDR language, the last of them perhaps what they count
    or the fraction's denominator; ``None`` for any other words ("The answer is one of the cases.")."""
    from rlvr.verifiers.spelled_numbers import number_word  # CLDR's tables: loaded when first needed

    m = _SPELLED_AFTER_VERB_RE.search(sentence, timeout=timeout)
    if m is None:
        return None
    words = m[1].lower().replace("-", " ").split()
    if not all(number_word(w) for w in words[:-1]) or not number_word(words[0]):
        return None
    return m[1], m.start(1), m.end(1)
