"""The judging engine: k shuffled judgments per group of responses, cached, scored, voted.

For each group (a query, its responses, optionally a reference answer) and each sample index
``s < k``, the responses are shown in an order drawn from a seed of (seed, s, group), the judge's text
is looked up in the verdict cache or generated (every miss of every group in one backend batch),
and scored: the text parse first; where it fails (or with ``score_method: distribution`` always),
the score line is forced and read from the judge's token distribution
(:mod:`rlvr.rewards.judges.distribution`; cached too). Scores are mapped back to the original
order, optionally scored by the meta RM, and voted.
Every step is bounded and nothing raises for a bad judgment: a response whose judgments all
abstained has no value and a reason quoting what the judge wrote or what failed.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rlvr.errors import ConfigError
from rlvr.rewards.judges.backends import JudgeBackend, JudgeCall
from rlvr.rewards.judges.cache import CachedJudgment, VerdictCache, cache_key
from rlvr.rewards.judges.distribution import DistributionScore, Scale
from rlvr.rewards.judges.parse import parse_judgment
from rlvr.rewards.judges.prompts import JudgePrompt
from rlvr.rewards.judges.voting import AGGREGATES, Vote, vote

logger = logging.getLogger(__name__)

__all__ = ["EngineSettings", "GroupVerdict", "JudgeEngine", "Group", "SCORE_METHODS", "SCORE_VALUES"]

#: text: the score line only; auto: the text, else the distribution; distribution: always the distribution
SCORE_METHODS = ("auto", "text", "distribution")
SCORE_VALUES = ("expected", "argmax")

#: (query, responses, reference or None)
Group = tuple[str, list[str], str | None]


@dataclass(frozen=True)
class EngineSettings:
    """``k`` judgments per group at ``temperature`` (0: greedy; then k is 1), ``max_new_tokens`` each;
    ``shuffle`` the responses per sample; ``k_meta``: meta-RM-guided voting (top k_meta of k).
    ``score_method``: see :data:`SCORE_METHODS`; ``score_value``: a distribution score votes with its
    expected score or its argmax; ``min_mass``: below this probability on the scale it abstains."""

    k: int = 1
    temperature: float = 0.5
    max_new_tokens: int = 512
    seed: int = 0
    shuffle: bool = True
    k_meta: int | None = None
    aggregate: str = "sum"
    score_method: str = "auto"
    score_value: str = "expected"
    min_mass: float = 0.05

    def __post_init__(self) -> None:
        if self.score_method not in SCORE_METHODS:
            raise ConfigError(f"score_method={self.score_method!r}; use one of {list(SCORE_METHODS)}")
        if self.score_value not in SCORE_VALUES:
            raise ConfigError(f"score_value={self.score_value!r}; use one of {list(SCORE_VALUES)}")
        if not 0 <= self.min_mass < 1:
            raise ConfigError(f"min_mass={self.min_mass}; use a probability in [0, 1)")
        if self.k < 1:
            raise ConfigError(f"k={self.k}; sample at least one judgment")
        if self.temperature < 0:
            raise ConfigError(f"temperature={self.temperature}; use 0 (greedy) or more")
        if self.temperature == 0 and self.k > 1:
            raise ConfigError(f"k={self.k} judgments at temperature 0 would all be the same greedy judgment; "
                              "set temperature > 0 (the paper: 0.5) or k=1")
        if self.k_meta is not None and not 1 <= self.k_meta <= self.k:
            raise ConfigError(f"k_meta={self.k_meta}; use 1..k ({self.k})")
        if self.aggregate not in AGGREGATES:
            raise ConfigError(f"aggregate={self.aggregate!r}; use one of {list(AGGREGATES)}")
        if self.max_new_tokens < 1:
            raise ConfigError("max_new_tokens must be >= 1")


@dataclass
class GroupVerdict:
    """The outcome for one group: per response ``values`` (None: no valid judgment), every vote."""

    n: int
    values: list[float | None]
    votes: list[Vote]
    counted: list[Vote] = field(default_factory=list)

    @property
    def abstained(self) -> bool:
        return all(v is None for v in self.values)

    def status(self) -> str:
        if not self.abstained:
            return "ok"
        return "unparseable" if all(v.status == "unparseable" for v in self.votes) else "judge_error"

    def reason(self, i: int) -> str:
        """Why response ``i`` got its value (or none)."""
        failed = Counter(v.status for v in self.votes if v.scores is None)
        note = f" ({', '.join(f'{c} {s}' for s, c in sorted(failed.items()))})" if failed else ""
        if self.values[i] is None:
            first = next(v for v in self.votes if v.scores is None)
            raw = f"; raw text: {first.text[-300:]!r}" if first.text else ""
            return f"no valid judgment of {len(self.votes)}{note}: sample {first.sample}: {first.reason}{raw}"
        scores = [v.scores[i] for v in self.counted]  # type: ignore[index]
        meta = f", the meta RM's top {len(self.counted)}" if any(v.meta is not None for v in self.counted) else ""
        methods = Counter(v.method for v in self.counted)
        how = ", ".join(f"{c} from {m}" for m, c in sorted(methods.items()))
        masses = [v.mass for v in self.counted if v.mass is not None]
        mass = f"; probability mass on the scale {min(masses):.2f} at least" if masses else ""
        return (f"judge scores {'+'.join(f'{s:g}' for s in scores)} = {sum(scores):g} from {len(self.counted)} of "
                f"{len(self.votes)} judgment(s) ({how}{mass}){meta}{note}")


def _original(scores: tuple, order: tuple[int, ...]) -> tuple:
    """Scores in the order the judge saw the responses, put back in the responses' own order."""
    original = [scores[0]] * len(order)
    for shown_at, j in enumerate(order):
        original[j] = scores[shown_at]
    return tuple(original)


def _order(seed: int, sample: int, query: str, responses: list[str], shuffle: bool) -> tuple[int, ...]:
    order = list(range(len(responses)))
    if shuffle and len(order) > 1:
        rng = random.Random(cache_key(seed=seed, sample=sample, query=query, responses=responses))
        rng.shuffle(order)
    return tuple(order)


class JudgeEngine:
    """Judges groups of responses with ``backend``; ``counters`` count everything it did."""

    def __init__(self, backend: JudgeBackend, prompt: JudgePrompt | None = None,
                 settings: EngineSettings | None = None, cache: VerdictCache | None = None, meta: Any = None):
        self.backend, self.prompt = backend, prompt or JudgePrompt()
        self.settings, self.meta = settings or EngineSettings(), meta
        self.cache = cache if cache is not None else VerdictCache()  # an empty cache is falsy (len 0)
        if self.settings.k_meta is not None and meta is None:
            raise ConfigError("k_meta needs a meta RM (meta_rm: a folder written by rlvr grm train --stage meta-rm)")
        self.counters: Counter[str] = Counter()

    def judge(self, query: str, responses: list[str], reference: str | None = None) -> GroupVerdict:
        return self.judge_groups([(query, list(responses), reference)])[0]

    def judge_groups(self, groups: list[Group], k: int | None = None) -> list[GroupVerdict]:
        """One verdict per group; ``k`` overrides the settings' k (fewer samples of the same cache)."""
        s, k = self.settings, k or self.settings.k
        started = time.perf_counter()
        plans: list[list[tuple[tuple[int, ...], str, JudgeCall, str]]] = []
        texts: dict[str, tuple[str | None, str, str]] = {}  # key -> (text, status, reason)
        misses: dict[str, JudgeCall] = {}
        for query, responses, reference in groups:
            plan = []
            for sample in range(k):
                order = _order(s.seed, sample, query, responses, s.shuffle)
                shown = [responses[j] for j in order]
                messages = self.prompt.messages(query, shown, reference)
                key = cache_key(model=self.backend.model_id, template=self.prompt.template_id, query=query,
                                responses=shown, reference=reference, sample=sample, temperature=s.temperature,
                                max_tokens=s.max_new_tokens, seed=s.seed)
                call = JudgeCall.of(messages, s.temperature, s.max_new_tokens, int(key[:8], 16))
                plan.append((order, key, call, messages[-1]["content"]))
                if key in texts or key in misses:
                    continue
                hit = self.cache.get(key)
                if hit is not None:
                    self.counters["cache_hits"] += 1
                    texts[key] = (hit.text, "ok", "")
                else:
                    misses[key] = call
            plans.append(plan)
        if misses:
            keys = list(misses)
            replies = self.backend.generate([misses[key] for key in keys])
            for key, reply in zip(keys, replies):
                self.counters["generated"] += 1
                self.counters["prompt_tokens"] += reply.prompt_tokens
                self.counters["completion_tokens"] += reply.completion_tokens
                if reply.text is None:
                    self.counters[f"backend_{reply.error}"] += 1
                    texts[key] = (None, reply.error or "backend_error", reply.reason)
                else:
                    self.cache.put(key, CachedJudgment(reply.text, reply.prompt_tokens, reply.completion_tokens))
                    texts[key] = (reply.text, "ok", "")
        scored = self._distribution_scores(plans, groups, texts)
        verdicts = [self._verdict(plan, len(group[1]), texts, scored) for plan, group in zip(plans, groups)]
        self.counters["judgments"] += sum(len(p) for p in plans)
        self.counters["groups"] += len(groups)
        self.counters["seconds_x1000"] += int(1000 * (time.perf_counter() - started))
        return verdicts

    def _distribution_scores(self, plans: list, groups: list[Group],
                             texts: dict[str, tuple[str | None, str, str]]) -> dict[str, DistributionScore]:
        """The distribution score of every judgment that needs one (cached under the judgment's key)."""
        s = self.settings
        if s.score_method == "text" or not self.backend.distribution:
            return {}
        scale, found, wanted = Scale(), {}, {}
        for plan, group in zip(plans, groups):
            for _order, key, call, _prompt in plan:
                text = texts[key][0]
                if text is None or key in found or key in wanted:
                    continue
                if s.score_method == "auto" and parse_judgment(text, len(group[1])).scores is not None:
                    continue
                dkey = cache_key(judgment=key, scale=[scale.low, scale.high], min_mass=s.min_mass, kind="distribution")
                hit = self.cache.get(dkey)
                if hit is not None:
                    self.counters["distribution_cache_hits"] += 1
                    found[key] = DistributionScore.from_json(json.loads(hit.text))
                else:
                    wanted[key] = (dkey, (call, text, len(group[1])))
        if wanted:
            keys = list(wanted)
            results = self.backend.score_judgments([wanted[k][1] for k in keys], scale, s.min_mass)
            for key, result in zip(keys, results):
                if result is None:
                    continue
                self.counters["distribution_scored"] += 1
                found[key] = result
                if result.transient:
                    continue
                self.cache.put(wanted[key][0], CachedJudgment(json.dumps(result.to_json()), 0, 0))
        return found

    def _vote(self, sample: int, n: int, order: tuple[int, ...], prompt_text: str, text: str,
              dist: DistributionScore | None) -> Vote:
        parsed = parse_judgment(text, n)
        if dist is None and parsed.scores is not None:
            return Vote(sample, _original(parsed.scores, order), "ok", parsed.reason, text, order=order,
                        prompt=prompt_text)
        if dist is None or dist.error is not None:
            self.counters["unparseable"] += 1
            why = parsed.reason if dist is None else f"{parsed.reason}; distribution ({dist.method}): {dist.error}"
            return Vote(sample, None, "unparseable", why, text, order=order, prompt=prompt_text, method=
                        "text" if dist is None else dist.method, mass=None if dist is None else dist.min_mass)
        expected = tuple(p.expected for p in dist.positions)
        argmax = tuple(p.argmax for p in dist.positions)
        value = expected if self.settings.score_value == "expected" else tuple(float(a) for a in argmax)
        reason = (f"distribution score ({dist.method}): expected {[round(e, 2) for e in expected]}, argmax "
                  f"{list(argmax)}, probability mass on the scale {dist.min_mass:.3f}")
        return Vote(sample, _original(value, order), "ok", reason, dist.text, order=order, prompt=prompt_text,
                    method=dist.method, mass=dist.min_mass, argmax=_original(argmax, order))

    def _verdict(self, plan: list, n: int, texts: dict[str, tuple[str | None, str, str]],
                 scored: dict[str, DistributionScore]) -> GroupVerdict:
        votes = []
        for sample, (order, key, _call, prompt_text) in enumerate(plan):
            text, status, reason = texts[key]
            if text is None:
                votes.append(Vote(sample, None, status, reason, None, order=order, prompt=prompt_text))
                continue
            votes.append(self._vote(sample, n, order, prompt_text, text, scored.get(key)))
        if self.meta is not None and self.settings.k_meta is not None:
            metas = self.meta.score(votes)
            votes = [v.with_meta(m) for v, m in zip(votes, metas)]
        values, counted = vote(votes, n, self.settings.k_meta, self.settings.aggregate)
        return GroupVerdict(n, values, votes, counted)
