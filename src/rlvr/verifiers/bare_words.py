"""A completion that is nothing but an answer in words: "five", "True", "no real solutions", "Wednesday".

Graders and false-negative benchmarks hand the verifier a model's final answer alone, and short models
answer with a word; the bare-expression reader (:func:`rlvr.verifiers.slots.bare_expression`) takes math
only, so such a completion had no answer at all. Here the whole text must be one answer in words, read
from the vocabularies made for it: CLDR's number words of ninety languages (``spelled_numbers``) with
their fraction nouns (``spelled_fractions``), CLDR's weekday and month names (``calendar_names``), and
the word answers and yes/no words the comparison already knows (``word_answers``). A sentence, a list
or a hedge is never one ("five or six" holds a word that is none of these).
"""

from __future__ import annotations

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S

__all__ = ["bare_word_answer"]

_MOST_CHARS = 80
_MOST_NUMBER_WORDS = 8
# what may wrap a whole answer: math dollars, markdown stress, \text{…}, a closing period
_WRAPPED_RE = regex.compile(r"(?s)^[\s$*_]*(?:\\(?:text|textbf|mathrm|mbox)\s*\{(?P<inner>[^{}]*)\}|(?P<plain>[^{}\\$*]*?))"
                            r"[\s$*_]*\.?[\s$*_]*$")
_TOKEN_SPLIT_RE = regex.compile(r"[\s\-\u2010\u2011]+")
_LETTERS_RE = regex.compile(r"[\p{L}\s'\-\u2010\u2011]+")


def bare_word_answer(text: str) -> str | None:
    """The answer words of ``text`` when the whole of it is one answer in words; ``None`` otherwise."""
    s = text.strip()
    if not s or len(s) > _MOST_CHARS or "\n" in s:
        return None
    m = _WRAPPED_RE.fullmatch(s, timeout=REGEX_TIMEOUT_S)
    if m is None:
        return None
    words = (m["inner"] if m["inner"] is not None else m["plain"] or "").strip()
    if not words or not _LETTERS_RE.fullmatch(words, timeout=REGEX_TIMEOUT_S):
        return None
    from rlvr.verifiers.word_answers import spelled_answer, yes_no

    if spelled_answer(words):
        return words  # "does not exist", "no real solutions", "infinity"
    tokens = [t.lower() for t in _TOKEN_SPLIT_RE.split(words, timeout=REGEX_TIMEOUT_S) if t]
    if len(tokens) <= 2 and yes_no(words) is not None and not any(w in _SPELLED_QUALIFIERS for w in tokens):
        return words  # "True", "No", "Yes."
    if _spelled_number(tokens):
        return words  # "five", "twenty-four", "two thirds", "zweiundvierzig"
    from rlvr.verifiers.calendar_names import calendar_key

    if len(tokens) <= 2 and calendar_key(words) is not None:
        return words  # "Wednesday", "Mittwoch"
    return None


# words that turn a yes or no into no answer ("not true", "maybe yes")
_SPELLED_QUALIFIERS = frozenset({"not", "maybe", "probably", "perhaps", "or"})


def _spelled_number(tokens: list[str]) -> bool:
    """Whether ``tokens`` spell one number: every word a CLDR number word, the last perhaps a fraction noun."""
    from rlvr.verifiers.spelled_fractions import fraction_nouns
    from rlvr.verifiers.spelled_numbers import number_word, spelled_phrase

    if not tokens or len(tokens) > _MOST_NUMBER_WORDS:
        return False
    *lead, last = tokens
    if not all(number_word(t) for t in lead):
        return False
    if last in fraction_nouns() and lead:
        return spelled_phrase(lead)  # "two thirds": one number of parts
    return spelled_phrase(tokens)  # one whole spell-out ("twenty-four"), never two numbers ("seven twelve")
