"""Signs of currency: every ISO 4217 code and every symbol CLDR's locales write (``US$``, ``R$``, ``CN¥``,
``€``, ``₹``, ``Rs``, ``CHF``), read from ``babel``'s locale data and cached per release.

A currency beside a number says what it counts, not another number: "R$ 18", "US$18", "18 CHF" and
"1.000.000 €" answer 18, 18, 18 and 1000000. One-letter symbols that are letters ("R", "K") are left
out: beside a number they are as often a variable.
"""

from __future__ import annotations

import functools
import logging

from rlvr.verifiers.vocabulary_cache import cached, installed_version

logger = logging.getLogger(__name__)

__all__ = ["currency_signs", "is_currency"]


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
