"""Finding the one final answer in an untrusted completion.

Steps: chat messages -> text of the last assistant turn; drop the reasoning (only text after the
last closing think tag is graded; an unclosed block has no answer); search the answer sources in
priority order; enforce one final answer (several different boxes, conflicting sources, or a
retraction after the answer are reported, not silently resolved). Every regex here runs with the
``regex`` package's timeout and the searched text is capped first, so no input can stall a caller.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import regex

from rlvr.verifiers.normalize import find_boxed, normalize_answer
from rlvr.verifiers.numbers import parse_number

logger = logging.getLogger(__name__)

__all__ = [
    "Extraction", "Candidate", "completion_text", "extract_answer", "register_answer_source",
    "answer_source_names",
]

#: (content, start, end) of one answer occurrence in the searched text
Candidate = tuple[str, int, int]
AnswerSource = Callable[[str, float], list[Candidate]]

_SOURCES: dict[str, AnswerSource] = {}
# Sources whose matches are unambiguous answer slots; their final answers must agree with each other.
_STRUCTURED = ("boxed", "answer_tag", "solution_tag", "answer_line", "hash_answer")


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


def _boxed(text: str, timeout: float) -> list[Candidate]:
    return find_boxed(text)


def _tag_source(tag: str) -> AnswerSource:
    pattern = regex.compile(rf"<{tag}>(.*?)</{tag}>", regex.DOTALL)

    def source(text: str, timeout: float) -> list[Candidate]:
        return [(m[1], m.start(), m.end()) for m in pattern.finditer(text, timeout=timeout)]

    source.__name__ = f"{tag.lower()}_tag"
    return source


# "Answer: 5", "**Final Answer:** 5", and "Answer $5$" (no colon, but math follows at once)
_ANSWER_LINE_RE = regex.compile(
    r"(?im)^[ \t>*#_]*(?:final[ \t]+)?answer(?:[ \t*_]*:|[ \t]*(?=\$|\\\(|\\\[))[ \t*_]*([^\n]+)")
# "Final Answer: The volume of $ABCD$ is 120." -> the value after the sentence's last "is"
_SENTENCE_VALUE_RE = regex.compile(r"(?i)^(?:[^$]|\$[^$]*\$)*\bis[ \t]+((?:[^$\s]|\$[^$]*\$)(?:[^$]|\$[^$]*\$)*)$")
_PHRASE_RE = regex.compile(r"(?i)\bthe[ \t]+(?:final[ \t]+)?answer[ \t]+is[ \t]*:?[ \t]*([^\n]+)")


def _answer_line(text: str, timeout: float) -> list[Candidate]:
    found = []
    for m in _ANSWER_LINE_RE.finditer(text, timeout=timeout):
        content = _MINERVA_TRAILER_RE.sub("", m[1], timeout=timeout)
        answer, end = content, len(m[1])
        inner = _final_answer_phrase(content, timeout)  # "Final Answer: The final answer is $3$. I hope…"
        if inner:
            answer, end = inner[-1][0], inner[-1][2]
        elif " is " in content[:_SENTENCE_SCAN]:
            sentence = _first_sentence(content[:_SENTENCE_SCAN], timeout)
            value = _SENTENCE_VALUE_RE.match(sentence, timeout=timeout) if len(sentence) < _SENTENCE_SCAN else None
            if value:
                answer, end = value[1], len(sentence)
        # the candidate ends where the answer does: what follows on the line is checked for retractions
        found.append((answer, m.start(1), m.start(1) + end))
    return found


_SENTENCE_SCAN = 2000  # an answer line's first sentence longer than this is not read for "… is X"
_MINERVA_TRAILER_RE = regex.compile(r"(?i)(?<=\.)\s*I hope it is correct\.?\s*$")
_HASHES_RE = regex.compile(r"(?m)^[ \t]*####[ \t]*([^\n]+)")


def _hash_answer(text: str, timeout: float) -> list[Candidate]:
    """GSM8K's ``#### 42`` final line."""
    return [(m[1], m.start(1), m.end()) for m in _HASHES_RE.finditer(text, timeout=timeout)]


def _final_answer_phrase(text: str, timeout: float) -> list[Candidate]:
    found = []
    for m in _PHRASE_RE.finditer(text, timeout=timeout):
        content = _first_sentence(m[1], timeout)
        found.append((content, m.start(1), m.start(1) + len(content)))
    return found


def _first_sentence(text: str, timeout: float) -> str:
    """Text up to the first ". " or the end; ``$…$`` math may contain periods."""
    cut = regex.search(r"\.(?:\s|$)(?![^$]*\$)", text, timeout=timeout)
    return text[:cut.start()] if cut else text


_BARE_RE = regex.compile(r"[0-9A-Za-z\\{}()\[\]^_+\-*/.,=<>|! ]{1,60}")
_BARE_MATH_RE = regex.compile(r"[0-9A-Za-z\\{}()\[\]^_+\-*/.,=<>|!&:;'% \n]{1,300}")
_TEXT_WRAPPER_RE = regex.compile(r"\\(?:text|textbf|textit|textrm|mathrm|mbox)\s*\{[^{}]*\}")
_ENVIRONMENT_RE = regex.compile(r"\\(?:begin|end)\{[A-Za-z*]+\}")
_PROSE_WORD_RE = regex.compile(r"(?<![\\A-Za-z])[A-Za-z]{4,}")
_WORD_RE = regex.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}")
_ASSIGNMENT_RE = regex.compile(r"[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?\s*=\s*[^=]+")


def _bare_answer(text: str, timeout: float) -> list[Candidate]:
    """The whole completion, when it is nothing but a short math expression (``$3$``, ``x+1``).

    Math delimiters (``$…$``, ``\\(…\\)``) declare the text math, so a delimited answer may be longer
    and hold matrices (``&``, ``\\begin{pmatrix}``); undelimited text must be short.
    """
    s = text.strip()
    delimited = False
    for open_, close in (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]")):
        if s.startswith(open_) and s.endswith(close) and len(s) >= len(open_) + len(close):
            s = s[len(open_):len(s) - len(close)].strip()
            delimited = "$" not in s  # one math span, not "$a$ and $b$"
            break
    pattern = _BARE_MATH_RE if delimited else _BARE_RE
    if not s or "\\boxed" in s or "\\fbox" in s or not pattern.fullmatch(s, timeout=timeout):
        return []
    words = _ENVIRONMENT_RE.sub(" ", s)  # \begin{pmatrix} names no prose
    if delimited:  # inside math, \text{…} is a unit or a named answer ($\text{even}$), not prose around it
        words = _TEXT_WRAPPER_RE.sub(" ", words)
    # prose ("So it is 55"), sentences, and worked equations ("50 + 5 = 55") are not a bare answer;
    # one delimited equation ($3x+4y=12$) is, when there is nothing else in the completion
    equation_ok = _ASSIGNMENT_RE.fullmatch(s, timeout=timeout) or (delimited and s.count("=") == 1)
    if (_PROSE_WORD_RE.search(words, timeout=timeout) or len(_WORD_RE.findall(words, timeout=timeout)) > 1
            or regex.search(r"\.\s+[A-Za-z]", words, timeout=timeout)
            or ("=" in s and not equation_ok)):
        return []
    return [(s, 0, len(text))]


register_answer_source("boxed", _boxed)
register_answer_source("answer_tag", _tag_source("answer"))
register_answer_source("solution_tag", _tag_source("SOLUTION"))
register_answer_source("answer_line", _answer_line)
register_answer_source("hash_answer", _hash_answer)
register_answer_source("final_answer_phrase", _final_answer_phrase)
register_answer_source("bare_answer", _bare_answer)


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


def completion_text(completion: Any) -> str:
    """The text to grade: a string as is, or the content of the last assistant message of a chat."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        completion = [completion]
    if isinstance(completion, (list, tuple)):
        for message in reversed(completion):
            if isinstance(message, dict) and message.get("role", "assistant") == "assistant":
                content = message.get("content", "")
                if isinstance(content, list):  # multimodal parts: keep the text ones
                    content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
                if not isinstance(content, str):
                    raise TypeError(f"assistant message content must be text, got {type(content).__name__}")
                return content
        if not completion:
            return ""
        raise TypeError("chat completion has no assistant message (messages need role='assistant')")
    raise TypeError(
        f"completion must be a string or a list of chat messages, got {type(completion).__name__}"
    )


def _value_key(text: str) -> str | Fraction:
    """Identity used to decide whether two candidates are the same answer."""
    norm = normalize_answer(text)
    number = parse_number(norm.key)
    if number is not None:
        return number * 100 if norm.percent else number
    return norm.key + ("%" if norm.percent else "")


_BLANK_RE = regex.compile(r"(?:\s|\\[hv]?phantom\{[^{}]*\}|\\square|\\[ ,;!]|\\quad|\\qquad|_+|\$)*")


def _unbox(content: str) -> tuple[str, list[str]]:
    """Content of a tag/line that itself holds boxes: the box contents; else the content."""
    boxes = find_boxed(content)
    if boxes:
        return boxes[-1][0], [b[0] for b in boxes]
    return content, [content]


def _clean(content: str) -> str:
    s = content.strip().strip("$").strip().rstrip(".,;:").strip()
    for mark in ("**", "__"):  # markdown emphasis around the whole answer: **42**
        if s.startswith(mark) and s.endswith(mark) and len(s) > 2 * len(mark):
            s = s[len(mark):-len(mark)].strip()
    return s.strip("$").strip()


_RETRACTION_CUE_RE = regex.compile(
    r"(?i)\b(?:wait|actually|oops|correction|mistake|instead|on second thought|i was wrong|"
    r"should (?:be|have been)|not\s+\S+\s*,?\s*but|let me (?:re-?)?(?:check|reconsider|redo))\b"
)
_TAIL_NUMBER_RE = regex.compile(r"\\frac\{-?[0-9]+\}\{-?[0-9]+\}|-?[0-9]+(?:\.[0-9]+)?(?:/[0-9]+)?")


def _retraction(answer: str, tail: str, timeout: float) -> str | None:
    """A final answer followed by a cue ("wait, actually") and then a different number."""
    answer_value = _value_key(answer)
    if not isinstance(answer_value, Fraction):
        return None
    cue = _RETRACTION_CUE_RE.search(tail, timeout=timeout)
    if not cue:
        return None
    numbers = _TAIL_NUMBER_RE.findall(tail[cue.start():], timeout=timeout)
    if not numbers:
        return None
    last = numbers[-1]
    if _value_key(last) != answer_value:
        return f"the final answer {answer!r} is followed by a retraction naming {last!r}"
    return None


def extract_answer(completion: Any, config: Any) -> Extraction:
    """Find the final answer of ``completion`` under ``config`` (a VerifierConfig)."""
    text = completion_text(completion)
    open_tag, close_tag = config.think_tags
    close_at = text.rfind(close_tag)
    if close_at >= 0:
        region = text[close_at + len(close_tag):]
        if open_tag in region:
            return Extraction("no_answer", None, f"a new reasoning block ({open_tag}) after the last {close_tag} never closes")
    elif open_tag in text or config.think_prefilled:
        return Extraction("no_answer", None, f"the reasoning block never closes ({close_tag} missing), so there is no final answer")
    else:
        region = text
    if len(region) > config.max_completion_chars:
        region = region[-config.max_completion_chars:]
    timeout = config.regex_timeout_s
    try:
        per_source: list[tuple[str, list[Candidate]]] = []
        for name in config.sources:
            # blanks such as \boxed{\phantom{2}} (a box drawn as a placeholder) are not answers
            found = [c for c in _SOURCES[name](region, timeout) if not _BLANK_RE.fullmatch(c[0])]
            if found:
                per_source.append((name, found))
        if not per_source:
            where = "after the reasoning" if close_at >= 0 else "in the completion"
            return Extraction("no_answer", None, f"no final answer found {where} (looked for: {', '.join(config.sources)})")
        source, found = per_source[0]
        contents: list[tuple[str, int]] = []
        for content, _start, end in found:
            inner, _all = _unbox(content) if source != "boxed" else (content, [content])
            contents.append((_clean(inner), end))
        distinct: dict[Any, str] = {}
        for content, _end in contents:
            distinct.setdefault(_value_key(content), content)
        if config.multiple_answers == "first":
            answer, end = contents[0]
        else:
            answer, end = contents[-1]
        if config.multiple_answers == "reject":
            if len(distinct) > 1:
                shown = ", ".join(repr(v) for v in list(distinct.values())[:4])
                return Extraction("multiple", answer, f"several different final answers ({source}): {shown}", source,
                                  tuple(distinct.values()))
            for other, other_found in per_source[1:]:
                if other not in _STRUCTURED or source not in _STRUCTURED:
                    continue
                other_answer = _clean(_unbox(other_found[-1][0])[0] if other != "boxed" else other_found[-1][0])
                if _value_key(other_answer) != _value_key(answer):
                    return Extraction("multiple", answer, f"{source} says {answer!r} but {other} says {other_answer!r}", source)
            if config.detect_retraction:
                retraction = _retraction(answer, region[end:end + 2000], timeout)
                if retraction:
                    return Extraction("multiple", answer, retraction, source)
    except TimeoutError:
        return Extraction("timeout", None, f"answer extraction regex exceeded {timeout}s")
    if not answer:
        return Extraction("no_answer", None, f"the {source} answer is empty", source)
    if len(answer) > config.max_answer_chars:
        return Extraction("too_long", answer[:80] + "…", f"the {source} answer is {len(answer)} characters long "
                          f"(limit max_answer_chars={config.max_answer_chars})", source)
    return Extraction("ok", answer, f"{source} answer", source)
