"""Whether two quantities with different units are the same quantity: "2 hours" and "120 minutes",
"10 cm" and "100 mm", "4.2 cm" and "42 mm" — read with ``pint``'s unit registry, never with ``eval``.

Used where an answer meets another unit: an answer with a unit against a gold with another one, and a
restatement after the final answer in other units ("\\\\boxed{2} hours, or 120 minutes"). Only
multi-letter unit names and the lexicon's unit symbols are read as units (``pint`` knows "a" as a
year and "pcs" as parsecs); what ``pint`` cannot read is no conversion.
"""

from __future__ import annotations

import functools
import logging
from fractions import Fraction

logger = logging.getLogger(__name__)

__all__ = ["same_quantity", "warm"]


@functools.lru_cache(maxsize=1)
def _registry():
    try:
        import pint
    except ImportError:
        logger.warning("pint is not installed: quantities in different units are never converted")
        return None
    return pint.UnitRegistry(cache_folder=":auto:")


@functools.lru_cache(maxsize=4096)
def _units(unit: str):
    registry = _registry()
    if registry is None or not unit or len(unit) > 40:
        return None
    try:
        return registry.parse_units(unit.replace(" ", "_") if unit.startswith("sq ") else unit)
    except Exception:  # pint's parser raises many kinds for text that is no unit
        try:
            return registry.parse_units(unit)
        except Exception:
            return None


def same_quantity(value: Fraction, unit: str, other: Fraction, other_unit: str) -> bool | None:
    """Whether ``value unit`` equals ``other other_unit`` (within a relative 1e-9 of float conversion);
    ``None`` when either unit is unknown or the two measure different things (metres and seconds)."""
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


def warm() -> None:
    """Load the unit registry now (a worker does this before it reports ready)."""
    _registry()
