"""An answer line that is a sentence: its one stated value, with the words that belong to it.

"Final Answer: Jane started growing Sphere 3 hours ago.", "Réponse : il y a 42 pommes.", "答：共有42个苹果。" answer
with their one number, and the count noun or unit after it goes with it, so that normalisation tells "42 apples"
from "2 thousand people" or "42 squared". Read by the answer-line slot (``slots.answer_line``); a sentence with
several values, a hedge, a negation or a bound that closes it answers nothing.
"""

from __future__ import annotations

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.number_words import negative_of, sign_before
from rlvr.verifiers.prose import (
    _ADDING, _BOUNDING, _PARENTHESES_RE, _TENTATIVE_RE, NEGATION_RE, _doubtful, _sentence_values,
)
from rlvr.verifiers.prose_patterns import (
    MATH_SPAN_RE, OTHER_SCRIPT_WORD_RE, SENTENCE_WORD_RE, WORDS_AFTER_RE, blank_count_modifiers,
)

__all__ = ["sentence_value"]


def sentence_value(sentence: str, timeout: float) -> tuple[str, int] | None:
    """(value, end) when ``sentence`` is prose that states exactly one value; ``None`` otherwise.

    An answer line that is a sentence ("Jane started growing Sphere 3 hours ago") answers with its
    one number; math-only content, a sentence with several values or a hedge is left as it is.
    """
    bare = MATH_SPAN_RE.sub(" ", sentence, timeout=REGEX_TIMEOUT_S)
    long_words = len(SENTENCE_WORD_RE.findall(bare, timeout=timeout))
    # "She has 12 apples", "il y a 42 pommes" (short words of a sentence around one long one)
    latin = long_words >= 2 or (long_words == 1 and len(_LATIN_WORD_RE.findall(bare, timeout=timeout)) >= 4)
    other_script = not latin and "\\" not in sentence and OTHER_SCRIPT_WORD_RE.search(bare, timeout=timeout) is not None
    checked = blank_count_modifiers(sentence, timeout)
    if not (latin or other_script) or _doubtful(checked, timeout) or NEGATION_RE.search(checked, timeout=timeout) \
            or _TENTATIVE_RE.search(checked, timeout=timeout):
        return None  # "共有42个苹果", "всего 42 яблока": prose of another script states its one number too
    values = _sentence_values(sentence, 0, timeout)
    if len({content for content, _s, _e in values}) != 1:
        return None
    # "$41$, and 43 also works": a plain number the sentence adds to the math is a second value ("It takes $3$
    # hours to paint 2 rooms" is one: a number that only describes the question adds nothing)
    unremarked = _PARENTHESES_RE.sub(" ", sentence, timeout=timeout)  # "(both dice show 3)" remarks on the value
    if _ADDING.search(unremarked, timeout=timeout) and \
            len({c for c, _s, _e in _sentence_values(unremarked, 0, timeout, numbers_too=True)}) > 1:
        return None
    # the value with the words after it, for normalisation to tell a count noun ("42 apples") from a scale
    # word ("2 thousand people") or an operation ("42 squared"); the sentence goes on after its noun phrase
    from rlvr.verifiers.temperatures import with_temperature_scale  # units reads CLDR's number words: loaded with it

    content, at, end = values[-1]
    if (sign := sign_before(sentence, at)) is not None and not content.lstrip().startswith(("-", "+", "−")):
        if sign[0] == "operation":
            return None  # "ten minus 3", "plus or minus 5": an expression or a hedge in words, never its last number
        content = negative_of(content)  # "минус 5", "moins 5", "负5": the sign word of the value's language is its sign
    for bound in _BOUNDING.finditer(sentence, end, timeout=timeout):
        if not sentence[bound.end():].strip(" .,;:!)*"):
            return None  # "18 dollars at most", "18 Dollar mindestens": a bound closing the sentence bounds its value
    if (scaled := with_temperature_scale(sentence, content, at, timeout)) != content:
        return scaled, len(sentence)  # "25 degrees Fahrenheit (25 °F)": the scale belongs to the value
    tail = WORDS_AFTER_RE.match(sentence, end, timeout=timeout)
    return content + _noun_phrase(tail[0] if tail else ""), len(sentence)


_LATIN_WORD_RE = regex.compile(r"(?<![\\\p{L}])\p{Latin}+(?!\p{L})")


def _noun_phrase(words: str) -> str:
    """Of the words after a value, those that belong to it: the longest run a count noun takes ("minutes"
    of "minutes before the alarm"), or all of them when the first one changes the value ("thousand people",
    "squared"), so that normalisation reads or refuses them."""
    from rlvr.verifiers.units import unit_words  # units reads the number words of CLDR: loaded with it

    tokens = words.split()
    for k in range(len(tokens), 0, -1):
        if unit_words(" ".join(tokens[:k])):
            return words[:words.index(tokens[k - 1]) + len(tokens[k - 1])]
    return words
