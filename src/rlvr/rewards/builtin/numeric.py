"""``numeric_tolerance``: graded credit for numbers close to the gold (the Unsloth recipe's scheme).

The recipe's ``check_answer`` and ``check_numbers`` are presets; the bands, scores and extraction
are parameters. Numbers are parsed with rlvr's exact parser (signs, decimals, fractions, thousands
separators), never with ``float()`` on arbitrary text (which accepts ``nan``, ``inf``, ``1_0`` and
Unicode digits).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import regex

from rlvr.errors import ConfigError
from rlvr.rewards.base import Reads, Reward, RewardResult, column_values
from rlvr.rewards.registry import reward
from rlvr.typed import param
from rlvr.verifiers.numbers import parse_number
from rlvr.verifiers.core import gold_string

_TIMEOUT_S = 1.0
_THOUSANDS = regex.compile(r"[+-]?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?")

# The recipe's extraction patterns (Unsloth GRPO notebook): the SOLUTION block after the reasoning,
# and the first number after the SOLUTION tag.
# End-of-sequence tokens the seed's regex allows after </SOLUTION> (it names the tokenizer's own).
EOS_TOKENS = r"(?:<\|im_end\|>|<\|endoftext\|>|</s>|<\|eot_id\|>|<｜end▁of▁sentence｜>|<\|end_of_text\|>)"
EXTRACTORS = {
    "solution_block": r"<end_working_out>.*?<SOLUTION>(.+?)</SOLUTION>[\s]{0,}" + EOS_TOKENS + r"?[\s]{0,}$",
    # the first number after <SOLUTION>, a LaTeX or slash fraction read whole (the seed took only its numerator)
    "first_number_in_solution": r"<SOLUTION>.*?[\s]{0,}([-]?(?:\\[dt]?frac\{[\d.,]+\}\{[\d.,]+\}|[\d\.\,]{1,}(?:/[\d\.\,]+)?))",
}

PRESETS: dict[str, dict[str, Any]] = {
    # check_answer: exact 5.0, equal after stripping 3.5, ratio within 10% 2.0, within 20% 1.5,
    # wrong -2.5, not a number -4.5, no answer -2.0
    "check_answer": dict(extractor="solution_block", exact=5.0, stripped=3.5,
                         bands=[[0.1, 2.0], [0.2, 1.5]], wrong=-2.5, unparseable=-4.5, missing=-2.0,
                         compare="string_then_ratio", strip_commas=False),
    # check_numbers: equal 3.5, wrong -1.5, not a number 0, no number -2.5
    "check_numbers": dict(extractor="first_number_in_solution", exact=3.5, stripped=None, bands=[],
                          wrong=-1.5, unparseable=0.0, missing=-2.5, compare="number", strip_commas=True),
}


def _number(text: str, strip_commas: bool) -> Fraction | None:
    s = text.strip()
    if strip_commas or _THOUSANDS.fullmatch(s):
        s = s.replace(",", "")
    if regex.search(r"[0-9][ \t]+[0-9]", s):
        return None  # "3 4" is two numbers, never 34
    return parse_number(s.replace(" ", ""), max_digits=1000)


@reward("numeric_tolerance")
class NumericTolerance(Reward):
    """Graded numeric credit: exact, equal after stripping whitespace, within relative bands, wrong.

    ``bands``: [[max_relative_error, score], ...] checked in order (ratio guess/gold within
    1 ± error). ``compare``: ``string_then_ratio`` (check_answer: exact string, stripped string, then
    bands) or ``number`` (check_numbers: numeric equality). ``extractor``: a preset name
    (``solution_block``, ``first_number_in_solution``) or a regex whose group 1 is the answer.
    """

    @dataclass(frozen=True)
    class Params:
        preset: str = param("check_answer", "the recipe's function: check_answer (graded ratio) or check_numbers "
                                            "(first number, equal or not)", choices=tuple(PRESETS))
        gold_column: str = param("answer", "dataset column with the gold answer")
        extractor: str | None = param(None, "solution_block, first_number_in_solution, or a regex whose group 1 "
                                            "is the answer (default: the preset's)")
        exact: float | None = param(None, "score of an exact match (default: the preset's)")
        stripped: float | str | None = param("preset", "score when equal after stripping whitespace: a number, "
                                                       "'off' (or null), or 'preset' (check_answer 3.5, "
                                                       "check_numbers off)")
        bands: list[list[float]] | None = param(None, "[[max_relative_error, score], ...] (default: the preset's)")
        wrong: float | None = param(None, "score of a wrong number (default: the preset's)")
        unparseable: float | None = param(None, "score when the answer is not a number (default: the preset's)")
        missing: float | None = param(None, "score when no answer is found (default: the preset's)")
        compare: str | None = param(None, "string_then_ratio or number (default: the preset's)",
                                    choices=(None, "string_then_ratio", "number"))
        strip_commas: bool | None = param(None, "read 1,000 as 1000 (default: the preset's)")

        def __post_init__(self) -> None:
            if isinstance(self.stripped, str) and self.stripped not in ("preset", "off"):
                raise ConfigError(f"stripped={self.stripped!r}; use a number, 'off' or 'preset'")

    def setup(self) -> None:
        p = dict(PRESETS[self.p.preset])
        given = {k: getattr(self.p, k) for k in ("extractor", "exact", "bands", "wrong", "unparseable", "missing",
                                                 "compare", "strip_commas")}
        p.update({k: v for k, v in given.items() if v is not None})
        if self.p.stripped != "preset":
            p["stripped"] = None if self.p.stripped in ("off", None) else float(self.p.stripped)
        try:
            bands_ = sorted((float(e), float(s)) for e, s in p["bands"])
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"numeric_tolerance bands must be [[max_relative_error, score], ...], got {p['bands']!r}") from exc
        if any(e < 0 for e, _ in bands_):
            raise ConfigError("numeric_tolerance bands: relative errors must be >= 0")
        pattern = EXTRACTORS.get(p["extractor"], p["extractor"])
        try:
            self._pattern = regex.compile(pattern, regex.MULTILINE | regex.DOTALL)
        except regex.error as exc:
            raise ConfigError(f"numeric_tolerance extractor is not a valid regex: {exc}") from exc
        if self._pattern.groups < 1:
            raise ConfigError("numeric_tolerance extractor regex needs a capture group for the answer")
        self.settings = {**p, "bands": [list(b) for b in bands_]}
        self._bands = bands_

    def reads(self) -> Reads:
        preset_extractor = self.settings["extractor"] in EXTRACTORS  # the recipe's <SOLUTION> block
        return Reads(columns=(self.p.gold_column,),
                     answer_sources=frozenset({"solution_tag"}) if preset_extractor else None)

    def _one(self, text: str, gold: str) -> RewardResult:
        p = self.settings
        m = self._pattern.search(text, timeout=_TIMEOUT_S)
        if m is None:
            return RewardResult(p["missing"], "no_answer", "no answer in the expected place")
        guess = m.group(1)
        if p["compare"] == "string_then_ratio":
            if guess == gold:
                return RewardResult(p["exact"], "correct", f"{guess!r} equals the gold exactly")
            if p["stripped"] is not None and guess.strip() == gold.strip():
                return RewardResult(p["stripped"], "correct", f"{guess.strip()!r} equals the gold after stripping spaces")
        g, a = _number(guess, p["strip_commas"]), _number(gold, False)
        if g is None or a is None:
            which = "answer" if g is None else "gold"
            return RewardResult(p["unparseable"], "unparseable_answer" if g is None else "unparseable_gold",
                                f"the {which} {guess if g is None else gold!r} is not a number")
        if p["compare"] == "number":
            if g == a:
                return RewardResult(p["exact"], "correct", f"{guess.strip()!r} equals gold {gold!r} as a number")
            return RewardResult(p["wrong"], "incorrect", f"{guess.strip()!r} is not gold {gold!r}")
        if a == 0 and g == 0:  # the ratio is undefined at 0; 0.0, +0 and 000 equal a gold of 0
            best = self._bands[0][1] if self._bands else p["exact"]
            return RewardResult(best, "close", f"{guess.strip()!r} equals gold {gold!r} as a number")
        if a != 0:
            ratio = g / a
            for error, score in self._bands:
                if 1 - Fraction(error) <= ratio <= 1 + Fraction(error):
                    return RewardResult(score, "close", f"{guess.strip()!r} is within {error:.0%} of gold {gold!r}",
                                        {"ratio": float(ratio)})
        return RewardResult(p["wrong"], "incorrect", f"{guess.strip()!r} is not close to gold {gold!r}")

    def score(self, completions: list[str], prompts: Any, **columns: Any) -> list[RewardResult]:
        golds = column_values(columns, self.gold_column, len(completions))
        return [self._one(text, gold_string(gold)) for text, gold in zip(completions, golds)]
