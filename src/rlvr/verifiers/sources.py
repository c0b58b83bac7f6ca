"""The built-in answer sources: where a completion states its final answer.

Each source is ``f(text, regex_timeout_s) -> [(content, start, end), ...]`` over the gradable text
(reasoning removed, length capped), every occurrence in order; :mod:`rlvr.verifiers.extraction`
registers them under their names and applies the one-final-answer policy. Every regex runs with a
timeout on capped text.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import regex

from rlvr.verifiers.normalize import find_boxed

__all__ = ["Candidate", "clean", "boxed", "tag_source", "answer_line", "hash_answer", "final_answer_phrase",
           "bare_answer", "prose_answer"]

#: (content, start, end) of one answer occurrence in the searched text
Candidate = tuple[str, int, int]
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
_PHRASE_RE = regex.compile(r"(?i)\bthe[ \t]+(?:(?:final|correct|right)[ \t]+)?answer[ \t]+is[ \t]*:?[ \t]*([^\n]+)")


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
        elif stated := _prose_value(_first_sentence(content[:_SENTENCE_SCAN], timeout), timeout):
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


_PROSE_SCAN = 800  # the last this-many characters are read for a final sentence
_MATH_SPAN_RE = regex.compile(r"\$\$(.+?)\$\$|\$([^$]+)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", regex.DOTALL)
# a number in prose: sign, digits with thousands groups, decimals (also "2,74") or a fraction, percent; a number
# glued to letters (2x, 3rd, x2) is not a value
_PROSE_NUMBER_RE = regex.compile(
    r"(?<![A-Za-z0-9])\([A-E]\)(?![A-Za-z0-9])|(?<![A-Za-z0-9.,/^_])[-+−]?(?>[0-9]+,[0-9]{1,2}(?![0-9])|[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?)(?:/[0-9]+)?(?:[ ]?%)?(?![0-9^_]|\.[0-9]|/[0-9]|[A-Za-z](?![A-Za-z²³]))")
_PROSE_VALUE_HINT_RE = regex.compile(r"[0-9$]|\\\(|\\\[|\([A-E]\)")
_UNSURE_RE = regex.compile(
    r"(?i)\b(?:not|never|no|maybe|perhaps|possibly|probably|presumably|might|guess|unsure|uncertain|unclear|approximately|about|"
    r"roughly|around|either)\b|n't\b|不是|也许|可能|大约")
_HEDGE_RE = regex.compile(
    r"(?i)\b(?:maybe|perhaps|possibly|probably|presumably|might|guess|unsure|uncertain|unclear|approximately|about|"
    r"roughly|around|either|or|nor|neither)\b|也许|可能|大约")
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


def _prose_value(sentence: str, timeout: float) -> tuple[str, int] | None:
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
        for i, m in enumerate(numbers):
            if _operand_of_chain(sentence, numbers, i, timeout):
                continue  # "3 + 10 = 13": 3 and 10 are worked steps, 13 is the stated value
            found.append((m[0].replace("−", "-"), offset + m.start(), offset + m.end()))
    return found


def _operand_of_chain(sentence: str, numbers: list[regex.Match], i: int, timeout: float) -> bool:
    """Whether number ``i`` is a step of a true worked chain ("3 + 10 = 13") that ends in a later number.

    The chain runs through operator gaps only and must hold arithmetically: "5 = 6" states two values.
    """
    first = i
    while first > 0 and _OPERATOR_GAP_RE.fullmatch(sentence[numbers[first - 1].end():numbers[first].start()],
                                                   timeout=timeout):
        first -= 1
    last, equals = i, False
    while last + 1 < len(numbers):
        gap = sentence[numbers[last].end():numbers[last + 1].start()]
        if not _OPERATOR_GAP_RE.fullmatch(gap, timeout=timeout):
            break
        equals = equals or "=" in gap
        last += 1
    if not equals:
        return False
    chain = sentence[numbers[first].start():numbers[last].end()]
    return _chain_holds(chain)


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
