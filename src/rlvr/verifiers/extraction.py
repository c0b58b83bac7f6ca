"""Finding the one final answer in an untrusted completion: the prepare, locate and integrity stages.

``prepare``: chat messages -> the last assistant turn's text, cut at an end-of-turn token, invisible
characters removed, the reasoning dropped (only text after the last closing think tag is graded; an
unclosed block has no answer), capped in length, and read as a :class:`~rlvr.verifiers.document.
Document` (what a reader sees: hidden and struck text gone, markup blank). A completion that
redefines LaTeX commands or addresses the grader is refused here. ``locate``: every answer slot
(:mod:`rlvr.verifiers.slots`); the final answer is the last slot of the highest-priority kind.
``integrity``: the commitment rule (:mod:`rlvr.verifiers.commitment`). Every scan is linear; in the
caller's process every regex over model text runs with the ``regex`` package's timeout, in a sandbox
worker under the task's CPU budget (:mod:`rlvr.verifiers.limits`).
"""

from __future__ import annotations

import bisect
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import regex

from rlvr.chat import completion_text
from rlvr.verifiers.characters import cut_at_turn_end, fold_confusables, fold_fullwidth, remove_invisible
from rlvr.verifiers.box_context import percent_after_box, unit_after_box
from rlvr.verifiers.brackets import top_level_rows
from rlvr.verifiers.commitment import ALTERNATIVES, STANCE, check_final, later_groups, occurrences
from rlvr.verifiers.grader_notes import grader_note
from rlvr.verifiers.doubts import doubted_before
from rlvr.verifiers.later import check_later
from rlvr.verifiers.document import Document, read_document
from rlvr.verifiers.lexicon import BOX_MACROS
from rlvr.verifiers.limits import CALLER_REGEX_TIMEOUT_S, REGEX_TIMEOUT_S, regex_timeout
from rlvr.verifiers.lossless import KNOWN_MACROS
from rlvr.verifiers.normalize import value_key
from rlvr.verifiers.slots import SLOT_KINDS, STRUCTURED_KINDS, Slot, clean, filled_box
from rlvr.verifiers.trace import Finding, rule

logger = logging.getLogger(__name__)

__all__ = ["Extraction", "completion_text", "extract_answer", "register_answer_source", "answer_source_names",
           "read_completion", "custom_sources"]

#: a custom answer source: ``f(view, regex_timeout_s) -> [(content, start, end), ...]``
AnswerSource = Callable[[str, float], list[tuple[str, int, int]]]

UNCLOSED = rule("prepare.reasoning_unclosed", "the reasoning block never closes, so there is no final answer")
REOPENED = rule("prepare.reasoning_reopened", "a new reasoning block after the last closing tag never closes")
REDEFINED = rule("prepare.redefinition", "the completion redefines LaTeX commands: what it shows cannot be trusted")
NO_ANSWER = rule("locate.no_answer", "no answer slot and no concluding sentence states a final answer")
FINAL = rule("locate.final_slot", "the final answer is the last slot of the highest-priority kind present")
EMPTY = rule("locate.empty", "the final answer slot is empty")
TOO_LONG = rule("locate.too_long", "the final answer is longer than max_answer_chars")
TIMEOUT = rule("locate.timeout", "reading the completion ran past the regex time limit")
BOX_IN_BOX = rule("integrity.box_in_box", "the box holds another box beside other content")
BROKEN = rule("locate.broken_slot", "a box or answer tag was begun but never closed")
PROSE_VALUES = rule("locate.prose_values", "the concluding sentence states several different values")
FIRST_OR_LAST = rule("locate.multiple_answers", "several final answers; multiple_answers picks the first or last")

_FINDERS: dict[str, Callable[[Document, float], list[Slot]]] = dict(SLOT_KINDS)
_CUSTOM: dict[str, str | None] = {}  # custom source -> its import spec


def register_answer_source(name: str, func: AnswerSource, *, replace: bool = False) -> None:
    """Add an answer source: ``func(view, regex_timeout_s) -> [(content, start, end), ...]``.

    ``view`` is what a reader sees of the gradable part of a completion (reasoning removed, hidden
    text and markup blanked, length capped; positions are those of the graded text). Return every
    occurrence in order; the verifier picks the final one and applies the commitment rule.
    """
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"answer source name must be an identifier, got {name!r}")
    if not callable(func):
        raise TypeError(f"answer source {name!r} must be callable, got {type(func).__name__}")
    if name in _FINDERS and not replace:
        raise ValueError(f"answer source {name!r} is already registered (pass replace=True to override)")

    def finder(doc: Document, timeout: float) -> list[Slot]:
        return [Slot(name, str(content), int(start), int(end), (int(start), int(end)))
                for content, start, end in func(doc.view, timeout if timeout is not None else CALLER_REGEX_TIMEOUT_S)]

    _FINDERS[name] = finder
    _CUSTOM[name] = _import_spec(func)


def _import_spec(func: Callable) -> str | None:
    """``module:qualname`` when a worker process can import ``func`` by name, else ``None`` (a lambda, a
    closure, a function of ``__main__``): rows read with such a source are read in the caller's process."""
    module, qualname = getattr(func, "__module__", None), getattr(func, "__qualname__", "")
    if not module or module == "__main__" or "<" in qualname:
        return None
    return f"{module}:{qualname}"


def custom_sources(config: Any) -> dict[str, str | None]:
    """The custom answer sources ``config`` reads, each with its import spec (``None``: not importable)."""
    return {name: _CUSTOM[name] for name in config.sources if name in _CUSTOM}


def answer_source_names() -> frozenset[str]:
    """Names usable in ``VerifierConfig.sources``."""
    return frozenset(_FINDERS)


@dataclass(frozen=True)
class Extraction:
    """What the completion offers as its final answer.

    ``status`` is ``ok`` (``answer`` holds the text), ``no_answer``, ``multiple`` (several different
    final answers; ``reason`` says which, ``candidates`` lists them with the final one last),
    ``too_long`` or ``timeout``. ``rule`` names the rule that decided; ``values`` lists every distinct
    value of the final answer's kind (several boxes of a "find all" answer); ``labels`` the names given to
    candidates stated together (``x = \\boxed{3}``, ``y = \\boxed{4}``), in the order of ``candidates``.
    """

    status: str
    answer: str | None
    reason: str
    source: str | None = None
    candidates: tuple[str, ...] = ()
    rule: str | None = None
    values: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()  # the name each candidate is given ("x = \\boxed{3}"), when every one has one
    approximations: tuple[str, ...] = ()  # the candidates that only approximate the final one ("\\approx 0.333")


def _prepare(text: str, config: Any) -> tuple[str, str | None, str | None]:
    """(graded region, problem, rule) of a completion's text."""
    text = remove_invisible(cut_at_turn_end(text))
    open_tag, close_tag = config.think_tags
    close_at = text.rfind(close_tag)
    first_open = text.find(open_tag)
    if close_at >= 0:
        region = text[close_at + len(close_tag):]
        if open_tag in region:
            return "", f"a new reasoning block ({open_tag}) after the last {close_tag} never closes", REOPENED
        if 0 < first_open < close_at:  # what precedes the reasoning is shown beside what follows it
            region = text[:first_open] + "\n\n" + region
    elif open_tag in text or config.think_prefilled:
        return "", f"the reasoning block never closes ({close_tag} missing), so there is no final answer", UNCLOSED
    else:
        region = text
    return region, None, None


def read_completion(completion: Any, config: Any) -> tuple[Document | None, Extraction | None]:
    """The prepare stage: the graded part of ``completion`` as a Document, or why there is none."""
    text = completion_text(completion)
    region, problem, why = _prepare(text, config)
    if problem:
        return None, Extraction("no_answer", None, problem, rule=why)
    if len(region) > config.max_completion_chars:
        region = region[-config.max_completion_chars:]
        cut = region.find("\n\n", 0, len(region) // 5)  # start at a paragraph: no code span or math cut in half
        if cut >= 0:
            region = region[cut + 2:]
    region = _ESCAPED_MACRO_RE.sub(r"\\", region, timeout=regex_timeout(config.regex_timeout_s))
    # look-alike letters cannot hide a slot; fullwidth signs read as the ASCII ones they are
    doc = read_document(fold_confusables(fold_fullwidth(region)), regex_timeout(config.regex_timeout_s))
    if doc.redefinitions:
        shown = ", ".join("\\" + d for d in dict.fromkeys(doc.redefinitions))
        return doc, Extraction("multiple", None, f"the completion redefines LaTeX commands ({shown}): what a box "
                               "shows cannot be trusted", rule=REDEFINED)
    return doc, None


_SLOT_TAGS = ("answer", "solution")
_WINDOW = 400  # how far before the final answer another slot can still be stated together with it
_BOX_NAME_RE = regex.compile(r"\\(?:boxed|fbox)(?![A-Za-z])")
# "\\boxed{-3}": a string-escaped backslash before a macro name (a LaTeX row break is never followed by one)
_ESCAPED_MACRO_RE = regex.compile(r"(?<!\\)\\\\(?=(?:" + "|".join(sorted(set(BOX_MACROS) | KNOWN_MACROS, key=len, reverse=True))
                                  + r")(?![A-Za-z]))")


def _broken_slot(doc: Document) -> bool:
    """A ``\\boxed`` the lexer could not close, or an answer tag without its closing tag."""
    starts = {b.start for b in doc.boxes}
    for m in _BOX_NAME_RE.finditer(doc.view, timeout=REGEX_TIMEOUT_S):
        if m.start() not in starts:
            return True
    for name in _SLOT_TAGS:
        depth = 0
        for tag in doc.tags:
            if tag.name == name:
                depth += -1 if tag.closing else 1
        if depth > 0:
            return True
    return False


def _unboxed(slot: Slot, doc: Document) -> str:
    """A slot's answer text; a tag or line holding exactly one box answers with the box (the
    boxed finder has already read through boxes drawn twice)."""
    content = clean(slot.content)
    if slot.kind == "boxed" or not doc.boxes or ("\\" not in content):
        return content
    boxes = sorted(doc.boxes, key=lambda x: x.start)
    starts = [x.start for x in boxes]
    outer, last_end = [], -1
    for box in boxes[bisect.bisect_left(starts, slot.value[0]):bisect.bisect_right(starts, slot.value[1])]:
        if box.end <= slot.value[1] and box.start >= last_end and not doc.hidden_reason(box.start, box.end):
            outer.append(box)
            last_end = box.end
            if len(outer) > 1:
                return content
    if len(outer) == 1:
        a, b = filled_box(doc, outer[0].inner, {x.start: x for x in boxes})
        content = clean(doc.view[a:b])
    return content


def extract_answer(completion: Any, config: Any) -> Extraction:
    """Find the final answer of ``completion`` under ``config`` (a VerifierConfig)."""
    timeout = regex_timeout(config.regex_timeout_s)
    try:
        doc, early = read_completion(completion, config)  # the reader's regexes are bounded too
        if early is not None:
            return early
        note = grader_note(doc.view, timeout)
        if note:
            return Extraction("multiple", None, note.reason, rule=note.rule)
        return _locate(doc, config, timeout)
    except TimeoutError:
        return Extraction("timeout", None, f"answer extraction regex exceeded {config.regex_timeout_s}s", rule=TIMEOUT)


def _locate(doc: Document, config: Any, timeout: float) -> Extraction:
    found: dict[str, list[Slot]] = {}
    final_kind = None
    window = 0
    for kind in config.sources:
        if final_kind is not None and kind not in STRUCTURED_KINDS and kind != "final_answer_phrase" \
                and kind not in _CUSTOM:
            continue  # bare and prose readings only when nothing else states an answer
        # once the final kind is known, a lower kind matters only near and after the final answer
        slots = _FINDERS[kind](doc, timeout, window) if kind not in _CUSTOM else _FINDERS[kind](doc, timeout)
        if slots:
            found[kind] = slots
            if final_kind is None:
                final_kind = kind
                last = slots[0] if config.multiple_answers == "first" else slots[-1]
                window = doc.view.rfind("\n", 0, max(0, last.start - _WINDOW)) + 1 if config.multiple_answers == "reject" else 0
    if final_kind is None:
        return Extraction("no_answer", None, f"no final answer found (looked for: {', '.join(config.sources)})",
                          rule=NO_ANSWER)
    if config.multiple_answers != "first":
        # a labelled answer after the last box ("… = \boxed{255}. … Final Answer: $10,455$") is the final
        # answer: of the answer slots, the last one stated; where slots share a place ("Answer: \boxed{7}")
        # the kind that comes first in sources
        structured = [s for kind, ss in found.items() if kind in STRUCTURED_KINDS or kind in _CUSTOM for s in ss]
        if structured:
            rank = {kind: i for i, kind in enumerate(config.sources)}
            final_kind = min(occurrences(structured)[-1], key=lambda s: rank[s.kind]).kind
    if final_kind in ("bare_answer", "prose_answer") and _broken_slot(doc):
        return Extraction("no_answer", None, "a box or answer tag was begun but never closed: a format failure, "
                          "not an answer", rule=BROKEN)
    mine = found[final_kind]
    if final_kind == "prose_answer" and len({value_key(clean(s.content)) for s in mine}) > 1:
        return _prose_values(doc, mine, config, timeout)
    final = mine[0] if config.multiple_answers == "first" else mine[-1]
    answer = _unboxed(final, doc)
    values = tuple(dict.fromkeys(_unboxed(s, doc) for s in mine))
    if not answer:
        return Extraction("no_answer", None, f"the {final_kind} answer is empty", final_kind, rule=EMPTY)
    if final.kind == "boxed" and ("\\boxed" in answer or "\\fbox" in answer):
        return Extraction("multiple", answer, f"the box {answer!r} holds another box; one final answer is required",
                          final_kind, rule=BOX_IN_BOX)
    if len(answer) > config.max_answer_chars:
        return Extraction("too_long", answer[:80] + "…", f"the {final_kind} answer is {len(answer)} characters long "
                          f"(limit max_answer_chars={config.max_answer_chars})", final_kind, rule=TOO_LONG)
    if config.multiple_answers == "reject" and (rows := _rows(answer)) is not None:
        shown = ", ".join(repr(r) for r in rows[:4])
        named = [_ROW_NAME_RE.fullmatch(r, timeout=timeout) for r in rows]  # "x = 1 \\ y = 2": a tuple's coordinates
        labels = tuple(m[1] for m in named) if all(named) and len({m[1] for m in named}) == len(named) else ()
        return Extraction("multiple", answer, f"the {final_kind} answer states a value on each of {len(rows)} rows "
                          f"({shown}): several answers", final_kind,
                          tuple(m[2] for m in named) if labels else rows, ALTERNATIVES, values, labels)
    if config.multiple_answers != "reject":
        how = "first" if config.multiple_answers == "first" else "last"
        if len({value_key(v) for v in values}) > 1:
            return Extraction("ok", answer, f"{final_kind} answer (the {how} of {len(values)})", final_kind,
                              rule=FIRST_OR_LAST, values=values)
        return Extraction("ok", answer, f"{final_kind} answer", final_kind, rule=FINAL, values=values)
    slots = [s for kind, ss in found.items() if kind in STRUCTURED_KINDS or kind == "final_answer_phrase"
             or kind == final_kind or kind in _CUSTOM for s in ss]
    strict = getattr(config, "policy", "strict") == "strict"
    if final.kind == "boxed" and percent_after_box(doc, final.end, answer, timeout):
        answer = f"{answer}\\%"  # "\boxed{10}\%", "\boxed{10} percent": a percentage, as "\boxed{10\%}" is (and so in
        # every check: beside it "\boxed{0.1}" is another answer, not a restatement)
    finding = check_final(doc, slots, final, answer, strict, timeout)
    if strict and config.detect_retraction and (finding is None or (finding.others and finding.rule != ALTERNATIVES)):
        # a restatement beside the answer (reconciled later) does not excuse what follows the answer
        later = check_later(doc, later_groups(doc, slots, final, timeout), final, answer, timeout)
        if later is not None:
            # both: the answer's own statement is named first; the reconciler may clear the row only
            # when every value either one states is the answer in another form
            finding = later if finding is None else Finding(
                finding.rule, f"{finding.reason}; and {later.reason}",
                tuple(dict.fromkeys(finding.others + later.others)) if later.others else (),
                approximate=tuple(dict.fromkeys(finding.approximate + later.approximate)))
    unit = unit_after_box(doc, final.end, answer, timeout) if final.kind == "boxed" else None
    if unit is not None:  # "\boxed{2} hours": the unit is part of the answer where the gold is in minutes
        answer = f"{answer}\\text{{ {unit}}}"
    if finding is not None:
        return _refused(finding, answer, final_kind, values)
    return Extraction("ok", answer, f"{final_kind} answer", final_kind, rule=FINAL, values=values)


def _prose_values(doc: Document, mine: list[Slot], config: Any, timeout: float) -> Extraction:
    """A concluding sentence that states several values: several answers, which a list gold may read as one
    (``rows._stated_together``) only when the strict checks find nothing else: no doubt before or in the
    statement, nothing after it that withdraws, doubts or changes it."""
    shown = ", ".join(repr(clean(s.content)) for s in mine[:4])
    reason = f"several different final answers (prose_answer): {shown}"
    answer = clean(mine[-1].content)
    candidates = tuple(dict.fromkeys(clean(s.content) for s in mine))
    if getattr(config, "policy", "strict") == "strict" and config.multiple_answers == "reject":
        finding = check_final(doc, mine, mine[-1], answer, True, timeout)
        if finding is None or finding.rule == ALTERNATIVES:  # the values themselves are what is read as a list
            finding = check_later(doc, later_groups(doc, mine, mine[-1], timeout), mine[-1], answer, timeout)
        if finding is not None and finding.rule != ALTERNATIVES:
            return Extraction("multiple", answer, f"{reason}; and {finding.reason}", "prose_answer", rule=finding.rule)
        start = doc.view.rfind("\n", 0, mine[0].start) + 1  # the statement's line: what comes before it prefaces it
        if doubt := doubted_before(doc.view, start, timeout) or doubted_before(doc.view, mine[0].start, timeout):
            return Extraction("multiple", answer, f"{reason}; and the sentence before them calls them {doubt!r}",
                              "prose_answer", rule=STANCE)
    return Extraction("multiple", answer, reason, "prose_answer", candidates, rule=PROSE_VALUES)


# a bar, not one sized as a delimiter or an evaluation bar ("\\Big|_{0}^{1}", "\\right|")
_PIPE_RE = regex.compile(r"(?<!\\(?:[Bb]igg?[lrm]?|left|right|middle)\s*)(?:\\[lr]?[vV]ert(?![A-Za-z])|\\\||\|\||[|｜])"
                         r"(?![ \t]*[_^])")
_SPACING_PIECE_RE = regex.compile(r"\\[,;:! ]|\\q?quad(?![A-Za-z])|~|\s+")
_UNION_RE = regex.compile(r"\\cup(?![A-Za-z])")
_PLAIN_NUMBER_RE = regex.compile(
    r"[-+]?(?:[0-9]+(?:\.[0-9]+)?(?:/[0-9]+)?|\\d?frac\{[0-9]+\}\{[0-9]+\}|\\sqrt\{?[0-9]+\}?)")
# a plain number, or one named ("x=1": a coordinate)
_NUMBER_PIECE_RE = regex.compile(r"(?:[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?=)?(?:" + _PLAIN_NUMBER_RE.pattern + ")")
_RELATION_EDGE_RE = regex.compile(r"^\s*(?:[=<>]|\\(?:le|ge|leq|geq|neq|approx)(?![A-Za-z]))|(?:[=<>]|\\(?:le|ge|leq|geq|neq|approx))\s*$")
_ROW_NAME_RE = regex.compile(r"([A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?)\s*=\s*([^=]+)")


def _rows(answer: str) -> tuple[str, ...] | None:
    """The rows of an answer written on several rows outside any environment (``\\boxed{41 \\\\ 42}``), when
    they hold more than one value: each row states an answer, as two boxes would (rows in a ``cases``, ``array``
    or ``pmatrix`` environment are one value). ``None`` for an answer on one row."""
    rows = tuple(r for r in (clean(r) for r in top_level_rows(answer)) if r)
    if len(rows) == 1:
        # numbers set apart in one row: cells ("41 & 42", "41 \\& 42"), one bar ("41 \\,|\\, 42"), a union of numbers
        # ("41 \\cup 42"); only plain numbers, so P(A|B), 3 | 12's kin, A \\& B and unions of sets stay values
        for parts in (top_level_rows(answer, cells=True), _PIPE_RE.split(answer, timeout=REGEX_TIMEOUT_S),
                      _UNION_RE.split(answer, timeout=REGEX_TIMEOUT_S)):
            bare = [clean(_SPACING_PIECE_RE.sub("", p, timeout=REGEX_TIMEOUT_S)) for p in parts]
            if len(parts) > 1 and all(_NUMBER_PIECE_RE.fullmatch(b, timeout=REGEX_TIMEOUT_S) for b in bare):
                rows = tuple(bare)
                break
    if len(rows) < 2 or len({value_key(r) for r in rows}) == 1:
        return None
    if any(_RELATION_EDGE_RE.search(r, timeout=REGEX_TIMEOUT_S) for r in rows):
        return None  # "x &= 5", "a \\ &= b": alignment marks inside one statement, not several values
    return rows


def _refused(finding: Finding, answer: str, kind: str, values: tuple[str, ...]) -> Extraction:
    candidates = (*finding.others, answer) if finding.others else ()
    return Extraction("multiple", answer, finding.reason, kind, candidates, finding.rule, values, finding.labels,
                      finding.approximate)
