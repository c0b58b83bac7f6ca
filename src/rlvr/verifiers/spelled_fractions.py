"""An answer that spells the gold's fraction in words: "two thirds", "three-quarters of the tank", "tre quarti",
"одна четвертая", "drei Viertel" against 2/3, 3/4, 1/4.

Like :mod:`spelled_numbers`, the gold is spelled, never the answer parsed: the numerator in CLDR's cardinal
spell-outs and the denominator in its ordinal ones (``unicode-rbnf``, every grammatical form the rules know:
"quarti", "cuartos", "quatrièmes", "третьих"), in the languages the answer's first word belongs to. Two
derivations the ordinal rules do not spell are made from them: the English plural ("third" -> "thirds") and the
German fraction noun ("dritte" -> "Drittel"). English names two denominators with nouns of their own, "half"
and "quarter", which no ordinal rule yields. A fraction may be followed by what it is a fraction of ("of the
tank"), never by a number ("two thirds of 9" is 6); anything that negates, doubts or changes it refuses it.
"""

from __future__ import annotations

import functools
from fractions import Fraction

from rlvr.verifiers.spelled_numbers import _engine, _owners, _refused, _spellings, _tokens, number_word

__all__ = ["spells_fraction"]

_MOST_LANGUAGES = 8
_LARGEST_DENOMINATOR = 100
# English's own fraction nouns (no ordinal rule spells them), and its article for a numerator of one
_ENGLISH_NOUNS = {2: ("half", "halves"), 4: ("quarter", "quarters")}
_ENGLISH_ONE = ("a", "an")


@functools.lru_cache(maxsize=1024)
def _denominators(denominator: int, language: str) -> frozenset[str]:
    """Every word ``language`` may name the denominator with (lower case)."""
    from unicode_rbnf import FormatPurpose

    try:
        result = _engine(language).format_number(denominator, FormatPurpose.ORDINAL)
    except Exception:  # a locale without ordinal rules
        return frozenset()
    forms = {t.lower() for t in (getattr(result, "text_by_ruleset", {}) or {}).values() if t and " " not in t}
    if language.split("_")[0] == "en":
        forms |= {f + "s" for f in forms} | set(_ENGLISH_NOUNS.get(denominator, ()))
        forms.discard("second")  # "one second" is a time; a half is "half"
        forms.discard("seconds")
    elif language.split("_")[0] == "de":
        forms |= {f[:-1] + "el" for f in forms if f.endswith("te")} if denominator > 2 else set()
    return frozenset(forms)


def spells_fraction(answer: str, gold: Fraction | None) -> str | None:
    """The spelling of the proper or improper fraction ``gold`` that ``answer`` states on its own, or ``None``."""
    if gold is None or gold.denominator == 1 or gold <= 0 or gold.denominator > _LARGEST_DENOMINATOR:
        return None
    if len(answer) > 120 or any(c.isdigit() for c in answer):
        return None
    tokens = _tokens(answer)
    if len(tokens) < 2:
        return None
    tail: list[str] = []
    if "of" in tokens:  # "of the tank": what it is a fraction of, words only
        at = tokens.index("of")
        tokens, tail = tokens[:at], tokens[at:]
        if any(number_word(t) for t in tail if len(t) > 3):
            return None
    # the denominator words are operations elsewhere ("halves", "thirds"): only the other words may refuse it
    if _refused(answer.lower(), tail) or any(_refused(t, [t]) for t in tokens[:1]):
        return None
    languages = (_owners().get(tokens[0], []) + (["en"] if tokens[0] in _ENGLISH_ONE else []))[:_MOST_LANGUAGES]
    p, q = gold.numerator, gold.denominator
    for language in dict.fromkeys(languages):
        numerators = {" ".join(s) for s in _spellings(p, language)}
        if language.split("_")[0] == "en" and p == 1:
            numerators |= set(_ENGLISH_ONE)
        for k in range(1, len(tokens)):
            if " ".join(tokens[:k]) in numerators and " ".join(tokens[k:]) in _denominators(q, language):
                return f"{' '.join(tokens)} ({language})"
    return None
