"""Format rewards: does the completion have the structure the prompt asked for?

Presets name the two tag schemes in common use: ``r1`` (``<think>…</think><answer>…</answer>``) and
``working_out`` (Unsloth's GRPO recipe: ``<start_working_out>…<end_working_out><SOLUTION>…</SOLUTION>``,
whose chat template prefills the opening reasoning tag). Each reward takes ``think_prefilled`` so a
template that opens the reasoning block in the prompt is not penalised for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import regex

from rlvr.errors import ConfigError
from rlvr.rewards.base import Reads, Reward, RewardResult
from rlvr.rewards.registry import reward
from rlvr.typed import param
from rlvr.verifiers import VerifierConfig, extract_answer
from rlvr.verifiers.normalize import find_boxed

_REGEX_TIMEOUT_S = 1.0


@dataclass(frozen=True)
class TagScheme:
    """Reasoning and answer delimiters, and whether the chat template prefills the opening one."""

    reasoning_open: str
    reasoning_close: str
    answer_open: str
    answer_close: str
    think_prefilled: bool
    between: str  # regex allowed between the reasoning and the answer block
    match_score: float


PRESETS = {
    "r1": TagScheme("<think>", "</think>", "<answer>", "</answer>", False, r"\s*", 1.0),
    "working_out": TagScheme("<start_working_out>", "<end_working_out>", "<SOLUTION>", "</SOLUTION>",
                             True, r".*?", 3.0),
}


def _scheme_reads(p: Any) -> Reads:
    s = scheme_from(p.preset, p.tags, p.think_prefilled)
    return Reads(layout=None if p.tags else p.preset, tags=(s.reasoning_open, s.reasoning_close, s.answer_open,
                                                             s.answer_close),
                 reasoning_open=s.reasoning_open, think_prefilled=s.think_prefilled)


class _SchemeReward(Reward):
    """A format reward over a tag scheme: it reads the scheme's tags and layout."""

    def reads(self) -> Reads:
        return _scheme_reads(self.p)


@dataclass(frozen=True)
class SchemeParams:
    """The tag-scheme parameters every format reward shares."""

    preset: str = param("r1", "tag scheme: r1 (<think>/<answer>) or working_out (Unsloth's recipe)",
                        choices=("r1", "working_out"))
    tags: dict[str, str] | None = param(None, "override tags: reasoning_open, reasoning_close, answer_open, "
                                              "answer_close")
    think_prefilled: bool | None = param(None, "the chat template opens the reasoning block (default: the "
                                               "preset's; working_out: true)")

    def __post_init__(self) -> None:
        scheme_from(self.preset, self.tags, self.think_prefilled)  # unknown tags fail at configuration


def scheme_from(preset: str, tags: dict[str, str] | None, think_prefilled: bool | None) -> TagScheme:
    """The preset's scheme with user overrides (``tags`` keys: reasoning_open, reasoning_close,
    answer_open, answer_close)."""
    if preset not in PRESETS:
        raise ConfigError(f"unknown format preset {preset!r}; use one of {sorted(PRESETS)}")
    base = PRESETS[preset]
    fields = {k: getattr(base, k) for k in base.__dataclass_fields__}
    for key, value in (tags or {}).items():
        if key not in ("reasoning_open", "reasoning_close", "answer_open", "answer_close"):
            raise ConfigError(f"unknown tag {key!r}; use reasoning_open, reasoning_close, answer_open, answer_close")
        if not isinstance(value, str) or not value:
            raise ConfigError(f"tag {key!r} must be a non-empty string, got {value!r}")
        fields[key] = value
    if think_prefilled is not None:
        fields["think_prefilled"] = bool(think_prefilled)
    return TagScheme(**fields)


@reward("format_strict")
class FormatStrict(_SchemeReward):
    """Whole-completion structure: reasoning block, then exactly one answer block, nothing after.

    Scores ``match_score`` (preset default: r1 1.0, working_out 3.0 as in the Unsloth recipe) when
    the completion is exactly: [opening tag unless prefilled] reasoning, closing tag, (r1: only
    whitespace; working_out: anything) answer block with non-empty content, optional ``eos_token``,
    trailing whitespace — with each tag present exactly once. Otherwise ``mismatch_score``.
    ``mode: seed`` reproduces the Unsloth recipe's own regex exactly instead (searched anywhere, a
    multi-line ``$``, an optional end-of-sequence token), for runs that must match the recipe's numbers.
    """

    @dataclass(frozen=True)
    class Params(SchemeParams):
        match_score: float | None = param(None, "score when the format matches (default: the preset's, r1 1.0, "
                                                "working_out 3.0)")
        mismatch_score: float = param(0.0, "score otherwise")
        eos_token: str | None = param(None, "an end-of-sequence token allowed after the answer block")
        mode: str = param("strict", "strict: the whole completion is the structure, each tag once; seed: the "
                                    "Unsloth recipe's own regex", choices=("strict", "seed"))

    def setup(self) -> None:
        self.scheme = scheme_from(self.p.preset, self.p.tags, self.p.think_prefilled)
        self.match_score = self.scheme.match_score if self.p.match_score is None else self.p.match_score
        eos_token = self.p.eos_token
        s = self.scheme
        opening = "" if s.think_prefilled else rf"\s*{regex.escape(s.reasoning_open)}"
        eos = rf"(?:{regex.escape(eos_token)})?" if eos_token else ""
        self._pattern = regex.compile(
            rf"{opening}.*?{regex.escape(s.reasoning_close)}{s.between}{regex.escape(s.answer_open)}"
            rf"(.+?){regex.escape(s.answer_close)}\s*{eos}\s*", regex.DOTALL)
        # the seed's match_format: closing reasoning tag, anything, the answer block, optional end-of-
        # sequence token, then '$' in MULTILINE mode, found anywhere by search() (so later lines and a
        # repeated prefilled opening tag pass, as in the recipe)
        from rlvr.rewards.builtin.numeric import EOS_TOKENS

        seed_eos = rf"(?:{regex.escape(eos_token)})?" if eos_token else EOS_TOKENS + "?"
        self._seed_pattern = regex.compile(
            rf"{regex.escape(s.reasoning_close)}.*?{regex.escape(s.answer_open)}(.+?){regex.escape(s.answer_close)}"
            rf"[\s]{{0,}}{seed_eos}[\s]{{0,}}$", regex.MULTILINE | regex.DOTALL)

    def _tag_counts_ok(self, text: str) -> str | None:
        s = self.scheme
        expected = {s.reasoning_close: 1, s.answer_open: 1, s.answer_close: 1,
                    s.reasoning_open: 0 if s.think_prefilled else 1}
        for tag, want in expected.items():
            got = text.count(tag)
            if got != want:
                return f"{tag} appears {got} times (expected {want})"
        return None

    def score(self, completions: list[str], prompts: Any, **columns: Any) -> list[RewardResult]:
        if self.mode == "seed":
            return [self._seed_score(text) for text in completions]
        out = []
        for text in completions:
            problem = self._tag_counts_ok(text)
            if problem is None:
                m = self._pattern.fullmatch(text, timeout=_REGEX_TIMEOUT_S)
                if m is None:
                    problem = "tags are present but not in the required order/layout"
                elif not m.group(1).strip():
                    problem = "the answer block is empty"
            if problem:
                out.append(RewardResult(self.mismatch_score, "bad_format", problem))
            else:
                out.append(RewardResult(self.match_score, "ok", f"matches the {self.preset} structure"))
        return out


    def _seed_score(self, text: str) -> RewardResult:
        try:
            found = self._seed_pattern.search(text, timeout=_REGEX_TIMEOUT_S) is not None
        except TimeoutError:
            return RewardResult(self.mismatch_score, "timeout", f"format check exceeded {_REGEX_TIMEOUT_S}s")
        if found:
            return RewardResult(self.match_score, "ok", "the recipe's format regex matches (mode seed)")
        return RewardResult(self.mismatch_score, "bad_format", "the recipe's format regex finds no answer block "
                            "after the closing reasoning tag at a line end (mode seed)")


@reward("format_approx")
class FormatApprox(_SchemeReward):
    """Per-tag counting (the Unsloth recipe's ``match_format_approximately``).

    For each tag: ``present_score`` (+0.5) if it appears exactly once, else ``absent_score`` (−1.0).
    With the reasoning opening tag prefilled by the template (working_out's default), that tag is
    not counted, as in the recipe.
    """

    @dataclass(frozen=True)
    class Params(SchemeParams):
        preset: str = param("working_out", "tag scheme: r1 or working_out", choices=("r1", "working_out"))
        present_score: float = param(0.5, "added for each tag that appears exactly once")
        absent_score: float = param(-1.0, "added for each tag that does not")

    def setup(self) -> None:
        s = scheme_from(self.p.preset, self.p.tags, self.p.think_prefilled)
        self._counted = ([] if s.think_prefilled else [s.reasoning_open]) + [s.reasoning_close, s.answer_open, s.answer_close]

    def score(self, completions: list[str], prompts: Any, **columns: Any) -> list[RewardResult]:
        out = []
        for text in completions:
            counts = {tag: text.count(tag) for tag in self._counted}
            value = sum(self.present_score if c == 1 else self.absent_score for c in counts.values())
            bad = [f"{t}×{c}" for t, c in counts.items() if c != 1]
            reason = "each tag exactly once" if not bad else "tags not exactly once: " + ", ".join(bad)
            out.append(RewardResult(value, "ok" if not bad else "bad_format", reason, {"counts": counts}))
        return out


@reward("tag_count")
class TagCount(_SchemeReward):
    """open-r1's ``tag_count_reward``: +0.25 for each of ``<think>\\n``, ``\\n</think>\\n``,
    ``\\n<answer>\\n``, ``\\n</answer>`` appearing exactly once (max 1.0).

    With ``think_prefilled`` the opening piece is credited when the completion does not repeat it.
    """

    @dataclass(frozen=True)
    class Params(SchemeParams):
        per_tag: float = param(0.25, "added for each of the four tag pieces that appears exactly once")

    def setup(self) -> None:
        s = scheme_from(self.p.preset, self.p.tags, self.p.think_prefilled)
        self._scheme = s
        self._pieces = [f"{s.reasoning_open}\n", f"\n{s.reasoning_close}\n", f"\n{s.answer_open}\n", f"\n{s.answer_close}"]

    def score(self, completions: list[str], prompts: Any, **columns: Any) -> list[RewardResult]:
        out = []
        for text in completions:
            value, missing = 0.0, []
            for i, piece in enumerate(self._pieces):
                count = text.count(piece)
                if count == 1 or (i == 0 and self._scheme.think_prefilled and self._scheme.reasoning_open not in text):
                    value += self.per_tag
                else:
                    missing.append(repr(piece))
            reason = "all four tag pieces exactly once" if not missing else "not exactly once: " + ", ".join(missing)
            out.append(RewardResult(value, "ok" if not missing else "bad_format", reason))
        return out


@reward("r1_tags")
class R1Tags(_SchemeReward):
    """The R1 tag scheme: +0.05 for each tag present (``<think>``, ``</think>``, ``<answer>``,
    ``</answer>``) and +0.05 for a ``\\boxed{}`` (max 0.25). A prefilled opening tag counts as present."""

    @dataclass(frozen=True)
    class Params(SchemeParams):
        per_item: float = param(0.05, "added for each tag present and for a \\boxed{}")

    def setup(self) -> None:
        self._scheme = scheme_from(self.p.preset, self.p.tags, self.p.think_prefilled)

    def score(self, completions: list[str], prompts: Any, **columns: Any) -> list[RewardResult]:
        s = self._scheme
        out = []
        for text in completions:
            present = {
                s.reasoning_open: s.think_prefilled or s.reasoning_open in text,
                s.reasoning_close: s.reasoning_close in text,
                s.answer_open: s.answer_open in text,
                s.answer_close: s.answer_close in text,
                "\\boxed{}": bool(find_boxed(text)),
            }
            value = self.per_item * sum(present.values())
            missing = [k for k, v in present.items() if not v]
            reason = "all tags and a box present" if not missing else "missing: " + ", ".join(missing)
            out.append(RewardResult(round(value, 10), "ok" if not missing else "bad_format", reason))
        return out


@reward("boxed_answer")
class BoxedAnswer(Reward):
    """Exactly one final ``\\boxed{}`` answer after the reasoning: ``present_score`` else ``absent_score``.

    Several different boxes, or a box only inside the reasoning, do not count.
    """

    @dataclass(frozen=True)
    class Params:
        present_score: float = param(1.0, "score with exactly one final boxed answer")
        absent_score: float = param(0.0, "score otherwise")
        think_tags: list[str] = param(["<think>", "</think>"], "reasoning delimiters (open, close)")
        think_prefilled: bool = param(False, "the chat template opens the reasoning block")

    def setup(self) -> None:
        self._config = VerifierConfig(sources=("boxed",), think_tags=tuple(self.p.think_tags),
                                      think_prefilled=self.p.think_prefilled, detect_retraction=False)

    def reads(self) -> Reads:
        return Reads(answer_sources=frozenset({"boxed"}))

    def score(self, completions: list[str], prompts: Any, **columns: Any) -> list[RewardResult]:
        out = []
        for text in completions:
            ex = extract_answer(text, self._config)
            if ex.status == "ok":
                out.append(RewardResult(self.present_score, "ok", f"one final boxed answer: {ex.answer!r}"))
            else:
                out.append(RewardResult(self.absent_score, "no_answer" if ex.status == "no_answer" else "bad_format", ex.reason))
        return out


@reward("think_format")
class ThinkFormat(Reward):
    """TRL's ``think_format_reward``: 1.0 when the completion opens with one ``<think>`` block that
    closes (and no second ``<think>`` follows), else 0.0. ``think_prefilled``: the template already
    opened the block, so the completion must hold only its closing tag."""

    @dataclass(frozen=True)
    class Params:
        think_tags: list[str] = param(["<think>", "</think>"], "reasoning delimiters (open, close)")
        think_prefilled: bool = param(False, "the chat template opens the reasoning block")

        def __post_init__(self) -> None:
            if len(self.think_tags) != 2 or not all(isinstance(t, str) and t for t in self.think_tags):
                raise ConfigError(f"think_tags={self.think_tags!r}; give two non-empty strings (open, close)")

    def reads(self) -> Reads:
        return Reads(tags=tuple(self.p.think_tags), reasoning_open=self.p.think_tags[0],
                     think_prefilled=self.p.think_prefilled)

    def setup(self) -> None:
        open_, close = (regex.escape(t) for t in self.p.think_tags)
        head = "" if self.think_prefilled else f"^{open_}"
        self._pattern = regex.compile(rf"{head}(?!.*{open_})(.*?){close}.*$", regex.DOTALL)

    def score(self, completions: list[str], prompts: Any, **columns: Any) -> list[RewardResult]:
        out = []
        for text in completions:
            try:
                ok = self._pattern.match(text, timeout=_REGEX_TIMEOUT_S) is not None
            except TimeoutError:
                out.append(RewardResult(0.0, "timeout", f"format check exceeded {_REGEX_TIMEOUT_S}s"))
                continue
            why = "one reasoning block, opened first and closed" if ok else \
                f"no single {self.think_tags[0]}…{self.think_tags[1]} block at the start"
            out.append(RewardResult(1.0 if ok else 0.0, "ok" if ok else "bad_format", why))
        return out


# open-r1's step markers: "Step 1:", a numbered line, a bullet, and the transition words
_STEP_RE = regex.compile(r"Step \d+:|(?m:^\d+\.)|\n-|\n\*|First,|Second,|Next,|Finally,")


@reward("reasoning_steps")
class ReasoningSteps(Reward):
    """open-r1's ``reasoning_steps_reward``: ``min(1, markers / min_steps)`` where markers are
    "Step N:", numbered lines, bullets and "First,/Second,/Next,/Finally,"."""

    @dataclass(frozen=True)
    class Params:
        min_steps: int = param(3, "step markers for full credit (open-r1: 3)", min=1)

    def score(self, completions: list[str], prompts: Any, **columns: Any) -> list[RewardResult]:
        out = []
        for text in completions:
            try:
                steps = len(_STEP_RE.findall(text, timeout=_REGEX_TIMEOUT_S))
            except TimeoutError:
                out.append(RewardResult(0.0, "timeout", f"step count exceeded {_REGEX_TIMEOUT_S}s"))
                continue
            out.append(RewardResult(min(1.0, steps / self.min_steps), "ok",
                                    f"{steps} step marker(s); full credit from {self.min_steps}", {"steps": steps}))
        return out
