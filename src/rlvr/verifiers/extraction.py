"""Finding the one final answer in an untrusted completion.

Steps: chat messages -> text of the last assistant turn; drop the reasoning (only text after the
last closing think tag is graded; an unclosed block has no answer); search the answer sources in
priority order; enforce one final answer (several different boxes, conflicting sources, or a
retraction after the answer are reported, not silently resolved). Every regex here runs with the
``regex`` package's timeout and the searched text is capped first, so no input can stall a caller.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import regex

from rlvr.chat import completion_text
from rlvr.verifiers import sources
from rlvr.verifiers.characters import cut_at_turn_end, fold_confusables, remove_invisible
from rlvr.verifiers.integrity import (
    GRADER_NOTE_RE,
    NOTE_HINTS,
    REDEFINE_HINTS,
    REDEFINE_RE,
    STRUCK_RE,
    box_context,
    disowned,
    retraction,
)
from rlvr.verifiers.normalize import find_boxed, value_key
from rlvr.verifiers.sources import AnswerSource, Candidate, clean

logger = logging.getLogger(__name__)

__all__ = [
    "Extraction", "Candidate", "completion_text", "extract_answer", "register_answer_source",
    "answer_source_names",
]



_SOURCES: dict[str, AnswerSource] = {}
# Sources whose matches are unambiguous answer slots; their final answers must agree with each other.
_STRUCTURED = ("boxed", "answer_tag", "solution_tag", "answer_line", "hash_answer")
# a statement that names a value (a digit, math, a choice letter), not "the answer is not obvious"
_STATES_VALUE_RE = regex.compile(r"^\s*(?:[-+]?[0-9\\$(\[{]|\(?[A-E]\)?\s*$)")


def register_answer_source(name: str, func: AnswerSource, *, replace: bool = False) -> None:
    """Add an answer source: ``func(text, regex_timeout_s) -> [(content, start, end), ...]``.

    ``text`` is the gradable part of a completion (reasoning removed, length capped). Return every
    occurrence in order; the verifier picks the final one and applies the one-answer policy.
    """
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"answer source name must be an identifier, got {name!r}")
    if not callable(func):
        raise TypeError(f"answer source {name!r} must be callable, got {type(func).__name__}")
    if name in _SOURCES and not replace:
        raise ValueError(f"answer source {name!r} is already registered (pass replace=True to override)")
    _SOURCES[name] = func


def answer_source_names() -> frozenset[str]:
    """Names usable in ``VerifierConfig.sources``."""
    return frozenset(_SOURCES)


register_answer_source("boxed", sources.boxed)
register_answer_source("answer_tag", sources.tag_source("answer"))
register_answer_source("solution_tag", sources.tag_source("SOLUTION"))
register_answer_source("answer_line", sources.answer_line)
register_answer_source("hash_answer", sources.hash_answer)
register_answer_source("final_answer_phrase", sources.final_answer_phrase)
register_answer_source("bare_answer", sources.bare_answer)
register_answer_source("prose_answer", sources.prose_answer)


@dataclass(frozen=True)
class Extraction:
    """What the completion offers as its final answer.

    ``status`` is ``ok`` (``answer`` holds the text), ``no_answer``, ``multiple`` (several different
    final answers; ``reason`` lists them), ``too_long`` or ``timeout``.
    """

    status: str
    answer: str | None
    reason: str
    source: str | None = None
    candidates: tuple[str, ...] = ()  # the distinct answers, when there were several



_BLANK_RE = regex.compile(r"(?:\s|\\[hv]?phantom\{[^{}]*\}|\\square|\\[ ,;!]|\\quad|\\qquad|_+|\$)*")


def _unbox(content: str) -> tuple[str, list[str]]:
    """Content of a tag/line that itself holds boxes: the box contents; else the content."""
    boxes = find_boxed(content)
    if boxes:
        return boxes[-1][0], [b[0] for b in boxes]
    return content, [content]



def _prepare(text: str, config: Any) -> tuple[str, str, str | None]:
    """(graded region, text before the reasoning block, problem) of a completion's text."""
    text = remove_invisible(cut_at_turn_end(text))
    open_tag, close_tag = config.think_tags
    close_at = text.rfind(close_tag)
    first_open = text.find(open_tag)
    before = text[:first_open] if first_open > 0 else ""
    if close_at >= 0:
        region = text[close_at + len(close_tag):]
        if open_tag in region:
            return "", before, f"a new reasoning block ({open_tag}) after the last {close_tag} never closes"
    elif open_tag in text or config.think_prefilled:
        return "", before, f"the reasoning block never closes ({close_tag} missing), so there is no final answer"
    else:
        region = text
    return region, before, None


def _structured_answers(text: str, timeout: float) -> list[str]:
    """Every final answer in ``text`` from the unambiguous answer slots (boxes, tags, answer lines)."""
    found = []
    for name in _STRUCTURED:
        for content, _start, _end in _SOURCES[name](text, timeout):
            inner = _unbox(content)[0] if name != "boxed" else content
            if not _BLANK_RE.fullmatch(inner):
                found.append(clean(inner))
    return found


def extract_answer(completion: Any, config: Any) -> Extraction:
    """Find the final answer of ``completion`` under ``config`` (a VerifierConfig)."""
    text = completion_text(completion)
    region, before, problem = _prepare(text, config)
    if problem:
        return Extraction("no_answer", None, problem)
    head = ""
    if len(region) > config.max_completion_chars:
        head, region = region[:-config.max_completion_chars], region[-config.max_completion_chars:]
    timeout = config.regex_timeout_s
    search = fold_confusables(region)  # Cyrillic/Greek look-alikes cannot hide an answer slot
    lowered = search.lower()
    try:
        if any(k in lowered or k in before for k in REDEFINE_HINTS) and (
                REDEFINE_RE.search(search, timeout=timeout) or REDEFINE_RE.search(fold_confusables(before), timeout=timeout)):
            return Extraction("multiple", None, "the completion redefines LaTeX commands (\\renewcommand, \\def): "
                              "what a box shows cannot be trusted")
        note = GRADER_NOTE_RE.search(search, timeout=timeout) if any(k in lowered for k in NOTE_HINTS) else None
        if note:
            return Extraction("multiple", None, f"the completion addresses the grader ({note[0]!r}); "
                              "an answer must stand on its own")
        per_source: list[tuple[str, list[Candidate]]] = []
        for name in config.sources:
            if per_source and (name not in _STRUCTURED or per_source[0][0] not in _STRUCTURED):
                continue  # after the deciding source only answer slots are read, to check they agree
            # blanks such as \boxed{\phantom{2}} (a box drawn as a placeholder) are not answers
            found = [c for c in _SOURCES[name](search, timeout) if not _BLANK_RE.fullmatch(c[0])]
            if found:
                per_source.append((name, found))
        if not per_source:
            where = "after the reasoning" if text.rfind(config.think_tags[1]) >= 0 else "in the completion"
            return Extraction("no_answer", None, f"no final answer found {where} (looked for: {', '.join(config.sources)})")
        source, found = per_source[0]
        contents: list[tuple[str, int, int]] = []
        for content, start, end in found:
            inner, _all = _unbox(content) if source != "boxed" else (content, [content])
            contents.append((clean(inner), start, end))
        distinct: dict[Any, str] = {}
        for content, _start, _end in contents:
            distinct.setdefault(value_key(content), content)
        if config.multiple_answers == "first":
            answer, start, end = contents[0]
        else:
            answer, start, end = contents[-1]
        while source == "boxed" and answer.startswith(("\\boxed", "\\fbox")) and find_boxed(answer) \
                and find_boxed(answer)[0][1] == 0 and find_boxed(answer)[0][2] == len(answer):
            answer = clean(find_boxed(answer)[0][0])  # \boxed{\boxed{7}} is a box drawn twice
        if source == "boxed" and find_boxed(answer):
            return Extraction("multiple", answer, f"the box {answer!r} holds another box; one final answer is required",
                              source)
        if config.multiple_answers == "reject":
            if len(distinct) > 1:
                shown = ", ".join(repr(v) for v in list(distinct.values())[:4])
                return Extraction("multiple", answer, f"several different final answers ({source}): {shown}", source,
                                  tuple(distinct.values()))
            for other, other_found in per_source[1:]:
                if other not in _STRUCTURED or source not in _STRUCTURED:
                    continue
                other_answer = clean(_unbox(other_found[-1][0])[0] if other != "boxed" else other_found[-1][0])
                if value_key(other_answer) != value_key(answer):
                    return Extraction("multiple", answer, f"{source} says {answer!r} but {other} says {other_answer!r}",
                                      source, (answer, other_answer))
            for where, earlier in (("before the reasoning block", before), ("earlier in the completion", head)):
                for other_answer in _structured_answers(fold_confusables(earlier), timeout) if earlier else []:
                    if value_key(other_answer) != value_key(answer):
                        return Extraction("multiple", answer, f"an answer {where} says {other_answer!r}, "
                                          f"the final one {answer!r}", source, (answer, other_answer))
            if source in _STRUCTURED and "final_answer_phrase" in config.sources and (
                    "answer" in (after := search[end:].lower()) or "choice" in after):
                # "\boxed{12} … my final answer is 13": a final-answer statement after the answer slot
                for content, _s, _e in _SOURCES["final_answer_phrase"](search[end:], timeout):
                    stated = clean(_unbox(content)[0].replace('\\"', '"').strip().strip('"'))
                    if _STATES_VALUE_RE.search(stated, timeout=timeout) and value_key(stated) != value_key(answer):
                        return Extraction("multiple", answer, f"{source} says {answer!r} but a later statement "
                                          f"gives the final answer as {stated!r}", source, (answer, stated))
            if source == "boxed":
                partial = box_context(search, start, end, timeout)
                if partial:
                    return Extraction("multiple", answer, partial, source)
            if ("cancel" in lowered or "~~" in search or "\\s" in search) and STRUCK_RE.search(search, timeout=timeout):
                return Extraction("multiple", answer, "a box is struck through or cancelled: the answer is withdrawn",
                                  source)
            if config.detect_retraction:
                tail = search[end:]
                sentence_start = max(search.rfind(".", 0, start), search.rfind("\n", 0, start)) + 1
                sentence_end = search.find("\n", end)
                sentence = search[sentence_start:sentence_end if sentence_end >= 0 else len(search)]
                withdrawn = retraction(answer, tail, timeout) or disowned(answer, tail, sentence, timeout)
                if withdrawn:
                    return Extraction("multiple", answer, withdrawn, source)
    except TimeoutError:
        return Extraction("timeout", None, f"answer extraction regex exceeded {timeout}s")
    if not answer:
        return Extraction("no_answer", None, f"the {source} answer is empty", source)
    if len(answer) > config.max_answer_chars:
        return Extraction("too_long", answer[:80] + "…", f"the {source} answer is {len(answer)} characters long "
                          f"(limit max_answer_chars={config.max_answer_chars})", source)
    return Extraction("ok", answer, f"{source} answer", source)
