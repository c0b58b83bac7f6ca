"""What the Unicode characters of model output mean, before any text is compared.

NFKC alone changes values: it folds ``5³`` into ``53`` and ``½`` into ``1⁄2``, and deleting invisible
operators merges ``2⁢3`` (2 times 3) into ``23``. :func:`fold_math_unicode` maps those characters to
the LaTeX they stand for first (superscripts become exponents, vulgar fractions become ``\\frac``,
``√`` becomes ``\\sqrt``) and only then applies NFKC, which makes fullwidth digits digits.
Look-alike letters (Cyrillic ``О`` for ``0``) are letters, never digits.

:func:`fold_confusables` is for *finding* answer markers: it maps Cyrillic and Greek look-alikes of
Latin letters one to one (positions are kept), so ``\\bоxed{8}`` with a Cyrillic ``о`` is still
seen as a box, and a second answer cannot hide from the one-final-answer check.
"""

from __future__ import annotations

import unicodedata

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S

__all__ = ["restore_escapes", "fold_math_unicode", "fold_confusables", "fold_fullwidth", "cut_at_turn_end", "remove_invisible"]

_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ", "0123456789+-=()ni")
_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎", "0123456789+-=()")
_SUPERSCRIPT_RUN_RE = regex.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ]+")
_SUBSCRIPT_RUN_RE = regex.compile(r"[₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎]+")
_VULGAR_RE = regex.compile(r"[½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅐⅛⅜⅝⅞⅑⅒]")
_SYMBOLS = {
    "√": "\\sqrt ", "∛": "\\sqrt[3] ", "∞": "\\infty ", "π": "\\pi ", "×": "\\times ", "·": "\\cdot ",
    "⋅": "\\cdot ", "÷": "\\div ", "−": "-", "–": "-", "≤": "\\le ", "≥": "\\ge ", "≠": "\\ne ",
    "≈": "\\approx ", "±": "\\pm ", "∓": "\\mp ", "°": "^\\circ ", "℃": "^\\circ C", "℉": "^\\circ F", "∪": "\\cup ", "∩": "\\cap ",
    "∈": "\\in ", "∅": "\\emptyset ", "θ": "\\theta ", "α": "\\alpha ", "β": "\\beta ", "Ω": "\\Omega ",
    "μ": "\\mu ", "⟨": "\\langle ", "⟩": "\\rangle ", "⁄": "/", "∕": "/", "ℝ": "\\mathbb{R}", "ℕ": "\\mathbb{N}",
    "ℤ": "\\mathbb{Z}", "ℚ": "\\mathbb{Q}", "ℂ": "\\mathbb{C}",
}
_GREEK_SYMBOLS = "θαβΩμ"
# a Greek letter of the table stands for its macro unless it is part of a Greek word ("μήλα" is apples)
_SYMBOL_RE = regex.compile("|".join(regex.escape(k) if k not in _GREEK_SYMBOLS else
                                    rf"(?<![^\P{{Greek}}{_GREEK_SYMBOLS}]){regex.escape(k)}(?![^\P{{Greek}}{_GREEK_SYMBOLS}])"
                                    for k in _SYMBOLS))
_OTHER_DIGIT_RE = regex.compile(r"[^\P{Nd}0-9]")
# invisible operators: a product or a separator, never nothing (deleting 2⁢3 would read 23)
_INVISIBLE_OPERATORS_RE = regex.compile(r"[\u2061\u2062\u2063\u2064]")
_FORMAT_CHAR_RE = regex.compile(r"\p{Cf}")
_CURRENCY_RE = regex.compile(r"[€£¥₹₩₽¢]")


# enclosed numerals (①, ⑽, ⒈, ❸, ㉑): labels of statements or items, each its own number; NFKC would glue a run of
# them into one number ("②③" is statements 2 and 3, never 23)
_ENCLOSED_RUN_RE = regex.compile(r"[\u2460-\u24ff\u2776-\u2793\u3251-\u325f\u32b1-\u32bf]+")


def _enclosed_numbers(m: regex.Match) -> str:
    values = [unicodedata.numeric(c, None) for c in m[0]]
    if any(v is None for v in values):
        return m[0]  # enclosed letters (ⓐ) are left to NFKC
    return ", ".join(str(int(v)) for v in values)  # type: ignore[arg-type]


def _superscript(m: regex.Match) -> str:
    return "^{" + m[0].translate(_SUPERSCRIPTS) + "}"


def _subscript(m: regex.Match) -> str:
    return "_{" + m[0].translate(_SUBSCRIPTS) + "}"


def _vulgar(m: regex.Match) -> str:
    numerator, _slash, denominator = unicodedata.normalize("NFKC", m[0]).partition("⁄")
    return f"\\frac{{{numerator}}}{{{denominator}}}"


def remove_invisible(text: str) -> str:
    """Invisible operators become a space; other format characters (zero-width, BOM) are removed."""
    if text.isascii():
        return text
    return _FORMAT_CHAR_RE.sub("", _INVISIBLE_OPERATORS_RE.sub(" ", text, timeout=REGEX_TIMEOUT_S), timeout=REGEX_TIMEOUT_S)


def fold_math_unicode(text: str) -> str:
    """Unicode maths as LaTeX, then NFKC (fullwidth and mathematical digits become ASCII digits).

    Digits of other scripts are the digits they are: ``١٢`` (Arabic-Indic), ``१२`` (Devanagari) and ``۱۲``
    (Persian) are 12. A Greek word keeps its letters (``μήλα`` is a word, ``μ`` alone the macro).
    """
    s = remove_invisible(text)
    if s.isascii():
        return s  # every pattern below reads characters outside ASCII, and NFKC keeps ASCII as it is
    s = _ENCLOSED_RUN_RE.sub(_enclosed_numbers, s, timeout=REGEX_TIMEOUT_S)
    s = _OTHER_DIGIT_RE.sub(lambda m: str(unicodedata.digit(m[0])), s, timeout=REGEX_TIMEOUT_S)
    s = _SUPERSCRIPT_RUN_RE.sub(_superscript, s, timeout=REGEX_TIMEOUT_S)
    s = _SUBSCRIPT_RUN_RE.sub(_subscript, s, timeout=REGEX_TIMEOUT_S)
    s = _VULGAR_RE.sub(_vulgar, s, timeout=REGEX_TIMEOUT_S)
    s = _SYMBOL_RE.sub(lambda m: _SYMBOLS[m[0]], s, timeout=REGEX_TIMEOUT_S)
    s = _CURRENCY_RE.sub("", s, timeout=REGEX_TIMEOUT_S)
    return unicodedata.normalize("NFKC", s)


# Look-alikes of Latin letters (Cyrillic and Greek), one character to one, so positions are kept.
_CONFUSABLES = str.maketrans(
    "АВЕКМНОРСТХаеорсуххіјѕԁԛԝһӏΑΒΕΖΗΙΚΜΝΟΡΤΥΧοϲν",
    "ABEKMHOPCTXaeopcyxxijsdqwhlABEZHIKMNOPTYXocv",
)


_CONFUSABLE_SET = frozenset("АВЕКМНОРСТХаеорсуххіјѕԁԛԝһӏΑΒΕΖΗΙΚΜΝΟΡΤΥΧοϲν")
_WORD_RE = regex.compile(r"\p{L}+")


def _fold_word(m: regex.Match) -> str:
    word = m[0]
    if word.isascii() or not any(c in _CONFUSABLE_SET for c in word):
        return word
    # a word of Latin letters with look-alikes in it ("Аnswer"), or made only of look-alikes ("ВОХ"),
    # is a disguised Latin word; a Greek or Cyrillic word ("απάντηση", "ответ") keeps its letters
    if any("a" <= c.lower() <= "z" for c in word) or all(c in _CONFUSABLE_SET for c in word):
        return word.translate(_CONFUSABLES)
    return word


# the fullwidth forms of ASCII (U+FF01-FF5E) and the ideographic space, one character to one
_FULLWIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


def fold_fullwidth(text: str) -> str:
    """``x＝2，y＝－1`` as ``x=2,y=-1``: CJK text writes ASCII's signs in fullwidth; each stays one character,
    so positions stay valid (NFKC would do this too, but also fold ``5³`` into ``53``)."""
    return text if text.isascii() else text.translate(_FULLWIDTH)


def fold_confusables(text: str) -> str:
    """``text`` with disguised Latin words spelt in Latin (same length: positions stay valid)."""
    return text if text.isascii() else _WORD_RE.sub(_fold_word, text, timeout=REGEX_TIMEOUT_S)


# End-of-turn markers of common chat templates: text after one is not part of the response
_TURN_END_RE = regex.compile(
    r"<\|im_end\|>|<\|im_start\|>|<\|eot_id\|>|<\|endoftext\|>|<\|end\|>|</s>|<｜end▁of▁sentence｜>|"
    r"<\|end_of_text\|>|<end_of_turn>|<\|start_header_id\|>")


def cut_at_turn_end(text: str) -> str:
    """The response up to its first end-of-turn token (a model that runs on invents the next turn)."""
    for m in _TURN_END_RE.finditer(text, timeout=REGEX_TIMEOUT_S):
        bos = len(text) - len(text.lstrip()) + 3 if text.lstrip().startswith("<s>") else 0  # Llama's "<s>" opening
        if m[0] == "</s>" and text.count("<s>", bos, m.start()) > text.count("</s>", 0, m.start()):
            continue  # the close of an HTML strike-through "<s>41</s>", not Llama's end of sequence
        if text[:m.start()].strip():  # a template's opening tokens before any text are not an end
            return text[:m.start()]
    return text


# a control character where a TeX macro began: a string written without escaping its backslashes (JSON, a Python
# literal) turns "\frac" into a form feed and "rac", "\text" into a tab and "ext", "\boxed" into a backspace
_LOST_BACKSLASH = {"\a": "a", "\b": "b", "\v": "v", "\f": "f", "\t": "t", "\r": "r"}
_LOST_BACKSLASH_RE = regex.compile(r"(\\?)([\a\b\v\f])(?=[a-z])")
_LOST_BACKSLASH_OR_TAB_RE = regex.compile(r"(\\?)([\a\b\v\f\t\r])(?=[a-z])")


def restore_escapes(text: str, gold: bool = False) -> str:
    r"""``text`` with the TeX macros an unescaped string turned into control characters written back (a form feed
    and "rac" is "\frac"; after a backslash the character is the macro's letter: "\" and a form feed was "\f").
    Bell, backspace, vertical tab and form feed are never text, so every answer is mended; a tab or a carriage return
    before letters ("\textcirc", "\right") only in a ``gold``, which is data. A gold cut short ("90^") is not
    guessed at: what followed is lost."""
    pattern = _LOST_BACKSLASH_OR_TAB_RE if gold else _LOST_BACKSLASH_RE
    if any(c in text for c in _LOST_BACKSLASH):
        text = pattern.sub(lambda m: "\\" + _LOST_BACKSLASH[m[2]], text, timeout=REGEX_TIMEOUT_S)
    return text
