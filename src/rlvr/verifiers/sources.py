"""The built-in answer sources: where a completion states its final answer.

Each source is ``f(text, regex_timeout_s) -> [(content, start, end), ...]`` over the gradable text
(reasoning removed, length capped), every occurrence in order; :mod:`rlvr.verifiers.extraction`
registers them under their names and applies the one-final-answer policy. Every regex runs with a
timeout on capped text. The last-resort reader of a final prose sentence lives in
:mod:`rlvr.verifiers.prose`.
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from rlvr.verifiers.normalize import find_boxed
from rlvr.verifiers.prose import Candidate, prose_answer, sentence_value

__all__ = ["Candidate", "clean", "boxed", "tag_source", "answer_line", "hash_answer", "final_answer_phrase",
           "bare_answer", "prose_answer"]

AnswerSource = Callable[[str, float], list[Candidate]]

def clean(content: str) -> str:
    """An answer slot's content without delimiters, end punctuation, markdown emphasis or a "####"."""
    s = content.strip()
    if s.startswith("####"):  # "Final answer: #### 4"
        s = s.lstrip("#")
    s = s.strip().strip("$").strip().rstrip(".,;:").strip()
    for mark in ("**", "__"):  # markdown emphasis around the whole answer: **42**
        if s.startswith(mark) and s.endswith(mark) and len(s) > 2 * len(mark):
            s = s[len(mark):-len(mark)].strip()
    return s.strip("$").strip()


def boxed(text: str, timeout: float) -> list[Candidate]:
    return find_boxed(text)


def tag_source(tag: str) -> AnswerSource:
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
_PHRASE_RE = regex.compile(
    r"(?i)\b(?:the|my)[ \t]+(?:(?:final|correct|right)[ \t]+)?(?:answer|choice)[ \t]+is[ \t]*:?[ \t]*([^\n]+)")


_ANSWER_HINTS = ("answer", "result", "réponse", "respuesta", "antwort", "risposta", "resposta", "答", "उत्तर",
                 "الإجابة", "الجواب", "ответ")


def answer_line(text: str, timeout: float) -> list[Candidate]:
    found = []
    lowered = text.lower()
    if not any(hint in lowered for hint in _ANSWER_HINTS):
        return found
    for m in _ANSWER_LINE_RE.finditer(text, timeout=timeout):
        group = 1 if clean(m[1]) else 2  # "**Answer:**" alone on its line: the value is on the next one
        if m[group] is None or not clean(m[group]):
            continue
        content = _display_math(text, m.start(group), m[group]) or m[group]
        content = _MINERVA_TRAILER_RE.sub("", content, timeout=timeout)
        answer, end = content, len(m[group])
        inner = final_answer_phrase(content, timeout)  # "Final Answer: The final answer is $3$. I hope…"
        if inner:
            answer, end = inner[-1][0], inner[-1][2]
        elif " is " in content[:_SENTENCE_SCAN]:
            sentence = _first_sentence(content[:_SENTENCE_SCAN], timeout)
            value = _SENTENCE_VALUE_RE.match(sentence, timeout=timeout) if len(sentence) < _SENTENCE_SCAN else None
            if value:
                answer, end = value[1], len(sentence)
        elif stated := sentence_value(_first_sentence(content[:_SENTENCE_SCAN], timeout), timeout):
            answer, end = stated  # "Final Answer: Jane started growing Sphere 3 hours ago."
        # the candidate ends where the answer does: what follows on the line is checked for retractions
        found.append((answer, m.start(group), m.start(group) + end))
    return found


_SENTENCE_SCAN = 2000  # an answer line's first sentence longer than this is not read for "… is X"
_DISPLAY_MATH = (("\\[", "\\]"), ("$$", "$$"))  # display math spans lines; inline math does not


def _display_math(text: str, start: int, line: str) -> str | None:
    """An answer line that opens display math and closes it on a later line: the whole block.

    ``Answer \\[`` / ``9`` / ``\\]`` states 9; the line alone would be the bare delimiter.
    """
    stripped = line.strip()
    for open_, close in _DISPLAY_MATH:
        if stripped.startswith(open_) and close not in stripped[len(open_):]:
            offset = start + line.index(open_) + len(open_)
            end = text.find(close, offset, offset + _SENTENCE_SCAN)
            return text[start:end + len(close)] if end >= 0 else None
    return None


_MINERVA_TRAILER_RE = regex.compile(r"(?i)(?<=\.)\s*I hope it is correct\.?\s*$")
_HASHES_RE = regex.compile(r"(?m)(?:^|(?<=[ \t:]))####[ \t]*([^\n#]+)")


def hash_answer(text: str, timeout: float) -> list[Candidate]:
    """GSM8K's ``#### 42`` final line."""
    return [(m[1], m.start(1), m.end()) for m in _HASHES_RE.finditer(text, timeout=timeout)]


def final_answer_phrase(text: str, timeout: float) -> list[Candidate]:
    found = []
    for m in _PHRASE_RE.finditer(text, timeout=timeout):
        content = _first_sentence(m[1], timeout)
        found.append((content, m.start(1), m.start(1) + len(content)))
    return found


_PERIOD_RE = regex.compile(r"\.(?:\s|$)")


def _first_sentence(text: str, timeout: float) -> str:
    """Text up to the first ". " outside ``$…$`` math (where a period is a decimal point), or the end."""
    for m in _PERIOD_RE.finditer(text, timeout=timeout):
        if (text.count("$", 0, m.start()) - text.count("\\$", 0, m.start())) % 2 == 0:
            return text[:m.start()]
    return text


_BARE_RE = regex.compile(r"[0-9A-Za-z\\{}()\[\]^_+\-*/.,=<>|!%' ]{1,60}")
_BARE_MATH_RE = regex.compile(r"[0-9A-Za-z\\{}()\[\]^_+\-*/.,=<>|!&:;'% \n]{1,300}")
_TEXT_WRAPPER_RE = regex.compile(r"\\(?:text|textbf|textit|textrm|mathrm|mbox)\s*\{([^{}]*)\}")
_ENVIRONMENT_RE = regex.compile(r"\\(?:begin|end)\{[A-Za-z*]+\}")
_ENVIRONMENT_ONLY_RE = regex.compile(r"(?s)\\begin\{([A-Za-z*]+)\}(?:(?!\\begin\{|\\end\{).)*\\end\{\1\}")
_PROSE_WORD_RE = regex.compile(r"(?<![\\A-Za-z])[A-Za-z]{4,}")
_WORD_RE = regex.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}")
_ASSIGNMENT_RE = regex.compile(r"[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?\s*=\s*[^=]+")
# a unit word after the value ends a bare answer: "2 dollars", "30^\circ inches", "10\text{ units}"
_BARE_UNIT_RE = regex.compile(r"(?<=[0-9}]|\\circ)\s*[A-Za-z]{2,15}\.?(?:\^\{?[23]\}?)?$")


def _short_text(m: regex.Match) -> str:
    """A ``\\text{}`` group of at most two words reads as a value or unit; longer ones are prose."""
    return " " if len(m[1].split()) <= 2 else m[0]


def bare_answer(text: str, timeout: float) -> list[Candidate]:
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
    if not delimited and _ENVIRONMENT_ONLY_RE.fullmatch(s, timeout=timeout):
        delimited = True  # a lone \begin{pmatrix}…\end{pmatrix} is math without delimiters
    pattern = _BARE_MATH_RE if delimited else _BARE_RE
    if not s or "\\boxed" in s or "\\fbox" in s or not pattern.fullmatch(s, timeout=timeout):
        return []
    words = _ENVIRONMENT_RE.sub(" ", s)  # \begin{pmatrix} names no prose
    words = _TEXT_WRAPPER_RE.sub(_short_text, words, timeout=timeout)
    words = _BARE_UNIT_RE.sub("", words, timeout=timeout)
    # prose ("So it is 55"), sentences, and worked equations ("50 + 5 = 55") are not a bare answer;
    # one delimited equation ($3x+4y=12$) is, when there is nothing else in the completion
    # an equation in variables ("x + y - z + 2 = 0") is an answer; "50 + 5 = 55" is working
    equation_ok = (_ASSIGNMENT_RE.fullmatch(s, timeout=timeout) or (s.count("=") == 1 and (
        delimited or (regex.search(r"[A-Za-z]", s, timeout=timeout) and not _WORD_RE.search(words, timeout=timeout)))))
    if (_PROSE_WORD_RE.search(words, timeout=timeout) or len(_WORD_RE.findall(words, timeout=timeout)) > 1
            or regex.search(r"\.\s+[A-Za-z]", words, timeout=timeout)
            or ("=" in s and not equation_ok)):
        return []
    return [(s, 0, len(text))]
