"""Reading values out of prose: the last-resort answer, and what a sentence after the answer states.

Model outputs often end in a sentence instead of an answer slot ("So the area is 48 cm.",
"因此，一共有3 + 10 = 13只鸟。"). A sentence's values are its math spans, else its numbers; each
value has a *role*, and only a stated value counts: a bound ("more than 7"), a rejected candidate
("7 fails"), a value inside a supposition ("if it were 7") or one a negation denies ("not 7") is
not stated; a sign word before a value is its sign (after an operand both are the value: "ten minus 3" is no 3).
Several stated values are narrowed (conclusion clause, worked chain, bold value, a single "is"); several values
still, a hedge, or an "or" between values is no single answer. Worked chains are evaluated with exact fractions, never ``eval``.
"""

from __future__ import annotations

import bisect

import regex

from rlvr.verifiers.chains import chain_operands, if_premise_blanked
from rlvr.verifiers.choices import answer_choice
from rlvr.verifiers.number_words import negative_of, sign_before
from rlvr.verifiers.plain_math import one_number, plain_math
from rlvr.verifiers.repeating import IN_PROSE as REPEATING_IN_PROSE
from rlvr.verifiers.prose_groups import derived_label, named_tail, named_values, one_value
from rlvr.verifiers.sentence_breaks import FACTORIAL_AHEAD as _FACTORIAL_AHEAD, sentences
from rlvr.verifiers.solution_sets import PLAIN_RELATION_RE, joined_solutions
from rlvr.verifiers.closing_line import (
    QUALIFIED, counted, names_an_answer, on_own_line, spelled_after_verb, stressed_word, with_unit, word_answer_closing, word_key,
)
from rlvr.verifiers.spelled_numbers import fold_spelled_numbers
from rlvr.verifiers.word_answers import phrase_answers
from rlvr.verifiers.prose_patterns import MATH_SPAN_RE, blank_count_modifiers
from rlvr.verifiers.stating_verb import gives_away, object_value, single_verb
from rlvr.verifiers.value_roles import CLAUSE_BREAK_RE, DOING_AFTER_RE, RoleIndex, bounds_a_value, value_role
from rlvr.verifiers.lexicon import (
    ADDING_WORDS, BELIEF_PHRASES, ALTERNATIVE_WORDS, ANSWER_WORDS, BOUND_WORDS, CONCLUSION_WORDS, HEDGE_WORDS, HYPOTHETICAL_WORDS, NEGATION_WORDS,
    NEGATIVE_EVALUATIONS, PROSE_DOUBT_WORDS, REJECTION_WORDS, RESULT_VERBS, RETRACTION_CUES, TOTAL_WORDS,
    TENTATIVE_WORDS, UNSURE_PHRASES,
    words_pattern,
)

__all__ = ["Candidate", "prose_answer", "sentences", "stated_values", "statement_claim",
           "HEDGE_RE", "ALTERNATIVE_RE", "RETRACTION_RE", "NEGATION_RE", "CONCLUSION_RE"]

#: (content, start, end) of one answer occurrence in the searched text
Candidate = tuple[str, int, int]

_PROSE_WORD_RE = regex.compile(r"(?<![\\A-Za-z])[A-Za-z]{4,}")
_PROSE_SCAN = 800  # the last this-many characters are read for a final sentence
# a number in prose: sign, digits with thousands (or lakh: 25,00,000) groups, decimals (also "2,74") or a fraction,
# percent; infinity; a number
# glued to letters (2x, 3rd, x2) is not a value, nor one glued to Unicode maths (100π, 5√2, 12½, 3², √2)
# "!" after a number followed by an operator is a factorial ("(5! = 120)", "4! \\times 3"), no sentence's end
_UNICODE_MATH = r"\p{Greek}√∛∜\p{No}"
_PROSE_NUMBER_RE = regex.compile(
    r"(?<![A-Za-z0-9])\([A-J]\)(?![A-Za-z0-9])|(?<![\p{L}\p{N}±∓])(?<![\p{N}±∓][ \t]{1,8})[-+−]?∞(?![\p{L}\p{N}])|(?<![A-Za-z0-9.,/^_√∛∜])[-+−]?" + REPEATING_IN_PROSE + r"|"
    r"(?<![A-Za-z0-9.,/^_√∛∜])[-+−]?(?>[0-9]{1,2}(?:,[0-9]{2})+,[0-9]{3}(?![0-9])|[0-9]+,[0-9]{1,2}(?![0-9]|,[0-9])|[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?)(?:/[0-9]+)?(?:[ ]?\\?%|[ ](?i:percent|per[ -]cent|pct)\b)?"
    r"(?![0-9^_" + _UNICODE_MATH + r"]|\.[0-9]|/[0-9]|[A-Za-z](?![A-Za-z²³])|!(?=" + _FACTORIAL_AHEAD + r"))")
# a number glued to pi, a root, a power or a vulgar fraction is a value too, though not a plain number
# ("though 9π also works", "also 2√2", "12½", "2^10"): _PROSE_NUMBER_RE leaves these whole, so they are read here
_GLUED_PART = r"(?:π|\\pi(?![A-Za-z])|[√∛∜][0-9]+(?:\.[0-9]+)?|\\sqrt\{?[0-9]+\}?|[\p{No}]+|\^\{?[0-9]{1,3}\}?)"
_GLUED_VALUE_RE = regex.compile(
    r"(?<![A-Za-z0-9.,/^_\\√∛∜\p{Greek}\p{No})\]}])[-+−]?(?:[0-9]+(?:\.[0-9]+)?(?=[π√∛∜\p{No}^\\])|(?=[π√∛∜¼½¾⅐-⅞\\]))"
    r"(?:" + _GLUED_PART + r"(?:/[0-9]+)?)+(?![A-Za-z0-9\p{No}^_(])")
_PROSE_VALUE_HINT_RE = regex.compile(r"[0-9$∞]|\\\(|\\\[|\([A-J]\)")
#: doubt ("maybe", "可能") and alternatives ("or", "oder", "或"): no single answer
HEDGE_RE = words_pattern(HEDGE_WORDS)
ALTERNATIVE_RE = words_pattern(ALTERNATIVE_WORDS)
_EITHER_OR_RE = regex.compile(r"(?i)\beither\b[^.\n]{0,200}?\bor\b|\bneither\b[^.\n]{0,200}?\bnor\b")
_UNSURE_RE = words_pattern(UNSURE_PHRASES)
_BELIEF_RE = words_pattern(BELIEF_PHRASES)
_ADDING = words_pattern(ADDING_WORDS)
_PARENTHESES_RE = regex.compile(r"\s\([^()$]*\)")
NEGATION_RE = words_pattern(NEGATION_WORDS)
RETRACTION_RE = words_pattern(RETRACTION_CUES)
CONCLUSION_RE = words_pattern(CONCLUSION_WORDS)
_ANSWER_WORD_RE = words_pattern(ANSWER_WORDS)
# the fallback's gate: a sentence states its value as the answer only with a cue and without any of these
_STATEMENT_CUE = words_pattern(CONCLUSION_WORDS + ANSWER_WORDS + RESULT_VERBS + TOTAL_WORDS)
# "The price is $3.50", "She has 12 apples", "It is 4": a subject, then the verb that states its value
_SUBJECT_VERB_RE = regex.compile(
    r"(?i)(?:^|[,:]\s|\s)\s*(?:the|its|his|her|their|our|my|this|that|it|she|he|they|we|each|every)\b[^.!?;]{0,80}?"
    r"\b(?:is|are|was|were|costs?|makes?|earns?|gets?|needs?|takes?|has|have|pays?|weighs?|measures?|totals?)\b")
# "Janet makes $18 every day.", "There are 20 students left.": a name or "there", then the verb that states the value
_NAME_VERB_RE = regex.compile(
    r"(?:^|(?<=[,:;]\s))\s*(?:\p{Lu}\p{Ll}+(?:\s+\p{Lu}\p{Ll}+)?|(?i:there))\s+(?i:is|are|was|were|will\s+be|costs?|makes?|earns?|"
    r"gets?|needs?|takes?|has|have|had|pays?|weighs?|measures?|totals?|spends?|saves?|sells?|buys?|owes?|receives?|"
    r"collects?|uses?|reads?|walks?|runs?|drives?|travels?|scores?|eats?|loses?|wins?|bakes?|plants?|picks?)\b")
_STRONG_DOUBT = words_pattern(NEGATION_WORDS + HEDGE_WORDS + UNSURE_PHRASES + BOUND_WORDS + REJECTION_WORDS
                              + HYPOTHETICAL_WORDS + ALTERNATIVE_WORDS + NEGATIVE_EVALUATIONS + RETRACTION_CUES)
# the same without the bounds, which bound only the value they stand beside: in the subject of a stating verb they
# name the quantity ("the least common multiple of 4 and 6 is 12", "the largest prime factor of 91 is 13")
_DOUBT_NOT_BOUND = words_pattern(NEGATION_WORDS + HEDGE_WORDS + UNSURE_PHRASES + REJECTION_WORDS
                                 + HYPOTHETICAL_WORDS + ALTERNATIVE_WORDS + NEGATIVE_EVALUATIONS + RETRACTION_CUES)
_BOUNDING = words_pattern(BOUND_WORDS)
# the same but the alternatives' "or", which joins the parts of a solution set; and words that make values candidates
# (a single Han character is left out: "不" of "不等式", inequality, negates nothing)
_SET_DOUBT = words_pattern(tuple(w for w in NEGATION_WORDS + HEDGE_WORDS + UNSURE_PHRASES + BOUND_WORDS + REJECTION_WORDS
                                 + HYPOTHETICAL_WORDS + NEGATIVE_EVALUATIONS + RETRACTION_CUES + TENTATIVE_WORDS
                                 + PROSE_DOUBT_WORDS if not (len(w) == 1 and "\u4e00" <= w <= "\u9fff")))
# of the words that keep a prose value from being the answer, those that attribute it to someone else or make
# it a trial govern their clause; the rest qualify the value they stand beside
_ATTRIBUTION = ("given", "state", "states", "stated", "says", "said", "test", "testing", "tested", "try", "trying",
                "tried", "check", "checking", "imagine", "hypothetical", "hypothetically", "had", "should", "could",
                "can", "cannot", "unable", "stuck", "give up", "let", "pretend", "question", "consider", "considering",
                "candidate", "candidates", "guess")
_ATTRIBUTING = words_pattern(tuple(w for w in PROSE_DOUBT_WORDS if w in _ATTRIBUTION))
# a modal before a verb of doing restates the question's own verb ("She should read 42 pages", "Each person should
# pay $12", "we can seat 12 guests"); before "be" it hedges the value ("It could be 42") and a word of trying,
# testing or supposing after it attributes the value as before ("We can try 42")
_DOING_MODAL_RE = regex.compile(r"(?i)(?:should|could|can)\s+(?!(?:be|have|not|never|only|try|test|check|guess|"
                                r"consider|imagine|pretend|assume|suppose|say|estimate|also|either|perhaps|maybe|"
                                r"possibly|probably|claim|argue|go|pick|opt|bet|lean|think|believe|reckon|"
                                r"apparently|likely)\b|\p{Ll}+ly\b)\p{Ll}{2,}\b")
# an opinion tag closing the sentence ("Tom needs 15 boxes, I think.", "…, or so I believe."): the claim is hedged
_OPINION_TAG_RE = regex.compile(r"(?i),?\s*(?:or\s+so\s+)?i\s+(?:think|believe|guess|suppose|reckon|feel)\s*[.!]*\s*$")
_TENTATIVE_RE = words_pattern(TENTATIVE_WORDS)
# doubt about the result wherever it stands in the sentence (the working may suppose, test and deny freely)
_DOUBTS_RESULT = words_pattern(HEDGE_WORDS + UNSURE_PHRASES + TENTATIVE_WORDS + NEGATIVE_EVALUATIONS)
# ("15 more boxes", "20 fewer apples" answer "how many more": "more" after a value counts a difference; "or more",
# "more than" are bounds the alternatives and bound words refuse)
_NEAR_DOUBT = words_pattern(tuple(w for w in PROSE_DOUBT_WORDS if w not in _ATTRIBUTION and w not in ("more", "fewer")))
# the words a sentence ends on after its last number ("… 7 apples remain." ends on "apples remain")
_ENDING_RE = regex.compile(r"[0-9][^0-9]*?([\p{L}][\p{L}\s]{0,40}?)\W*$")
# a line that checks the answer or remarks in parentheses, never an option label "(E) …"
_CHECK_LINE_RE = regex.compile(r"(?i)[\s*_>#-]*(?:\((?![A-Ja-e]\))|(?:double[- ]?check|check(?:ing)?|verif(?:y|ying|ication)|sanity\s+check|"
                            r"proof)\b)")
_BROKEN_SLOT_RE = regex.compile(r"\\boxed|\\fbox|(?i:<answer>|<solution>)|####")
_LEADING_VALUE_RE = regex.compile(r"\s*(?:\$((?:\\.|[^$\\])+)\$|\\\((.+?)\\\)|([-+]?[0-9][0-9,]*(?:\.[0-9]+)?(?:/[0-9]+)?))")
_LONG_WORD_RE = regex.compile(r"\p{L}{2,}")




def prose_answer(text: str, timeout: float, bold: tuple[tuple[int, int], ...] = ()) -> list[Candidate]:
    """Last resort: the value of the last sentence that states one ("So the area is 48 cm.").

    Every stated value is returned, so a sentence with two different values is several answers,
    not the last one. Looks back at most three sentences past ones without a value ("I hope it
    is correct."). ``bold`` lists the spans of ``text`` that are stressed (markdown ``**…**``).
    """
    if _BROKEN_SLOT_RE.search(text, timeout=timeout):
        return []  # a box or tag was attempted and broken: a format failure, not prose
    base = max(0, len(text) - _PROSE_SCAN)
    tail = text[base:]
    spans = sentences(tail, timeout)
    # numbers in words are read as digits in a concluding sentence ("So the family has six children."), and in any
    # other only where the ending says nothing else: "She earns 42 dollars. It took her five hours." answers 42 (the
    # remark is skipped, as it always was)
    return _read_back(text, tail, base, spans, bold, timeout, fold=False) \
        or _read_back(text, tail, base, spans, bold, timeout, fold=True)


def _read_back(text: str, tail: str, base: int, spans: list[tuple[int, int]], bold: tuple[tuple[int, int], ...],
               timeout: float, fold: bool) -> list[Candidate]:
    """:func:`prose_answer`'s look back over the last sentences of ``tail`` (``text`` from ``base``): a concluding
    sentence without digits has its numbers in words read as digits, and with ``fold`` every such sentence."""
    passed = False  # a sentence after the one read offers another answer or doubts ("Thursday is also possible.")
    # if-sentences that end on the same words state cases of one quantity ("If she has 12 …, 7 apples remain. If she
    # has 13 …, 8 apples remain."); a worked solution's if-sentences compute different things
    endings = [_ENDING_RE.search(tail, a, b, timeout=timeout) for a, b in spans[-6:]
               if tail[a:b].lstrip(" *_>#-").lower().startswith("if ")]
    ending_words = [m[1].lower() for m in endings if m and m[1].strip()]
    cases = max((ending_words.count(w) for w in ending_words), default=0)
    for start, end in reversed(spans[-4:]):
        sentence = _without_restatements(tail[start:end], timeout)
        if cases <= 1:  # an if-clause among other cases ("If she has 12 …. If she has 13 …") is no premise
            sentence = if_premise_blanked(sentence, timeout)
        if _CHECK_LINE_RE.match(sentence, timeout=timeout):
            continue  # "Check: 9 + 3 + 4 = 16.", "(9 + 3 + 4 = 16)": a check of the answer, no answer of its own
        if not _PROSE_VALUE_HINT_RE.search(sentence, timeout=timeout) and not any(
                base + start <= a and b <= base + end for a, b in bold) and (
                fold or CONCLUSION_RE.search(sentence, timeout=timeout)):
            # "There are six children in the family.": a number in words is read as its digits would be, with the
            # same spans; a sentence with digits, or with a stressed word, is read as written
            sentence = fold_spelled_numbers(sentence)
        if not _PROSE_VALUE_HINT_RE.search(sentence, timeout=timeout):
            if inside := [(a, b) for a, b in bold if base + start <= a and b <= base + end]:
                # "It will be a **Wednesday**.", "The statement is **false**.": the stressed word is the answer (with
                # no word of doubt about an earlier result); a stressed word that is none is no answer either, and
                # never sends the reader back to a number of the working ("we move 4 days forward")
                word = stressed_word(text, inside, base + start, base + end, timeout)
                if word is None or passed or _doubtful(sentence, timeout):
                    return []
                rest = sentence[:word[1] - base - start] + " " + sentence[word[2] - base - start:]
                return [] if _DOUBTS_RESULT.search(rest, timeout=timeout) else [word]
            if _DOUBTS_RESULT.search(sentence, timeout=timeout):
                return []  # "So the solution is 2. Hmm, maybe.": the sentence after the answer doubts it
            # a closing line of one sentence concludes by its place, as one with a value does
            concludes = CONCLUSION_RE.search(sentence, timeout=timeout) is not None or (
                not passed and (start, end) == spans[-1] and on_own_line(text, base + start))
            if concludes and (word := word_answer_closing(sentence, timeout)) is not None:
                # "No, such a triangle cannot exist.", "So the day of the week is Sunday.": a yes or no that opens
                # the sentence, or a weekday or month it ends on; never one another sentence of the ending answers
                # otherwise ("No.\n\nYes.")
                others = {word_key(tail[a:b]) for a, b in spans[-6:] if (a, b) != (start, end)} - {None}
                if _doubtful(sentence, timeout) or others - {word_key(sentence)}:
                    return []
                return [(word[0], base + start + word[1], base + start + word[2])]
            if concludes and (spelled := spelled_after_verb(sentence, timeout)):
                # "So the probability is two thirds.": a number in words, compared by spelling the gold
                return [] if _doubtful(sentence, timeout) else [(spelled[0], base + start + spelled[1], base + start + spelled[2])]
            if CONCLUSION_RE.search(sentence, timeout=timeout) and len(said := phrase_answers(sentence)) == 1:
                # "Therefore the limit does not exist.", "So there are infinitely many solutions.": the conclusion
                # is a word answer; the one-sided limits or the line's equation before it are working
                a, b = said[0].span()
                return [] if _doubtful(sentence, timeout) else [(said[0][0], base + start + a, base + start + b)]
            passed = passed or QUALIFIED.search(sentence, timeout=timeout) is not None
            continue  # no value here ("I hope it is correct."): look one sentence back
        if sentence.rstrip().endswith(("?", "？")):
            return []  # a question states no answer ("12?")
        if (start, end) == spans[-1] and on_own_line(text, base + start) \
                and (line := sentence.strip().strip("*_").strip()) and answer_choice(line.rstrip(".")) is not None:
            lead = sentence.find(line[:1])  # "**Option D: $2\\sqrt{3}$**": a closing line that is a choice with its text
            return [(line.rstrip("."), base + start + lead, base + start + lead + len(line))]
        inside = [(a, b) for a, b in bold if base + start <= a and b <= base + end]
        stressed = bool(inside)
        if stressed and (word := stressed_word(text, inside, base + start, base + end, timeout)) is not None \
                and not passed and names_an_answer(word[0]) and not _doubtful(sentence, timeout):
            return [word]  # "Hence 100 days after Friday is a **Sunday**.": the stressed complement, the numbers its subject's
        # a closing line that is one sentence ("\n\nJames writes 624 pages a year.") concludes by its place,
        # whatever its verb or language; its words are still read for hedges, bounds and attributions
        closing = (start, end) == spans[-1] and on_own_line(text, base + start) and counted(sentence, timeout, lambda: _sentence_values(sentence, 0, timeout))
        # a sentence that concludes ("…, so the probability is 2/3") is judged by its conclusion: the
        # working before the conclusion word may try, solve and suppose without taking the result back
        scope = sentence[_conclusion_start(sentence, timeout):]
        premises_out = _without_premises(scope, timeout)
        if (joined := _solution_set(sentence, scope, timeout)) is not None:
            return [(joined[0], base + start + joined[1], base + start + joined[2])]
        checked = blank_count_modifiers(scope, timeout)  # "24 种不同的排法": "different" describes, negates nothing
        if _doubtful(blank_count_modifiers(premises_out, timeout), timeout) \
                or not _asserts(checked, timeout, stressed or closing or len(scope) < len(sentence)):
            return []
        if len(scope) < len(sentence) and _DOUBTS_RESULT.search(_without_premises(sentence, timeout), timeout=timeout):
            return []  # "… it is probably wrong, therefore 42": doubt before the conclusion is doubt about it
        found = _narrowed(sentence, base + start, timeout, bold)
        if found:
            return with_unit(text, found, timeout)
        if _sentence_values(sentence, 0, timeout, roles=False):
            return []  # it has values, but none is stated (a bound, a rejected one): no answer here
    return []


def _solution_set(sentence: str, scope: str, timeout: float) -> Candidate | None:
    """"So $x = 3$ or $x = -2$.": roots or intervals joined by "or" (:mod:`solution_sets`), stated with a cue or
    alone on their line, with no hedge; positions in ``sentence``."""
    if _SET_DOUBT.search(_without_premises(sentence, timeout), timeout=timeout):
        return None  # "We cannot have …", "The extraneous roots are …", "The candidates are …", "Wrong answer: …"
    joined = joined_solutions(scope, _sentence_values(scope, 0, timeout, roles=False), timeout)
    if joined is None and "$" not in scope and "=" in scope:  # "x = -2 or x = 3" written without math delimiters
        joined = joined_solutions(scope, [(m[0], m.start(), m.end()) for m in PLAIN_RELATION_RE.finditer(scope, timeout=timeout)],
                                  timeout)
    if joined is None:
        return None
    shift = len(sentence) - len(scope)
    alone = not _LONG_WORD_RE.search(sentence[:shift + joined[1]], timeout=timeout)
    if not (alone or shift > 0 or _STATEMENT_CUE.search(sentence, timeout=timeout) or _SUBJECT_VERB_RE.search(sentence, timeout=timeout)
            or _LABEL_COLON_RE.search(sentence, timeout=timeout)):
        return None
    return joined[0], shift + joined[1], shift + joined[2]


def _asserts(sentence: str, timeout: float, stressed: bool = False) -> bool:
    """Whether a prose sentence can state the final answer: it has a cue (a conclusion or answer word,
    a result verb, "=", a ``stressed`` value, a subject and its verb: "The price is $3.50", "She has
    12 apples") and no word anywhere that bounds, doubts, supposes, rejects or attributes its
    values ("The count is 42 or more", "This rules out 42", "The problem states there are 42").

    The fallback reads text that was never marked as an answer, so it asks for the one shape a stated
    result has rather than listing the shapes that are not one: an honest sentence it refuses is a
    format failure (no answer) the format reward already teaches, a wrong one it pays is a hack.
    """
    if not (_STATEMENT_CUE.search(sentence, timeout=timeout) or "=" in sentence or stressed
            or _SUBJECT_VERB_RE.search(sentence, timeout=timeout) or _LABEL_COLON_RE.search(sentence, timeout=timeout)
            or _NAME_VERB_RE.search(sentence, timeout=timeout)):
        return False
    scope = _without_premises(sentence, timeout)
    verb = _single_is(scope, timeout)  # the values after a sentence's one stating verb are what it states
    if any(not (m[0].lower() == "would" and DOING_AFTER_RE.match(scope, m.end(), timeout=timeout))
           for m in _DOUBT_NOT_BOUND.finditer(scope, timeout=timeout)) \
            or any(bounds_a_value(scope, m) for m in _BOUNDING.finditer(scope, verb or 0, timeout=timeout)):
        return False
    for _content, a, b in _sentence_values(scope, 0, timeout, roles=False):
        if verb is not None and b <= verb:
            continue  # "the least common multiple of 4 and 6 is 12": 4 and 6 name the quantity, 12 is stated
        # who says the value: "the problem states there are 42", "try 42", "consider 42" (the clause before it)
        clause = 0
        for m in CLAUSE_BREAK_RE.finditer(scope, 0, a, timeout=timeout):
            clause = m.end()
        if any(not _DOING_MODAL_RE.match(scope, m.start(), timeout=timeout)
               for m in _ATTRIBUTING.finditer(scope, clause, min(len(scope), b + _NEAR_AFTER), timeout=timeout)):
            return False
        # what bounds or qualifies it, beside it ("42 or more", "a multiple of 42"); after a copula the words
        # before the verb name the quantity ("The range of the data is 12"), not the value
        lo = max(0, a - _NEAR_BEFORE)
        copula = None
        for copula in _COPULA_RE.finditer(scope, lo, a, timeout=timeout):
            pass
        if copula is not None:
            lo = copula.end()
        if _NEAR_DOUBT.search(scope, lo, min(len(scope), b + _NEAR_AFTER), timeout=timeout):
            return False
    return True


def _without_premises(sentence: str, timeout: float) -> str:
    """``sentence`` with its premise clauses blanked ("Since all outcomes are equally likely, …", "Given the
    constraints, …"): they state why, not what, so their words neither doubt nor bound the result."""
    return _PREMISE_RE.sub(lambda m: " " * len(m[0]), sentence, timeout=timeout)


# a clause that gives the premise of the result: from its conjunction to the next comma
_PREMISE_RE = regex.compile(r"(?i)(?:^|(?<=[,;:]\s?))\s*(?:since|because|as|given(?:\s+that)?|now\s+that|seeing\s+that|"
                            r"weil|da|puisque|comme|porque|ya\s+que|poiché|так\s+как|因为|由于|既然)\b[^,;.]{0,160}[,;]")
# the verb a stated value follows ("… is 12", "… equals 12", "… = 12", a label's colon: "Range: $[0.5, 2]$")
_COPULA_RE = regex.compile(r"(?i)\b(?:is|are|was|were|equals?|becomes?|comes\s+to|totals?)\b|=|(?<=\p{L})\s*[:：]")


# "Here is the matrix: $…$", "Special matrix: $…$": words, a colon, then the math they label
_LABEL_COLON_RE = regex.compile(r"\p{L}\s*[:：]\s*(?:\$|\\\(|\\\[)")
_NEAR_BEFORE, _NEAR_AFTER = 40, 24  # how close to a value a word that makes it tested or bounded stands


def _conclusion_start(sentence: str, timeout: float) -> int:
    """Where the clause after a sentence's last conclusion word that is followed by a value begins (0: none)."""
    start = 0
    for m in CONCLUSION_RE.finditer(sentence, timeout=timeout):
        if _PROSE_VALUE_HINT_RE.search(sentence, m.end(), timeout=timeout) and not gives_away(sentence, m):
            start = m.end()
    return start


def _doubtful(sentence: str, timeout: float) -> bool:
    """A hedge, doubt, or alternatives between values: the sentence states no single answer."""
    return bool(HEDGE_RE.search(sentence, timeout=timeout) or _UNSURE_RE.search(sentence, timeout=timeout)
                or _BELIEF_RE.search(sentence, timeout=timeout)
                or _OPINION_TAG_RE.search(sentence, timeout=timeout)
                or _EITHER_OR_RE.search(sentence, timeout=timeout) or _alternative_between_values(sentence, timeout))


def _alternative_between_values(sentence: str, timeout: float) -> bool:
    values = _sentence_values(sentence, 0, timeout, roles=False)
    for m in ALTERNATIVE_RE.finditer(sentence, timeout=timeout):
        if any(e <= m.start() for _c, _s, e in values) and any(s >= m.end() for _c, s, _e in values):
            return True
    return False


def _without_restatements(sentence: str, timeout: float) -> str:
    """``sentence`` with each "or" that restates the value before it blanked, with its restatement
    ("$\\frac{3}{8}$, or 37.5%"): one number written twice is no alternative. Positions are kept."""
    if not ALTERNATIVE_RE.search(sentence, timeout=timeout):
        return sentence
    values = _sentence_values(sentence, 0, timeout, roles=False, numbers_too=True)
    out = sentence
    for m in ALTERNATIVE_RE.finditer(sentence, timeout=timeout):
        before = [v for v in values if v[2] <= m.start()]
        after = [v for v in values if v[1] >= m.end()]
        if before and after and not sentence[before[-1][2]:m.start()].strip(" ,") \
                and not sentence[m.end():after[0][1]].strip() and one_number(before[-1][0], after[0][0]):
            out = out[:before[-1][2]] + " " * (after[0][2] - before[-1][2]) + out[after[0][2]:]
    return out




def _in_bold(start: int, end: int, bold: tuple[tuple[int, int], ...]) -> bool:
    return any(a <= start and end <= b for a, b in bold)


def _narrowed(sentence: str, offset: int, timeout: float, bold: tuple[tuple[int, int], ...] = ()) -> list[Candidate]:
    """The values a prose sentence states as its result, narrowed step by step while several remain.

    The clause after the last conclusion word ("so", "因此", "لذا") if it holds a value; there, the
    result of a worked chain ("3 + 10 = 13" states 13); then a single bold value ("**92**"); then
    what follows a single "is". What is still several values is several answers.
    """
    clause_start = _conclusion_start(sentence, timeout)
    clause = sentence[clause_start:]
    offset += clause_start
    verb = _single_is(clause, timeout)
    if verb and (math := plain_math(clause[verb:], offset + verb, timeout)):
        return math  # "is 3\sqrt{2}", "is 2^{10}": one value, never its digits
    found = _sentence_values(clause, offset, timeout)
    if len({content for content, _s, _e in found}) > 1:
        stressed = [c for c in found if _in_bold(c[1], c[2], bold)]
        if len({content for content, _s, _e in stressed}) == 1:
            return stressed
        stated = _sentence_values(clause[verb:], offset + verb, timeout) if verb else []
        found = object_value(clause, offset, stated or found) or stated or found
    if found and (one := one_value(clause, found, offset, timeout)):
        return one  # "The point is (4, −1).", "(0, ∞)", "2 3/4 cups"
    if len({content for content, _s, _e in found}) > 1:
        derived = derived_label(clause, found, offset, timeout)
        if derived:
            return derived
        named = named_values(clause, offset) or named_tail(clause, offset, timeout)
        if named:
            return named
    return found


# what follows a value up to the clause's end: "42 яблока", "42个苹果", "42 миллиона" (never past punctuation)


def stated_values(sentence: str, timeout: float, roles: bool = True, numbers_too: bool = False) -> list[str]:
    """The values ``sentence`` states (with ``roles``: no bounds, rejected, supposed or denied ones).
    ``numbers_too``: plain numbers outside its math spans count as well ("the answer is 41, while I had
    $\\frac{84}{2}$"); by default a sentence with math states only its math."""
    return list(dict.fromkeys(content for content, _s, _e in _sentence_values(sentence, 0, timeout, roles, numbers_too)))


def statement_claim(sentence: str, timeout: float, bold: tuple[tuple[int, int], ...] = ()) -> tuple[str, str] | None:
    """(kind, value) when a sentence *claims* a value the way a final answer is claimed.

    Read after the final answer, where "wait, actually 8", "so it is 8", "**8**", "8." or "答案是8"
    restate or change the answer while "where 6 is the number of rows" explains it. The kinds, in
    order: ``retraction`` (a retraction cue, then a value), ``answer`` (an answer word), ``conclusion``
    (a conclusion word), ``bold`` (a stressed value), ``bare`` (a sentence that is only a value).
    The value is the one stated after the cue; several stated values there claim nothing.
    ``bold`` lists the stressed spans of ``sentence``.
    """
    for kind, pattern in (("retraction", RETRACTION_RE), ("answer", _ANSWER_WORD_RE), ("conclusion", CONCLUSION_RE)):
        cue = None
        for m in pattern.finditer(sentence, timeout=timeout):
            if not gives_away(sentence, m):  # "after giving away 5" concludes nothing
                cue = m
        if cue is None:
            continue
        after = stated_values(sentence[cue.end():], timeout)
        if len(after) == 1:
            return kind, after[0]
    for a, b in bold:  # "**2 $y$-intercepts**": a stressed phrase that opens with a value states it
        lead = _LEADING_VALUE_RE.match(sentence, a, b, timeout=timeout)
        if lead:
            return "bold", next(g for g in lead.groups() if g is not None)
    values = _sentence_values(sentence, 0, timeout)
    if len(values) == 1 and not sentence.lstrip().startswith(("(", "[")):  # a parenthesis remarks, it claims nothing
        rest = (sentence[:values[0][1]] + sentence[values[0][2]:]).strip()
        if len(_LONG_WORD_RE.findall(rest, timeout=timeout)) <= _BARE_CLAIM_WORDS:
            return "bare", values[0][0]
    return None


#: a sentence of a value and at most this many words claims the value ("Oops, 120.", "Just kidding, 120")
_BARE_CLAIM_WORDS = 3


def _sentence_values(sentence: str, offset: int, timeout: float, roles: bool = True,
                     numbers_too: bool = False) -> list[Candidate]:
    """The values a prose sentence states: its math spans, or without any, its numbers.

    With ``roles`` (the default) values that are bounds, rejected candidates, suppositions or denied
    by a negation beside them are left out.
    """
    found, names = [], []
    for m in MATH_SPAN_RE.finditer(sentence, timeout=timeout):
        content = next(g for g in m.groups() if g is not None)
        if not content.strip():
            continue  # a span whose content is hidden or struck ("$\\cancel{42}$") states nothing
        # "the value of $x$ is 9", "$\\triangle ABC$ has area 6": math that only names a quantity states no value
        (names if _NAME_SPAN_RE.fullmatch(content, timeout=timeout) else found).append(
            (content, offset + m.start(), offset + m.end()))
    if not found and names and not _PROSE_NUMBER_RE.search(MATH_SPAN_RE.sub(" ", sentence, timeout=timeout), timeout=timeout):
        found = names  # nothing else is stated: the names are the sentence's values ("the answer is $x$")
    if not found or numbers_too:
        spans = sorted(found + names, key=lambda v: v[1])  # numbers inside any math span are the span's
        starts, ends = [a - offset for _c, a, _b in spans], [b - offset for _c, _a, b in spans]

        def in_math(pos: int) -> bool:  # spans are sorted and disjoint: one bisection per number
            i = bisect.bisect_right(starts, pos) - 1
            return i >= 0 and pos < ends[i]

        numbers = [m for m in _PROSE_NUMBER_RE.finditer(sentence, timeout=timeout) if not in_math(m.start())]
        steps = chain_operands(sentence, numbers, timeout)
        for i, m in enumerate(numbers):
            if i not in steps:  # "3 + 10 = 13": 3 and 10 are worked steps, 13 is the stated value
                found.append((m[0].replace("−", "-"), offset + m.start(), offset + m.end()))
        for m in _GLUED_VALUE_RE.finditer(sentence, timeout=timeout):
            if not in_math(m.start()):
                found.append((m[0].replace("−", "-"), offset + m.start(), offset + m.end()))
        found.sort(key=lambda v: v[1])
    found = [(c, a, b) if c.lstrip()[:1] in "-+−" or (sign := sign_before(sentence, a - offset)) is None else (
        (negative_of(c) if sign[0] == "sign" else sentence[sign[1]:b - offset]), offset + sign[1], b) for c, a, b in found]
    if not roles:
        return found
    index = RoleIndex(sentence, timeout) if len(found) > 1 else None
    roles_of = [value_role(sentence, v[1] - offset, v[2] - offset, timeout, index) for v in found]
    # "we tried 7, but 7 fails": a value rejected, denied or bounded once is not stated elsewhere in the sentence
    dropped = {v[0].strip() for v, r in zip(found, roles_of) if r in ("rejected", "denied", "bound")}
    return [v for v, r in zip(found, roles_of) if r == "stated" and v[0].strip() not in dropped]


# a name of a quantity: a letter or three (with a subscript or primes), an angle, a triangle, a segment, f(2)
_NAME_SPAN_RE = regex.compile(r"\s*(?:m\s*)?(?:\\(?:angle|triangle|overline|overarc|widehat)\s*\{?\s*)?"
                              r"[A-Za-z]{1,3}(?:_\{?[A-Za-z0-9]{1,4}\}?)?'*\}?(?:\([^()=]{0,20}\))?\s*")


def _single_is(sentence: str, timeout: float) -> int | None:
    """Where the text after a sentence's only stating verb begins (see :func:`stating_verb.single_verb`)."""
    return single_verb(sentence, [m.span() for m in MATH_SPAN_RE.finditer(sentence, timeout=timeout)], timeout)
