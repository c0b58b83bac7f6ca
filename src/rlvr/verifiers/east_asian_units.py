"""Names of units in Chinese, Japanese and Korean, as CLDR writes them after a number ("3小时", "3公里",
"3キロメートル", "3시간"), read from ``babel``'s locale data and cached per release.

A count in these languages opens with a classifier (``lexicon.MEASURE_WORDS``: 个, 本, 개); a measure opens
with a unit's name, which is an open class of several characters (小时 is "hour", 公斤 "kilogram"): taking
the names from CLDR covers every unit CLDR has instead of the few a hand list would.
"""

from __future__ import annotations

import functools
import logging

from rlvr.verifiers.vocabulary_cache import cached, installed_version

logger = logging.getLogger(__name__)

__all__ = ["east_asian_unit_names", "unit_name_prefix", "measure_prefix", "measure_after_number"]

_LOCALES = ("zh", "zh_Hant", "ja", "ko")


def _read_babel() -> list[str]:
    from babel import Locale
    from babel.units import format_unit

    names = set()
    for identifier in _LOCALES:
        locale = Locale.parse(identifier)
        for unit in locale._data["unit_patterns"]:
            if unit.startswith("concentr"):
                continue  # percent, per mille, ppm: they change the number, they do not measure a quantity
            for length in ("long", "short", "narrow"):
                try:
                    shown = format_unit(7, unit, length=length, locale=locale)
                except Exception:  # a unit this release has no pattern of that length for
                    continue
                name = shown.replace("7", "", 1).strip()
                # only names written in CJK scripts: "km", "°" and Latin symbols are read as units elsewhere
                if name and all("\u3040" <= c <= "\u9fff" or "\uac00" <= c <= "\ud7af" for c in name):
                    names.add(name)
        for name in locale.currencies.values():  # "美元", "欧元", "英镑", "日元": an amount is measured in them too
            name = name.replace(" ", "")
            if name and all("\u3040" <= c <= "\u9fff" or "\uac00" <= c <= "\ud7af" for c in name):
                names.add(name)
    return sorted(names)


@functools.lru_cache(maxsize=1)
def east_asian_unit_names() -> frozenset[str]:
    """Every CJK unit name of CLDR's Chinese, Japanese and Korean locales (see the module's docstring)."""
    import importlib.util

    if importlib.util.find_spec("babel") is None:
        logger.warning("babel is not installed: Chinese, Japanese and Korean unit names are not recognised")
        return frozenset()
    return frozenset(cached("east-asian-unit-names-2", installed_version("babel"), _read_babel))


def unit_name_prefix(word: str) -> int:
    """The length of the longest CLDR unit name ``word`` opens with ("小时" in "小时后": 2), or 0."""
    names = east_asian_unit_names()
    for k in range(min(len(word), 12), 0, -1):
        if word[:k] in names:
            return k
    return 0


def measure_prefix(word: str) -> int:
    """The length of the unit ``word`` opens with when written straight after a number, or 0: a CLDR name
    ("千克", "公里", "시간"), or 千 before one, which is the kilo- of mainland textbooks ("5千米" is 5 km; CLDR
    writes 公里). Either reading of 千 there gives the same quantity (5000 m), so it never changes the answer;
    万 or 百 before a unit ("5万米") does."""
    if k := unit_name_prefix(word):
        return k
    return 1 + k if word[:1] == "千" and (k := unit_name_prefix(word[1:])) else 0


def measure_after_number(word: str) -> bool:
    """Whether ``word``, written straight after a number, opens with a unit (see :func:`measure_prefix`)."""
    return measure_prefix(word) > 0
