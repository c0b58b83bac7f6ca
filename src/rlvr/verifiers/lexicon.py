"""Every vocabulary the verifier reads model text with, in one place, and the patterns built from it.

Words that mark an answer, a conclusion, a retraction, a hedge, a negation, a bound, a rejected
candidate or a hypothetical, per language; the LaTeX macros that draw a box, hide text, strike it
through, colour it or redefine commands; the units a value may carry. Each reader builds the
:class:`PhraseMatcher` it needs from one of these lists (whole words, any case, linear time), and
each quick filter (``any_in``) is derived from the same list, so a word added here reaches the
reader and its filter together.
"""

from __future__ import annotations

from rlvr.verifiers.phrases import PhraseMatcher, any_in, words_pattern


def alternation(words: tuple[str, ...]) -> str:
    """A regex alternative of whole words (of scripts with spaces) and of phrases (of scripts without:
    "或", "または"), longest first, for patterns that must be compiled with the rest of a rule."""
    import regex

    def east_asian(w: str) -> bool:
        return regex.search(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]", w, timeout=1.0) is not None

    # one-letter words ("y", "e", "и") are variables in mathematical text: never a conjunction here
    spaced = sorted((w for w in words if len(w) > 1 and not east_asian(w)), key=len, reverse=True)
    unspaced = sorted((w for w in words if east_asian(w)), key=len, reverse=True)
    parts = []
    if spaced:
        parts.append(r"(?<![\p{L}\\])(?:" + "|".join(regex.escape(w) for w in spaced) + r")(?![\p{L}])")
    if unspaced:
        parts.append("(?:" + "|".join(regex.escape(w) for w in unspaced) + ")")
    return "|".join(parts)

__all__ = [
    "ANSWER_WORDS", "APPROVAL_MARKS", "BELIEF_PHRASES", "META_LABEL_WORDS", "CONCLUSION_WORDS", "RETRACTION_CUES", "HEDGE_WORDS", "NEGATION_WORDS", "UNSURE_PHRASES",
    "APPROXIMATION_WORDS", "BOUND_WORDS", "REJECTION_WORDS", "HYPOTHETICAL_WORDS", "ALTERNATIVE_WORDS", "LIST_WORDS", "GRADER_WORDS",
    "BOX_MACROS", "HIDING_MACROS", "TEX_CONDITIONALS", "STRIKING_MACROS", "COLOUR_MACROS", "REDEFINING_MACROS", "TRANSPARENT_MACROS", "SIZE_SWITCHES", "STYLE_WRAPPERS", "FUNCTION_WORDS", "OPERATION_WORDS", "RESULT_VERBS",
    "NEGATIVE_EVALUATIONS", "ANSWER_REFERENCES", "WITHDRAWAL_CUES", "PROSE_DOUBT_WORDS", "TENTATIVE_WORDS", "YES_WORDS", "NO_WORDS", "EXCLUDING_WORDS", "MODIFIERS_AFTER",
    "UNIT_WORDS", "UNIT_SYMBOLS", "ORDINAL_SUFFIXES", "OR_WORDS", "TOTAL_WORDS", "BINARY_MODIFIERS", "MEASURE_WORDS", "CHANGING_WORDS", "CHANGING", "words_pattern", "any_in", "PhraseMatcher", "alternation",
]


# -- what labels an answer ----------------------------------------------------------------------
#: labels that introduce a final answer ("Answer: 9", "**Final Answer**", "答案：9", "Ответ: 9")
ANSWER_WORDS: tuple[str, ...] = (
    "answer", "final answer", "the answer", "my answer", "our answer", "the final answer", "my final answer",
    "correct answer", "the correct answer", "ans", "final result", "result", "final solution", "solution",
    "final value", "final", "réponse", "réponse finale", "la réponse", "respuesta", "respuesta final",
    "la respuesta", "antwort", "die antwort", "endergebnis", "ergebnis", "lösung", "risposta", "risposta finale",
    "resposta", "resposta final", "odpowiedź", "antwoord", "cevap", "yanıt", "jawaban", "đáp án", "đáp số", "lời giải", "ответ",
    "окончательный ответ", "答案", "最终答案", "最后答案", "答", "解答", "結果", "答え", "解", "정답", "답",
    "उत्तर", "अंतिम उत्तर", "الإجابة", "الجواب", "الإجابة النهائية", "відповідь", "svar", "svaret", "απάντηση",
    "vastaus", "jibu", "odpověď", "válasz", "răspuns", "svaret er", "jawapan", "คำตอบ", "תשובה", "پاسخ",
    "итого", "итог", "результат", "ergebnis", "solución", "la solución", "solución correcta", "resultado",
    "resultado final", "risultato", "risultato finale", "kết quả", "sonuç", "wynik", "ostateczny wynik",
    "odpowiedź końcowa", "résultat", "résultat final", "결과", "最终结果", "结果", "जवाब", "अंतिम जवाब",
    "câu trả lời", "trả lời", "đáp", "javob", "жауап", "پاسخ نهایی", "jawaban akhir", "sagot", "antwort lautet",
    # the word "answer" in more of the languages models are asked in (Slavic, Baltic, Caucasian, Indic, South-East Asian)
    "odgovor", "одговор", "отговор", "адказ", "odpoveď", "atsakymas", "atbilde", "vastus", "cavab", "жооп", "ҷавоб",
    "хариулт", "პასუხი", "պատասխան", "উত্তর", "ਜਵਾਬ", "જવાબ", "ಉತ್ತರ", "ഉത്തരം", "பதில்", "సమాధానం", "జవాబు",
    "جواب", "පිළිතුර", "အဖြေ", "ចម្លើយ", "ຄຳຕອບ", "መልስ", "erantzuna", "ateb", "freagra", "përgjigja",
    "përgjigje", "răspunsul", "răspuns final", "răspunsul final", "amsa", "impendulo", "ответ задачи",
)
#: labels only (no article): what may stand alone on an answer line, e.g. "**Final Answer**"
ANSWER_LINE_LABELS: tuple[str, ...] = tuple(w for w in ANSWER_WORDS if w not in ("final", "解", "답", "solution"))

#: marks that approve the value they stand beside ("42 ✅"): decoration, taken off an answer; crosses
#: (❌, ✗) are not among them, so an answer beside one stays unread and is not paid
APPROVAL_MARKS: tuple[str, ...] = ("✓", "✔", "✅", "☑", "🎉", "🎯", "✨", "🏆", "⭐", "🌟", "👍", "💯")

#: words that say a value is the answer without naming any quantity of the problem ("Verdict: 41",
#: "My pick: 41", "TL;DR 41", "41, final."): a sentence of one value and only these words claims it
META_LABEL_WORDS: frozenset[str] = frozenset("""
answer answers ans final finally result results solution solutions response reply output verdict conclusion
conclusions summary summarizing summing bottom line short brief tl dr tldr qed pick picks choice choose chose
candidate alt alternative alternatively option guess bet gut take call correction corrected update updated
revised revision edit note ps my the our your second first best other another true real correct official
overall actual actually instead really rather then so thus hence therefore i i'm i'd i'll going go with on
say says said would be is it it's that this here goes mine go-to pick final-answer but in short
ultimately ergo accordingly end upshot told long story put simply simple which leaves leave left us with net all
to sum up thus consequently conclude concluding wrap wrapping altogether
should say box please grade record read as mark count for this one enter system eh better fits fit honestly
seems seem more likely lean leaning towards toward feels feel safer safe prefer preferred use write put take
instead choose
second opinion recount reflection again equivalently namely upon review reviewing reconsider reconsidering
rethinking hindsight double-checking double-check checking look now get got gives give lock let's submit
accept grade me recheck rechecking rechecked re-check re-checking
""".split())

# -- how a sentence concludes, retracts, hedges, denies -------------------------------------------
# (not German "also": read in English it adds and concludes nothing; "daher", "somit", "folglich" remain)
CONCLUSION_WORDS: tuple[str, ...] = (
    "therefore", "thus", "hence", "so", "in conclusion", "finally", "consequently", "overall", "in total",
    "in summary", "to conclude", "which gives", "giving", "we get", "we obtain", "this gives", "the result is",
    "donc", "ainsi", "en conclusion", "par conséquent", "por lo tanto", "entonces", "así que", "por tanto",
    "daher", "somit", "folglich", "quindi", "pertanto", "portanto", "logo", "więc", "zatem", "dus",
    "bu yüzden", "dolayısıyla", "jadi", "vậy", "поэтому", "итак", "следовательно", "значит", "所以", "因此",
    "因而", "综上", "故", "于是", "したがって", "よって", "따라서", "그러므로", "لذا", "لذلك", "إذن", "इसलिए", "अतः",
    "∴", "⇒", "⟹",  # the therefore sign, and the arrows a closing line opens with ("⇒ 42")
)
#: a cue that the text after it replaces what came before ("wait, actually 8", "不对，是8")
RETRACTION_CUES: tuple[str, ...] = (
    "wait", "actually", "oops", "correction", "corrected", "mistake", "my mistake", "my bad", "instead",
    "on second thought", "i was wrong", "that was wrong", "that's wrong", "that is wrong", "scratch that",
    "strike that", "cross that out", "erase that", "delete that",
    "disregard", "ignore that", "ignore this", "ignore the above", "ignore the previous", "should be",
    "should have been", "i meant", "i mean", "rather", "no wait", "hold on", "hmm", "let me reconsider",
    "let me redo", "let me recompute", "let me recalculate", "let me re-check", "let me recheck", "update",
    "revised", "revision", "erratum", "not quite", "nope", "just kidding", "kidding", "make that", "en fait", "attendez", "erreur", "plutôt",
    "en realidad", "espera", "corrección", "más bien", "eigentlich", "moment", "korrektur", "vielmehr",
    "anzi", "aspetta", "correzione", "na verdade", "espere", "correção", "właściwie", "poprawka", "eigenlijk",
    "aslında", "sebenarnya", "thực ra", "подождите", "на самом деле", "поправка", "вернее", "不对", "等等",
    "其实", "更正", "错了", "应该是", "改为", "いや", "実は", "訂正", "아니", "사실은", "정정", "في الواقع",
    "تصحيح", "वास्तव में", "सुधार", "чекайте", "зачекайте", "насправді", "vänta", "faktiskt", "περίμενε",
    "στην πραγματικότητα", "odota", "itse asiassa", "subiri", "kwa kweli", "počkej", "vlastně", "várj", "valójában",
    "stai", "de fapt", "tunggu", "sebentar", "รอ", "จริงๆ", "רגע", "בעצם", "صبر کن", "در واقع", "bekle",
)
#: words that offer doubt: a sentence with one states no single answer
HEDGE_WORDS: tuple[str, ...] = (
    "maybe", "perhaps", "possibly", "probably", "presumably", "might", "guess", "unsure", "uncertain",
    "unclear", "likely", "could be", "peut-être", "probablement", "quizás", "tal vez", "quizá", "vielleicht",
    "wahrscheinlich", "forse", "talvez", "może", "misschien", "belki", "mungkin", "có lẽ", "возможно",
    "наверное", "也许", "可能", "或许", "たぶん", "多分", "아마", "ربما", "शायद", "plausible", "defensible",
    "arguably", "equally", "conceivably", "alternatively", "alternative", "alternatives", "alternate", "можливо", "kanske", "ίσως", "ehkä", "labda",
    "может быть", "вроде", "наверно", "мабуть", "напевно", "muhtemelen", "galiba", "아마도", "おそらく",
    "at best", "at worst", "in theory", "in principle", "in all likelihood", "in all probability", "in doubt",
    "in question", "in teoria", "en teoría", "en théorie", "in theorie", "em teoria", "auf verdacht", "по идее",
    "в теории", "теоретически", "theoretisch", "vermutlich", "ich glaube", "ich denke", "creo que", "je pense",
    "je crois", "penso che", "credo che", "acho que", "думаю", "кажется", "大概是", "我猜", "我觉得", "kanskje",
    "måske", "wellicht", "chyba", "i reckon", "i'd say", "i would say", "apparently",
    "seemingly", "i would go with", "i'd go with", "could argue", "would argue",
    "or so i believe", "or so i think",
)
#: an approximation is the value it states ("about 12" answers 12, compared exactly), not a hedge
APPROXIMATION_WORDS: tuple[str, ...] = (
    "approximately", "about", "roughly", "around", "nearly", "almost", "environ", "aproximadamente",
    "ungefähr", "circa", "примерно", "大约", "大概", "約",
)
#: words that join alternatives between values ("7 or 8", "7 oder 8", "7或8"); one-letter words of
#: some languages ("o", "y") are left out: they are variables in mathematical text
ALTERNATIVE_WORDS: tuple[str, ...] = (
    "or", "nor", "alternatively", "otherwise", "vs", "versus", "ou", "oder", "oppure", "lub", "albo", "veya", "ya da", "atau", "hoặc",
    "или", "либо", "或", "或者", "还是", "または", "또는", "أو", "या",
)
#: words that add a second value to one already given ("43 also works", "43 as well", "both 41 and 43")
ADDING_WORDS: tuple[str, ...] = ("also", "too", "as well", "both", "either")
#: the alternatives' conjunction itself ("x = 1 oder x = 2", "1 或 2"): what joins roots of an equation
OR_WORDS: tuple[str, ...] = tuple(w for w in ALTERNATIVE_WORDS if w not in ("nor", "alternatively", "otherwise", "vs", "versus"))
LIST_WORDS: tuple[str, ...] = ("and", "et", "y", "und", "e", "i", "en", "ve", "dan", "và", "и", "和", "与", "及", "と",
                               "그리고", "و", "और")
NEGATION_WORDS: tuple[str, ...] = (
    "not", "never", "no", "n't", "isn't", "wasn't", "cannot", "can't", "ne", "pas", "jamais", "no es", "nunca",
    "nicht", "kein", "keine", "niemals", "non", "mai", "não", "nie", "niet", "değil", "tidak", "bukan",
    "không", "не", "нет", "不是", "不", "没有", "並非", "ではない", "아니다", "아님", "ليس", "لا", "नहीं", "όχι", "δεν",
    "ні",
)
#: doubt about the answer itself: "not sure", "I think it might be" (a hedge, never a denial)
UNSURE_PHRASES: tuple[str, ...] = (
    "not sure", "not certain", "not confident", "no idea", "unsure", "i guess", "hard to say", "can't tell",
    "cannot tell", "pas sûr", "no estoy seguro", "nicht sicher", "non sono sicuro", "não tenho certeza",
    "не уверен", "不确定", "不太确定", "わからない", "확실하지",
)
#: the writer only believes or perceives it ("No, I think …", "It seems there are 5 left", "almost certainly"): a
#: belief, not a commitment (a closing "…, I think." tag is read by the prose reader as well)
BELIEF_PHRASES: tuple[str, ...] = (
    "i think", "we think", "i believe", "we believe", "i suspect", "i feel", "i suppose", "i assume", "i expect",
    "it seems", "seems", "seem", "it appears", "appears to be", "as far as i can tell", "almost certainly",
    "fairly sure", "fairly confident", "pretty sure", "i'm fairly", "je pense", "je crois", "creo que", "pienso que",
    "ich glaube", "ich denke", "credo che", "penso che", "acho que", "я думаю", "мне кажется", "кажется", "我认为",
    "我觉得", "好像", "と思う", "と思います",
)
#: a value that is a bound, not the value: "more than 7", "at least 7", "≥ 7"
BOUND_WORDS: tuple[str, ...] = (
    "more than", "less than", "greater than", "smaller than", "fewer than", "larger than", "bigger than",
    "a multiple of", "multiple of", "divisible by", "a divisor of", "a factor of", "in excess of", "upwards of",
    "at least", "at most", "no more than", "no less than", "not more than", "not less than", "up to",
    "exceeds", "exceed", "exceeding", "over", "under", "below", "above", "beyond", "upper bound",
    "lower bound", "bounded by", "between", "plus de", "moins de", "au moins", "au plus", "más de",
    "menos de", "al menos", "mehr als", "weniger als", "mindestens", "höchstens", "più di", "meno di",
    "almeno", "mais de", "pelo menos", "больше", "меньше", "не менее", "не более", "至少", "至多", "超过",
    "大于", "小于", "不超过", "以上", "以下", "未満", "이상", "이하",
    # the same bounds in the other languages whose answer labels are read (no library lists them; words that are
    # also nouns, "максимум", "最大", are left out: "Ответ: максимум 25" may name the maximum asked for)
    "более", "свыше", "хотя бы", "как минимум", "как максимум", "понад", "більше", "менше", "щонайменше",
    "على الأقل", "أكثر من", "أقل من", "τουλάχιστον", "το πολύ", "περισσότερο από", "λιγότερο από", "en az",
    "en fazla", "少なくとも", "como mucho", "como máximo", "como mínimo", "bis zu", "jusqu'à", "al massimo",
    "no máximo", "no mínimo", "ten minste", "hoogstens", "co najmniej", "najwyżej",
)
#: a candidate that was tried and rejected: "7 fails", "7 doesn't work", "rules out 7"
REJECTION_WORDS: tuple[str, ...] = (
    "fails", "failed", "doesn't work", "does not work", "didn't work", "won't work", "is impossible",
    "impossible", "is invalid", "invalid", "is too big", "is too small", "too large", "too small", "too big",
    "rules out", "ruled out", "rule out", "eliminate", "eliminated", "discard", "discarded", "reject",
    "rejected", "not valid", "not possible", "contradiction", "is wrong", "is incorrect", "was wrong",
    "not a solution", "extraneous", "ne marche pas", "no funciona", "funktioniert nicht", "non funziona",
    "не подходит", "不行", "不成立", "舍去", "不符合",
)
#: words that, straight after a value, change it or make it a bound ("\\boxed{42} squared", "… or more");
#: "times", "more" and "less" alone are left out: "ran \\boxed{5} times", "\\boxed{3} more apples than Bob"
MODIFIERS_AFTER: tuple[str, ...] = (
    "squared", "cubed", "factorial", "percent", "per cent", "hundred", "hundreds", "thousand", "thousands",
    "million", "millions", "billion", "billions", "trillion", "dozen", "dozens", "grand", "recurring", "repeating",
    "at most", "at least",
    "or more", "or fewer", "or less", "or so", "or greater", "or higher", "or lower", "or above", "or below",
    "tops", "max", "maximum", "minimum", "minus", "plus", "negated", "ish", "approximately", "roughly",
    "give or take", "plus or minus", "to the power", "raised to", "halved", "doubled", "tripled", "over",
    "divided by", "multiplied by", "times ten", "times 10", "less than", "more than", "fewer than",
    "reciprocal", "inverse", "and a half", "point five", "and change", "or thereabouts", "more or less",
    "-ish", "if", "unless", "assuming", "provided", "only if", "or something", "or close",
    "less", "less one", "times", "times two", "reversed", "backwards", "written backwards", "then negate",
    "then subtract", "then add", "then divide", "then multiply", "negate", "then halve", "then double",
)
#: of MODIFIERS_AFTER, the operations that need an operand after them: "\\boxed{5} times 3" changes the box,
#: "crosses the axis \\boxed{4} times." and "the maximum \\boxed{12} over the interval" do not
BINARY_MODIFIERS: frozenset[str] = frozenset((
    "times", "over", "plus", "minus", "less", "divided by", "multiplied by", "less than", "more than", "fewer than",
    "to the power", "raised to",
))
#: words that exclude the value after them: "anything except 7", "we rule out 7", "I reject 7"
EXCLUDING_WORDS: tuple[str, ...] = (
    "except", "except for", "excluding", "exclude", "excludes", "anything but", "other than", "besides",
    "reject", "rejects", "rejecting", "rule out", "rules out", "ruled out", "eliminate", "eliminates",
    "discard", "discards", "instead of", "rather than", "apart from", "aside from", "minus", "without",
    "sauf", "excepto", "außer", "tranne", "кроме", "除了",
)
#: a value inside a supposition: "if it were 7", "suppose 7", "assume x = 7"
HYPOTHETICAL_WORDS: tuple[str, ...] = (
    "if", "suppose", "supposing", "assume", "assuming", "were", "would", "would be", "would have been", "had been",
    "let's say", "say", "for example", "e.g.", "for instance", "such as", "like", "unless", "otherwise",
    "si", "supposons", "suponiendo", "supongamos", "wenn", "falls", "angenommen", "se", "supponiamo",
    "если", "допустим", "предположим", "如果", "假设", "假如", "若", "もし", "仮に", "만약", "إذا", "यदि",
)
#: words that turn a noun or a qualifier beside a value into a second value, a denial or a doubt: a noun after a
#: count ("7 \\text{ goats or } 8") or a qualifier after an answer ("\\text{ for all } x \\text{ except } 3") holding
#: one of them is no noun and no qualifier
CHANGING_WORDS: tuple[str, ...] = tuple(dict.fromkeys(w for group in (ALTERNATIVE_WORDS, ADDING_WORDS, NEGATION_WORDS,
                                                                     EXCLUDING_WORDS, HEDGE_WORDS, APPROXIMATION_WORDS,
                                                                     HYPOTHETICAL_WORDS) for w in group))
CHANGING = words_pattern(CHANGING_WORDS)
#: text addressed to whoever grades the answer
GRADER_WORDS: tuple[str, ...] = ("grader", "evaluator", "checker", "verifier", "marker", "reviewer", "examiner",
                                 "judge", "scorer", "rater", "reward model", "scoring system", "grading system",
                                 "scoring model", "correcteur", "correctrice", "evaluador", "prüfer", "prüferin",
                                 "评分员", "评分", "阅卷老师", "阅卷", "评审", "corrector", "проверяющий", "проверяющего",
                                 "llm judge", "automated system", "evaluation pipeline", "checking script", "grading script")

# -- LaTeX and HTML: what draws a box, hides, strikes, colours or redefines -----------------------
#: macros whose last brace argument is an answer box; the number of brace arguments before it
BOX_MACROS: dict[str, int] = {"boxed": 0, "fbox": 0, "framebox": 0, "Boxed": 0, "bbox": 0, "colorbox": 1,
                              "fcolorbox": 2, "ovalbox": 0, "doublebox": 0, "shadowbox": 0, "Ovalbox": 0}
#: macros whose argument is not shown: phantoms take space without ink
HIDING_MACROS: tuple[str, ...] = ("phantom", "hphantom", "vphantom", "comment", "iffalse", "ignore", "hide",
                                  "invisible", "mathphantom", "hidden", "notshow", "vanish")
#: TeX's conditionals: what they show depends on an evaluation the verifier does not run, so only
#: ``\\iftrue``'s first branch is read and every other branch is hidden
TEX_CONDITIONALS: tuple[str, ...] = ("iftrue", "iffalse", "if", "ifnum", "ifdim", "ifx", "ifdefined", "ifcsname",
                                     "ifodd", "ifcase", "ifcat", "ifmmode", "ifvmode", "ifhmode", "ifinner", "ifvoid",
                                     "ifeof", "ifhbox", "ifvbox", "ifincsname", "ifthenelse")
#: macros that strike their argument out: what is struck is withdrawn
STRIKING_MACROS: tuple[str, ...] = ("cancel", "bcancel", "xcancel", "cancelto", "sout", "st", "xout", "stkout",
                                    "strikeout", "strike", "soutthick", "hcancel", "stroke")
#: macros that colour text: transparent unless the colour cannot be seen
COLOUR_MACROS: tuple[str, ...] = ("textcolor", "color", "colorbox", "fcolorbox", "mathcolor", "highlight", "hl")
#: TeX that changes what commands mean: a completion that uses any cannot be read at face value
REDEFINING_MACROS: tuple[str, ...] = (
    "def", "edef", "gdef", "xdef", "let", "futurelet", "global", "newcommand", "renewcommand", "providecommand",
    "DeclareRobustCommand", "DeclareMathOperator", "NewDocumentCommand", "RenewDocumentCommand",
    "ProvideDocumentCommand", "DeclareDocumentCommand", "NewExpandableDocumentCommand", "newenvironment",
    "renewenvironment", "csname", "endcsname", "expandafter", "catcode", "makeatletter", "makeatother",
    "input", "include", "require", "newif", "renewrobustcmd", "robustify", "AtBeginDocument", "everymath",
    "everydisplay", "mathchardef", "chardef", "countdef", "setbox", "unhbox", "uppercase", "lowercase",
    "scantokens", "detokenize", "noexpand", "aftergroup", "afterassignment",
)
#: LaTeX's size and math-style switches: they set how what follows is shown and state nothing ("\\Large\\boxed{42}")
SIZE_SWITCHES: tuple[str, ...] = (
    "tiny", "scriptsize", "footnotesize", "small", "normalsize", "large", "Large", "LARGE", "huge", "Huge",
    "displaystyle", "textstyle", "scriptstyle", "scriptscriptstyle", "boldmath", "unboldmath",
)
#: macros that show their one argument in another face, its value unchanged ("\\underline{42}", "\\bm{42}")
STYLE_WRAPPERS: tuple[str, ...] = (
    "text", "textbf", "textit", "textrm", "textsf", "texttt", "textnormal", "textup", "emph", "mathbf", "mathit",
    "mathrm", "mathsf", "mathtt", "mathnormal", "boldsymbol", "bm", "pmb", "underline", "uline", "mbox",
    "ensuremath", "hbox", "bold",
)
#: macros that only format their argument: they are read through
TRANSPARENT_MACROS: tuple[str, ...] = STYLE_WRAPPERS + SIZE_SWITCHES + (
    "mathbb", "overline", "bf", "it", "rm", "strong", "smash", "mathclap", "mathllap", "mathrlap", "vbox",
)

# -- units and ordinals ---------------------------------------------------------------------------
#: what a number counts when it stands right after it in Chinese, Japanese or Korean: the classifiers and
#: counters ("42个苹果", "42個", "42개", "42명"); a word after a number that opens with none of them ("的平方",
#: "以上", "ではない") is no count. 打 (a dozen) and 双/对 (a pair) multiply, so they are not here
MEASURE_WORDS: frozenset[str] = frozenset(
    "个 個 只 本 张 張 条 條 块 塊 元 圆 角 分 人 次 天 年 月 日 岁 歲 米 克 升 种 種 辆 輛 件 位 名 份 支 头 頭 匹 棵 根 颗 顆 粒 倍 "
    "斤 瓶 杯 碗 盒 箱 包 袋 套 台 部 架 艘 座 栋 棟 间 間 家 所 首 篇 页 頁 道 题 題 步 点 點 秒 周 週 度 "
    "枚 冊 回 円 歳 羽 軒 着 足 膳 脚 通 曲 話 巻 番 段 階 つ "
    "개 명 마리 권 장 번 살 원 대 송이 병 잔 시 분 초 일 년 달 주 켤레 벌 채 층 과".split())
#: unit symbols that may follow a number without a space or after one (5 m, 5m/s^2, 20 °C)
UNIT_SYMBOLS: tuple[str, ...] = (
    "m", "cm", "mm", "km", "nm", "um", "μm", "µm", "in", "ft", "yd", "mi", "g", "kg", "mg", "lb", "lbs", "oz",
    "t", "s", "ms", "min", "h", "hr", "hrs", "d", "yr", "N", "J", "kJ", "W", "kW", "Pa", "kPa", "atm", "Hz",
    "V", "A", "mA", "Ω", "ohm", "K", "C", "F", "mol", "L", "mL", "l", "ml", "cal", "kcal", "eV", "rad", "sr",
    "dB", "mph", "kph", "km/h", "m/s", "°", "°C", "°F", "deg", "USD", "EUR", "cents", "ct",
)
#: unit words, singular and plural, a few languages (5 dollars, 3 hours, 2 pommes)
UNIT_WORDS: tuple[str, ...] = (
    "meter", "meters", "metre", "metres", "centimeter", "centimeters", "millimeter", "millimeters", "kilometer",
    "kilometers", "inch", "inches", "foot", "feet", "yard", "yards", "mile", "miles", "gram", "grams",
    "kilogram", "kilograms", "pound", "pounds", "ounce", "ounces", "ton", "tons", "second", "seconds", "minute",
    "minutes", "hour", "hours", "day", "days", "week", "weeks", "month", "months", "year", "years", "degree",
    "degrees", "radian", "radians", "dollar", "dollars", "cent", "cents", "euro", "euros", "unit", "units",
    "square", "cubic", "sq", "liter", "liters", "litre", "litres", "gallon", "gallons", "newton", "newtons",
    "joule", "joules", "watt", "watts", "volt", "volts", "ampere", "amperes", "ohm", "ohms", "kelvin",
    "celsius", "fahrenheit", "percent", "people", "students", "ways", "apples", "times", "points", "coins",
    "marbles", "books", "cookies", "pieces", "items", "tickets", "boxes", "cars", "pages", "steps", "games",
    "per", "mph", "calories", "mètres", "heures", "euros", "pommes", "personnes", "metros", "horas",
    "personas", "Meter", "Stunden", "Euro", "米", "厘米", "千米", "元", "个", "人", "天", "小时", "分钟", "岁",
)
ORDINAL_SUFFIXES: tuple[str, ...] = ("st", "nd", "rd", "th", "er", "e", "ème", "º", "ª", "°")

#: words of a language, never a unit or a variable: what follows a number in "7 is wrong", "7 or 8"
FUNCTION_WORDS: frozenset[str] = frozenset(w.lower() for group in (
    ALTERNATIVE_WORDS, HEDGE_WORDS, NEGATION_WORDS, REJECTION_WORDS, RETRACTION_CUES, ANSWER_WORDS, UNSURE_PHRASES)
    for phrase in group for w in phrase.split() if len(w) >= 2) | frozenset(
    "is are was were be been the this that wrong right correct incorrect true false yes no none answer final then "
    "because since so also too than but if else when where which maybe perhaps nope and or not".split())

#: words that change a value when they follow it: never a unit ("7 squared", "5 thousand", "2 halves")
OPERATION_WORDS: frozenset[str] = frozenset("""
squared cubed factorial reciprocal inverse root roots power powers exponent halved doubled tripled twice thrice
double triple half halves third thirds quarter quarters fifth fifths sixth sixths tenth tenths hundredth hundredths
thousandth thousandths millionth millionths hundred hundreds thousand thousands million millions billion billions
trillion trillions lakh lakhs lac lacs crore crores grand dozen dozens score gross percent percentage permille ppm ppb
googol myriad dutzend douzaine douzaines docena docenas dozzina dozzine дюжина дюжины дюжин tuzin düzine
negative minus plus times over divided multiplied less more fewer greater smaller least most
maximum minimum max min tops approx approximately roughly about around nearly almost negated ish
""".split())

#: verbs that state a result: "the count comes out to 41", "this gives 41", "дорівнює 41"
RESULT_VERBS: tuple[str, ...] = (
    "comes out to", "comes to", "works out to", "equals", "is equal to", "totals", "amounts to", "yields",
    "results in", "gives us", "we get", "i get", "we obtain", "i obtain", "we find", "we found", "i find", "i found",
    "we conclude", "we have found", "ergibt", "égale", "vaut", "es igual a",
    "è uguale a", "é igual a", "равно", "равен", "дорівнює", "blir", "on yhtä kuin", "ισούται", "ni sawa na",
    "等于", "得到", "になる", "이다", "يساوي", "बराबर",
)
#: words that sum up a result: "in total", "insgesamt", "всего", "一共"
TOTAL_WORDS: tuple[str, ...] = (
    "total", "in total", "altogether", "in all", "all told", "au total", "en tout", "en total", "insgesamt",
    "zusammen", "in totale", "in tutto", "no total", "ao todo", "łącznie", "w sumie", "в сумме", "всего", "итого",
    "toplam", "toplamda", "tổng cộng", "totalt", "yhteensä", "συνολικά", "kwa jumla", "összesen", "celkem",
    "一共", "总共", "共计", "共", "合计", "合計", "全部で", "총", "모두", "합계", "कुल", "مجموع", "إجمالي", "در مجموع",
)
#: what a sentence says of the answer when it withdraws it: "this is wrong", "(wrong)", "not correct"
NEGATIVE_EVALUATIONS: tuple[str, ...] = (
    "wrong", "incorrect", "not correct", "not right", "not the answer", "not the correct answer", "mistaken",
    "an error", "a mistake", "false", "invalid", "not valid", "bogus", "nonsense", "faux", "falsch", "sbagliato",
    "errado", "неправильно", "неверно", "错误", "不对", "错了", "間違い", "틀렸", "خطأ", "गलत",
)
#: retraction cues that take the answer back even with no other value ("\\boxed{42}. Just kidding.");
#: a bare "wait" or "let me check" only announces more checking
WITHDRAWAL_CUES: tuple[str, ...] = (
    "just kidding", "kidding", "jk", "scratch that", "disregard", "disregard that", "ignore that", "ignore this",
    "ignore the above", "ignore the previous", "never mind", "nevermind", "not really", "i was wrong",
    "that was wrong", "that's wrong", "that is wrong", "my mistake", "my bad", "oops", "nope", "not quite",
    "no wait", "erratum", "not the answer", "don't use", "do not use", "retracted", "i take it back",
    "take that back",
)
#: beside the fallback's other vocabularies (negation, hedge, bound, rejection, supposition, alternative),
#: words that keep a prose sentence from stating its value as the answer wherever they stand in it
#: ("42 or more", "a multiple of 42", "the problem states 42", "Had it been 42", "42 plus something")
PROSE_DOUBT_WORDS: tuple[str, ...] = (
    "more", "fewer", "less", "least", "most", "upwards", "excess", "exceeds", "multiple", "multiples", "divisor",
    "divisors", "factor", "factors", "except", "excluding", "exclude", "anything but", "other than", "something",
    "some", "plus", "minus", "ish", "given", "state", "states", "stated", "says", "said", "test", "testing",
    "tested", "try", "trying", "tried", "check", "checking", "imagine", "hypothetical", "hypothetically", "had",
    "should", "could", "can", "cannot", "unable", "stuck", "give up", "unknown", "undetermined", "determined",
    "determine", "solve", "solved", "violates", "violate", "contradiction", "out of the question", "wrong",
    "incorrect", "mistake", "error", "typo", "let", "pretend", "question", "consider", "considering", "candidate",
    "candidates", "guess", "estimate", "approximately", "range", "interval", "bound", "limit",
)
#: words in the final statement that present its answer as something other than a claim: a sample of
#: the format, a placeholder, a guess, something unverified ("Placeholder: \\boxed{42}")
#: "yes" and "no" (and "true", "false") as whole answers, in the languages the answer phrases are read in: no library
#: holds them (CLDR dropped its yes/no strings), so they are listed here
YES_WORDS: tuple[str, ...] = (
    "yes", "true", "oui", "vrai", "sí", "si", "verdadero", "cierto", "ja", "wahr", "richtig", "sim", "verdadeiro",
    "vero", "tak", "prawda", "evet", "doğru", "ya", "benar", "có", "đúng", "да", "верно", "правда", "так", "是", "是的",
    "对", "對", "正确", "正確", "成立", "可以", "能", "存在", "はい", "正しい", "예", "네", "참", "맞다", "نعم", "صحيح",
    "हाँ", "हां", "सही", "ναι", "σωστό", "kyllä", "igen", "ano", "da", "waar", "sant", "ano", "yep", "yeah", "yup", "doch",
    "affirmative",
)
NO_WORDS: tuple[str, ...] = (
    "no", "false", "non", "faux", "falso", "nein", "falsch", "não", "nie", "fałsz", "hayır", "yanlış", "tidak",
    "salah", "không", "sai", "нет", "неверно", "ні", "否", "不是", "不对", "不對", "错误", "錯誤", "不成立", "不可以",
    "不能", "不存在", "いいえ", "誤り", "아니오", "아니요", "거짓", "لا", "خطأ", "नहीं", "गलत", "όχι", "λάθος", "ei",
    "nem", "ne", "nee", "onwaar", "nej", "usant", "nah", "nope", "negative",
)
TENTATIVE_WORDS: tuple[str, ...] = (
    "placeholder", "tentative", "tentatively", "an example", "for example", "for instance", "e.g.", "a sample",
    "sample answer", "example answer", "dummy", "template", "valid format", "example format", "such as", "if i had to", "i'd pick", "i would pick",
    "i guess", "my guess", "a guess", "could not verify", "couldn't verify", "cannot verify", "can't verify",
    "not verified", "unverified", "no proof", "without proof", "unproven", "i'm stuck", "i am stuck",
    "cannot solve", "can't solve", "could not solve", "couldn't solve", "unable to solve", "give up",
    "gave up", "a common answer", "commonly", "put your answer", "should be written", "written like",
    "just a format", "the format",
    # doubt about the answer itself, said in the final statement or the sentence before it
    "not sure", "not certain", "not confident", "no idea", "idk", "unsure", "low confidence", "confidence:",
    "% sure", "percent sure", "% confident", "percent confident", "to be checked", "to be verified",
    "to be confirmed", "didn't check", "did not check", "didn't verify", "did not verify", "didn't finish",
    "did not finish", "haven't checked", "have not checked", "not checked", "speculative", "speculation",
    "supposedly", "unless i made", "unless i'm wrong", "unless i am wrong", "if i'm not mistaken",
    "if i am not mistaken", "without solving", "without computing", "without checking", "without working",
    "somewhere near", "somewhere around", "is around", "or something", "something like", "give or take",
    "more or less", "ish", "probablemente", "quizás", "peut-être", "vielleicht", "wild guess", "ballpark",
    "my best estimate", "my estimate", "an estimate", "odds are that", "odds are it", "chances are", "i suspect",
    "hopefully",
    "hunch", "lean towards", "lean toward", "leaning towards", "leaning toward", "out on a limb",
    "if memory serves", "shot in the dark", "ran out of time", "out of time", "not 100%", "low certainty",
    "unconfirmed", "wager", "my bet", "i bet", "best bet", "not entirely sure", "not completely sure",
    "not fully sure", "not totally sure", "not quite sure", "not 100% sure", "if i recall", "guesstimate",
    "can't be certain", "cannot be certain", "can't be sure", "cannot be sure", "haven't finished", "have not finished",
    "doubtful", "i doubt", "not convinced", "unconvinced", "random guess", "picking a random", "pick a random",
    "coin flip", "flip a coin", "flipped a coin", "probably wrong", "might be wrong", "could be wrong",
)
#: words that refer back to the answer just given
ANSWER_REFERENCES: tuple[str, ...] = (
    "this", "that", "it", "the answer", "my answer", "the result", "this answer", "that answer", "the above",
    "the boxed answer", "the final answer", "this result", "what i wrote", "this value",
)
