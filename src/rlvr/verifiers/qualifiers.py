"""The qualifier after an answer that says where it holds ("\\text{ for all } x \\in \\mathbb{Z}", ", k \\in
\\mathbb{Z}", "\\forall x"): no value of its own, so the answer is compared without it, unless its words add,
deny, doubt or suppose something (``lexicon.CHANGING``)."""

from __future__ import annotations

import regex

from rlvr.verifiers.lexicon import CHANGING
from rlvr.verifiers.limits import REGEX_TIMEOUT_S

__all__ = ["without_qualifier"]


# a qualifier after an answer that says where it holds: "\\text{ for all } x \\in \\mathbb{Q}_{>0}", "\\text{ for some
# integer } t", ", \\text{where } k \\in \\mathbb{Z}", "\\text{ for all positive integers } n"
_QUALIFIER_RE = regex.compile(
    r"(?P<body>.+?)\s*,?\s*(?:\\q?quad\s*)?(?:\\text\s*\{\s*)?(?P<lead>(?:for\s+(?:all|every|each|any|some)|where|\\forall)(?![A-Za-z])[\p{L} ]{0,40}?)\s*\}?"
    r"\s*(?P<names>[A-Za-z](?:\s*,\s*[A-Za-z]){0,3})?\s*(?:(?:\\in|∈)\s*(?P<set>\\mathbb\s*\{?[A-Z]\}?(?:\s*[_^]\s*"
    r"(?:\{[^{}]{1,8}\}|[+\-*0-9]))?))?\s*(?:\\text\s*\{\s*(?P<more>[\p{L} ]{1,30}?)\s*\})?\s*\.?")


# the same said with a comma and a set only: "2k\\pi, k \\in \\mathbb{Z}", "4n + 1,\\ n \\in \\mathbb{N}"
_MEMBERSHIP_RE = regex.compile(
    r"(?P<body>.+?)\s*(?:,|;|\\q?quad)\s*(?:\\[,;! ]\s*)*(?P<names>[A-Za-z](?:\s*,\s*[A-Za-z]){0,3})\s*(?:\\in|∈)\s*"
    r"(?P<set>\\mathbb\s*\{?[NZQRC]\}?(?:\s*[_^]\s*(?:\{[^{}]{1,8}\}|[+\-*0-9]))?)\s*\.?")


def without_qualifier(clean: str) -> str | None:
    """``f(x) = 1 \\text{ for all } x \\in \\mathbb{Q}_{>0}`` as ``f(x) = 1``: the answer without the qualifier that says
    where it holds (a quantifier, the names it binds and their set); ``None`` when there is none, or when its words
    add, deny or doubt a value (``\\text{ for all } x \\text{ except } 3`` keeps its exception)."""
    if len(clean) >= 400 or not any(w in clean for w in ("for", "where", "\\in", "∈")):
        return None
    items = _ITEM_JOINER_RE.split(clean, timeout=REGEX_TIMEOUT_S)
    if len(items) > 1:  # "f(x) = -1 \text{ for all } x, \text{ and } f(x) = x + 1 \text{ for all } x": each its own
        read = [_one_without_qualifier(item) for item in items]
        said = {"".join(item.strip()[len(r):].split()) for r, item in zip(read, items) if r is not None}
        # one qualifier for every item ("for all x \in \mathbb{Z}" each time); different ones cut a domain into
        # pieces ("f(x) = x^2 for all x \in \mathbb{R}_{\ge 0} and f(x) = 0 for all x \in \mathbb{R}_{<0}" is one
        # piecewise function, not two solutions)
        if len(said) == 1 and all(r is None or item.strip().startswith(r) for r, item in zip(read, items)):
            return ", ".join(r if r is not None else item.strip() for r, item in zip(read, items))
        return None
    return _one_without_qualifier(clean)


# solutions joined by "and" in text, or by semicolons: each may carry its own qualifier
_ITEM_JOINER_RE = regex.compile(r"\s*,?\s*(?:\\text\s*\{\s*,?\s*and\s*\}|(?<![A-Za-z\\])and(?![A-Za-z]))\s*|\s*;\s*")


def _one_without_qualifier(clean: str) -> str | None:
    if not any(w in clean for w in ("for", "where", "\\in", "∈")):
        return None
    if (m := _MEMBERSHIP_RE.fullmatch(clean, timeout=REGEX_TIMEOUT_S)) is not None:
        names = {n.strip() for n in m["names"].split(",")}
        # the names must be the answer's own parameters ("2k\\pi, k \\in \\mathbb{Z}"): "3, x \\in \\mathbb{R}" binds nothing
        if all(regex.search(rf"(?<![A-Za-z\\]){n}(?![A-Za-z])", m["body"], timeout=REGEX_TIMEOUT_S) for n in names):
            return m["body"].strip(" ,")
        return None
    m = _QUALIFIER_RE.fullmatch(clean, timeout=REGEX_TIMEOUT_S)
    if m is None or not (m["names"] or m["set"]) or not m["body"].strip(" ,"):
        return None
    if CHANGING.search(clean[m.start("lead"):]):  # the whole qualifier: a hedge after its names too
        return None
    return m["body"].strip(" ,")
