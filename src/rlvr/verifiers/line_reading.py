"""How the text of one answer line is read: where its first sentence ends (not at a decimal point, inside
math or after "i.e."), the remark after its value, and where an opening value ends when the line goes on to a
statement of its own ("Answer: 41 So it is 42"). Shared by the slot finders and the commitment checks."""

from __future__ import annotations

import regex

from rlvr.verifiers.currencies import is_currency
from rlvr.verifiers.repeating import ENDS_IN_DECIMAL_DOTS_RE

from rlvr.verifiers.lexicon import ALTERNATIVE_WORDS, words_pattern

__all__ = ["first_sentence", "line_lead", "lead_before_value", "LEAD_HINT_RE"]

_PERIOD_RE = regex.compile(r"\.(?:\s|$)|[。！？]")  # a full stop of CJK ends its sentence with no space after it
_MATH_DOLLAR_RE = regex.compile(r"(?<!\\)\$")  # a math delimiter, not an escaped currency sign ("\\$18")

_SIGN_BEFORE_RE = regex.compile(r"(?<![\p{L}])(\p{L}{1,4}\.?)$")
_AMOUNT_AFTER_RE = regex.compile(r"\s*[0-9]")
_SENTENCE_AFTER_RE = regex.compile(r"\s*(?:$|\n|\p{Lu}|\()")  # after a value's dots: a new sentence, or the end
_ABBREVIATION_RE = regex.compile(r"(?i)(?<![\p{L}])(?:i\.e|e\.g|i\.e\.|e\.g\.|approx|resp|cf|viz|etc|vs)\.$")
# a remark in parentheses after the answer: "42 (i.e. 6 · 7)", "42 (that is, 6 · 7)"
_REMARK_RE = regex.compile(r"(?i)\s*\((?:i\.\s?e\.?|e\.\s?g\.?|that is|namely|since|because|as)\b[^()]*\)?\s*$")
# what follows a value as a remark on it, never part of it: a parenthesis of words after a blank
# ("12 apples (3 baskets × 4 apples)", "ℝ (all real numbers)"), a spaced dash ("A — only option A works"),
# or a clause a conjunction opens after a comma ("2 apples, not 3, because …")
_TRAILING_REMARK_RE = regex.compile(
    r"(?<=\S)(?:\s+\((?=[^()]*\p{L}{3})[^()]*\)|\s+[—–]\s+\p{L}.*"
    r"|\s*,\s*(?:not|because|since|as|which|so|but|while|where|when|although|though|if|unless|given|i\.e\.|e\.g\.|"
    r"from|by|using|after|with|based\s+on)\b.*"
    # "18 because she sells 9 eggs", "$18 per day by selling 9 eggs": a reason or a means, without a comma
    r"|\s+(?:because|since)\s+\S.*|\s+(?:by|from|after|through)\s+\p{L}+ing\b.*)\s*$",
    regex.IGNORECASE | regex.DOTALL)


def first_sentence(text: str, timeout: float) -> str:
    """Text up to the first period outside ``$…$`` math (where a period is a decimal point)."""
    for m in _PERIOD_RE.finditer(text, timeout=timeout):
        if _ABBREVIATION_RE.search(text, max(0, m.start() - 6), m.start() + 1, timeout=timeout):
            continue  # "i.e.", "e.g.", "approx.": an abbreviation's period ends no sentence
        if (sign := _SIGN_BEFORE_RE.search(text, max(0, m.start() - 8), m.start() + 1, timeout=timeout)) \
                and is_currency(sign[1]) and _AMOUNT_AFTER_RE.match(text, m.end(), timeout=timeout):
            continue  # "Rs. 1,20,000": a currency's abbreviation before its amount
        if (text.count("$", 0, m.start()) - text.count("\\$", 0, m.start())) % 2 == 0:
            if ENDS_IN_DECIMAL_DOTS_RE.search(text, max(0, m.start() - 40), m.start() + 1, timeout=timeout):
                if not _SENTENCE_AFTER_RE.match(text, m.end(), timeout=timeout):
                    continue  # "0.333... or 0.5": the dots belong to the value and the sentence goes on
                return _without_remark(text[:m.start() + 1], timeout)  # "0.333...": the dots belong to the value
            answer = text[:m.start()]
            return _without_remark(answer, timeout)
    return _without_remark(text, timeout)


def _without_remark(answer: str, timeout: float) -> str:
    """An answer line's value without the remark that follows it (the remark is read as what comes after)."""
    cut = _REMARK_RE.sub("", answer, timeout=timeout) or answer
    if _MATH_DOLLAR_RE.search(cut, timeout=timeout) or "\\(" in cut:  # inside math a parenthesis belongs to the expression
        return cut
    return _TRAILING_REMARK_RE.sub("", cut, count=1, timeout=timeout).rstrip(" ,;") or cut


# -- a value that opens a line, then a statement of its own on that line ------------------------------
_LEAD_TOKEN_RE = regex.compile(r"\$[^$\n]{0,400}\$|\S+")
# what opens a new statement on the line: a capitalised word ("So", "Another", "Ответ"), a word of a script
# without case ("答案是"), a "####", a box or a tag
_STATEMENT_START_RE = regex.compile(r"\p{Lu}\p{Ll}|\p{Lo}|####|<[A-Za-z_]|\$?\\(?:boxed|fbox|framebox)(?![A-Za-z])|\{\"")
_LEAD_WORD_RE = regex.compile(r"\p{L}{2,}")
_LEAD_MATH_RE = regex.compile(r"\$[^$]*\$|\\[A-Za-z]+")
_LEAD_SEPARATOR_RE = regex.compile(r"[|,;:–—-]+")
LEAD_HINT_RE = regex.compile(r"[0-9]|\$[^$]|\\[A-Za-z]|(?<![\p{L}])[A-J](?![\p{L}])")  # a value, not a "\\[" alone
_OFFERED_WITH = words_pattern(ALTERNATIVE_WORDS)
_LEAD_TOKENS = 16  # a lead value is a few tokens ("41", "$\\frac{1}{2}$", "(3, 4)", "x = 5")


def line_lead(text: str, timeout: float, closed: bool = False) -> int | None:
    """Where the value ends when ``text`` (an answer line's text) opens with a value and then, on the same line,
    a statement of its own ("41 So it is 42", "-276 答案是276", "510509 #### -668", "41 Or 42"): the line states
    the value it opens with. ``None`` when a word comes first ("42 apples", "The answer is 3", "x = 5 cm").
    ``closed``: the text ends where another slot begins ("41 <answer>42</answer>"), which opens a statement."""
    end, line_end = None, text.find("\n")
    for i, m in enumerate(_LEAD_TOKEN_RE.finditer(text, 0, len(text) if line_end < 0 else line_end, timeout=timeout)):
        token = m[0]
        if _STATEMENT_START_RE.match(token, timeout=timeout):
            if _OFFERED_WITH.starts(text[m.start():m.start() + 40], timeout=timeout):
                return None  # "$x = 1$ 或 $x = 2$", "41 Or 42": values offered together, read (and judged) as one
            return end if end is not None and LEAD_HINT_RE.search(text, 0, end, timeout=timeout) else None
        if i >= _LEAD_TOKENS or _LEAD_WORD_RE.search(_LEAD_MATH_RE.sub(" ", token, timeout=timeout), timeout=timeout):
            return None  # a word: the line is one sentence, read as such
        if not _LEAD_SEPARATOR_RE.fullmatch(token, timeout=timeout):
            end = m.end()
    return end if closed and end is not None and LEAD_HINT_RE.search(text, 0, end, timeout=timeout) else None


def lead_before_value(raw: str, timeout: float) -> int | None:
    """Where an answer line's opening value ends when what follows it on the line names a value too ("41 Or
    42") or introduces one ("41 Putting this together:"); ``None`` for a unit or a word after it ("42 Dutzend", "1,5 Millionen Euro", "42 Apples")."""
    if raw.lstrip().startswith(("\\[", "$$")):
        return None
    lead = line_lead(raw, timeout)
    if lead is None:
        return None
    # a value after it, or a colon that introduces one below ("41 Putting this together:" above a display)
    return lead if LEAD_HINT_RE.search(raw, lead, timeout=timeout) or raw.rstrip().endswith((":", "：")) else None
