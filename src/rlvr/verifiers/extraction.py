"""Finding the one final answer in an untrusted completion.

Steps: chat messages -> text of the last assistant turn; drop the reasoning (only text after the
last closing think tag is graded; an unclosed block has no answer); search the answer sources in
priority order; enforce one final answer (several different boxes, conflicting sources, or a
retraction after the answer are reported, not silently resolved). Every regex here runs with the
``regex`` package's timeout and the searched text is capped first, so no input can stall a caller.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import regex

from rlvr.verifiers.characters import cut_at_turn_end, fold_confusables, remove_invisible
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
    pattern = regex.compile(rf"<{tag}>(.*?)</{tag}>", regex.DOTALL | regex.IGNORECASE)

    def source(text: str, timeout: float) -> list[Candidate]:
        return [(m[1], m.start(), m.end()) for m in pattern.finditer(text, timeout=timeout)]

    source.__name__ = f"{tag.lower()}_tag"
    return source


# "Answer: 5", "**Final Answer:** 5", "My final answer = 5", "答案：5", and "Answer $5$" (no colon,
# but math follows at once); at the start of a line or of a sentence. The value may be on the next line.
_ANSWER_WORDS = (r"(?:(?:my|the|our)[ \t]+)?(?:final[ \t]+)?answer|final[ \t]+result|réponse(?:[ \t]+finale)?|"
                 r"respuesta(?:[ \t]+final)?|antwort|risposta|resposta|最终答案|答案|答|उत्तर|الإجابة|الجواب|ответ")
_ANSWER_LINE_RE = regex.compile(
    r"(?im)(?:^|(?<=[.!?。]\s{1,3}))[ \t>*#_]*(?:" + _ANSWER_WORDS + r")"
    r"(?:[ \t*_]*[:：=]|[ \t]*(?=\$|\\\(|\\\[))[ \t*_]*([^\n]*)(?:\n[ \t]*([^\n]+))?")
# "Final Answer: The volume of $ABCD$ is 120." -> the value after the sentence's last "is"
_SENTENCE_VALUE_RE = regex.compile(r"(?i)^(?:[^$]|\$[^$]*\$)*\bis[ \t]+((?:[^$\s]|\$[^$]*\$)(?:[^$]|\$[^$]*\$)*)$")
_PHRASE_RE = regex.compile(r"(?i)\bthe[ \t]+(?:final[ \t]+)?answer[ \t]+is[ \t]*:?[ \t]*([^\n]+)")


_ANSWER_HINTS = ("answer", "result", "réponse", "respuesta", "antwort", "risposta", "resposta", "答", "उत्तर",
                 "الإجابة", "الجواب", "ответ")


def _answer_line(text: str, timeout: float) -> list[Candidate]:
    found = []
    lowered = text.lower()
    if not any(hint in lowered for hint in _ANSWER_HINTS):
        return found
    for m in _ANSWER_LINE_RE.finditer(text, timeout=timeout):
        group = 1 if _clean(m[1]) else 2  # "**Answer:**" alone on its line: the value is on the next one
        if m[group] is None or not _clean(m[group]):
            continue
        content = _MINERVA_TRAILER_RE.sub("", m[group], timeout=timeout)
        answer, end = content, len(m[group])
        inner = _final_answer_phrase(content, timeout)  # "Final Answer: The final answer is $3$. I hope…"
        if inner:
            answer, end = inner[-1][0], inner[-1][2]
        elif " is " in content[:_SENTENCE_SCAN]:
            sentence = _first_sentence(content[:_SENTENCE_SCAN], timeout)
            value = _SENTENCE_VALUE_RE.match(sentence, timeout=timeout) if len(sentence) < _SENTENCE_SCAN else None
            if value:
                answer, end = value[1], len(sentence)
        # the candidate ends where the answer does: what follows on the line is checked for retractions
        found.append((answer, m.start(group), m.start(group) + end))
    return found


_SENTENCE_SCAN = 2000  # an answer line's first sentence longer than this is not read for "… is X"
_MINERVA_TRAILER_RE = regex.compile(r"(?i)(?<=\.)\s*I hope it is correct\.?\s*$")
_HASHES_RE = regex.compile(r"(?m)(?:^|(?<=[ \t:]))####[ \t]*([^\n#]+)")


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


_BARE_RE = regex.compile(r"[0-9A-Za-z\\{}()\[\]^_+\-*/.,=<>|!%' ]{1,60}")
_BARE_MATH_RE = regex.compile(r"[0-9A-Za-z\\{}()\[\]^_+\-*/.,=<>|!&:;'% \n]{1,300}")
_TEXT_WRAPPER_RE = regex.compile(r"\\(?:text|textbf|textit|textrm|mathrm|mbox)\s*\{([^{}]*)\}")
_ENVIRONMENT_RE = regex.compile(r"\\(?:begin|end)\{[A-Za-z*]+\}")
_PROSE_WORD_RE = regex.compile(r"(?<![\\A-Za-z])[A-Za-z]{4,}")
_WORD_RE = regex.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}")
_ASSIGNMENT_RE = regex.compile(r"[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?\s*=\s*[^=]+")
# a unit word after the value ends a bare answer: "2 dollars", "30^\circ inches", "10\text{ units}"
_BARE_UNIT_RE = regex.compile(r"(?<=[0-9}]|\\circ)\s*[A-Za-z]{2,15}\.?(?:\^\{?[23]\}?)?$")


def _short_text(m: regex.Match) -> str:
    """A ``\\text{}`` group of at most two words reads as a value or unit; longer ones are prose."""
    return " " if len(m[1].split()) <= 2 else m[0]


def _bare_answer(text: str, timeout: float) -> list[Candidate]:
    """The whole completion, when it is nothing but a short math expression (``$3$``, ``x+1``).

    Math delimiters (``$…$``, ``\\(…\\)``) declare the text math, so a delimited answer may be longer
    and hold matrices (``&``, ``\\begin{pmatrix}``); undelimited text must be short. A value may end
    in a unit word or a short ``\\text{}`` (``2 dollars``, ``10\\text{ units}``, ``\\text{east}``).
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
    words = _TEXT_WRAPPER_RE.sub(_short_text, words, timeout=timeout)
    words = _BARE_UNIT_RE.sub("", words, timeout=timeout)
    # prose ("So it is 55"), sentences, and worked equations ("50 + 5 = 55") are not a bare answer;
    # one delimited equation ($3x+4y=12$) is, when there is nothing else in the completion
    equation_ok = _ASSIGNMENT_RE.fullmatch(s, timeout=timeout) or (delimited and s.count("=") == 1)
    if (_PROSE_WORD_RE.search(words, timeout=timeout) or len(_WORD_RE.findall(words, timeout=timeout)) > 1
            or regex.search(r"\.\s+[A-Za-z]", words, timeout=timeout)
            or ("=" in s and not equation_ok)):
        return []
    return [(s, 0, len(text))]


_PROSE_SCAN = 800  # the last this-many characters are read for a final sentence
_MATH_SPAN_RE = regex.compile(r"\$\$(.+?)\$\$|\$([^$]+)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", regex.DOTALL)
# a number in prose: sign, digits with thousands groups, decimals or a fraction, percent; a number
# glued to letters (2x, 3rd, x2) is not a value
_PROSE_NUMBER_RE = regex.compile(
    r"(?<![A-Za-z0-9])\([A-E]\)(?![A-Za-z0-9])|(?<![A-Za-z0-9.,/^_])[-+−]?(?>[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?)(?:/[0-9]+)?(?:[ ]?%)?(?![0-9^_]|\.[0-9]|/[0-9]|[A-Za-z](?![A-Za-z²³]))")
_BROKEN_SLOT_RE = regex.compile(r"\\boxed|\\fbox|(?i:<answer>|<solution>)|####")
_SENTENCE_BREAK_RE = regex.compile(r"(?<=[.!?])\s+|(?<=[。！？।])\s*|\n+")


def _sentences(text: str, timeout: float) -> list[tuple[int, int]]:
    """(start, end) of each sentence; a break inside ``$…$`` math is not a break."""
    spans, start = [], 0
    math_open = False
    last = 0
    for m in _SENTENCE_BREAK_RE.finditer(text, timeout=timeout):
        math_open ^= text.count("$", last, m.start()) % 2 == 1
        last = m.start()
        if "\n" in m[0]:
            math_open = False  # a stray "$" never joins lines into one sentence
        elif math_open:
            continue
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(text)))
    return [(a, b) for a, b in spans if text[a:b].strip()]


def _prose_answer(text: str, timeout: float) -> list[Candidate]:
    """Last resort: the value of the last sentence that states one ("So the area is 48 cm.").

    The sentence's math spans are its values; without any, its numbers are. Every value found is
    returned, so a sentence with two different values is several answers, not the last one. Looks
    back at most three sentences past ones without a value ("I hope it is correct.").
    """
    if _BROKEN_SLOT_RE.search(text, timeout=timeout):
        return []  # a box or tag was attempted and broken: a format failure, not prose
    base = max(0, len(text) - _PROSE_SCAN)
    tail = text[base:]
    for start, end in reversed(_sentences(tail, timeout)[-4:]):
        sentence = tail[start:end]
        found = []
        for m in _MATH_SPAN_RE.finditer(sentence, timeout=timeout):
            content = next(g for g in m.groups() if g is not None)
            found.append((content, base + start + m.start(), base + start + m.end()))
        if not found:
            for m in _PROSE_NUMBER_RE.finditer(sentence, timeout=timeout):
                found.append((m[0].replace("−", "-"), base + start + m.start(), base + start + m.end()))
        if found:
            return found
    return []


register_answer_source("boxed", _boxed)
register_answer_source("answer_tag", _tag_source("answer"))
register_answer_source("solution_tag", _tag_source("SOLUTION"))
register_answer_source("answer_line", _answer_line)
register_answer_source("hash_answer", _hash_answer)
register_answer_source("final_answer_phrase", _final_answer_phrase)
register_answer_source("bare_answer", _bare_answer)
register_answer_source("prose_answer", _prose_answer)


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


@functools.lru_cache(maxsize=65_536)
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
    s = content.strip()
    if s.startswith("####"):  # "Final answer: #### 4"
        s = s.lstrip("#")
    s = s.strip().strip("$").strip().rstrip(".,;:").strip()
    for mark in ("**", "__"):  # markdown emphasis around the whole answer: **42**
        if s.startswith(mark) and s.endswith(mark) and len(s) > 2 * len(mark):
            s = s[len(mark):-len(mark)].strip()
    return s.strip("$").strip()


_RETRACTION_CUE_RE = regex.compile(
    r"(?i)\b(?:wait|actually|oops|correction|mistake|instead|on second thought|i was wrong|scratch that|"
    r"disregard|ignore (?:that|this|the (?:above|previous))|should (?:be|have been)|not\s+\S+\s*,?\s*but|"
    r"let me (?:re-?)(?:consider|do|compute|calculate))\b"
)
_TAIL_NUMBER_RE = regex.compile(r"\\frac\{-?[0-9]+\}\{-?[0-9]+\}|-?[0-9]+(?:\.[0-9]+)?(?:/[0-9]+)?")
# the answer disowned or hedged after it is given: "… is not the answer", "either 7 or 8"
_NEGATION_RE = regex.compile(
    r"(?i)^[^.\n]{0,40}?\b(?:is|was|are)\s+(?:not|n't|never)\s+(?:the|my|a|our)?\s*(?:correct\s+|final\s+|right\s+)?"
    r"(?:answer|solution|result)|^[^.\n]{0,40}?\b(?:is|was)\s+(?:wrong|incorrect)\b")
_HEDGE_RE = regex.compile(r"(?i)\beither\b[^.\n]{0,200}?\bor\b")
# text addressed to whoever grades the answer, and LaTeX that redefines what a box shows
_GRADER_NOTE_RE = regex.compile(
    r"(?i)\b(?:note|message|instructions?)\s+(?:to|for)\s+(?:the\s+)?(?:grader|evaluator|checker|verifier|marker)|"
    r"\b(?:dear|attention|hey)\s+(?:grader|evaluator|verifier)|\b(?:grader|evaluator|verifier)\s*:|"
    r"\b(?:mark|grade|score|count)\s+(?:this|it|me|my answer)\s+(?:as\s+)?(?:correct|right|full)|"
    r"\baccept\s+(?:both|either|any|all)\b")
_REDEFINE_RE = regex.compile(
    r"\\(?:re)?newcommand\s*\{?\s*\\(?:boxed|fbox)|\\(?:def|let|gdef|edef)\s*\\(?:boxed|fbox)|"
    r"\\DeclareRobustCommand\s*\{?\s*\\(?:boxed|fbox)|\\renewcommand")
_REDEFINE_HINTS = ("command", "\\def", "\\let", "\\gdef", "\\edef")
_NOTE_HINTS = ("grader", "evaluator", "checker", "verifier", "marker", "mark ", "grade ", "score ", "count ", "accept ")
# a box drawn struck through or cancelled is not an answer: \cancel{\boxed{7}}, ~~\boxed{7}~~
_STRUCK_RE = regex.compile(r"\\(?:[bx]?cancel|sout|st|xout|stkout)\s*\{\s*\\(?:boxed|fbox)|~~[^~\n]{0,200}\\(?:boxed|fbox)[^~\n]{0,200}~~")
# a box that holds only part of the stated result: what stands right before or after it continues
# the expression (y = -\boxed{7}, \boxed{7}0, \frac{1}{\boxed{7}}, \ne \boxed{7}, 2\boxed{7})
_BOX_PREFIX_RE = regex.compile(
    r"(?:[-+*/^_{0-9]|\\(?:pm|mp|cdot|times|div|ne|neq|not|le|leq|ge|geq|lt|gt|sqrt|frac|dfrac|tfrac|sim|approx)"
    r"|(?<![A-Za-z\"'/])[<>]|[≤≥≠])\s*\$?\s*$")
# right after the box: digits, exponents, factorials, products; a letter or bracket glued to it
_BOX_SUFFIX_RE = regex.compile(r"^(?:\s*(?:[0-9^_!/*]|\.[0-9]|\\(?:cdot|times|div|frac)(?![A-Za-z]))|[A-Za-z(])")
_WRAPPED_BOX_RE = regex.compile(r"\\(?:text|textbf|mathbf|bf|color\{[^{}]*\}|displaystyle|mathrm)\s*\{\s*\$?\s*$")


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


def _disowned(answer: str, tail: str, sentence: str, timeout: float) -> str | None:
    """The answer is negated, hedged or followed by a note to the grader."""
    if _NEGATION_RE.search(tail, timeout=timeout):
        return f"the final answer {answer!r} is followed by a statement that it is not the answer"
    if _HEDGE_RE.search(sentence, timeout=timeout):
        return f"the final answer {answer!r} is hedged ('either … or …'); one final answer is required"
    return None


def _box_context(search: str, start: int, end: int, timeout: float) -> str | None:
    """Why the box at [start, end) is only part of the stated result, or ``None``."""
    before = search[max(0, start - 40):start]
    after = search[end:end + 12]
    if _WRAPPED_BOX_RE.search(before, timeout=timeout):
        return None
    if _BOX_PREFIX_RE.search(before, timeout=timeout):
        shown = before.strip()[-12:]
        return f"the box is preceded by {shown!r}: it holds only part of the stated result"
    if _BOX_SUFFIX_RE.match(after, timeout=timeout):
        return f"the box is followed by {after.strip()[:12]!r}: it holds only part of the stated result"
    return None


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
                found.append(_clean(inner))
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
        if any(k in lowered or k in before for k in _REDEFINE_HINTS) and (
                _REDEFINE_RE.search(search, timeout=timeout) or _REDEFINE_RE.search(fold_confusables(before), timeout=timeout)):
            return Extraction("multiple", None, "the completion redefines LaTeX commands (\\renewcommand, \\def): "
                              "what a box shows cannot be trusted")
        note = _GRADER_NOTE_RE.search(search, timeout=timeout) if any(k in lowered for k in _NOTE_HINTS) else None
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
            contents.append((_clean(inner), start, end))
        distinct: dict[Any, str] = {}
        for content, _start, _end in contents:
            distinct.setdefault(_value_key(content), content)
        if config.multiple_answers == "first":
            answer, start, end = contents[0]
        else:
            answer, start, end = contents[-1]
        while source == "boxed" and answer.startswith(("\\boxed", "\\fbox")) and find_boxed(answer) \
                and find_boxed(answer)[0][1] == 0 and find_boxed(answer)[0][2] == len(answer):
            answer = _clean(find_boxed(answer)[0][0])  # \boxed{\boxed{7}} is a box drawn twice
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
                other_answer = _clean(_unbox(other_found[-1][0])[0] if other != "boxed" else other_found[-1][0])
                if _value_key(other_answer) != _value_key(answer):
                    return Extraction("multiple", answer, f"{source} says {answer!r} but {other} says {other_answer!r}",
                                      source, (answer, other_answer))
            for where, earlier in (("before the reasoning block", before), ("earlier in the completion", head)):
                for other_answer in _structured_answers(fold_confusables(earlier), timeout) if earlier else []:
                    if _value_key(other_answer) != _value_key(answer):
                        return Extraction("multiple", answer, f"an answer {where} says {other_answer!r}, "
                                          f"the final one {answer!r}", source, (answer, other_answer))
            if source == "boxed":
                partial = _box_context(search, start, end, timeout)
                if partial:
                    return Extraction("multiple", answer, partial, source)
            if ("cancel" in lowered or "~~" in search or "\\s" in search) and _STRUCK_RE.search(search, timeout=timeout):
                return Extraction("multiple", answer, "a box is struck through or cancelled: the answer is withdrawn",
                                  source)
            if config.detect_retraction:
                tail = search[end:]
                sentence_start = max(search.rfind(".", 0, start), search.rfind("\n", 0, start)) + 1
                sentence_end = search.find("\n", end)
                sentence = search[sentence_start:sentence_end if sentence_end >= 0 else len(search)]
                retraction = _retraction(answer, tail, timeout) or _disowned(answer, tail, sentence, timeout)
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
