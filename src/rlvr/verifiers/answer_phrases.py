"""The "the final answer is …" phrase in the languages rlvr reads ("la respuesta correcta es C", "答案是 42",
"故选C", "ответ: 42"): where each phrase's value begins and ends. The pattern is tried only near a hint word,
so a long completion is searched once per hint, never from every position."""

from __future__ import annotations

import regex

from rlvr.verifiers.line_reading import first_sentence

__all__ = ["final_answer_phrase_in"]

_PHRASE_RE = regex.compile(
    r"(?i)\b(?:(?:the|my|our)[ \t]+(?:(?:(?:final|correct|right)[ \t]+)?(?:answer|choice|result)|(?:correct|right)[ \t]+option)"
    r"|(?<![\p{L}])(?<!\b(?:other|another|no|any|each|every)[ \t]+)answer|(?:la|die|a)(?:[ \t]+(?:bonne|juste|richtige|korrekte|endgültige|giusta))?[ \t]+"
    r"(?:réponse|respuesta|antwort|risposta|resposta)"
    r"(?:[ \t]+(?:finale?|correcta|correcto|correcte|correta|corretta|certa|exacta|exacte|esatta))?)"
    r"[ \t]+(?:is|was|would be|will be|should be|equals|est|es|ist|lautet|è|é|sera|será)(?![\p{L}])[ \t]*:?[ \t]*([^\n]{1,2000})"
    r"|(?:最终答案|答案)(?:(?:是|为|應為|应为)[ \t]*[:：]?|[:：])[ \t]*([^\n]{1,2000})|(?i:ответ)(?:[ \t]*(?:равен|:))[ \t]*([^\n]{1,2000})"
    r"|(?<!不)(?:故|所以|因此|应)选(?:择)?[ \t]*[:：]?[ \t]*([A-J](?![A-Za-z])[^\n]{0,2000})"  # 故选C: "so choose C"
    # "the answer is" where the noun and its verb are one word each: Romanian, Dutch, Nordic, Slavic, Baltic, Finnic,
    # Indonesian and Malay, Vietnamese, Thai
    r"|(?i:\b(?:răspunsul(?:[ \t]+final)?[ \t]+este|het[ \t]+(?:juiste[ \t]+)?antwoord[ \t]+is|svaret[ \t]+(?:är|er)"
    r"|odpowiedź[ \t]+(?:to|wynosi)|odpověď[ \t]+je|odpoveď[ \t]+je|odgovor[ \t]+je|vastaus[ \t]+on|vastus[ \t]+on"
    r"|atsakymas[ \t]+yra|jawaban(?:nya)?[ \t]+(?:adalah|ialah)|đáp[ \t]+án[ \t]+là)(?![\p{L}])"
    # "Het antwoord is dus 42", "Odpověď je tedy 42": a "so" after the verb
    r"(?:[ \t]+(?:dus|tedy|teda|siis|alltså|altså|więc|zatem|deci|dakle|tako|jadi|vậy|così|also|donc|ainsi|thus|so)"
    r"(?![\p{L}]))?)[ \t]*:?[ \t]*([^\n]{1,2000})|คำตอบ(?:สุดท้าย)?[ \t]*(?:คือ|เท่ากับ)[ \t]*([^\n]{1,2000})")


_PHRASE_HINTS = ("answer", "choice", "option", "result", "réponse", "respuesta", "antwort", "risposta", "resposta", "答案", "ответ",
                 "选", "răspuns", "antwoord", "svaret", "odpowied", "odpověď", "odpoveď", "odgovor", "vastaus", "vastus",
                 "atsakymas", "jawaban", "đáp án", "คำตอบ")
# "C项", "C选项"; "la C", "die Option C", "l'option C": an option's letter with its noun or article
_LETTER_OPTION_RE = regex.compile(r"([A-J])[ \t]*(?:选项|項|项)[。.]?"
                                  r"|(?i:la|el|le|die|l['’]|(?:la[ \t]+|die[ \t]+|l['’])?(?:option|opción|opzione|opção))"
                                  r"[ \t]*\(?(?-i:([A-J]))\)?[.。]?")
_HINT_REACH = 80  # how far before its hint word a phrase may start ("our final correct answer")
_HINT_SPAN = 40  # how far after it the phrase's verb must have begun


def _occurrences(lowered: str, word: str) -> list[int]:
    out, i = [], lowered.find(word)
    while i >= 0:
        out.append(i)
        i = lowered.find(word, i + 1)
    return out


def final_answer_phrase_in(text: str, timeout: float, start: int = 0) -> list[tuple[str, int, int]]:
    """Every "the answer is …" statement: its first sentence; the search goes on after it.

    Every phrase holds one of the hint words, and starts at most ``_HINT_REACH`` characters before it
    ("the final correct answer is"), so the phrase pattern is tried only from there: one search near
    each hint instead of a case-folding scan of all the text."""
    lowered = text[start:].lower()
    hints = sorted(i + start for h in _PHRASE_HINTS if h in lowered for i in _occurrences(lowered, h))
    if not hints:
        return []
    if len(lowered) != len(text) - start:  # lower() changed some lengths ("İ"): positions drift, so read it all
        hints = [start]
    found, pos, k = [], start, 0
    while True:
        while k < len(hints) and hints[k] < pos:
            k += 1
        if k == len(hints):
            break
        near = hints[k] + _HINT_SPAN if len(hints) > 1 or hints[0] != start else None
        m = _PHRASE_RE.search(text, max(pos, hints[k] - _HINT_REACH), near, timeout=timeout)
        if m is None:
            k += 1
            continue
        if near is not None:  # again without the end bound, for the whole value
            m = _PHRASE_RE.match(text, m.start(), timeout=timeout) or m
        group = next(g for g in (1, 2, 3, 4, 5, 6) if m[g] is not None)
        content = first_sentence(m[group].split("。")[0] if group in (2, 4) else m[group], timeout)
        if letter := _LETTER_OPTION_RE.fullmatch(content, timeout=timeout):
            content = letter[1] or letter[2]  # "正确答案是C项", "选C选项": the option's letter
        found.append((content, m.start(group), m.start(group) + len(content)))
        pos = max(m.start(group) + len(content), m.start(group) + 1)
    return found
