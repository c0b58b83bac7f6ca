"""VerifierConfig: every knob of answer extraction and equivalence, as one frozen dataclass.

Frozen and hashable so a config can key caches and cross process boundaries; lists given by YAML or
JSON are turned into tuples. Every field is checked against its declared type, whoever builds the
config (a file, a server request, code): ``1``, ``"yes"`` or a list is no boolean, ``true`` is no
number. Sizes are bounded (sources named once each, tags of at most :data:`MAX_TAG_CHARS`), so no
config can make a verdict's reason large. Invalid values raise :class:`~rlvr.errors.ConfigError`
naming the field, the value (shortened) and the accepted range.
"""

from __future__ import annotations

import functools
import math
import typing
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, ClassVar, Literal

from rlvr.errors import ConfigError

__all__ = ["VerifierConfig", "DEFAULT_SOURCES", "MAX_TAG_CHARS"]

#: longest reasoning tag accepted (``<|begin_of_thought|>`` is 20): reasons quote the tags
MAX_TAG_CHARS = 64

DEFAULT_SOURCES: tuple[str, ...] = (
    "boxed", "answer_tag", "solution_tag", "answer_line", "table_answer", "json_answer", "hash_answer",
    "final_answer_phrase", "bare_answer", "prose_answer",
)
_POLICIES = ("strict", "lenient")
_MULTIPLE = ("reject", "last", "first")
_PERCENT = ("strict", "ignore", "fraction", "either")


@dataclass(frozen=True)
class VerifierConfig:
    """How to find the final answer in a completion and decide whether it equals the gold answer.

    Extraction:
      sources: answer slot kinds in priority order; the final answer is the last slot of the first
        kind that finds anything. Built in: ``boxed`` (``\\boxed{}``, ``\\fbox{}``, ``\\framebox{}``,
        ``\\colorbox{c}{}`` …), ``answer_tag`` (``<answer>…</answer>``), ``solution_tag``
        (``<SOLUTION>…</SOLUTION>``), ``answer_line`` (DAPO's ``Answer: …`` line, in any emphasis or
        language), ``table_answer`` (``| Answer | 9 |``), ``json_answer`` (``{"answer": 9}``),
        ``hash_answer`` (GSM8K's ``#### …`` line: a heading that is only a value),
        ``final_answer_phrase`` ("the final answer is …"), ``bare_answer`` (the whole completion
        is a short expression such as ``$3$``), ``prose_answer`` (last resort: the one value of the
        last sentence that states one, "So the area is 48 cm."); more via ``register_answer_source``.
      think_tags: reasoning delimiters; only text after the last closing tag is graded.
      think_prefilled: the chat template opens the reasoning block in the prompt, so a completion
        with no closing tag is all reasoning (``no_answer``).
      policy: the commitment rule. ``strict`` (default, for training): several different answers
        stated together are refused, and after the final answer nothing may state another value (a
        later slot, "wait, actually 8", "so it is 8", "or 8", another choice letter, a denial).
        ``lenient`` (for evaluation, closest to math-verify): only the final statement is checked.
        Answers stated earlier and superseded by a later final answer never count.
      multiple_answers: ``reject`` (default: the policy decides), ``last`` or ``first`` (take that
        slot of the final kind and check nothing else, as verl's and some graders' rules do).
      detect_retraction: kept for compatibility; retractions are part of the ``strict`` policy.
    Equivalence:
      abs_tol / rel_tol: numeric tolerance (default 0: exact).
      percent: ``either`` (default: 10% equals 10 and 0.1, as the field's graders accept), ``strict``
        (10% only equals 10%), ``ignore`` (10% equals 10, never 0.1), ``fraction`` (10% equals 0.1 only).
      list_order: how a bare comma list (``1, -2``, no brackets) is compared. ``auto`` (default): as a
        set when either side lists numbers in increasing order (how "find all solutions" answers are
        written; MATH's golds list such sets in any order) or holds expressions, in the given order
        when both sides list numbers in some other order (``4, 10, -2`` vs ``10, 4, -2``, as MATH's
        reference grader's tests assert); ``any``: always a set (math-verify); ``given``: always in
        order. Labelled items (``a = 1, b = 2``) match by label, sets in ``\\{…\\}`` are unordered
        and tuples ordered under every policy.
      integer_answers: when the gold is an integer, an answer that is not a plain number is
        incorrect without symbolic comparison (fast and strict; for integer-answer sets like DAPO).
      symbolic: compare expressions, sets, intervals, equations through math-verify in the sandbox.
    Limits:
      timeout_s: CPU-time budget of one symbolic comparison in its worker (the worker is killed
        when it is spent, and the comparison retried once with four times the budget before it is
        ``timeout``). CPU time, not wall time: a busy machine does not change a verdict.
      batch_timeout_s: kept for compatibility; it bounds nothing since v3. Every row is read and
        compared in a worker under its own CPU budgets (``timeout_s`` per comparison), so a row's
        verdict never depends on the other rows of its batch or on how busy the machine is. Worker
        start-up counts against no budget. A caller's wall-clock bound is separate
        (``verify_batch(deadline=…)``, :func:`~rlvr.verifiers.scoring_deadline`): rows it cuts off
        are ``timeout`` with rule ``prepare.deadline``, never ``incorrect``.
      memory_mb: address-space cap of each sandbox worker.
      max_completion_chars: only the last this-many characters of the graded text are searched.
      max_answer_chars, max_nesting, max_digits, max_factorial: caps checked before any sympy work
        (numbers of more than 4,000 digits are never converted, whatever max_digits says: Python
        refuses int/str conversions past 4,300 digits).
      regex_timeout_s: timeout of each regex run over model output read in the caller's process
        (``extract_answer``, the format rewards, custom answer sources). In the sandbox pool the task's
        CPU budget (``timeout_s``) bounds all reading instead: a wall-clock limit per regex would make a
        verdict depend on how busy the machine is.
    """

    sources: tuple[str, ...] = DEFAULT_SOURCES
    #: fields that bound time or memory of one call: a caller that serves others (``rlvr serve``) lets a
    #: request lower them, never raise them
    RESOURCE_LIMITS: ClassVar[tuple[str, ...]] = (
        "timeout_s", "batch_timeout_s", "max_completion_chars", "max_answer_chars", "max_nesting", "max_digits",
        "max_factorial", "regex_timeout_s")
    #: fields of the process, not of a call (the sandbox pool's memory): fixed where the pool is shared
    PROCESS_FIELDS: ClassVar[tuple[str, ...]] = ("memory_mb",)
    #: the smallest value each size cap accepts
    MINIMUMS: ClassVar[dict[str, int]] = {"memory_mb": 256, "max_completion_chars": 100, "max_answer_chars": 10,
                                          "max_nesting": 2, "max_digits": 10, "max_factorial": 10}

    think_tags: tuple[str, str] = ("<think>", "</think>")
    think_prefilled: bool = False
    policy: Literal["strict", "lenient"] = "strict"
    multiple_answers: Literal["reject", "last", "first"] = "reject"
    detect_retraction: bool = True
    abs_tol: float = 0.0
    rel_tol: float = 0.0
    percent: Literal["strict", "ignore", "fraction", "either"] = "either"
    list_order: Literal["auto", "any", "given"] = "auto"
    integer_answers: bool = False
    symbolic: bool = True
    timeout_s: float = 1.0
    batch_timeout_s: float = 2.5
    memory_mb: int = 1024
    max_completion_chars: int = 100_000
    max_answer_chars: int = 1_000
    max_nesting: int = 30
    max_digits: int = 4_000
    max_factorial: int = 1_000
    regex_timeout_s: float = 0.5

    def __post_init__(self) -> None:
        for f in fields(self):
            _check_type(f.name, getattr(self, f.name), _declared_types()[f.name])
        for name in ("sources", "think_tags"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        if not self.sources:
            raise ConfigError("VerifierConfig.sources is empty: name at least one answer source, e.g. ['boxed']")
        if len(self.think_tags) != 2 or not all(0 < len(t) <= MAX_TAG_CHARS for t in self.think_tags):
            raise ConfigError(f"VerifierConfig.think_tags must be two non-empty strings (open, close) of at most "
                              f"{MAX_TAG_CHARS} characters, got {_shown(self.think_tags)}")
        if len(set(self.sources)) < len(self.sources):
            repeated = next(s for s in self.sources if self.sources.count(s) > 1)
            raise ConfigError(f"VerifierConfig.sources names {_shown(repeated)} more than once ({len(self.sources):,} "
                              "entries); name each source once")
        if self.multiple_answers not in _MULTIPLE:
            raise ConfigError(f"VerifierConfig.multiple_answers={_shown(self.multiple_answers)}; use one of {_MULTIPLE}")
        if self.policy not in _POLICIES:
            raise ConfigError(f"VerifierConfig.policy={_shown(self.policy)}; use 'strict' (training) or 'lenient' (evaluation)")
        if self.list_order not in ("auto", "any", "given"):
            raise ConfigError(f"VerifierConfig.list_order={_shown(self.list_order)}; use 'auto', 'any' or 'given'")
        if self.percent not in _PERCENT:
            raise ConfigError(f"VerifierConfig.percent={_shown(self.percent)}; use one of {_PERCENT}")
        for name in ("abs_tol", "rel_tol"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value < 1e6:
                raise ConfigError(f"VerifierConfig.{name}={_shown(value)}; use a number >= 0 (0 means exact)")
        if not isinstance(self.timeout_s, (int, float)) or not 0 < self.timeout_s <= 600:
            raise ConfigError(f"VerifierConfig.timeout_s={_shown(self.timeout_s)}; use seconds in (0, 600]")
        if not isinstance(self.batch_timeout_s, (int, float)) or isinstance(self.batch_timeout_s, bool) \
                or not self.timeout_s <= self.batch_timeout_s <= 3600:
            raise ConfigError(f"VerifierConfig.batch_timeout_s={_shown(self.batch_timeout_s)}; use seconds in "
                              f"[timeout_s, 3600] (timeout_s={self.timeout_s})")
        if not isinstance(self.regex_timeout_s, (int, float)) or not 0 < self.regex_timeout_s <= 60:
            raise ConfigError(f"VerifierConfig.regex_timeout_s={_shown(self.regex_timeout_s)}; use seconds in (0, 60]")
        for name, low in self.MINIMUMS.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ConfigError(f"VerifierConfig.{name}={_shown(value)}; use an integer >= {low}")
        from rlvr.verifiers.extraction import answer_source_names

        unknown = [s for s in self.sources if s not in answer_source_names()]
        if unknown:
            raise ConfigError(
                f"VerifierConfig.sources names unknown answer sources {_shown(unknown)}; "
                f"known: {sorted(answer_source_names())} (add one with register_answer_source)"
            )

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> VerifierConfig:
        """Build from a plain dict (YAML/JSON), rejecting unknown keys with the list of valid ones."""
        data = dict(data or {})
        valid = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - valid)
        if unknown:
            raise ConfigError(f"unknown VerifierConfig field(s) {_shown(unknown)}; valid fields: {sorted(valid)}")
        return cls(**data)

    @classmethod
    def load(cls, spec: str | Path | dict[str, Any] | VerifierConfig | None) -> VerifierConfig:
        """Accept a config, a dict, inline JSON, or a path to a YAML/JSON file."""
        if spec is None:
            return cls()
        if isinstance(spec, VerifierConfig):
            return spec
        if isinstance(spec, dict):
            return cls.from_dict(spec)
        from rlvr.files import read_config

        path = str(spec)
        data = read_config(spec, "verifier config")
        if isinstance(data, dict) and "verifier" in data and isinstance(data["verifier"], dict):
            data = data["verifier"]
        if not isinstance(data, dict):
            raise ConfigError(f"{path}: expected a mapping of VerifierConfig fields, got {type(data).__name__}")
        return cls.from_dict(data)


def _shown(value: Any) -> str:
    """A value as an error message quotes it: its repr, cut to 60 characters (a config may be a client's)."""
    try:
        text = repr(value)
    except ValueError:  # an integer past Python's int-to-text limit
        return f"a {type(value).__name__} too large to print"
    return text if len(text) <= 60 else f"{text[:50]}... ({len(text):,} characters)"


@functools.cache
def _declared_types() -> dict[str, Any]:
    return typing.get_type_hints(VerifierConfig)


def _check_type(name: str, value: Any, declared: Any) -> None:
    """``value`` is of the field's declared type (no coercion: what YAML, JSON and Python give is what counts)."""
    origin, args = typing.get_origin(declared), typing.get_args(declared)
    if declared is bool:
        ok, want = isinstance(value, bool), "true or false"
    elif declared is int:
        ok, want = isinstance(value, int) and not isinstance(value, bool), "an integer"
    elif declared is float:
        ok = isinstance(value, int) and not isinstance(value, bool) or isinstance(value, float) and math.isfinite(value)
        want = "a number"
    elif origin is Literal:
        ok, want = isinstance(value, str) and value in args, f"one of {list(args)}"
    elif origin is tuple:
        ok, want = isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value), "a list of strings"
    else:  # a type this check does not know: the field's own checks below apply
        return
    if not ok:
        raise ConfigError(f"VerifierConfig.{name} must be {want}, got {type(value).__name__} {_shown(value)}")
