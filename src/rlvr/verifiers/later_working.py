"""The work said after an answer, told apart from another answer: an explanation under a label ("**Answer: $18**
Explanation: … so 9 eggs are left"), a clause of the answer's reason ("…, from 9 eggs"), a sentence that names the
answer's label again ("The value of x is 6"), and a value given as the answer's own once more ("$6 \\times 7$
which is 43"). :mod:`rlvr.verifiers.later` asks these questions of each sentence after the final answer."""

from __future__ import annotations

import regex

from rlvr.verifiers.units import count_noun, unit_words

__all__ = ["EXPLANATION_RE", "JUSTIFYING_RE", "MONEY_ANYWHERE_RE", "RESULT_CLAIM_RE", "names_label", "said_of_answer",
           "work_value"]

# the answer given first, then its explanation under a label: "**Answer: $18**\n\n**Explanation:** …", "Here's why: …"
EXPLANATION_RE = regex.compile(r"(?i)[\s*_#>.)$}\]-]*(?:explanation|reasoning|justification|why|here['’]?s\s+why|"
                               r"here\s+is\s+why|solution|working|derivation|details|how)\b[\s*_]*[:：]")
# a clause that gives the answer's reason or means ("…, from 9 eggs", "because 5 books have 5! orderings")
JUSTIFYING_RE = regex.compile(r"(?i)[\s,;:(—–-]*(from|by|because|since|using|based\s+on|via|as)\s")
# a claim of a total, an answer or a result ("the total is", "total:", "so she earns … =", "we get"): never working
RESULT_CLAIM_RE = regex.compile(r"(?i)\b(?:total|answer|result|altogether|in\s+all|overall|final|we\s+get)\b")
# an amount of money near the answer's slot: later amounts of money are then the answer's own kind of quantity
MONEY_ANYWHERE_RE = regex.compile(r"(?i)\\\$|\$\s*[0-9]|[€£¥₹]|\bdollars?\b|\beuros?\b|美元")

_CONNECTIVES = frozenset("so thus hence therefore then because since as by from and or i.e e.g".split())
_MONEY_BEFORE_RE = regex.compile(r"(?:\\\$|\$|[€£¥₹])\s*$")
_MONEY_AFTER_RE = regex.compile(r"(?i)\s*(?:dollars?|euros?|pounds?|yuan|rupees?|cents?|美元|元)\b")
_NOUN_AFTER_RE = regex.compile(r"[\s$}]*((?:\p{L}[\p{L}'’-]*)(?:\s+\p{L}[\p{L}'’-]*){0,2})")
_OPERATOR_NEAR_RE = regex.compile(r"\s*(?:[-+−×*·/÷=]|\\(?:times|cdot|div)(?![A-Za-z]))")
_OPERATOR_BEFORE_RE = regex.compile(r"(?:[-+−×*·/÷]|\\(?:times|cdot|div))\s*\$?\s*$")
_MACRO_NAME_RE = regex.compile(r"\\[A-Za-z]+")
_WORD_RE = regex.compile(r"\p{L}[\p{L}'’-]*")
# what puts a value in the answer's place again: "which is 43", "; equivalently 43", "with repetition it is 3125"
_AGAIN_BEFORE_RE = regex.compile(r"(?i)(?:\b(?:which|it|this|that|one)\s+(?:is|was|would\s+be|equals|becomes|gives)"
                                 r"|\bequivalently|\bi\.\s?e\.|\bthat\s+is|\bso|\bor)\s*[,:]?\s*\$?\s*$")


def said_of_answer(folded: str, value: str, timeout: float) -> bool:
    """Whether ``value`` is given as the answer's value again ("… $6 \\times 7$ which is 43", "; equivalently 43",
    "with repetition it is 3125", ", so 43"), not as a quantity of its own ("and the sum is 5", "the number of ways
    to pick 2 of 5")."""
    at = folded.find(value)
    return at >= 0 and _AGAIN_BEFORE_RE.search(folded[max(0, at - 40):at], timeout=timeout) is not None


def names_label(phrase: str, label: str | None, timeout: float) -> bool:
    """Whether ``phrase`` names the answer's ``label`` ("The value of x is", "The sum m + n is")."""
    bare = regex.sub(r"\s+", "", _MACRO_NAME_RE.sub("", label or "", timeout=timeout), timeout=timeout)
    if not bare or len(bare) > 40:
        return False
    pattern = r"\s*\$?\s*".join(regex.escape(c) for c in bare)  # "m+n" is "m + n", "$m+n$" in the sentence
    return regex.search(r"(?<![A-Za-z])" + pattern + r"(?![A-Za-z])", phrase, timeout=timeout) is not None


def work_value(text: str, value: str, money: bool, timeout: float) -> bool:
    """Whether ``value`` in ``text`` reads as a quantity of the work ("9 eggs", "so 9 remain", "16 − 3 − 4 = 9",
    "$2 each"), not an answer put forward: it counts or measures something, or is an operand of a worked step, or
    the sentence says something of it beyond a connective ("So $20.", "Because 20." say nothing). After an answer
    that is an amount of money (``money``), another amount ("Janet makes $20 every day" after $18) is the answer's
    own kind of quantity, another value of it."""
    at = text.find(value)
    if at < 0:
        return False
    end = at + len(value)
    if money and (_MONEY_BEFORE_RE.search(text[max(0, at - 3):at], timeout=timeout)
                  or _MONEY_AFTER_RE.match(text, end, timeout=timeout)):
        return False
    after = _NOUN_AFTER_RE.match(text, end, timeout=timeout)
    if (after and (count_noun(after[1]) or unit_words(after[1]))) or _OPERATOR_NEAR_RE.match(text, end, timeout=timeout) \
            or _OPERATOR_BEFORE_RE.search(text[max(0, at - 4):at], timeout=timeout):
        return True
    rest = _MACRO_NAME_RE.sub(" ", EXPLANATION_RE.sub(" ", text.replace(value, " ", 1), count=1, timeout=timeout),
                              timeout=timeout)
    return any(w.lower() not in _CONNECTIVES for w in _WORD_RE.findall(rest, timeout=timeout))
