"""What a sentence after the final answer speaks of, when it is not the answer: another quantity than a
named answer ("the area is 20√3" after "m + n = \\boxed{23}"), an approval word used as an adjective ("a right
triangle"), and the values the work stated before the answer (what a recap restates)."""

from __future__ import annotations

import regex

from rlvr.verifiers.later_values import fold_digits, key
from rlvr.verifiers.later_working import names_label
from rlvr.verifiers.lexicon import words_pattern
from rlvr.verifiers.prose import stated_values

__all__ = ["approves", "other_quantity_end", "worked_keys"]

# a quantity's noun that is not the answer itself: after a named answer ("m + n = \\boxed{7}") it names another quantity
_OTHER_QUANTITY_RE = regex.compile(r"(?i)(?:count|number|sum|value|amount|probability|outcome)\b")
_BARE_QUANTITY_RE = regex.compile(r"(?i)(?:count|number|sum|value|amount|outcome)\s+(?:is|was|equals?)\s*\$?\s*")
_FINAL_WORD_RE = regex.compile(r"(?i)\b(?:final|answer|result)\b")
# a named quantity and its verb, right before a value ("the area is", "its perimeter equals")
_SUBJECT_VERB_RE = regex.compile(r"(?i)\b(?:the|its|their|this|that|our)\s+(?P<noun>\p{L}[\p{L}\s-]{0,40}?)\s+"
                                 r"(?:is|was|are|were|equals?|becomes?|comes\s+to)\s*\$?\s*(?=[-+]?[0-9(\\])")
# the answer's own nouns: "the answer is", "the final value is", "the sum is" restate the named answer
_OWN_NOUN_RE = regex.compile(r"(?i)^(?:count|number|sum|value|amount|outcome|total)$|\b(?:answer|result|solution|final)\b")
_APPROVAL = words_pattern(("right", "correct", "the correct one", "the right one", "true", "accurate", "the answer",
                           "the real answer", "the actual answer", "valid", "what i meant", "intended"))
# an approval word used as an adjective before its noun ("a right triangle", "its 4 right angles", "the right
# side"): it names a thing, it does not approve a value ("the right answer", "a correct one" still approve)
_ATTRIBUTIVE_AFTER_RE = regex.compile(r"(?i)\s+(?!(?:answer|one|choice|option|value|result|solution|number|pick|"
                                      r"call|guess|count|total|figure|amount)s?\b)\p{L}{3,}")
_DETERMINER_BEFORE_RE = regex.compile(r"(?i)\b(?:a|an|the|its|their|his|her|our|each|every|both|two|three|four|"
                                      r"all|[0-9]+)\s+$")
_NUMBER_RE = regex.compile(r"(?<![0-9.])[0-9]+(?:\.[0-9]+)?(?![0-9])")


def other_quantity_end(folded: str, quantity: regex.Match | None, label: str | None, timeout: float) -> int | None:
    """Where the verb ends that gives a value to another quantity than the answer named ``label`` ("The
    probability equals", "the area is"), else ``None``. ``quantity``: the sentence's quantity-and-verb match.
    Not "The value of x is 6", "The final value is 108", "The value is 108": the answer's own."""
    if not label:
        return None
    if quantity and _OTHER_QUANTITY_RE.match(quantity[0], timeout=timeout) \
            and not _BARE_QUANTITY_RE.fullmatch(quantity[0], timeout=timeout) and not names_label(quantity[0], label, timeout) \
            and not _FINAL_WORD_RE.search(folded, max(0, quantity.start() - 16), quantity.end(), timeout=timeout):
        return quantity.end()
    for m in _SUBJECT_VERB_RE.finditer(folded, timeout=timeout):
        noun = m["noun"]
        if not _OWN_NOUN_RE.search(noun, timeout=timeout) and not names_label(noun, label, timeout):
            return m.end()
    return None


def approves(folded: str, start: int, end: int, timeout: float) -> bool:
    """An approval word in ``folded[start:end]`` said of a value, not one used as an adjective ("a right triangle")."""
    for m in _APPROVAL.finditer(folded, start, end, timeout=timeout):
        if _DETERMINER_BEFORE_RE.search(folded[max(0, m.start() - 12):m.start()], timeout=timeout) \
                and _ATTRIBUTIVE_AFTER_RE.match(folded, m.end(), timeout=timeout):
            continue
        return True
    return False


def worked_keys(working: str, timeout: float) -> set[object]:
    """The keys of every value the work states (its math, and every plain number of its prose)."""
    folded = fold_digits(working)
    found = {key(v) for v in stated_values(folded, timeout, roles=False, numbers_too=True)}
    return found | {key(n) for n in _NUMBER_RE.findall(folded, timeout=timeout)}
