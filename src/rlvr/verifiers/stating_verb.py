"""Which verb of a prose sentence states its value, and which of the values after it is the one stated.

"The remainder when 100 is divided by 7 is 2", "the number of integers that are divisible by 7 is 14":
a subordinate or relative clause's verb is not the sentence's. "Janet earns 18 dollars per day from the
9 eggs she sells": the verb's object is stated, a value in a phrase that qualifies it is not; values
joined by a conjunction or set in parallel phrases ("18 by my count and 20 by the book's") are offered,
and stay several. One value is read, so a second candidate in a qualifying phrase is never paid.
"""

from __future__ import annotations

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S

__all__ = ["VERB_RE", "single_verb", "object_value"]

# (after an article or a preposition the same word is a noun: "in total", "the cost", "a measure")
VERB_RE = regex.compile(r"(?i)(?<!\b(?:in|the|a|an|of|its|their|his|her|our|per)\s+)"
                         r"\b(?:is|are|was|were|costs?|makes?|earns?|gets?|needs?|takes?|has|have|pays?|weighs?|"
                         r"measures?|totals?|equals?)\b")

# what opens a phrase that qualifies the verb's object ("18 dollars from the 9 eggs", "$18 a day, selling 9 eggs")
# (with the prepositions of the languages whose closing lines the reader takes: "con", "mit", "avec", "с")
_MODIFIER_RE = regex.compile(r"(?i)(?<![\p{L}])(?:from|with|for|by|on|in|at|after|before|over|via|out\s+of|since|because|"
                             r"as|when|using|selling|buying|making|giving|leaving|having|con|mit|avec|com|aus|von|с|со|из|от)"
                             r"(?![\p{L}])")


_JOINED_RE = regex.compile(r"(?i)\b(?:and|but|or|yet|while|whereas|though|although|versus|vs)\b|;")


_ARITHMETIC_RE = regex.compile(r"[+*/×÷=]|\s[-−]\s|\\times|\\cdot|\\div")


def object_value(clause: str, offset: int, stated: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """The first value after the stating verb when every other one sits in a phrase that qualifies it ("Janet
    earns 18 dollars per day from the 9 eggs she sells" states 18); ``[]`` otherwise. One value is read, so
    a second candidate in such a phrase is never paid."""
    if len({c for c, _s, _e in stated}) < 2:
        return []
    first = stated[0]
    for content, a, _b in stated[1:]:
        if content == first[0]:
            continue
        between = clause[first[2] - offset:a - offset]
        if _ARITHMETIC_RE.search(between, timeout=REGEX_TIMEOUT_S):
            return []  # "is 80 from Jada + 40 from Rory + 20 from Kora = 140": operands of a computation, no object
        opener = None
        for opener in _MODIFIER_RE.finditer(between, timeout=REGEX_TIMEOUT_S):
            pass
        if opener is None or len(between[opener.end():].split()) > 2 or "," in between[opener.end():] \
                or _JOINED_RE.search(between, timeout=REGEX_TIMEOUT_S):
            return []  # "18, with 20 as a backup", "18 by my count and 20 by the book's": offered, not qualified
        if "," in between[:opener.start()] and not opener[0].lower().endswith("ing"):
            return []  # after a comma only a participle qualifies ("$18 a day, selling 9 eggs")
    return [first]




def single_verb(sentence: str, math: list[tuple[int, int]], timeout: float) -> int | None:
    """Where the text after a sentence's only stating verb ("is", "has", "costs", …, outside the ``math``
    spans) begins; ``None`` for zero or several ("After 3 days she has 12 apples left" states 12)."""
    verbs = [m for m in VERB_RE.finditer(sentence, timeout=timeout) if not any(a <= m.start() < b for a, b in math)
             and not _INFINITIVE_RE.search(sentence, max(0, m.start() - 4), m.start(), timeout=timeout)]
    if len(verbs) > 1 and (sub := _SUBORDINATE_RE.search(sentence, 0, verbs[0].start(), timeout=timeout)) \
            and not _VALUE_BEFORE_RE.search(_OF_VALUE_RE.sub(" ", sentence[:sub.start()], timeout=timeout),
                                            timeout=timeout):
        verbs = verbs[-1:]  # "The remainder when 100 is divided by 7 is 2": the clause's own verb is not the sentence's
    if len(verbs) == 2 and _RELATIVE_RE.search(sentence, max(0, verbs[0].start() - 40), verbs[0].start(),
                                               timeout=timeout):
        verbs = verbs[1:]  # "the number of integers … that are divisible by 7 is 14": a relative clause's verb
    return verbs[0].end() if len(verbs) == 1 else None


# "to get to the theater 5 minutes sooner": an infinitive states nothing, the sentence's own verb does
_INFINITIVE_RE = regex.compile(r"(?i)\bto\s+$")
# a subordinate clause of its own verbs before the sentence's ("when 100 is divided by 7", "if x is 3", "after it is cut")
_SUBORDINATE_RE = regex.compile(r"(?i)\b(?:when|if|after|once|whenever)\b")
# a value before the subordinate clause is its subject's own ("12 posts when …") unless an "of" phrase names
# the quantity with it ("The last digit of $3^{100}$ when …")
_VALUE_BEFORE_RE = regex.compile(r"[0-9$]")
_OF_VALUE_RE = regex.compile(r"\bof\s+(?:the\s+)?(?:\$[^$]*\$|[0-9][0-9.,]*)")
# a relative pronoun just before a verb: the verb is the relative clause's ("integers that are divisible")
_RELATIVE_RE = regex.compile(r"(?i)\b(?:that|which|who)\s+$")


# "giving" concludes ("…, giving 42") but not as a verb of the story ("after giving away 5", "by giving her 3")
_GIVING_AWAY_RE = regex.compile(r"(?i)(?:\b(?:after|before|by|when|while|from|for|without|upon|of)\s+giving\b|\bgiving\s+"
                                r"(?:away|up|back|out|in|her|him|them|me|us|you|each|every|one|two|some|all)\b)")


def gives_away(sentence: str, match: regex.Match) -> bool:
    """Whether the cue ``match`` is "giving" as a verb of the story ("after giving away 5"), not as a conclusion."""
    if match[0].lower() != "giving":
        return False
    return _GIVING_AWAY_RE.search(sentence, max(0, match.start() - 12), min(len(sentence), match.end() + 12),
                                  timeout=REGEX_TIMEOUT_S) is not None
