"""The strict policy's second half: after the final answer nothing may state another value.

Read sentence by sentence from the end of the final answer (the rest of its own sentence included,
and code blocks too: a reader sees them). A sentence conflicts with the answer when it

- denies it: a negation next to its value ("not 42", "42 is wrong", "instead of 42"), or a
  reference to it with a negative evaluation ("This is not the correct answer", "(wrong)"), or a
  retraction cue right after it with no value ("…, just kidding");
- retracts it: a retraction cue, then another value ("wait, actually 41", "Чекайте, … 41");
- offers an alternative: another value with an alternative or hedge word ("or 41", "41 is equally
  plausible"), in a question ("(41?)") or under a condition right after the answer ("(41 if …)");
- claims another value: after an answer word, a conclusion word or a result verb ("so it is 41",
  "the count comes out to 41"), or as a sentence of little more than the value ("Just kidding, 41.").

Labelled values of other quantities ("attained at $x = 2$", "Rows: 6", "Confidence: 95%"), headings
and approximations that agree with the answer at their own precision are not claims. Values are
read with number words and the digits of other scripts folded, since a value written "forty-one"
or "٤١" changes the answer as much as "41" does (here reading more only refuses more).
"""

from __future__ import annotations

import regex

from rlvr.verifiers.choices import answer_choice, choice_letter, offered_in_review, option_review, other_choices
from rlvr.verifiers.document import Document
from rlvr.verifiers.prose import sentences, stated_values
from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.remarks import comes_to
from rlvr.verifiers.later_working import EXPLANATION_RE, MONEY_ANYWHERE_RE
from rlvr.verifiers.slots import Slot, clean
from rlvr.verifiers.trace import Finding
from rlvr.verifiers.units import unit_after
from rlvr.verifiers.later_reader import (
    DENIAL, DOUBTED, HEDGED_LATER, JUDGED_RE, LATER_STATEMENT, OTHER_CHOICE, RETRACTION, SentenceReader, label_key,
)

__all__ = ["check_later", "LATER_STATEMENT", "RETRACTION", "DENIAL", "HEDGED_LATER", "OTHER_CHOICE", "DOUBTED"]

# the name an answer is given right before its slot: "x = \\boxed{5}", "$m+n = \\boxed{7}$", "a_1 = \\boxed{2}"
_BOX_LABEL_RE = regex.compile(r"(?<![A-Za-z\\])((?:[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?)(?:\s*[-+]\s*[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?)*)"
                           r"\s*=\s*(?:\$|\\\(|\\\[)?\s*$")
_LABEL_NAME = _BOX_LABEL_RE.pattern[:_BOX_LABEL_RE.pattern.index(r"\s*=\s*(?:")]
_SIGN_IN_NAME_RE = regex.compile(r"[-+]")
# "\\boxed{17} = x": the name given after the box, as "x = \\boxed{17}" gives it before (a later "x = 18" claims)
_NAMED_AFTER_RE = regex.compile(r"\s*=\s*" + _LABEL_NAME + r"\s*(?:\$|\\\)|\\\]|\\end\s*\{|[.,;]|$)")
# what may stand between the equation and its box: a heading or label of the final answer ("**Final Answer**",
# "The final answer is")
_ANSWER_INTRO = r"(?:[\s*#:]|(?i:the|final|answer|is)(?![A-Za-z]))*"
_CARRIED_RE = regex.compile(r"(?r)" + _LABEL_NAME + r"\s*=\s*(?:[^=\n$]{0,40}=\s*)*(?P<value>[^=\n$]{1,40}?)\s*(?:\$\$|\$|\\\)|\\\])?"
                            r"\s*[.,;]?" + _ANSWER_INTRO + r"(?:\$\$|\$|\\\(|\\\[)?\s*$")
_DIGIT_RE = regex.compile(r"[0-9]")
# an answer that is one named value ("x = 4"): its name, which a later "x = 5" gives another value
_SELF_NAMED_RE = regex.compile(_LABEL_NAME + r"\s*=\s*[^=,;]+$")
_VALUE_LIKE_RE = regex.compile(r"[0-9$\\]|\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten)\s*[.!]?\s*$", regex.I)
_HEADING_WORD_RE = regex.compile(r"\p{L}{2,}")
_MAX_TAIL = 6000  # a final answer followed by more than this is read for its first 6,000 characters
_WORD_CHAR_RE = regex.compile(r"[\p{L}\p{N}]")
_SENTENCE_END_RE = regex.compile(r"[.!?。！？\n]")
_ASKED_RE = regex.compile(r"[?？][\s*_)]*$")


def _carried_label(view: str, start: int, answer: str, timeout: float) -> regex.Match | None:
    """The name a box on its own takes from the equation that ends right before it ("$m + n = 3 + 4 = 7$.
    \\n\\n$\\boxed{7}$" names the box m + n), as a box written after that name would ("m + n = \\boxed{7}").
    Only a name of several letters joined by signs ("m + n"): "N = 41." above a box is as likely the asked
    quantity itself, which a later sentence may name in words."""
    if not answer or len(answer) > 40:
        return None
    before = view[max(0, start - 200):start]
    if "=" not in before or not _SIGN_IN_NAME_RE.search(before, timeout=timeout):
        return None
    found = _CARRIED_RE.search(before, timeout=timeout)
    if found is None or found["value"].strip() != answer.strip() or not _SIGN_IN_NAME_RE.search(found[1], timeout=timeout):
        return None
    return found


_NON_BLANK_RE = regex.compile(r"\S")


def _tail_end(view: str, end: int) -> int:
    """Where the read tail after the final answer stops: ``_MAX_TAIL`` characters on, or further when blanks fill
    them (thousands of spaces before "or 41" are no reason to stop reading), at most ``_MAX_TAIL`` non-blank ones."""
    stop = end + _MAX_TAIL
    if stop >= len(view) or len(view[end:stop].split()) > _MAX_TAIL // 50:
        return stop  # the usual tail: words in it, or the text ends within it
    seen = 0
    for m in _NON_BLANK_RE.finditer(view, end, timeout=REGEX_TIMEOUT_S):
        seen += 1
        if seen >= _MAX_TAIL:
            return m.end()
    return len(view)


def check_later(doc: Document, later_slots: list[list[Slot]], final: Slot, answer: str, timeout: float) -> Finding | None:
    """After the final answer nothing may state another value (the strict policy).

    ``later_slots``: the slots after the final one, grouped by place, not stated together with it.
    """
    label = _BOX_LABEL_RE.search(doc.view, max(0, final.start - 40), final.start, timeout=timeout) \
        or _carried_label(doc.view, final.start, answer, timeout) \
        or _NAMED_AFTER_RE.match(doc.view, final.end, min(len(doc.view), final.end + 40), timeout=timeout)
    if label is None:  # "Answer: x = 4": the answer names itself
        label = _SELF_NAMED_RE.match(clean(answer), timeout=timeout)
    reader = SentenceReader(answer, timeout, unit_after(doc.view, final.end, timeout), label_key(label[1]) if label else None)
    for group in later_slots:
        value = min(group, key=lambda s: s.value[1] - s.value[0]).content
        if reader.choice and choice_letter(clean(value)) is None:
            continue  # "\\boxed{C}" then "The result is 3/4, choice (C)": the option's value, not another option
        if _DIGIT_RE.search(answer, timeout=timeout) and not _VALUE_LIKE_RE.search(value, timeout=timeout):
            continue  # "The answer is the same for either table": words, no value, against a numeric answer
        if group[0].kind == "final_answer_phrase" and JUDGED_RE.match(value, timeout=timeout):
            continue  # "The answer is reasonable, since she sells about 10 eggs": a judgment of it, not another answer
        if reader.number is not None and comes_to(head := first_clause(value), reader.number) \
                and not reader.other(reader.values(value[len(head):], roles=False)):
            continue  # "The answer is simply $6 \\times 7$.", "The answer is $5!$, since …": the answer worked out
        if not reader.owns(value) and not any(reader.owns(v) for v in stated_values(value, timeout)):
            return Finding(LATER_STATEMENT, f"{final.kind} says {clean(answer)!r} but a later {group[0].kind} says "
                           f"{clean(value)!r}", (clean(value),))
    end = final.end
    span = doc.math_span(final.start)
    if span is not None:
        end = max(end, span[1])  # what follows the box inside its own math span is the box context's to judge
    tail = doc.view[end:_tail_end(doc.view, end)]
    reader.explaining = EXPLANATION_RE.match(tail, timeout=timeout) is not None
    reader.working = doc.view[max(0, final.start - _MAX_TAIL):final.start]
    around = doc.view[max(0, final.start - 3):min(len(doc.view), final.end + 12)]
    reader.money = bool(MONEY_ANYWHERE_RE.search(around, timeout=timeout))
    code = [doc.text[a:b] for f in doc.fences if f.start >= end for a, b in [f.content]]
    choice = answer_choice(clean(answer))
    headings = [(h.start - end, h.end - end) for h in doc.headings if h.start >= end]
    for text, offset in [(tail, 0)] + [(c, None) for c in code]:
        if not _WORD_CHAR_RE.search(text, timeout=timeout):
            continue
        worded = 0  # sentences with words read so far: "first" is the first of them ("." alone is no sentence)
        spans = sentences(text, timeout)
        review = bool(choice) and option_review([text[a:b] for a, b in spans], choice, timeout)
        for a, b in spans:
            index = worded
            if _WORD_CHAR_RE.search(text, a, b, timeout=timeout):
                worded += 1
            if offset is not None and any(ha <= a and b <= hb + 1 for ha, hb in headings) \
                    and _HEADING_WORD_RE.search(text, a, b, timeout=timeout):
                continue  # a heading names a section ("### Final Answer"); one of a bare value ("#### 41") states it
            sentence = text[a:b]
            if choice and (not review or offered_in_review(sentence, timeout)):
                letter = other_choices(sentence, choice, timeout)
                if letter:
                    return Finding(OTHER_CHOICE, f"after the choice {choice} the completion offers {letter} too "
                                   f"({sentence.strip()[:60]!r})")
            if offset is not None and (finding := _marked_value(reader, sentence, timeout)):
                return finding
            first = offset is not None and index == 0 and a < 6
            finding = reader.sentence(sentence, first, separate=first and bool(_SENTENCE_END_RE.search(text, 0, a, timeout=timeout)),
                                      answers_question=bool(_ASKED_RE.search(text, max(0, a - 8), a, timeout=timeout)))
            if finding:
                return _with_units(finding, sentence, timeout)
    return None


_CLAUSE_CUT_RE = regex.compile(r",\s|;|\s(?:since|because|as|which|the number of)\s")


def first_clause(text: str) -> str:
    """``text`` up to its first clause break ("$5!$, since we arrange 5 books" -> "$5!$")."""
    m = _CLAUSE_CUT_RE.search(text, timeout=REGEX_TIMEOUT_S)
    return text[:m.start()] if m else text


# GSM8K's answer marker where no heading begins ("\\boxed{(9, 25)}. #### (16, 17)"): what follows it is a value
_MARKED_VALUE_RE = regex.compile(r"\s*####[ \t]+([^\n#]{1,200})")


def _marked_value(reader: SentenceReader, sentence: str, timeout: float) -> Finding | None:
    """A later ``#### value`` in running text that states another value than the answer."""
    m = _MARKED_VALUE_RE.match(sentence, timeout=timeout)
    value = clean(m[1]) if m else ""
    if not value or not _VALUE_LIKE_RE.search(value, timeout=timeout) and choice_letter(value) is None:
        return None
    if reader.owns(value) or any(reader.owns(v) for v in stated_values(value, timeout)):
        return None
    return Finding(LATER_STATEMENT, f"the final answer {clean(reader.answer)!r} is followed by {value!r} after "
                   "a '####'", (value,))


_PLAIN_VALUE_RE = regex.compile(r"[-+]?[0-9]+(?:\.[0-9]+)?")


def _with_units(finding: Finding, sentence: str, timeout: float) -> Finding:
    """Each other value with the unit the sentence gives it ("or 120 minutes" -> ``120\\text{ minutes}``), so
    that the reconciler can tell a restatement in other units from another value."""
    def unit_of(value: str) -> str:
        at = sentence.find(value)
        unit = unit_after(sentence, at + len(value), timeout) if at >= 0 and _PLAIN_VALUE_RE.fullmatch(value, timeout=timeout) else None
        return f"{value}\\text{{ {unit}}}" if unit else value

    if not finding.others:
        return finding
    return finding._replace(others=tuple(unit_of(v) for v in finding.others),
                               approximate=tuple(unit_of(v) for v in finding.approximate))
