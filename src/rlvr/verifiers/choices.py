"""Option letters: a multiple-choice answer, the option text beside it, and other options offered later.

A choice answer is a letter A-J (``(C)``, ``\\text{(B)}``, ``c``; ten options, as MMLU-Pro has: past E
only a capital, since a lone lower-case f-j is a function or an index more often than an option); with its
option's text it still answers with the letter (``(C) 42``, ``C. x = 42``), unless that text names another option or offers
several (``(C) or (D)``, ``(A) through (E)``). After a choice answer, only another letter (or an option
named by its place: "the fourth option") is another answer; letters ruled out ("we eliminated A and B")
are not offered. Linear scans, each with the regex timeout.
"""

from __future__ import annotations

import unicodedata

import regex

from rlvr.verifiers.lexicon import (
    ADDING_WORDS, ALTERNATIVE_WORDS, HEDGE_WORDS, LIST_WORDS, NEGATIVE_EVALUATIONS, REJECTION_WORDS, RETRACTION_CUES, words_pattern,
)
from rlvr.verifiers.limits import REGEX_TIMEOUT_S

__all__ = ["answer_choice", "opens_with_option", "choice_letter", "choice_with_text", "option_text", "other_choices", "option_review", "offered_in_review", "CHOICE_LETTERS", "UPPER", "LOWER", "choice_letters"]

#: the option letters a choice answer may be: A-J in capitals, a-e in lower case (the one place that says so)
CHOICE_LETTERS = "ABCDEFGHIJ"
UPPER, LOWER = "A-J", "a-e"  # as regex character ranges
_CHOICE_LETTER_RE = regex.compile(rf"\s*(?:\\text(?:bf)?\{{)?\s*\(?([{UPPER}{LOWER}])\)?\s*\}}?\s*")
# a choice followed by its option's text: "(C) 42", "C. x = 42", "B: 7" answer with the letter
_CHOICE_WITH_TEXT_RE = regex.compile(
    rf"(?s)(?:(?i:option|choice)\s+)?(?:\(([{UPPER}{LOWER}])\)|([{UPPER}])[).:]|(?!I,)([{UPPER}]),(?=\s))\s+"
    # not a second letter ("(C) D"), unless it is statement I ("(C) I only", "(C) I and III") or the pronoun
    rf"(?!(?!I\s+\p{{Ll}}|I\s(?:.*\W)?[IVX]{{2,}}\b)\(?[{UPPER}{LOWER}][).:]?(?:\s|$))\S.*")
# what an option's text never holds: another option's label, or words that offer several options
_WRAPPER_NAMES_RE = regex.compile(r"\\[A-Za-z]+")
_LETTERS_RE = regex.compile(r"\p{L}+")
_OTHER_CHOICE_RE = regex.compile(rf"(?<![A-Za-z\\])\(?[{UPPER}{LOWER}]\)|(?<![A-Za-z\\])[{UPPER}][.:](?!\d)")
# a word of one or two small letters between two option letters: a conjunction ("o", "u", "y", "ou")
_JOINING_WORD_RE = regex.compile(r"\p{Ll}{1,2}")
# doubt, alternatives, or words that offer options beyond the text ("(C), maybe", "(C) 12 or 15", "(C) through E");
# words that join what the option's text says ("(C) Both I and III", "(E) All of the above") offer nothing:
# another option would have to be named, and a named letter refuses (below)
_SEVERAL_OPTIONS = frozenset(w for group in (ALTERNATIVE_WORDS, HEDGE_WORDS) for w in group if " " not in w) | \
    frozenset("any every through also either".split())
# a capital A-J standing alone in an option's text ("D" of "(C) or D"; not "H_2O", "B'", "f(A)")
_LONE_CAPITAL_RE = regex.compile(rf"(?<![\p{{L}}\\])([{UPPER}])(?![\p{{L}}_^0-9'’(\[{{])")
_LAST_WORD_RE = regex.compile(r"\p{L}+$")
# what joins another option to the answer's: a conjunction, an alternative, a hedge, a retraction ("I mean")
_JOINERS = frozenset(phrase.split()[-1].lower() for group in (ALTERNATIVE_WORDS, LIST_WORDS, HEDGE_WORDS, RETRACTION_CUES)
                     for phrase in group) | frozenset("think guess also either".split())
_PRONOUN_RE = regex.compile(r"(?<![\p{L}])I(?=\s+\p{Ll})")  # "(C) I think": the pronoun
_ROMAN_RE = regex.compile(r"[IVX]{2,}")  # "II", "III", "IV": statements numbered in roman, so "I" is one too
# "(d)", "D" (a capital on its own, not "E[X]" or "C_1"), a lone "b"-"d", "option a", "d)"; a lone "a" is
# an article and a lone "e" Euler's number; a capital after a number is its unit ("5 J", "32 °F")
_CHOICE_IN_TEXT_RE = regex.compile(rf"\(([{LOWER}{UPPER}])\)|(?<![\p{{L}}\\])(?<![0-9°][ ]?)([{UPPER}]|[b-d])(?![\p{{L}}\[(_^=])"
                                   rf"(?!\s*=)|(?i:(?:option|choice|answer)\s+)([a-j])\b|(?<![\p{{L}}\\(])([{LOWER}])(?=\s*\))")
_ARTICLE_A_RE = regex.compile(r"\s+[a-z]")
_PRONOUN_I_RE = regex.compile(r"['’]|\s+[a-z]")  # "I think", "I'm": the pronoun
_ORDINAL_OPTION_RE = regex.compile(
    r"(?i)\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|second[- ]to[- ]last|penultimate"
    r"|final|next|previous|other)"
    r"\s+(?:listed\s+)?(?:answer\s+)?(?:option|choice|alternative|one|entry|value)s?\b"
    # "the option after it", "the one right below it": an option named by where it stands
    r"|\b(?:option|choice|one|entry)\s+(?:right\s+|just\s+|directly\s+|immediately\s+)?"
    r"(?:after|before|below|above|under|beneath|next\s+to|beside)\s+(?:it|this|that|the\s+answer)\b")
_RULED_OUT = words_pattern(REJECTION_WORDS + NEGATIVE_EVALUATIONS + ("fail", "eliminating", "ruling out", "excluded",
                                                                  "exclude", "wrong", "incorrect"))
# "B, not D", "rather than C", "instead of (D)": a letter set aside, unless a condition or an offer follows
# ("if not D", "unless D", "not D, which also works")
_SET_ASIDE_RE = regex.compile(
    r"(?i)(?<!\b(?:if|iff|unless|or)\s+)\b(?:not|rather\s+than|instead\s+of)\s+(?:(?:option|choice|answer)\s+)?"
    rf"\(?(?-i:[{UPPER}])\)?(?![\p{{L}}])(?!\s*(?:,\s*)?(?:which|that|also|too|as\s+well|or)\b)")
# a sentence that opens with an option's label: "(D) double counts", "- B: too large", "Option A fails"
_LABEL_RE = regex.compile(rf"\s*(?:[-*•]\s*|\d+[.)]\s*)?(?:\*\*)?(?:(?i:option|choice)\s+\(?(?P<letter>[{UPPER}])\)?[.:]?"
                          rf"|\(?(?P<letter>[{UPPER}])(?:\)|[.:]|\s*[-–—]))(?:\*\*)?\s+\S")
# what an option's review says when it offers the option after all: a hedge, an alternative, "also", or what
# the negative evaluations deny ("incorrect" -> "correct", "not valid" -> "valid", "not the answer" -> "the answer")
_DENIALS_RE = regex.compile(r"(?:is |was )?(?:not |in(?=correct|valid))(?P<word>.+)|(?:doesn't|does not|didn't|won't) (?P<verb>\w+)")
_AFFIRMATIONS = tuple(dict.fromkeys(
    form for w in NEGATIVE_EVALUATIONS + REJECTION_WORDS if (m := _DENIALS_RE.fullmatch(w, timeout=REGEX_TIMEOUT_S))
    for form in ((m["word"],) if m["word"] else (m["verb"], m["verb"] + "s"))))  # "doesn't work": "works"
_OFFERS_AGAIN = words_pattern(_AFFIRMATIONS + HEDGE_WORDS + ALTERNATIVE_WORDS + ADDING_WORDS)
_ORDINAL_LETTERS = dict(zip("first second third fourth fifth sixth seventh eighth ninth tenth".split(), CHOICE_LETTERS))


def choice_letter(answer: str) -> str | None:
    """The letter of a choice answer (``(c)``, ``\\text{(B)}``, ``D``), upper case; ``None`` for any other answer.
    ``answer`` is the answer's text without delimiters (``slots.clean``)."""
    m = _CHOICE_LETTER_RE.fullmatch(answer, timeout=REGEX_TIMEOUT_S)
    return m[1].upper() if m else None


def opens_with_option(text: str) -> bool:
    """Whether ``text`` opens with an option's label and goes on ("(C) I and III only", "C. x = 42"): a choice
    with its text, read whole (:func:`choice_with_text`), never as a sentence that states one value."""
    return _CHOICE_WITH_TEXT_RE.match(text.strip(), timeout=REGEX_TIMEOUT_S) is not None


def answer_choice(answer: str) -> str | None:
    """The option letter an answer commits to, bare (``(C)``) or with its option's text (``(C) I and III
    only``), upper case; ``None`` for any other answer."""
    letter = choice_letter(answer)
    if letter is None and (m := choice_with_text(answer)) is not None:
        letter = (m[1] or m[2] or m[3]).upper()
    return letter


def choice_with_text(s: str) -> regex.Match | None:
    """"(C) 42", "C. x = 42": a choice with its option's text answers with the letter, unless the text
    names another option or offers several ("(C) or (D)", "(A) through (E)", "(C) 12, (D) 15")."""
    m = _CHOICE_WITH_TEXT_RE.fullmatch(s, timeout=REGEX_TIMEOUT_S)
    if m is None:
        return None
    text = s[next(m.end(g) + 1 for g in (1, 2, 3) if m[g]):]  # the option's text, after its label
    if _OTHER_CHOICE_RE.search(text, timeout=REGEX_TIMEOUT_S):
        return None
    tokens = _LETTERS_RE.findall(_WRAPPER_NAMES_RE.sub(" ", text, timeout=REGEX_TIMEOUT_S), timeout=REGEX_TIMEOUT_S)
    words = {w.lower() for w in tokens}
    if words & _SEVERAL_OPTIONS:
        return None
    letter = (m[1] or m[2] or m[3]).upper()
    roman = any(_ROMAN_RE.fullmatch(w, timeout=REGEX_TIMEOUT_S) for w in tokens)
    pronoun = _PRONOUN_RE.search(text, timeout=REGEX_TIMEOUT_S) is not None
    if _ORDINAL_OPTION_RE.search(text, timeout=REGEX_TIMEOUT_S):
        return None  # "(C) or the option after it": another option named by its place
    for other in _LONE_CAPITAL_RE.finditer(text, timeout=REGEX_TIMEOUT_S):
        if other[1] == letter or (other[1] == "I" and (roman or pronoun)):
            continue  # statement I, or the pronoun
        before = text[:other.start()].rstrip(" 	*(")
        last = _LAST_WORD_RE.search(before, timeout=REGEX_TIMEOUT_S)
        if not before or before[-1] in ",;/|&+" or (last and last[0].lower() in _JOINERS):
            return None  # "(C) and D", "(C) I mean D", "(C) I, III, D": another option (not "Vitamin D", "grade B")
    if any(w in CHOICE_LETTERS for w in tokens) and all(
            w in CHOICE_LETTERS or _JOINING_WORD_RE.fullmatch(w, timeout=REGEX_TIMEOUT_S) for w in tokens):
        return None  # "(A) \\vee B", "(C) o D", "(B) / D": another letter joined to it, no option's text
    return m


def option_text(s: str) -> str | None:
    """``(B) 12`` -> ``12``: the option's text of a choice written with it (``s`` already unwrapped); ``None``
    when ``s`` is not one choice with its text."""
    m = _CHOICE_WITH_TEXT_RE.fullmatch(s, timeout=REGEX_TIMEOUT_S)
    if m is None or choice_with_text(s) is None:
        return None
    return s[next(m.end(g) + 1 for g in (1, 2, 3) if m[g]):].strip() or None


def other_choices(text: str, choice: str, timeout: float) -> str | None:
    """Another choice offered in ``text``: a letter (any case, fullwidth folded: "or (D)", "(d)", "; D is
    close") or an option named by its place ("the fourth option", "the second-to-last choice")."""
    folded = unicodedata.normalize("NFKC", text)
    for m in _ORDINAL_OPTION_RE.finditer(folded, timeout=timeout):
        letter = _ORDINAL_LETTERS.get(m[1].lower())
        if letter != choice:
            return letter or m[0]
    if _RULED_OUT.search(folded, timeout=timeout):
        return None  # "Options A through D all fail", "We eliminated A and B": letters ruled out, not offered
    folded = _SET_ASIDE_RE.sub(" ", folded, timeout=timeout)
    for m in _CHOICE_IN_TEXT_RE.finditer(folded, timeout=timeout):
        letter = next(g for g in m.groups() if g).upper()
        if letter == choice:
            continue
        if m[2] == "A" and _ARTICLE_A_RE.match(folded, m.end(), timeout=timeout):
            continue  # "A quick check …": the article
        if m[2] == "I" and _PRONOUN_I_RE.match(folded, m.end(), timeout=timeout):
            continue  # "I hope it is correct.": the pronoun
        return letter
    return None


def option_review(sentences: list[str], choice: str, timeout: float) -> bool:
    """Whether the sentences after a choice review the other options one by one ("(A) is wrong because x > 0.
    (B) is too large. (D) double counts."): two or more other letters each open a sentence of their own, and
    one of those sentences rules its option out. In such a review an option is offered only where its own
    sentence says so (:func:`offered_in_review`)."""
    letters, ruled_out = set(), False
    for sentence in sentences:
        m = _LABEL_RE.match(sentence, timeout=timeout)
        if m and m["letter"] != choice:
            letters.add(m["letter"])
            ruled_out = ruled_out or _RULED_OUT.search(sentence, timeout=timeout) is not None
    return len(letters) >= 2 and ruled_out


def offered_in_review(sentence: str, timeout: float) -> bool:
    """In an option review: whether a sentence that opens with an option's label offers that option
    ("(D) is also correct", "(D) might work"); a sentence that rules it out or only describes it does not."""
    if _LABEL_RE.match(sentence, timeout=timeout) is None:
        return True  # not a labelled review line: read as any other sentence
    if _RULED_OUT.search(sentence, timeout=timeout):
        return False
    return _OFFERS_AGAIN.search(sentence, timeout=timeout) is not None


# the options of a multiple-select answer: "AC", "A,C", "A and C", "(A)(C)" (letters A-J, each once)
_CHOICE_LETTERS_RE = regex.compile(r"\(?([A-J])\)?(?:(?:,|and|&|\\&)?\(?([A-J])\)?)+")
_ONE_LETTER_RE = regex.compile(r"[A-J]")


def choice_letters(key: str, gold_side: bool = False) -> frozenset[str] | None:
    """The set of option letters ``key`` chooses when it names two or more; a gold's letters must be written in
    order ("AC", "A, C, D"), as a multiple-select gold is, so that a segment "CA" or a word is none. An answer may
    write its letters as a set (``\\{A, C\\}``)."""
    if not gold_side and key.startswith("\\{") and key.endswith("\\}"):
        key = key[2:-2]
    if len(key) > 40 or not _CHOICE_LETTERS_RE.fullmatch(key, timeout=REGEX_TIMEOUT_S):
        return None
    letters = _ONE_LETTER_RE.findall(key, timeout=REGEX_TIMEOUT_S)
    if len(set(letters)) != len(letters) or (gold_side and letters != sorted(letters)):
        return None
    return frozenset(letters)
