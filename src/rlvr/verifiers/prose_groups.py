"""Several numbers of a prose clause that are one answer.

The prose reader (:mod:`prose`) finds the values a concluding clause states; several different values are
several answers, except where they are written as one: a tuple or an interval ("The point is (4, −1).",
"increasing on (0, ∞)"), a mixed number ("2 3/4 cups"), a ratio or a clock time ("3:4", "3:30 PM"), amounts in several units of one dimension ("1 h
30 min"), values that each carry a name ("x = 2, y = -1",
"Maximum = 2, Minimum = 1"), or a last value labelled by an expression of the earlier labels ("m = 25 and
n = 169, and m + n = 194" states 194).
"""

from __future__ import annotations

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.notations import compound_quantity
from rlvr.verifiers.numbers import parse_number

__all__ = ["one_value", "named_tail", "named_values", "derived_label"]

Candidate = tuple[str, int, int]

# a tuple of numbers or an interval in prose, "(4, −1)", "(2, 3, 5)", "(0, ∞)", "[0, 1]" (not a function's
# arguments, "f(2, 3)")
_ENDPOINT = r"[-+−]?(?:[0-9]+(?:\.[0-9]+)?|∞|\\infty(?![A-Za-z]))"
_TUPLE_RE = regex.compile(r"(?<![\p{L}\p{N}_\\])[(\[]\s*" + _ENDPOINT + r"(?:\s*[,;]\s*" + _ENDPOINT + r")+\s*[)\]]")
# a mixed number in prose, "2 3/4 cups": a whole number, one space, a proper fraction
_MIXED_RE = regex.compile(r"[0-9]+ [0-9]+/[0-9]+")
# where a list of labelled values may begin: a name, then "="
_LABEL_START_RE = regex.compile(r"(?<![A-Za-z0-9_\\])[A-Za-z](?:_\{?[A-Za-z0-9]{1,4}\}?)?\s*=")
_MATH_DELIMITERS_RE = regex.compile(r"\$|\\\(|\\\)")
_LABELLED_RE = regex.compile(r"([A-Za-z](?:\s*[-+*/]\s*[A-Za-z])*)\s*=\s*$")
_LATIN_LETTER_RE = regex.compile(r"[A-Za-z]")


# numbers joined by colons, a ratio or a clock time ("3:4", "3 : 4", "2:3:4", "1:02:03", "3:30 PM")
_COLON_JOINED_RE = regex.compile(r"[0-9]+(?:\.[0-9]+)?(?:[ \t]?:[ \t]?[0-9]+(?:\.[0-9]+)?){1,3}(?:[ \t]?(?i:[ap]\.?[ \t]?m\b\.?))?")
# amounts each with its unit, largest first ("1 h 30 min", "1 hour and 30 minutes", "5 feet 3 inches")
_MEASURED_RE = regex.compile(r"[0-9]+(?:\.[0-9]+)?[ \t]?\p{L}+\.?(?:,?[ \t]+(?:and[ \t]+)?[0-9]+(?:\.[0-9]+)?[ \t]?\p{L}+\.?)+")


def one_value(clause: str, found: list[Candidate], offset: int, timeout: float) -> list[Candidate]:
    """The tuple, interval, mixed number, ratio, clock time or quantity in several units that holds every value
    ``found`` in ``clause`` (positions shifted by ``offset``), as one candidate; empty when they are not written
    as one."""
    first = found[0][1] - offset if found else 0
    for pattern in (_COLON_JOINED_RE, _MEASURED_RE):
        m = pattern.match(clause, first, timeout=timeout)
        if m and len(found) >= 2 and all(e - offset <= m.end() for _c, _s, e in found) and (
                pattern is _COLON_JOINED_RE or compound_quantity(m[0].rstrip(".")) is not None):
            return [(m[0].rstrip("."), offset + m.start(), offset + m.start() + len(m[0].rstrip(".")))]
    point = _TUPLE_RE.search(clause, timeout=timeout)
    if point and all(point.start() <= s - offset and e - offset <= point.end() for _c, s, e in found):
        return [(point[0].replace("−", "-"), offset + point.start(), offset + point.end())]
    if len(found) == 2 and _MIXED_RE.fullmatch(clause, found[0][1] - offset, found[1][2] - offset, timeout=timeout) \
            and (f := parse_number(found[1][0])) is not None and 0 < f < 1:
        return [(clause[found[0][1] - offset:found[1][2] - offset], found[0][1], found[1][2])]
    return []


def named_tail(clause: str, offset: int, timeout: float) -> list[Candidate]:
    """"So the solution is x = 2, y = -1.", "方程组的解为 x=2,y=-1": labelled values that end the clause."""
    first = _LABEL_START_RE.search(clause, timeout=timeout)
    return named_values(clause[first.start():], offset + first.start()) if first and first.start() > 0 else []


def named_values(clause: str, offset: int) -> list[Candidate]:
    """"Maximum = 2, Minimum = 1", "x = 3, y = 4": a clause that is nothing but values each given its own name
    states them as one answer (the names stay: against a single value it is several answers)."""
    from rlvr.verifiers.statements import labelled_values  # statements reads normalised answers: a layer above

    text = clause.strip().rstrip(".。").strip()
    bare = _MATH_DELIMITERS_RE.sub("", text, timeout=REGEX_TIMEOUT_S)
    if labelled_values(bare) is None:
        return []
    start = offset + clause.find(text)
    return [(bare, start, start + len(text))]


def derived_label(clause: str, found: list[Candidate], offset: int, timeout: float) -> list[Candidate]:
    """``m = 25 and n = 169, and m + n = 194`` states 194: the last value is labelled by an
    expression of the earlier labels, the way a final "compute m + n" step is written."""
    labels = []
    for _content, start, _end in found:
        m = _LABELLED_RE.search(clause[:start - offset], timeout=timeout)
        if not m:
            return []
        labels.append(set(_LATIN_LETTER_RE.findall(m[1], timeout=timeout)))
    last, earlier = labels[-1], set().union(*labels[:-1])
    if len(last) >= 2 and last <= earlier:
        return [found[-1]]
    return []
