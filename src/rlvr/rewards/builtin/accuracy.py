"""``math_equivalence``: the verifier's verdict as a reward, with a score per verdict status."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from rlvr.errors import ConfigError
from rlvr.rewards.base import Reads, Reward, RewardResult, column_values
from rlvr.rewards.registry import reward
from rlvr.typed import param
from rlvr.verifiers import STATUSES, VerifierConfig, verify_batch

# Score per verifier status. ``None`` = no opinion (TRL leaves the sample out of the baseline): a
# gold that does not parse is a data error, and a crash is a bug, neither a wrong answer.
# "exact" (optional) scores a correct answer that matched the gold as a string, before any math.
PRESETS: dict[str, dict[str, float | None]] = {
    "binary": {"correct": 1.0, "incorrect": 0.0, "no_answer": 0.0, "unparseable_answer": 0.0,
               "unparseable_gold": None, "timeout": 0.0, "error": None},
    "dapo": {"correct": 1.0, "incorrect": -1.0, "no_answer": -1.0, "unparseable_answer": -1.0,
             "unparseable_gold": None, "timeout": -1.0, "error": None},
    "r1": {"exact": 2.0, "correct": 1.5, "incorrect": 0.0, "no_answer": 0.0, "unparseable_answer": 0.0,
           "unparseable_gold": None, "timeout": 0.0, "error": None},
}


@reward("math_equivalence")
class MathEquivalence(Reward):
    """Is the final answer mathematically equal to the gold answer (rlvr's verifier)?

    Presets: ``binary`` (1 / 0), ``dapo`` (+1 / −1, verl's DAPO rule), ``r1`` (+2 exact match,
    +1.5 equivalent after simplification, 0 otherwise). ``scores`` overrides any status's score;
    ``correct``/``incorrect`` shortcut the two main ones. ``gold_column`` names the dataset column
    holding the gold (dotted paths reach into dict columns: ``reward_model.ground_truth``).
    ``verifier`` holds VerifierConfig fields.
    """

    @dataclass(frozen=True)
    class Params:
        preset: str = param("binary", "score table: binary (1/0), dapo (+1/-1), r1 (+2 exact, +1.5 equivalent)",
                            choices=tuple(PRESETS))
        gold_column: str = param("answer", "dataset column with the gold answer (dotted paths reach into dicts: "
                                           "reward_model.ground_truth)")
        verifier: dict[str, Any] | str | None = param(None, "VerifierConfig fields (or a file) for extraction and "
                                                            "equivalence")
        scores: dict[str, float | None] | None = param(None, "score per verifier status (or 'exact'), overriding "
                                                             "the preset's")
        correct: float | None = param(None, "shortcut: the score of a correct answer")
        incorrect: float | None = param(None, "shortcut: the score of an incorrect answer")

        def __post_init__(self) -> None:
            for key, value in (self.scores or {}).items():
                if key not in STATUSES and key != "exact":
                    raise ConfigError(f"scores: unknown status {key!r}; statuses: {list(STATUSES)} or 'exact'")
                if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                          or not math.isfinite(value)):
                    raise ConfigError(f"scores.{key}={value!r}; use a finite number or null")

    def setup(self) -> None:
        p = self.p
        table = dict(PRESETS[p.preset])
        for key, value in (p.scores or {}).items():
            table[key] = None if value is None else float(value)
        if p.correct is not None:
            table["correct"] = float(p.correct)
            if "exact" in table and "exact" not in (p.scores or {}):
                table.pop("exact")
        if p.incorrect is not None:
            table["incorrect"] = float(p.incorrect)
        self.scores = table
        self.config = VerifierConfig.from_dict(p.verifier) if isinstance(p.verifier, dict) else VerifierConfig.load(p.verifier)

    def reads(self) -> Reads:
        return Reads(columns=(self.p.gold_column,), answer_sources=frozenset(self.config.sources))

    def score(self, completions: list[str], prompts: Any, **columns: Any) -> list[RewardResult]:
        golds = column_values(columns, self.gold_column, len(completions))
        verdicts = verify_batch(completions, ["" if g is None else str(g) for g in golds], self.config)
        out = []
        for v in verdicts:
            key = "exact" if v.correct and v.method == "string" and "exact" in self.scores else v.status
            out.append(RewardResult(self.scores.get(key), v.status, v.reason,
                                    {"answer": v.answer, "method": v.method, "source": v.source,
                                     "elapsed_s": round(v.elapsed_s, 6)}))
        return out
