"""Length shaping: DAPO's soft overlong penalty, length-aware correctness, n-gram repetition."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from rlvr.errors import ConfigError
from rlvr.rewards.base import Reads, Reward, RewardResult, column_values
from rlvr.typed import param
from rlvr.rewards.registry import reward
from rlvr.verifiers import VerifierConfig, verify_batch
from rlvr.verifiers.core import gold_string

_UNITS = ("auto", "tokens", "chars")


def _jieba() -> Any:
    """jieba, the Chinese word segmenter (optional: ``pip install 'rlvr[zh]'``), loaded quietly once."""
    try:
        import jieba
    except ImportError:
        from rlvr.errors import DependencyMissingError

        raise DependencyMissingError("language='zh' segments Chinese with jieba: pip install 'rlvr[zh]' "
                                     "(or pip install jieba)") from None
    import logging

    jieba.setLogLevel(logging.WARNING)
    return jieba


def _lengths(completions: list[str], columns: dict[str, Any], unit: str) -> tuple[list[int], str]:
    """Completion lengths in tokens (TRL passes ``completion_ids``) or characters."""
    ids = columns.get("completion_ids")
    if unit == "tokens" or (unit == "auto" and ids is not None):
        if ids is None:
            raise ConfigError("length_unit='tokens' needs completion_ids (TRL's GRPOTrainer passes them); "
                              "outside TRL pass completion_ids= or use length_unit='chars'")
        return [len(x) for x in ids], "tokens"
    return [len(c) for c in completions], "chars"


@reward("overlong_penalty")
class OverlongPenalty(Reward):
    """DAPO's soft overlong punishment: 0 up to ``max_length - cache_length``, then linear down to
    −1 at ``max_length``, −1 beyond. Lengths in tokens when TRL passes ``completion_ids``."""

    @dataclass(frozen=True)
    class Params:
        max_length: int = param(4096, "longest completion without penalty at all is max_length - cache_length; "
                                      "-1 from max_length on", min=1)
        cache_length: int = param(512, "width of the soft zone before max_length where the penalty grows linearly",
                                  min=0)
        length_unit: str = param("auto", "tokens (TRL's completion_ids), chars, or auto (tokens when given)",
                                 choices=_UNITS)

        def __post_init__(self) -> None:
            if self.cache_length >= self.max_length:
                raise ConfigError(f"cache_length={self.cache_length} must be < max_length={self.max_length}")

    def score(self, completions: list[str], prompts: Any, **columns: Any) -> list[RewardResult]:
        lengths, unit = _lengths(completions, columns, self.length_unit)
        soft_start = self.max_length - self.cache_length
        out = []
        for n in lengths:
            if n <= soft_start:
                out.append(RewardResult(0.0, "ok", f"{n} {unit} <= {soft_start}", {"length": n}))
            elif n <= self.max_length:
                value = (soft_start - n) / self.cache_length
                out.append(RewardResult(value, "long", f"{n} {unit} in the soft zone ({soft_start}, {self.max_length}]", {"length": n}))
            else:
                out.append(RewardResult(-1.0, "overlong", f"{n} {unit} > max_length {self.max_length}", {"length": n}))
        return out


@reward("soft_overlong")
class SoftOverlong(OverlongPenalty):
    """DAPO's soft overlong punishment (Eq. 13) under the names DAPO, verl and open-r1 use:
    ``max_completion_len`` and ``soft_punish_cache`` (``overlong_penalty``'s ``max_length`` and
    ``cache_length``): 0 up to ``max_completion_len - soft_punish_cache``, then
    ``(max - cache - length) / cache`` down to −1 at ``max_completion_len``, −1 beyond."""

    @dataclass(frozen=True)
    class Params:
        max_completion_len: int = param(4096, "DAPO's L_max: -1 from this length on", min=1)
        soft_punish_cache: int = param(512, "DAPO's L_cache: the soft zone's width before L_max", min=0)
        length_unit: str = param("auto", "tokens (TRL's completion_ids), chars, or auto", choices=_UNITS)

        def __post_init__(self) -> None:
            if self.soft_punish_cache >= self.max_completion_len:
                raise ConfigError(f"soft_punish_cache={self.soft_punish_cache} must be < max_completion_len="
                                  f"{self.max_completion_len}")

    def setup(self) -> None:
        self.max_length, self.cache_length = self.p.max_completion_len, self.p.soft_punish_cache


class _VerifiedLength(Reward):
    """A reward that combines the verifier's verdict with the completion's length."""

    def setup(self) -> None:
        self._config = VerifierConfig.from_dict(self.p.verifier) if self.p.verifier else VerifierConfig()

    def reads(self) -> Reads:
        return Reads(columns=(self.p.gold_column,), answer_sources=frozenset(self._config.sources))

    def _verdicts_and_lengths(self, completions: list[str], columns: dict[str, Any]) -> tuple[list[Any], list[int], str]:
        golds = column_values(columns, self.p.gold_column, len(completions))
        lengths, unit = _lengths(completions, columns, self.p.length_unit)
        return verify_batch(completions, [gold_string(g) for g in golds], self._config), lengths, unit


@reward("len_reward")
class LenReward(_VerifiedLength):
    """Kimi k1.5's length reward (as open-r1 implements it), relative within each group of completions
    of one prompt: ``lambda = 0.5 - (len - min_len) / (max_len - min_len)``; a correct answer earns
    ``lambda``, a wrong one ``min(0, lambda)``; 0 for every member when all lengths are equal.
    Correctness comes from rlvr's verifier; a gold that does not parse counts as correct (as in open-r1,
    so it never penalises), a verifier error makes that completion ``None``. Without prompts the whole
    batch is one group (open-r1's behaviour)."""

    @dataclass(frozen=True)
    class Params:
        gold_column: str = param("answer", "dataset column with the gold answer (dotted paths reach into dicts)")
        length_unit: str = param("chars", "chars (as open-r1), tokens (TRL's completion_ids) or auto", choices=_UNITS)
        verifier: dict[str, Any] | None = param(None, "VerifierConfig fields for the correctness check")

    def score(self, completions: list[str], prompts: Any, **columns: Any) -> list[RewardResult]:
        verdicts, lengths, unit = self._verdicts_and_lengths(completions, columns)
        groups: dict[str, list[int]] = {}
        for i in range(len(completions)):
            key = repr(prompts[i]) if prompts is not None and i < len(prompts) else ""
            groups.setdefault(key, []).append(i)
        out: list[RewardResult | None] = [None] * len(completions)
        for members in groups.values():
            lo, hi = min(lengths[i] for i in members), max(lengths[i] for i in members)
            for i in members:
                v, n = verdicts[i], lengths[i]
                if v.status in ("error", "timeout"):
                    out[i] = RewardResult(None, v.status, v.reason, {"length": n})
                    continue
                lam = 0.0 if hi == lo else 0.5 - (n - lo) / (hi - lo)
                correct = v.correct or v.status == "unparseable_gold"
                value = lam if correct else min(0.0, lam)
                out[i] = RewardResult(value, v.status, f"{'correct' if correct else 'not correct'}; {n} {unit} "
                                      f"in a group of lengths {lo}..{hi} (lambda {lam:+.3f})", {"length": n})
        return out  # type: ignore[return-value]


@reward("cosine_scaled")
class CosineScaled(_VerifiedLength):
    """Length-aware correctness (open-r1's cosine-scaled reward): correct answers earn more when
    short (``max_value_correct`` at length 0 down to ``min_value_correct`` at ``max_length``); wrong
    answers are penalised less when long (``min_value_wrong`` at 0 up to ``max_value_wrong``).
    Correctness comes from rlvr's verifier; an unparseable gold or a verifier error scores ``None``."""

    @dataclass(frozen=True)
    class Params:
        min_value_wrong: float = param(-1.0, "a wrong answer's score at length 0")
        max_value_wrong: float = param(-0.5, "a wrong answer's score at max_length")
        min_value_correct: float = param(0.5, "a correct answer's score at max_length")
        max_value_correct: float = param(1.0, "a correct answer's score at length 0")
        max_length: int = param(1000, "length where the cosine reaches its end value", min=1)
        length_unit: str = param("auto", "tokens (TRL's completion_ids), chars, or auto", choices=_UNITS)
        gold_column: str = param("answer", "dataset column with the gold answer")
        verifier: dict[str, Any] | None = param(None, "VerifierConfig fields for the correctness check")

    def score(self, completions: list[str], prompts: Any, **columns: Any) -> list[RewardResult]:
        verdicts, lengths, unit = self._verdicts_and_lengths(completions, columns)
        out = []
        for v, n in zip(verdicts, lengths):
            if v.status in ("unparseable_gold", "error"):
                out.append(RewardResult(None, v.status, v.reason, {"length": n}))
                continue
            progress = min(n, self.max_length) / self.max_length
            cosine = math.cos(progress * math.pi)
            if v.correct:
                lo, hi = self.min_value_correct, self.max_value_correct
            else:  # wrong answers: the penalty shrinks with length (values swapped, as in open-r1)
                lo, hi = self.max_value_wrong, self.min_value_wrong
            value = lo + 0.5 * (hi - lo) * (1.0 + cosine)
            out.append(RewardResult(value, v.status, f"{v.reason}; {n} {unit}", {"length": n}))
        return out


@reward("repetition_penalty")
class RepetitionPenalty(Reward):
    """N-gram repetition penalty (open-r1): ``max_penalty * (1 - distinct n-grams / n-grams)``
    over lower-cased words (``language: en`` splits at whitespace, ``zh`` segments with jieba, as
    open-r1 does); 0 for texts shorter than one n-gram."""

    @dataclass(frozen=True)
    class Params:
        ngram_size: int = param(3, "words per n-gram", min=1)
        max_penalty: float = param(-1.0, "the penalty when every n-gram repeats (must be <= 0)", max=0.0)
        language: str = param("en", "en: split at whitespace; zh: segment Chinese words with jieba", choices=("en", "zh"))

    def setup(self) -> None:
        if self.p.language == "zh":
            _jieba()  # fail at configuration time, with the install line, not mid-run

    def _words(self, text: str) -> list[str]:
        if self.language == "zh":  # Chinese has no spaces: segment into words first
            return [w for w in _jieba().cut(text.lower()) if w.strip()]
        return text.lower().split()

    def score(self, completions: list[str], prompts: Any, **columns: Any) -> list[RewardResult]:
        out = []
        for text in completions:
            words = self._words(text)
            if len(words) < self.ngram_size:
                out.append(RewardResult(0.0, "ok", f"fewer than {self.ngram_size} words"))
                continue
            grams = list(zip(*(words[i:] for i in range(self.ngram_size))))
            repeated = 1.0 - len(set(grams)) / len(grams)
            value = repeated * self.max_penalty
            out.append(RewardResult(value, "ok" if repeated == 0 else "repetitive",
                                    f"{repeated:.0%} of {self.ngram_size}-grams repeat", {"repeated_share": repeated}))
        return out
