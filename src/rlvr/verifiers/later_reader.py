"""The sentence reader of the strict policy's second half (see ``later``): one sentence after the final
answer in, a ``Finding`` out when it denies, retracts, doubts, offers another value or claims one.

The rules it finds are defined here; ``later.check_later`` walks the slots, code blocks and sentences
after the answer and hands each sentence to a ``SentenceReader``.
"""
from __future__ import annotations

import regex

from rlvr.verifiers.lexicon import (
    ADDING_WORDS, ALTERNATIVE_WORDS, ANSWER_REFERENCES, CONCLUSION_WORDS, HEDGE_WORDS, META_LABEL_WORDS, NEGATIVE_EVALUATIONS,
    REJECTION_WORDS, RESULT_VERBS, RETRACTION_CUES, TENTATIVE_WORDS, UNSURE_PHRASES, WITHDRAWAL_CUES, words_pattern,
)
from rlvr.verifiers.approximations import says_approximately
from rlvr.verifiers.conversions import same_dimension
from rlvr.verifiers.currencies import is_currency
from rlvr.verifiers.prose import stated_values
from rlvr.verifiers.stating_verb import gives_away
from rlvr.verifiers.readings import CONDITION_AFTER_RE, COUNTERFACTUAL_RE, OPENS_WITH_CONDITION_RE, READING_AFTER_RE, RESULT_LEAD_RE
from rlvr.verifiers.value_roles import bound_before, value_role
from rlvr.verifiers.later_answer import AnswerReadings
from rlvr.verifiers.later_values import agrees_approximately, fold_digits, key
from rlvr.verifiers.later_subjects import (
    CHANGE_CUE_RE, OWN_CLAIM_RE, approves, counts_as_in_work, label_key, names_its_object, other_quantity_end,
    worked_keys,
)
from rlvr.verifiers.later_working import JUSTIFYING_RE, RESULT_CLAIM_RE, said_of_answer, work_value
from rlvr.verifiers.slots import clean
from rlvr.verifiers.statements import is_constant_side, names_a_quantity
from rlvr.verifiers.trace import Finding, rule
from rlvr.verifiers.temperatures import with_temperature_scale
from rlvr.verifiers.units import canonical_unit, unit_after
from rlvr.verifiers.word_answers import yes_no_reversed, yes_no_taken_back


__all__ = ["SentenceReader", "label_key", "LATER_STATEMENT", "RETRACTION", "DENIAL", "HEDGED_LATER", "OTHER_CHOICE", "DOUBTED"]

LATER_STATEMENT = rule("integrity.later_statement", "after the final answer another value is stated as the answer")
RETRACTION = rule("integrity.retraction", "after the final answer a retraction names another value")
DENIAL = rule("integrity.denial", "after the final answer its value is denied or the answer withdrawn")
HEDGED_LATER = rule("integrity.alternative_after", "after the final answer another value is offered as an alternative")
OTHER_CHOICE = rule("integrity.other_choice", "after a choice letter another choice is offered ('or (D)', 'and E')")
DOUBTED = rule("integrity.doubted_after", "right after the final answer the completion doubts it ('Confidence: 5%', "
               "'a wild guess')")


_META_CUES = ("verdict", "pick", "tl;dr", "tldr", "bottom line", "conclusion", "in short", "my pick")
_ANSWER_NOUNS = ("réponse", "respuesta", "antwort", "risposta", "resposta", "ответ", "відповідь", "答案", "答", "svar",
                 "svaret", "jibu", "απάντηση", "vastaus", "odpověď", "válasz", "답", "정답", "جواب", "الإجابة", "उत्तर",
                 "cevap", "jawaban", "antwoord", "odpowiedź", "câu trả lời", "đáp án", "答え", "解答")
_RETRACTION = words_pattern(RETRACTION_CUES)
_ALTERNATIVE = words_pattern(ALTERNATIVE_WORDS + HEDGE_WORDS + ADDING_WORDS + ("unless", "except"))
_ANSWER_CUE = words_pattern(("answer", "final answer", "the answer", "result", "final result", "solution", "final",
                             "should be", "instead", "correct", "right") + _ANSWER_NOUNS + _META_CUES)
_CUE_REACH = 40  # how far before a value an answer word still puts it forward
_CLAIM = words_pattern(("recap", "to recap", "summary", "to summarize", "to summarise", "summing up",
                        "answer", "final answer", "the answer", "result", "the result", "final result", "total",
                        "the total", "turns out to be", "turns out", "comes out as", "it's", "it is", "edit",
                        "typo", "read as", "should read", "read the boxed value as", "boxed value", "the box",
                        "the boxed", "box above", "what i wrote", "erratum")
                       + CONCLUSION_WORDS + RESULT_VERBS + _ANSWER_NOUNS)
# "the count of valid arrangements is 41": a quantity of the problem, its verb, and straight after it the value;
# a subject with values or math in it is a computation ("$13_5$ divided by $2_5$ is $4_5$"), a step of the work
_QUANTITY_IS_RE = regex.compile(
    r"(?i)\b(?:answer|result|total|count|number|sum|value|amount|solution|outcome|probability|it|this|that)\b"
    r"[^.!?;:0-9$\\]{0,60}?"
    r"\b(?:is|are|was|be|equals?|becomes?)\s*\$?\s*(?=[-+]?[0-9(\\])")
# "the answer is reasonable / correct / consistent with …": what a later answer phrase says of the answer, not a value
# an evaluation word as the object of an infinitive: a mistake one could make ("easy to make an error", "to get it wrong")
_POSSIBLE_MISTAKE_RE = regex.compile(r"(?i)\bto\s+(?:make|get|go|be|commit)(?:\s+(?:an?|the|this|that|it|such|a\s+common))?\s*$")
# a conclusion after the evaluation ("…, so only 5 works", "…; hence 5"): what the sentence states in the end
_SO_RE = words_pattern(CONCLUSION_WORDS)
JUDGED_RE = regex.compile(r"(?i)\s*(?:indeed\s+|also\s+|thus\s+|therefore\s+)?(?:reasonable|correct|right|consistent|"
                           r"plausible|confirmed|verified|valid|sensible|checked|as expected|accurate|based\s+on|"
                           r"derived\s+from|in\s+\p{L}+\s*[:,])")
_JUDGED_AFTER_RE = regex.compile(r"(?i)\s*(?:is|was|seems|looks)\s+" + JUDGED_RE.pattern.replace("(?i)", ""))
_EVALUATION = words_pattern(NEGATIVE_EVALUATIONS)
_DOUBTING = words_pattern(TENTATIVE_WORDS + UNSURE_PHRASES)
# "Hopefully this helps!", "I hope this helps.": a sign-off, no doubt about the answer ("Hopefully 42 is right" is one)
# a sentence of its own that opens with an example illustrates the answer ("\\boxed{Yes}. For instance, $n = 4$
# works."); said in the answer's own sentence ("\\boxed{3}, for example") it offers the answer as an example
_ILLUSTRATION_RE = regex.compile(r"(?i)[\s*_(]*(?:for\s+(?:example|instance)|e\.\s?g\.|as\s+an\s+example|take)\s*[,:]?\s+\S")
_SIGN_OFF_RE = regex.compile(r"(?i)\b(?:i\s+)?hope(?:fully)?\s+(?:this|that|it|the\s+(?:explanation|solution|answer))\s+"
                             r"(?:helps|is\s+(?:helpful|clear)|was\s+(?:helpful|clear)|clarifies|clears\s+\w+\s+up|makes\s+sense)\b"
                             # "I'm not sure there's a simpler method": doubt about a method, not the answer
                             r"|\bnot\s+sure\s+(?:if\s+|whether\s+)?there(?:'s|\s+is)\s+an?\s+(?:simpler|easier|faster|shorter|"
                             r"better|quicker|more\s+elegant)\s+(?:method|way|approach|solution|proof)\b")
# a value ruled out in the sentence that describes it: "41, which is wrong", "if you forgot 0 you would get 41: excluded"
_RULED_OUT = words_pattern(REJECTION_WORDS + NEGATIVE_EVALUATIONS + ("fail", "eliminating", "ruling out", "excluded",
                                                                  "exclude", "wrong", "incorrect"))
# what rules out a case of the problem rather than a result ("If we exclude 0, it would be 3": the condition's own verb)
_CASE_RULED_OUT = frozenset({"eliminating", "ruling out", "excluded", "exclude"})
_WITHDRAWAL = words_pattern(WITHDRAWAL_CUES)
_REFERENCE = words_pattern(ANSWER_REFERENCES)
# a value of its own between a reference word and an evaluation ("that $x = -3$ is invalid")
_SUBJECT_VALUE_RE = regex.compile(r"\$[^$]*[0-9A-Za-z][^$]*\$|\\\(.+?\\\)|(?<![A-Za-z])[-+]?[0-9]")
_LABEL_LINE_RE = regex.compile(r"^\s*(?:[-*+]\s+|\d{1,2}[.)]\s+)?[\p{L}][\p{L} '’/-]{0,40}\s*[:：]\s")


_LABELLED_VALUE_RE = regex.compile(r"(?<![A-Za-z0-9\\])[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?\s*=\s*$")
_ANSWER_EQUALS_RE = regex.compile(r"(?i)\b(?:answer|result|solution|total)\s*=\s*$")
_WORD_CHAR_RE = regex.compile(r"[\p{L}\p{N}]")
_META_TOKEN_RE = regex.compile(r"\p{L}[\p{L}'’-]*")  # words, single letters included ("I", "a")
_OFFER_BEFORE, _OFFER_AFTER = 15, 10  # how close an alternative word stands to the value it offers
_META_WORDS = 8  # at most this many words beside the value
_MANY_VALUES = 64  # a later sentence of more values than this is a list of candidates, not the work
_BARE_WORDS = 2  # a later sentence of another value and at most this many words claims it
_RELATION_IN_VALUE_RE = regex.compile(r"[<>≤≥]|\\(?:le|ge|leq|geq|lt|gt|neq|ne)(?![A-Za-z])")
_OTHER_BASE_RE = regex.compile(r"(?i)\bin\s+(?:base[ -]?[0-9]{1,2}|binary|octal|hexadecimal|hex|decimal)\b")
_DESCRIBED_MISTAKE_RE = regex.compile(r"(?i)\b(?:common|typical|frequent|classic|popular|tempting|easy)\s*$")
_LATIN_RE = regex.compile(r"[A-Za-z]")
_SUBJECT_BEFORE_RE = regex.compile(r"(?i)\b(?:the|its|their|our|his|her)\s+((?:\p{L}+\s+){0,3}?\p{L}+)\s+(?:is|are|was|were|equals?)"
                                r"\s*\$?\s*(?:[^.;:]{0,30}?(?:,|\band\b)\s*\$?\s*)?$")
_ANSWER_SUBJECT_RE = regex.compile(r"(?i)\b(?:answer|result|final|solution|total|value|it|this)\b")
_VALUE_CHAR_RE = regex.compile(r"[0-9A-Za-z]")
_OPERAND_RE = regex.compile(r"[0-9]+(?:\.[0-9]+)?")  # the numbers of a worked identity
# where the clause of a value ends, so that an approval after it speaks of something else ("13, so it is correct")
_BOTH_GROUP_END_RE = regex.compile(r"[,;:]|\b(?:so|which|thus|hence|therefore|but|because|since)\b")
_CLAUSE_END_RE = regex.compile(r"[,;:]|\b(?:so|and|which|thus|hence|therefore|confirming|as)\b")
_MACRO_NAME_RE = regex.compile(r"\\[A-Za-z]+")
_ORDINAL_SUFFIX_RE = regex.compile(r"(?:st|nd|rd|th)\b|\^\{?\\?(?:text\{)?(?:st|nd|rd|th)")  # "the 5th triangular number"
_ADJECTIVE_AFTER_RE = regex.compile(r"\$?-\p{L}")
_ORDINAL_LABEL_RE = regex.compile(
    r"(?i)\b(?:step|steps|case|part|problem|question|figure|fig\.|table|eq\.|equation|line|row|column|chapter|"
    r"section|theorem|lemma|item|no\.|number|#|mod|pmod|modulo|round|day|page|option|method|approach)\s*\(?\$?\s*$")
_LONE_LETTER_RE = regex.compile(r"\s*\\?\(?\s*\p{L}\s*\\?\)?\s*")
_NUMBER_VALUE_RE = regex.compile(r"[\s$]*[-+]?[0-9][0-9.,]*[\s$]*")
_ANSWER_LABEL_RE = regex.compile(r"(?i)\s*(?:(?:the|my|our)\s+)?(?:(?:final|correct|true)\s+)?(?:answer|total|result|solution)\s*")
_NO_OTHER_THAN_RE = regex.compile(r"(?i)\bno\s+other\s+than\s*\$?\s*$")
_QUESTION_RE = regex.compile(r"[?？]\s*\)?\s*$")


# a currency sign right before a value ("\\$5", "$\\$5", "€ 5", "US$5")
_CURRENCY_BEFORE_RE = regex.compile(r"(\\\$|[^\s\w$\\]{1,3}|[A-Z]{1,2}\$|[A-Z]{3})\s*\$?\s*$")


# a table row after its pipes are blanked: a label cell, a gap of blanks, a value cell ("Rows   6", "Eggs sold   9")
_TABLE_ROW_RE = regex.compile(r"\s*\p{L}[\p{L}\p{M} '’()-]{0,40}?[ \t]{2,}\S[^\n]{0,30}?\s*")
_UNSPACED_RUN_RE = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}]{2,}")
# a check of the answer: an arithmetic line that uses it and says what it comes to ("✓ 3 × 4 = 12", "(✓ 12 × 4 = 48)")
_CHECK_LINE_RE = regex.compile(r"[\s(\[*•-]*(?:[✓✔☑✅]\ufe0f?|check(?:ing)?\s*:|verify\s*:|verification\s*:)\s*"
                               r"(?P<lhs>[-+0-9.,\s×x*·÷/()]+?)\s*=\s*(?P<rhs>[-+]?[0-9][0-9.,]*)\s*[)\].✓✔]*\s*")

_EQUATED_RE = regex.compile(r"(?:=|≈|\\approx(?![A-Za-z]))\s*\$?\s*[-+]?[0-9(\\]")
_OPERATOR_RE = regex.compile(r"\\(?:cdot|times|div|frac|dfrac|sqrt|pm|mp)(?![A-Za-z])|[+*/^×·÷−]|(?<![=(\s])-|-(?=\s*[0-9(])(?<=[0-9)]\s*-)")


class SentenceReader(AnswerReadings):
    """Reads the sentences after a final answer, one at a time, for a value that conflicts with it."""

    def __init__(self, answer: str, timeout: float, unit_after_answer: str | None = None, label: str | None = None) -> None:
        super().__init__(answer, timeout, unit_after_answer)
        self.label = label  # the name the answer was given ("x = \\boxed{5}", "m + n = \\boxed{7}"): a later value of it claims
        self.named: set[str] = set()  # later values given the answer's name
        self.explaining = False  # what follows is labelled as the answer's explanation ("Explanation:", "Here's why:")
        self.money = False  # the answer is an amount of money (set by check_later from its slot and what follows it)
        self.working = ""  # the text before the final answer (set by check_later): the work a recap restates
        self._worked: set[object] | None = None

    def values(self, text: str, roles: bool = True) -> list[str]:
        """Stated values of ``text`` (all its values without ``roles``), labelled ones ("x = 2") left out."""
        out, operands = [], set()
        text = fold_digits(text)  # "two-digit primes" is read as "2-digit primes": positions below are in this text
        for v in stated_values(text, self.timeout, roles, numbers_too=True):
            at = text.find(v)
            lhs = v.partition("=")[0]
            if self.label and (label_key(lhs) == self.label or (at > 0 and (before := _LABELLED_VALUE_RE.search(
                    text[max(0, at - 20):at], timeout=self.timeout)) and label_key(before[0].rstrip(" =")) == self.label)):
                claim = v.rpartition("=")[2].strip() if "=" in v else v
                self.named.add(claim)  # "x = \\boxed{5}" ... "Thus $x = 6$": the answer's own name given another value
                out.append(claim)
                continue
            if at > 0 and _LABELLED_VALUE_RE.search(text[max(0, at - 20):at], timeout=self.timeout) \
                    and not _ANSWER_EQUALS_RE.search(text[max(0, at - 20):at], timeout=self.timeout):
                continue  # "x = 2" labels another quantity; "Final answer = 8" claims this one
            if "=" in v and not _ANSWER_LABEL_RE.fullmatch(lhs, timeout=self.timeout) and (
                    _LATIN_RE.search(_MACRO_NAME_RE.sub("", lhs, timeout=self.timeout), timeout=self.timeout)
                    or names_a_quantity(lhs)):
                continue  # "$x = 2$", "$n+1 = 43$", "$2n = 84$": another quantity's value, not a claim about this one
            if "=" in v and all(side.strip() and is_constant_side(side) for side in v.split("=")[:-1]):
                if self.owns(v.rsplit("=", 1)[1]):  # "giving $6 \\times 7 = 42$": the answer worked out again, so
                    operands |= {key(n) for n in _OPERAND_RE.findall(v.rsplit("=", 1)[0], timeout=self.timeout)}
                continue  # "$4_5 \\times 2_5 = 8_{10} = 13_5$": a worked identity, a step, not a claim about the answer
            if _RELATION_IN_VALUE_RE.search(v, timeout=self.timeout):
                continue  # "$41 < 42 < 43$": a relation that places the answer, no value of its own
            if _LONE_LETTER_RE.fullmatch(v, timeout=self.timeout):
                continue  # "\\( y \\)-intercepts": a variable named, no value (choice letters are read apart)
            if not _VALUE_CHAR_RE.search(_MACRO_NAME_RE.sub("", v, timeout=self.timeout), timeout=self.timeout):
                continue  # "$\\blacksquare$", "$\\checkmark$": a mark, no value
            if at >= 0 and (_ADJECTIVE_AFTER_RE.match(text, at + len(v), timeout=self.timeout)
                            and not _ALTERNATIVE.search(text, timeout=self.timeout)
                            and not _RETRACTION.search(text, timeout=self.timeout)
                            or _ORDINAL_SUFFIX_RE.match(text, at + len(v), timeout=self.timeout)
                            or _ORDINAL_LABEL_RE.search(text[max(0, at - 16):at], timeout=self.timeout)):
                continue  # "6-digit codes", "Step 3", "(mod 1000)": a label or an adjective, no value (not one offered:
                # "…, or maybe it is a six-member team", "a nine-sided answer is also plausible")
            out.append(with_temperature_scale(text, v, at, self.timeout))  # "or 25 °F": keyed on its scale
        # ... the numbers it is worked out from are the work's, not other answers ("we counted 6 choices and 7, giving
        # $6 \\times 7 = 42$"); a value the identity does not name is still read ("$6 \\times 7 = 42$, final: 41")
        return [v for v in out if key(v) not in operands] if operands else out

    def sentence(self, sentence: str, first: bool, separate: bool = False, answers_question: bool = False) -> Finding | None:
        """A finding when ``sentence`` conflicts with the answer. ``first``: the first sentence after it;
        ``separate``: a sentence of its own (a sentence end or a line break since the answer);
        ``answers_question``: the sentence before it asks a question ("Is there a counterexample? No, …")."""
        t = self.timeout
        shown = sentence.strip()[:80]
        folded = fold_digits(sentence)
        if _RETRACTION.search(folded, timeout=t) and (counted := fold_digits(sentence, counts=True)) != folded:
            sentence = folded = counted  # "Wait, actually it's forty-one apples": a count is the value
        answer = clean(self.answer)
        if (check := _CHECK_LINE_RE.fullmatch(folded, timeout=t)) and any(
                self.owns(n) for n in regex.findall(r"[0-9]+(?:\.[0-9]+)?", check["lhs"], timeout=t)):
            return None  # "✓ 3 × 4 = 12" after \\boxed{3}: the answer checked, its product no other answer
        # 1. a denial of the answer
        for m in _EVALUATION.finditer(folded, timeout=t):
            before = folded[max(0, m.start() - 60):m.start()]
            if _POSSIBLE_MISTAKE_RE.search(before, timeout=t):
                continue  # "It is easy to make an error here by …": a mistake one could make, not this answer
            if (so := _SO_RE.search(folded, m.end(), timeout=t)) and any(
                    self.owns(v) for v in self.values(folded[so.end():], roles=False)):
                continue  # "That statement is false for $x = -3$, so only $5$ works": it concludes the answer
            reference = None
            for reference in _REFERENCE.finditer(before, timeout=t):
                pass
            if reference is not None and (between := _SUBJECT_VALUE_RE.search(before, reference.end(), timeout=t)) \
                    and not any(self.owns(v) for v in self.values(before[reference.end():], roles=False) or [between[0]]):
                continue  # "Note that $x = -3$ is invalid": the evaluation speaks of the value between, not the answer
            if reference is not None or (first and not _WORD_CHAR_RE.search(
                    regex.sub(r"(?i)\b(?:is|was|that|this|it|'s|s|definitely|clearly|almost|certainly|probably|"
                              r"actually|totally)\b", "", before, timeout=t), timeout=t)):
                return Finding(DENIAL, f"the final answer {answer!r} is followed by a statement that it is wrong ({shown!r})")
        denial = self._denies_value(folded)
        if denial:
            return Finding(DENIAL, f"the final answer {answer!r} is followed by a statement that denies it ({denial!r})")
        values = self.values(sentence)
        if len(values) > _MANY_VALUES:
            # "0 1 2 … 2999" after the answer: a sentence of that many values lists candidates, and reading each
            # one's role would cost seconds of the trainer's time
            return Finding(LATER_STATEMENT, f"the final answer {answer!r} is followed by a sentence of {len(values)} "
                           f"values ({shown!r})")
        # a bound after the answer is no claim of another value, even one that states an extremum ("Therefore we can
        # guarantee at least 2 socks of one color."): the box answered the question, this follows from it
        others = [v for v in self.other(values) if not bound_before(folded, v, t)]
        cue = _RETRACTION.search(folded, timeout=t)
        if first and self.said and yes_no_taken_back(self.said, folded):
            return Finding(RETRACTION, f"the final answer {answer!r} is taken back right after it ({shown!r})")
        if self.said and not answers_question and yes_no_reversed(self.said, folded):
            return Finding(RETRACTION, f"the final answer {answer!r} is turned into the other answer later ({shown!r})")
        if first and not values and _WITHDRAWAL.search(folded, timeout=t):
            return Finding(DENIAL, f"the final answer {answer!r} is withdrawn right after it ({shown!r})")
        if first and (m := _DOUBTING.search(_SIGN_OFF_RE.sub(" ", folded, timeout=t), timeout=t)) \
                and not (separate and _ILLUSTRATION_RE.match(folded, timeout=t)):
            return Finding(DOUBTED, f"right after the final answer {answer!r} the completion doubts it ({m[0]!r})")
        # every other value, supposed ones too ("unless it is 41"), but not one the sentence denies ("not 41")
        mentioned = [v for v in self.other(self.values(sentence, roles=False))
                     if not self._denied(sentence, v) and not self._bounded(sentence, v)]
        # "…, unless it is 41", "If the seats are distinct, then 41": supposed, and still offered
        if mentioned and (self._offered(folded, mentioned) or (
                OPENS_WITH_CONDITION_RE.match(folded, timeout=t) and self._result_under_condition(folded, mentioned))):
            return Finding(HEDGED_LATER, f"after the final answer {answer!r} the completion offers {clean(mentioned[-1])!r} "
                           f"too ({shown!r})", (clean(mentioned[-1]),))
        if not others:
            return None
        value = others[-1]
        if renamed := [v for v in others if v in self.named]:
            return Finding(LATER_STATEMENT, f"the final answer {answer!r} is followed by its own name given "
                           f"{clean(renamed[-1])!r} ({shown!r})", (clean(renamed[-1]),))
        for v in others:  # "but really 41 is right"; not "both sides equal 13, so it is correct": the check's own clause
            at = folded.find(v)
            end = min(len(folded), at + len(v) + 40)
            if at >= 0 and (stop := _CLAUSE_END_RE.search(folded, at + len(v), end, timeout=t)):
                end = stop.start()
            if at >= 0 and approves(folded, at + len(v), end, t):
                return Finding(LATER_STATEMENT, f"the final answer {answer!r} is followed by {clean(v)!r} called "
                               f"right ({shown!r})", (clean(v),))
        approximate = says_approximately(folded, t)
        if approximate and all(agrees_approximately(v, self.answer) for v in others):
            return None
        if _OTHER_BASE_RE.search(folded, timeout=t):
            return None  # "In base 2 this is 1111", "in binary": the answer in another notation, not another value
        if cue and _DESCRIBED_MISTAKE_RE.search(folded, max(0, cue.start() - 12), cue.start(), timeout=t):
            cue = None  # "the common mistake is to get 16": a wrong answer described, the answer not retracted
        # 2. a retraction naming another value
        if cue and self.other(self.values(folded[cue.end():])):
            return _holding(RETRACTION, f"the final answer {answer!r} is followed by a retraction naming {clean(value)!r} "
                           f"({shown!r})", others)
        # 3. another value offered as an alternative, in a question, or under a condition
        if self._offered(folded, others) or _QUESTION_RE.search(folded, timeout=t) or (
                first and self._conditional(folded, others)):
            return _holding(HEDGED_LATER, f"after the final answer {answer!r} the completion offers {clean(value)!r} "
                           f"too ({shown!r})", others, folded)
        if len(values) > 1 and others and len(_EQUATED_RE.findall(folded, timeout=t)) >= len(values):
            # "(= 41) (= 43)", "= 41 = 43": each value equated to the answer, with no word between them ("(2, 3, 5)"
            # after a box, "(1), (2)" or a row of a table are the work's values, not claims about the answer)
            rest = folded
            for v in values:
                rest = rest.replace(v, " ", 1)
            if not _OPERATOR_RE.search(rest, timeout=t) and not _META_TOKEN_RE.search(_MACRO_NAME_RE.sub(" ", rest, timeout=t), timeout=t) \
                    and not _LABEL_LINE_RE.match(sentence, timeout=t):
                return _holding(LATER_STATEMENT, f"the final answer {answer!r} is followed by "
                                f"{', '.join(clean(v) for v in others)!r} on their own ({shown!r})", others)
        # 4. a claim of another value; a sentence that restates the answer's own value and names no other value
        # as the answer recaps the work ("There are 56 arrangements in total, of which 14 are invalid")
        if len(others) < len(values) and not any(self._answer_cue_before(folded, v) for v in others):
            return None
        aside = first and sentence.strip().startswith("(")  # "Answer: 120 (5 books, 5! orders)": a justification
        if not self.named and self._restates_working(folded, others, aside):
            return None  # "To summarize, there are 6 rows with 7 seats each.", "120 (5 books, 5! orders)": the work's values
        # ", from 9 eggs.", "because 5 books have 5! orderings": the reason, after the answer; not a premise before a
        # claim of its own ("Since $6 \\times 7 = 42$, the number of arrangements is 41.")
        # the working after an answer given first ("**Answer: $18** Explanation: … so she has 9 eggs left."), and a
        # clause of the answer's reason or means (", from 9 eggs", "because 5 books have 5! orderings"), name the
        # work's values; never a total, an answer or a result claimed ("Therefore, the total is $20."), nor a value
        # the sentence says nothing of ("So $20.", "Because 20.")
        justifying = (m := JUSTIFYING_RE.match(folded, timeout=t)) is not None and (
            m[1].lower() not in ("because", "since", "as") or "," not in folded[m.end():])
        if (self.explaining or justifying) and not RESULT_CLAIM_RE.search(folded, timeout=t) \
                and not any(self._answer_cue_before(folded, v) for v in others) \
                and all(work_value(folded, v, self.money, t) for v in others):
            return None
        quantity = _QUANTITY_IS_RE.search(folded, timeout=t)
        since = 0
        if (other := other_quantity_end(folded, quantity, self.label, t)) is not None:
            # "The probability is 25/82", "That is, the area is $20\\sqrt{3}$" after "m + n = \\boxed{107}": another
            # quantity's value, and the words that claim it are its verb; not "The value of x is 6", "The final value
            # is 108", "The value is 108": the answer's own
            quantity, since = None, other
        cue_claim = _CLAIM.search(folded, since, timeout=t)
        while cue_claim is not None and gives_away(folded, cue_claim):  # "after giving away 5" claims nothing
            cue_claim = _CLAIM.search(folded, cue_claim.end(), timeout=t)
        claims = [c for c in (cue_claim, quantity) if c]
        claim = min(claims, key=lambda c: c.start()) if claims else None
        if claim is not None and _JUDGED_AFTER_RE.match(folded, claim.end(), timeout=t):
            claim = None  # "The answer is reasonable, since she sells about 10 eggs": the answer judged, no value claimed
        claimed = self.values(folded[claim.end():]) if claim is not None else []
        if claim is not None and len(others) < len(values) and claimed and not self.other(claimed[:1]) \
                and not any(said_of_answer(folded, v, t) for v in others):
            claim = None  # "Therefore, the product is 6 and the sum is 5": the answer restated beside other quantities
            # (not "The answer is $6 \\times 7$ which is 43": the answer's own value, given again as another)
        if claim is not None and len(others) < len(values) and self._recap(folded[claim.end():], others):
            claim = None  # a recap restates the answer beside the other quantities it names
        if claim is not None and self.other(self.values(folded[claim.end():])):
            return _holding(LATER_STATEMENT, f"the final answer {answer!r} is followed by a statement of {clean(value)!r} "
                           f"({shown!r})", others)
        if len(others) == 1 and len(values) == 1:
            rest = folded.replace(value, " ", 1) if value in folded else folded
            rest = _MACRO_NAME_RE.sub(" ", rest, timeout=t)  # "\\boxed{41}" is 41 on its own too
            words = [w.lower() for w in _META_TOKEN_RE.findall(rest, timeout=t)]
            words += [""] * sum(len(run) // 2 for run in _UNSPACED_RUN_RE.findall(rest, timeout=t))  # "剩下的鸡蛋有": words
            if _TABLE_ROW_RE.fullmatch(sentence, timeout=t) and not _ANSWER_LABEL_RE.match(sentence, timeout=t):
                return None  # "| Rows | 6 |" in a summary table after the box: a labelled value of the work, as "Rows: 6" is
            if not words and not _LABEL_LINE_RE.match(sentence, timeout=t):  # "41." alone
                return Finding(LATER_STATEMENT, f"the final answer {answer!r} is followed by {clean(value)!r} on its own "
                               f"({shown!r})", (clean(value),))
            if first and not separate and names_its_object(sentence, value, t):
                return None  # "\\boxed{9} divisors of 196.": the value names what the answer counts, no other answer
            if words and len(words) <= _BARE_WORDS and not _LABEL_LINE_RE.match(sentence, timeout=t) \
                    and not self._another_measure(sentence, value):
                # "LOL no, 42.", "Strike that, 42.": a value and a word or two, put in the answer's place
                return Finding(LATER_STATEMENT, f"the final answer {answer!r} is followed by {clean(value)!r} with "
                               f"hardly a word ({shown!r})", (clean(value),))
            if words and len(words) <= _META_WORDS and all(w in META_LABEL_WORDS for w in words):
                # "Verdict: 41", "My pick: 41", "TL;DR 41", "41, final.": no quantity named, only the answer
                return Finding(LATER_STATEMENT, f"the final answer {answer!r} is followed by {clean(value)!r} given as "
                               f"the answer ({shown!r})", (clean(value),))
        return None

    def _another_measure(self, sentence: str, value: str) -> bool:
        """"\\boxed{42} (after 3 days)": the value measures another kind of thing than the answer (days
        against a plain count, or metres against hours), so it is a circumstance, not the answer restated."""
        at = sentence.find(value)
        unit = unit_after(sentence, at + len(value), self.timeout) if at >= 0 else None
        if unit is None and at >= 0 and self.unit is None and (
                value.lstrip().startswith("\\$") or
                ((sign := _CURRENCY_BEFORE_RE.search(sentence[:at], timeout=self.timeout)) and is_currency(sign[1]))):
            return True  # "\\boxed{20\\%}, saving \\$5": an amount of money against a count or a share
        if unit is None or (other := canonical_unit(unit)) is None:
            return False
        return self.unit is None or same_dimension(self.unit, other) is False

    def _restates_working(self, folded: str, others: list[str], aside: bool = False) -> bool:
        """A recap of the work: every other value of the sentence is one the work computed with before the final
        answer (an operand or result of its arithmetic: "6 × 7 = 42", "\\frac{9}{36}", "5!"), and the sentence puts
        none forward as the answer (no answer word, approval or bare "the count is"): "To summarize, there are 6
        rows with 7 seats each.", "So she sells 9 eggs.", "Answer: 120 (5 books, 5! orders)". A count the work
        only stated ("At first I counted 41 seats") is a candidate, not an operand, and is still read as a claim."""
        t = self.timeout
        if not self.working or len(_META_TOKEN_RE.findall(_MACRO_NAME_RE.sub(" ", folded, timeout=t), timeout=t)) < 2:
            return False  # "9." or "So 9." after the answer: a value put in its place, not a recap
        if _ANSWER_CUE.search(folded, timeout=t) or approves(folded, 0, len(folded), t) \
                or OWN_CLAIM_RE.search(folded, timeout=t) or CHANGE_CUE_RE.search(folded, timeout=t):
            return False
        if self._worked is None:
            self._worked = worked_keys(self.working, self.timeout)
        if not all(key(v) in self._worked for v in others):
            return False
        # one value alone must count what the work counted with it ("So she sells 9 eggs." after "16 - 3 - 4 = 9$
        # eggs"), not another thing ("So the hall seats 7 people." after "7 seats each")
        return len({key(v) for v in others}) > 1 or aside or counts_as_in_work(folded, others[0], self.working, t)

    def _answer_cue_before(self, folded: str, value: str) -> bool:
        """An answer word right before ``value`` ("the answer is 41", "Итого: 41"): it is put forward as the answer."""
        at = folded.find(value)
        return at >= 0 and _ANSWER_CUE.search(folded, max(0, at - _CUE_REACH), at, timeout=self.timeout) is not None

    def _recap(self, after: str, others: list[str]) -> bool:
        """"So the roots are 2 and 3": after a conclusion word, each other value belongs to a quantity of
        its own (a subject that is no answer word), so the sentence recaps the work."""
        for v in others:
            at = after.find(v)
            if at < 0:
                return False
            subject = _SUBJECT_BEFORE_RE.search(after[max(0, at - 60):at], timeout=self.timeout)
            if subject is None or _ANSWER_SUBJECT_RE.search(subject[1], timeout=self.timeout):
                return False
        return True

    def _offered(self, folded: str, values: list[str]) -> bool:
        """An alternative or hedge word beside one of ``values`` ("or 41", "41 is also possible", "maybe
        41"); "both" only when the answer is one of the values it joins ("Both 42 and 41 work", not "both 6 and 8
        divide it", "36 is a multiple of both 9 and 12"). Far from every value ("each of the 6 elements is either in or out") it offers none."""
        matches = list(_ALTERNATIVE.finditer(folded, timeout=self.timeout))
        if not matches or not values:
            return False
        if len(values) * len(matches) > 4096:
            return True  # thousands of values and alternatives in one sentence: offered, and bounded
        for m in matches:
            if m[0].lower() == "both":
                group = folded[m.end():m.end() + 80]
                if (stop := _BOTH_GROUP_END_RE.search(group, timeout=self.timeout)) is not None:
                    group = group[:stop.start()]
                if self.key not in {key(v) for v in self.values(group, roles=False)}:
                    continue  # "36 is a multiple of both 9 and 12": the values joined by "both" are not the answer's
            for v in values:
                at, seen = folded.find(v), 0
                while at >= 0 and seen < 8:
                    if at - _OFFER_BEFORE <= m.end() <= at or at + len(v) <= m.start() <= at + len(v) + _OFFER_AFTER:
                        return True
                    at, seen = folded.find(v, at + 1), seen + 1
        return False

    def _bounded(self, sentence: str, value: str) -> bool:
        """"also a multiple of 3", "more than 7": a value that bounds or describes, offered as nothing."""
        at = sentence.find(value)
        return at >= 0 and value_role(sentence, at, at + len(value), self.timeout) == "bound"

    def _denied(self, sentence: str, value: str) -> bool:
        at = sentence.find(value)
        return at >= 0 and value_role(sentence, at, at + len(value), self.timeout) in ("denied", "rejected")

    def _result_under_condition(self, folded: str, mentioned: list[str]) -> bool:
        """"If …, then 41", "if …, it would be 41": a value given as the result of the condition (not an
        operand of it, as in "we would multiply by 2")."""
        if COUNTERFACTUAL_RE.search(folded, timeout=self.timeout):
            return False
        for v in mentioned:
            at = folded.find(v)
            if at > 0 and RESULT_LEAD_RE.search(folded[max(0, at - 16):at], timeout=self.timeout):
                # "If you forgot the empty set you would get 41, which is wrong": a mistake described; a verb that
                # excludes a case before the result is the condition's own ("If we exclude 0, it would be 3")
                if not any(m[0].lower() not in _CASE_RULED_OUT or m.start() > at
                           for m in _RULED_OUT.finditer(folded, timeout=self.timeout)):
                    return True
        return False

    def _conditional(self, folded: str, others: list[str]) -> bool:
        """Another value put under a condition right after the answer: "(41 if zero counts)"."""
        for v in others:
            at = folded.find(v)
            after = folded[at + len(v):at + len(v) + 30]
            if at >= 0 and (CONDITION_AFTER_RE.search(after, timeout=self.timeout) or (
                    _NUMBER_VALUE_RE.fullmatch(v, timeout=self.timeout) and READING_AFTER_RE.match(after, timeout=self.timeout))):
                return True
        return False

    def _denies_value(self, text: str) -> str | None:
        """A negation next to the answer's own value: "not 42", "42 is wrong", "instead of 42"."""
        answer = clean(self.answer)
        if not answer or len(answer) > 60:
            return None
        for m in regex.finditer(r"(?<![0-9.])" + regex.escape(answer) + r"(?![0-9]|[.,][0-9])", text, timeout=self.timeout):
            before, after = text[max(0, m.start() - 40):m.start()], text[m.end():m.end() + 40]
            if regex.search(r"(?i)(?:\bnot|n't|\bnever|instead\s+of|rather\s+than|other\s+than)\s*(?:equal\s+to\s+|be\s+)?\$?\s*$",
                            before, timeout=self.timeout) and not _NO_OTHER_THAN_RE.search(before, timeout=self.timeout):
                return text[max(0, m.start() - 20):m.end()].strip()
            if regex.match(r"(?i)\s*\$?\s*(?:is|was)\s+(?:not|wrong|incorrect|false)\b|\s*\$?\s*(?:isn't|wasn't)\b",
                           after, timeout=self.timeout):
                return text[m.start():m.end() + 20].strip()
        return None


def _holding(rule_name: str, reason: str, values: list[str], sentence: str = "") -> Finding:
    """A finding that carries every other value a sentence states, for the reconciler: each must equal the
    answer for the sentence to be a restatement ("the answer is 41, while earlier I had 84/2" is not one);
    in a sentence that approximates ("roughly 0.67, or 67%") each is held to its own precision."""
    others = tuple(dict.fromkeys(clean(v) for v in values))  # more than the reconciler takes: refused
    approximate = others if sentence and says_approximately(sentence) else ()
    return Finding(rule_name, reason, others, approximate=approximate)
