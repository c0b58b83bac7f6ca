"""Generative rewards: an LLM judge reads the responses and scores them (DeepSeek-GRM / SPCT).

* ``grm``: principles (given or written by the judge), a critique of each response, an integer
  score 1-10 per response; k judgments with the responses shuffled each time, summed (voting); with
  a meta RM only the top ``k_meta`` judgments vote.
* ``judge``: the same engine with a fixed rubric and no principles (a plain LLM-as-a-judge).
* ``grm_rule``: SPCT's rule reward for training a judge itself: +1 when a judgment gives the known
  best response the strictly highest score, -1 otherwise.

``mode: group`` judges the completions of one prompt together (TRL passes a prompt's G completions
one after another: consecutive completions with the same prompt are a group), ``single`` one by one.
A judgment whose score line does not parse is scored from the judge's token distribution where the
backend has one (``score_method``; the score line forced, the expected score over 1-10 voted); one
that still has no score (too little probability on the scale), a timeout, a dead server: that
judgment abstains; a completion with
no valid judgment scores ``None`` (status ``unparseable`` or ``judge_error``, the reason quoting the
raw text or the cause), never 0, and the run goes on. Judge token counts, cache hits and abstentions
are logged as metrics (``rewards/<name>/judge/...``).
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass
from typing import Any

from rlvr.errors import ConfigError
from rlvr.rewards.base import Reads, Reward, RewardResult, column_values
from rlvr.rewards.judges.backends import BACKENDS, make_backend
from rlvr.rewards.judges.cache import VerdictCache
from rlvr.rewards.judges.engine import SCORE_METHODS, SCORE_VALUES, EngineSettings, JudgeEngine
from rlvr.rewards.judges.http import CONSTRAINED, SCORE_ENDPOINTS
from rlvr.rewards.judges.parse import parse_judgment
from rlvr.rewards.judges.prompts import DEFAULT_RUBRIC, JudgePrompt, responses_shown
from rlvr.rewards.judges.voting import AGGREGATES
from rlvr.rewards.registry import reward
from rlvr.typed import param

logger = logging.getLogger(__name__)

__all__ = ["GenerativeReward", "GRM", "Judge", "GRMRule", "query_text"]

_METRICS = ("judgments", "generated", "cache_hits", "unparseable", "prompt_tokens", "completion_tokens",
            "distribution_scored")


def query_text(prompt: Any) -> str:
    """What the judge is told the query was: a prompt string, or a chat's user turns (the policy's
    system prompt, with its answer-format instructions, is not part of the question)."""
    if prompt is None:
        return ""
    if isinstance(prompt, str):
        return prompt
    users = [m.get("content", "") for m in prompt if isinstance(m, dict) and m.get("role") == "user"]
    return "\n\n".join(c for c in users if isinstance(c, str))


@dataclass(frozen=True)
class _JudgeParams:
    backend: str = param("transformers", "transformers (local model, CPU/GPU), vllm (in process, GPU) or http "
                                         "(an OpenAI-compatible server)", choices=BACKENDS)
    judge_model: str | None = param(None, "model folder or hub id (transformers, vllm); the served model id (http)")
    url: str | None = param(None, "http: the server's base URL, e.g. http://127.0.0.1:8000/v1")
    api_key_env: str = param("OPENAI_API_KEY", "http: environment variable holding the bearer token (if any)")
    mode: str = param("group", "group: a prompt's completions judged together; single: one by one",
                      choices=("group", "single"))
    k: int = param(1, "judgments sampled per group (voting@k: each response's scores summed)", min=1, max=64)
    temperature: float = param(0.5, "judge sampling temperature (0: greedy, k must be 1)", min=0, max=2)
    max_new_tokens: int = param(512, "tokens per judgment", min=8)
    k_meta: int | None = param(None, "meta-RM-guided voting: only the top k_meta of k judgments vote", min=1)
    meta_rm: str | None = param(None, "meta RM folder (rlvr grm train --stage meta-rm)")
    reference_column: str | None = param(None, "dataset column with a reference answer shown to the judge "
                                               "(None: reference-free)")
    aggregate: str = param("sum", "sum (the paper's voting) or mean of the counted judgments' scores",
                           choices=AGGREGATES)
    shuffle: bool = param(True, "show the responses in a new order for every sampled judgment")
    seed: int = param(0, "seed of the orders and of the judge's sampling")
    max_group_size: int = param(8, "group mode: at most this many responses per judgment", min=1, max=32)
    max_response_chars: int = param(4000, "each response is cut to this (its start and end kept)", min=50)
    cache_dir: str | None = param("~/.cache/rlvr/judgments", "verdict cache folder (SQLite); null: memory only")
    cache_max_entries: int = param(200_000, "judgments kept in the cache file at most", min=1)
    batch_size: int = param(8, "transformers: judgments per generate call", min=1)
    device: str = param("auto", "transformers: auto, cpu, cuda, cuda:N")
    gpu_memory_utilization: float = param(0.3, "vllm: share of GPU memory the judge may take", min=0.01, max=1)
    max_concurrency: int = param(8, "http: requests in flight at most", min=1)
    retries: int = param(3, "http: retries on connection errors, timeouts, 429 and 5xx", min=0)
    timeout_s: float = param(120.0, "http: deadline of one judgment, retries included", min=0.1)
    score_method: str = param("auto", "auto: the score line of the text, else the score read from the judge's "
                                      "token distribution; text: the score line only; distribution: always the "
                                      "distribution", choices=SCORE_METHODS)
    score_value: str = param("expected", "a distribution score votes with its expected score or its argmax",
                             choices=SCORE_VALUES)
    min_mass: float = param(0.05, "a distribution score with less probability than this on the scale abstains",
                            min=0, max=0.99)
    logprobs: bool = param(True, "http: read scores from the server's top_logprobs")
    score_endpoint: str = param("chat", "http: chat (a final assistant message continued: vLLM, SGLang) or "
                                        "completions (the prompt rendered here with tokenizer: llama.cpp)",
                                choices=SCORE_ENDPOINTS)
    tokenizer: str | None = param(None, "http, score_endpoint completions: the judge's tokenizer (its chat template)")
    constrained: str = param("none", "http, a server without log-probabilities: write the score line under a "
                                     "grammar (llama.cpp) or a regex (vLLM structured outputs)", choices=CONSTRAINED)


class GenerativeReward(Reward):
    """Shared machinery of ``grm`` and ``judge``: builds the engine and maps verdicts to results."""

    style = "grm"

    def setup(self) -> None:
        p = self.p
        if p.k_meta is not None and not p.meta_rm:
            raise ConfigError(f"{self.name}: k_meta={p.k_meta} needs meta_rm, a meta RM folder "
                              "(rlvr grm train --stage meta-rm writes one)")
        if p.k_meta is not None and p.k_meta > p.k:
            raise ConfigError(f"{self.name}: k_meta={p.k_meta} is more than k={p.k} judgments")
        options: dict[str, Any] = {}
        if p.backend == "transformers":
            options = {"device": p.device, "batch_size": p.batch_size}
        elif p.backend == "vllm":
            options = {"gpu_memory_utilization": p.gpu_memory_utilization}
        else:
            options = {"api_key_env": p.api_key_env, "max_concurrency": p.max_concurrency, "retries": p.retries,
                       "timeout_s": p.timeout_s, "logprobs": p.logprobs, "score_endpoint": p.score_endpoint,
                       "tokenizer": p.tokenizer, "constrained": p.constrained}
        backend = make_backend(p.backend, p.judge_model, url=p.url, **options)
        meta = None
        if p.meta_rm:
            from rlvr.rewards.judges.metarm import MetaRM

            meta = MetaRM(p.meta_rm)
        self.engine = JudgeEngine(backend, self._prompt(), EngineSettings(
            k=p.k, temperature=p.temperature, max_new_tokens=p.max_new_tokens, seed=p.seed, shuffle=p.shuffle,
            k_meta=p.k_meta, aggregate=p.aggregate, score_method=p.score_method, score_value=p.score_value,
            min_mass=p.min_mass), VerdictCache(p.cache_dir, p.cache_max_entries), meta)

    def _prompt(self) -> JudgePrompt:
        raise NotImplementedError

    def reads(self) -> Reads:
        return Reads(columns=(self.p.reference_column,) if self.p.reference_column else ())

    def judge_stats(self) -> dict[str, int]:
        """Everything the engine counted since construction (judgments, tokens, cache hits, abstentions)."""
        return dict(self.engine.counters)

    def _groups(self, queries: list[str], refs: list[str | None]) -> list[list[int]]:
        groups: list[list[int]] = []
        for i, key in enumerate(zip(queries, refs)):
            same = groups and self.p.mode == "group" and (queries[groups[-1][0]], refs[groups[-1][0]]) == key
            if same and len(groups[-1]) < self.p.max_group_size:
                groups[-1].append(i)
            else:
                groups.append([i])
        return groups

    def score(self, completions: list[str], prompts: list[Any] | None, **columns: Any) -> list[RewardResult]:
        n = len(completions)
        queries = [query_text(p) for p in (prompts or [None] * n)]
        refs: list[str | None] = [None] * n
        if self.p.reference_column:
            refs = [None if r is None else str(r) for r in column_values(columns, self.p.reference_column, n)]
        groups = self._groups(queries, refs)
        before = Counter(self.engine.counters)
        verdicts = self.engine.judge_groups([(queries[g[0]], [completions[i] for i in g], refs[g[0]]) for g in groups])
        results: list[RewardResult] = [None] * n  # type: ignore[list-item]
        for members, verdict in zip(groups, verdicts):
            status = verdict.status()
            for j, i in enumerate(members):
                value = verdict.values[j]
                details = {"group_size": len(members), "votes": [
                    {"sample": v.sample, "status": v.status, "score": v.scores[j] if v.scores else None,
                     "meta": v.meta} for v in verdict.votes]}
                results[i] = RewardResult(value, "ok" if value is not None else status, verdict.reason(j), details)
        self._log_judge_metrics(before, sum(r.value is None for r in results), columns)
        return results

    def _log_judge_metrics(self, before: Counter, abstained: int, columns: dict[str, Any]) -> None:
        log_metric = columns.get("log_metric")
        if not callable(log_metric):
            return
        try:
            for name in _METRICS:
                log_metric(f"rewards/{self.__name__}/judge/{name}", float(self.engine.counters[name] - before[name]))
            errors = sum(v - before[k] for k, v in self.engine.counters.items() if k.startswith("backend_"))
            log_metric(f"rewards/{self.__name__}/judge/backend_errors", float(errors))
            log_metric(f"rewards/{self.__name__}/judge/abstained", float(abstained))
        except Exception as exc:  # logging must never cost a training step
            logger.debug("could not log judge metrics: %s", exc)


@reward("grm")
class GRM(GenerativeReward):
    """A generative reward model (DeepSeek-GRM): principles, critiques and 1-10 scores by an LLM judge.

    Voting over ``k`` shuffled judgments sums each response's scores; ``meta_rm`` + ``k_meta`` keeps
    the judgments a meta RM trusts most. ``reference_column`` shows the gold to the judge.
    """

    @dataclass(frozen=True)
    class Params(_JudgeParams):
        principles: list[str] = param([], "principles (criteria with weights) given to the judge; empty: the "
                                          "judge writes its own (generate_principles) or none")
        generate_principles: bool = param(True, "the judge writes principles suited to each query first")

    def _prompt(self) -> JudgePrompt:
        return JudgePrompt("grm", tuple(self.p.principles), self.p.generate_principles,
                           max_response_chars=self.p.max_response_chars)


@reward("judge")
class Judge(GenerativeReward):
    """An LLM judge with a fixed rubric (no principles): a critique and a 1-10 score per response."""

    @dataclass(frozen=True)
    class Params(_JudgeParams):
        rubric: str = param(DEFAULT_RUBRIC, "what the judge scores against")

    def _prompt(self) -> JudgePrompt:
        return JudgePrompt("judge", (), False, self.p.rubric, max_response_chars=self.p.max_response_chars)


@reward("grm_rule")
class GRMRule(Reward):
    """SPCT's rule reward for a judge in training: +1 when the judgment scores the known best response
    strictly highest, -1 otherwise (an unparseable judgment is a wrong one here: the judge is the policy)."""

    @dataclass(frozen=True)
    class Params:
        best_column: str = param("answer", "column: 1-based position of the best response in the judge's prompt")
        n_column: str | None = param(None, "column: how many responses the prompt shows (unset: counted from "
                                           "the judge prompt's [Response i] headers)")
        right: float = param(1.0, "value of a judgment that puts the best response strictly on top")
        wrong: float = param(-1.0, "value of any other judgment (ties, wrong order, unparseable)")
        scorer: str | None = param(None, "judge model folder that reads a judgment with no score line from its "
                                         "token distribution (the score line forced after the judgment's text, "
                                         "expected scores compared); unset: such a judgment is wrong")
        scorer_device: str = param("cpu", "device of the scorer model")
        min_mass: float = param(0.05, "the scorer abstains (a wrong judgment) below this probability on the scale")
        graded: bool = param(False, "pay the best response's score margin over the next, scaled from wrong (-9) to "
                                    "right (+9), instead of right/wrong: a small judge's sampled judgments of one "
                                    "prompt often agree in sign, and GRPO learns only from their differences")

    def reads(self) -> Reads:
        return Reads(columns=(self.p.best_column,) + ((self.p.n_column,) if self.p.n_column else ()))

    def _value(self, ok: bool, top: float, rest: list[float]) -> float:
        if not self.p.graded or not rest:
            return self.p.right if ok else self.p.wrong
        margin = max(-1.0, min(1.0, (top - max(rest)) / 9))  # the 1-10 scale's widest gap is 9
        low, high = self.p.wrong, self.p.right
        return round(low + (margin + 1) / 2 * (high - low), 4)

    def _forced(self, prompts: list[Any] | None, todo: list[tuple[int, str, int]]) -> dict[int, Any]:
        """Scores of judgments with no score line, read by ``scorer`` from its token distribution.

        A small judge trained by RL rarely reaches a written score line in its token budget, so a text-only
        rule gives every sample -1 and GRPO no gradient (measured: 100% unparseable, reward std 0 on SmolLM2)."""
        if not self.p.scorer or not todo or prompts is None:
            return {}
        from rlvr.rewards.judges.backends import JudgeCall, TransformersJudge
        from rlvr.rewards.judges.distribution import Scale

        if getattr(self, "_scorer", None) is None:
            self._scorer = TransformersJudge(self.p.scorer, device=self.p.scorer_device)
        items = []
        for i, text, count in todo:
            prompt = prompts[i]
            messages = prompt if isinstance(prompt, list) else [{"role": "user", "content": str(prompt)}]
            items.append((JudgeCall.of(messages, 0.0, 1, 0), text, count))
        scored = self._scorer.score_judgments(items, Scale(), self.p.min_mass)
        return {i: s for (i, _, _), s in zip(todo, scored)}

    def score(self, completions: list[str], prompts: list[Any] | None, **columns: Any) -> list[RewardResult]:
        n = len(completions)
        bests = column_values(columns, self.p.best_column, n)
        if self.p.n_column:
            counts = column_values(columns, self.p.n_column, n)
        else:
            counts = [responses_shown(query_text(p)) for p in (prompts or [None] * n)]
        checked, todo = [], []
        for i, (text, best, count) in enumerate(zip(completions, bests, counts)):
            try:
                best, count = int(str(best).strip()), int(count)
            except (TypeError, ValueError):
                raise ConfigError(f"grm_rule: {self.p.best_column}={best!r} / {self.p.n_column}={count!r} must be "
                                  "integers (the best response's 1-based position and the number shown)") from None
            parsed = parse_judgment(text, count)
            checked.append((best, parsed))
            if parsed.scores is None:
                todo.append((i, text, count))
        forced = self._forced(prompts, todo)
        out = []
        for i, (best, parsed) in enumerate(checked):
            if parsed.scores is None:
                f = forced.get(i)
                if f is None or f.error is not None:
                    why = parsed.reason + (f"; the scorer has none either: {f.error}" if f is not None else "")
                    out.append(RewardResult(self.p.wrong, "unparseable", why))
                    continue
                values = [p.expected for p in f.positions]
                top, rest = values[best - 1], [v for j, v in enumerate(values) if j != best - 1]
                ok = all(top > v for v in rest)
                out.append(RewardResult(self._value(ok, top, rest), "correct" if ok else "incorrect",
                                        f"no score line; the scorer's expected scores {[round(v, 2) for v in values]} "
                                        f"(mass {f.min_mass:.2f}) put best response {best} "
                                        f"{'strictly on top' if ok else 'not strictly on top'}"))
                continue
            top = parsed.scores[best - 1]
            rest = [s for i, s in enumerate(parsed.scores) if i != best - 1]
            if all(top > s for s in rest):
                out.append(RewardResult(self._value(True, top, rest), "correct", f"best response {best} scored {top}, strictly "
                                                                 f"above {rest}"))
            else:
                out.append(RewardResult(self._value(False, top, rest), "incorrect", f"best response {best} scored {top}, not strictly "
                                                                   f"above {rest}"))
        return out
