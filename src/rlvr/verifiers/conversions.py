"""Whether two quantities in different units are the same quantity: "2 hours" and "120 minutes",
"10 cm" and "100 mm", "4.2 cm" and "42 mm" — converted with ``pint``'s unit registry, never ``eval``.

Used where an answer with a unit meets a gold with another one (``rules.fast_decision``). Units come
in as :func:`rlvr.verifiers.units.canonical_unit` spells them and are handed to ``pint`` by full name
only (``pint`` reads "a" as a year, "gal" as a galileo and "pcs" as parsecs); a unit outside that
table, or two units that measure different things, is no conversion. Dollars and cents are defined
here (``pint`` has no currencies); other currencies are never converted into each other.
"""

from __future__ import annotations

import functools
import logging
from fractions import Fraction

logger = logging.getLogger(__name__)

__all__ = ["same_dimension", "same_quantity", "unit_factor", "unit_name", "measured_unit", "warm"]


@functools.lru_cache(maxsize=1)
def _registry():
    try:
        import pint
    except ImportError:
        logger.warning("pint is not installed: quantities in different units are never converted")
        return None
    registry = pint.UnitRegistry(cache_folder=":auto:")
    registry.define("us_dollar = [us_currency]")
    registry.define("us_cent = us_dollar / 100")
    return registry


# canonical_unit's spelling -> the name pint knows it by
_PINT_NAMES = {
    "mm": "millimeter", "cm": "centimeter", "m": "meter", "km": "kilometer", "nm": "nanometer", "um": "micrometer",
    "in": "inch", "ft": "foot", "yd": "yard", "mi": "mile", "furlong": "furlong",
    "ms": "millisecond", "s": "second", "min": "minute", "h": "hour", "day": "day", "week": "week",
    "month": "month", "year": "year",
    "mg": "milligram", "g": "gram", "kg": "kilogram", "lb": "pound", "oz": "ounce",
    "ml": "milliliter", "l": "liter", "gal": "gallon", "qt": "quart", "cup": "cup", "acre": "acre", "hectare": "hectare",
    "mph": "mile / hour", "km/h": "kilometer / hour", "m/s": "meter / second",
    "n": "newton", "j": "joule", "kj": "kilojoule", "cal": "calorie", "kcal": "kilocalorie", "ev": "electron_volt",
    "w": "watt", "kw": "kilowatt", "kwh": "kilowatt_hour", "v": "volt", "a": "ampere", "ohm": "ohm",
    "pa": "pascal", "kpa": "kilopascal", "atm": "atmosphere", "hz": "hertz", "khz": "kilohertz", "ghz": "gigahertz",
    "mol": "mole", "kelvin": "kelvin", "degc": "degree_Celsius", "degf": "degree_Fahrenheit", "dollar": "us_dollar", "cent": "us_cent",
}


@functools.lru_cache(maxsize=256)
def _units(unit: str):
    parts = [part.partition("^") for part in unit.split("/")] if unit.count("/") <= 1 else [("", "", "")]
    names = [_PINT_NAMES.get(base) for base, _, _ in parts]
    registry = _registry()
    if registry is None or None in names or any(p not in ("", "2", "3") for _, _, p in parts):
        return None
    try:  # "cm^2" is (centimeter)**2: 42 cm^2 is 4200 mm^2
        return registry.parse_units(" / ".join(f"({n})" + (f"**{p}" if p else "") for n, (_, _, p) in zip(names, parts)))
    except Exception:  # pint raises many kinds for a name it lacks; the table above should hold none
        logger.warning("pint does not know %r; it is never converted", unit)
        return None


def same_quantity(value: Fraction, unit: str, other: Fraction, other_unit: str) -> bool | None:
    """Whether ``value unit`` equals ``other other_unit`` (within a relative 1e-9 of float conversion);
    ``None`` when either unit is outside the table or the two measure different things (metres and
    seconds). Units are spelled as ``canonical_unit`` spells them ("h", "min", "km/h")."""
    a, b = _units(unit), _units(other_unit)
    if a is None or b is None:
        return None
    registry = _registry()
    try:
        converted = registry.Quantity(float(value), a).to(b).magnitude
    except Exception:  # different dimensions, or an offset unit pint refuses to multiply
        return None
    scale = max(1.0, abs(float(other)))
    return abs(converted - float(other)) <= 1e-9 * scale


def unit_factor(unit: str, other_unit: str) -> Fraction | None:
    """How many ``other_unit`` one ``unit`` is (hour, min -> 60; ft, in -> 12), as the exact ratio of pint's
    conversion; ``None`` when either unit is outside the table or they measure different things."""
    a, b = _units(unit), _units(other_unit)
    if a is None or b is None or a.dimensionality != b.dimensionality:
        return None
    try:
        factor = _registry().Quantity(1.0, a).to(b).magnitude
    except Exception:  # an offset unit (degrees Celsius) has no factor
        return None
    return Fraction(factor).limit_denominator(10**6)


def same_dimension(unit: str, other_unit: str) -> bool | None:
    """Whether two units (as ``canonical_unit`` spells them) measure the same kind of thing (hours and
    minutes yes, days and metres no); ``None`` when either is outside the table."""
    a, b = _units(unit), _units(other_unit)
    if a is None or b is None:
        return None
    return a.dimensionality == b.dimensionality


@functools.lru_cache(maxsize=4096)
def unit_name(word: str) -> bool:
    """Whether ``word`` is a unit's name or symbol to ``pint`` ("kWh", "GB", "pcs", "yrs", "mph"): a word
    after a number that says what it measures. Two-letter lower-case words are never units here: pint
    reads almost any of them as a prefixed unit ("ab", "mn"), and they are variables as often."""
    if not word.isascii() or not word.isalpha() or len(word) < 2 or len(word) > 12 or (len(word) == 2 and word.islower()):
        return False
    registry = _registry()
    if registry is None:
        return False
    try:
        registry.parse_units(word)
    except Exception:  # pint raises several kinds for a word that is no unit
        return False
    return True


@functools.lru_cache(maxsize=4096)
def measured_unit(word: str, upright: bool = False) -> bool:
    """Whether ``word`` is a unit with a dimension to ``pint`` ("amu", "angstrom", "torr", "ergs"): it says
    what the number before it measures and cannot change it. Dimensionless names are not ("pi", "rad",
    "count": pint's constants and ratios multiply the number). ``upright``: the word is set upright
    (``\\mathrm{pm}``, ``{eV}``), where two lower-case letters are a unit symbol, not a variable."""
    if not word.isascii() or not word.isalpha() or len(word) > 12:
        return False
    if len(word) < (2 if upright else 3) and not (upright and len(word) == 1 and word not in "eid"):
        return False  # upright, one letter is a unit symbol ("\\mathrm{K}", "{m}"), but e, i and d are maths
    registry = _registry()
    if registry is None:
        return False
    try:
        return not registry.parse_units(word).dimensionless
    except Exception:  # pint raises several kinds for a word that is no unit
        return False


def warm() -> None:
    """Load the unit registry now (a worker does this before it reports ready)."""
    _registry()
