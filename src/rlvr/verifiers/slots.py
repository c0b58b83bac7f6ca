"""Answer slots: the places where a completion states a final answer, as one table of kinds.

Each kind is a finder over a :class:`~rlvr.verifiers.document.Document` (what a reader sees:
hidden text is gone, markup is blank) that returns every :class:`Slot` of that kind in text order.
The table (:data:`SLOT_KINDS`) is data: adding a kind is one finder and one entry, and
``VerifierConfig.sources`` orders the kinds by priority. Built in: ``boxed`` (every box-like
macro), ``answer_tag``, ``solution_tag``, ``answer_line`` ("Answer: 9", "**Final Answer**" then
the value, "答案：9", "Ans: 9", "Answer is 9", in any emphasis), ``table_answer`` (a markdown table
row ``| Answer | 9 |``), ``json_answer`` (an ``"answer"`` key in JSON), ``hash_answer`` (a heading
that is only a value: GSM8K's ``#### 42``), ``final_answer_phrase`` ("the final answer is 9",
"la respuesta es 9", "答案是9"), ``bare_answer`` (the whole completion is a short expression) and
``prose_answer`` (last resort: the value a final prose sentence states).
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Callable
from dataclasses import dataclass

import regex

from rlvr.verifiers.repeating import ENDS_IN_DECIMAL_DOTS_RE

from rlvr.verifiers.limits import REGEX_TIMEOUT_S

from rlvr.verifiers.document import Document
from rlvr.verifiers.answer_labels import LABELS, answer_labels
from rlvr.verifiers.choices import opens_with_option
from rlvr.verifiers.answer_phrases import final_answer_phrase_in
from rlvr.verifiers.bare_words import bare_word_answer
from rlvr.verifiers.notations import counted_list
from rlvr.verifiers.line_reading import LEAD_HINT_RE, first_sentence, lead_before_value, line_lead
from rlvr.verifiers.answer_sentences import sentence_value
from rlvr.verifiers.json_values import json_escaped, json_value
from rlvr.verifiers.prose import prose_answer
from rlvr.verifiers.units import scale_word_after

__all__ = ["Slot", "SlotFinder", "SLOT_KINDS", "STRUCTURED_KINDS", "clean", "find_slots", "bare_expression"]


@dataclass(frozen=True)
class Slot:
    """One stated answer: its kind, its text (as read) and where it stands."""

    kind: str
    content: str
    start: int  # the slot, markers included ("Answer:", "\\boxed{")
    end: int
    value: tuple[int, int]  # where the value itself stands


#: ``finder(doc, timeout, start=0)``: every slot at or after ``start`` (the verifier searches the
#: lower-priority kinds only near and after the final answer, where they can conflict with it)
SlotFinder = Callable[..., list[Slot]]




def _repeating(s: str) -> str:
    """``0.333...`` -> ``0.333…``, ``1, 2, 3, ...`` -> ``1, 2, 3, …``: the dots say the digits or the items go on,
    they end no sentence."""
    if s.endswith("...") and (ENDS_IN_DECIMAL_DOTS_RE.search(s[-40:], timeout=REGEX_TIMEOUT_S)
                              or s[:-3].rstrip().endswith(",")):
        return s[:-3] + "…"
    return s


def clean(content: str) -> str:
    """An answer's text without delimiters, end punctuation or a leading ``####``."""
    s = content.strip()
    if s.startswith("####"):  # "Final answer: #### 4"
        s = s.lstrip("#")
    s = _repeating(_repeating(s.strip()).strip("$").strip()).rstrip(".,;:").strip()
    for open_, close in (("\\(", "\\)"), ("\\[", "\\]")):
        if s.startswith(open_) and s.endswith(close):
            s = s[len(open_):-len(close)].strip()
    return _repeating(s.strip("$").strip()).rstrip(".,;:").strip()


_BLANK_RE = regex.compile(r"(?:\s|\\[hv]?phantom\{[^{}]*\}|\\square|\\[ ,;!]|\\quad|\\qquad|_+|\$|\\\(|\\\)|\\\[|\\\]|\.{3}|…)*")


def _is_blank(content: str, timeout: float) -> bool:
    return bool(_BLANK_RE.fullmatch(content, timeout=timeout))


# -- boxes ----------------------------------------------------------------------------------------
def filled_box(doc: Document, span: tuple[int, int], by_start: dict) -> tuple[int, int]:
    """``\\boxed{\\boxed{7}}`` is a box drawn twice: the span inside boxes that fill their box."""
    while True:
        a, b = span
        while a < b and (doc.view[a].isspace() or doc.view[a] == "$"):  # "\\colorbox{yellow}{$\\boxed{42}$}"
            a += 1
        while b > a and (doc.view[b - 1].isspace() or doc.view[b - 1] == "$"):
            b -= 1
        inner = by_start.get(a)
        if inner is None or inner.end != b:
            return span
        span = inner.inner


def boxed(doc: Document, timeout: float, start: int = 0) -> list[Slot]:
    """Every visible outermost box; a box inside another visible box is part of its content."""
    found: list[Slot] = []
    by_start = {b.start: b for b in doc.boxes}
    for box in sorted(doc.boxes, key=lambda b: b.start):
        if box.end < start:
            continue
        if doc.hidden and doc.hidden_reason(box.start, box.end):
            continue
        if found and box.start < found[-1].end:
            continue  # nested in the previous (outer) box
        a, b = filled_box(doc, box.inner, by_start)
        content = doc.view[a:b]
        if _is_blank(content, timeout):
            continue  # a placeholder box (\boxed{\phantom{2}}, \boxed{}) states nothing
        found.append(Slot("boxed", content.strip(), box.start, box.end, box.inner))
    return found


# -- tags -----------------------------------------------------------------------------------------
def tag_finder(name: str) -> SlotFinder:
    """``<name>…</name>`` pairs (any case), innermost pairing, hidden ones skipped."""
    wanted = name.lower()

    def finder(doc: Document, timeout: float, start: int = 0) -> list[Slot]:
        found, opened = [], None
        for tag in doc.tags:
            if tag.start < start and not tag.closing:
                continue
            if tag.name != wanted:
                continue
            if not tag.closing:
                opened = tag
            elif opened is not None:
                if not doc.hidden_reason(opened.start, tag.end):
                    content = doc.view[opened.end:tag.start]
                    if not _is_blank(content, timeout):
                        found.append(Slot(f"{wanted}_tag" if wanted != "solution" else "solution_tag",
                                          content.strip(), opened.start, tag.end, (opened.end, tag.start)))
                opened = None
        return found

    finder.__name__ = f"{wanted}_tag"
    return finder


# -- answer lines ---------------------------------------------------------------------------------
_MINERVA_TRAILER_RE = regex.compile(r"(?i)(?<=\.)\s*I hope it is correct\.?\s*$")
_SENTENCE_SCAN = 2000
# "… is <value>" with its math spans whole; an escaped dollar ("$\\$1,210$") is a currency sign, no delimiter
_SENTENCE_VALUE_RE = regex.compile(r"(?i)^(?:[^$\\]|\\.|\$(?:[^$\\]|\\.)*\$)*\bis[ \t]+((?:[^$\s\\]|\\.|\$(?:[^$\\]|\\.)*\$)"
                                   r"(?:[^$\\]|\\.|\$(?:[^$\\]|\\.)*\$)*)$")


_YES_NO_START_RE = regex.compile(r"(?i)\s*(?:\*\*)?(?:yes|no)\b\s*[,;:\u2014-]")


def _next_lines(view: str, pos: int) -> tuple[int, int] | None:
    """The value under a label that stands alone: the next non-blank line, or a display block."""
    n = len(view)
    while pos < n and view[pos] in " \t\n":
        pos += 1
    if pos >= n:
        return None
    for open_, close in (("\\[", "\\]"), ("$$", "$$")):
        if view.startswith(open_, pos):
            end = view.find(close, pos + len(open_), pos + _SENTENCE_SCAN)
            return (pos, end + len(close)) if end >= 0 else None
    end = view.find("\n", pos)
    end = n if end < 0 else end
    # "**Final Answer**\nx = 4\ny = -2": a value named on each line under the label, each name its own, is one answer
    names = set()
    line_start = pos
    while (m := _NAMED_LINE_RE.fullmatch(view, line_start, end, timeout=REGEX_TIMEOUT_S)) and m[1] not in names \
            and len(names) < 8:
        names.add(m[1])
        following = _NAMED_LINE_RE.fullmatch(view, end + 1, nxt if (nxt := view.find("\n", end + 1)) >= 0 else n,
                                             timeout=REGEX_TIMEOUT_S) if end < n else None
        if following is None or following[1] in names:
            break
        line_start, end = end + 1, (nxt if nxt >= 0 else n)
    return pos, end


# one line that names one value: "x = 4", "$y = -2$", "a_1 = 3"
_NAMED_LINE_RE = regex.compile(r"[ \t]*\$?[ \t]*([A-Za-z](?:_\{?[A-Za-z0-9]{1,3}\}?)?)[ \t]*=[ \t]*[^=\n$]{1,40}?[ \t]*\$?[ \t.,;]*")


# a bracketed remark of words closing the line after its value: "$42$ (so the smallest $n$ is 42)"
_REMARK_RE = regex.compile(r"(?<=[$)\]}0-9A-Za-z])[ \t]+\((?=[^()]*\p{L}{2})[^()\n]{1,300}\)[ \t.]*$")


def answer_line(doc: Document, timeout: float, start: int = 0) -> list[Slot]:
    view = doc.view
    found = []
    for slot_start, label_start, value_start, value, alone in answer_labels(view, timeout, start):
        if alone or not clean(value):
            span = _next_lines(view, value_start if not alone else label_start)  # the value on the next line
            if span is None:
                continue
            raw, vstart = view[span[0]:span[1]], span[0]
            if "\n" in raw.strip() and not raw.lstrip().startswith(("\\[", "$$")):
                # values named line by line ("x = 4\ny = -2"): one answer, as "x = 4, y = -2" writes it
                lines = [line.strip().strip("$").strip(" .,;") for line in raw.strip().split("\n")]
                found.append(Slot("answer_line", ", ".join(lines), slot_start, span[1], (vstart, span[1])))
                continue
        else:
            raw, vstart = value, value_start
            if raw.strip().startswith(("\\[", "$$")):  # display math opened on the label's line
                block = _next_lines(view, vstart)
                if block:
                    raw = view[block[0]:block[1]]
        raw = _MINERVA_TRAILER_RE.sub("", raw, timeout=timeout)
        if not raw.lstrip().startswith(("\\[", "$$")):
            raw = first_sentence(raw, timeout)  # "Answer: 5. Wait, actually 7." answers 5; the rest follows it
        answer, length = raw, len(raw)
        if " is " in raw and (remark := _REMARK_RE.search(raw, timeout=timeout)) is not None and " is " in remark[0] \
                and clean(raw[:remark.start()]):
            # "$n = 42$ (so the smallest such $n$ is 42)": the remark follows the slot, and is read as later text is
            raw = answer = raw[:remark.start()]
            length = len(raw)
        inner = final_answer_phrase_in(raw, timeout)  # "Final Answer: The final answer is $3$. I hope…"
        if inner:
            answer, length = inner[-1][0], inner[-1][2]
        elif _YES_NO_START_RE.match(raw, timeout=timeout):
            answer = first_sentence(raw[:_SENTENCE_SCAN], timeout)  # "Answer: yes, it is possible.": the yes is the value
            length = len(answer)
        elif " is " in raw[:_SENTENCE_SCAN]:
            sentence = first_sentence(raw[:_SENTENCE_SCAN], timeout)
            value = _SENTENCE_VALUE_RE.match(sentence, timeout=timeout) if len(sentence) < _SENTENCE_SCAN else None
            if value:
                answer, length = value[1], len(sentence)
        elif not opens_with_option(raw) and (stated := sentence_value(first_sentence(raw[:_SENTENCE_SCAN], timeout), timeout)):
            answer, length = stated  # "Final Answer: Jane started growing Sphere 3 hours ago."
        if answer == raw and (lead := lead_before_value(raw, timeout)) is not None:
            answer, length = raw[:lead], lead  # "Answer: 41 Or 42", "Answer: 41 #### 42": the line opens with 41
        if clean(answer):
            found.append(Slot("answer_line", answer, slot_start, vstart + length, (vstart, vstart + length)))
    return found


# -- tables and JSON ------------------------------------------------------------------------------


def _is_label(cell: str, timeout: float) -> bool:
    """A table cell that holds only an answer label ("Answer", "**Final answer:**")."""
    m = LABELS.search(cell, timeout=timeout)
    return m is not None and not cell[:m.start()].strip() and not cell[m.end():].strip(" \t:：")


def table_answer(doc: Document, timeout: float, start: int = 0) -> list[Slot]:
    """A table row whose cell is an answer label: the next cell, or the cell under it."""
    found = []
    rows = [r for r in doc.rows if r.end >= start]
    for i, row in enumerate(rows):
        cells = [doc.view[a:b] for a, b in row.cells]
        for j, cell in enumerate(cells):
            if not _is_label(cell, timeout):
                continue
            if j + 1 < len(cells) and clean(cells[j + 1]):
                a, b = row.cells[j + 1]
                found.append(Slot("table_answer", cells[j + 1].strip(), row.start, row.end, (a, b)))
            elif i + 1 < len(rows) and rows[i + 1].start - row.end <= 2 and j < len(rows[i + 1].cells):
                a, b = rows[i + 1].cells[j]
                if clean(doc.view[a:b]):
                    found.append(Slot("table_answer", doc.view[a:b].strip(), row.start, rows[i + 1].end, (a, b)))
    return found


_JSON_KEYS = ("answer", "final_answer", "finalanswer", "final", "result", "solution", "final_result")
_JSON_INLINE_RE = regex.compile(r'(?i)"(' + "|".join(_JSON_KEYS) + r')"\s*:\s*("(?:[^"\\\n]|\\.){0,400}"|[-+0-9.eE/]{1,60})')
_MAX_JSON = 20_000


def json_answer(doc: Document, timeout: float, start: int = 0) -> list[Slot]:
    """An answer key in a JSON object: in a fenced block (hidden as code, read as data) or inline."""
    found = []
    for fence in doc.fences:
        if fence.end < start:
            continue
        a, b = fence.content
        body = doc.text[a:b].strip()
        if not body.startswith("{") or b - a > _MAX_JSON:
            continue
        try:
            data = json.loads(json_escaped(body))
        except (ValueError, RecursionError):
            continue
        if isinstance(data, dict):
            for key, value in data.items():
                if isinstance(key, str) and key.lower() in _JSON_KEYS and (text := json_value(value)) is not None:
                    found.append(Slot("json_answer", text, fence.start, fence.end, (a, b)))
    for m in _JSON_INLINE_RE.finditer(doc.view, start, timeout=timeout):
        raw = m[2]
        if raw.startswith('"'):
            try:
                raw = json.loads(json_escaped(raw))
            except ValueError:
                raw = raw.strip('"')
        found.append(Slot("json_answer", str(raw), m.start(), m.end(), m.span(2)))
    return sorted(found, key=lambda s: s.start)


# -- headings that are only a value (GSM8K's "#### 42") -------------------------------------------
_PROSE_WORD_RE = regex.compile(r"(?<![\\\p{L}])\p{L}{2,}")
_NOT_A_VALUE_RE = regex.compile(r"(?i)^\s*(?:step|part|case|problem|question|section|solution|example)\b")
_MATH_OR_MACRO_RE = regex.compile(r"\$[^$]*\$|\\[A-Za-z]+")
_DIGIT_RE = regex.compile(r"[0-9]")
_GSM8K_LEVEL = 4  # "#### 42": GSM8K's answer marker
_VALUE_FIRST_RE = regex.compile(r"[-+−]?\s*(?:\\?\$\s*|\\\$\s*|[€£¥₹]\s*)?[0-9]")  # "18 dollars", "$18 per day"
_CAPITALISED_WORD_RE = regex.compile(r"(?<![\p{L}])\p{Lu}\p{L}")  # "#### 1 Introduction", "#### 2019 AMC 10A": titles
_PART_LABEL_RE = regex.compile(r"\(\s*[a-zivx]{1,4}\s*\)")  # "#### (a)", "#### (iii)": a part of the problem
# a section's number: "#### 1. Setup", "#### 2) Checking" (not "#### 2.5 million")
_SECTION_NUMBER_RE = regex.compile(r"\s*[0-9]{1,2}[.)](?:\s|$)")
_LETTER_RE = regex.compile(r"[A-Za-z]")
_SENTENCE_IN_RE = regex.compile(r"\.\s+[A-Za-z]")


# what states or offers a value in the rest of a heading: a box, a tag, an answer word, a "####", a verb or an "or"
_STATES_AFTER_RE = regex.compile(
    r"(?i)\\(?:boxed|fbox|framebox)(?![A-Za-z])|<(?:answer|solution)|####|answer|réponse|respuesta|antwort|ответ|答案|答え"
    r"|(?<![\p{L}])(?:is|or|also|maybe|might|could|possible|candidate|alternatively)(?![\p{L}])")


def _heading_lead(content: str, cut: int | None, timeout: float) -> int | None:
    """Where the value ends in a GSM8K heading that opens with a value and then states another on its line
    ("#### 41 So it is 42.", "#### 41 #### 42", "#### 41 <answer>…"); ``None`` for a heading that is a value, or a title. ``cut``: where a slot begins in it."""
    lead = line_lead(content[:cut], timeout, closed=cut is not None)
    if lead is None or _SECTION_NUMBER_RE.fullmatch(content[:lead].strip() + " ", timeout=timeout):
        return None
    if cut is not None:
        return lead  # the value, then a slot
    if not LEAD_HINT_RE.search(content, lead, timeout=timeout):
        return None  # "#### 1 Setup": no value after the number
    return lead if _STATES_AFTER_RE.search(content, lead, timeout=timeout) else None


def _slot_start_in(doc: Document, a: int, b: int) -> int | None:
    """Where the first tag, fence or box that begins in ``[a, b)`` begins (relative to ``a``), else ``None``."""
    starts = doc.memo.get("slot starts")
    if starts is None:
        starts = doc.memo["slot starts"] = sorted([t.start for t in doc.tags] + [f.start for f in doc.fences]
                                                  + [x.start for x in doc.boxes])
    i = bisect.bisect_left(starts, a)
    return starts[i] - a if i < len(starts) and starts[i] < b else None


def hash_answer(doc: Document, timeout: float, start: int = 0) -> list[Slot]:
    found = []
    for h in doc.headings:
        if h.end < start:
            continue
        a, b = h.content
        content = doc.view[a:b]
        if h.level == _GSM8K_LEVEL and (lead := _heading_lead(content, _slot_start_in(doc, a, b), timeout)) is not None:
            found.append(Slot("hash_answer", clean(content[:lead]), h.start, a + lead, (a, a + lead)))
            continue  # "#### 41 So it is 42.", "#### 41 #### 42": the heading opens with 41; the rest follows it
        stripped = clean(content)
        if not stripped or _NOT_A_VALUE_RE.match(stripped, timeout=timeout):
            continue
        bare = _MATH_OR_MACRO_RE.sub(" ", stripped, timeout=timeout)
        if _PROSE_WORD_RE.search(bare, timeout=timeout) and not (
                h.level == _GSM8K_LEVEL and _VALUE_FIRST_RE.match(stripped, timeout=timeout)
                and not _SECTION_NUMBER_RE.match(stripped, timeout=timeout)
                and not _CAPITALISED_WORD_RE.search(bare, timeout=timeout)):
            continue  # a title ("Group 4: 110", "Final Answer", "1. Setup"), not a value; "#### 18 dollars" is one
        if not _DIGIT_RE.search(stripped, timeout=timeout) and "$" not in content and (
                h.level != _GSM8K_LEVEL or _PART_LABEL_RE.fullmatch(stripped, timeout=timeout)):
            continue  # "## A", "#### (a)" title a section or a part; GSM8K's "#### x" states a value without a digit
        found.append(Slot("hash_answer", stripped, h.start, h.end, (a, b)))
    return found


# -- "the final answer is …" ----------------------------------------------------------------------
def final_answer_phrase(doc: Document, timeout: float, start: int = 0) -> list[Slot]:
    return [Slot("final_answer_phrase", content, a, b, (a, b))
            for content, a, b in final_answer_phrase_in(doc.view, timeout, start) if clean(content)]


# -- the whole completion as one expression -------------------------------------------------------
# a clock time or a ratio alone: "20:34:00", "08:34 \\text{P.M.}", "3:4" (a colon after words labels a line instead)
_BARE_COLON_RE = regex.compile(r"\$?\s*[0-9]{1,2}(?::[0-9]{2}){1,2}\s*(?:\\text\s*\{\s*)?(?:[AaPp]\.?\s?[Mm]\.?)?\s*\}?\s*\$?"
                               r"|\$?\s*[0-9]+(?:\s*:\s*[0-9]+)+\s*\$?")
_BARE_RE = regex.compile(r"[0-9A-Za-z\\{}()\[\]^_+\-*/.,=<>|!%'° ]{1,300}")
_BARE_MATH_RE = regex.compile(r"[0-9A-Za-z\\{}()\[\]^_+\-*/.,=<>|!&:;'%° \n]{1,300}")
_TEXT_WRAPPER_RE = regex.compile(r"\\(?:text|textbf|textit|textrm|mathrm|mbox)\s*\{([^{}]*)\}")
_ENVIRONMENT_RE = regex.compile(r"\\(?:begin|end)\{[A-Za-z*]+\}")
_ENVIRONMENT_ONLY_RE = regex.compile(r"(?s)\\begin\{([A-Za-z*]+)\}(?:(?!\\begin\{|\\end\{).)*\\end\{\1\}")
_LONG_WORD_RE = regex.compile(r"(?<![\\A-Za-z])[A-Za-z]{4,}")
_WORD_RE = regex.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}")
_ASSIGNMENT_RE = regex.compile(r"[A-Za-z](?:_\{?[A-Za-z0-9]+\}?|\([A-Za-z0-9]{1,3}\))?\s*=\s*[^=]+")
# solutions named one by one: "x = -2 or x = 3", "x=1, y=2", "a = 2 \\text{ and } b = 3", "f(x) = x \\text{ and } f(x) = -x"
_ASSIGNMENTS_RE = regex.compile(r"(?:[A-Za-z](?:_\{?[A-Za-z0-9]+\}?|\([A-Za-z0-9]{1,3}\))?\s*=\s*[^=,;]+?\s*(?:,|;|\\text\s*\{\s*(?:or|and)\s*\}|"
                                r"(?<![A-Za-z])(?:or|and)(?![A-Za-z])|\\quad|\\qquad)\s*)+"
                                r"[A-Za-z](?:_\{?[A-Za-z0-9]+\}?|\([A-Za-z0-9]{1,3}\))?\s*=\s*[^=,;]+")
_BARE_UNIT_RE = regex.compile(r"(?<=[0-9}]|\\circ)\s*[A-Za-z]{2,15}\.?(?:\^\{?[23]\}?)?$")


def _short_text(m: regex.Match) -> str:
    return " " if len(m[1].split()) <= 2 else m[0]


# the whole completion as a value with its sign of currency ("\\$10", "$1,000.99", "1,000.99$", "€5", "5 €"), a math
# span with a percent sign or a word after it ("$28$ %", "$28$ percent"), a word or a \text{} phrase in math ("$Even$")
_BARE_MONEY_RE = regex.compile(r"(?:\\?\$|[€£¥₹])\s*[-+]?[0-9][0-9,]*(?:\.[0-9]+)?|[-+]?[0-9][0-9,]*(?:\.[0-9]+)?\s*(?:\\?\$|[€£¥₹])")
_BARE_SPAN_TAIL_RE = regex.compile(r"\$[^$\n]{1,60}\$[ \t]*(?:\\?%|[A-Za-z]{1,12}\.?)")
_BARE_MATH_WORDS_RE = regex.compile(r"(?:\$\$|\$)\s*(?:\p{L}{1,15}|\\text\{[\p{L} ,'-]{1,80}\})\s*(?:\$\$|\$)")


def _named_values_only(s: str) -> bool:
    from rlvr.verifiers.statements import named_values_only  # statements reads normalised answers: a layer above

    return named_values_only(s)


def bare_expression(text: str, timeout: float) -> str | None:
    """``text`` when it is nothing but a short math expression (``$3$``, ``x+1``, ``2 dollars``)."""
    s = text.strip()
    if _BARE_MONEY_RE.fullmatch(s, timeout=timeout) or _BARE_SPAN_TAIL_RE.fullmatch(s, timeout=timeout) \
            or _BARE_COLON_RE.fullmatch(s, timeout=timeout) \
            or _BARE_MATH_WORDS_RE.fullmatch(s, timeout=timeout):
        return s
    if ":" in s and len(s) <= 300 and _named_values_only(s):
        return s  # "Minimum: 1, Maximum: 3", "Paolo: 18, Qing: 14": values named one by one, and nothing else
    if len(s) <= 300 and ("\\text" in s or s[:1].isdigit() or s[:1] == "$") and counted_list(s) is not None:
        return s  # "7 \text{ goats and } 4 \text{ helicopters}": counts of things, and nothing else
    delimited = False
    for open_, close in (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]")):
        if s.startswith(open_) and s.endswith(close) and len(s) >= len(open_) + len(close):
            s = s[len(open_):len(s) - len(close)].strip()
            delimited = "$" not in s
            break
    if not delimited and _ENVIRONMENT_ONLY_RE.fullmatch(s, timeout=timeout):
        delimited = True  # a lone \begin{pmatrix}…\end{pmatrix} is math without delimiters
    pattern = _BARE_MATH_RE if delimited else _BARE_RE
    if not s or "\\boxed" in s or "\\fbox" in s or not pattern.fullmatch(s, timeout=timeout):
        return None
    words = _ENVIRONMENT_RE.sub(" ", s, timeout=REGEX_TIMEOUT_S)
    words = _TEXT_WRAPPER_RE.sub(_short_text, words, timeout=timeout)
    words = _BARE_UNIT_RE.sub("", words, timeout=timeout)
    # an equation in variables ("x + y - z + 2 = 0") is an answer; "50 + 5 = 55" is working
    equation_ok = (_ASSIGNMENT_RE.fullmatch(s, timeout=timeout) or _ASSIGNMENTS_RE.fullmatch(s, timeout=timeout)
                   or (s.count("=") == 1 and (
        delimited or (_LETTER_RE.search(s, timeout=timeout) and not _WORD_RE.search(words, timeout=timeout)))))
    if (_LONG_WORD_RE.search(words, timeout=timeout) or len(_WORD_RE.findall(words, timeout=timeout)) > 1
            or _SENTENCE_IN_RE.search(words, timeout=timeout) or ("=" in s and not equation_ok)):
        return None
    return s


def bare_answer(doc: Document, timeout: float, start: int = 0) -> list[Slot]:
    s = bare_expression(doc.view, timeout)
    if s is None and not doc.hidden:  # "\text{east}": the view blanks formatting macros, the text keeps them
        s = bare_expression(doc.text, timeout)
    if s is None and not doc.hidden:
        s = bare_word_answer(doc.text)  # "five", "True", "no real solutions": an answer in words and nothing else
    if s is None:
        return []
    start = doc.view.find(s[:1]) if s else 0
    return [Slot("bare_answer", s, 0, len(doc.view), (max(0, start), len(doc.view.rstrip())))]


def prose_slots(doc: Document, timeout: float, start: int = 0) -> list[Slot]:
    found = []
    for content, a, b in prose_answer(doc.view, timeout, tuple(doc.bold)):
        if (word := scale_word_after(doc.view[b:b + 40], timeout)) is not None:
            b = doc.view.index(word, b) + len(word)  # "The population is 1.2 million.": the scale word is the value's
            content = f"{content} {word}"
        found.append(Slot("prose_answer", content, a, b, (a, b)))
    return found


SLOT_KINDS: dict[str, SlotFinder] = {
    "boxed": boxed,
    "answer_tag": tag_finder("answer"),
    "solution_tag": tag_finder("solution"),
    "answer_line": answer_line,
    "table_answer": table_answer,
    "json_answer": json_answer,
    "hash_answer": hash_answer,
    "final_answer_phrase": final_answer_phrase,
    "bare_answer": bare_answer,
    "prose_answer": prose_slots,
}
#: kinds that are unambiguous answer slots (the others read sentences)
STRUCTURED_KINDS = frozenset({"boxed", "answer_tag", "solution_tag", "answer_line", "table_answer", "json_answer",
                              "hash_answer"})


def find_slots(doc: Document, kinds: tuple[str, ...], finders: dict[str, SlotFinder], timeout: float) -> dict[str, list[Slot]]:
    """Every slot of each kind in ``kinds`` (each list in text order)."""
    return {kind: finders[kind](doc, timeout) for kind in kinds}
