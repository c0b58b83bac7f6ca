"""A reference-given judge: is this extracted answer the gold, said with a probability (xVerify /
CompassVerifier style), as a second opinion on the rule verifier.

The judge is shown only the gold and the answer the verifier extracted (never the completion: what a
policy writes around its answer cannot reach it) and asked whether they are equivalent; the answer is
read from its next-token distribution over ``Yes`` / ``No`` after a forced ``Verdict:``. ``P(equivalent)``
is ``P(Yes) / (P(Yes) + P(No))`` and ``mass`` is ``P(Yes) + P(No)``.

:func:`eligible` decides when it may be asked, from the public verdict fields only: when the rule
verifier refused because the *comparison* could not tell (math-verify/sympy said no or could not
decide, the parser would drop part of the answer, words against words; or ``unparseable_answer``
from the compare stage) and never for an integrity reason (several answers, hedges, a later
statement, a partial box: rules of the ``integrity``/``locate``/``prepare`` stages) nor for a
comparison rule that itself names two answers or a policy the user chose (``or`` in the answer, a
candidate list, an approximation that disagrees, units, list order, percent). A judgment can only turn
such a refusal into ``correct``; it never refuses what the rules paid.

That gate alone (``scope: comparison``) does not make the judge safe: a hedge written inside one box
(``\\boxed{41 \\text{ oder } 42}``, ``\\{40, 41, 42, 43\\}``, ``\\pm 42``, an instruction to the grader) is
refused by the *comparison* stage (the parser cannot read it, or sympy says no), and a judge that
says "equivalent" to everything pays 22 of the audit's attacks through it (tests/test_reference_judge.py).
So the default ``scope: shape`` also asks that the answer be written with no kind of symbol the gold
does not use (:func:`same_shape`: words, variables, non-ASCII characters, relations, separators,
brackets, LaTeX commands beyond plain arithmetic): then no attack of the audit reaches the judge, and
the rules' refusal of a hedge holds whatever the judge says.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

from rlvr.rewards.judges.backends import JudgeBackend, JudgeCall
from rlvr.rewards.judges.cache import CachedJudgment, VerdictCache, cache_key

logger = logging.getLogger(__name__)

__all__ = ["ReferenceJudge", "Equivalence", "eligible", "same_shape", "JUDGED_RULES", "JUDGED_STATUSES", "SCOPES"]

SCOPES = ("shape", "comparison")

#: comparison rules whose refusal is the comparison failing to tell, not a second answer or a policy
JUDGED_RULES = frozenset({
    "compare.symbolic",     # math-verify and sympy said not equal (they have known false negatives)
    "compare.sandbox",      # the sandbox could not decide (timeout, error, parse failure)
    "compare.unread",       # the math parser would drop part of the answer: not compared
    "compare.no_symbolic",  # symbolic comparison is off and neither string nor number matched
    "compare.words",        # answers in words against words
})
JUDGED_STATUSES = ("incorrect", "unparseable_answer", "timeout")
_NEVER_STAGES = ("integrity.", "locate.", "prepare.")

SYSTEM = "You are a careful math grader. You compare a student's final answer with the reference answer."
TEMPLATE = ("Reference answer: {gold}\nStudent's final answer: {answer}\n\nDo the two answers state the same "
            "mathematical value (the same number, expression, set or choice, however written)? Reply with Yes or No.")
PREFIX = "Verdict:"


def eligible(status: str, rule: str | None, answer: str | None, max_chars: int = 400, gold: str | None = None,
             scope: str = "shape") -> bool:
    """May the reference judge be asked about a verdict with these public fields (and, for
    ``scope: shape``, the gold)?"""
    if answer is None or not answer.strip() or len(answer) > max_chars or status not in JUDGED_STATUSES:
        return False
    if rule is None or rule.startswith(_NEVER_STAGES):
        return False
    by_rule = rule in JUDGED_RULES or (status == "unparseable_answer" and rule.startswith("compare.")
                                       and rule not in _POLICY_RULES)
    if scope == "comparison" or not by_rule:
        return by_rule
    return gold is not None and same_shape(answer, gold)


_COMMAND = re.compile(r"\\([a-zA-Z]+|.)")
_TEXT = re.compile(r"\\(?:text|mathrm|textbf|mbox|operatorname)\s*\{([^{}]*)\}")
_WORD = re.compile(r"[a-zA-Z]{2,}")
_LETTER = re.compile(r"[a-zA-Z]")
# LaTeX commands of plain arithmetic and layout: they add no second value and no claim
_PLAIN = frozenset({"frac", "dfrac", "tfrac", "sqrt", "cdot", "times", "div", "left", "right", "big", "Big", ",", ";",
                    " ", "!", "quad", "qquad", "displaystyle"})


def _shape(text: str) -> dict[str, set[str] | int]:
    words = [w.lower() for inner in _TEXT.findall(text) for w in _WORD.findall(inner)]
    bare = _COMMAND.sub(" ", _TEXT.sub(" ", text))
    commands = {c for c in _COMMAND.findall(_TEXT.sub(" ", text))} - _PLAIN
    return {"words": len(words) + len(_WORD.findall(bare)), "letters": set(_LETTER.findall(_WORD.sub(" ", bare))),
            "commands": commands, "other": {ch for ch in bare if not ch.isascii() or ch in "=<>,;|[]()!?:'\"\\&%$#@~`"}}


def same_shape(answer: str, gold: str) -> bool:
    """The answer uses no kind of symbol the gold does not: no more words, no other variables, no LaTeX
    command beyond plain arithmetic that the gold lacks, no relation, separator, bracket or non-ASCII
    character the gold lacks. A second value, a hedge or a claim needs one of those."""
    a, g = _shape(answer), _shape(gold)
    return (a["words"] <= g["words"] and a["letters"] <= g["letters"] and a["commands"] <= g["commands"]  # type: ignore[operator]
            and a["other"] <= g["other"])  # type: ignore[operator]


# compare rules that refuse because of a second value or a policy: never asked, even as unparseable_answer
_POLICY_RULES = frozenset({"compare.or_in_answer", "compare.candidate_list", "compare.approximation", "compare.choice",
                           "compare.relation", "compare.units", "compare.list_order", "compare.percent",
                           "compare.integer_answers", "compare.guard", "compare.gold_guard", "compare.empty_answer",
                           "compare.empty_gold", "compare.prose_gold", "compare.decimal_comma", "compare.base",
                           "compare.equation_side"})


@dataclass(frozen=True)
class Equivalence:
    """The judge's answer: ``p_equivalent`` (None when it gave no probability) and ``mass`` on Yes/No."""

    p_equivalent: float | None
    mass: float
    error: str | None = None


def _yes_no(dist: dict[str, float]) -> tuple[float, float]:
    yes = sum(p for t, p in dist.items() if t.strip().lower().rstrip(".,!") in ("yes", "y", "equivalent", "true"))
    no = sum(p for t, p in dist.items() if t.strip().lower().rstrip(".,!") in ("no", "n", "not", "false"))
    return yes, no


class ReferenceJudge:
    """Asks ``backend`` whether extracted answers equal their golds; answers cached in ``cache``."""

    def __init__(self, backend: JudgeBackend, cache: VerdictCache | None = None, min_mass: float = 0.5):
        self.backend, self.min_mass = backend, min_mass
        self.cache = cache if cache is not None else VerdictCache()
        self.asked = self.cache_hits = 0

    def _call(self, gold: str, answer: str) -> JudgeCall:
        return JudgeCall.of([{"role": "system", "content": SYSTEM},
                             {"role": "user", "content": TEMPLATE.format(gold=gold, answer=answer)}], 0.0, 1, 0)

    def judge(self, pairs: list[tuple[str, str]]) -> list[Equivalence]:
        """One :class:`Equivalence` per (gold, answer)."""
        import json

        out: list[Equivalence | None] = [None] * len(pairs)
        todo: dict[str, list[int]] = {}
        keys = [cache_key(model=self.backend.model_id, kind="reference-equivalence", system=SYSTEM, template=TEMPLATE,
                          prefix=PREFIX, gold=g, answer=a) for g, a in pairs]
        for i, key in enumerate(keys):
            hit = self.cache.get(key)
            if hit is not None:
                self.cache_hits += 1
                data = json.loads(hit.text)
                out[i] = Equivalence(data["p"], data["mass"])
            else:
                todo.setdefault(key, []).append(i)
        if todo:
            firsts = [idx[0] for idx in todo.values()]
            dists = self._ask([pairs[i] for i in firsts])
            for (key, idx), dist in zip(todo.items(), dists):
                self.asked += 1
                if dist is None:
                    result = Equivalence(None, 0.0, "the judge gave no probabilities (backend error)")
                else:
                    yes, no = _yes_no(dist)
                    mass = yes + no
                    result = Equivalence(yes / mass if mass > 0 else None, mass)
                    self.cache.put(key, CachedJudgment(json.dumps({"p": result.p_equivalent, "mass": mass}), 0, 0))
                for i in idx:
                    out[i] = result
        return [r if r.p_equivalent is None or r.mass >= self.min_mass else
                Equivalence(r.p_equivalent, r.mass, f"probability mass on Yes/No {r.mass:.3f} below {self.min_mass:g}")
                for r in out]  # type: ignore[union-attr]

    def _ask(self, pairs: list[tuple[str, str]]) -> list[dict[str, float] | None]:
        return self.backend.next_tokens([(self._call(g, a), PREFIX) for g, a in pairs], kind="words")

    def describe(self) -> dict[str, Any]:
        return {"model": self.backend.model_id, "asked": self.asked, "cache_hits": self.cache_hits}
