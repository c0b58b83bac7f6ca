"""``math_equivalence``: the verifier's verdict as a reward, with a score per verdict status.

Optionally (``judge``, off by default) a reference-given LLM judge is asked for a second opinion, only
where the rule verifier refused because its comparison could not tell (see
:func:`rlvr.rewards.judges.reference.eligible`), never for an integrity reason; when it says the
extracted answer equals the gold with probability ``min_confidence`` or more, the answer is paid as
correct and the result's rule and reason say the judge decided.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import Any

from rlvr.errors import ConfigError
from rlvr.rewards.base import Reads, Reward, RewardResult, column_values
from rlvr.rewards.registry import reward
from rlvr.typed import param
from rlvr.verifiers import STATUSES, VerifierConfig, verify_batch
from rlvr.verifiers.core import gold_string

logger = logging.getLogger(__name__)

JUDGE_KEYS = ("backend", "judge_model", "url", "min_confidence", "min_mass", "scope", "cache_dir", "max_answer_chars",
              "device", "batch_size", "api_key_env", "score_endpoint", "tokenizer", "timeout_s")

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
        judge: dict[str, Any] | None = param(None, "a reference-given judge as second opinion where the rules refused "
                                                   "for a comparison reason (never an integrity one): "
                                                   f"{{{', '.join(JUDGE_KEYS)}}}; judge_model is required")

        def __post_init__(self) -> None:
            if self.judge is not None:
                unknown = sorted(set(self.judge) - set(JUDGE_KEYS))
                if unknown:
                    raise ConfigError(f"math_equivalence judge: unknown key(s) {unknown}; keys: {list(JUDGE_KEYS)}")
                if not self.judge.get("judge_model"):
                    raise ConfigError("math_equivalence judge needs judge_model (a model folder, a packaged name such "
                                      "as smollm2-135m, or the served id with backend: http)")
                if self.judge.get("scope", "shape") not in ("shape", "comparison"):
                    raise ConfigError(f"math_equivalence judge.scope={self.judge.get('scope')!r}; use shape (the default: "
                                      "only answers written like the gold) or comparison (every comparison refusal)")
                confidence = self.judge.get("min_confidence", 0.9)
                if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0.5 <= confidence <= 1:
                    raise ConfigError(f"math_equivalence judge.min_confidence={confidence!r}; use a probability in "
                                      "[0.5, 1]")
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
        self.second = None
        if p.judge is not None:
            from rlvr.rewards.judges.backends import make_backend
            from rlvr.rewards.judges.cache import VerdictCache
            from rlvr.rewards.judges.reference import ReferenceJudge

            j = dict(p.judge)
            options = {k: j[k] for k in ("device", "batch_size") if k in j} if j.get("backend", "transformers") == \
                "transformers" else {k: j[k] for k in ("api_key_env", "score_endpoint", "tokenizer", "timeout_s") if k in j}
            backend = make_backend(j.get("backend", "transformers"), j["judge_model"], url=j.get("url"), **options)
            self.second = ReferenceJudge(backend, VerdictCache(j.get("cache_dir", "~/.cache/rlvr/judgments")),
                                         min_mass=float(j.get("min_mass", 0.5)))
            self.min_confidence = float(j.get("min_confidence", 0.9))
            self.max_answer_chars = int(j.get("max_answer_chars", 400))
            self.scope = j.get("scope", "shape")

    def reads(self) -> Reads:
        return Reads(columns=(self.p.gold_column,), answer_sources=frozenset(self.config.sources))

    def score(self, completions: list[str], prompts: Any, **columns: Any) -> list[RewardResult]:
        golds = column_values(columns, self.gold_column, len(completions))
        verdicts = verify_batch(completions, [gold_string(g) for g in golds], self.config)
        out = []
        for v in verdicts:
            key = "exact" if v.correct and v.method == "string" and "exact" in self.scores else v.status
            out.append(RewardResult(self.scores.get(key), v.status, v.reason,
                                    {"answer": v.answer, "method": v.method, "source": v.source, "rule": v.rule,
                                     "elapsed_s": round(v.elapsed_s, 6)}))
        if self.second is not None:
            self._second_opinion(verdicts, golds, out)
        return out

    def _second_opinion(self, verdicts: list[Any], golds: list[Any], out: list[RewardResult]) -> None:
        """Ask the reference judge about refusals for a comparison reason; pay those it says are equal."""
        from rlvr.rewards.judges.reference import eligible

        asked = [i for i, v in enumerate(verdicts) if golds[i] is not None and
                 eligible(v.status, v.rule, v.answer, self.max_answer_chars, gold_string(golds[i]), self.scope)]
        if not asked:
            return
        try:
            answers = self.second.judge([(gold_string(golds[i]), verdicts[i].answer) for i in asked])
        except Exception as exc:  # a judge never costs the rule verifier's verdicts
            logger.warning("math_equivalence judge failed on %d answers: %s: %s", len(asked), type(exc).__name__, exc)
            return
        for i, eq in zip(asked, answers):
            v, details = verdicts[i], dict(out[i].details or {})
            details.update(judge_p_equivalent=eq.p_equivalent, judge_mass=round(eq.mass, 4), judge_asked=True)
            if eq.error is None and eq.p_equivalent is not None and eq.p_equivalent >= self.min_confidence:
                details.update(rule="judge.reference_equivalent", method="judge", verifier_rule=v.rule,
                               verifier_status=v.status)
                out[i] = RewardResult(self.scores.get("correct"), "correct",
                                      f"the reference judge ({self.second.backend.model_id}) decided: the answer equals "
                                      f"the gold with probability {eq.p_equivalent:.3f} (mass on Yes/No "
                                      f"{eq.mass:.2f}); the rule verifier had refused ({v.rule}): {v.reason}", details)
            else:
                why = eq.error or (f"it says equal with probability {eq.p_equivalent:.3f} < {self.min_confidence:g}"
                                   if eq.p_equivalent is not None else "it gave no probability")
                out[i] = RewardResult(out[i].value, out[i].status, f"{out[i].reason} (reference judge asked: {why})",
                                      details)
