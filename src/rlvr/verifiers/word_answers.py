"""Answers in words: the spellings of one word answer, yes and no in many languages, weekdays and months,
and integers spelled out.

Three decisions are made on the texts as written, before normalisation (which would read "十一月" as the number
11): :func:`calendar_decision` (a day or month in any CLDR language, :mod:`calendar_names`),
:func:`yes_no_decision` (yes/no, true/false in the languages the answer phrases are read in) and
:func:`spelled_decision` (the gold's integer spelled in one of CLDR's ninety languages, :mod:`spelled_numbers`).
:func:`word_answer` folds a word answer for the rules' comparison ("The empty set" is ∅, "infinitely many" ∞).
"""

from __future__ import annotations

from fractions import Fraction

import regex

from rlvr.verifiers.cache import byte_cache
from rlvr.verifiers.calendar_names import calendar_key, gold_calendar_key
from rlvr.verifiers.lexicon import (ALTERNATIVE_WORDS, HEDGE_WORDS, NO_WORDS, RETRACTION_CUES, YES_WORDS, alternation,
                                    words_pattern)
from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.spelled_fractions import spells_fraction
from rlvr.verifiers.spelled_numbers import percent_spelled, spells_gold
from rlvr.verifiers.normalize import normalize_answer
from rlvr.verifiers.numbers import parse_number
from rlvr.verifiers.trace import Decision, rule

__all__ = ["WORDS", "CALENDAR", "SPELLED", "word_answer", "phrase_answers", "spelled_answer", "yes_no", "yes_no_taken_back", "yes_no_reversed", "calendar_decision",
           "yes_no_decision", "spelled_decision"]

WORDS = rule("compare.words", "answers in words compare as words (case, articles and a final period aside), and the "
             "empty set, all reals and infinity in any of their spellings")
CALENDAR = rule("compare.calendar", "a weekday or month compares by the day it names, in any language or abbreviation CLDR has")
SPELLED = rule("compare.spelled", "an answer in words that spells the gold's integer in one of the languages CLDR spells numbers in")

_WORD_ANSWER_RE = regex.compile(r"[A-Za-z][A-Za-z '\-]{1,60}")
_ARTICLES_RE = regex.compile(r"^(?:the|a|an)\s+")
_SAME_AS = {  # spellings of one answer
    "∅": ("\\emptyset", "\\varnothing", "\\{\\}", "{}", "no solution", "no solutions", "no real solution",
          "no real solutions", "none", "empty set", "the empty set", "there is no solution", "no such number"),
    "ℝ": ("\\mathbb{R}", "\\mathbb R", "(-\\infty,\\infty)", "(-\\infty, \\infty)", "all real numbers", "all reals",
          "every real number"),
    "∞": ("\\infty", "+\\infty", "infinity", "infinite", "oo", "infinitely many", "infinitely many solutions",
          "an infinite number", "infinitely many values"),
    "DNE": ("dne", "does not exist", "doesn't exist", "it does not exist", "the limit does not exist"),
    "yes": ("yes", "true"),
    "no": ("no", "false"),
}
_SPELLINGS = {spelling.replace(" ", "").lower(): key for key, spellings in _SAME_AS.items() for spelling in spellings}
# the spellings that are phrases of words ("does not exist", "infinitely many solutions"), longest first
_PHRASES = tuple(sorted({p for key, ps in _SAME_AS.items() if key not in ("yes", "no") for p in ps
                         if " " in p and p.replace(" ", "").isalpha()}, key=len, reverse=True))
_PHRASE_RE = regex.compile(r"(?i)(?<![\p{L}])(?:" + "|".join(regex.escape(p) for p in _PHRASES) + r")(?![\p{L}])")


def phrase_answers(sentence: str) -> list[regex.Match]:
    """The word answers of several words a sentence states ("the limit does not exist", "there are infinitely many
    solutions"), each a match in ``sentence``."""
    return list(_PHRASE_RE.finditer(sentence, timeout=REGEX_TIMEOUT_S))
_TEXT_WRAPPER_RE = regex.compile(r"\\(?:text|mathrm|textbf|mbox)\s*\{([^{}]*)\}")
# words that take back or qualify a leading yes/no: hedges, alternatives, exceptions
_QUALIFYING_WORDS = frozenset(w for group in (HEDGE_WORDS, ALTERNATIVE_WORDS) for w in group if " " not in w) | frozenset(
    "but however except unless only sometimes kidding jk".split())
# a clause that takes the yes/no back ("wait, actually it is possible", "scratch that", "on second thought")
_RETRACTING_RE = words_pattern(RETRACTION_CUES)
# a negated claim of possibility, truth or existence ("it is not possible", "it cannot", "it doesn't.", "impossible"),
# which says no; a negation of anything else explains a yes ("there is no such counterexample", "not hard to see",
# "no doubt about it")
_NEGATED_CLAIM_RE = regex.compile(
    r"(?i)\b(?:not|never|cannot|can't|can\s+not|no\s+longer)\s+(?:\w+\s+){0,2}?(?:possible|true|exists?|existent|works?|"
    r"holds?|valid|correct|the\s+case|always|happen|be\s+done|be\s+found|solvable|attainable)\b"
    r"|\b(?:cannot|can't|doesn't|does\s+not|isn't|is\s+not|won't|will\s+not|didn't|aren't|are\s+not|don't|do\s+not|"
    r"not|never)\W*$"
    r"|\b(?:impossible|false|wrong|incorrect|invalid|fails?|untrue|nonexistent)\b")
# a positive word in the clause after a no, not negated ("No, it is true" takes it back, "No, it is not true" explains it)
_POSITIVE_RE = regex.compile(r"(?i)(?<!\b(?:not|n't|never)\s+(?:\w+\s+)?)\b(?:true|possible|exists|works|holds)\b")
_YES_NO = {**{w: "yes" for w in YES_WORDS}, **{w: "no" for w in NO_WORDS}}
# a yes or no opening the answer, alone or before a clause that explains it ("Nein, das ist nicht möglich.", "是的，可以。")
_YES_NO_RE = regex.compile(r"(?is)[\s*_$]*(?P<word>" + alternation(tuple(_YES_NO)) + r")[\s*_$]*"
                           r"(?:[,;:.!，。、：；！(\u2014-][\s*_]*(?P<rest>[^\n]{0,160}?))?[\s*_$]*[.!。！]?[\s*_$]*")
_UNSPACED_RE = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]")
_WORD_RE = regex.compile(r"[\p{L}']+")
_NO_SPACED = frozenset(w for w in NO_WORDS if " " not in w and not _UNSPACED_RE.search(w, timeout=REGEX_TIMEOUT_S))
_YES_SPACED = frozenset(w for w in YES_WORDS if " " not in w and not _UNSPACED_RE.search(w, timeout=REGEX_TIMEOUT_S))
_CLAUSE_SPLIT_RE = regex.compile(r"[,;:.!?()\u2014\u2013，。！？；：、]+|\s-+\s")


@byte_cache(0.02)
def spelled_answer(text: str) -> bool:
    """Whether ``text`` is one of the known spellings of a word answer ("does not exist", "no solution", "all real
    numbers"): an answer, never a sentence that states none."""
    return _TEXT_WRAPPER_RE.sub(r"\1", text, timeout=REGEX_TIMEOUT_S).strip(" $.").replace(" ", "").lower() in _SPELLINGS


def yes_no(text: str) -> str | None:
    """"yes" or "no" when ``text`` answers with one in any language read (``YES_WORDS``, ``NO_WORDS``), alone or
    before a clause that does not qualify or contradict it; ``None`` otherwise."""
    if len(text) > 200:
        return None
    m = _YES_NO_RE.fullmatch(_TEXT_WRAPPER_RE.sub(r"\1", text, timeout=REGEX_TIMEOUT_S), timeout=REGEX_TIMEOUT_S)
    if m is None:
        return None
    said = _YES_NO.get(m["word"].lower()) or _YES_NO.get(m["word"])
    rest = (m["rest"] or "").lower()
    return None if rest and _takes_back(said, rest) else said


def _takes_back(said: str, rest: str) -> bool:
    """Whether the clause ``rest`` after a leading yes/no qualifies, retracts or contradicts it: a hedge or an
    alternative ("Yes, but not always", "Ja, oder nein"), a retraction ("No, wait, it is possible"), the other answer
    ("No. Yep.", "是的，不可以", "No, 可以"), or a claim of the contrary ("Yes, it cannot", "No, it is true")."""
    t = REGEX_TIMEOUT_S
    words = set(_WORD_RE.findall(rest, timeout=t))
    if words & _QUALIFYING_WORDS:
        return True
    return yes_no_taken_back(said, rest) or (said == "yes" and _NEGATED_CLAIM_RE.search(rest, timeout=t) is not None) \
        or (said == "no" and _POSITIVE_RE.search(rest, timeout=t) is not None)


def yes_no_taken_back(said: str, text: str) -> bool:
    """Whether ``text``, said after a yes/no answer ``said``, takes it back outright: a retraction ("Wait, it is
    possible after all", "scratch that") or the other answer on its own ("Yep.", "Nein, doch", "No, 可以")."""
    t = REGEX_TIMEOUT_S
    rest = text.lower()
    if _VERIFYING_RE.search(rest, timeout=t) and not _TURNING & set(_WORD_RE.findall(rest, timeout=t)):
        return False  # "Wait, let me make sure 7 is odd.", "To confirm: 15 = 3 × 5, yes.": the work checked, not turned
    if _RETRACTING_RE.search(rest, timeout=t):
        return True
    other = _NO_SPACED if said == "yes" else _YES_SPACED
    for clause in _CLAUSE_SPLIT_RE.split(rest, timeout=t):  # "No. Yep.", "Yes — nah", "Nein, doch"; not "no doubt about it"
        said_there = _WORD_RE.findall(clause, timeout=t)
        while said_there and said_there[0] in _QUALIFYING_WORDS:
            said_there = said_there[1:]  # "(or yes, depending on reading)", "but no"
        # a clause opening with a yes after a no turns it ("No, yes it is."); "no doubt about it" after a yes does not
        if said_there and said_there[0] in other and (len(said_there) <= 2 or said == "no"):
            return True
    if _UNSPACED_RE.search(rest, timeout=t):
        # "是的，不可以", "No, 可以", "不是。是的": the other answer in a language written without spaces; a yes word
        # inside a no word ("不可以" holds "可以") is the no
        unspaced_no = [w for w in NO_WORDS if _UNSPACED_RE.search(w, timeout=t)]
        if said == "yes" and (any(w in rest for w in unspaced_no) or "不" in rest or "没" in rest):
            return True
        if said == "no":
            bare = rest
            for w in sorted(unspaced_no, key=len, reverse=True):
                bare = bare.replace(w, " ")
            if any(w in bare for w in YES_WORDS if _UNSPACED_RE.search(w, timeout=t) and len(w) > 1 or w == "能"):
                return True
    return False


# words that may stand before the other answer in a later clause that turns to it ("so actually no", "On
# reflection: no", "my final verdict: No", "Then again, maybe yes"): connectives, turns and verdict nouns
_TURN_WORDS = _QUALIFYING_WORDS | frozenset(
    "so then thus hence therefore again actually really wait hmm well oh on reflection second thought my our final "
    "verdict answer is was the correction after all i think guess say would it be that's obviously clearly "
    "just".split())
_ANSWER_AS_NOUN_RE = regex.compile(r"\b(?:it'?s|it\s+is|that'?s|that\s+is|answer\s+is|response\s+is|verdict\s+is)\s+(?:a\s+)?(?:clear\s+|definite\s+|firm\s+)?"
                                   r"[\"“'‘]?(yes|no)[\"”'’]?(?=\s*(?:[.!,;)]|$))")
_VERIFYING_RE = regex.compile(r"\b(?:check|checks|checking|checked|double-check|verify|verifying|verified|verification|"
                              r"confirm|confirms|confirming|confirmed|make\s+sure|sanity|indeed|holds|matches|consistent|agrees)\b")
_TURNING = frozenset("actually again reflection thought verdict answer correction mistake oops instead rather "
                     "reconsider reconsidering retract kidding scratch wrong".split())
_CLAUSE_WITH_END_RE = regex.compile(r"([^,;:.!?()\u2014\u2013，。！？；：、]+)([,;:.!?()\u2014\u2013，。！？；：、]*)")


def yes_no_reversed(said: str, text: str) -> bool:
    """Whether a later sentence ``text`` turns a yes/no answer ``said`` into the other one: a clause of turn words
    ending in the other answer ("Hmm, but for negative $n$ it fails, so actually no.", "Then again, maybe yes.").
    A clause that answers a question the sentence asks ("Could $n$ be odd? No, …") explains the answer."""
    t = REGEX_TIMEOUT_S
    other = _NO_SPACED | {"not"} if said == "yes" else _YES_SPACED  # "Then again, maybe not."
    said_before: list[str] = []
    if (noun := _ANSWER_AS_NOUN_RE.search(text.lower(), timeout=t)) and noun[1] in other and "?" not in text[:noun.start()]:
        return True  # "Thinking about it more, it's a no.": the other answer named as the verdict
    for m in _CLAUSE_WITH_END_RE.finditer(text.lower(), timeout=t):
        words = _WORD_RE.findall(m[1], timeout=t)
        if words and words[-1] in other and len(words) <= 6 and all(w in _TURN_WORDS for w in words[:-1]) \
                and _TURNING & set(said_before + words):
            return True  # a turn word says the answer changes; a bare "Yes." after a check confirms the check
        if "?" in m[2]:
            return False  # "Are there others? As shown above, no.": what follows answers the question
        said_before += words
    return False


def word_answer(clean: str) -> str | None:
    """The words an answer says, folded (``\\text{East}`` -> ``east``, ``The empty set`` -> ``∅``, "Yes, it is
    possible" -> ``yes``), or ``None`` when the answer is not words (a single letter is a variable or a choice)."""
    key = clean.replace(" ", "").lower().rstrip(".")
    if key in _SPELLINGS and len(key) > 1:
        return _SPELLINGS[key]
    if (said := yes_no(clean)) is not None:
        return said
    if not _WORD_ANSWER_RE.fullmatch(clean.strip().rstrip("."), timeout=REGEX_TIMEOUT_S):
        return None
    words = _ARTICLES_RE.sub("", clean.strip().rstrip(".").lower(), timeout=REGEX_TIMEOUT_S)
    if len(words.replace(" ", "")) < 2 or " " not in words and len(words) <= 3 and words not in _SPELLINGS:
        return None  # "ab", "xyz": variables as often as words
    return _SPELLINGS.get(words.replace(" ", ""), " ".join(words.split()))


def calendar_decision(answer_text: str, gold_text: str) -> Decision | None:
    """A weekday or month against a gold that names one: "Mittwoch", "Wed", "星期三" against "Wednesday"."""
    if (g_day := gold_calendar_key(gold_text)) is None or (a_day := calendar_key(answer_text)) is None:
        return None
    same = a_day == g_day
    return Decision("correct" if same else "incorrect", f"{answer_text[:80]!r} {'names' if same else 'does not name'} "
                    f"the {'day' if g_day[0] == 'd' else 'month'} of gold {gold_text[:80]!r}", "string", CALENDAR)


def yes_no_decision(answer_text: str, gold_text: str) -> Decision | None:
    """A yes or no (true or false) against a gold that is one, in any language read: "Nein, das ist nicht möglich."
    against "No", "答案：否", "Ответ: да."; ``None`` when either is no such answer."""
    if (gold := yes_no(gold_text)) is None or (said := yes_no(answer_text)) is None:
        return None
    same = said == gold
    return Decision("correct" if same else "incorrect", f"{answer_text[:80]!r} {'says' if same else 'does not say'} "
                    f"{gold!r} as gold {gold_text[:80]!r} does", "string", WORDS)


def spelled_decision(answer_text: str, gold_text: str, gold_number: Fraction | None) -> Decision | None:
    """An answer that spells the gold's integer ``gold_number`` (``None`` for a gold with a unit or a percent sign)
    in words of one of CLDR's ninety languages ("двадцать пять", "veinticinco", "三十六种" against 25 or 36)."""
    if (language := spells_gold(answer_text, gold_number) or spells_fraction(answer_text, gold_number)) is None:
        if not percent_spelled(answer_text):
            return None
        # "forty percent" against 40%, 0.4 or 40: the spelled number as a percentage, read as the percent policy reads
        # "40%" (against a percentage gold only its own number)
        gold = normalize_answer(gold_text)
        if (number := parse_number(gold.key)) is None or gold.unit:
            return None
        wanted = [number] if gold.percent else [number, number * 100]
        if (language := next((found for n in wanted if (found := spells_gold(answer_text, n))), None)) is None:
            return None
    return Decision("correct", f"{answer_text[:80]!r} spells gold {gold_text[:80]!r} in words ({language})", "string", SPELLED)
