"""What a closing line states: a line of one sentence at the end of a completion concludes by its place,
whatever its verb or language, when its one value comes after words of its own and before what it counts
("James writes 624 pages a year.", "Janet gagne 18 dollars par jour.", "The price rose by 12 percent.")."""

from __future__ import annotations

from collections.abc import Callable

import regex

from rlvr.verifiers.currencies import is_currency
from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.lexicon import (ADDING_WORDS, ALTERNATIVE_WORDS, HEDGE_WORDS, NEGATION_WORDS, NEGATIVE_EVALUATIONS, RETRACTION_CUES, BELIEF_PHRASES,
                                    TENTATIVE_WORDS, words_pattern)
from rlvr.verifiers.percent_words import percent_word_after, percent_words
from rlvr.verifiers.prose_patterns import MATH_SPAN_RE, OTHER_SCRIPT_WORD_RE, SENTENCE_WORD_RE, WORDS_AFTER_RE
from rlvr.verifiers.stating_verb import object_value

__all__ = ["QUALIFIED", "counted", "spelled_after_verb", "stressed_word", "names_an_answer", "on_own_line",
           "word_answer_closing", "word_key", "with_unit"]

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
    from rlvr.verifiers.word_answers import yes_no

    if len(inside) != 1:
        return None
    a, b = inside[0]
    content = text[a:b].strip()
    if not text[start:a].strip(" \t*_>#-") and (word := content.rstrip(".!。！")) and yes_no(word) is not None:
        # "**Yes**, it is possible.", "**Ja**, das geht.", "**No.**": a stressed yes or no opening the sentence answers
        # in any language read, unless the sentence qualifies or takes it back ("**No**, yes it is.")
        plain = text[start:end].replace("*", " ").replace("_", " ")
        if _TAKEN_BACK_RE.search(plain, timeout=timeout) or yes_no(plain.strip()) != yes_no(word):
            return None
        return word, a + content.find(word), a + content.find(word) + len(word)
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


def names_an_answer(word: str) -> bool:
    """Whether a stressed word is an answer of its own kind (a weekday or month, a yes or no, a known word answer),
    not a word that judges the value beside it ("which is a **lot**", "**reasonable**")."""
    from rlvr.verifiers.calendar_names import calendar_key
    from rlvr.verifiers.word_answers import spelled_answer, yes_no

    return calendar_key(word) is not None or yes_no(word) is not None or spelled_answer(word)


def on_own_line(text: str, at: int) -> bool:
    """Whether the sentence that starts at ``at`` opens its line (or the text)."""
    line_start = text.rfind("\n", 0, at) + 1
    return not text[line_start:at].strip() or "\n" in text[max(0, at - 2):at]


_YES_NO_LEAD_RE = regex.compile(r"(?i)[\s*_]*(?:yes|no|true|false)\b")
_CALENDAR_END_RE = regex.compile(r"(?i)\b(?:is|are|was|will\s+be|be|falls\s+on|on)\s+(?:a\s+|an\s+|the\s+)?[*_]*"
                                 r"(\p{L}{3,12})[*_]*\s*[.!]?\s*$")


def word_answer_closing(sentence: str, timeout: float) -> tuple[str, int, int] | None:
    """A closing sentence's word answer: the yes or no it opens with ("No, such a triangle cannot exist."; the
    sentence is the answer, read as a yes or no), or the weekday or month it ends on after its verb ("So the day
    of the week is Sunday.")."""
    from rlvr.verifiers.calendar_names import calendar_key
    from rlvr.verifiers.word_answers import yes_no

    if _TAKEN_BACK_RE.search(sentence, timeout=timeout):
        return None  # "No, I think …", "Yes, if my calculation is right.", "…Monday, otherwise Sunday": no answer
    if _YES_NO_LEAD_RE.match(sentence, timeout=timeout) and yes_no(sentence) is not None:
        lead = len(sentence) - len(sentence.lstrip())
        return sentence.strip(), lead, len(sentence.rstrip())
    if (m := _CALENDAR_END_RE.search(sentence, timeout=timeout)) and calendar_key(m[1]) is not None \
            and sum(calendar_key(w) is not None for w in _CAPITALISED_RE.findall(sentence, timeout=timeout)) <= 1:
        return m[1], m.start(1), m.end(1)
    return None


def word_key(sentence: str) -> str | None:
    """The yes or no a sentence opens with, or ``None``."""
    from rlvr.verifiers.word_answers import yes_no

    if not _YES_NO_LEAD_RE.match(sentence, timeout=REGEX_TIMEOUT_S):
        return None
    return yes_no(sentence.strip().split(None, 1)[0].strip(",.!;:*_"))


# a retraction, a hedge, a belief, an alternative or a condition: a closing yes, no or weekday that is no answer
_TAKEN_BACK_RE = words_pattern(RETRACTION_CUES + HEDGE_WORDS + BELIEF_PHRASES + ALTERNATIVE_WORDS
                               + ("if", "when", "unless", "provided", "assuming"))
_CAPITALISED_RE = regex.compile(r"\b\p{Lu}\p{L}{2,}")


_PLAIN_NUMBER_RE = regex.compile(r"\$?\s*[-+]?[0-9][0-9,]*(?:\.[0-9]+)?\s*\$?")


def with_unit(text: str, found: list[tuple[str, int, int]], timeout: float) -> list[tuple[str, int, int]]:
    """One plain number with the unit or count noun after it ("The package weighs 4 g." states 4 g, "18 cents" is
    no 18 dollars): as an answer line keeps them, so that a gold with a unit is compared with the answer's unit.
    Words that are no unit ("6 left over") are left out, not read as part of the value."""
    if len({content for content, _a, _b in found}) != 1 or not _PLAIN_NUMBER_RE.fullmatch(found[-1][0], timeout=timeout):
        return found
    from rlvr.verifiers.units import RATE_WORDS, unit_words  # units reads the number words of CLDR: loaded with it

    content, a, b = found[-1]
    tail = WORDS_AFTER_RE.match(text, b, timeout=timeout)
    tokens = tail[0].split() if tail else []
    if tokens and tokens[0].lower() in RATE_WORDS:
        return found  # "\$18 a day": a rate of the value's own unit, no unit of its own
    for k in range(1, len(tokens) + 1):  # the shortest unit phrase: "cm" of "5 cm long", "square feet"
        if unit_words(words := " ".join(tokens[:k])):
            return found[:-1] + [(f"{content.strip().strip('$').strip()} {words}", a, b)]
    return found
