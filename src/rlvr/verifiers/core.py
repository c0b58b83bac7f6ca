"""verify / verify_batch: the equivalence cascade, cheapest step first, with caching.

For each completion: extract the final answer (in process, bounded) -> normalised string equality
-> exact numbers (fractions, decimals, scientific notation, percent policy) -> structural guards ->
symbolic comparison through math-verify in the sandbox pool. A batch deduplicates identical
(answer, gold) pairs (a GRPO group repeats answers), answers repeats from an LRU cache, decides what
it can without the pool (the rules in :mod:`rlvr.verifiers.rules`) and fans the rest out to the
workers in parallel.
"""

from __future__ import annotations

import dataclasses

import asyncio
import logging
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S

from rlvr.verifiers.box_context import APPROX_MARK
from rlvr.verifiers.cache import TOTAL_BYTES, ByteLRU, byte_cache
from rlvr.verifiers.config import VerifierConfig
from rlvr.verifiers.commitment import ALTERNATIVES
from rlvr.verifiers.extraction import Extraction, extract_answer
from rlvr.verifiers.lossless import unread_part
from rlvr.verifiers.guards import malformed_reason, unsafe_reason
from rlvr.verifiers.normalize import choice_option_text, gold_answer, normalize_answer, value_key
from rlvr.verifiers.rules import TEXT_GROUP_RE, fast_decision, gold_info, is_list_gold, numbers_hidden_in_text, sandbox_texts
from rlvr.verifiers.sandbox import RETRY_FACTOR, get_pool
from rlvr.verifiers.statements import exact_part, quantity_rhs
from rlvr.verifiers.trace import Decision, rule
from rlvr.verifiers.verdict import Verdict

logger = logging.getLogger(__name__)

__all__ = ["verify", "verify_batch", "averify", "averify_batch", "clear_cache", "validate_golds", "scoring_deadline",
           "warm_up"]

# decided outcomes and golds the sandbox could not parse (later calls answer without the pool);
# both bounded by bytes (rlvr.verifiers.cache.TOTAL_BYTES for all caches together)
_CACHE = ByteLRU("verdicts", int(TOTAL_BYTES * 0.4))
_BAD_GOLDS = ByteLRU("unparseable golds", int(TOTAL_BYTES * 0.05))


def clear_cache() -> None:
    """Forget cached outcomes and gold parses (for benchmarks and tests)."""
    _CACHE.clear()
    _BAD_GOLDS.clear()
    gold_info.cache_clear()
    _gold_text.cache_clear()
    _states_no_value.cache_clear()
    normalize_answer.cache_clear()
    value_key.cache_clear()


def _compare_keys(extraction: Extraction, gold: str, config: VerifierConfig) -> tuple[Any, ...]:
    # the whole normalised answer, never its key alone: "42_7" (unit base 7) and "42" share the key "42" and
    # must not share a verdict; "1,22" may be a decimal comma, "1, 22" is a list, so spacing counts too
    return (normalize_answer(extraction.answer or ""), gold, config)


EMPTY_GOLD = rule("compare.empty_gold", "the gold answer is empty")
PROSE_GOLD = rule("compare.prose_gold", "the gold is a sentence that states no answer")
EMPTY_ANSWER = rule("compare.empty_answer", "the final answer is empty after normalisation")
GUARD = rule("compare.guard", "the answer is refused before sympy (too large, too deep, malformed)")
GOLD_GUARD = rule("compare.gold_guard", "the gold is refused before sympy")
UNREAD = rule("compare.unread", "the math parser would drop part of the answer: not compared")
NO_SYMBOLIC = rule("compare.no_symbolic", "symbolic comparison is off and neither string nor number matched")
SYMBOLIC = rule("compare.symbolic", "math-verify and sympy decided in the sandbox")
SANDBOX = rule("compare.sandbox", "the sandbox could not decide (timeout, error, parse failure)")
HIDDEN_NUMBERS = rule("integrity.hidden_numbers", "numbers inside \\text{} beside other numbers")
LIST_ANSWER = rule("locate.list_answer", "boxes stated together (each asserted) read as one list answer against a list gold")
RESTATED = rule("integrity.restated", "several answers that are equal in different notation are one answer")
READ_ERROR = rule("prepare.unreadable", "the completion or gold could not be read")
DEADLINE = rule("prepare.deadline", "the caller's deadline passed before the row was read")
_LETTERS = frozenset("ABCDE")
# an approximation's digits: "0.333", "1.2 \\times 10^{5}", "1.23 million" (decimals, power of ten, scale word)
_MANTISSA_RE = regex.compile(r"\s*[-+]?[0-9]*(?:\.([0-9]+))?\s*(?:(?:\\times|\\cdot|×)\s*10\^\{?([-+]?[0-9]{1,3})\}?)?"
                             r"\s*(?:\\text\{\s*)?(thousand|million|billion)?")
_SCALE_EXPONENTS = {"thousand": 3, "million": 6, "billion": 9}
_DEADLINE_EVERY = 16  # rows read between looks at the caller's clock (a row reads in well under a millisecond)


def _from_extraction(extraction: Extraction) -> tuple[str, str] | None:
    if extraction.status == "ok":
        return None
    status = {"no_answer": "no_answer", "multiple": "incorrect", "too_long": "unparseable_answer",
              "timeout": "timeout"}.get(extraction.status, "error")
    return status, extraction.reason


_DEADLINE: ContextVar[float | None] = ContextVar("rlvr_verifier_deadline", default=None)


@contextmanager
def scoring_deadline(seconds: float | None) -> Iterator[float | None]:
    """Within this block every ``verify_batch`` stops its symbolic work ``seconds`` from now.

    For callers that answer to a clock of their own (a reward server's request deadline): at the
    deadline running comparisons are killed and the pairs not yet decided come back as ``timeout``
    ("the caller's deadline passed"), so no work outlives the request. Nested blocks keep the
    earlier deadline. A context variable, so it follows the work into ``asyncio.to_thread``.
    Verdicts inside the deadline are the same as without one; only what is cut off differs.
    """
    until = None if seconds is None else time.monotonic() + max(0.0, float(seconds))
    outer = _DEADLINE.get()
    if outer is not None:
        until = outer if until is None else min(until, outer)
    token = _DEADLINE.set(until)
    try:
        yield until
    finally:
        _DEADLINE.reset(token)


def warm_up(timeout_s: float = 90.0, config: VerifierConfig | None = None) -> bool:
    """Start the sandbox workers now and wait until they answer (``True`` when all did in time).

    Worker start-up never counts against a batch's budget, but a server should report ready only
    once its pool is up, so its first request is not the one that waits for it.
    """
    config = VerifierConfig.load(config)
    return get_pool(config.memory_mb).warm_up(timeout_s)


def _sandbox_run(tasks: list[dict[str, Any]], config: VerifierConfig, until: float | None = None) -> list[dict[str, Any]]:
    # budgets are worker CPU seconds: the batch may spend batch_timeout_s, 0.1 s a comparison, and
    # always enough for one comparison to spend its budget and its retry
    budget = max(config.batch_timeout_s, 0.1 * len(tasks), config.timeout_s * (1 + RETRY_FACTOR) + 0.5)
    caller = _DEADLINE.get()
    if caller is not None:
        until = caller if until is None else min(until, caller)
    return get_pool(config.memory_mb).run(tasks, config.timeout_s, deadline_s=budget, until=until)


def _restatement(candidate: str) -> tuple[str, float]:
    """A candidate and the tolerance it is held to: exact, or for an approximation ("\\approx 0.333", marked
    by the integrity stage) just under one unit of its last decimal place (0.333 and 0.334 both approximate
    1/3; 43 never approximates 42)."""
    if not candidate.startswith(APPROX_MARK):
        return candidate, 0.0
    value = candidate[len(APPROX_MARK):]
    m = _MANTISSA_RE.match(value, timeout=REGEX_TIMEOUT_S)
    decimals, exponent = (len(m[1] or ""), int(m[2] or 0)) if m else (0, 0)
    if m and m[3]:
        exponent += _SCALE_EXPONENTS[m[3].lower()]
    unit = 10.0 ** (min(max(exponent, -30), 30) - min(decimals, 15)) / (100 if normalize_answer(value).percent else 1)
    # to one decimal place or none, a rounding ("1/3 ≈ 0.3", never 0.4); finer, a cut-off too ("2/3 ≈ 0.66")
    return value, (0.5 + 1e-9 if decimals <= 1 else 0.999) * unit


def _reconcile(extractions: list[Extraction | None], config: VerifierConfig) -> None:
    """Several boxes (or slots) whose values are equal in different notation are one answer.

    ``\\boxed{\\frac{\\sqrt2}{2}}`` then ``\\boxed{\\sqrt{2}/2}`` restates the answer; only values that
    differ are several answers. Decided like any comparison (cascade, then the sandbox).
    """
    pending: list[tuple[int, str, str, float]] = []
    verdict_of: dict[int, list[str]] = {}
    for i, ex in enumerate(extractions):
        if ex is None or ex.status != "multiple" or len(ex.candidates) < 2 or len(ex.candidates) > 4:
            continue
        last = ex.candidates[-1]
        verdict_of[i] = []
        for other in ex.candidates[:-1]:
            other, tol = _restatement(other)
            outcome = _decide_locally(other, last, dataclasses.replace(config, abs_tol=tol, rel_tol=0.0))
            if outcome is None:
                pending.append((i, other, last, tol))
            else:
                verdict_of[i].append(outcome.status)
    if pending:
        tasks = []
        for _i, other, last, tol in pending:
            a, g = sandbox_texts(exact_part(normalize_answer(other)), gold_info(last, config), config)
            tasks.append({"answer": a, "gold": g, "abs_tol": tol, "rel_tol": 0.0})
        for (i, _other, _last, _tol), result in zip(pending, _sandbox_run(tasks, config)):
            verdict_of[i].append(result["status"])
    for i, statuses in verdict_of.items():
        if statuses and all(st == "correct" for st in statuses):
            ex = extractions[i]
            extractions[i] = Extraction("ok", ex.candidates[-1], f"{ex.source} answer (restated in equal forms: "
                                        + ", ".join(repr(c) for c in ex.candidates) + ")", ex.source,
                                        rule=RESTATED, values=ex.values)


def verify_batch(
    completions: Sequence[Any], golds: Sequence[str], config: VerifierConfig | None = None, *,
    deadline: float | None = None,
) -> list[Verdict]:
    """Verify ``completions[i]`` against ``golds[i]`` for every i; one :class:`Verdict` each.

    Never raises for a bad completion or gold (it gets a typed verdict, and only its own row is
    affected); raises ``ValueError`` when the two sequences differ in length and
    :class:`~rlvr.errors.ConfigError` for a bad config. ``deadline`` (a ``time.monotonic()`` instant)
    or an enclosing :func:`scoring_deadline` ends the symbolic work at that time: pairs not decided
    by then are ``timeout``.
    """
    config = VerifierConfig.load(config)
    if len(completions) != len(golds):
        raise ValueError(f"verify_batch got {len(completions)} completions but {len(golds)} golds")
    verdicts: list[Verdict | None] = [None] * len(completions)
    extract_time = [0.0] * len(completions)
    groups: dict[tuple, list[int]] = {}
    extractions: list[Extraction | None] = [None] * len(completions)
    gold_texts: list[str] = [""] * len(completions)
    caller = _DEADLINE.get()
    until = caller if deadline is None else (deadline if caller is None else min(deadline, caller))
    for i, (completion, gold) in enumerate(zip(completions, golds)):
        t0 = time.perf_counter()
        if until is not None and i % _DEADLINE_EVERY == 0 and time.monotonic() >= until:
            for j in range(i, len(completions)):  # reading the rest would outlive the caller's clock
                verdicts[j] = Verdict("timeout", None, "the caller's deadline passed before this row was read", 0.0,
                                      method="extraction", rule=DEADLINE)
            break
        try:
            if not isinstance(gold, str):
                gold = "" if gold is None else str(gold)
            gold_texts[i] = _gold_text(gold)
            ex = extract_answer(completion, config)
            if ex.source == "boxed" and ex.status == "multiple" and ex.rule == ALTERNATIVES \
                    and len(ex.candidates) > 1 and is_list_gold(gold_texts[i]):
                # "find all solutions": boxes stated together ("\boxed{2} and \boxed{3}") are one answer,
                # compared as a whole with the list gold; boxes of other statements are earlier work
                together = tuple(dict.fromkeys(ex.candidates))
                ex = Extraction("ok", ", ".join(together), "the boxes stated together read as one list answer",
                                ex.source, rule=LIST_ANSWER, values=together)
            extractions[i] = ex
        except TypeError as exc:
            verdicts[i] = Verdict("error", None, str(exc), time.perf_counter() - t0, method="extraction", rule=READ_ERROR)
        except Exception as exc:  # one bad row costs only that row, never the batch
            logger.debug("verifier failed on row %d", i, exc_info=True)
            verdicts[i] = Verdict("error", None, f"reading this row raised {type(exc).__name__}: {str(exc)[:200]}",
                                  time.perf_counter() - t0, method="extraction", rule=READ_ERROR)
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
            why = ex.rule
            if early is None and numbers_hidden_in_text(ex.answer or "") and not numbers_hidden_in_text(gold):
                # decided on the raw text, before normalisation merges it with honest answers in the cache
                early = ("incorrect", f"{ex.answer!r} puts numbers inside \\text{{}} beside other numbers; "
                                      "one final answer is required")
                why = HIDDEN_NUMBERS
            if early:
                verdicts[i] = Verdict(early[0], ex.answer, early[1], extract_time[i], ex.source, "extraction", rule=why)
                continue
            if (option := choice_option_text(gold)) is not None and normalize_answer(ex.answer or "").key not in _LETTERS:
                gold = gold_texts[i] = option  # gold "(B) 12", answer "12": the option's text is what it states
            groups.setdefault(_compare_keys(ex, gold, config), []).append(i)
        except Exception as exc:
            verdicts[i] = Verdict("error", ex.answer, f"reading this row raised {type(exc).__name__}: {str(exc)[:200]}",
                                  extract_time[i], ex.source, "extraction", rule=READ_ERROR)

    decided: dict[tuple, tuple[Decision, float]] = {}
    to_sandbox: list[tuple[tuple, dict[str, Any]]] = []
    for key, members in groups.items():
        t0 = time.perf_counter()
        cached = _CACHE.get(key)
        if cached:
            decided[key] = (cached, time.perf_counter() - t0)
            continue
        answer_text, gold_text = extractions[members[0]].answer, key[1]
        try:
            outcome = _decide_locally(answer_text, gold_text, config)
            if outcome is None:
                a, g = sandbox_texts(exact_part(normalize_answer(answer_text)), gold_info(gold_text, config), config)
                to_sandbox.append((key, {"answer": a, "gold": g, "abs_tol": config.abs_tol, "rel_tol": config.rel_tol}))
                continue
        except Exception as exc:
            logger.debug("verifier failed on %r", answer_text, exc_info=True)
            outcome = Decision("error", f"comparing the answer raised {type(exc).__name__}: {str(exc)[:200]}", "number",
                               READ_ERROR)
        else:
            _CACHE.put(key, outcome)
        decided[key] = (outcome, time.perf_counter() - t0)

    if to_sandbox:
        results = _sandbox_run([task for _key, task in to_sandbox], config, deadline)
        for (key, _task), result in zip(to_sandbox, results):
            status, reason = result["status"], result["reason"]
            symbolic = status in ("correct", "incorrect")
            outcome = Decision(status, reason, "symbolic" if symbolic else "sandbox", SYMBOLIC if symbolic else SANDBOX)
            if status == "unparseable_gold":
                _BAD_GOLDS.put((key[1], config), outcome)
            if status not in ("timeout", "error"):  # transient failures are retried next time
                _CACHE.put(key, outcome)
            decided[key] = (outcome, result.get("elapsed_s", 0.0))

    for key, members in groups.items():
        outcome, elapsed = decided[key]
        for i in members:
            ex = extractions[i]
            verdicts[i] = Verdict(outcome.status, ex.answer, outcome.reason, extract_time[i] + elapsed, ex.source,
                                  outcome.method, rule=outcome.rule)
    return verdicts  # type: ignore[return-value]


def _decide_locally(answer_text: str, gold_text: str, config: VerifierConfig) -> Decision | None:
    gold = gold_info(gold_text, config)
    if not gold.norm.key:
        return Decision("unparseable_gold", "the gold answer is empty", "gold", EMPTY_GOLD)
    if _states_no_value(gold_text):
        return Decision("unparseable_gold", f"the gold {gold_text[:80]!r} is a sentence that states no answer", "gold",
                        PROSE_GOLD)
    bad_gold = _BAD_GOLDS.get((gold_text, config))
    if bad_gold:
        return bad_gold
    answer = exact_part(normalize_answer(answer_text))
    if "=" in answer.clean and "=" not in gold.norm.clean and not _RELATION_CHARS_RE.search(answer.clean, timeout=REGEX_TIMEOUT_S) \
            and (rhs := quantity_rhs(answer.clean)) is not None:
        answer = exact_part(normalize_answer(rhs))  # "m + n = 12", "E[X] = 3": the value stated for the asked quantity
    if not answer.key:
        return Decision("no_answer", "the final answer is empty after normalisation", "extraction", EMPTY_ANSWER)
    fast = fast_decision(answer, gold, config)
    if fast:
        return fast
    unsafe = unsafe_reason(answer.clean, config) or malformed_reason(answer.clean)
    if unsafe:
        return Decision("unparseable_answer", unsafe, "guard", GUARD)
    unread = unread_part(sandbox_texts(answer, gold, config)[0])  # what the parser would be given
    if unread:
        return Decision("unparseable_answer", unread, "guard", UNREAD)
    if gold.unsafe:
        return Decision("unparseable_gold", f"gold answer is unsafe to parse: {gold.unsafe}", "guard", GOLD_GUARD)
    if not config.symbolic:
        return Decision("incorrect", f"{answer.clean!r} does not match gold {gold_text!r} as a string or number "
                        "(symbolic comparison off)", "number", NO_SYMBOLIC)
    return None


_RELATION_CHARS_RE = regex.compile(r"[<>≤≥≠]|\\(?:[lg]eq?|neq?|[lg]t)(?![A-Za-z])")
_PROSE_GOLD_RE = regex.compile(r"####|(?i:\banswer\b)|(?<![\\A-Za-z])[A-Za-z]{2,}\s+[A-Za-z]{2,}\s+\S")
_GOLD_CONFIG = VerifierConfig(multiple_answers="last", detect_retraction=False)
_WORDS_RE = regex.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}")


@byte_cache(0.05)
def _states_no_value(gold: str) -> bool:
    """A gold that is prose (three words or more outside math and \\text{}) with no number in it.

    Such a gold cannot be graded ("The answer cannot be determined"): the reward abstains, as
    TRL's and open-r1's do, instead of scoring every completion wrong.
    """
    bare = TEXT_GROUP_RE.sub(" ", regex.sub(r"\$[^$]*\$|\\\(.*?\\\)", " ", gold, timeout=REGEX_TIMEOUT_S), timeout=REGEX_TIMEOUT_S)
    return len(_WORDS_RE.findall(bare, timeout=REGEX_TIMEOUT_S)) >= 3 and not any(c.isdigit() for c in bare) and "\\" not in bare


@byte_cache(0.1)
def _gold_text(gold: str) -> str:
    """The answer a gold states: its box, or, for a sentence or worked solution, its stated value.

    A gold that states no value stays as it is (and is then reported ``unparseable_gold``).
    """
    text = gold_answer(gold)
    if text != gold or len(gold) > 20_000:
        return text
    bare = TEXT_GROUP_RE.sub(" ", regex.sub(r"\$[^$]*\$", " ", gold, timeout=REGEX_TIMEOUT_S), timeout=REGEX_TIMEOUT_S)
    if _PROSE_GOLD_RE.search(bare, timeout=REGEX_TIMEOUT_S):
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
        info = gold_info(text, config)
        if not info.norm.key:
            reasons[gold] = "the gold answer is empty"
        elif info.unsafe:
            reasons[gold] = f"unsafe to parse: {info.unsafe}"
        elif info.number is not None:
            reasons[gold] = None
        elif (bad := _BAD_GOLDS.get((text, config))) is not None:
            reasons[gold] = bad.reason
        else:
            pending.append(gold)
    if pending:
        tasks = []
        for gold in pending:
            clean = gold_info(_gold_text(gold), config).norm.clean
            tasks.append({"answer": clean, "gold": clean, "abs_tol": 0.0, "rel_tol": 0.0})
        for gold, result in zip(pending, _sandbox_run(tasks, config)):
            if result["status"] in ("unparseable_gold", "unparseable_answer"):
                reasons[gold] = result["reason"]
                _BAD_GOLDS.put((_gold_text(gold), config), Decision("unparseable_gold", result["reason"], "sandbox", SANDBOX))
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
