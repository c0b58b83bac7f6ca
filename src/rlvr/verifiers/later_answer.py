"""What the later reader knows of the final answer: its value keys, unit, number, yes/no word, choice letter.

Each reading is computed when a later sentence first needs it: most completions end at their answer, and
reading the answer costs as much as reading the rest of the row.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cached_property

import regex

from rlvr.verifiers.choices import answer_choice
from rlvr.verifiers.later_values import key
from rlvr.verifiers.normalize import bare_number, has_temperature_scale, normalize_answer
from rlvr.verifiers.numbers import parse_number
from rlvr.verifiers.remarks import comes_to
from rlvr.verifiers.slots import clean
from rlvr.verifiers.units import canonical_unit
from rlvr.verifiers.word_answers import yes_no

__all__ = ["AnswerReadings"]

_COMMA_RE = regex.compile(r"\s*,\s*")


class AnswerReadings:
    """The final answer as the later reader compares values with it."""

    def __init__(self, answer: str, timeout: float, unit_after_answer: str | None = None) -> None:
        self.answer, self.timeout = answer, timeout
        self._unit_after = unit_after_answer

    @cached_property
    def unit(self) -> str:
        """What the answer measures: its own unit, or the one written after its slot ("\\boxed{2} hours")."""
        return canonical_unit(normalize_answer(clean(self.answer)).unit or self._unit_after or "")

    @cached_property
    def key(self) -> object:
        return key(self.answer)

    @cached_property
    def said(self) -> str | None:
        """"yes" or "no" when the answer is one: a later "Yep." takes it back."""
        return yes_no(clean(self.answer))

    @cached_property
    def own(self) -> set:
        """The answer's own value keys: the whole, and each part of a list."""
        parts = _COMMA_RE.split(clean(self.answer), timeout=self.timeout)
        return {self.key} | {key(v) for v in parts if v.strip()}

    @cached_property
    def as_percentage(self) -> object:
        """The key of the answer's number read as a percentage (25 -> 1/4), for a plain number; else ``None``."""
        return key(f"{self.answer.strip()}%") if isinstance(self.number, Fraction) and "%" not in self.answer else None

    @cached_property
    def bare(self) -> object:
        """The number without its scale, "\\boxed{25 °F}. So it is 25." (never "300 °C" after 300 K)."""
        bare = bare_number(clean(self.answer))
        return bare if bare is not None and bare not in self.own else None

    @cached_property
    def choice(self) -> bool:
        return answer_choice(clean(self.answer)) is not None

    @cached_property
    def number(self) -> object:
        """The answer's number worked out ("$6 \\times 7$", "$5!$"), or ``None``."""
        return parse_number(normalize_answer(clean(self.answer)).key)

    def other(self, values: list[str]) -> list[str]:
        # against a choice letter only other letters are other answers ("B, the value 12"); against yes or no
        # only the other word is ("No. For $n = 1$ it equals 3, which is prime"): its retractions are read apart
        if self.choice or self.said:
            return []
        return [v for v in values if not self.owns(v)]

    def owns(self, value: str) -> bool:
        """Whether ``value`` is the answer's own value (or a part of it, or its number without the scale)."""
        k = key(value)
        if self.as_percentage is not None and k == self.as_percentage and normalize_answer(clean(value)).percent:
            return True  # "\\boxed{25}" then "So 25% of the students passed": the answer's number, as the percentage
        return k in self.own or (k == self.bare and not has_temperature_scale(value)) or (
            self.number is not None and not isinstance(k, type(self.number)) and comes_to(value, self.number))
