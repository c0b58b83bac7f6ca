"""The judge's prompt: one format for single, pairwise and listwise inputs (DeepSeek-GRM's pointwise
generative scoring), with or without a reference answer, with principles given, generated or absent.

A :class:`JudgePrompt` is a frozen description of the template; :meth:`JudgePrompt.messages` renders
chat messages for one query and its responses (in the order given: the engine shuffles), and
:attr:`JudgePrompt.template_id` names the template in the verdict cache, so a changed instruction
never reuses old judgments.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass

from rlvr.errors import ConfigError

__all__ = ["JudgePrompt", "truncate_middle", "responses_shown", "DEFAULT_RUBRIC", "STYLES", "SYSTEM"]

STYLES = ("grm", "judge")

DEFAULT_RUBRIC = ("the final answer is correct; every step of the reasoning is valid; the response answers what "
                  "was asked, clearly and without padding")

SYSTEM = ("You are an expert reviewer. You judge responses to a query carefully and impartially: the order of the "
           "responses and their length say nothing about their quality.")

_FORMAT = ("End with exactly one line of the form 'Scores: \\boxed{{{slots}}}' holding {n} integer score{s} from 1 "
           "(worst) to 10 (best), one per response, in the order of the responses.")


_RESPONSE_HEADER = re.compile(r"^\[Response (\d+)\]$", re.MULTILINE)


def responses_shown(prompt_text: str) -> int:
    """How many responses a judge prompt of this module shows (its ``[Response i]`` headers)."""
    return len(set(_RESPONSE_HEADER.findall(prompt_text)))


def truncate_middle(text: str, limit: int) -> str:
    """``text`` cut to about ``limit`` characters, keeping its start and its end (where answers are stated)."""
    if len(text) <= limit:
        return text
    head = limit // 3
    tail = limit - head
    return f"{text[:head]} [... {len(text) - limit} characters omitted ...] {text[-tail:]}"


@dataclass(frozen=True)
class JudgePrompt:
    """How the judge is asked.

    ``style``: ``grm`` (principles, then a critique, then scores) or ``judge`` (a fixed ``rubric``,
    a critique, scores; no principles). ``principles``: criteria given in the config (``grm`` then
    uses them instead of writing its own); ``generate_principles=False`` with none given asks for a
    critique only (the paper's "no principles" ablation). Responses and the query are cut to
    ``max_response_chars`` / ``max_query_chars`` (start and end kept).
    """

    style: str = "grm"
    principles: tuple[str, ...] = ()
    generate_principles: bool = True
    rubric: str = DEFAULT_RUBRIC
    max_response_chars: int = 4000
    max_query_chars: int = 4000

    def __post_init__(self) -> None:
        if self.style not in STYLES:
            raise ConfigError(f"judge prompt style={self.style!r}; use one of {list(STYLES)}")
        if self.style == "judge" and self.principles:
            raise ConfigError("the 'judge' style takes a rubric, not principles: use the 'grm' reward for principles")
        if self.max_response_chars < 50 or self.max_query_chars < 50:
            raise ConfigError("max_response_chars and max_query_chars must be >= 50")

    @property
    def uses_principles(self) -> bool:
        return self.style == "grm" and (bool(self.principles) or self.generate_principles)

    @property
    def template_id(self) -> str:
        """A short hash of everything that shapes the prompt (the cache keys on it)."""
        blob = json.dumps({**asdict(self), "system": SYSTEM, "format": _FORMAT, "task": self._task(2, True)},
                          sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def _task(self, n: int, reference: bool) -> str:
        slots = ", ".join(f"score of response {i + 1}" for i in range(n)) if n > 1 else "score"
        fmt = _FORMAT.format(slots=slots, n=n, s="s" if n > 1 else "")
        ref = (" A response whose final answer differs from the reference answer is wrong, however well it "
               "is written." if reference else "")
        if self.style == "judge":
            return (f"Judge each response by this rubric: {self.rubric}.{ref} Under 'Critique:', assess each "
                    f"response in a few sentences. {fmt}")
        if self.principles:
            listed = "\n".join(f"{i + 1}. {p}" for i, p in enumerate(self.principles))
            return (f"Judge the responses by these principles:\n{listed}\n{ref.strip()}\nUnder 'Critique:', assess "
                    f"each response against the principles. {fmt}").replace("\n\n", "\n")
        if self.generate_principles:
            return ("First, under 'Principles:', write 2 to 4 principles (criteria, each with a weight; the weights "
                    f"sum to 100%) that matter most for judging answers to this query.{ref} Then, under 'Critique:', "
                    f"assess each response against your principles. {fmt}")
        return f"Under 'Critique:', assess each response in a few sentences.{ref} {fmt}"

    def messages(self, query: str, responses: list[str], reference: str | None = None) -> list[dict[str, str]]:
        """Chat messages asking for a judgment of ``responses`` (in this order) to ``query``."""
        if not responses:
            raise ValueError("a judgment needs at least one response")
        parts = [f"[Query]\n{truncate_middle(query, self.max_query_chars)}"]
        if reference is not None:
            parts.append(f"[Reference answer]\n{truncate_middle(reference, self.max_query_chars)}")
        for i, r in enumerate(responses, 1):
            parts.append(f"[Response {i}]\n{truncate_middle(r, self.max_response_chars)}\n[End of Response {i}]")
        parts.append(self._task(len(responses), reference is not None))
        return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n\n".join(parts)}]
