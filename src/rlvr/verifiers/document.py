"""What a reader sees in a completion: markdown, HTML and LaTeX read in a few linear passes.

A completion is markdown with HTML and LaTeX in it, and an answer is what it *shows*. The reader
builds a :class:`Document`:

- ``view``: the text as read, same length (positions stay valid): text no reader sees is blanked
  (HTML comments, ``<del>``/``<s>``/``~~`` strike-through, a collapsed ``<details>``, hidden or
  white HTML, ``\\iffalse … \\fi``, ``%`` comments in math, ``\\phantom``, ``\\cancel``, white
  ``\\color``/``\\textcolor``, image alt text, link targets, fenced code), and markup that only
  formats is blanked too (emphasis markers, heading hashes, list bullets, blockquote marks, table
  pipes, HTML tags, colour macros, formatting macros outside math), so ``**Answer: 7**``,
  ``### ✅ Final Answer`` and ``\\textcolor{blue}{\\boxed{7}}`` need no rule of their own.
- ``boxes``: every box-like macro (``\\boxed``, ``\\fbox``, ``\\framebox``, ``\\colorbox``, …)
  with its content span, by brace matching (50,000 nested boxes are linear).
- ``tags``, ``headings``, ``rows`` (markdown table rows and their cells), ``fences`` (fenced code
  with its info string), ``bold`` spans and ``math`` spans, for the answer slots to read.
- ``redefinitions``: TeX that changes what commands mean (``\\def``, ``\\let``, ``\\csname`` …).

The passes: code and comments (they make everything inside them opaque), math spans, the LaTeX
macros that act on what is shown, HTML and inline markdown outside math, and line-start markdown.
Each pass scans for its own tokens only (one ``regex`` scan, with a timeout), so a kilobyte of
LaTeX costs tens of microseconds. Why not markdown-it-py or pylatexenc: both are correct parsers,
but 1.3 ms and 9 ms per 1 kB completion against a budget of about 0.25 ms for the whole
verification (5× math-verify's speed); ``tests/test_verifier_document.py`` checks this reader
against markdown-it-py's parse of the same texts.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S

from rlvr.verifiers.colours import element_hides
from rlvr.verifiers.document_parts import Box, Fence, Heading, Row, Spans, Tag, blank_chars
from rlvr.verifiers.tex_pass import TexPass

__all__ = ["Document", "Box", "Tag", "Heading", "Row", "Fence", "read_document"]


@dataclass
class Document:
    text: str
    view: str
    boxes: list[Box] = field(default_factory=list)
    tags: list[Tag] = field(default_factory=list)
    headings: list[Heading] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    fences: list[Fence] = field(default_factory=list)
    math: list[tuple[int, int]] = field(default_factory=list)
    hidden: list[tuple[int, int, str]] = field(default_factory=list)  # (start, end, why)
    bold: list[tuple[int, int]] = field(default_factory=list)  # content spans of **…** / __…__
    redefinitions: list[str] = field(default_factory=list)
    _hidden_index: tuple | None = field(default=None, repr=False, compare=False)
    #: what readers found once and look up again (a line's sentences): keyed by the reader
    memo: dict = field(default_factory=dict, repr=False, compare=False)

    def hidden_reason(self, start: int, end: int) -> str | None:
        """Why ``[start, end)`` lies inside hidden text, if it does (O(log n))."""
        if not self.hidden:
            return None
        if self._hidden_index is None:
            merged: list[list] = []
            for a, b, why in sorted(self.hidden):
                if merged and a <= merged[-1][1]:
                    merged[-1][1] = max(merged[-1][1], b)
                else:
                    merged.append([a, b, why])
            self._hidden_index = ([m[0] for m in merged], merged)
        starts, merged = self._hidden_index
        i = bisect.bisect_right(starts, start) - 1
        if i >= 0 and end <= merged[i][1]:
            return merged[i][2]
        return None

    def math_span(self, pos: int) -> tuple[int, int] | None:
        """The math span holding ``pos``, if any."""
        i = bisect.bisect_right(self.math, (pos, float("inf"))) - 1
        if i >= 0 and self.math[i][0] <= pos < self.math[i][1]:
            return self.math[i]
        return None


_MATH_FENCES = frozenset({"math", "latex", "tex", "katex"})  # fences a markdown renderer shows as typeset maths
_PLAIN_FENCES = frozenset({"", "text", "txt", "plaintext"})  # fences of no language: a lone value there is shown, no code
_LONE_VALUE_RE = regex.compile(r"\s*+(?:\\boxed\{[^{}\n]{1,200}\}|\$[^$\n]{1,80}\$|(?:[A-Za-z][ \t]?=[ \t]?)?[-+−]?"
                            r"(?:\\[dt]?frac\{[0-9]{1,20}\}\{[0-9]{1,20}\}|[0-9][0-9.,/]{0,40})(?:[ \t]\p{L}{1,20}){0,2})\s*+")
# an HTML comment, a fence, a run of backticks, or an Asymptote figure ("[asy] … [/asy]", as MATH's solutions
# and the models trained on them draw one after the answer): code that states no claim
_OPAQUE_RE = regex.compile(r"(?P<comment><!--)|(?m:^(?P<fence>[ \t]{0,3}(?:```+|~~~+))(?P<info>[^\n`]*)$)|(?P<ticks>`+)"
                           r"|(?P<asy>\[asy\])")
# a line of Asymptote: a call, an assignment, a declaration, a bracket, a path or a number opens it
_CODE_START_RE = regex.compile(r"[ \t]*(?:[A-Za-z_]\w*(?:[ \t]*[(=\[.]|[ \t]+[A-Za-z_]\w*[ \t]*[=;(,\[)])|[(){}\[\]\-+/*\"0-9.$])")
_COMMENT_START_RE = regex.compile(r"//|/\*")
_PROSE_RUN_RE = regex.compile(r"(?<![\p{L}\"])\p{L}{2,}(?: \p{L}+){2,}(?![\p{L}\"(])")  # three words in a row, outside quotes
_ASY_END_RE = regex.compile(r"\[/asy\]")


def _asymptote_code(text: str, start: int, end: int, timeout: float) -> list[tuple[int, int]]:
    """The spans of an Asymptote figure's body ``[start, end)`` that are code, to be hidden: every line with a
    statement's characters, up to a comment. A comment and a line of words alone stay in the view: prose the figure
    does not draw ("// the answer is 7", "[asy] or maybe 7 [/asy]") is read like any other."""
    spans, pos = [], start
    while pos < end:
        stop = text.find("\n", pos, end)
        stop = end if stop < 0 else stop
        comment = _COMMENT_START_RE.search(text, pos, stop, timeout=timeout)
        code_end = comment.start() if comment else stop
        if _CODE_START_RE.match(text, pos, code_end, timeout=timeout) \
                and not _PROSE_RUN_RE.search(text, pos, code_end, timeout=timeout):
            spans.append((pos, code_end))  # a statement; "Wait; the answer is 8.", "Actually 8 (not 7)." are prose
        if comment and comment[0] == "/*":
            close = text.find("*/", comment.end(), end)
            stop = end if close < 0 else max(stop, text.find("\n", close, end) if text.find("\n", close, end) >= 0 else end)
        pos = stop + 1
    return spans


_MATH_ENVS = ("equation", "align", "gather", "multline", "eqnarray", "displaymath", "math", "flalign", "alignat")
_UNESCAPED = r"(?<!(?<!\\)\\)"  # not after a single backslash (\$ is a dollar sign, \\$ a row break and math)
_ENVS = r"(?:" + "|".join(_MATH_ENVS) + r")\*?"
# each body stops at the next opener of its kind, so a text of openers that never close stays
# linear; the bodies are unrolled loops (runs of ordinary characters, then one special one)
# GSM8K's calculator annotation: an arithmetic expression and its value between double angle brackets
_CALCULATOR_RE = regex.compile(r"<<[0-9+\-*/().\s,%]{1,120}=\s*([0-9][0-9,]*(?:\.[0-9]+)?)\s*>>")
_AFTER_CALCULATOR_RE = regex.compile(r"\s*\\?\$?\s*([0-9][0-9,]*(?:\.[0-9]+)?)")


def _same_amount(a: str, b: str) -> bool:
    try:
        return float(a.replace(",", "")) == float(b.replace(",", ""))
    except ValueError:
        return False
_MATH_SPAN_RE = regex.compile(
    _UNESCAPED + r"\$\$[^$]*(?:\$(?!\$)[^$]*)*?" + _UNESCAPED + r"\$\$"
    r"|\\\[[^\\]*(?:\\(?![\[\]])[^\\]*)*\\\]|\\\([^\\]*(?:\\(?![()])[^\\]*)*\\\)"
    r"|\\begin\s*\{(" + _ENVS + r")\}[^\\]*(?:\\(?!(?:begin|end)\s*\{" + _ENVS + r"\})[^\\]*)*\\end\s*\{\1\}"
    r"|" + _UNESCAPED + r"\$(?![\s$])[^$\n\\]*(?:(?:\\.|\n(?![ \t]*\n))[^$\n\\]*)*(?<![\s\\])\$(?![0-9])")
# emphasis runs; an underscore inside a word or before a brace is a subscript (x_1, \\sum_{k}), never emphasis
_INLINE_RE = regex.compile(r"(?P<tag></?[A-Za-z][A-Za-z0-9_-]{0,30}(?:\s[^<>\n]{0,400})?/?>)|(?P<strike>~~?)"
                           r"|(?P<stars>\*+|(?<![\p{L}\p{N}}\\])_+|_+(?![\p{L}\p{N}{\\]))|(?P<image>!\[)|(?P<link>\]\()")
_LINE_RE = regex.compile(
    r"(?m)^[ \t]{0,3}(?:(?P<hashes>\#{1,6})(?=[ \t]|$)|(?P<hashes>\#{4})(?=[-+$]?[0-9])|(?P<hr>(?:[-*_][ \t]*){3,}$)|(?P<setext>=+[ \t]*$)"
    r"|(?P<quote>>[ \t]?)|(?P<bullet>(?:[-*+]|[0-9]{1,3}[.)])[ \t]+)|(?P<refdef>\[[^\]\n]{1,100}\]:[ \t]*\S[^\n]*$)"
    r"|(?P<pipe>\|))")
_VOID_TAGS = frozenset({"br", "hr", "img", "input", "meta", "link", "wbr", "source", "area", "col", "embed"})
_PERCENT_RE = regex.compile(r"(?<!\\)%")
_BLANK_LINE_RE = regex.compile(r"\n[ \t]*\n")
_TAG_NAME_RE = regex.compile(r"</?([A-Za-z][A-Za-z0-9_-]*)")
_OPEN_ATTR_RE = regex.compile(r"(?i)\bopen\b")
_CLOSING_HASHES_RE = regex.compile(r"[ \t]+#+[ \t]*$")
_SEPARATOR_ROW_RE = regex.compile(r"\|?(?:\s*:?-{2,}:?\s*\|)+\s*:?-*:?\s*\|?")


class _Reader(TexPass):
    """The passes of :func:`read_document` over one text."""

    def __init__(self, text: str, timeout: float) -> None:
        self.text, self.timeout = text, timeout
        self.doc = Document(text=text, view="")
        self.chars = list(text)
        self.partners: dict[int, int] | None = None
        self.first_acting = 0
        self.switches: list[tuple[int, str]] = []
        self.reasons_of_tags: dict[int, str] = {}
        self.open_tags: dict[str, int] = {}  # how many elements of each name are open

    def hide(self, start: int, end: int, why: str) -> None:
        """Record a hidden span; the view is blanked once, over merged spans, at the end."""
        if end > start:
            self.doc.hidden.append((start, end, why))

    def run(self) -> Document:
        text = self.text
        opaque = self.code_and_comments() if ("`" in text or "<!--" in text or "~~~" in text or "[asy]" in text) \
            else Spans([])
        if "<<" in text:
            self.calculator_notes(opaque)
        self.math(opaque)
        math = Spans(self.doc.math)
        if "\\" in text:
            self.macros(opaque, math)
        if self.doc.boxes:  # a bare \boxed{…} is math too: no markdown inside it
            math = Spans(math.spans + [b.inner for b in self.doc.boxes])
        if any(c in text for c in "<~*_!]"):
            self.inline(opaque, math)
        self.lines(opaque, math)
        self.doc.hidden.sort()
        covered = -1
        for a, b, _why in self.doc.hidden:  # nested hidden spans are blanked once
            if b > covered:
                blank_chars(self.chars, max(a, covered), b)
                covered = b
        self.doc.view = "".join(self.chars)
        return self.doc

    def calculator_notes(self, opaque: Spans) -> None:
        """GSM8K's calculator annotations ("20 - 5 = <<20-5=15>>15"): the tool's call, which the text states again
        right after it, so it is hidden as a comment is (its numbers are no further values of the sentence)."""
        for m in _CALCULATOR_RE.finditer(self.text, timeout=self.timeout):
            after = _AFTER_CALCULATOR_RE.match(self.text, m.end(), timeout=self.timeout)
            # only a call whose result the text states right after it: "<<72>>" or "<<6*7=41>>42" hide another value
            if after and _same_amount(after[1], m[1]) and not opaque.holds(m.start()):
                self.hide(m.start(), m.end(), "a calculator annotation")

    # -- pass 0: code and comments ----------------------------------------------------------------
    def code_and_comments(self) -> Spans:
        text, spans, skip = self.text, [], 0
        breaks = [m.start() for m in _BLANK_LINE_RE.finditer(text, timeout=self.timeout)]  # paragraph ends, found once
        unclosed: dict[str, int] = {}  # a run of ticks with no partner before its paragraph ends: later ones neither
        asy_ends: list[int] | None = None
        for m in list(_OPAQUE_RE.finditer(text, timeout=self.timeout)):
            if m.start() < skip:
                continue
            if m["comment"]:
                end = text.find("-->", m.end())
                end = len(text) if end < 0 else end + 3
                self.hide(m.start(), end, "an HTML comment")
            elif m["asy"]:
                if asy_ends is None:
                    asy_ends = [c.start() for c in _ASY_END_RE.finditer(text, timeout=self.timeout)]  # found once
                k = bisect.bisect_left(asy_ends, m.end())
                end = asy_ends[k] if k < len(asy_ends) else -1
                if end < 0:
                    continue  # never closed: what follows is read as text ("[asy] draw(…); Hmm, actually 7")
                self.hide(m.start(), m.end(), "an Asymptote figure")
                for a, b in _asymptote_code(text, m.end(), end, self.timeout):
                    self.hide(a, b, "an Asymptote figure")
                end += len("[/asy]")
                self.hide(end - len("[/asy]"), end, "an Asymptote figure")
            elif m["fence"]:
                marker = m["fence"].strip()
                content = min(len(text), m.end() + 1)
                close = regex.compile(r"(?m)^[ \t]{0,3}" + regex.escape(marker[0]) + "{" + str(len(marker)) + r",}[ \t]*$"
                                      ).search(text, content, timeout=self.timeout)
                end = close.end() if close else len(text)
                info = m["info"].strip().lower()
                if close and (info in _MATH_FENCES or info in _PLAIN_FENCES and _LONE_VALUE_RE.fullmatch(
                        text, content, close.start(), timeout=self.timeout)):
                    # "```latex": markdown renders it as maths; "```\n42\n```": a lone value or box shown as it is
                    blank_chars(self.chars, m.start(), content)
                    blank_chars(self.chars, close.start(), end)
                    spans += [(m.start(), content), (close.start(), end)]
                    skip = end
                    continue
                self.doc.fences.append(Fence(m["info"].strip().lower(), m.start(), end,
                                             (content, close.start() if close else len(text))))
                self.hide(m.start(), end, "a fenced code block")
            else:
                ticks = m[0]
                i = bisect.bisect_left(breaks, m.end())
                paragraph = breaks[i] if i < len(breaks) else len(text)
                if unclosed.get(ticks, -1) == paragraph:
                    continue
                close = text.find(ticks, m.end(), paragraph)
                if close < 0:
                    unclosed[ticks] = paragraph
                    continue
                end = close + len(ticks)
                blank_chars(self.chars, m.start(), m.end())  # the content of a code span is shown as it is
                blank_chars(self.chars, close, end)
            spans.append((m.start(), end))
            skip = end
        return Spans(spans)

    # -- pass 1: math spans -----------------------------------------------------------------------
    def math(self, opaque: Spans) -> None:
        """Every closed math span, in one scan: display (``$$…$$``, ``\\[…\\]``, math environments)
        and inline (``\\(…\\)``, and ``$…$`` by pandoc's rule: no blank after the opening dollar,
        none before the closing one, no digit after it, no blank line inside)."""
        spans = self.doc.math
        for m in _MATH_SPAN_RE.finditer(self.text, timeout=self.timeout):
            if not opaque.spans or not opaque.holds(m.start()):
                spans.append(m.span())
        if "%" in self.text:
            self.comments(opaque)

    def comments(self, opaque: Spans) -> None:
        """A ``%`` in math comments out the rest of its line, when the span closes on a later line
        (on the same line the comment would have eaten the closing delimiter: ambiguous, so the
        text stays visible)."""
        text = self.text
        for a, b in self.doc.math:
            for m in _PERCENT_RE.finditer(text[a:b], timeout=self.timeout):
                start = a + m.start()
                end = text.find("\n", start, b)
                if end >= 0 and not opaque.holds(start):
                    self.hide(start, end, "a % comment")

    # -- pass 3: HTML and inline markdown outside math ---------------------------------------------
    def inline(self, opaque: Spans, math: Spans) -> None:
        text = self.text
        html: list[tuple[str, int, bool]] = []
        open_marks: dict[str, tuple[int, int]] = {}  # marker -> (its end, its line)
        skip = 0
        for m in _INLINE_RE.finditer(text, timeout=self.timeout):
            pos = m.start()
            if pos < skip or opaque.holds(pos) or math.holds(pos):
                continue
            kind = m.lastgroup
            if kind == "tag":
                self.tag(m, html)
            elif kind == "strike" or kind == "stars":
                self.emphasis(m, open_marks)
            elif kind == "image":
                close = text.find("](", m.end(), m.end() + 400)
                target = text.find(")", close) if close >= 0 else -1
                if close >= 0 and target >= 0 and "\n" not in text[pos:target]:
                    self.hide(pos, target + 1, "an image's alt text")
                    skip = target + 1
            elif kind == "link":
                target = text.find(")", m.end(), m.end() + 500)
                if target >= 0 and "\n" not in text[m.end():target]:
                    self.hide(pos + 1, target + 1, "a link target")
                    skip = target + 1
        for name, start, hides in html:  # an unclosed hiding element hides to the end (the first one covers the rest)
            if hides:
                self.hide(start, len(text), f"an unclosed <{name}> element")
                break

    def tag(self, m: regex.Match, html: list[tuple[str, int, bool]]) -> None:
        raw = m[0]
        closing = raw.startswith("</")
        name = _TAG_NAME_RE.match(raw, timeout=REGEX_TIMEOUT_S)[1].lower()
        self.doc.tags.append(Tag(name, m.start(), m.end(), closing))
        blank_chars(self.chars, m.start(), m.end())
        if name in _VOID_TAGS or raw.endswith("/>"):
            return
        if closing:
            if not self.open_tags.get(name):
                return  # nothing of that name is open: a stray close (checked in O(1), not by a scan)
            for i in range(len(html) - 1, -1, -1):
                open_name, start, hides = html[i]
                if open_name == name:
                    for closed_name, _s, _h in html[i:]:
                        self.open_tags[closed_name] -= 1
                    del html[i:]
                    if hides:
                        why = "struck-through text" if name in ("del", "s", "strike") else \
                            self.reasons_of_tags.get(start, f"a hidden <{name}>")
                        self.hide(start, m.end(), why)
                    if name == "summary" and html and html[-1][0] == "details":
                        d_name, _d_start, d_hides = html[-1]  # the summary is shown; what follows it is not
                        html[-1] = (d_name, m.end(), d_hides)
                    return
            return
        attrs = raw[len(name) + 1:].rstrip(">")
        why = element_hides(name, attrs)
        hides = why is not None
        if why is not None:
            self.reasons_of_tags[m.start()] = why
        if name in ("details", "dialog") and not _OPEN_ATTR_RE.search(attrs, timeout=self.timeout):
            hides = True  # collapsed: only its <summary> is shown
        if name == "summary" and html and html[-1][0] == "details":
            d_name, d_start, d_hides = html[-1]
            if d_hides:
                self.hide(d_start, m.start(), "a collapsed <details> block")
            html[-1] = (d_name, m.start(), d_hides)
        html.append((name, m.start(), hides))
        self.open_tags[name] = self.open_tags.get(name, 0) + 1

    def emphasis(self, m: regex.Match, open_marks: dict[str, tuple[int, int]]) -> None:
        text, start, end, run = self.text, m.start(), m.end(), m[0]
        if run == "~":  # GFM's single-tilde strike-through: "~text~", flanked like emphasis, on one line
            before = text[start - 1] if start > 0 else " "
            after = text[end] if end < len(text) else " "
            opened = open_marks.get("~")
            if opened is not None and opened[1] == text.count("\n", 0, start) and not before.isspace() \
                    and not after.isalnum():
                del open_marks["~"]
                self.hide(opened[0] - 1, end, "struck-through text (~)")
            elif not after.isspace() and not before.isalnum():
                open_marks["~"] = (end, text.count("\n", 0, start))  # "~42": perhaps an opener, perhaps "about"
            return
        if run == "~~":
            opened = open_marks.pop("~~", None)
            if opened is not None and not _BLANK_LINE_RE.search(text, opened[0], start, timeout=self.timeout):
                self.hide(opened[0] - 2, end, "struck-through text (~~)")  # a paragraph's lines, not across one
            else:
                open_marks["~~"] = (end, 0)
            return
        before = text[start - 1] if start > 0 else " "
        after = text[end] if end < len(text) else " "
        if run[0] == "_" and before.isalnum() and after.isalnum():
            return  # x_1 in prose: never emphasis inside a word
        if len(run) == 1 and ((before.isdigit() and after.isdigit()) or (before.isspace() and after.isspace())):
            return  # 2*3 or 2 * 3: a product
        blank_chars(self.chars, start, end)
        if len(run) == 2:  # **bold** on one line: its content is what the text stresses
            opened = open_marks.pop(run, None)
            if opened is not None and "\n" not in text[opened[0]:start]:
                self.doc.bold.append((opened[0], start))
            else:
                open_marks[run] = (end, 0)

    # -- pass 4: line-start markdown ---------------------------------------------------------------
    def lines(self, opaque: Spans, math: Spans) -> None:
        text = self.text
        for m in _LINE_RE.finditer(text, timeout=self.timeout):
            pos = m.start()
            if opaque.holds(pos) or math.holds(pos):
                continue
            end_of_line = text.find("\n", pos)
            end_of_line = len(text) if end_of_line < 0 else end_of_line
            if m["hashes"]:
                closing = _CLOSING_HASHES_RE.search(text[m.end():end_of_line], timeout=self.timeout)
                content_end = m.end() + closing.start() if closing else end_of_line
                self.doc.headings.append(Heading(len(m["hashes"]), pos, end_of_line, (m.end(), content_end)))
                blank_chars(self.chars, m.start("hashes"), m.end("hashes"))
                if closing:
                    blank_chars(self.chars, content_end, end_of_line)
            elif m["hr"] or m["setext"]:
                if not self._setext(pos, end_of_line) and m["hr"]:
                    blank_chars(self.chars, pos, end_of_line)
            elif m["quote"] or m["bullet"]:
                blank_chars(self.chars, pos, m.end())
            elif m["refdef"]:
                self.hide(pos, end_of_line, "a link reference definition")
            elif m["pipe"]:
                self.table_row(pos, end_of_line)

    def _setext(self, pos: int, end_of_line: int) -> bool:
        """A ``===`` / ``---`` line right under a text line makes that line a heading."""
        text = self.text
        if pos < 2 or not text[pos:end_of_line].strip().strip("=-") == "" or "*" in text[pos:end_of_line] \
                or "_" in text[pos:end_of_line]:
            return False
        prev_end = pos - 1
        prev_start = text.rfind("\n", 0, prev_end) + 1
        line = text[prev_start:prev_end]
        if not line.strip() or line.lstrip().startswith(("#", ">", "|", "-", "*", "+")):
            return False
        level = 1 if text[pos:end_of_line].strip().startswith("=") else 2
        self.doc.headings.append(Heading(level, prev_start, end_of_line, (prev_start, prev_end)))
        blank_chars(self.chars, pos, end_of_line)
        return True

    def table_row(self, start: int, end: int) -> None:
        text = self.text
        stripped = text[start:end].strip()
        if _SEPARATOR_ROW_RE.fullmatch(stripped, timeout=self.timeout):
            blank_chars(self.chars, start, end)  # the |---|---| separator row
            return
        cells, cell_start, in_math = [], start, False
        for i in range(start, end):
            c = text[i]
            if c == "$" and (i == start or text[i - 1] != "\\"):
                in_math = not in_math  # |x| inside a cell's math is an absolute value
            if c == "|" and not in_math and (i == start or text[i - 1] != "\\"):
                if i > cell_start and text[cell_start:i].strip():
                    cells.append((cell_start, i))
                self.chars[i] = " "
                cell_start = i + 1
        if text[cell_start:end].strip():
            cells.append((cell_start, end))
        if len(cells) >= 2:
            self.doc.rows.append(Row(start, end, tuple(cells)))


def read_document(text: str, timeout: float) -> Document:
    """The :class:`Document` of ``text`` (already the gradable part, length-capped). Linear time."""
    return _Reader(text, timeout).run()
