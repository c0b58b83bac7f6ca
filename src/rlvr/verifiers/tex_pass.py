"""The TeX pass of the document reader: the LaTeX macros that act on what a reader sees.

Boxes (``\\boxed``, ``\\fbox``, ``\\colorbox`` …) with their content spans by brace matching;
macros that hide (``\\phantom``), strike (``\\cancel``), colour (``\\color``, ``\\textcolor``, judged by
:mod:`rlvr.verifiers.colours` against what is behind them) or only format their argument; TeX
conditionals (only ``\\iftrue``'s first branch shows); and macros that redefine others, which make
the text untrustworthy. One ``regex`` scan over the macro names, with a timeout, then linear work
on the macros found. :class:`TexPass` is mixed into the reader of :mod:`rlvr.verifiers.document`.
"""

from __future__ import annotations

import regex

from rlvr.verifiers.colours import style_hides, tex_background_hides, tex_colour_visible
from rlvr.verifiers.document_parts import Box, Spans, blank_chars
from rlvr.verifiers.lexicon import (
    BOX_MACROS, COLOUR_MACROS, HIDING_MACROS, REDEFINING_MACROS, STRIKING_MACROS, TEX_CONDITIONALS,
    TRANSPARENT_MACROS,
)
from rlvr.verifiers.limits import REGEX_TIMEOUT_S

__all__ = ["TexPass"]

_ACTING = sorted(set(BOX_MACROS) | set(HIDING_MACROS) | set(STRIKING_MACROS) | set(COLOUR_MACROS)
                 | set(REDEFINING_MACROS) | set(TRANSPARENT_MACROS) | set(TEX_CONDITIONALS), key=len, reverse=True)
_TRANSPARENT = frozenset(TRANSPARENT_MACROS) - set(BOX_MACROS)
# "0.1\overline{6}" outside math: the bar marks a repeating period, it formats nothing
_DECIMAL_BEFORE_RE = regex.compile(r"[0-9]\.[0-9]*$")
# an environment first: "\\begin" is also a macro name
# every macro, then a set lookup keeps those that act: four times faster than an alternation of their names,
# which the regex engine tries name by name at each backslash
_MACRO_RE = regex.compile(r"\\(?:begin|end)\s*\{(?P<env>comment|hide|invisible)\}|\\(?P<name>[A-Za-z]+)\*?")
_ACTING_SET = frozenset(_ACTING)
_BRACE_RE = regex.compile(r"\\.|[{}]", regex.DOTALL)
_BARE_BOX_RE = regex.compile(r"[ \t]+([^\s${}\\.,;]+)")
_MAX_ARG = 200  # a macro's brace argument starts at most this far after it ("\colorbox[rgb]{…}{…}")
_IF_FI_RE = regex.compile(r"\\(if(?!thenelse)[A-Za-z]*|fi|else)(?![A-Za-z])")
_COLOUR_MODEL_RE = regex.compile(r"\s*\[\s*([A-Za-z]{1,12})\s*\]")
_INK_RE = regex.compile(r"\s*\\(?:color|textcolor)\s*\{([^{}]{1,80})\}")  # the text colour a box's content opens with
_BBOX_OPTIONS_RE = regex.compile(r"\s*\[([^\[\]]{0,200})\]\s*$")




def _bbox_hides(options: str) -> str | None:
    """MathJax's ``\\bbox[black,5px]{42}``: a background colour and a CSS style among its options."""
    m = _BBOX_OPTIONS_RE.match(options, timeout=REGEX_TIMEOUT_S)
    if not m:
        return None
    for part in m[1].split(","):
        part = part.strip()
        if ":" in part:
            if why := style_hides(part):
                return why
        elif part and not part[0].isdigit() and tex_background_hides(part):  # "5px" is padding
            return f"a box on a background of its text's colour ({part[:30]})"
    return None


class TexPass:
    """The reader's LaTeX pass (mixed into ``document._Reader``, whose ``text``, ``doc``, ``chars``,
    ``timeout`` and ``hide`` it uses)."""

    # -- pass 2: LaTeX macros that act on what is shown -------------------------------------------
    def brace_partners(self) -> dict[int, int]:
        """Each ``{``'s closing ``}`` (escaped braces skipped), computed once when first needed."""
        if self.partners is None:
            partners, stack = {}, []
            # braces before the first acting macro can hold none of its arguments (a \color switch
            # that needs its enclosing group asks for the whole map through _group_end)
            for m in _BRACE_RE.finditer(self.text, self.first_acting, timeout=self.timeout):
                c = m[0]
                if c == "{":
                    stack.append(m.start())
                elif c == "}" and stack:
                    partners[stack.pop()] = m.start()
            self.partners = partners
        return self.partners

    def argument(self, pos: int) -> tuple[int, int] | None:
        """The brace argument starting at or after ``pos`` (skipping blanks and ``[…]`` options)."""
        text, n = self.text, len(self.text)
        i = pos
        while i < n and i - pos < _MAX_ARG and text[i] in " \t\n":
            i += 1
        if i < n and text[i] == "[":
            close = text.find("]", i, i + _MAX_ARG)
            if close < 0:
                return None
            i = close + 1
            while i < n and text[i] in " \t\n":
                i += 1
        if i >= n or text[i] != "{":
            return None
        close = self.brace_partners().get(i)
        return (i, close) if close is not None else None

    def macros(self, opaque: Spans, math: Spans) -> None:
        text = self.text
        found = [m for m in _MACRO_RE.finditer(text, timeout=self.timeout)
                 if (m["env"] or m["name"] in _ACTING_SET) and not (opaque.spans and opaque.holds(m.start()))
                 and not (m["name"] in _TRANSPARENT and math.spans and math.holds(m.start()))]
        if not found:
            return
        self.first_acting = found[0].start()
        for m in found:  # boxes first: a bare \boxed{…} is math, so formatting inside it is kept
            if m["name"] in BOX_MACROS:
                self.box(m, m["name"])
        in_box = Spans([b.inner for b in self.doc.boxes]) if self.doc.boxes else Spans([])
        skip = 0
        for m in found:
            start = m.start()
            if start < skip:
                continue
            name = m["name"]
            if name is None:  # \begin{comment} … \end{comment}
                if m[0].startswith("\\begin"):
                    close = regex.compile(r"\\end\s*\{" + m["env"] + r"\}").search(text, m.end(), timeout=self.timeout)
                    end = close.end() if close else len(text)
                    self.hide(start, end, f"a {m['env']} environment")
                    skip = end
                continue
            if name in REDEFINING_MACROS:
                self.doc.redefinitions.append(name)
            elif name in TEX_CONDITIONALS and name != "ifthenelse":
                end, else_at = self._matching_fi(start)
                if name == "iftrue":  # its first branch shows; what follows \\else does not
                    blank_chars(self.chars, start, m.end())
                    if else_at is not None:
                        self.hide(else_at, end, "the \\else branch of an \\iftrue")
                    else:
                        blank_chars(self.chars, max(start, end - 3), end)
                else:
                    self.hide(start, end, f"a \\{name} conditional (its branches depend on TeX's evaluation)")
                    skip = end
            elif name == "ifthenelse":
                arg = self.argument(m.end())
                for _ in range(2):
                    arg = self.argument(arg[1] + 1) if arg else None
                self.hide(start, arg[1] + 1 if arg else len(text), "an \\ifthenelse (its branches depend on its test)")
                skip = arg[1] + 1 if arg else len(text)
            elif name in BOX_MACROS:
                if name in ("colorbox", "fcolorbox"):
                    self.colour(m, name)  # its background may hide what it boxes
                continue
            elif name in HIDING_MACROS:
                arg = self.argument(m.end())
                if arg:
                    self.hide(start, arg[1] + 1, f"\\{name} (takes space, shows nothing)")
            elif name in STRIKING_MACROS:
                arg = self.argument(m.end())
                if arg and name == "cancelto":
                    arg = self.argument(arg[1] + 1)
                if arg:
                    self.hide(start, arg[1] + 1, f"\\{name} (struck out)")
            elif name in COLOUR_MACROS:
                self.colour(m, name)
            elif name in TRANSPARENT_MACROS and not math.holds(start) and not in_box.holds(start) \
                    and not (name == "overline" and _DECIMAL_BEFORE_RE.search(text, max(0, start - 30), start, timeout=self.timeout)):
                blank_chars(self.chars, start, m.end())
                arg = self.argument(m.end())
                if arg:
                    blank_chars(self.chars, arg[0], arg[0] + 1)
                    blank_chars(self.chars, arg[1], arg[1] + 1)

        if self.switches:
            self._hide_switched()

    def box(self, m: regex.Match, name: str) -> None:
        arg = self.argument(m.end())
        for _ in range(BOX_MACROS[name]):  # \colorbox{c}{…}, \fcolorbox{a}{b}{…}: the last argument is the box
            arg = self.argument(arg[1] + 1) if arg else None
        if arg is not None:
            self.doc.boxes.append(Box(name, m.start(), arg[1] + 1, (arg[0] + 1, arg[1])))
            if name == "bbox" and (why := _bbox_hides(self.text[m.end():arg[0]])):
                self.hide(m.start(), arg[1] + 1, why)
        elif name in ("boxed", "fbox") and (bare := _BARE_BOX_RE.match(self.text, m.end(), timeout=REGEX_TIMEOUT_S)):
            a, b = bare.span(1)  # "\boxed 12": the next token is the box
            self.doc.boxes.append(Box(name, m.start(), b, (a, b)))

    def colour(self, m: regex.Match, name: str) -> None:
        # bounded by an end: the regex module looks for a pattern's required "[" up to the end of the text first,
        # so an unbounded match at each of n macros would cost n x the text's length
        model = _COLOUR_MODEL_RE.match(self.text, m.end(), m.end() + _MAX_ARG, timeout=self.timeout)  # \textcolor[rgb]{…}
        first = self.argument(model.end() if model else m.end())
        if first is None:
            return
        colour = self.text[first[0] + 1:first[1]][:80]
        hidden = not tex_colour_visible(colour, model[1] if model else None)
        if model:
            colour = f"[{model[1]}]{{{colour}}}"
        if name == "color":  # a switch: it colours the rest of the enclosing group
            blank_chars(self.chars, m.start(), first[1] + 1)
            if hidden:
                self.switches.append((m.start(), colour))
            return
        if name in ("colorbox", "fcolorbox"):  # a background: the box itself is read by the box pass
            if name == "fcolorbox":  # \\fcolorbox{frame}{background}{…}
                first = self.argument(first[1] + 1)
                if first is None:
                    return
                colour = self.text[first[0] + 1:first[1]][:80]
            content = self.argument(first[1] + 1)
            if content is not None:
                inner = self.text[content[0] + 1:content[1]]
                ink = _INK_RE.match(inner, timeout=self.timeout)
                if tex_background_hides(colour, ink[1] if ink else None, model[1] if model and name == "colorbox" else None):
                    self.hide(m.start(), content[1] + 1, f"text on a background of its own colour ({colour})")
            return
        second = self.argument(first[1] + 1)
        if second is None:
            return
        if hidden:
            self.hide(m.start(), second[1] + 1, f"text in an invisible colour ({colour})")
        else:  # a visible colour only formats: read through it
            blank_chars(self.chars, m.start(), second[0] + 1)
            blank_chars(self.chars, second[1], second[1] + 1)

    def _hide_switched(self) -> None:
        """Hide from each invisible ``\\color`` switch to the close of its enclosing group, in one
        pass over the braces (the end of the text at top level)."""
        pending = sorted(self.switches)
        stack: list[int] = []  # open braces, and the switches they enclose
        inside: dict[int, list[tuple[int, str]]] = {}
        top: list[tuple[int, str]] = []
        k = 0
        for m in _BRACE_RE.finditer(self.text, timeout=self.timeout):
            while k < len(pending) and pending[k][0] < m.start():
                (inside.setdefault(stack[-1], []) if stack else top).append(pending[k])
                k += 1
            if m[0] == "{":
                stack.append(m.start())
            elif m[0] == "}" and stack:
                for start, colour in inside.pop(stack.pop(), ()):
                    self.hide(start, m.start(), f"text in an invisible colour ({colour})")
        top.extend(pending[k:])
        for open_ in stack:
            top.extend(inside.pop(open_, ()))
        for start, colour in top:
            self.hide(start, len(self.text), f"text in an invisible colour ({colour})")

    def _matching_fi(self, start: int) -> tuple[int, int | None]:
        """Where the conditional opened at ``start`` ends (after its ``\\fi``), and where its own ``\\else``
        starts (``None`` without one); unclosed, it runs to the end. Every conditional of the text is
        paired in one pass the first time one is asked for, so nesting thousands deep stays linear."""
        pairs = getattr(self, "_conditionals", None)
        if pairs is None:
            pairs, stack = {}, []  # stack: [start of the \if, its \else or None]
            for m in _IF_FI_RE.finditer(self.text, timeout=self.timeout):
                if m[1] == "else":
                    if stack and stack[-1][1] is None:
                        stack[-1][1] = m.start()
                elif m[1] == "fi":
                    if stack:
                        opened, else_at = stack.pop()
                        pairs[opened] = (m.end(), else_at)
                else:
                    stack.append([m.start(), None])
            for opened, else_at in stack:
                pairs[opened] = (len(self.text), else_at)
            self._conditionals = pairs
        return pairs.get(start, (len(self.text), None))
