"""The commitment rule: is the located answer the completion's one final answer?

The final answer is the last slot of the highest-priority kind present (the last box, else the
last ``<answer>`` tag, ...). Slots before it are earlier work and are superseded — unless they
stand in the same statement as the final one (``\\boxed{41} or \\boxed{42}``, ``\\boxed{40}.
\\boxed{41}. \\boxed{42}``: nothing but separators between them), which offers alternatives. Then,
under the ``strict`` policy (the training default), nothing after the final answer may state
another value: no slot of any kind, no retraction ("wait, actually 8"), no claim ("so it is 8",
"**8**", "8."), no alternative ("or 8"), no other choice letter, no denial of the answer ("It
isn't 12."); the ``lenient`` policy (evaluation, closest to math-verify) keeps only the checks on
the final statement itself. Both policies refuse a box that holds only part of the stated result
(``y = -\\boxed{7}``, ``\\boxed{7}0``, ``\\frac{1}{\\boxed{7}}``, ``\\ne \\boxed{7}``).

Each check is a named rule (:mod:`rlvr.verifiers.trace`) and returns a :class:`Finding` with the
reason, or ``None``.
"""

from __future__ import annotations

import bisect

import regex

from rlvr.verifiers.approximations import APPROX_SIGNS_RE, APPROXIMATING, says_approximately
from rlvr.verifiers.box_context import box_context, percent_after_box, restated_after_box
from rlvr.verifiers.doubts import doubt_before, unresolved_doubt
from rlvr.verifiers.later_values import fold_odds
from rlvr.verifiers.cache import byte_cache
from rlvr.verifiers.document import Document
from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.lexicon import (
    ALTERNATIVE_WORDS, BINARY_MODIFIERS, HEDGE_WORDS, HYPOTHETICAL_WORDS, LIST_WORDS, MODIFIERS_AFTER,
    TENTATIVE_WORDS,
    words_pattern,
)
from rlvr.verifiers.normalize import value_key
from rlvr.verifiers.percent_words import percent_words
from rlvr.verifiers.units import scale_word_after
from rlvr.verifiers.readings import another_reading
from rlvr.verifiers.prose import (
    ALTERNATIVE_RE, CONCLUSION_RE, HEDGE_RE, RETRACTION_RE, stated_values,
)
from rlvr.verifiers.same_line import line_values
from rlvr.verifiers.value_roles import RoleIndex, value_role
from rlvr.verifiers.slots import Slot, clean
from rlvr.verifiers.statement_spans import statement_of
from rlvr.verifiers.choices import answer_choice
from rlvr.verifiers.temperatures import with_temperature_scale
from rlvr.verifiers.trace import Finding, rule

__all__ = ["Finding", "check_final", "later_groups", "occurrences", "statement_of",
           "ALTERNATIVES", "PARTIAL_BOX", "HEDGED", "STANCE"]

ALTERNATIVES = rule("integrity.alternatives", "several different answers are offered together in the final statement")
STANCE = rule("integrity.stance", "the final statement does not assert its answer: it asks, bounds, rejects, denies "
              "or supposes it, or offers it as a placeholder or a guess")
HEDGED = rule("integrity.hedged", "the final statement hedges or offers another value ('either … or', 'or maybe 8')")
PARTIAL_BOX = rule("integrity.partial_box", "the box holds only part of the stated result")


_WORD_CHAR_RE = regex.compile(r"[\p{L}\p{N}]")
_WORKING_RE = regex.compile(r"[\p{N}=]")
_LONG_WORD_RE = regex.compile(r"\p{L}{2,}")
_OWN_SPLIT_RE = regex.compile(r"\s*,\s*|\s+(?:or|and)\s+")


@byte_cache(0.02)
def _key(text: str) -> object:
    return value_key(clean(text))


# -- occurrences and statements --------------------------------------------------------------------
def occurrences(slots: list[Slot]) -> list[list[Slot]]:
    """Slots grouped by place: a box inside an answer line or tag is one occurrence with it. Two slots
    of one kind side by side inside a larger one ("The answer is \\boxed{41} or \\boxed{42}") are two
    occurrences, the container staying with the first: a gap read between them is then empty (the
    container ends after the second), so they are stated together."""
    groups: list[list[Slot]] = []
    end = -1
    for slot in sorted(slots, key=lambda s: (s.start, -s.end)):
        if groups and slot.start < end and not any(s.kind == slot.kind and s.end <= slot.start for s in groups[-1]):
            groups[-1].append(slot)
            end = max(end, slot.end)
        else:
            groups.append([slot])
            end = slot.end
    return groups


def _end(group: list[Slot]) -> int:
    return max(s.end for s in group)


def _value_of(group: list[Slot]) -> str:
    """The value an occurrence states: its innermost slot's (the box in ``Answer: \\boxed{7}``)."""
    inner = min(group, key=lambda s: s.value[1] - s.value[0])
    return inner.content


def _with_percent(doc: Document, group: list[Slot], timeout: float) -> str:
    """The occurrence's value, with the percent sign or word that follows its box ("\\boxed{2}\\%"): the final answer
    is read so (extraction), and the values stated beside it must be too ("\\boxed{2}\\% or \\boxed{200}\\%" are
    two answers, not 2 and a restatement of it)."""
    inner = min(group, key=lambda s: s.value[1] - s.value[0])
    if inner.kind == "boxed" and percent_after_box(doc, inner.end, clean(inner.content), timeout):
        return inner.content + "\\%"
    return inner.content


_DOUBT = words_pattern(HEDGE_WORDS + ALTERNATIVE_WORDS)
_SEPARATORS = words_pattern(("or", "and", "oder", "und", "ou", "et", "或", "和", "или", "и") + LIST_WORDS)
_GAP_NOISE_RE = regex.compile(r"\\(?:quad|qquad|text|mathrm|textbf|hspace|,|;|!|:| )|[\\$()\[\]{}.,;:!?&|/\-–—\s~]")


_RESTATED_NAME_RE = regex.compile(r"(?<![\p{L}\\])[A-Za-z](?:_\{?[0-9A-Za-z]+\}?)?\s*=\s*(?:\$|\\\(|\\\[)?\s*$")
#: more slots than this stated together are read as several answers without looking at each one
_MOST_TOGETHER = 64
_TOGETHER_WORDS = 3  # a gap of at most this many words and no retraction cue joins two answers


_WORKING_VALUE_RE = regex.compile(r"[×*+/=·]|\\(?:times|cdot|div)(?![A-Za-z])|\s-\s|\p{L}{3,}\s+\p{L}{3,}")


def _plain_value(value: str, timeout: float) -> bool:
    """"41", "\\frac{1}{2}": a value, which another kind of slot just before the final one offers as a
    second answer ("Answer: 41" then "\\boxed{42}"); "6 rows × 7 columns" is working, not an answer."""
    return not _WORKING_VALUE_RE.search(clean(value), timeout=timeout)


def _joins(group: list[Slot], kind: str, timeout: float) -> bool:
    """Whether a neighbouring occurrence can be stated together with a final answer of ``kind``: one of
    its kind, or a plain value of another kind ("Answer: 41" beside "\\boxed{42}")."""
    return any(s.kind == kind for s in group) or _plain_value(_value_of(group), timeout)


def _together(gap: str, timeout: float) -> bool:
    """Two slots are stated together when nothing but separators, or a few words that revise nothing,
    stand between them ("\\boxed{41} or \\boxed{42}", "First: <answer>42</answer> Second: <answer>43</answer>").
    Working in between, or a retraction cue ("wait", "actually"), makes the later one supersede the earlier."""
    if len(gap) > 200:
        return False
    gap = _RESTATED_NAME_RE.sub(" ", gap, timeout=timeout)  # "x = \\boxed{2} and x = \\boxed{3}": the name again
    rest = _GAP_NOISE_RE.sub(" ", _SEPARATORS.sub(" ", gap, timeout=timeout), timeout=timeout)
    if not _WORD_CHAR_RE.search(rest, timeout=timeout):
        return True
    if _WORKING_RE.search(gap, timeout=timeout) or RETRACTION_RE.search(gap, timeout=timeout) \
            or CONCLUSION_RE.search(gap, timeout=timeout):
        return False  # working (numbers, an equation), a revision or a conclusion ("so", "finally") between them
    return len(_LONG_WORD_RE.findall(rest, timeout=timeout)) <= _TOGETHER_WORDS


class _Statement:
    """What the stance check reads of one statement as a whole, found once: a tentative word anywhere
    in it, where its clauses begin, where it supposes, and the roles index of its values. Thousands of
    boxes in one sentence then cost one pass over it and a few bisections each."""

    def __init__(self, sentence: str, strict: bool, timeout: float) -> None:
        self.sentence, self.strict, self.timeout = sentence, strict, timeout
        self._facts: tuple | None = None  # found on the second value read: one value needs no index

    def _index(self) -> tuple:
        if self._facts is None:
            sentence, timeout = self.sentence, self.timeout
            clause_ends = [m.end() for m in _CLAUSE_BREAK_RE.finditer(sentence, timeout=timeout)]
            found = list(_SUPPOSING.finditer(sentence, timeout=timeout)) if self.strict else []
            self._facts = (clause_ends, [(m.start(), m.end(), m[0]) for m in found], RoleIndex(sentence, timeout),
                           unresolved_doubt(sentence, timeout) if self.strict else None)
        return self._facts

    def stance(self, start: int, end: int, approximated: bool = False, indexed: bool = True) -> str | None:
        """How the statement holds the value at ``[start, end)``, when it is not a claim (see :func:`_stance`).
        ``indexed``: read the statement's clauses and suppositions once for many values."""
        sentence, timeout = self.sentence, self.timeout
        if _QUESTION_END_RE.search(sentence[end:end + 48], timeout=timeout):
            return "the statement is a question"
        after = _CLOSING_RE.sub("", sentence[end:end + 80], count=1, timeout=timeout)
        if not approximated and (m := _changing_words(after, timeout)) and m.lower() not in percent_words():
            # a percent word after the value is its unit, as a "%" sign is ("decreased by \\boxed{10} percent")
            return f"the words after it change it ({m!r})"  # (an approximation that follows is reconciled instead)
        facts = self._index() if indexed else None
        role = value_role(sentence, start, end, timeout, facts[2] if facts else None)
        if role in ("bound", "rejected", "denied"):
            return {"bound": "it is given as a bound", "rejected": "it is rejected", "denied": "it is denied"}[role]
        if not self.strict:
            return None
        if facts is None:
            clause = 0
            for m in _CLAUSE_BREAK_RE.finditer(sentence, 0, start, timeout=timeout):
                clause = m.end()
            if (m := _SUPPOSING.search(sentence, clause, start, timeout=timeout)) and _opens(sentence, clause, m.start()):
                return f"it is only supposed ({m[0]!r})"  # "would" is no supposition: the problem's own wording
            tentative = unresolved_doubt(sentence, timeout)
        else:
            clause_ends, supposing, _roles, tentative = facts
            i = bisect.bisect_right(clause_ends, start) - 1
            clause = clause_ends[i] if i >= 0 else 0
            for a, b, word in supposing[bisect.bisect_left(supposing, (clause, -1, "")):]:
                if b > start:
                    break
                if _opens(sentence, clause, a):
                    return f"it is only supposed ({word!r})"
        if tentative is not None:
            return f"the statement calls it {tentative[0]!r}"
        return None


# -- checks on the final statement (both policies) --------------------------------------------------
def check_final(doc: Document, all_slots: list[Slot], final: Slot, answer: str, strict: bool,
                timeout: float) -> Finding | None:
    """Alternatives, hedges and partial boxes in the statement that holds the final answer."""
    groups = occurrences(all_slots)
    index = next(i for i, g in enumerate(groups) if final in g)
    # slots of one kind stated together ("\\boxed{41} or \\boxed{42}"); a label line above a box is earlier work
    kind = final.kind
    i = index
    while i > 0 and index - i <= _MOST_TOGETHER and _joins(groups[i - 1], kind, timeout) \
            and _together(doc.view[_end(groups[i - 1]):groups[i][0].start], timeout):
        i -= 1
    j = index
    while j + 1 < len(groups) and j - index <= _MOST_TOGETHER and any(s.kind == kind for s in groups[j + 1]) \
            and _together(doc.view[_end(groups[j]):groups[j + 1][0].start], timeout):
        j += 1  # after the final answer, another kind of slot is a later statement (check_later)
    together = groups[i:j + 1]
    # (alone, the final answer was read with its percent sign in extraction: only values beside it need theirs)
    values = [_with_percent(doc, g, timeout) for g in together] if len(together) > 1 else [_value_of(together[0])]
    distinct = list(dict.fromkeys(values))
    if len({_key(v) for v in distinct}) > 1:
        shown = ", ".join(repr(clean(v)) for v in distinct[:4])
        if len(together) > _MOST_TOGETHER:  # a repetition loop's line: several answers, and never one list
            return Finding(ALTERNATIVES, f"{len(together)} different final answers stated together: {shown}, …")
        statements: dict[tuple[int, int], _Statement] = {}
        for g in together:  # "\boxed{3} works; \boxed{2} fails": one of them is no answer, so they are no list
            g_start, g_end = statement_of(doc, g, timeout)
            inner = min(g, key=lambda s: s.value[1] - s.value[0])
            statement = statements.get((g_start, g_end))
            if statement is None:
                statement = statements[(g_start, g_end)] = _Statement(doc.view[g_start:g_end], strict, timeout)
            stance = statement.stance(inner.start - g_start, inner.end - g_start)
            if stance:
                return Finding(STANCE, f"several final answers stated together ({shown}), and "
                               f"{clean(_value_of(g))!r} is not asserted: {stance}")
        # the values, for a list gold to read them as one answer, when each is a box of its own; never when the
        # statement that holds them doubts them ("Perhaps $x = \\boxed{3}$ and $y = \\boxed{4}$")
        list_like = all(any(s.kind == "boxed" for s in g) for g in together)
        first_box = min(together[0], key=lambda s: s.value[1] - s.value[0])
        last_box = min(together[-1], key=lambda s: s.value[1] - s.value[0])
        j_start, j_end = statement_of(doc, together[0], timeout)[0], statement_of(doc, together[-1], timeout)[1]
        doubt = _offers_another(doc.view[j_start:first_box.start], doc.view[last_box.end:j_end], answer, timeout)
        if list_like and (doubt or _TENTATIVE.search(doc.view[j_start:j_end], timeout=timeout)):
            return Finding(HEDGED, f"several final answers stated together ({shown}), and the statement doubts them")
        others = tuple(clean(v) for v in distinct if _key(v) != _key(answer)) if list_like else ()
        return Finding(ALTERNATIVES, f"several different final answers stated together: {shown}", others,
                       _labels(doc, together, timeout) if others and len(distinct) == len(together) else ())
    # restatements of the answer ("\\boxed{2^{10}} = 1024", ", approximately 0.333", ", or 37.5\\%") are held,
    # not returned: every other check still runs, and the reconciler compares them with the box at the end
    restatements: list[Finding] = []
    if line := line_values(doc, all_slots, final, answer, timeout):
        lead, other, others = line
        restatements.append(Finding(HEDGED, f"the answer line states {lead!r} and then {other!r} on the same line",
                                    others))  # "Answer: 41 So it is 42.": reconciled like "\\boxed{\\frac38}, or 37.5\\%"
    if final.kind == "boxed" or any(s.kind == "boxed" for s in groups[index]):
        box = min((s for s in groups[index] if s.kind == "boxed"), key=lambda s: s.value[1] - s.value[0])
        choice = answer_choice(clean(answer)) is not None
        partial = box_context(doc, box.start, box.end, timeout, choice=choice)
        if partial:
            restated, approximate = restated_after_box(doc, box.end, timeout)
            if not restated or box_context(doc, box.start, box.end, timeout, choice=choice, suffix=False):
                return Finding(PARTIAL_BOX, partial)  # "10 - \\boxed{3} = 3": what precedes the box changes it
            restatements.append(Finding(PARTIAL_BOX, partial, restated, approximate=approximate))
    s_start, s_end = statement_of(doc, groups[index], timeout)
    first = min(together[0], key=lambda s: s.value[1] - s.value[0])
    last = min(together[-1], key=lambda s: s.value[1] - s.value[0])
    if strict and i > 0 and (m := another_reading(doc.view, s_start, first.start)) \
            and not RETRACTION_RE.search(doc.view, s_start, first.start, timeout=timeout):
        # "\\boxed{4}. Alternatively, if repeated digits are allowed, \\boxed{3}.", "If order matters, the answer is
        # \\boxed{3}": a later answer under another reading is the earlier one's alternative, not its correction (the
        # earlier value named in the condition is built on: "If x = 2, then y = \\boxed{5}")
        condition = doc.view[s_start:first.start]
        earlier = [v for g in groups[:i] if any(s.kind == kind for s in g) and _key(v := _value_of(g)) != _key(answer)
                   and clean(v) not in condition]
        if earlier:
            return Finding(HEDGED, f"the final answer {clean(answer)!r} is offered under a condition ({m[0].strip()!r}) "
                           f"beside the earlier answer {clean(earlier[-1])!r}", (clean(earlier[-1]),))
    approximation = _approximation_after(doc.view[last.end:s_end], timeout)
    if approximation:  # "\\boxed{\\frac13}, approximately 0.333": the reconciler checks that it rounds to the box
        restatements.append(Finding(HEDGED, f"the final answer {clean(answer)!r} is followed by the approximation "
                                    f"{approximation!r}", (approximation,), approximate=(approximation,)))
    stance = _stance(doc.view[s_start:s_end], first.start - s_start, last.end - s_start, strict, timeout,
                     approximated=approximation is not None)
    if stance is None and strict and (m := doubt_before(doc.view, s_start, timeout)):
        stance = f"the sentence before it calls it {m[0]!r}"  # "I give up. \\boxed{42}", "IDK. \\boxed{42}"
    if stance is None and (m := _OPEN_BOUND_RE.search(doc.view, last.end, min(s_end, last.end + _NEAR), timeout=timeout)):
        stance = f"the statement leaves it open ({m[0].strip()!r})"  # "\\boxed{25}, though maybe more"
    if stance is None and (m := _CALLED_RE.match(doc.view, last.end, min(s_end, last.end + _NEAR), timeout=timeout)):
        stance = f"the statement calls it {m['what']!r}"  # "\\boxed{42} is an upper bound.", "\\boxed{120} (estimated)"
    if stance:
        return Finding(STANCE, f"the final answer {clean(answer)!r} is not asserted: {stance}")
    if strict:
        hedge = _offers_another(doc.view[s_start:first.start], doc.view[last.end:s_end], answer, timeout)
        if hedge and not hedge[1]:
            return Finding(HEDGED, f"the final answer {clean(answer)!r} is hedged: {hedge[0]}")
        if hedge:  # "\\boxed{\\frac38}, or 37.5\\%": an "or" naming an equal value restates it
            restatements.append(Finding(HEDGED, f"the final answer {clean(answer)!r} is hedged: {hedge[0]}", hedge[1],
                                        approximate=hedge[2]))
    if not restatements:
        return None
    others = tuple(dict.fromkeys(v for f in restatements for v in f.others))
    approximate = tuple(dict.fromkeys(v for f in restatements for v in f.approximate))
    return Finding(restatements[0].rule, restatements[0].reason, others, approximate=approximate)


# the name a value is given right before its box: "x = \\boxed{3}", "$y=\\boxed{4}$", "a_1 = \\boxed{2}"
_NAME_BEFORE_RE = regex.compile(r"(?<![\p{L}\\])([A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?)\s*=\s*(?:\$|\\\(|\\\[)?\s*$")


def _labels(doc: Document, together: list[list[Slot]], timeout: float) -> tuple[str, ...]:
    """The names of answers stated together, each given right before its box, when each has its own
    ("$x = \\boxed{3}$ and $y = \\boxed{4}$" -> ("x", "y")); empty otherwise."""
    names = []
    for g in together:
        inner = min(g, key=lambda s: s.value[1] - s.value[0])
        m = _NAME_BEFORE_RE.search(doc.view, max(0, inner.start - 24), inner.start, timeout=timeout)
        if m is None:
            return ()
        names.append(m[1])
    return tuple(names) if len(set(names)) == len(names) else ()


def _stance(sentence: str, start: int, end: int, strict: bool, timeout: float, approximated: bool = False) -> str | None:
    """How the final statement holds its answer at ``[start, end)``, when it is not a claim.

    Both policies: a question ("Is it \\boxed{42}?"), a bound ("at least \\boxed{42}"), a rejection
    ("\\boxed{42} fails"), a denial ("It is not \\boxed{42}"). The strict policy also refuses a
    supposition ("Suppose the answer is \\boxed{42}") and a tentative word anywhere in the statement
    ("Placeholder:", "(tentative)", "though I could not verify it").
    """
    return _Statement(sentence, strict, timeout).stance(start, end, approximated, indexed=False)


def _opens(sentence: str, clause: int, at: int) -> bool:
    """Whether a supposition word at ``at`` opens its clause (only blanks and markup before it): "Suppose …",
    "…, if forced, …". Mid-clause the same letters are other words ("falls on a Tuesday", "obtém-se")."""
    return not _WORD_CHAR_RE.search(sentence, clause, at, timeout=REGEX_TIMEOUT_S)


def _changing_words(after: str, timeout: float) -> str | None:
    """Words right after the answer that change it ("squared", "thousand", "(times two)", "times 3"); an
    operation counts only with an operand after it ("\\boxed{4} times." counts occurrences)."""
    m = _MODIFIER.starts(after, timeout=timeout)
    if m is not None and m[0].lower() in BINARY_MODIFIERS and not _OPERAND_RE.match(after, m.end(), timeout=timeout):
        m = None
    m = m or _PAREN_OPERATION_RE.match(after, timeout=timeout)
    return m[0].strip() if m else scale_word_after(after, timeout)




# an operand: a number, math, a number word ("times 3", "over $5$", "plus two")
_OPERAND_RE = regex.compile(r"(?i)\s*(?:[-+(]?\s*[0-9$\\]|(?:one|two|three|four|five|six|seven|eight|nine|ten|a|an|half)\b)")
_QUESTION_END_RE = regex.compile(r"^[^.!\n]{0,40}[?？]")
_TENTATIVE = words_pattern(TENTATIVE_WORDS)
_MODIFIER = words_pattern(MODIFIERS_AFTER)
# "\\boxed{42} (times two)": an operation in words, in parentheses, applied to the box
_PAREN_OPERATION_RE = regex.compile(
    r"(?i)[\s,]*\(\s*(?:times|less|plus|minus|squared|cubed|reversed|backwards|negated|halved|doubled|tripled|"
    r"divided|multiplied|inverted|written backwards)\b")
_CLOSING_RE = regex.compile(r"^(?:\s|\$|\\\)|\\\]|\*|_|\})*")
_SUPPOSING = words_pattern(tuple(w for w in HYPOTHETICAL_WORDS if w not in (
    "would", "were", "would be", "would have been", "like", "say", "such as", "for example", "e.g.", "for instance"))
    + ("imagine", "hypothetically", "pretend"))
_CLAUSE_BREAK_RE = regex.compile(r"[,;:，；：]|\s[-–—]\s")


@byte_cache(0.02)
def _own_values(answer: str) -> frozenset:
    """The answer's own values: ``2, 3`` offers 2 and 3, so "either 2 or 3" names no other one."""
    return frozenset({_key(answer)} | {_key(v) for v in _OWN_SPLIT_RE.split(clean(answer), timeout=0.5) if v.strip()})


_NEAR = 60  # how far from the answer a hedge or an alternative still speaks of it
# the answer left open upward or downward in its own statement: "\\boxed{25}, though maybe more", "if not more",
# "25 or more", "perhaps slightly fewer": the comparative ends its clause (not "maybe more elegant proofs exist")
_OPEN_BOUND_RE = regex.compile(
    r"(?i)(?:\b(?:" + "|".join(regex.escape(w) for w in sorted(HEDGE_WORDS, key=len, reverse=True))
    + r")[\s,]+(?:\p{L}+[\s,]+){0,2}?|\bif\s+not\s+|\bor\s+(?:even\s+|possibly\s+|maybe\s+)?)"
    r"(?:more|fewer|less|higher|lower|larger|smaller|greater|bigger|больше|меньше|mehr|weniger|plus|moins|más|menos|"
    r"più|meno)(?=\s*(?:[.,;:!?)\]—–]|$))", regex.M)


# the answer itself called a bound, an estimate or a guess right after it
_CALLED_RE = regex.compile(
    r"(?i)[\s$}]*(?:[,;:(—–-]\s*)?(?:(?:which|this|that|it)\s+)?(?:is|was|being|serves\s+as|as)?\s*(?P<what>"
    # a bound, said as one of several ("an upper bound", "only a lower bound"; "the least upper bound" is the answer)
    r"(?:(?:only|just|merely|at\s+best)\s+(?:an?\s+)?|an?\s+)(?:(?:strict|rough|crude|loose)\s+)?(?:lower|upper)\s+bound"
    # an estimate or a guess, however it is introduced
    r"|(?:(?:only|just|merely|at\s+best|no\s+more\s+than)\s+)?(?:an?\s+|the\s+|my\s+|our\s+)?"
    r"(?:(?:rough|crude|ballpark)\s+)?(?:estimate|guess)|(?:an?\s+)?(?:rough|crude|ballpark)\s+figure|estimated|approx\.|ballpark)\b")


def _offers_another(before: str, after: str, answer: str,
                    timeout: float) -> tuple[str, tuple[str, ...], tuple[str, ...]] | None:
    """Doubt, or another value offered as an alternative, right beside the final answer.

    ``before``/``after`` are the text of the answer's sentence on either side of it. Only what
    touches the answer counts: "41 or \\boxed{42}", "\\boxed{42} (or maybe 41)", "probably
    \\boxed{42}", "\\boxed{42}, maybe"; "the factors of 34 or multiples of 7 is \\boxed{6}" joins
    two things of the problem, not two answers.
    """
    before, after = before[-_NEAR:], fold_odds(after[:_NEAR])  # ", or 1 in 6": the box's probability as odds
    if _DOUBT.search(before + " " + after, timeout=timeout) is None:
        return None  # the usual case: one tokenisation says there is neither
    own = _own_values(answer)
    for side, text in (("before", before), ("after", after)):
        for m in HEDGE_RE.finditer(text, timeout=timeout):
            gap = text[m.end():] if side == "before" else text[:m.start()]
            words = _LONG_WORD_RE.findall(gap, timeout=timeout)
            # "probably \\boxed{7}", "it might be \\boxed{7}": the hedge modifies the answer; in "the most
            # likely sum is" or "the value f might take is" it modifies a word of the question
            if len(words) <= 5 and all(w.lower() in _LINKING_WORDS for w in words):
                return f"{m[0]!r} beside it", (), ()
        for m in ALTERNATIVE_RE.finditer(text, timeout=timeout):
            gap = text[m.end():] if side == "before" else text[:m.start()]
            if _WORD_CHAR_RE.search(_HEDGE_GAP_RE.sub("", gap, timeout=timeout), timeout=timeout):
                continue  # the alternative word does not touch the answer
            other = text[:m.start()] if side == "before" else text[m.end():]
            values = [with_temperature_scale(other, v, other.find(v), timeout) for v in stated_values(other, timeout)]
            nearby = values[-1:] if side == "before" else values[:1]
            others = [v for v in nearby if _key(v) not in own]
            if others:
                approximate = side == "after" and says_approximately(other[:other.find(others[0])], timeout)
                return f"{m[0]!r} names {others[0]!r} too", (others[0],), ((others[0],) if approximate else ())
    return None


# right after the answer: punctuation and a linking phrase, then the approximation's word or sign
_APPROXIMATION_LEAD_RE = regex.compile(
    r"(?i)[\s$)\]}*_]*(?:,|;|\(|—|–|-)?\s*(?:which\s+is\s+|that\s+is\s+|i\.e\.,?\s*|or\s+)?\$?")


def _approximation_after(after: str, timeout: float) -> str | None:
    """``, approximately $0.333$`` after the answer: the value it approximates it with, else ``None``."""
    lead = _APPROXIMATION_LEAD_RE.match(after, timeout=timeout).end()
    sign = APPROX_SIGNS_RE.match(after, lead, timeout=timeout)
    if sign is not None:
        rest = after[sign.end():]
    else:
        word = APPROXIMATING.starts(after[lead:lead + 60], timeout=timeout)
        if word is None:
            return None
        rest = after[lead + word.end():]
    values = stated_values(rest, timeout, roles=False)
    return values[0] if len(values) == 1 else None


_LINKING_WORDS = frozenset("is be it its it's the answer was would will that this equal equals to".split())
_HEDGE_GAP_RE = regex.compile(r"(?i)\b(?:maybe|perhaps|possibly|even|just)\b|[\s,;:()$\\]|\\[()\[\]]")


def later_groups(doc: Document, all_slots: list[Slot], final: Slot, timeout: float) -> list[list[Slot]]:
    """The slots after the final one, grouped by place, leaving out those stated together with it."""
    groups = occurrences(all_slots)
    index = next(i for i, g in enumerate(groups) if final in g)
    j = index
    while j + 1 < len(groups) and any(s.kind == final.kind for s in groups[j + 1]) \
            and _together(doc.view[_end(groups[j]):groups[j + 1][0].start], timeout):
        j += 1  # the same neighbours check_final reads as stated together; every other later slot is read here
    return groups[j + 1:]
