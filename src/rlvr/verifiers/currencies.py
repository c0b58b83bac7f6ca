"""Signs of currency: every ISO 4217 code and every symbol CLDR's locales write (``US$``, ``R$``, ``CN¥``,
``€``, ``₹``, ``Rs``, ``CHF``), read from ``babel``'s locale data and cached per release.

A currency beside a number says what it counts, not another number: "R$ 18", "US$18", "18 CHF" and
"1.000.000 €" answer 18, 18, 18 and 1000000. One-letter symbols that are letters ("R", "K") are left
out: beside a number they are as often a variable.
"""

from __future__ import annotations

import functools
import logging
from fractions import Fraction

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S

from rlvr.verifiers.vocabulary_cache import cached, installed_version

logger = logging.getLogger(__name__)

__all__ = ["currency_signs", "is_currency", "in_main_unit", "grouped_amount"]


def _read_babel() -> list[str]:
    from babel import Locale, localedata
    from babel.numbers import list_currencies

    signs = set(list_currencies())
    for identifier in localedata.locale_identifiers():
        try:
            signs.update(Locale.parse(identifier).currency_symbols.values())
        except Exception:  # a locale this release cannot parse
            continue
    return sorted(s.strip().strip("\u200e\u200f") for s in signs
                  if s.strip() and " " not in s.strip() and not (len(s.strip()) == 1 and s.strip().isalpha()))


@functools.lru_cache(maxsize=1)
def currency_signs() -> frozenset[str]:
    """Every currency code and symbol (see the module's docstring)."""
    import importlib.util

    if importlib.util.find_spec("babel") is None:
        logger.warning("babel is not installed: only the common currency signs are recognised")
        return frozenset({"$", "US$", "USD", "EUR", "€", "£", "GBP", "¥", "JPY", "CNY", "₹", "INR"})
    return frozenset(cached("currency-signs", installed_version("babel"), _read_babel))


def is_currency(token: str) -> bool:
    return token.strip() in currency_signs()


# a hundredth of a currency's main unit, by name or sign: "50 cents", "125 \\text{ cents}", "50¢", "30 pence".
# CLDR names no subunits, so these few words are listed here; each is a hundredth in every currency that uses it
_SUBUNIT_RE = regex.compile(
    r"(?i)^\s*\$?\s*(?P<n>[0-9]+(?:\.[0-9]+)?)\s*(?:\\text\{\s*|\\,|\\ |~)*"
    r"(?:cents?|¢|\\cent|pennies|penny|pence|centavos?|céntimos?|centimes?|centesimi|Cent)\s*\}?\s*\$?\s*\.?\s*$")


def in_main_unit(text: str) -> Fraction | None:
    """The amount an answer in a currency's hundredths ("50 cents", "125¢") is in its main unit (0.5, 1.25)."""
    m = _SUBUNIT_RE.match(text, timeout=REGEX_TIMEOUT_S)
    return Fraction(m["n"]) / 100 if m else None


# three digits after the only dot of an amount beside a currency sign group thousands ("3.500 €", "R$ 1.250"):
# a currency of two decimals never writes three (the few with three are ISO 4217's BHD, IQD, JOD, KWD, LYD, OMR, TND)
_GROUPED_RE = regex.compile(r"[1-9][0-9]{0,2}(?:\.[0-9]{3})+")  # "0.125" is an eighth, no group
_THREE_DECIMALS = frozenset({"BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"})


# signs written before an amount by locales that group thousands with dots ("R$ 1.250", "Rp 15.000"); "$1.125" and
# "£1.125" keep their decimal point, as English writes a price of three decimals
_DOT_GROUPING_BEFORE = frozenset({"R$", "Rp", "Rp.", "Kz", "Gs", "Bs", "Bs.", "COL$", "CLP$", "ARS$", "$U"})


def grouped_amount(amount: str, sign: str, before: bool = False) -> str:
    """``amount`` without its thousands dots when a currency ``sign`` beside it says they group digits: a sign after
    the amount ("3.500 €"), or before it where its locale groups with dots (``before``: "R$ 1.250")."""
    if before and sign.strip() not in _DOT_GROUPING_BEFORE:
        return amount
    if _GROUPED_RE.fullmatch(amount, timeout=REGEX_TIMEOUT_S) and sign.strip().upper() not in _THREE_DECIMALS:
        return amount.replace(".", "")
    return amount
