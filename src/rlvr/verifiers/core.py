"""verify / verify_batch: the equivalence cascade, cheapest step first, with caching.

For each completion: extract the final answer (in process, bounded) -> normalised string equality
-> exact numbers (fractions, decimals, scientific notation, percent policy) -> structural guards ->
symbolic comparison through math-verify in the sandbox pool. A batch deduplicates identical
(answer, gold) pairs (a GRPO group repeats answers), answers repeats from an LRU cache, decides what
it can without the pool and fans the rest out to the workers in parallel.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import regex

from rlvr.verifiers.config import VerifierConfig
from rlvr.verifiers.extraction import Extraction, extract_answer
from rlvr.verifiers.guards import malformed_reason, unsafe_reason
from rlvr.verifiers.normalize import (
    NormalizedAnswer,
    assignment_rhs,
    gold_answer,
    normalize_answer,
    split_top_level,
    value_key,
)
from rlvr.verifiers.numbers import matches_at_float_precision, numbers_match, parse_number
from rlvr.verifiers.sandbox import get_pool
from rlvr.verifiers.statements import equation_problem, exact_part
from rlvr.verifiers.verdict import Verdict

logger = logging.getLogger(__name__)

__all__ = ["verify", "verify_batch", "averify", "averify_batch", "clear_cache", "validate_golds"]

_CACHE_SIZE = 200_000
_CHOICE_KEY_RE = regex.compile(r"[A-E]")
# "2,74" / "1000,99": a decimal comma (a group of three digits after it is a thousands separator)
_DECIMAL_COMMA_RE = regex.compile(r"(-?[0-9]{1,30}),([0-9]{1,2}|[0-9]{4,30})")
_APPROX_RE = regex.compile(r"\\approx|≈|\\sim(?![A-Za-z])")
# an answer that opens with a relation states a bound or an exclusion, not a value: "\neq 3", "< 5"
_LEADING_RELATION_RE = regex.compile(r"(?:\\neq?|\\not|≠|\\[lg]eq?(?![A-Za-z])|\\[lg]t(?![A-Za-z])|[<>≤≥])")
_RELATION_RE = regex.compile(r"!=|\\neq?|\\not|≠|\\[lg]eq?(?![A-Za-z])|\\[lg]t(?![A-Za-z])|[<>≤≥]")
_OR_RE = regex.compile(r"(?<![A-Za-z\\])or(?![A-Za-z])|\\lor(?![A-Za-z])")
_OR_SEPARATOR_RE = regex.compile(r"\s*,?\s*(?:" + _OR_RE.pattern + r")\s*")
_TEXT_GROUP_RE = regex.compile(r"\\(?:text|textbf|textit|textrm|mathrm|mbox|operatorname)\s*\{([^{}]*)\}")
@dataclass(frozen=True)
class _Gold:
    raw: str
    norm: NormalizedAnswer
    number: Fraction | None
    unsafe: str | None


@functools.lru_cache(maxsize=65_536)
def _gold_info(gold: str, config: VerifierConfig) -> _Gold:
    norm = normalize_answer(gold)  # ``gold`` is already the stated answer (see _gold_text)
    return _Gold(gold, norm, parse_number(norm.key, config.max_digits), unsafe_reason(norm.clean, config))


class _LRU:
    """A bounded, thread-safe mapping from (answer, gold, config) to a decided outcome."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[tuple, tuple[str, str, str]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple) -> tuple[str, str, str] | None:
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def put(self, key: tuple, value: tuple[str, str, str]) -> None:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            if len(self._data) > self.size:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()


_CACHE = _LRU(_CACHE_SIZE)
# Golds that the sandbox could not parse: later calls answer unparseable_gold without the pool.
_BAD_GOLDS = _LRU(65_536)


def clear_cache() -> None:
    """Forget cached outcomes and gold parses (for benchmarks and tests)."""
    _CACHE.clear()
    _BAD_GOLDS.clear()
    _gold_info.cache_clear()
    _gold_text.cache_clear()
    _states_no_value.cache_clear()
    normalize_answer.cache_clear()
    value_key.cache_clear()


def _percent_values(value: Fraction, percent: bool, policy: str) -> list[Fraction]:
    if not percent or policy == "ignore":
        return [value]
    if policy == "fraction":
        return [value / 100]
    return [value, value / 100]  # either


def _is_list_gold(gold: str) -> bool:
    """A gold that lists several answers: at top level (``2, 3``) or as a set (``\\{1, 2, 3\\}``).

    Tuples and intervals (``(1, 2)``, ``[0, 1)``) are one answer, not a list.
    """
    s = normalize_answer(gold).clean
    for open_, close in (("\\{", "\\}"), ("{", "}")):
        if s.startswith(open_) and s.endswith(close) and s.count(open_) == 1:
            s = s[len(open_):-len(close)]
            break
    depth = 0
    for c in s:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            return True
    return False


def _numbers_hidden_in_text(raw: str) -> bool:
    """``41\\text{ (or 42)}``, ``\\text{3}\\text{4}``: digits inside ``\\text{}`` next to other digits.

    A whole answer in ``\\text{17}`` or a unit such as ``5\\text{ cm}`` is fine; prose with numbers
    beside a number is a second answer that math parsers silently drop or merge.
    """
    groups = [m for m in _TEXT_GROUP_RE.finditer(raw) if any(c.isdigit() for c in m[1])]
    if not groups:
        return False
    outside = _TEXT_GROUP_RE.sub(" ", raw)
    return len(groups) > 1 or any(c.isdigit() for c in outside)


def _fast_decision(answer: NormalizedAnswer, gold: _Gold, config: VerifierConfig) -> tuple[str, str, str] | None:
    """Decide without sympy when possible: (status, reason, method) or ``None``."""
    g = gold.norm
    if answer.unit and g.unit and {answer.unit, g.unit} == {"degree", "radian"}:
        return "incorrect", f"{answer.clean!r} is in {answer.unit}s but the gold {gold.raw!r} is in {g.unit}s", "number"
    if config.percent == "strict" and answer.percent != g.percent and (gold.number is not None or g.percent):
        which = "the answer is a percentage but the gold is not" if answer.percent else "the gold is a percentage but the answer is not"
        return "incorrect", f"{which} (percent policy 'strict')", "number"
    if answer.key == g.key and answer.percent == g.percent:
        return "correct", f"{answer.clean!r} matches gold {gold.raw!r} after normalisation", "string"
    a_num = parse_number(answer.key, config.max_digits)
    if a_num is None and gold.number is not None:
        rhs = assignment_rhs(answer.clean)
        if rhs is not None and "=" not in g.clean:
            a_num = parse_number(normalize_answer(rhs).key, config.max_digits)
    if a_num is not None and gold.number is not None:
        a_vals = _percent_values(a_num, answer.percent, config.percent)
        g_vals = _percent_values(gold.number, g.percent, config.percent)
        if any(numbers_match(a, gv, config.abs_tol, config.rel_tol) for a in a_vals for gv in g_vals):
            how = "equals" if config.abs_tol == 0 and config.rel_tol == 0 else "is within tolerance of"
            return "correct", f"{answer.clean!r} {how} gold {gold.raw!r} as an exact number", "number"
        if any(matches_at_float_precision(answer.key, gv) for gv in g_vals):
            return "correct", (f"{answer.clean!r} is gold {gold.raw!r} written to floating-point precision "
                               "(15 or more significant digits)"), "number"
        return "incorrect", f"{answer.clean!r} is not equal to gold {gold.raw!r}", "number"
    if gold.number is not None and gold.number.denominator == 1 and config.integer_answers:
        return "incorrect", f"{answer.clean!r} is not a number and the gold {gold.raw!r} is an integer (integer_answers)", "number"
    if _CHOICE_KEY_RE.fullmatch(answer.key) and _CHOICE_KEY_RE.fullmatch(g.key):
        return "incorrect", f"choice {answer.key} is not the gold choice {g.key}", "string"  # equal keys matched above
    if _LEADING_RELATION_RE.match(answer.clean) and not _RELATION_RE.search(g.clean):
        return "incorrect", f"{answer.clean!r} states a relation, not a value", "extraction"
    if _APPROX_RE.search(answer.clean) and not _APPROX_RE.search(g.clean):
        return "incorrect", (f"{answer.clean!r} states an exact value and an approximation that disagree at the "
                             "approximation's precision: two answers"), "extraction"
    if "=" in answer.clean and "=" not in g.clean and not _RELATION_RE.search(answer.clean):
        problem = equation_problem(answer.clean)
        if problem:
            return "incorrect", problem, "extraction"
    if _OR_RE.search(answer.clean) and not _OR_RE.search(g.clean) and not _is_list_gold(gold.raw):
        return "incorrect", f"{answer.clean!r} offers alternatives joined by 'or'; one final answer is required", "extraction"
    comma = _DECIMAL_COMMA_RE.fullmatch(answer.clean) if gold.number is not None else None
    if comma and numbers_match(Fraction(f"{comma[1]}.{comma[2]}"), gold.number, config.abs_tol, config.rel_tol):
        return "correct", f"{answer.clean!r} with a decimal comma equals gold {gold.raw!r}", "number"
    gold_comma = _DECIMAL_COMMA_RE.fullmatch(g.clean) if gold.number is None and "," not in answer.clean else None
    if gold_comma and (a_value := parse_number(answer.key, config.max_digits)) is not None \
            and numbers_match(a_value, Fraction(f"{gold_comma[1]}.{gold_comma[2]}"), config.abs_tol, config.rel_tol):
        return "correct", f"{answer.clean!r} equals gold {gold.raw!r} read with a decimal comma", "number"
    if gold.number is not None and "," in answer.clean and "," not in g.clean and not answer.clean.startswith(("(", "[", "\\{", "\\begin")):
        return "incorrect", f"{answer.clean!r} lists several candidates but the gold {gold.raw!r} is one number", "extraction"
    if _bare_list(answer.clean) and _bare_list(g.clean) and _compare_in_order(answer.clean, g.clean, config.list_order):
        a_items = [value_key(x) for x in split_top_level(answer.clean, ",")]
        g_items = [value_key(x) for x in split_top_level(g.clean, ",")]
        if all(isinstance(v, Fraction) for v in a_items + g_items) and a_items != g_items \
                and sorted(a_items) == sorted(g_items):
            why = ("neither list is written in increasing order, so the order counts" if config.list_order == "auto"
                   else "the order counts")
            return "incorrect", (f"{answer.clean!r} has the gold's values in another order; {why} "
                                 f"(list_order={config.list_order!r})"), "number"
    return None


def _sandbox_texts(answer: NormalizedAnswer, gold: _Gold, config: VerifierConfig) -> tuple[str, str]:
    """Texts sent to math-verify: percent signs resolved by our policy, not math-verify's."""
    a, g = answer.clean, gold.norm.clean
    if _OR_RE.search(a) and not _OR_RE.search(g) and _is_list_gold(gold.raw):
        a = _OR_SEPARATOR_RE.sub(", ", a)  # "x = 3 or x = 5" answers the list gold "3, 5" as a list
    if config.percent == "fraction":
        a = f"\\frac{{{a}}}{{100}}" if answer.percent else a
        g = f"\\frac{{{g}}}{{100}}" if gold.norm.percent else g
    if _bare_list(a) and _bare_list(g) and _compare_in_order(a, g, config.list_order):
        a, g = f"({a})", f"({g})"  # a tuple compares in order; math-verify reads a bare list as a set
    return a, g


def _compare_in_order(answer: str, gold: str, policy: str) -> bool:
    """Whether two bare comma lists are compared position by position rather than as sets.

    Labelled items (``a_3 = 2, a_{37} = 19``) are matched by their labels under every policy. Under
    ``auto`` a list of numbers written in increasing order on either side is a set written the usual
    way ("find all solutions": ``-2, 1``), so any order of the same values answers it; when neither
    side is increasing, both chose an order and it counts (``4, 10, -2`` vs ``10, 4, -2``). Lists of
    expressions stay sets: their order carries no such sign.
    """
    items = [split_top_level(answer, ","), split_top_level(gold, ",")]
    if any("=" in item for side in items for item in side):
        return False
    if policy != "auto":
        return policy == "given"
    values = [[value_key(item) for item in side] for side in items]
    if not all(isinstance(v, Fraction) for side in values for v in side):
        return False
    return not any(all(x < y for x, y in zip(side, side[1:])) for side in values)


def _bare_list(text: str) -> bool:
    """A top-level comma list not written as a set, tuple or interval (``2, 3`` but not ``\\{2, 3\\}``)."""
    t = text.strip()
    return len(split_top_level(t, ",")) > 1 and not t.startswith(("(", "[", "\\{", "\\left"))


def _compare_keys(extraction: Extraction, gold: str, config: VerifierConfig) -> tuple[Any, ...]:
    norm = normalize_answer(extraction.answer or "")
    # "1,22" may be a decimal comma, "1, 22" is a list: the space is part of the identity there
    return (norm.key + ("%" if norm.percent else ""), gold, config, ", " in norm.clean)


def _from_extraction(extraction: Extraction) -> tuple[str, str] | None:
    if extraction.status == "ok":
        return None
    status = {"no_answer": "no_answer", "multiple": "incorrect", "too_long": "unparseable_answer",
              "timeout": "timeout"}.get(extraction.status, "error")
    return status, extraction.reason


def _sandbox_run(tasks: list[dict[str, Any]], config: VerifierConfig) -> list[dict[str, Any]]:
    pool = get_pool(config.memory_mb)
    deadline = max(config.batch_timeout_s, 0.1 * len(tasks) / max(1, pool.size))
    return pool.run(tasks, config.timeout_s, deadline_s=deadline)


def _reconcile(extractions: list[Extraction | None], config: VerifierConfig) -> None:
    """Several boxes (or slots) whose values are equal in different notation are one answer.

    ``\\boxed{\\frac{\\sqrt2}{2}}`` then ``\\boxed{\\sqrt{2}/2}`` restates the answer; only values that
    differ are several answers. Decided like any comparison (cascade, then the sandbox).
    """
    pending: list[tuple[int, str, str]] = []
    verdict_of: dict[int, list[str]] = {}
    for i, ex in enumerate(extractions):
        if ex is None or ex.status != "multiple" or len(ex.candidates) < 2 or len(ex.candidates) > 4:
            continue
        last = ex.candidates[-1]
        verdict_of[i] = []
        for other in ex.candidates[:-1]:
            outcome = _decide_locally(other, last, config)
            if outcome is None:
                pending.append((i, other, last))
            else:
                verdict_of[i].append(outcome[0])
    if pending:
        tasks = []
        for _i, other, last in pending:
            a, g = _sandbox_texts(exact_part(normalize_answer(other)), _gold_info(last, config), config)
            tasks.append({"answer": a, "gold": g, "abs_tol": 0.0, "rel_tol": 0.0})
        for (i, _other, _last), result in zip(pending, _sandbox_run(tasks, config)):
            verdict_of[i].append(result["status"])
    for i, statuses in verdict_of.items():
        if statuses and all(st == "correct" for st in statuses):
            ex = extractions[i]
            extractions[i] = Extraction("ok", ex.candidates[-1], f"{ex.source} answer (restated in equal forms: "
                                        + ", ".join(repr(c) for c in ex.candidates) + ")", ex.source)


def verify_batch(
    completions: Sequence[Any], golds: Sequence[str], config: VerifierConfig | None = None
) -> list[Verdict]:
    """Verify ``completions[i]`` against ``golds[i]`` for every i; one :class:`Verdict` each.

    Never raises for a bad completion or gold (it gets a typed verdict, and only its own row is
    affected); raises ``ValueError`` when the two sequences differ in length and
    :class:`~rlvr.errors.ConfigError` for a bad config.
    """
    config = VerifierConfig.load(config)
    if len(completions) != len(golds):
        raise ValueError(f"verify_batch got {len(completions)} completions but {len(golds)} golds")
    verdicts: list[Verdict | None] = [None] * len(completions)
    extract_time = [0.0] * len(completions)
    groups: dict[tuple, list[int]] = {}
    extractions: list[Extraction | None] = [None] * len(completions)
    gold_texts: list[str] = [""] * len(completions)
    for i, (completion, gold) in enumerate(zip(completions, golds)):
        t0 = time.perf_counter()
        try:
            if not isinstance(gold, str):
                gold = "" if gold is None else str(gold)
            gold_texts[i] = _gold_text(gold)
            ex = extract_answer(completion, config)
            if ex.status == "multiple" and ex.source == "boxed" and ex.candidates and _is_list_gold(gold_texts[i]):
                # "find all solutions": one box per solution is one answer, compared as a whole with the list gold
                ex = Extraction("ok", ", ".join(ex.candidates), "several boxes read as one list answer", ex.source)
            extractions[i] = ex
        except TypeError as exc:
            verdicts[i] = Verdict("error", None, str(exc), time.perf_counter() - t0, method="extraction")
        except Exception as exc:  # one bad row costs only that row, never the batch
            logger.debug("verifier failed on row %d", i, exc_info=True)
            verdicts[i] = Verdict("error", None, f"reading this row raised {type(exc).__name__}: {str(exc)[:200]}",
                                  time.perf_counter() - t0, method="extraction")
        extract_time[i] = time.perf_counter() - t0
    try:
        _reconcile(extractions, config)
    except Exception:  # the rows keep their 'several answers' verdicts
        logger.debug("reconciling restated answers failed", exc_info=True)
    for i, ex in enumerate(extractions):
        if ex is None:
            continue
        try:
            gold = gold_texts[i]
            early = _from_extraction(ex)
            if early is None and _numbers_hidden_in_text(ex.answer or "") and not _numbers_hidden_in_text(gold):
                # decided on the raw text, before normalisation merges it with honest answers in the cache
                early = ("incorrect", f"{ex.answer!r} puts numbers inside \\text{{}} beside other numbers; "
                                      "one final answer is required")
            if early:
                verdicts[i] = Verdict(early[0], ex.answer, early[1], extract_time[i], ex.source, "extraction")
                continue
            groups.setdefault(_compare_keys(ex, gold, config), []).append(i)
        except Exception as exc:
            verdicts[i] = Verdict("error", ex.answer, f"reading this row raised {type(exc).__name__}: {str(exc)[:200]}",
                                  extract_time[i], ex.source, "extraction")

    decided: dict[tuple, tuple[str, str, str, float]] = {}
    to_sandbox: list[tuple[tuple, dict[str, Any]]] = []
    for key, members in groups.items():
        t0 = time.perf_counter()
        cached = _CACHE.get(key)
        if cached:
            decided[key] = (*cached, time.perf_counter() - t0)
            continue
        answer_text, gold_text = extractions[members[0]].answer, key[1]
        try:
            outcome = _decide_locally(answer_text, gold_text, config)
            if outcome is None:
                a, g = _sandbox_texts(exact_part(normalize_answer(answer_text)), _gold_info(gold_text, config), config)
                to_sandbox.append((key, {"answer": a, "gold": g, "abs_tol": config.abs_tol, "rel_tol": config.rel_tol}))
                continue
        except Exception as exc:
            logger.debug("verifier failed on %r", answer_text, exc_info=True)
            outcome = ("error", f"comparing the answer raised {type(exc).__name__}: {str(exc)[:200]}", "number")
        else:
            _CACHE.put(key, outcome)
        decided[key] = (*outcome, time.perf_counter() - t0)

    if to_sandbox:
        results = _sandbox_run([task for _key, task in to_sandbox], config)
        for (key, _task), result in zip(to_sandbox, results):
            status, reason = result["status"], result["reason"]
            method = "symbolic" if status in ("correct", "incorrect") else "sandbox"
            if status == "unparseable_gold":
                _BAD_GOLDS.put((key[1], config), (status, reason, method))
            if status not in ("timeout", "error"):  # transient failures are retried next time
                _CACHE.put(key, (status, reason, method))
            decided[key] = (status, reason, method, result.get("elapsed_s", 0.0))

    for key, members in groups.items():
        status, reason, method, elapsed = decided[key]
        for i in members:
            ex = extractions[i]
            verdicts[i] = Verdict(status, ex.answer, reason, extract_time[i] + elapsed, ex.source, method)
    return verdicts  # type: ignore[return-value]


def _decide_locally(answer_text: str, gold_text: str, config: VerifierConfig) -> tuple[str, str, str] | None:
    gold = _gold_info(gold_text, config)
    if not gold.norm.key:
        return "unparseable_gold", "the gold answer is empty", "gold"
    if _states_no_value(gold_text):
        return "unparseable_gold", f"the gold {gold_text[:80]!r} is a sentence that states no answer", "gold"
    bad_gold = _BAD_GOLDS.get((gold_text, config))
    if bad_gold:
        return bad_gold
    answer = exact_part(normalize_answer(answer_text))
    if not answer.key:
        return "no_answer", "the final answer is empty after normalisation", "extraction"
    fast = _fast_decision(answer, gold, config)
    if fast:
        return fast
    unsafe = unsafe_reason(answer.clean, config) or malformed_reason(answer.clean)
    if unsafe:
        return "unparseable_answer", unsafe, "guard"
    if gold.unsafe:
        return "unparseable_gold", f"gold answer is unsafe to parse: {gold.unsafe}", "guard"
    if not config.symbolic:
        return "incorrect", f"{answer.clean!r} does not match gold {gold_text!r} as a string or number (symbolic comparison off)", "number"
    return None


_PROSE_GOLD_RE = regex.compile(r"####|(?i:\banswer\b)|(?<![\\A-Za-z])[A-Za-z]{2,}\s+[A-Za-z]{2,}\s+\S")
_GOLD_CONFIG = VerifierConfig(multiple_answers="last", detect_retraction=False)
_WORDS_RE = regex.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}")


@functools.lru_cache(maxsize=65536)
def _states_no_value(gold: str) -> bool:
    """A gold that is prose (three words or more outside math and \\text{}) with no number in it.

    Such a gold cannot be graded ("The answer cannot be determined"): the reward abstains, as
    TRL's and open-r1's do, instead of scoring every completion wrong.
    """
    bare = _TEXT_GROUP_RE.sub(" ", regex.sub(r"\$[^$]*\$|\\\(.*?\\\)", " ", gold))
    return len(_WORDS_RE.findall(bare)) >= 3 and not any(c.isdigit() for c in bare) and "\\" not in bare


@functools.lru_cache(maxsize=65536)
def _gold_text(gold: str) -> str:
    """The answer a gold states: its box, or, for a sentence or worked solution, its stated value.

    A gold that states no value stays as it is (and is then reported ``unparseable_gold``).
    """
    text = gold_answer(gold)
    if text != gold or len(gold) > 20_000:
        return text
    bare = _TEXT_GROUP_RE.sub(" ", regex.sub(r"\$[^$]*\$", " ", gold))
    if _PROSE_GOLD_RE.search(bare):
        ex = extract_answer(gold, _GOLD_CONFIG)
        if ex.status == "ok" and ex.answer:
            return ex.answer
    return text


def validate_golds(golds: Sequence[str], config: VerifierConfig | None = None) -> list[str | None]:
    """For each gold: ``None`` when the verifier can use it, else the reason it cannot.

    Numbers are checked in process; anything else is parsed once in the sandbox (in parallel,
    deduplicated, cached like every other comparison). Data loaders call this at load time so a
    bad gold is a reported data error, not a silent zero reward during training.
    """
    config = VerifierConfig.load(config)
    reasons: dict[str, str | None] = {}
    pending: list[str] = []
    for gold in dict.fromkeys(str(g) for g in golds):
        text = _gold_text(gold)  # the same key verify_batch uses, so the caches are shared
        info = _gold_info(text, config)
        if not info.norm.key:
            reasons[gold] = "the gold answer is empty"
        elif info.unsafe:
            reasons[gold] = f"unsafe to parse: {info.unsafe}"
        elif info.number is not None:
            reasons[gold] = None
        elif (bad := _BAD_GOLDS.get((text, config))) is not None:
            reasons[gold] = bad[1]
        else:
            pending.append(gold)
    if pending:
        tasks = []
        for gold in pending:
            clean = _gold_info(_gold_text(gold), config).norm.clean
            tasks.append({"answer": clean, "gold": clean, "abs_tol": 0.0, "rel_tol": 0.0})
        for gold, result in zip(pending, get_pool(config.memory_mb).run(tasks, config.timeout_s)):
            if result["status"] in ("unparseable_gold", "unparseable_answer"):
                reasons[gold] = result["reason"]
                _BAD_GOLDS.put((_gold_text(gold), config), ("unparseable_gold", result["reason"], "sandbox"))
            elif result["status"] in ("timeout", "error"):
                reasons[gold] = f"{result['status']}: {result['reason']}"
            else:
                reasons[gold] = None
    return [reasons[str(g)] for g in golds]


def verify(completion: Any, gold: str, config: VerifierConfig | None = None) -> Verdict:
    """Verify one completion (string or chat messages) against one gold answer."""
    return verify_batch([completion], [gold], config)[0]


async def averify_batch(
    completions: Sequence[Any], golds: Sequence[str], config: VerifierConfig | None = None
) -> list[Verdict]:
    """:func:`verify_batch` for asyncio code: runs in a thread, never blocks the event loop."""
    return await asyncio.to_thread(verify_batch, completions, golds, config)


async def averify(completion: Any, gold: str, config: VerifierConfig | None = None) -> Verdict:
    """:func:`verify` for asyncio code."""
    return (await averify_batch([completion], [gold], config))[0]
