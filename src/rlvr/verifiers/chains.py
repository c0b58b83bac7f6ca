"""Worked chains in prose: which numbers of "3 + 10 = 13" are steps and which one is the stated value.

A chain is a run of plain numbers joined only by operators, with at least one "=", and it must hold
arithmetically ("5 = 6" states two values). Its steps are the numbers before its last "=". The
arithmetic is done with exact fractions and the usual precedence, never with ``eval``.
"""

from __future__ import annotations

from fractions import Fraction

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S

__all__ = ["chain_operands", "chain_holds", "if_premise_blanked"]

# an operator (perhaps after the amount's unit words, at most three), and perhaps the currency sign of the next amount ("$12 + $14 =
# $26", "9 × €2 = €18", "20 sheep + 160 sheep", "$10 x 40")
_OPERATOR_GAP_RE = regex.compile(r"\s*(?:(?:\p{L}[\p{L}'’]{0,15}|/\s*\p{L}{1,15})\s*){0,3}(?:[-+*/×÷·=−]|\\times|\\cdot|\\div|"
                                  r"(?<=\s)x(?=\s))\s*(?:(?:\\?\$|[€£¥₹])\s*)?")
# the unit words after an amount of a chain ("20 sheep + 160 sheep", "25 miles per gallon x 12 gallons", "$1150/week"):
# the amounts are what it works with
_UNIT_WORD_RE = regex.compile(r"(?<=[0-9])\s*(?:(?:/\s*)?\p{L}[\p{L}'’]{0,15}\s*){1,3}")
_TIMES_X_RE = regex.compile(r"(?<=\s)x(?=\s)")
_CURRENCY_SIGN_RE = regex.compile(r"\\?\$|[€£¥₹]")


def chain_operands(sentence: str, numbers: list[regex.Match], timeout: float) -> set[int]:
    """Indexes of the numbers that are steps of a true worked chain ("3 + 10 = 13" leaves 13).

    A chain is a run of numbers joined only by operators, with at least one "="; it must hold
    arithmetically ("5 = 6" states two values). Its steps are the numbers before its last "=".
    """
    steps: set[int] = set()
    results: list[int] = []  # the value each earlier chain ends on
    first = 0
    while first < len(numbers):
        last, last_equals = first, None
        while last + 1 < len(numbers):
            gap = sentence[numbers[last].end():numbers[last + 1].start()]
            # "6 +7": a signed number after a blank is the operator and its operand
            signed = numbers[last + 1][0][:1] in "+-−" and gap and gap.isspace() and "=" in sentence[numbers[last + 1].end():]
            if not signed and not _OPERATOR_GAP_RE.fullmatch(gap, timeout=timeout):
                break
            last += 1
            if "=" in gap:
                last_equals = last
        if last_equals is not None and chain_holds(sentence[numbers[first].start():numbers[last].end()]):
            steps.update(range(first, last_equals))
            # "16 - 3 - 4 = 9 eggs, and 9 × $2 = $18": an earlier result this chain works with is a step too
            operands = {_amount(numbers[i][0]) for i in range(first, last_equals)}
            steps.update(r for r in results if _amount(numbers[r][0]) in operands
                         and not _SUBJECT_STATED_RE.search(sentence, numbers[r].end(), numbers[first].start(), timeout=timeout))
            results.append(last)
            # "In 30 days, they eat 30 * 5 = 150 apples": the operand said once more in the sentence is that step
            given = {_amount(numbers[i][0]) for i in range(first, last_equals)}
            steps.update(i for i in range(len(numbers)) if not first <= i <= last and i not in results
                         and _amount(numbers[i][0]) in given
                         and not _CLAIMED_BEFORE_RE.search(sentence, 0, numbers[i].start(), timeout=timeout)
                         and not (i < first and _JUSTIFYING_RE.search(sentence, numbers[i].end(), numbers[first].start(),
                                                                       timeout=timeout)))
        first = last + 1
    return steps


# a subject stated between two chains ("The width is 3 x 2 = 6 and the length is 6 x 2 = 12"): two quantities, each
# stated, so the first result is no step of the second
_SUBJECT_STATED_RE = regex.compile(r"(?i)\b(?:is|are|was|were|equals)\b")


# a value claimed before the chain works with it ("So she has 40 apples; 40 - 15 = 25", "Therefore the total is 12,
# and 12 - 5 = 7 …"): a result of its own, not the chain's given ("In 30 days, they eat 30 * 5", "He has 36, eats 3 …")
_CLAIMED_BEFORE_RE = regex.compile(r"(?i)\b(?:so|therefore|thus|hence|total|answer|result|altogether|in\s+all)\b")
# "He can skip 4 classes because 10 - 4 = 6": a chain that gives the reason for a value stated before it
_JUSTIFYING_RE = regex.compile(r"(?i)\b(?:because|since|as|for)\b")


def _amount(number: str) -> str:
    return number.replace(",", "").lstrip("+")


_CHAIN_TOKEN_RE = regex.compile(r"\s*(?:([0-9]{1,30}(?:\.[0-9]{1,30})?)|([-+*/×÷·=−]|\\times|\\cdot|\\div))")
_CHAIN_OPS = {"×": "*", "·": "*", "\\times": "*", "\\cdot": "*", "÷": "/", "\\div": "/", "−": "-"}


def chain_holds(chain: str) -> bool:
    """Whether every side of ``a op b = c = …`` (plain non-negative numbers, + - * /) has one value.

    Evaluated with exact fractions and the usual precedence, never with ``eval``; anything else
    (signs, percent, more than 20 terms, long numbers) does not count as a chain.
    """
    tokens, pos = [], 0
    text = chain.replace(",", "")  # 1,000 is one number here (the prose number pattern kept it whole)
    if "$" in text or not text.isascii():
        text = _CURRENCY_SIGN_RE.sub("", text, timeout=REGEX_TIMEOUT_S)  # "$12 + $14 = $26": the amounts
    if any(c.isalpha() for c in text):
        text = _UNIT_WORD_RE.sub("", _TIMES_X_RE.sub("*", text, timeout=REGEX_TIMEOUT_S), timeout=REGEX_TIMEOUT_S)
    while pos < len(text):
        m = _CHAIN_TOKEN_RE.match(text, pos, timeout=REGEX_TIMEOUT_S)
        if not m or m.end() == pos:
            return False
        tokens.append(Fraction(m[1]) if m[1] else _CHAIN_OPS.get(m[2], m[2]))
        pos = m.end()
    if len(tokens) > 41 or any(isinstance(t, Fraction) and t > 10 ** 30 for t in tokens):
        return False
    sides, side = [], []
    for t in tokens + ["="]:
        if t == "=":
            value = _evaluate(side)
            if value is None:
                return False
            sides.append(value)
            side = []
        else:
            side.append(t)
    return len(sides) > 1 and all(v == sides[-1] for v in sides)


def _evaluate(tokens: list) -> Fraction | None:
    """``n (op n)*`` with * and / before + and -; ``None`` when malformed or dividing by zero."""
    if not tokens or len(tokens) % 2 == 0:
        return None
    terms, ops = [tokens[0]], []
    for op, value in zip(tokens[1::2], tokens[2::2]):
        if not isinstance(value, Fraction) or isinstance(op, Fraction):
            return None
        if op in "*/":
            if op == "/" and value == 0:
                return None
            terms[-1] = terms[-1] * value if op == "*" else terms[-1] / value
        else:
            terms.append(value)
            ops.append(op)
    if not isinstance(terms[0], Fraction):
        return None
    total = terms[0]
    for op, value in zip(ops, terms[1:]):
        total = total + value if op == "+" else total - value
    return total


# "If only 14 remained, then 40-14=26 pieces …": an if-clause, then a clause that works its result out
_IF_CLAUSE_RE = regex.compile(r"(?i)\s*if\b(?:[^,.;:!?]|[.,](?=[0-9])){1,200}?(?:,\s*(?:then\s+)?|\s+then\s+)")
_WORKED_RESULT_RE = regex.compile(r"(?:[0-9][0-9,.]*\s*[A-Za-z%]{0,8}\s*(?:[-+*/×÷x]|\\times|\\cdot)\s*\\?\$?\s*)+"
                                  r"[0-9][0-9,.]*\s*[A-Za-z%]{0,8}\s*=\s*\\?\$?\s*[0-9][0-9,.]*")


# what makes an if-clause one case among others: an alternative, a substitute, a second condition
_OTHER_CASE_RE = regex.compile(r"(?i)\b(?:or|instead|otherwise|alternatively|rather|maybe|perhaps|suppose|say)\b|,\s*if\b|\bif\b.*\bif\b")


def if_premise_blanked(sentence: str, timeout: float) -> str:
    """``sentence`` with its opening if-clause blanked when what follows works out its result ("If he makes $40
    and the supplies cost $20, then his profit is 40-20 = $20"): in a worked solution that clause restates what
    is known, and the result is derived, not supposed. A clause with no worked result after it stays a
    supposition ("If order matters, then 41")."""
    if not sentence.lstrip()[:2].lower() == "if":
        return sentence
    m = _IF_CLAUSE_RE.match(sentence, timeout=timeout)
    if m is None or not (work := _WORKED_RESULT_RE.search(sentence, m.end(), timeout=timeout)):
        return sentence
    if _OTHER_CASE_RE.search(sentence, timeout=timeout):
        return sentence  # "If the total is 12 or 13, …", "If she picked 13 instead, …", "If she has 13 apples, …, if …"
    if not chain_holds(regex.sub(r"[A-Za-z%$\\]+", " ", work[0], timeout=timeout).replace("×", "*").replace("÷", "/")):
        return sentence
    return " " * m.end() + sentence[m.end():]
