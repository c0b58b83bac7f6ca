"""The last-resort answer source: the value a completion's final prose sentence states.

Model outputs often end in a sentence instead of an answer slot ("So the area is 48 cm.",
"因此，一共有3 + 10 = 13只鸟。"). The sentence's values are narrowed step by step (conclusion clause,
worked chain, bold value, a single "is"); a hedge, an unattached negation or values left over
mean no single answer. Regexes run with a timeout on the capped tail of the text; worked chains
are evaluated with exact fractions, never with ``eval``.
"""

from __future__ import annotations

from fractions import Fraction

import regex

__all__ = ["Candidate", "prose_answer", "sentence_value"]

#: (content, start, end) of one answer occurrence in the searched text
Candidate = tuple[str, int, int]

_PROSE_WORD_RE = regex.compile(r"(?<![\\A-Za-z])[A-Za-z]{4,}")
_PROSE_SCAN = 800  # the last this-many characters are read for a final sentence
_MATH_SPAN_RE = regex.compile(r"\$\$(.+?)\$\$|\$([^$]+)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", regex.DOTALL)
# a number in prose: sign, digits with thousands groups, decimals (also "2,74") or a fraction, percent; a number
# glued to letters (2x, 3rd, x2) is not a value
_PROSE_NUMBER_RE = regex.compile(
    r"(?<![A-Za-z0-9])\([A-E]\)(?![A-Za-z0-9])|(?<![A-Za-z0-9.,/^_])[-+−]?(?>[0-9]+,[0-9]{1,2}(?![0-9])|[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?)(?:/[0-9]+)?(?:[ ]?%)?(?![0-9^_]|\.[0-9]|/[0-9]|[A-Za-z](?![A-Za-z²³]))")
_PROSE_VALUE_HINT_RE = regex.compile(r"[0-9$]|\\\(|\\\[|\([A-E]\)")
# hedges state no answer; negations deny a value (see _left_after_negations)
_HEDGES = (r"maybe|perhaps|possibly|probably|presumably|might|guess|unsure|uncertain|unclear|approximately|about|"
           r"roughly|around|either")
_HEDGE_RE = regex.compile(r"(?i)\b(?:" + _HEDGES + r"|or|nor|neither)\b|也许|可能|大约")
_UNSURE_RE = regex.compile(r"(?i)\b(?:not|never|no|" + _HEDGES + r")\b|n't\b|不是|也许|可能|大约")
_NEGATION_RE = regex.compile(r"(?i)\b(?:not|never|no)\b|n't\b|不是")
# "not 10", "isn't equal to 10": the value right after; "10 is not the answer", "10 isn't right": the one before
_NEGATES_NEXT_RE = regex.compile(r"(?i)(?:\bnot|n't)\s+(?:(?:equal\s+to|be|equals?)\s+)?$")
_NEGATED_BY_NEXT_RE = regex.compile(r"(?i)^\s*(?:is|was)\s*(?:not\b|n't\b)|^\s*(?:isn't|wasn't)\b")
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


def prose_answer(text: str, timeout: float) -> list[Candidate]:
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
        if not _PROSE_VALUE_HINT_RE.search(sentence, timeout=timeout):
            continue  # no value here ("I hope it is correct."): look one sentence back
        if sentence.rstrip().endswith(("?", "？")):
            return []  # a question states no answer ("12?")
        if _NEGATION_RE.search(sentence, timeout=timeout):
            return _left_after_negations(sentence, base + start, timeout)
        if _UNSURE_RE.search(sentence, timeout=timeout):
            return []  # a hedge states no answer ("Maybe 12.", "about 12")
        found = _stated_values(sentence, base + start, timeout)
        if found:
            return found
    return []


def _left_after_negations(sentence: str, offset: int, timeout: float) -> list[Candidate]:
    """The one value a sentence with negations still states: "it's not 10, it's 1,000.99" states 1,000.99.

    Each negation must deny a value next to it ("not 10", "10 is not the answer"); a negation that
    denies nothing nameable ("no", "never", "not sure"), a hedge or an "or" beside it, or anything
    but exactly one value left over, states no answer.
    """
    if _HEDGE_RE.search(sentence, timeout=timeout):
        return []
    values = _sentence_values(sentence, 0, timeout)
    denied: set[int] = set()
    for m in _NEGATION_RE.finditer(sentence, timeout=timeout):
        after = next((i for i, (_c, s, _e) in enumerate(values) if s >= m.end()), None)
        before = next((i for i, (_c, _s, e) in reversed(list(enumerate(values))) if e <= m.start()), None)
        if after is not None and _NEGATES_NEXT_RE.search(sentence[m.start():values[after][1]], timeout=timeout):
            denied.add(after)
        elif before is not None and _NEGATED_BY_NEXT_RE.search(sentence[values[before][2]:m.end()], timeout=timeout):
            denied.add(before)
        else:
            return []
    left = [v for i, v in enumerate(values) if i not in denied]
    if len({content for content, _s, _e in left}) != 1:
        return []
    return [(content, offset + s, offset + e) for content, s, e in left]


# words that open a sentence's conclusion: "…, so 3 + 10 = 13", "因此…", "لذا…", "इसलिए…", "donc…"
_CONCLUSION_RE = regex.compile(
    r"(?i)\b(?:therefore|thus|hence|so|in conclusion|finally|donc|ainsi|en conclusion|por lo tanto|entonces|"
    r"also|daher|somit|поэтому|итак|следовательно)\b|所以|因此|因而|综上|故|したがって|よって|لذا|لذلك|إذن|इसलिए|अतः")
_BOLD_RE = regex.compile(r"\*\*([^*\n]{1,80})\*\*")
_OPERATOR_GAP_RE = regex.compile(r"\s*(?:[-+*/×÷·=]|\\times|\\cdot|\\div)\s*")


def _stated_values(sentence: str, offset: int, timeout: float) -> list[Candidate]:
    """The values a prose sentence states as its result, narrowed step by step while several remain.

    The clause after the last conclusion word ("so", "因此", "لذا") if it holds a value; there, the
    result of a worked chain ("3 + 10 = 13" states 13); then a single bold value ("**92**"); then
    what follows a single "is". What is still several values is several answers.
    """
    clause_start = 0
    for m in _CONCLUSION_RE.finditer(sentence, timeout=timeout):
        if _PROSE_VALUE_HINT_RE.search(sentence, m.end(), timeout=timeout):
            clause_start = m.end()
    clause = sentence[clause_start:]
    offset += clause_start
    found = _sentence_values(clause, offset, timeout)
    if len({content for content, _s, _e in found}) > 1:
        bold = [c for m in _BOLD_RE.finditer(clause, timeout=timeout)
                for c in _sentence_values(m[1], offset + m.start(1), timeout)]
        if len({content for content, _s, _e in bold}) == 1:
            return bold
        verb = _single_is(clause, timeout)
        stated = _sentence_values(clause[verb:], offset + verb, timeout) if verb else []
        found = stated or found
    return found


_IS_RE = regex.compile(r"(?i)\bis\b")


def sentence_value(sentence: str, timeout: float) -> tuple[str, int] | None:
    """(value, end) when ``sentence`` is prose that states exactly one value; ``None`` otherwise.

    An answer line that is a sentence ("Jane started growing Sphere 3 hours ago") answers with its
    one number; math-only content, a sentence with several values or a hedge is left as it is.
    """
    if len(_PROSE_WORD_RE.findall(_MATH_SPAN_RE.sub(" ", sentence), timeout=timeout)) < 2 \
            or _UNSURE_RE.search(sentence, timeout=timeout):
        return None
    values = _sentence_values(sentence, 0, timeout)
    if len({content for content, _s, _e in values}) != 1:
        return None
    return values[-1][0], len(sentence)


def _sentence_values(sentence: str, offset: int, timeout: float) -> list[Candidate]:
    """The values a prose sentence states: its math spans, or without any, its numbers."""
    found = []
    for m in _MATH_SPAN_RE.finditer(sentence, timeout=timeout):
        content = next(g for g in m.groups() if g is not None)
        found.append((content, offset + m.start(), offset + m.end()))
    if not found:
        numbers = list(_PROSE_NUMBER_RE.finditer(sentence, timeout=timeout))
        steps = _chain_operands(sentence, numbers, timeout)
        for i, m in enumerate(numbers):
            if i not in steps:  # "3 + 10 = 13": 3 and 10 are worked steps, 13 is the stated value
                found.append((m[0].replace("−", "-"), offset + m.start(), offset + m.end()))
    return found


def _chain_operands(sentence: str, numbers: list[regex.Match], timeout: float) -> set[int]:
    """Indexes of the numbers that are steps of a true worked chain ("3 + 10 = 13" leaves 13).

    A chain is a run of numbers joined only by operators, with at least one "="; it must hold
    arithmetically ("5 = 6" states two values). Its steps are the numbers before its last "=".
    """
    steps: set[int] = set()
    first = 0
    while first < len(numbers):
        last, last_equals = first, None
        while last + 1 < len(numbers):
            gap = sentence[numbers[last].end():numbers[last + 1].start()]
            if not _OPERATOR_GAP_RE.fullmatch(gap, timeout=timeout):
                break
            last += 1
            if "=" in gap:
                last_equals = last
        if last_equals is not None and _chain_holds(sentence[numbers[first].start():numbers[last].end()]):
            steps.update(range(first, last_equals))
        first = last + 1
    return steps


_CHAIN_TOKEN_RE = regex.compile(r"\s*(?:([0-9]{1,30}(?:\.[0-9]{1,30})?)|([-+*/×÷·=]|\\times|\\cdot|\\div))")
_CHAIN_OPS = {"×": "*", "·": "*", "\\times": "*", "\\cdot": "*", "÷": "/", "\\div": "/"}


def _chain_holds(chain: str) -> bool:
    """Whether every side of ``a op b = c = …`` (plain non-negative numbers, + - * /) has one value.

    Evaluated with exact fractions and the usual precedence, never with ``eval``; anything else
    (signs, percent, more than 20 terms, long numbers) does not count as a chain.
    """
    tokens, pos = [], 0
    text = chain.replace(",", "")  # 1,000 is one number here (the prose number pattern kept it whole)
    while pos < len(text):
        m = _CHAIN_TOKEN_RE.match(text, pos)
        if not m or m.end() == pos:
            return False
        tokens.append(Fraction(m[1]) if m[1] else _CHAIN_OPS.get(m[2], m[2]))
        pos = m.end()
    if len(tokens) > 41 or any(isinstance(t, Fraction) and t > 10 ** 30 for t in tokens):
        return False
    sides, side = [], []
    for t in tokens + ["="]:
        if t == "=":
            value = _evaluate(side)
            if value is None:
                return False
            sides.append(value)
            side = []
        else:
            side.append(t)
    return len(sides) > 1 and all(v == sides[-1] for v in sides)


def _evaluate(tokens: list) -> Fraction | None:
    """``n (op n)*`` with * and / before + and -; ``None`` when malformed or dividing by zero."""
    if not tokens or len(tokens) % 2 == 0:
        return None
    terms, ops = [tokens[0]], []
    for op, value in zip(tokens[1::2], tokens[2::2]):
        if not isinstance(value, Fraction) or isinstance(op, Fraction):
            return None
        if op in "*/":
            if op == "/" and value == 0:
                return None
            terms[-1] = terms[-1] * value if op == "*" else terms[-1] / value
        else:
            terms.append(value)
            ops.append(op)
    if not isinstance(terms[0], Fraction):
        return None
    total = terms[0]
    for op, value in zip(ops, terms[1:]):
        total = total + value if op == "+" else total - value
    return total


def _single_is(sentence: str, timeout: float) -> int | None:
    """Where the text after a sentence's only "is" (outside math) begins; ``None`` for zero or several.

    Several "is" may state several values ("x is 5 and y is 6"), so only a single one names the
    value the sentence concludes with.
    """
    math = [m.span() for m in _MATH_SPAN_RE.finditer(sentence, timeout=timeout)]
    verbs = [m.end() for m in _IS_RE.finditer(sentence, timeout=timeout)
             if not any(a <= m.start() < b for a, b in math)]
    return verbs[0] if len(verbs) == 1 else None
