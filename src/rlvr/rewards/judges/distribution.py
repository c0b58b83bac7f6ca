"""Scores read from the judge's token distribution, so a judgment always has one (G-Eval's reading).

After the judge has written its principles and critique freely, the score line is forced: the text
``Scores: \\boxed{`` is appended to what the judge wrote and, at each response's position, the
probability of every value of the scale is read from the next-token distribution; the separators
(``, `` and the closing ``}``) are forced after the most likely value. A value of several tokens
(``10`` in a tokenizer that splits digits) is read as a trie: at ``1`` the judge's probability of
stopping (a separator next) and of going on (``0`` next) split the mass of ``1`` between 1 and 10.

For each position the result keeps the distribution over the scale, its **expected score**
Σ s·P(s) and its **argmax**, and the **mass**: the probability the judge put on any value of the
scale at all. A judgment whose mass is below ``min_mass`` at any position abstains, with that figure.

The backend supplies one primitive, ``next_tokens(items)``: for (call, assistant prefix) pairs, the
next token's probabilities as ``{token text: probability}`` (the full vocabulary's relevant tokens for
a local model, the top log-probabilities for a server). Everything else lives here, once.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rlvr.rewards.judges.parse import SCORE_HIGH, SCORE_LOW

__all__ = ["Scale", "PositionScore", "DistributionScore", "score_prefix", "read_scores", "NextTokens",
           "TERMINATORS", "NO_PROBABILITIES", "logprob_dict"]

TERMINATORS = (",", "}")  # what the forced format puts after a value
#: the start of the error of a judgment the backend could not score (a server's failure: not cached)
NO_PROBABILITIES = "the backend gave no next-token probabilities"
_LABEL = re.compile(r"\**\s*scores?\s*\**\s*[:：]", re.IGNORECASE)
_DIGITS = re.compile(r"\d+")

#: the backend's primitive: for each (call, assistant prefix), {token text: probability} or None (failed)
NextTokens = Callable[[list[tuple[object, str]]], list["dict[str, float] | None"]]


@dataclass(frozen=True)
class Scale:
    """The integer scores a judge gives, ``low``..``high`` inclusive (the prompt's 1-10)."""

    low: int = SCORE_LOW
    high: int = SCORE_HIGH

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(str(v) for v in range(self.low, self.high + 1))

    def is_value(self, text: str) -> bool:
        return text in self.values

    def extends(self, text: str) -> bool:
        """Some value is longer than ``text`` and starts with it (``1`` for ``10``)."""
        return any(v != text and v.startswith(text) for v in self.values)


@dataclass(frozen=True)
class PositionScore:
    """One response's score: the distribution over the scale, its expectation, argmax and mass."""

    probs: dict[int, float]
    mass: float

    @property
    def expected(self) -> float:
        return sum(v * p for v, p in self.probs.items())

    @property
    def argmax(self) -> int:
        return max(self.probs, key=lambda v: (self.probs[v], -v))


@dataclass(frozen=True)
class DistributionScore:
    """The scores of one judgment read from the distribution, or why there are none.

    ``positions``: one :class:`PositionScore` per response in the order shown; ``text``: the judgment
    with the forced score line (argmax values) appended; ``error``: set when it abstains."""

    positions: tuple[PositionScore, ...]
    text: str
    method: str
    error: str | None = None

    @property
    def transient(self) -> bool:
        """It failed for a reason of the backend's (asked again next time, never cached)."""
        return bool(self.error and self.error.startswith(NO_PROBABILITIES))

    @property
    def min_mass(self) -> float:
        return min((p.mass for p in self.positions), default=0.0)

    def to_json(self) -> dict:
        return {"positions": [{"probs": {str(k): v for k, v in p.probs.items()}, "mass": p.mass} for p in self.positions],
                "text": self.text, "method": self.method, "error": self.error}

    @classmethod
    def from_json(cls, data: dict) -> DistributionScore:
        positions = tuple(PositionScore({int(k): float(v) for k, v in p["probs"].items()}, float(p["mass"]))
                          for p in data["positions"])
        return cls(positions, data["text"], data["method"], data.get("error"))


def score_prefix(text: str) -> str:
    """What the judge wrote up to its score line (a partial or malformed one is dropped), then the
    forced ``Scores: \\boxed{``."""
    found = list(_LABEL.finditer(text))
    body = text[:found[-1].start()] if found else text
    return body.rstrip() + "\nScores: \\boxed{"


def _split(token: str) -> tuple[str, str]:
    """(leading digits, the rest) of a token's text."""
    m = _DIGITS.match(token)
    return (m.group(0), token[m.end():]) if m else ("", token)


def _stops(rest: str) -> bool:
    return rest.lstrip().startswith(TERMINATORS)


class _Node:
    """An open branch of the trie: the digits read so far and the probability mass that reached them."""

    def __init__(self, digits: str, mass: float):
        self.digits, self.mass = digits, mass


def _root(dist: dict[str, float], scale: Scale, raw: dict[str, float], open_: list[_Node]) -> None:
    for token, p in dist.items():
        digits, rest = _split(token.lstrip())  # the first token may carry a space: "{ 7"
        _place(digits, rest, p, scale, raw, open_)


def _place(digits: str, rest: str, p: float, scale: Scale, raw: dict[str, float], open_: list[_Node]) -> None:
    if not digits or p <= 0:
        return
    if rest:  # "7," or "7}" in one token: a complete value
        if _stops(rest) and scale.is_value(digits):
            raw[digits] = raw.get(digits, 0.0) + p
        return
    if scale.extends(digits):
        for node in open_:
            if node.digits == digits:
                node.mass += p
                return
        open_.append(_Node(digits, p))
    elif scale.is_value(digits):
        raw[digits] = raw.get(digits, 0.0) + p


def _expand(node: _Node, dist: dict[str, float] | None, scale: Scale, raw: dict[str, float],
            open_: list[_Node]) -> None:
    """Split ``node``'s mass between stopping here and each longer value, in the judge's proportions."""
    stop, children = 0.0, []
    for token, p in (dist or {}).items():
        digits, rest = _split(token)
        if not digits:
            if _stops(token) and scale.is_value(node.digits):
                stop += p
            continue
        longer = node.digits + digits
        if (rest and _stops(rest) and scale.is_value(longer)) or (not rest and (scale.is_value(longer) or
                                                                                 scale.extends(longer))):
            children.append((longer, rest, p))
    total = stop + sum(p for _, _, p in children)
    if total <= 0:  # no option among the tokens seen (a server's top-k): the digits so far are the value
        if scale.is_value(node.digits):
            raw[node.digits] = raw.get(node.digits, 0.0) + node.mass
        return
    if stop:
        raw[node.digits] = raw.get(node.digits, 0.0) + node.mass * stop / total
    for longer, rest, p in children:
        _place(longer, rest, node.mass * p / total, scale, raw, open_)


def read_scores(next_tokens: NextTokens, items: Sequence[tuple[object, str, int]], scale: Scale = Scale(),
                min_mass: float = 0.05, method: str = "distribution") -> list[DistributionScore]:
    """Score every judgment of ``items`` = (call, the judge's text, number of responses) from the
    distribution, batched: one ``next_tokens`` round per trie level and response position."""
    prefixes = [score_prefix(text) for _, text, _ in items]
    positions: list[list[PositionScore]] = [[] for _ in items]
    errors: list[str | None] = [None] * len(items)
    live = list(range(len(items)))
    step = 0
    while live:
        raws: dict[int, dict[str, float]] = {i: {} for i in live}
        opens: dict[int, list[_Node]] = {i: [] for i in live}
        masses: dict[int, float] = {}
        dists = next_tokens([(items[i][0], prefixes[i]) for i in live])
        for i, dist in zip(live, dists):
            if dist is None:
                errors[i] = f"{NO_PROBABILITIES} at response {step + 1}'s score"
                continue
            _root(dist, scale, raws[i], opens[i])
            masses[i] = sum(raws[i].values()) + sum(n.mass for n in opens[i])
        while any(opens[i] for i in live if errors[i] is None):
            pending = [(i, node) for i in live if errors[i] is None for node in opens[i]]
            for i in live:
                opens[i] = []
            dists = next_tokens([(items[i][0], prefixes[i] + node.digits) for i, node in pending])
            for (i, node), dist in zip(pending, dists):
                _expand(node, dist, scale, raws[i], opens[i])
        still = []
        for i in live:
            if errors[i] is not None:
                continue
            mass = masses[i]
            if not mass > 0 or not raws[i]:
                errors[i] = f"probability mass on the scale {scale.low}-{scale.high} at response {step + 1}'s score is 0"
                continue
            total = sum(raws[i].values())
            probs = {int(v): p / total for v, p in sorted(raws[i].items(), key=lambda kv: int(kv[0]))}
            score = PositionScore(probs, min(1.0, mass))
            positions[i].append(score)
            if mass < min_mass:
                errors[i] = (f"probability mass on the scale {scale.low}-{scale.high} at response {step + 1}'s score is "
                             f"{mass:.3g}, below min_mass {min_mass:g}")
                continue
            last = len(positions[i]) == items[i][2]
            prefixes[i] += str(score.argmax) + ("}" if last else ", ")
            if not last:
                still.append(i)
        live = still
        step += 1
    return [DistributionScore(tuple(positions[i]), prefixes[i] if errors[i] is None else items[i][1], method, errors[i])
            for i in range(len(items))]


def logprob_dict(pairs: Sequence[tuple[str, float]]) -> dict[str, float]:
    """``{token text: probability}`` from (token text, log-probability) pairs, same texts summed."""
    out: dict[str, float] = {}
    for token, logprob in pairs:
        if isinstance(token, str) and isinstance(logprob, (int, float)) and math.isfinite(logprob):
            out[token] = out.get(token, 0.0) + math.exp(logprob)
    return out
