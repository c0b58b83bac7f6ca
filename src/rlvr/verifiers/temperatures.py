"""Temperatures: a degree sign's scale (°C, °F, K), scales written in words ("25 degrees F"), one
temperature written on two scales, and the key a temperature is compared by (degrees Celsius).

pint converts temperatures where a verdict compares an answer with its gold (``conversions``); here the
key must be an exact, hashable value for the readers that ask whether two stated values are one
(``normalize.value_key``), so the three affine maps to Celsius are written out in Fractions.
"""

from __future__ import annotations

from fractions import Fraction

import regex

from rlvr.verifiers.approximations import tolerance
from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.units import canonical_unit

__all__ = ["DEGREE_RE", "MIXED_TEMPERATURES", "TEMPERATURE_UNITS", "celsius", "one_temperature", "scale_words_to_signs",
           "with_temperature_scale"]

# degrees, with a temperature scale after them (20^\circ\text{C}, 68°F)
DEGREE_RE = regex.compile(r"(?:\^\s*\{?\s*\\circ\s*\}?|°|\\degree(?![A-Za-z]))"
                           r"(?:\s*(?:\\(?:text|mathrm)\s*\{\s*(?P<scale>[CFK])\s*\}|(?P<scale>[CFK])(?![A-Za-z])))?")
# a temperature scale in words after a number: "25 degrees F", "25 deg C", "25\\text{ degF}", "25 Fahrenheit"
_TEMPERATURE_WORDS_RE = regex.compile(
    r"(?<=[0-9}])\s*(?:\\(?:text|mathrm)\s*\{\s*)?(?:(?i:deg(?:ree)?s?)\.?\s*(?P<letter>[CFK])(?![A-Za-z])"
    r"|(?i:deg(?:ree)?s?\s+)?(?P<word>(?i:celsius|fahrenheit|kelvin)))\s*\}?")


#: the unit of an answer that states temperatures on several scales that are not one temperature
MIXED_TEMPERATURES = "temperatures on several scales"
_TEMPERATURE_VALUE_RE = regex.compile(r"([-+]?[0-9]+(?:\.[0-9]+)?)\s*" + DEGREE_RE.pattern)
_TEMPERATURE_JOINS_RE = regex.compile(r"(?:\s|=|\\approx|≈|\\(?:quad|qquad|,|;|:)|[(),]|\\left|\\right)*")


def one_temperature(s: str) -> tuple[str, str]:
    """An answer with temperatures on several scales: (its first value, its scale) when they are one
    temperature written as equal ("25 °C = 77 °F", "298.15 K (25 °C)"), else (``s``, MIXED_TEMPERATURES)."""
    found = list(_TEMPERATURE_VALUE_RE.finditer(s, timeout=REGEX_TIMEOUT_S))
    rest = _TEMPERATURE_VALUE_RE.sub("", s, timeout=REGEX_TIMEOUT_S)
    if found and _TEMPERATURE_JOINS_RE.fullmatch(rest, timeout=REGEX_TIMEOUT_S):
        units = [TEMPERATURE_UNITS.get(m["scale"] or "", "") for m in found]
        if all(units):  # each written to its own precision: "-17.8 °C = 0 °F" is one rounded temperature
            degrees = [float(celsius(Fraction(m[1]), u)) for m, u in zip(found, units)]
            spread = [tolerance(m[1]) * (5 / 9 if u == "°F" else 1) for m, u in zip(found, units)]
            if all(abs(d - degrees[0]) <= t + spread[0] + 1e-9 for d, t in zip(degrees, spread)):
                return found[0][1], units[0]
    return s, MIXED_TEMPERATURES


def _temperature_sign(m: regex.Match) -> str:
    return "^\\circ " + (m["letter"] or m["word"][0]).upper()


# a temperature scale keeps its name: 25 °F is not 25 °C (rules converts one into the other)
TEMPERATURE_UNITS = {"C": "°C", "F": "°F", "K": "kelvin"}

# canonical_unit's temperature scales -> degrees Celsius
_TO_CELSIUS = {"degc": lambda v: v, "degf": lambda v: (v - 32) * Fraction(5, 9), "kelvin": lambda v: v - Fraction(27315, 100)}


def scale_words_to_signs(s: str) -> str:
    """``25 degrees F`` -> ``25^\\circ F``: a scale written in words as the degree sign reads it."""
    return _TEMPERATURE_WORDS_RE.sub(_temperature_sign, s, timeout=REGEX_TIMEOUT_S)


def celsius(value: Fraction, unit: str) -> Fraction | None:
    """``value`` in ``unit`` (as normalisation leaves it: "°F", "kelvin", "k") in degrees Celsius, exactly;
    ``None`` when the unit is no temperature scale."""
    scale = canonical_unit(unit) if unit else None
    return _TO_CELSIUS[scale](value) if scale in _TO_CELSIUS else None


# a temperature scale after a number in prose: "25 °F", "25^\\circ\\text{F}", "25 degrees Fahrenheit", "25 deg C"
_SCALE_AFTER_RE = regex.compile(
    r"[ \t]*(?:(?P<sign>[℃℉])|(?:\^\s*\{?\s*\\circ\s*\}?|°|\\degree(?![A-Za-z])|deg(?:ree)?s?\s+)\s*(?:\\(?:text|mathrm)\s*\{\s*)?(?P<letter>[CFK])(?![A-Za-z]))"
    r"|\s+(?i:degrees?\s+)?(?P<word>(?i:celsius|fahrenheit|kelvin))")
_PLAIN_NUMBER_RE = regex.compile(r"[-+]?[0-9]+(?:\.[0-9]+)?")


def with_temperature_scale(text: str, value: str, at: int, timeout: float = REGEX_TIMEOUT_S) -> str:
    """``value`` (found at ``at`` in ``text``) with the temperature scale written after it in prose ("25 °F",
    "25 degrees Fahrenheit" -> ``25^\\circ F``), so that its key is that temperature; else ``value`` as it is."""
    if at < 0 or not _PLAIN_NUMBER_RE.fullmatch(value, timeout=timeout):
        return value
    scale = _SCALE_AFTER_RE.match(text, at + len(value), min(len(text), at + len(value) + 40), timeout=timeout)
    if not scale:
        return value
    letter = "C" if scale["sign"] == "℃" else "F" if scale["sign"] == "℉" else (scale["letter"] or scale["word"][0]).upper()
    return f"{value}^\\circ {letter}"
