"""``math_equivalence``: the verifier's verdict as a reward, with a score per verdict status."""

from __future__ import annotations

from typing import Any

from rlvr.errors import ConfigError
from rlvr.rewards.base import Reward, RewardResult, column_values
from rlvr.rewards.registry import reward
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

    def __init__(self, preset: str = "binary", gold_column: str = "answer", verifier: dict[str, Any] | None = None,
                 scores: dict[str, float | None] | None = None, correct: float | None = None,
                 incorrect: float | None = None):
        super().__init__()
        if preset not in PRESETS:
            raise ConfigError(f"math_equivalence preset {preset!r} unknown; use one of {sorted(PRESETS)}")
        self.preset, self.gold_column, self.verifier = preset, gold_column, verifier
        table = dict(PRESETS[preset])
        for key, value in (scores or {}).items():
            if key not in STATUSES and key != "exact":
                raise ConfigError(f"math_equivalence scores: unknown status {key!r}; statuses: {list(STATUSES)} or 'exact'")
            table[key] = None if value is None else float(value)
        if correct is not None:
            table["correct"] = float(correct)
            if "exact" in table and "exact" not in (scores or {}):
                table.pop("exact")
        if incorrect is not None:
            table["incorrect"] = float(incorrect)
        self.scores, self.correct, self.incorrect = table, correct, incorrect
        self.config = VerifierConfig.from_dict(verifier) if isinstance(verifier, dict) else VerifierConfig.load(verifier)

    def params(self) -> dict[str, Any]:
        return {"preset": self.preset, "gold_column": self.gold_column, "verifier": self.verifier,
                "scores": self.scores}

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
