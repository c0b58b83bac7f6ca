"""What a sentence after the final answer speaks of, when it is not the answer: another quantity than a
named answer ("the area is 20√3" after "m + n = \\boxed{23}"), an approval word used as an adjective ("a right
triangle"), and the values the work stated before the answer (what a recap restates)."""

from __future__ import annotations

import regex

from rlvr.verifiers.later_values import fold_digits, key
from rlvr.verifiers.later_working import names_label
from rlvr.verifiers.lexicon import words_pattern
from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.units import unit_word

__all__ = ["CHANGE_CUE_RE", "OWN_CLAIM_RE", "approves", "counts_as_in_work", "label_key", "names_its_object", "other_quantity_end",
           "worked_keys"]

# a bare noun of the answer claiming a value ("the count is 17", "the total was 41"), and words that make a
# value the one to take ("use 41", "41 should be submitted", "really", "I trust my first count")
OWN_CLAIM_RE = regex.compile(r"(?i)\b(?:count|number|total|sum|amount|value)\s+(?:is|was|equals?|comes\s+to|becomes?)\b")
CHANGE_CUE_RE = regex.compile(r"(?i)\b(?:use|submit\w*|really|actually|trust|instead|rather|in\s+fact|true|"
                               r"official|key|defensible|stricter|should|must|need|needs|have\s+to|has\s+to|would|"
                               r"will\s+be)\b")  # a modal restates the question: "So you must draw 4 socks."


# a quantity's noun that is not the answer itself: after a named answer ("m + n = \\boxed{7}") it names another quantity
_OTHER_QUANTITY_RE = regex.compile(r"(?i)(?:(?:count|number|sum|value|amount)\s+of\s+\p{L}|probability|outcome)")
_SUM_RE = regex.compile(r"(?i)(?:sum|total)\b")  # after "m + n = \\boxed{107}", "the sum of …" is the answer's own
_BARE_QUANTITY_RE = regex.compile(r"(?i)(?:count|number|sum|value|amount|outcome)\s+(?:is|was|equals?)\s*\$?\s*")
_FINAL_WORD_RE = regex.compile(r"(?i)\b(?:final|answer|result)\b")
# a named quantity and its verb, right before a value ("the area is", "its perimeter equals")
_SUBJECT_VERB_RE = regex.compile(r"(?i)\b(?:the|its|their|this|that|our)\s+(?P<noun>\p{L}[\p{L}\s-]{0,40}?)\s+"
                                 r"(?:is|was|are|were|equals?|becomes?|comes\s+to)\s*\$?\s*(?=[-+]?[0-9(\\])")
# the answer's own nouns: "the answer is", "the final value is", "the sum is" restate the named answer
_OWN_NOUN_RE = regex.compile(r"(?i)\b(?:count|number|sum|value|amount|outcome|total|answer|result|solution|final|"
                             r"requested|desired|asked|required|wanted|correct|right|true|actual|real|maximum|minimum|"
                             r"smallest|largest|greatest|least|most|fewest)\b")
# a name made of several letters joined by signs ("m + n", "a+b+c"): the answer is computed from other quantities
# of the problem, which a later sentence may name without taking the answer back
_COMPOUND_NAME_RE = regex.compile(r"[A-Za-z][^A-Za-z]*[-+*/][^A-Za-z]*[A-Za-z]")
_APPROVAL = words_pattern(("right", "correct", "the correct one", "the right one", "true", "accurate", "the answer",
                           "the real answer", "the actual answer", "valid", "what i meant", "intended",
                           # the same in the languages whose answer labels are read ("41 est la bonne réponse")
                           "bonne", "bon", "juste", "correct", "correcte", "exacte", "richtig", "richtige", "richtigen",
                           "korrekt", "korrekte", "stimmt", "correcta", "correcto", "verdadera", "giusta", "giusto",
                           "corretta", "corretto", "certa", "certo", "correta", "правильный", "правильная",
                           "правильное", "правильно", "верный", "верно", "正确", "正確", "対", "正しい"))
# "right" as the geometer's adjective before its noun ("a right triangle", "4 right angles", "a right-angled
# triangle"): it names a figure, it approves no value
_RIGHT_FIGURE_RE = regex.compile(r"(?i)[\s-]+(?:angle[sd]?|triangles?|prisms?|cylinders?|cones?|circular|isosceles|"
                                 r"trapezoids?|pyramids?|bisectors?)\b")
_DIRECTION_RE = regex.compile(r"(?i)[0-9]\s+(?:units?|steps?|places?|spaces?|blocks?|squares?)\s+$")
# a number the work computes with: before or after an operator, in a fraction or a binomial, before "!" or "^", or
# the result of an arithmetic ("6 \\times 7 = 42": 6, 7 and 42)
_NUM = r"([0-9]+(?:\.[0-9]+)?)"
_OPERATOR = r"(?:[-+×*/÷^·−]|\\(?:times|cdot|div)(?![A-Za-z]))"
_OPERAND_RES = tuple(regex.compile(p) for p in (
    r"(?<![0-9.A-Za-z])" + _NUM + r"(?=\s*(?:" + _OPERATOR + r"|!|\^))",  # before an operator, "!" or a power
    _OPERATOR + r"\s*\(?\s*" + _NUM + r"(?![0-9.])",  # after an operator
    r"\\[dt]?(?:frac|binom)\s*\{\s*" + _NUM + r"\s*\}\s*\{\s*" + _NUM + r"\s*\}",  # a fraction's or binomial's parts
    r"[0-9)}!]\s*=\s*\$?\s*" + _NUM + r"(?![0-9.])",  # the result of an arithmetic
    r"(?<![0-9.A-Za-z])" + _NUM + r"(?=\s*=)",  # a side of an equation ("128 = 2^7")
    r"(?<=[A-Za-z}]\((?:[^()]{0,40},)?)\s*" + _NUM + r"(?=\s*[,)])",  # a function's argument ("lcm(4, 6)")
))


def other_quantity_end(folded: str, quantity: regex.Match | None, label: str | None, timeout: float) -> int | None:
    """Where the verb ends that gives a value to another quantity than the answer named ``label`` ("The
    probability equals", "the area is"), else ``None``. ``quantity``: the sentence's quantity-and-verb match.
    Not "The value of x is 6", "The final value is 108", "The value is 108": the answer's own."""
    if not label:
        return None
    if quantity and _OTHER_QUANTITY_RE.match(quantity[0], timeout=timeout) \
            and not ("+" in label and _SUM_RE.match(quantity[0], timeout=timeout)) \
            and not _BARE_QUANTITY_RE.fullmatch(quantity[0], timeout=timeout) and not names_label(quantity[0], label, timeout) \
            and not _FINAL_WORD_RE.search(folded, max(0, quantity.start() - 16), quantity.end(), timeout=timeout):
        return quantity.end()
    if not _COMPOUND_NAME_RE.search(label, timeout=timeout):
        return None  # "x = \\boxed{6}" ... "The smallest possible value is 7": a one-letter name may be said in words
    for m in _SUBJECT_VERB_RE.finditer(folded, timeout=timeout):
        noun = m["noun"]
        if not _OWN_NOUN_RE.search(noun, timeout=timeout) and not names_label(noun, label, timeout):
            return m.end()
    return None


def approves(folded: str, start: int, end: int, timeout: float) -> bool:
    """An approval word in ``folded[start:end]`` said of a value, not "right" naming a figure ("a right triangle")."""
    for m in _APPROVAL.finditer(folded, start, end, timeout=timeout):
        if m[0].lower() == "right" and (_RIGHT_FIGURE_RE.match(folded, m.end(), timeout=timeout) or _DIRECTION_RE.search(
                folded, max(0, m.start() - 12), m.start(), timeout=timeout)):
            continue  # "a right triangle", "6 units right", "to the right": a figure or a direction
        return True
    return False


def worked_keys(working: str, timeout: float) -> set[object]:
    """The keys of the numbers the work computes with: an operand or a result of its arithmetic ("6 × 7 = 42",
    "16 - 3 - 4 = 9", "\\frac{9}{36}", "\\binom{8}{3}", "5!"). A count it only states ("At first I counted 41
    seats") is left out: restated after the answer, that is a candidate taken back up, not a recap."""
    folded = fold_digits(working)
    found: set[object] = set()
    for pattern in _OPERAND_RES:
        for m in pattern.finditer(folded, timeout=timeout):
            found.update(key(n) for n in m.groups() if n)
    return found


_NOUN_AFTER_RE = regex.compile(r"[\s$}*_]*(?:\\text\{\s*)?(\p{L}{2,})")


def counts_as_in_work(sentence: str, value: str, working: str, timeout: float) -> bool:
    """Whether ``value`` in ``sentence`` counts the same thing as somewhere in ``working``: the word after it there
    (a plural or singular of it, compared by its first four letters) follows it in the work too."""
    at = sentence.find(value)
    noun = _NOUN_AFTER_RE.match(sentence, at + len(value), timeout=timeout) if at >= 0 else None
    if noun is None:
        return False
    stem = noun[1].lower()[:4]
    folded = fold_digits(working)
    for m in regex.finditer(r"(?<![0-9.])" + regex.escape(value) + r"(?![0-9])", folded, timeout=timeout):
        after = _NOUN_AFTER_RE.match(folded, m.end(), timeout=timeout)
        if after is not None and after[1].lower()[:4] == stem:
            return True
    return False


# "\\boxed{9} divisors of 196": the answer's own noun goes on to name what it counts, with the problem's number
_OBJECT_OF_RE = regex.compile(r"\s*(?:\p{L}+[ -])?(\p{L}{3,})\s+of\s+$")


def names_its_object(sentence: str, value: str, timeout: float) -> bool:
    """Whether ``value`` in the sentence that goes on from the answer ("divisors of 196.") only names what the
    answer's count noun counts: a count noun, "of", then the value."""
    at = sentence.find(value)
    noun = _OBJECT_OF_RE.fullmatch(sentence[:at], timeout=timeout) if at > 0 else None
    return noun is not None and unit_word(noun[1], open_class=True)


_LABEL_SPACE_RE = regex.compile(r"[\s{}$]")


def label_key(label: str) -> str:
    """A name as compared: blanks, braces and dollars out ("m + n", "m+n" and "$m+n" are one name)."""
    return _LABEL_SPACE_RE.sub("", label, timeout=REGEX_TIMEOUT_S)
