"""One row, start to end: read the completion, find its one final answer, compare it with the gold.

This is what a sandbox worker runs for each row (:mod:`rlvr.verifiers._worker`), under that row's
own CPU budget: every byte of model text is read here, never in the trainer's process. The stages:
prepare, locate and integrity (:func:`~rlvr.verifiers.extraction.extract_answer`), then compare —
the cheap decisions of :mod:`rlvr.verifiers.rules`, else a symbolic comparison (``compare``: the
worker's own math-verify in the sandbox, or the pool when a row is read in the caller for a custom
answer source that workers cannot import). Restatements of the answer ("\\boxed{2^{10}} = 1024")
are reconciled with the same comparisons. Decisions are cached per (normalised answer, gold,
config) in byte-bounded caches of the process that reads the row.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import regex

from rlvr.verifiers.approximations import tolerance
from rlvr.verifiers.cache import TOTAL_BYTES, ByteLRU, byte_cache
from rlvr.verifiers.choices import CHOICE_LETTERS
from rlvr.verifiers.commitment import ALTERNATIVES
from rlvr.verifiers.config import VerifierConfig
from rlvr.verifiers.currencies import in_main_unit
from rlvr.verifiers.extraction import PROSE_VALUES, Extraction, extract_answer
from rlvr.verifiers.guards import malformed_reason, unsafe_reason
from rlvr.verifiers.limits import REGEX_TIMEOUT_S
from rlvr.verifiers.lossless import unread_part
from rlvr.verifiers.notations import compound_quantity, unit_vector_tuple
from rlvr.verifiers.remarks import without_remark
from rlvr.verifiers.characters import restore_escapes
from rlvr.verifiers.gold_records import gold_answer
from rlvr.verifiers.normalize import choice_option_text, normalize_answer, value_key
from rlvr.verifiers.hidden_numbers import numbers_hidden_in_text
from rlvr.verifiers.restatements import counted_decision, restated
from rlvr.verifiers.rules import (
    ROUNDED, TEXT_GROUP_RE, fast_decision, gold_info, is_list_gold, sandbox_texts,
    tuple_size,
)
from rlvr.verifiers.brackets import split_top_level
from rlvr.verifiers.statements import (
    approximation_part, exact_part, labelled_solutions, labelled_values, labels_contradicted, in_stated_order, quantity_rhs, renamed_definition,
)
from rlvr.verifiers.numbers import ROUNDED_GOLD_PLACES, parse_number, repeating_rounds_to_gold, rounds_to_gold
from rlvr.verifiers.trace import Decision, rule
from rlvr.verifiers.word_answers import calendar_decision, spelled_answer, spelled_decision, yes_no_decision

logger = logging.getLogger(__name__)

__all__ = ["verify_row", "validate_gold", "clear_row_caches", "Compare", "gold_text"]

#: symbolic comparisons: task dicts (``answer``, ``gold``, ``abs_tol``, ``rel_tol``) in, result dicts
#: (``status``, ``reason``) out, one each, in order
Compare = Callable[[list[dict[str, Any]]], list[dict[str, Any]]]

# decided outcomes and golds the sandbox could not parse (later rows answer without sympy)
_CACHE = ByteLRU("verdicts", int(TOTAL_BYTES * 0.4))
_BAD_GOLDS = ByteLRU("unparseable golds", int(TOTAL_BYTES * 0.05))

EMPTY_GOLD = rule("compare.empty_gold", "the gold answer is empty")
PROSE_GOLD = rule("compare.prose_gold", "the gold is a sentence that states no answer")
_TWO_QUANTITIES_RE = regex.compile(r"[0-9][^0-9]*?\p{L}[^0-9]*[0-9]+[^0-9]*?\p{L}")  # what a compound quantity needs
_MONEY_GOLD_RE = regex.compile(r"\\\$|^\s*\$\s*[0-9][0-9.,]*\s*$|[€£¥₹]|\b(?:USD|EUR|GBP|dollars?|euros?)\b")
SUBUNIT = rule("compare.currency_subunit", "an amount in a currency's hundredths ('50 cents') is a unitless or money "
               "gold in its main unit (0.5)")
COMPOUND = rule("compare.compound_quantity", "a quantity in several units ('2 hours 30 minutes') is a unitless gold in its "
                "smallest unit (150)")
EMPTY_ANSWER = rule("compare.empty_answer", "the final answer is empty after normalisation")
LABELS_CONTRADICTED = rule("compare.labels_contradicted", "labelled values contradict their labels (the least above the greatest)")
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
_LETTERS = frozenset(CHOICE_LETTERS)


def clear_row_caches() -> None:
    """Forget cached outcomes and gold parses of this process (for benchmarks and tests)."""
    _CACHE.clear()
    _BAD_GOLDS.clear()
    gold_info.cache_clear()
    gold_text.cache_clear()
    _states_no_value.cache_clear()
    normalize_answer.cache_clear()
    value_key.cache_clear()


def _verdict(status: str, answer: str | None, reason: str, source: str | None, method: str | None,
             why: str | None) -> dict[str, Any]:
    return {"status": status, "answer": answer, "reason": reason, "source": source, "method": method, "rule": why}


def _from_extraction(extraction: Extraction) -> tuple[str, str] | None:
    if extraction.status == "ok":
        return None
    status = {"no_answer": "no_answer", "multiple": "incorrect", "too_long": "unparseable_answer",
              "timeout": "timeout"}.get(extraction.status, "error")
    return status, extraction.reason


def verify_row(completion: Any, gold: Any, config: VerifierConfig, compare: Compare,
               stages: dict[str, float] | None = None) -> dict[str, Any]:
    """The verdict of one row as a dict (``status``, ``answer``, ``reason``, ``source``, ``method``,
    ``rule``). Never raises for the row's sake. ``stages`` (when given) gains the CPU seconds spent
    reading (``read``: prepare, locate, integrity) and comparing (``compare``)."""
    t0 = time.process_time()
    try:
        if not isinstance(gold, str):
            gold = "" if gold is None else str(gold)
        gold_shown = gold_text(gold)
        ex = extract_answer(completion, config)
        if ex.status == "multiple" and len(ex.candidates) > 1 and (
                (ex.source == "boxed" and ex.rule == ALTERNATIVES) or ex.rule == PROSE_VALUES):
            ex = _stated_together(ex, gold_shown)
    except TypeError as exc:
        return _verdict("error", None, str(exc), None, "extraction", READ_ERROR)
    except Exception as exc:  # one bad row costs only that row
        logger.debug("verifier failed reading a row", exc_info=True)
        return _verdict("error", None, f"reading this row raised {type(exc).__name__}: {str(exc)[:200]}", None,
                        "extraction", READ_ERROR)
    t1 = time.process_time()
    try:
        return _compare_row(ex, gold_shown, config, compare)
    except Exception as exc:
        logger.debug("verifier failed comparing %r", ex.answer, exc_info=True)
        return _verdict("error", ex.answer, f"comparing the answer raised {type(exc).__name__}: {str(exc)[:200]}",
                        ex.source, "extraction", READ_ERROR)
    finally:
        if stages is not None:
            t2 = time.process_time()
            stages["read"] = stages.get("read", 0.0) + (t1 - t0)
            stages["compare"] = stages.get("compare", 0.0) + (t2 - t1)


# names whose order a tuple follows by convention: (x, y, z), (a, b, c, d), (p, q, r), (u, v, w), (m, n)
# a gold that is a vector of two or three components; the imaginary unit standing alone ("3-4i", "2i", not "\\pi", "sin")
_VECTOR_GOLD_RE = regex.compile(r"\(\s*[^(),]+,\s*[^(),]+(?:,\s*[^(),]+)?\s*\)")
_IMAGINARY_I_RE = regex.compile(r"(?<![A-Za-z\\])i(?![A-Za-z])")
_IMAGINARY_J_RE = regex.compile(r"(?<![A-Za-z\\])j(?![A-Za-z])")
_COORDINATE_NAMES = ("xyz", "abcd", "pqr", "uvw", "mn")


def coordinate_order(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Named values in the order a tuple of them is written: coordinates by their convention ("y = 4, x = 3"
    is (3, 4)); any other names as stated ("w = 16, d = 3" is (16, 3): nothing says d comes first)."""
    names = [name for name, _value in pairs]
    for order in _COORDINATE_NAMES:
        if all(len(n) == 1 and n in order for n in names):
            return sorted(pairs, key=lambda p: order.index(p[0]))
    return list(pairs)


_SET_BRACES_RE = regex.compile(r"^\\\{(.*)\\\}$")  # "\\{(1, 2), (2, 1)\\}": a set of the solutions


def _solution_tuples(solutions: list[list[tuple[str, str]]], order: list[str] | None = None) -> str:
    """Labelled solutions as a list of tuples, each in coordinate order (or in ``order``, a gold's)."""
    tuples = []
    for solution in solutions:
        values = dict(solution)
        names = order or [n for n, _v in coordinate_order(solution)]
        tuples.append("(" + ", ".join(values[n] for n in names) + ")")
    return ", ".join(tuples)


def _stated_together(ex: Extraction, gold: str) -> Extraction:
    """Boxes stated together against a gold of several values: one answer, compared as a whole.

    "Find all solutions": ``\\boxed{2} and \\boxed{3}`` against a list gold is the list ``2, 3``. Coordinates:
    ``x = \\boxed{3}`` and ``y = \\boxed{4}`` against a tuple gold of two items is ``(3, 4)``, ordered by their
    names. Against any other gold they stay several answers."""
    if is_list_gold(gold):
        together = tuple(dict.fromkeys(ex.candidates))
        return Extraction("ok", ", ".join(together), "the boxes stated together read as one list answer",
                          ex.source, rule=LIST_ANSWER, values=together)
    if ex.labels and len(ex.labels) == len(ex.candidates) == tuple_size(gold):
        pairs = coordinate_order(list(zip(ex.labels, ex.candidates)))
        ordered = tuple(value for _name, value in pairs)
        named = ", ".join(f"{name} = {value}" for name, value in pairs)
        return Extraction("ok", "(" + ", ".join(ordered) + ")", f"the named boxes stated together ({named}) read as "
                          "one tuple", ex.source, rule=LIST_ANSWER, values=ordered)
    return ex


def _compare_row(ex: Extraction, gold: str, config: VerifierConfig, compare: Compare) -> dict[str, Any]:
    if ex.status == "ok" and ex.answer and (plain := without_remark(ex.answer)) != ex.answer:
        ex = dataclasses.replace(ex, answer=plain)  # "\\boxed{\\frac12 \\ (0.5)}": the value, its remark aside
    if ex.status == "multiple" and 1 < len(ex.candidates) <= 4:
        ex = _reconciled(ex, config, compare)
    early = _from_extraction(ex)
    why = ex.rule
    if early is None and numbers_hidden_in_text(ex.answer or "") and not numbers_hidden_in_text(gold):
        # decided on the raw text, before normalisation merges it with honest answers in the cache
        early = ("incorrect", f"{ex.answer!r} puts numbers inside \\text{{}} beside other numbers; "
                              "one final answer is required")
        why = HIDDEN_NUMBERS
    if early:
        return _verdict(early[0], ex.answer, early[1], ex.source, "extraction", why)
    if (option := choice_option_text(gold)) is not None and normalize_answer(ex.answer or "").key not in _LETTERS:
        gold = option  # gold "(B) 12", answer "12": the option's text is what it states
    answer_text = ex.answer or ""
    if (stated := choice_option_text(answer_text)) is not None and normalize_answer(gold).key not in _LETTERS:
        answer_text = stated  # answer "\\textbf{(B)}\\ 5", gold "5": the option's text is the value it commits to
    outcome = decide(answer_text, gold, config, compare)
    return _verdict(outcome.status, ex.answer, outcome.reason, ex.source, outcome.method, outcome.rule)


def decide(answer_text: str, gold: str, config: VerifierConfig, compare: Compare) -> Decision:
    """Whether ``answer_text`` equals ``gold``: the cache, the cheap rules, else one symbolic comparison."""
    # the whole normalised answer keys the cache, never its value key alone: "42_7" (unit base 7) and "42"
    # share the key "42" and must not share a verdict; "1,22" may be a decimal comma, "1, 22" is a list
    # read from the text as written, before normalisation ("十一月" is no number 11) and its cache
    if (written := calendar_decision(answer_text, gold) or yes_no_decision(answer_text, gold)
            or spelled_decision(answer_text, gold, _plain_number(gold, config))
            or _written_decision(answer_text, gold, config)) is not None:
        return written
    counted, ordered = counted_decision(answer_text, gold, config)  # nouns the normalised answer (the cache key) drops
    if counted is not None or ordered is not None:
        return counted or decide(ordered[0], ordered[1], config, compare)  # type: ignore[index]
    key = (normalize_answer(answer_text), gold, config)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    outcome, answer, compared_gold = _decide_locally(answer_text, gold, config)
    if outcome is None:
        compared = gold_info(compared_gold, config)
        a, g = sandbox_texts(answer, compared, config)
        gold_percent = compared.norm.percent and not answer.percent and config.percent == "either"
        result = compare([{"answer": a, "gold": g, "abs_tol": config.abs_tol, "rel_tol": config.rel_tol,
                           "gold_percent": gold_percent}])[0]
        status, reason = result.get("status", "error"), result.get("reason", "")
        symbolic = status in ("correct", "incorrect")
        outcome = Decision(status, reason, "symbolic" if symbolic else "sandbox", SYMBOLIC if symbolic else SANDBOX)
        if status == "unparseable_gold":
            _BAD_GOLDS.put((gold, config), outcome)
        if status in ("timeout", "error"):
            return outcome  # transient failures are retried next time
    _CACHE.put(key, outcome)
    return outcome


def _plain_number(gold: str, config: VerifierConfig) -> Fraction | None:
    """The gold's exact number when it has no unit and no percent sign (what a number spelled in words may equal)."""
    info = gold_info(gold, config)
    return None if info.norm.unit or info.norm.percent else info.number


def _restatement(candidate: str, approximations: tuple[str, ...]) -> tuple[str, float]:
    """A candidate and the tolerance it is held to: exact, or for an approximation ("\\approx 0.333") its own
    precision (:func:`rlvr.verifiers.approximations.tolerance`)."""
    return candidate, (tolerance(candidate) if candidate in approximations else 0.0)


def _reconciled(ex: Extraction, config: VerifierConfig, compare: Compare) -> Extraction:
    """Several boxes (or slots) whose values are equal in different notation are one answer.

    ``\\boxed{\\frac{\\sqrt2}{2}}`` then ``\\boxed{\\sqrt{2}/2}`` restates the answer; only values that
    differ are several answers. Each earlier candidate is compared with the last one like any answer
    with a gold (an approximation within its precision).
    """
    last = ex.candidates[-1]
    for other in ex.candidates[:-1]:
        other, tol = _restatement(other, ex.approximations)
        # a restatement is the same number: "3/8, or 37.5%" restates; "2%" and "200%", "0.4" and "0.4%" are two
        # answers, whatever a gold may accept of each (the percent policy reads a percentage two ways only for a gold)
        outcome = decide(other, last, dataclasses.replace(config, abs_tol=tol, rel_tol=0.0, percent="fraction"), compare)
        if outcome.status != "correct":
            return ex
    return Extraction("ok", last, f"{ex.source} answer (restated in equal forms: "
                      + ", ".join(repr(c) for c in ex.candidates) + ")", ex.source, rule=RESTATED, values=ex.values)


def _written_decision(answer_text: str, gold_text_: str, config: VerifierConfig) -> Decision | None:
    """The rules that read the answer as written, not its normalised form: a decimal given beside the exact
    value, a repeating decimal, a quantity in several units. Taken before the cache, whose key is the normalised
    answer: "0.\\overline{3}" and "\\frac{1}{3}" normalise alike and only the first rounds to a gold of 0.33."""
    full = normalize_answer(answer_text)
    answer = exact_part(full)
    if answer is not full and (approx := approximation_part(full)) is not None:
        # "4\\pi \\approx 12.57" against the gold 12.57: a gold of decimal places is met by the decimal given beside
        # the exact value (they agree, or exact_part would have kept both as two answers)
        g = gold_info(gold_text_, config).norm
        if not g.percent and (approx.key == g.key and "." in g.key and len(g.key.split(".")[1]) >= ROUNDED_GOLD_PLACES
                              or rounds_to_gold(approx.key, g.key)):
            return Decision("correct", f"{approx.clean!r}, given beside {answer.clean!r}, is gold {gold_text_!r} at its "
                            "decimal places", "number", ROUNDED)
    if "." in answer_text and (value := parse_number(answer.key, config.max_digits)) is not None:
        g = gold_info(gold_text_, config).norm
        if not g.percent and repeating_rounds_to_gold(answer_text, value, g.key):
            return Decision("correct", f"{answer_text[:60]!r} repeats without end and rounds to gold {gold_text_!r} at "
                            "its decimal places", "number", ROUNDED)
    if (main := in_main_unit(answer_text)) is not None:
        # "50 cents" against 0.5, "125¢" against \\$1.25: a unitless or money gold counts in the main unit; against
        # 50 or 125 the number is compared as written, its unit aside, below
        g = gold_info(gold_text_, config).norm
        money_gold = _MONEY_GOLD_RE.search(gold_text_, timeout=REGEX_TIMEOUT_S) is not None
        if not g.unit and not g.percent and (number := parse_number(g.key)) is not None \
                and (money_gold or number.denominator != 1):
            # a gold of dollars and cents (0.5, 1.25) or with a currency sign; a whole gold (42) counts in cents
            # like the answer, compared below as written: one reading per gold, never both
            if number == main:
                return Decision("correct", f"{answer_text[:60]!r} is gold {gold_text_!r} in the currency's main unit",
                                "number", SUBUNIT)
            if _MONEY_GOLD_RE.search(gold_text_, timeout=REGEX_TIMEOUT_S):
                return Decision("incorrect", f"{answer_text[:60]!r} is {float(main):g} in the currency's main unit, not "
                                f"gold {gold_text_!r}", "number", SUBUNIT)  # "42 cents" is not \\$42
    if _TWO_QUANTITIES_RE.search(answer_text, timeout=REGEX_TIMEOUT_S) \
            and (smallest := compound_quantity(answer_text, in_smallest=True)) is not None:
        # "5 feet 6 inches" against 66: a unitless gold counts in the unit the question asked for, the first unit
        # (5.5 ft, compared below as any quantity) or the smallest; both are the one quantity the answer states
        g = gold_info(gold_text_, config).norm
        if not g.unit and not g.percent and (number := parse_number(g.key)) is not None \
                and parse_number(normalize_answer(smallest).key) == number:
            return Decision("correct", f"{answer_text[:60]!r} is {smallest!r}, gold {gold_text_!r} in its smallest unit",
                            "number", COMPOUND)
    return None


def _decide_locally(answer_text: str, gold_text_: str, config: VerifierConfig) -> tuple[Decision | None, Any, str]:
    """The decision the cheap rules make, or ``None``; the answer as it is to be compared (the value an
    equation states for the asked quantity, a labelled list's values, a definition in the gold's variable);
    and the gold as it is to be compared (a labelled gold's tuple)."""
    return _local_decision(answer_text, exact_part(normalize_answer(answer_text)), gold_text_, config)


def _local_decision(answer_text: str, answer: Any, gold_text_: str, config: VerifierConfig) -> tuple[Decision | None, Any, str]:
    gold = gold_info(gold_text_, config)
    if not gold.norm.key:
        return Decision("unparseable_gold", "the gold answer is empty", "gold", EMPTY_GOLD), answer, gold_text_
    if _states_no_value(gold_text_):
        return Decision("unparseable_gold", f"the gold {gold_text_[:80]!r} is a sentence that states no answer", "gold",
                        PROSE_GOLD), answer, gold_text_
    if (point := _NAMED_POINT_RE.fullmatch(answer.clean, timeout=REGEX_TIMEOUT_S)) and gold.norm.clean.startswith("("):
        answer = normalize_answer(point[1])  # "P(6, 8)" against "(6, 8)": the point's name is no part of its value
    elif (point := _NAMED_POINT_RE.fullmatch(gold.norm.clean, timeout=REGEX_TIMEOUT_S)) and answer.clean.startswith("("):
        gold_text_ = point[1]
        gold = gold_info(gold_text_, config)
    answer, gold_text_ = restated(answer, gold_text_, config)  # qualifiers, colon labels
    gold = gold_info(gold_text_, config)
    if "=" in gold.norm.clean and (gold_solutions := labelled_solutions(gold.norm.clean)) is not None:
        # "p=5, q=2; p=7, q=2": the solutions, each the tuple of its values; an answer that labels the same names
        # the same way is put in that form ("x=1, y=2 or x=2, y=1" against "(1, 2), (2, 1)" too, below)
        gold_text_ = _solution_tuples(gold_solutions)
        gold = gold_info(gold_text_, config)
        if "=" in answer.clean and (answer_solutions := labelled_solutions(answer.clean)) is not None \
                and {n for n, _v in answer_solutions[0]} == {n for n, _v in gold_solutions[0]}:
            answer = normalize_answer(_solution_tuples(answer_solutions, [n for n, _v in coordinate_order(gold_solutions[0])]))
    elif "=" in answer.clean and "=" not in gold.norm.clean and (answer_solutions := labelled_solutions(answer.clean)) \
            is not None and tuple_size(split_top_level(_SET_BRACES_RE.sub(r"\1", gold.norm.clean, timeout=REGEX_TIMEOUT_S),
                                                       ",")[0]) == len(answer_solutions[0]):
        answer = normalize_answer(_solution_tuples(answer_solutions))  # "x=1, y=2 or x=2, y=1" against "(1, 2), (2, 1)"
    if "=" in gold.norm.clean and (gold_named := labelled_values(gold.norm.clean)) is not None \
            and not labels_contradicted(gold_named):
        # a labelled gold ("x=2, y=5") is the tuple of its values; a labelled answer with the same labels is put in
        # the gold's order ("y=5, x=2"), one with other labels is compared as written
        answer_named = labelled_values(answer.clean) if "=" in answer.clean else None
        if answer_named is None or {n for n, _v in answer_named} == {n for n, _v in gold_named}:
            order = [n for n, _v in coordinate_order(gold_named)]
            gold_text_ = "(" + ", ".join(v for _n, v in coordinate_order(gold_named)) + ")"
            gold = gold_info(gold_text_, config)
            if answer_named is not None:
                values = dict(answer_named)
                answer = normalize_answer("(" + ", ".join(values[n] for n in order) + ")")
            elif "=" not in answer.clean and len(split_top_level(answer.clean, ",")) == len(gold_named):
                answer = normalize_answer("(" + answer.clean + ")")  # "2, 5": the values, in the gold's order
            # ("x=2, x=5" and "x = 2, 5" label no tuple of the gold's: they stay as written)
    if "=" in answer.clean and "=" not in gold.norm.clean and not _RELATION_CHARS_RE.search(answer.clean, timeout=REGEX_TIMEOUT_S):
        if (rhs := quantity_rhs(answer.clean)) is not None:
            stated = exact_part(normalize_answer(rhs))  # "m + n = 12", "E[X] = 3": the value stated for the asked quantity
            if answer.unit and not stated.unit and answer.unit in ("degree", "radian"):
                stated = dataclasses.replace(stated, unit=answer.unit)  # "x = 60^\\circ": the angle keeps its unit
            answer = stated
        elif (named := labelled_values(answer.clean)) is not None:
            if labels_contradicted(named):
                return Decision("incorrect", f"{answer.clean[:80]!r} gives the least value a label above the greatest",
                                "extraction", LABELS_CONTRADICTED), answer, gold_text_
            # "Maximum = 2, Minimum = 1" against "1, 2": the values the labels name, compared as the gold's list;
            # "y = 4, x = 3" against the tuple (3, 4): the coordinates in the order of their names
            if tuple_size(gold_text_) == len(named):
                answer = normalize_answer("(" + ", ".join(value for _label, value in coordinate_order(named)) + ")")
            else:
                answer = normalize_answer(", ".join(value for _label, value in named))
                if (ordered := in_stated_order(answer.clean, gold.norm.clean)) is not None:
                    answer, gold_text_ = normalize_answer(ordered[0]), ordered[1]  # the names fix the order
                    gold = gold_info(gold_text_, config)
    elif (renamed := renamed_definition(answer.clean, gold.norm.clean)) is not None:
        answer = normalize_answer(renamed)  # "f(z) = z^2" against "f(x) = x^2": the same function
    if _IMAGINARY_I_RE.search(gold.norm.clean, timeout=REGEX_TIMEOUT_S) and "j" not in gold.norm.clean \
            and _IMAGINARY_J_RE.search(answer.clean, timeout=REGEX_TIMEOUT_S) \
            and not _IMAGINARY_I_RE.search(answer.clean, timeout=REGEX_TIMEOUT_S) and answer.clean.count("j") == 1 \
            and any(c.isdigit() for c in answer.clean):
        # "3 - 4j" (or "Z = 3 - 4j") against "3 - 4i": the engineers' imaginary unit, where the gold is a complex number
        answer = normalize_answer(_IMAGINARY_J_RE.sub("i", answer.clean, timeout=REGEX_TIMEOUT_S))
    if _VECTOR_GOLD_RE.fullmatch(gold.norm.clean, timeout=REGEX_TIMEOUT_S) \
            and (vector := unit_vector_tuple(answer.clean, plain=True)) is not None:
        answer = normalize_answer(vector)  # "i - 2j + 3k" (or "u × v = i - 2j + 3k") against the vector (1, -2, 3)
    if not answer.key:
        return Decision("no_answer", "the final answer is empty after normalisation", "extraction", EMPTY_ANSWER), answer, gold_text_
    fast = fast_decision(answer, gold, config)
    if fast:
        return fast, answer, gold_text_
    unsafe = unsafe_reason(answer.clean, config) or malformed_reason(answer.clean)
    if unsafe:
        return Decision("unparseable_answer", unsafe, "guard", GUARD), answer, gold_text_
    unread = unread_part(sandbox_texts(answer, gold, config)[0])  # what the parser would be given
    if unread:
        return Decision("unparseable_answer", unread, "guard", UNREAD), answer, gold_text_
    if gold.unsafe:
        return Decision("unparseable_gold", f"gold answer is unsafe to parse: {gold.unsafe}", "guard", GOLD_GUARD), answer, gold_text_
    # only now: a gold the parser refused can still equal an answer as a string or number, and which rows
    # this process read before must not decide that ("12:00" after a row that found "12:00" unparseable)
    bad_gold = _BAD_GOLDS.get((gold_text_, config))
    if bad_gold:
        return bad_gold, answer, gold_text_
    if not config.symbolic:
        return Decision("incorrect", f"{answer.clean!r} does not match gold {gold_text_!r} as a string or number "
                        "(symbolic comparison off)", "number", NO_SYMBOLIC), answer, gold_text_
    return None, answer, gold_text_


def validate_gold(gold: str, config: VerifierConfig, compare: Compare) -> str | None:
    """``None`` when the verifier can use ``gold``, else the reason it cannot (parsed once, cached)."""
    text = gold_text(gold)
    info = gold_info(text, config)
    if not info.norm.key:
        return "the gold answer is empty"
    if info.unsafe:
        return f"unsafe to parse: {info.unsafe}"
    if info.number is not None:
        return None
    if (bad := _BAD_GOLDS.get((text, config))) is not None:
        return bad.reason
    clean = info.norm.clean
    result = compare([{"answer": clean, "gold": clean, "abs_tol": 0.0, "rel_tol": 0.0}])[0]
    if result.get("status") in ("unparseable_gold", "unparseable_answer"):
        _BAD_GOLDS.put((text, config), Decision("unparseable_gold", result["reason"], "sandbox", SANDBOX))
        return result["reason"]
    if result.get("status") in ("timeout", "error"):
        return f"{result['status']}: {result.get('reason', '')}"
    return None


# a point named by a capital letter: P(6, 8), A'(1, -2), Q_1(0, 3) (two coordinates or more)
_NAMED_POINT_RE = regex.compile(r"[A-Z](?:_\{?[0-9A-Za-z]{1,3}\}?)?'*\s*(\([^()]*,[^()]*\))")
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
    return len(_WORDS_RE.findall(bare, timeout=REGEX_TIMEOUT_S)) >= 3 and not any(c.isdigit() for c in bare) and \
        "\\" not in bare and not spelled_answer(gold)


_GOLD_APPROX_RE = regex.compile(r"\s*(?:\\approx|≈|\\simeq)(?![A-Za-z])\s*")


@byte_cache(0.1)
def gold_text(gold: str) -> str:
    """The answer a gold states: its box, or, for a sentence or worked solution, its stated value.

    A gold that states no value stays as it is (and is then reported ``unparseable_gold``).
    """
    gold = restore_escapes(gold, gold=True)
    text = gold_answer(gold)
    inner = text.strip()[1:-1] if len(text.strip()) > 2 and text.strip()[0] == text.strip()[-1] == "$" else text
    if (approx := _GOLD_APPROX_RE.match(inner, timeout=REGEX_TIMEOUT_S)) and approx.end() < len(inner):
        return inner[approx.end():]  # "\\approx 3.46": the gold is the decimal, which says itself it is rounded
    if text != gold or len(gold) > 20_000:
        return text
    bare = TEXT_GROUP_RE.sub(" ", regex.sub(r"\$[^$]*\$", " ", gold, timeout=REGEX_TIMEOUT_S), timeout=REGEX_TIMEOUT_S)
    if _PROSE_GOLD_RE.search(bare, timeout=REGEX_TIMEOUT_S):
        ex = extract_answer(gold, _GOLD_CONFIG)
        if ex.status == "ok" and ex.answer:
            return ex.answer
    return text
