"""A solution set stated in prose as relations on one variable joined by "or": one answer, never alternatives.

"So $x = 3$ or $x = -2$.", "The solution is $x < -1$ or $x > 3$.", "解集为 $x \\le -1$ 或 $x \\ge 3$。" state
the set of an equation's roots or an inequality's solutions: the "or" is the set's own connective, not a
hedge between candidates. Each part must be a relation on the same single variable, the parts joined by an
"or" of any language the lexicon knows and nothing else, and nothing may follow the last. The joined text is
compared like a box that says the same (``\\boxed{x = 3 \\text{ or } x = -2}``): a list or set gold reads it
as its roots or intervals, any other gold refuses it as alternatives (``compare.or_in_answer``).
"""

from __future__ import annotations

import regex

from rlvr.verifiers.lexicon import OR_WORDS, alternation

__all__ = ["joined_solutions"]

_RELATION = r"(?:=|<|>|\\l(?:e|eq|eqslant)|\\g(?:e|eq|eqslant)|\\neq?|≤|≥|≠)(?![A-Za-z])"
# "x = 3", "x_1 = 3", "x \le -1", "-3 < x \le -1": one variable (its subscript aside), a relation, a side without
# another relation
_PART_RE = regex.compile(r"\s*+(?:(?P<lo>[^<>=≤≥≠$\s][^<>=≤≥≠$]{0,39}?)\s*" + _RELATION + r"\s*+)?(?P<var>[A-Za-z])(?:_\{?[0-9A-Za-z]{1,3}\}?)?\s*"
                         + _RELATION
                         + r"\s*+(?P<side>[^<>=≤≥≠$\s][^<>=≤≥≠$]{0,39}?)\s*")
# between two relations even a one-letter "or" is one (Spanish and Italian "o", "u"): no variable stands there
_OR_BETWEEN_RE = regex.compile(r"[\s$,]*(?:" + alternation(OR_WORDS) + r"|(?<![\p{L}\\])[ou](?![\p{L}]))[\s$]*")
_END_RE = regex.compile(r"[\s$.,;:!。．]*")


def joined_solutions(sentence: str, values: list[tuple[str, int, int]], timeout: float) -> tuple[str, int, int] | None:
    """The parts of a solution set ``sentence`` states, joined as one answer ("x = 3 \\text{ or } x = -2"), with the
    span they cover; ``None`` unless every value is a relation on one variable and only "or" joins them."""
    if len(values) < 2 or len(values) > 8:
        return None
    variable = None
    for content, _start, _end in values:
        m = _PART_RE.fullmatch(content, timeout=timeout)
        if m is None or (variable is not None and m["var"] != variable):
            return None
        variable = m["var"]
    for (_c, _s, end), (_c2, start, _e) in zip(values, values[1:]):
        if not _OR_BETWEEN_RE.fullmatch(sentence, end, start, timeout=timeout):
            return None
    if not _END_RE.fullmatch(sentence, values[-1][2], len(sentence), timeout=timeout):
        return None
    return " \\text{ or } ".join(c.strip() for c, _s, _e in values), values[0][1], values[-1][2]


# a root or bound written in plain text: "x = -2", "x < 3", "y = 1/2"
PLAIN_RELATION_RE = regex.compile(r"(?<![\p{L}\\$])[A-Za-z](?:_[0-9])?\s*(?:=|<|>|≤|≥)\s*[-−]?[0-9]+(?:\.[0-9]+)?(?:/[0-9]+)?"
                                   r"(?![\p{L}0-9])")
