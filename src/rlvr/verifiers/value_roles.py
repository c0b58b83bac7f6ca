"""The role of one value in a sentence: stated, or a bound ("more than 7"), a rejected candidate ("7 fails",
"except 7"), a supposition ("if it were 7") or denied ("not 7"). Only a stated value is a claim; every reader
of prose asks this module, and :class:`RoleIndex` reads a sentence once for all its values."""

from __future__ import annotations

import bisect

import regex

from rlvr.verifiers.lexicon import (
    BOUND_WORDS, EXCLUDING_WORDS, HEDGE_WORDS, HYPOTHETICAL_WORDS, NEGATIVE_EVALUATIONS, REJECTION_WORDS, TENTATIVE_WORDS,
    UNSURE_PHRASES, words_pattern,
)
from rlvr.verifiers.limits import REGEX_TIMEOUT_S

__all__ = ["CLAUSE_BREAK_RE", "DOING_AFTER_RE", "RoleIndex", "bound_before", "bounds_a_value", "value_role"]

_BOUND = words_pattern(BOUND_WORDS)
_REJECTED = words_pattern(REJECTION_WORDS + NEGATIVE_EVALUATIONS)  # "7 fails", "7 is wrong"
_EXCLUDING = words_pattern(EXCLUDING_WORDS)
_BOUND_TAIL_RE = regex.compile(r"(?i)\s*(?:of|than|to)?\s*\$?\s*$")
_REJECTED_HEAD_RE = regex.compile(r"(?i)^\s*\$?\s*[,(]?\s*(?:is\s+|was\s+|also\s+)?")
_HYPOTHETICAL_RE = words_pattern(HYPOTHETICAL_WORDS)
_NEGATES_NEXT_RE = regex.compile(r"(?i)(?:\bnot|n't|\bnever|不是|不)\s*(?:(?:equal\s+to|be|equals?)\s+)?\$?\s*$")
_NEGATED_BY_NEXT_RE = regex.compile(r"(?i)^\s*\$?\s*(?:is|was)\s*(?:not\b|n't\b)|^\s*\$?\s*(?:isn't|wasn't)\b")
# what follows "would" when it is the question's own mood, not a supposition: a verb of doing ("would need")
DOING_AFTER_RE = regex.compile(r"(?i)\s+(?!(?:be|have|not|never|only|also|probably|perhaps|maybe|get|say|guess|go|argue|"
                               r"pick|opt|bet|lean|estimate|assume|think|believe|reckon|suppose)\b|\p{Ll}+ly\b)"
                               r"\p{Ll}{2,}\b")  # an adverb first ("would supposedly need") qualifies the mood
CLAUSE_BREAK_RE = regex.compile(r"[,;:，；：]|\s[-–—]\s|\bthen\b|\bso\b")
# the least or the most of something, as the problem asks for it (see :func:`_extremum`)
_EXTREMUM_BOUND = (r"(?:at\s+(?:least|most)|no\s+(?:more|fewer|less)\s+than|not\s+(?:more|fewer|less)\s+than|"
                   r"a\s+(?:minimum|maximum)\s+of|up\s+to|mindestens|höchstens|au\s+(?:moins|plus)|al\s+menos|"
                   r"como\s+(?:mínimo|máximo)|almeno|al\s+massimo|pelo\s+menos|no\s+máximo|"
                   r"как\s+(?:минимум|максимум)|не\s+(?:менее|более)|хотя\s+бы|至少|至多|最多|少なくとも)")
_BOX_OPENING = r"(?:[\s$*_{]|\\(?:boxed|fbox|framebox)(?![A-Za-z]))*$"  # what stands between a bound and its boxed value
_EXTREMUM_TAIL_RE = regex.compile(r"(?i)(?<![\p{L}])" + _EXTREMUM_BOUND + _BOX_OPENING)
# need, necessity, sufficiency, ability or permission, in the languages whose bounds are read; a modal before "be"
# speaks of the value, not of what is done ("it must be at least 5", "es muss mindestens 5 sein")
_NEED_VERB = (r"(?:needs?|needed|require[sd]?|requires|necessary|enough|suffices?|sufficient|ensures?|guarantee[sd]?|"
              r"allowed|possible|must|can|should|have\s+to|has\s+to|had\s+to|"
              r"muss|müssen|braucht|brauchen|benötigt|benötigen|nötig|notwendig|kann|können|darf|dürfen|"
              r"faut|doit|doivent|devons|devez|peut|peuvent|pouvons|nécessaire|suffit|"
              r"necesita|necesitan|necesitamos|necesario|hay\s+que|debemos|debe|deben|puede|pueden|podemos|"
              r"bisogna|serve|servono|necessario|deve|devono|dobbiamo|può|possono|possiamo|preciso|necessário|pode|podem|"
              r"нужно|надо|необходимо|потребуется|потребуются|должны|должен|можно|может|можем|"
              r"需要|必须|必要|可以|能)")
_BE_AFTER = r"(?:\s+\p{L}+)?\s+(?:be|been|sein|être|ser|estar|essere|быть|是)(?![\p{L}])"
_NEED_IN_CLAUSE_RE = regex.compile(r"(?i)(?<![\p{L}])" + _NEED_VERB + r"(?![\p{L}])(?!" + _BE_AFTER + r")")
_EXTREMUM_CLAUSE_END_RE = regex.compile(r"[,;:，；：]|\s[-–—]\s")
# after the bounded value and a short subject: a passive of a modal ("of them can be chosen") or a word of need
# ("socks are needed", "Socken nötig", "calcetines necesarios")
_PASSIVE_AFTER_RE = regex.compile(
    r"(?i)[\s$*_}]*(?:\p{L}+\s+){0,4}?(?:(?:can|could|must|need\s+to|have\s+to|are|is|will\s+be)\s+(?:be\s+)?"
    r"(?:\p{L}+(?:ed|en)|needed|required|chosen|drawn|taken)|(?:needed|required|necessary|enough|sufficient|nötig|"
    r"notwendig|erforderlich|nécessaires?|suffisants?|necesari[oa]s?|suficientes?|necessari[oe]|sufficienti|"
    r"necessári[oa]s?|нужно|необходимо|必要))(?![\p{L}])")
_ANSWER_NAMED_RE = regex.compile(r"(?i)(?<![\p{L}])(?:answer|result|value|solution|antwort|ergebnis|réponse|respuesta|"
                                 r"resultado|risposta|resposta|ответ|答案)(?![\p{L}])")
_BOUNDS_RE = words_pattern(BOUND_WORDS)
# a hedge or a possibility anywhere near the bound makes it one ("We may need at least 5", "It might take at least 5",
# "可能至少需要 5")
_HEDGING_RE = words_pattern(HEDGE_WORDS + UNSURE_PHRASES + TENTATIVE_WORDS + (
                                           "may", "might", "could", "possibly", "perhaps", "i guess", "i think",
                                           "hopefully", "worst case", "if lucky", "e.g.", "for example",
                                           "vielleicht", "peut-être", "quizás", "tal vez", "forse", "talvez",
                                           "возможно", "может быть", "可能", "也许", "たぶん", "かもしれない"))
_COPULA_BEFORE_RE = regex.compile(r"(?i)(?<![\p{L}])(?:is|are|was|were|be|equals?|ist|sind|est|sont|es|son|è|sono|é|são|"
                                  r"равно|равен)\s+" + _EXTREMUM_BOUND + _BOX_OPENING)
_CONTRAST_RE = regex.compile(r"(?i)(?<![\p{L}])(?:but|though|although|however|yet|unless|aber|doch|mais|pero|sin\s+embargo|"
                             r"ma|però|mas|porém|но|однако|但|但是|不过)(?![\p{L}])")


def _opening(sentence: str) -> str:
    """The first words of a sentence, past blanks and markdown marks (what a supposition opens with)."""
    k = 0
    while k < len(sentence) and sentence[k] in " \t*_>-(":
        k += 1
    return sentence[k:k + 80]


class RoleIndex:
    """What :func:`value_role` reads of a whole sentence, found once: whether a supposition opens it,
    where its clauses end, and where its supposition words stand (one pass each, so a sentence of
    thousands of values costs a pass, not a pass per value)."""

    def __init__(self, sentence: str, timeout: float) -> None:
        self.opening = _HYPOTHETICAL_RE.starts(_opening(sentence), timeout) is not None
        self.clause_ends = [m.end() for m in CLAUSE_BREAK_RE.finditer(sentence, timeout=timeout)]
        found = _suppositions(sentence, 0, len(sentence), timeout)
        self.suppositions = [m.start() for m in found]
        self.supposition_ends = [m.end() for m in found]

    def supposed(self, start: int) -> bool:
        if self.opening:
            return True
        i = bisect.bisect_right(self.clause_ends, start) - 1
        clause_start = self.clause_ends[i] if i >= 0 else 0
        j = bisect.bisect_left(self.suppositions, clause_start)
        return j < len(self.suppositions) and self.supposition_ends[j] <= start


def value_role(sentence: str, start: int, end: int, timeout: float, index: RoleIndex | None = None) -> str:
    """What the value at ``[start, end)`` of ``sentence`` is: stated, bound, rejected, supposed or denied.

    ``index`` (a :class:`RoleIndex` of ``sentence``) makes many calls on one sentence linear."""
    before, after = sentence[max(0, start - 60):start], sentence[end:end + 60]
    if _BOUND.ends(before, timeout):
        return "stated" if _extremum(sentence, start, end, timeout) else "bound"
    tail = _BOUND_TAIL_RE.search(before, timeout=timeout)[0]
    if tail.strip(" \t\n$") and _BOUND.ends(before[:len(before) - len(tail)] + " ", timeout):
        return "bound"  # the bound's word before a linking "of", "than" or "to"
    if _REJECTED.starts(after[_REJECTED_HEAD_RE.match(after, timeout=timeout).end():], timeout) \
            or _EXCLUDING.ends(before, timeout):
        return "rejected"
    if _NEGATES_NEXT_RE.search(before, timeout=timeout) or _NEGATED_BY_NEXT_RE.match(after, timeout=timeout):
        return "denied"
    if index is not None:
        return "supposed" if index.supposed(start) else "stated"
    opening = _HYPOTHETICAL_RE.starts(_opening(sentence), timeout)
    if opening:  # "If it were 7, we would get 9": a conditional supposes all it says
        return "supposed"
    clause_start = 0
    for m in CLAUSE_BREAK_RE.finditer(sentence, 0, start, timeout=timeout):
        clause_start = m.end()
    if _suppositions(sentence, clause_start, start, timeout):
        return "supposed"
    return "stated"


def _extremum(sentence: str, start: int, end: int, timeout: float) -> bool:
    """The bound right before the value at ``[start, end)`` states the extremum the problem asks for: a verb of need
    or ability in its clause ("We must draw at least 5 socks", "Il faut tirer au moins 5 chaussettes"), or the bound
    after the value and a short subject, a passive verb or a word of need ("At most 4 of them can be chosen"). Said of the
    answer itself ("The answer needs to be at least 5"), with "be" after the verb ("there must be at least 5"), or
    beside a second bound ("at least 5 and at most 8") it only bounds."""
    if not _EXTREMUM_TAIL_RE.search(sentence, max(0, start - 40), start, timeout=timeout):
        return False
    lo, hi = max(0, start - 200), min(len(sentence), end + 200)
    clause_start, clause_end = lo, hi
    for m in _EXTREMUM_CLAUSE_END_RE.finditer(sentence, lo, hi, timeout=timeout):
        if m.end() <= start:
            clause_start = m.end()
        elif m.start() >= end:
            clause_end = m.start()
            break
    # the verb before the bound takes it as its object; after it only a passive or a word of need does ("at least 2
    # socks must share a colour" is a bound on what follows from the answer)
    if not (_NEED_IN_CLAUSE_RE.search(sentence, clause_start, start, timeout=timeout)
            or _PASSIVE_AFTER_RE.match(sentence, end, clause_end, timeout=timeout)):
        return False
    if _ANSWER_NAMED_RE.search(sentence, lo, hi, timeout=timeout) or _HEDGING_RE.search(sentence, lo, hi, timeout=timeout):
        return False  # "The answer needs to be at least 5", "We may need at least 5": a bound, or a hedged one
    if _COPULA_BEFORE_RE.search(sentence, max(0, start - 40), start, timeout=timeout) \
            and not _PASSIVE_AFTER_RE.match(sentence, end, clause_end, timeout=timeout):
        return False  # "The number of draws needed is at least 5": the copula bounds the value
    if _CONTRAST_RE.search(sentence, end, hi, timeout=timeout):
        return False  # "We need at least 5 socks, but it may take more like 6": the bound is qualified
    window = sentence[lo:hi]
    bounds = (m for m in _BOUNDS_RE.finditer(window, timeout=timeout) if bounds_a_value(window, m))
    return next(bounds, None) is not None and next(bounds, None) is None  # "as shown above" bounds nothing


def _suppositions(sentence: str, start: int, end: int, timeout: float) -> list:
    """The supposition words of ``sentence[start:end]``; "would" before a verb of doing is the question's own
    mood ("Tom would need 15 boxes", "It would take 6 hours"), no supposition ("it would be 7" is one)."""
    found = list(_HYPOTHETICAL_RE.finditer(sentence, 0, end, timeout=timeout))
    conditioned = False  # "If the seats were distinct, we would multiply by 2": a condition makes "would" suppose
    kept = []
    for m in found:
        mood = m[0].lower() == "would" and DOING_AFTER_RE.match(sentence, m.end(), timeout=timeout)
        if not mood:
            conditioned = True
        if m.start() >= start and (conditioned or not mood):
            kept.append(m)
    return kept


# bound words that are also prepositions of place or time: a bound only before a value ("over 8", not "over the year")
# a bound word that bounds only what follows it: "over 8%", not "8% over the year"; "more than 3", not "3 hours more
# than James" (a difference, stated)
_PREPOSITIONS = frozenset({"over", "under", "above", "below", "beyond", "between", "more than", "less than", "fewer than",
                           "greater than", "larger than", "smaller than", "bigger than"})
_NEXT_TOKEN_RE = regex.compile(r"\s*(\S+)")
_QUANTITY_NOUNS = frozenset({"number", "sum", "product", "square", "cube", "quotient", "difference", "value", "result",
                             "total", "amount", "quantity", "answer"})
_DIFFERENCE_FROM = frozenset({"he", "she", "they", "him", "her", "them", "his", "hers", "theirs", "we", "us", "i", "me",
                              "you", "on", "in", "at", "last", "yesterday", "before"})


def bounds_a_value(text: str, m: "regex.Match[str]") -> bool:
    """Whether the bound word ``m`` of ``text`` bounds a value: always, but a preposition only before one ("over
    8%", "over twenty"; not "8% over the year", "under the new plan")."""
    if m[0].lower() not in _PREPOSITIONS:
        return True
    if m[0].lower().endswith(" than"):
        # "3 hours more than James", "$40 more revenue than on Friday": a difference from someone or some time;
        # "more than 3", "10 more than twice the number", "5 more than x": a bound or an expression
        after = _NEXT_TOKEN_RE.match(text, m.end(), timeout=REGEX_TIMEOUT_S)
        word = after[1].strip("*_,.;:()") if after else ""
        if word.lower() == "the":  # "more than the loser", never "more than the number" (an expression)
            second = _NEXT_TOKEN_RE.match(text, after.end(), timeout=REGEX_TIMEOUT_S)
            return second is None or second[1].strip("*_,.;:()").lower() in _QUANTITY_NOUNS
        return not (word[:1].isupper() and word.isalpha() and len(word) > 1 or word.lower() in _DIFFERENCE_FROM)
    from rlvr.verifiers.spelled_numbers import number_word  # CLDR's number words: loaded with the vocabularies

    pos = m.end()
    for _ in range(3):  # "under the 50 mark", "over the \\$40 budget": a value a word or two on bounds as well
        token = _NEXT_TOKEN_RE.match(text, pos, timeout=REGEX_TIMEOUT_S)
        word = token[1].strip("*_,.;:()").lower() if token else ""
        if not word:
            return False
        if not word[:1].isalpha() or number_word(word):
            return True
        if word not in ("the", "a", "an", "this", "that", "our", "my", "its", "their", "just", "only"):
            return False
        pos = token.end()
    return False


def bound_before(text: str, value: str, timeout: float) -> bool:
    """A bound word right before the first ``value`` of ``text`` ("at least 2 socks"), whatever its role."""
    at = text.find(value)
    return at > 0 and _BOUND.ends(text[max(0, at - 60):at], timeout) is not None
