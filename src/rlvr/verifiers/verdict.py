"""The typed result of one verification: what was decided, on which answer, and why."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

__all__ = ["Verdict", "Status", "STATUSES"]

Status = Literal[
    "correct", "incorrect", "no_answer", "unparseable_answer", "unparseable_gold", "timeout", "error"
]
STATUSES: tuple[str, ...] = (
    "correct", "incorrect", "no_answer", "unparseable_answer", "unparseable_gold", "timeout", "error",
)


@dataclass(frozen=True)
class Verdict:
    """Outcome of checking one completion against one gold answer.

    ``status`` is the decision; ``correct`` is ``status == "correct"``. ``answer`` is the final
    answer text that was extracted (``None`` when there was none), ``reason`` one human sentence
    saying why, ``source`` which extractor found the answer (``boxed``, ``answer_tag``, ...),
    ``method`` which step decided (``string``, ``number``, ``symbolic``, ``guard``, ``extraction``,
    ``sandbox``), ``rule`` the named rule that decided (``integrity.later_statement``,
    ``compare.number``, …; see :mod:`rlvr.verifiers.trace`) and ``elapsed_s`` the wall time spent
    on this completion.
    """

    status: Status
    answer: str | None
    reason: str
    elapsed_s: float = 0.0
    source: str | None = None
    method: str | None = None
    rule: str | None = None
    correct: bool = field(init=False)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown verdict status {self.status!r}; expected one of {STATUSES}")
        object.__setattr__(self, "correct", self.status == "correct")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict of every field, ``correct`` included."""
        return asdict(self)
