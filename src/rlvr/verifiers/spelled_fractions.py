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

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.spelled_numbers import _engine, _owners, _refused, _spellings, _tokens, number_word

__all__ = ["spells_fraction", "fraction_noun", "fraction_nouns"]

_MOST_LANGUAGES = 8
_TEXT_WRAPPER_RE = regex.compile(r"\\(?:text|mathrm|textrm|mbox)\s*\{([^{}]*)\}")
# Chinese and Japanese name the denominator first: 三分之二 (zh), 三分の二 (ja) are two thirds
_EAST_ASIAN_OF = {("分", "之"): "zh", ("分", "の"): "ja"}
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
    answer = _TEXT_WRAPPER_RE.sub(r"\1", answer, timeout=REGEX_TIMEOUT_S)  # "\\text{two thirds}"
    tokens = _tokens(answer)
    if (east_asian := _east_asian_fraction(tokens, gold)) is not None:
        return east_asian
    if len(tokens) < 2:
        return None
    tail: list[str] = []
    if "of" in tokens:  # "of the tank": what it is a fraction of, words only
        at = tokens.index("of")
        tokens, tail = tokens[:at], tokens[at:]
        if any(number_word(t) for t in tail if len(t) >= 3):  # "one third of six" is 2
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


def _east_asian_fraction(tokens: list[str], gold: Fraction) -> str | None:
    """``三分之二`` against 2/3: the denominator's numeral, 分之 (or 分の), the numerator's."""
    for i in range(1, len(tokens) - 2):
        language = _EAST_ASIAN_OF.get((tokens[i], tokens[i + 1]))
        if language is None:
            continue
        q, p = "".join(tokens[:i]), "".join(tokens[i + 2:])
        if q in {"".join(s) for s in _spellings(gold.denominator, language)} \
                and p in {"".join(s) for s in _spellings(gold.numerator, language)}:
            return f"{''.join(tokens)} ({language})"
    return None


@functools.lru_cache(maxsize=4096)
def fraction_noun(word: str, languages: tuple[str, ...]) -> bool:
    """Whether ``word`` names a denominator (2-20) in one of ``languages`` ("Drittel", "terzi", "thirds"): after a
    spelled number it makes a fraction, never a count noun ("zwei Drittel" is 2/3, not 2)."""
    return any(word in _denominators(q, language) for language in languages for q in range(2, 21))


def _read_fraction_nouns() -> list[str]:
    """Every word that names a denominator from 3 to 20 in a language CLDR spells numbers in (2 is left out: its
    ordinal is a unit of time in many, "second", "segundo")."""
    languages = sorted({language for owners in _owners().values() for language in owners})
    return sorted({w for language in languages for q in range(3, 21) for w in _denominators(q, language) if len(w) > 3})


@functools.lru_cache(maxsize=1)
def fraction_nouns() -> frozenset[str]:
    """The denominator words of every language (see :func:`_read_fraction_nouns`): after a number they make a
    fraction ("zwei Drittel", "tre quarti", "two thirds"), never a count of things."""
    from rlvr.verifiers.vocabulary_cache import cached, installed_version

    try:
        release = installed_version("unicode-rbnf")
    except Exception:  # not installed: no ordinals to read
        return frozenset()
    return frozenset(cached("fraction-nouns", release, _read_fraction_nouns))
