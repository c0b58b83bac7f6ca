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

import unicodedata
from dataclasses import dataclass

import regex

from rlvr.verifiers.cache import byte_cache
from rlvr.verifiers.document import Document
from rlvr.verifiers.lexicon import ALTERNATIVE_WORDS, GRADER_WORDS, HEDGE_WORDS, LIST_WORDS, any_in, words_pattern
from rlvr.verifiers.normalize import value_key
from rlvr.verifiers.prose import (
    ALTERNATIVE_RE, CONCLUSION_RE, HEDGE_RE, RETRACTION_RE, sentences, stated_values, statement_claim,
)
from rlvr.verifiers.slots import Slot, clean
from rlvr.verifiers.trace import rule

__all__ = ["Finding", "check_final", "check_later", "occurrences", "statement_of", "grader_note",
           "ALTERNATIVES", "LATER_STATEMENT", "RETRACTION", "DENIAL", "PARTIAL_BOX", "GRADER_NOTE", "HEDGED",
           "OTHER_CHOICE"]

ALTERNATIVES = rule("integrity.alternatives", "several different answers are offered together in the final statement")
HEDGED = rule("integrity.hedged", "the final statement hedges or offers another value ('either … or', 'or maybe 8')")
OTHER_CHOICE = rule("integrity.other_choice", "after a choice letter another choice is offered ('or (D)', 'and E')")
LATER_STATEMENT = rule("integrity.later_statement", "after the final answer another value is stated as the answer")
RETRACTION = rule("integrity.retraction", "after the final answer a retraction names another value")
DENIAL = rule("integrity.denial", "after the final answer its value is denied ('It isn't 12.')")
PARTIAL_BOX = rule("integrity.partial_box", "the box holds only part of the stated result")
GRADER_NOTE = rule("integrity.grader_note", "the completion addresses the grader")


_WORD_CHAR_RE = regex.compile(r"[\p{L}\p{N}]")
_WORKING_RE = regex.compile(r"[\p{N}=]")
_LONG_WORD_RE = regex.compile(r"\p{L}{2,}")
_WORD_END_RE = regex.compile(r"\p{L}{2,}$")
_DIGIT_RE = regex.compile(r"[0-9]")
_OWN_SPLIT_RE = regex.compile(r"\s*,\s*|\s+(?:or|and)\s+")
_CHOICE_ANSWER_RE = regex.compile(r"\s*(?:\\text(?:bf)?\{)?\s*\(?([A-Ea-e])\)?\s*\}?\s*")
_GROUP_OPEN_RE = regex.compile(r"[\^_]\s*\{$|\}\s*\{$")
_EQUALS_PLUS_RE = regex.compile(r"=\s*&?\s*\+$")
_OPTION_AFTER_PAREN_RE = regex.compile(r"\s+[^\s^_!*/]")  # "\boxed{(B)} 3(1 + r/10)": the option's text
_OPTION_AFTER_RE = regex.compile(r"\s+[A-Za-z]")
_SLASH_WORD_RE = regex.compile(r"/\s*\p{L}")
_MACRO_NAME_RE = regex.compile(r"\\([A-Za-z]+)")


@dataclass(frozen=True)
class Finding:
    rule: str
    reason: str
    others: tuple[str, ...] = ()  # other values stated: equal forms of the answer are reconciled later


@byte_cache(0.02)
def _key(text: str) -> object:
    return value_key(clean(text))


# -- occurrences and statements --------------------------------------------------------------------
def occurrences(slots: list[Slot]) -> list[list[Slot]]:
    """Slots grouped by place: a box inside an answer line or tag is one occurrence with it."""
    groups: list[list[Slot]] = []
    end = -1
    for slot in sorted(slots, key=lambda s: (s.start, -s.end)):
        if groups and slot.start < end:
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


_DOUBT = words_pattern(HEDGE_WORDS + ALTERNATIVE_WORDS)
_SEPARATORS = words_pattern(("or", "and", "oder", "und", "ou", "et", "或", "和", "или", "и") + LIST_WORDS)
_GAP_NOISE_RE = regex.compile(r"\\(?:quad|qquad|text|mathrm|textbf|hspace|,|;|!|:| )|[\\$()\[\]{}.,;:!?&|/\-–—\s~]")


_TOGETHER_WORDS = 3  # a gap of at most this many words and no retraction cue joins two answers


def _together(gap: str, timeout: float) -> bool:
    """Two slots are stated together when nothing but separators, or a few words that revise nothing,
    stand between them ("\\boxed{41} or \\boxed{42}", "First: <answer>42</answer> Second: <answer>43</answer>").
    Working in between, or a retraction cue ("wait", "actually"), makes the later one supersede the earlier."""
    if len(gap) > 200:
        return False
    rest = _GAP_NOISE_RE.sub(" ", _SEPARATORS.sub(" ", gap, timeout=timeout), timeout=timeout)
    if not _WORD_CHAR_RE.search(rest, timeout=timeout):
        return True
    if _WORKING_RE.search(gap, timeout=timeout) or RETRACTION_RE.search(gap, timeout=timeout) \
            or CONCLUSION_RE.search(gap, timeout=timeout):
        return False  # working (numbers, an equation), a revision or a conclusion ("so", "finally") between them
    return len(_LONG_WORD_RE.findall(rest, timeout=timeout)) <= _TOGETHER_WORDS


def statement_of(doc: Document, group: list[Slot], timeout: float) -> tuple[int, int]:
    """The span of the sentence that holds ``group`` (with the line before when the slot stands alone)."""
    start, end = group[0].start, max(s.end for s in group)
    view = doc.view
    line_start = view.rfind("\n", 0, start) + 1
    line_end = view.find("\n", end)
    line_end = len(view) if line_end < 0 else line_end
    if not _WORD_CHAR_RE.search(view[line_start:start] + view[end:line_end], timeout=timeout):
        line_start = view.rfind("\n", 0, max(0, line_start - 1)) + 1  # "… either 7 or\n\\boxed{8}"
    s_start = line_start
    for a, b in sentences(view[line_start:start], timeout):
        s_start = line_start + a
    tail = view[end:line_end]
    spans = sentences(tail, timeout)
    s_end = end + (spans[0][1] if spans and spans[0][0] == 0 else 0)
    return s_start, max(s_end, end)


# -- checks on the final statement (both policies) --------------------------------------------------
def check_final(doc: Document, all_slots: list[Slot], final: Slot, answer: str, strict: bool,
                timeout: float) -> Finding | None:
    """Alternatives, hedges and partial boxes in the statement that holds the final answer."""
    groups = occurrences(all_slots)
    index = next(i for i, g in enumerate(groups) if final in g)
    i = index
    while i > 0 and _together(doc.view[_end(groups[i - 1]):groups[i][0].start], timeout):
        i -= 1
    j = index
    while j + 1 < len(groups) and _together(doc.view[_end(groups[j]):groups[j + 1][0].start], timeout):
        j += 1
    together = groups[i:j + 1]
    values = [_value_of(g) for g in together]
    distinct = list(dict.fromkeys(values))
    if len({_key(v) for v in distinct}) > 1:
        shown = ", ".join(repr(clean(v)) for v in distinct[:4])
        return Finding(ALTERNATIVES, f"several different final answers stated together: {shown}",
                       tuple(clean(v) for v in distinct if _key(v) != _key(answer)))
    if final.kind == "boxed" or any(s.kind == "boxed" for s in groups[index]):
        box = min((s for s in groups[index] if s.kind == "boxed"), key=lambda s: s.value[1] - s.value[0])
        partial = box_context(doc, box, timeout)
        if partial:
            return Finding(PARTIAL_BOX, partial)
    if not strict:
        return None
    s_start, s_end = statement_of(doc, groups[index], timeout)
    first = min(together[0], key=lambda s: s.value[1] - s.value[0])
    last = min(together[-1], key=lambda s: s.value[1] - s.value[0])
    hedge = _offers_another(doc.view[s_start:first.start], doc.view[last.end:s_end], answer, timeout)
    if hedge:
        return Finding(HEDGED, f"the final answer {clean(answer)!r} is hedged: {hedge}")
    return None


@byte_cache(0.02)
def _own_values(answer: str) -> frozenset:
    """The answer's own values: ``2, 3`` offers 2 and 3, so "either 2 or 3" names no other one."""
    return frozenset({_key(answer)} | {_key(v) for v in _OWN_SPLIT_RE.split(clean(answer), timeout=0.5) if v.strip()})


_NEAR = 60  # how far from the answer a hedge or an alternative still speaks of it
_WORDS_NEAR = 3


def _offers_another(before: str, after: str, answer: str, timeout: float) -> str | None:
    """Doubt, or another value offered as an alternative, right beside the final answer.

    ``before``/``after`` are the text of the answer's sentence on either side of it. Only what
    touches the answer counts: "41 or \\boxed{42}", "\\boxed{42} (or maybe 41)", "probably
    \\boxed{42}", "\\boxed{42}, maybe"; "the factors of 34 or multiples of 7 is \\boxed{6}" joins
    two things of the problem, not two answers.
    """
    before, after = before[-_NEAR:], after[:_NEAR]
    if _DOUBT.search(before + " " + after, timeout=timeout) is None:
        return None  # the usual case: one tokenisation says there is neither
    own = _own_values(answer)
    for side, text in (("before", before), ("after", after)):
        for m in HEDGE_RE.finditer(text, timeout=timeout):
            gap = text[m.end():] if side == "before" else text[:m.start()]
            if len(_LONG_WORD_RE.findall(gap, timeout=timeout)) < _WORDS_NEAR:
                return f"{m[0]!r} beside it"
        for m in ALTERNATIVE_RE.finditer(text, timeout=timeout):
            gap = text[m.end():] if side == "before" else text[:m.start()]
            if _WORD_CHAR_RE.search(_HEDGE_GAP_RE.sub("", gap, timeout=timeout), timeout=timeout):
                continue  # the alternative word does not touch the answer
            other = text[:m.start()] if side == "before" else text[m.end():]
            values = stated_values(other, timeout)
            nearby = values[-1:] if side == "before" else values[:1]
            others = [v for v in nearby if _key(v) not in own]
            if others:
                return f"{m[0]!r} names {others[0]!r} too"
    return None


_HEDGE_GAP_RE = regex.compile(r"(?i)\b(?:maybe|perhaps|possibly|even|just)\b|[\s,;:()$\\]|\\[()\[\]]")


# -- what follows the final answer (strict) ---------------------------------------------------------
_CHOICE_RE = regex.compile(r"\(([A-E])\)|(?<![\p{L}\\])([A-E])(?=[).:]|\s*$)|(?:\b(?:or|and|maybe|option|choice|"
                           r"perhaps|possibly)\s+)\(?([A-E])\b|(?<![\p{L}\\])([B-E])(?![\p{L}])")
_DENIED_AFTER_RE = regex.compile(
    r"(?i)^[^.\n]{0,40}?\b(?:is|was|are)\s+(?:not|n't|never)\s+(?:the|my|a|our)?\s*(?:correct\s+|final\s+|right\s+)?"
    r"(?:answer|solution|result)|^[^.\n]{0,40}?\b(?:is|was)\s+(?:wrong|incorrect)\b")
_DENIES_VALUE_RE = regex.compile(
    r"(?i)(?:\b(?:answer|result|it|this|that)\s+(?:is\s+not|isn't|is\s+never|cannot\s+be|can't\s+be)|\bnot)\s+"
    r"(?:equal\s+to\s+)?\$?\s*(?:\\\(\s*)?([-+]?[0-9][0-9.,{}]*(?:/[0-9]+)?|\\frac\{[^{}]*\}\{[^{}]*\})")
_CUES = ("wait", "actually", "or", "answer", "so", "therefore", "thus", "hence", "not", "n't", "**", "=")


def check_later(doc: Document, all_slots: list[Slot], final: Slot, answer: str, timeout: float) -> Finding | None:
    """After the final answer nothing may state another value (the strict policy)."""
    groups = occurrences(all_slots)
    index = next(i for i, g in enumerate(groups) if final in g)
    end = _end(groups[index])
    for g in groups[index + 1:]:
        value = _value_of(g)
        if _together(doc.view[end:g[0].start], timeout):
            continue  # stated together with the final answer: check_final has read it
        if _key(value) != _key(answer):
            return Finding(LATER_STATEMENT, f"{final.kind} says {clean(answer)!r} but a later {g[0].kind} says "
                           f"{clean(value)!r}", (clean(value),))
    for a, b in doc.math:  # what follows the box inside its own math span (a unit, "\\text{ cm}") is part of it
        if a <= final.start < b:
            end = max(end, b)
    tail = doc.view[end:]
    if not _WORD_CHAR_RE.search(tail, timeout=timeout):
        return None  # nothing but punctuation after the answer ("\\)." , "$$"): nothing can be stated
    bold = tuple((a - end, b - end) for a, b in doc.bold if a >= end)
    denied = _DENIED_AFTER_RE.search(tail, timeout=timeout)
    if denied:
        return Finding(DENIAL, f"the final answer {clean(answer)!r} is followed by a statement that it is not the answer")
    answer_key = _key(answer)
    for m in _DENIES_VALUE_RE.finditer(tail[:2000], timeout=timeout):
        if _key(m[1].rstrip(".,")) == answer_key:
            return Finding(DENIAL, f"the final answer {clean(answer)!r} is followed by a statement that denies it "
                           f"({m[0].strip()!r})")
    choice = _choice_letter(answer)
    lowered = tail.lower()
    for s_start, s_end in sentences(tail, timeout):
        sentence = tail[s_start:s_end]
        if choice:
            for m in _CHOICE_RE.finditer(sentence, timeout=timeout):
                letter = next(g for g in m.groups() if g)
                if letter != choice:
                    return Finding(OTHER_CHOICE, f"after the choice {choice} the completion offers {letter} too "
                                   f"({sentence.strip()[:60]!r})")
        if not any(c in sentence.lower() for c in _CUES) and not _DIGIT_RE.search(sentence, timeout=timeout):
            continue
        claim = statement_claim(sentence, timeout, tuple((a - s_start, b - s_start) for a, b in bold
                                                        if s_start <= a and b <= s_end))
        if claim and _key(claim[1]) != answer_key:
            kind, value = claim
            which = RETRACTION if kind == "retraction" else LATER_STATEMENT
            return Finding(which, f"the final answer {clean(answer)!r} is followed by {_KIND_WORDS[kind]} naming "
                           f"{clean(value)!r} ({sentence.strip()[:80]!r})", (clean(value),))
        if s_start < 3 and sentence.lstrip(" \t,;.)").startswith(tuple(w for w in ("or", "oder", "ou", "或", "или"))):
            offered = _offers_another("", sentence, answer, timeout)  # "\boxed{42}. Or maybe 41."
            if offered:
                return Finding(HEDGED, f"after the final answer {clean(answer)!r} the completion offers another: "
                               f"{offered}")
    if RETRACTION_RE.search(tail, timeout=timeout):
        later = stated_values(tail[RETRACTION_RE.search(tail, timeout=timeout).end():][:600], timeout)
        others = [v for v in later if _key(v) != answer_key]
        if others and isinstance(answer_key, type(_key(others[-1]))):
            return Finding(RETRACTION, f"the final answer {clean(answer)!r} is followed by a retraction naming "
                           f"{clean(others[-1])!r}", (clean(others[-1]),))
    return None


_KIND_WORDS = {"retraction": "a retraction", "answer": "a statement of the answer", "conclusion": "a conclusion",
               "bold": "a stressed value", "bare": "a value on its own"}


def _choice_letter(answer: str) -> str | None:
    m = _CHOICE_ANSWER_RE.fullmatch(clean(answer), timeout=0.5)
    return m[1].upper() if m else None


# -- a box that holds only part of the result -----------------------------------------------------
# what may stand right before a box and still leave the box the whole value: an equals sign, an
# approximation, an arrow, "is", a unit-free word, punctuation
_NEUTRAL_MACROS = frozenset({
    "quad", "qquad", "text", "textbf", "mathrm", "Rightarrow", "implies", "therefore", "to", "rightarrow",
    "Longrightarrow", "longrightarrow", "iff", "approx", "sim", "simeq", "equiv", "colon", "left", "right",
    "displaystyle", "hline", "boxed", "fbox", "item", "newline", "hfill", "Leftrightarrow", "mapsto", "hspace",
    "vspace", "noindent", "par", "label", "tag", "mathbf", "textit", "emph", "underline", "color", "textcolor",
    "bigg", "Big", "big", "Bigg", "cong", "because", "qed", "checkmark", "blacksquare", "square", "triangleq",
    "coloneqq", "eqqcolon", "stackrel", "overset", "begin", "end", "and", "text", "hbox", "mbox",
})
_MACRO_BEFORE_RE = regex.compile(r"\\([A-Za-z]+)\s*(?:\{[^{}]{0,40}\}\s*)*[{]?\s*$")
_UNIT_AFTER_RE = regex.compile(
    r"^\s*(?:\{\s*\}\s*)?(?:\^\s*\{?\s*\\(?:circ|prime)|°|\\%|%|\\(?:text|mathrm|textrm|mbox|,|;|quad|pmod|mod|bmod|"
    r"operatorname|rm)\b|/\s*\$?\s*(?:\\(?:mathrm|text|textrm|mbox)\b|[A-Za-z]{2,})|\\\)|\\\]|\$)")
_CHOICE_BOX_RE = regex.compile(r"\\(?:boxed|fbox)\s*\{\s*(?:\\text(?:bf)?\s*\{\s*)?\(?[A-E]\)?\s*\}?\s*\}")


def box_context(doc: Document, box: Slot, timeout: float) -> str | None:
    """Why the box at ``box`` is only part of the stated result, or ``None``."""
    view = doc.view
    lo = view.rfind("\n", 0, box.start) + 1
    hi = view.find("\n", box.end)
    hi = len(view) if hi < 0 else hi
    for a, b in doc.math:  # the box's own math span bounds what continues it
        if a <= box.start < b:
            lo, hi = a, b
            break
    before = view[max(lo, box.start - 60):box.start].rstrip()
    after = view[box.end:min(hi, box.end + 40)]
    while before.endswith(("$", "\\(", "\\[", "{")) and not before.endswith(("^{", "_{")):
        if before.endswith("{"):
            m = _MACRO_BEFORE_RE.search(before, timeout=timeout)
            if m and m[1] not in _NEUTRAL_MACROS:
                return f"the box is an argument of \\{m[1]}: it holds only part of the stated result"
            if not m and _GROUP_OPEN_RE.search(before, timeout=timeout):
                return "the box is inside an exponent, index or fraction: it holds only part of the stated result"
        before = before[:-2 if before.endswith(("\\(", "\\[")) else -1].rstrip()
    if before.endswith(("^{", "_{", "^", "_")):
        return "the box is inside an exponent or index: it holds only part of the stated result"
    if before:
        last = before[-1]
        m = _MACRO_BEFORE_RE.search(before, timeout=timeout) if "\\" in before[-30:] else None
        if m and before.endswith(m[0].rstrip("{ ")) and m[1] not in _NEUTRAL_MACROS:
            return f"the box is preceded by \\{m[1]}: it holds only part of the stated result"
        glued = box.start > 0 and not view[box.start - 1].isspace()
        if last.isdigit() or (glued and last.isalpha() and not _WORD_END_RE.search(before, timeout=timeout)):
            return f"the box is preceded by {before[-12:].strip()!r}: it holds only part of the stated result"
        if last in "+-*/^_!<>" or (unicodedata.category(last) == "Sm" and last not in "=≈~→⇒⟹∴≡≅∼:|"):
            if last == "+" and _EQUALS_PLUS_RE.search(before, timeout=timeout):
                pass  # "= +\boxed{10}": a sign that states the whole value
            else:
                return f"the box is preceded by {before[-12:].strip()!r}: it holds only part of the stated result"
    box_text = view[box.start:box.end]
    if (_OPTION_AFTER_PAREN_RE if "(" in box_text else _OPTION_AFTER_RE).match(after, timeout=timeout) and _CHOICE_BOX_RE.fullmatch(box_text, timeout=timeout):
        return None  # a choice box followed by its option's text
    if _UNIT_AFTER_RE.match(after, timeout=timeout):
        return None
    stripped = after.lstrip()
    if not stripped:
        return None
    first = stripped[0]
    glued = after[:1] == first
    if first.isdigit() or first in "^_!*'" or unicodedata.category(first) in ("No",) \
            or (first == "." and stripped[1:2].isdigit()) or (first == "/" and not _SLASH_WORD_RE.match(stripped, timeout=timeout)):
        return f"the box is followed by {stripped[:12]!r}: it holds only part of the stated result"
    if glued and (first.isalpha() or first == "("):
        if not _LONG_WORD_RE.match(stripped, timeout=timeout):  # a glued unit word ("\boxed{5}cm") is fine
            return f"the box is followed by {stripped[:12]!r}: it holds only part of the stated result"
    m = _MACRO_NAME_RE.match(stripped, timeout=timeout)
    if m and m[1] in ("cdot", "times", "div", "frac", "dfrac", "cdots", "sqrt", "pm", "mp", "le", "leq", "ge", "geq",
                      "ne", "neq", "lt", "gt", "leqslant", "geqslant", "factorial"):
        return f"the box is followed by \\{m[1]}: it holds only part of the stated result"
    if unicodedata.category(first) == "Sm" and first not in "=≈→⇒∴":
        return f"the box is followed by {stripped[:12]!r}: it holds only part of the stated result"
    return None


# -- text addressed to the grader ----------------------------------------------------------------------
_GRADER_RE = regex.compile(
    r"(?i)\b(?:note|message|instructions?|hint)\s+(?:to|for)\s+(?:the\s+)?(?:" + "|".join(GRADER_WORDS) + r")|"
    r"\b(?:dear|attention|hey|hello)\s+(?:" + "|".join(GRADER_WORDS) + r")|\b(?:" + "|".join(GRADER_WORDS) + r")\s*:|"
    r"\b(?:mark|grade|score|count|treat|consider|accept)\s+(?:this|it|me|my answer|the answer|this answer)\s+(?:as\s+)?"
    r"(?:correct|right|full|valid|true)|"
    r"\b(?:please\s+)?accept\s+(?:both|either|any|all)\s+(?:answers?|of\s+(?:these|them|my\s+answers))\b")
_GRADER_HINTS = GRADER_WORDS + ("accept", "as correct", "as right", "full marks", "full credit", "as valid", "as true")


def grader_note(view: str, timeout: float) -> Finding | None:
    lowered = view.lower()
    if not any(h in lowered for h in _GRADER_HINTS):
        return None
    m = _GRADER_RE.search(view, timeout=timeout)
    if m:
        return Finding(GRADER_NOTE, f"the completion addresses the grader ({m[0]!r}); an answer must stand on its own")
    return None
