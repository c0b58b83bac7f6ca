"""Cheap structural checks that keep pathological answers away from sympy.

sympy and math-verify can run for minutes (or exhaust memory) on power towers, huge factorials or
binomials, thousand-digit literals and deep nesting. These checks run in the caller's process on the
raw text in linear time and return a reason when the text must not be parsed; the sandbox's hard
timeout and memory cap remain the backstop for anything they miss.
"""

from __future__ import annotations

import math

import regex

from rlvr.verifiers.config import VerifierConfig

__all__ = ["unsafe_reason"]

_DIGITS_RE = regex.compile(r"[0-9]+")
_FACTORIAL_NUM_RE = regex.compile(r"([0-9]+)\s*!")
_BINOM_RE = regex.compile(r"\\[dt]?binom\s*\{((?:[^{}]|\{[^{}]*\})*)\}\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_POW_RE = regex.compile(r"([0-9]+(?:\.[0-9]+)?)\s*(?:\^|\*\*)\s*(?:\{\s*([0-9]+)\s*\}|([0-9]+))")


def _nesting_depth(s: str) -> int:
    depth = best = 0
    for c in s:
        if c in "{([":
            depth += 1
            best = max(best, depth)
        elif c in "})]":
            depth = max(0, depth - 1)
    return best


def _exponent_depth(s: str) -> int:
    """How deeply ``^`` / ``**`` nest inside exponents (``a^{b^{c}}`` is 2; ``9**9**9`` is 2)."""
    best = 0
    stack: list[bool] = []  # for each open group: is it an exponent group?
    pending = False  # a '^' was just seen, the next group/token is an exponent
    chain = 0  # consecutive bare ^ tokens (a^b^c without braces)
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c == "^" or s.startswith("**", i):
            level = sum(stack) + 1 + chain
            best = max(best, level)
            pending = True
            i += 1 if c == "^" else 2
            continue
        if c in "{(":
            stack.append(pending)
            pending = False
            chain = 0
        elif c in "})":
            if stack:
                stack.pop()
            chain = 0
        elif not c.isspace():
            if pending:
                # a bare exponent token: a following '^' chains onto it
                j = i
                while j < n and (s[j].isalnum() or s[j] == "."):
                    j += 1
                k = j
                while k < n and s[k] == " ":
                    k += 1
                chain = chain + 1 if (k < n and (s[k] == "^" or s.startswith("**", k))) else 0
                pending = False
                i = max(j, i + 1)
                continue
        i += 1
    return best


def _factorial_groups(text: str) -> list[str]:
    """Contents of bracketed groups directly followed by ``!``: ``(2^{64})!`` -> ``2^{64}``."""
    groups = []
    for m in regex.finditer(r"[)}]\s*!", text):
        close = m.start()
        depth, i = 0, close
        while i >= 0:
            if text[i] in ")}":
                depth += 1
            elif text[i] in "({":
                depth -= 1
                if depth == 0:
                    groups.append(text[i + 1:close])
                    break
            i -= 1
    return groups


def unsafe_reason(text: str, config: VerifierConfig) -> str | None:
    """A sentence saying why ``text`` must not reach sympy, or ``None`` when it may."""
    if len(text) > config.max_answer_chars:
        return f"answer is {len(text)} characters long (limit max_answer_chars={config.max_answer_chars})"
    depth = _nesting_depth(text)
    if depth > config.max_nesting:
        return f"answer nests brackets {depth} deep (limit max_nesting={config.max_nesting})"
    longest = max((len(m) for m in _DIGITS_RE.findall(text)), default=0)
    if longest > config.max_digits:
        return f"answer has a {longest}-digit number (limit max_digits={config.max_digits})"
    if _exponent_depth(text) >= 3:
        return "answer is an exponent tower three or more levels high; too large to compare safely"
    if _exponent_depth(text) == 2 and _DIGITS_RE.search(text):
        # a^(b^c) with numbers: estimate the inner exponent, e.g. 10^{10^{10}} has 10^10 digits
        for m in regex.finditer(r"([0-9]+)\s*(?:\^|\*\*)\s*\{?\s*([0-9]+)\s*(?:\^|\*\*)\s*\{?\s*([0-9]+)", text):
            inner = int(m[3]) * math.log10(max(int(m[2]), 1))
            if inner > 5:
                return f"answer {m[0]!r}… is a power tower with about 10^{inner:.0f} digits; too large to compare"
    for m in _POW_RE.finditer(text):
        base, exp = float(m[1]), int(m[2] or m[3])
        digits = exp * math.log10(base) if base > 1 else 0
        if digits > config.max_digits:
            return f"{m[0]!r} has about {digits:.0f} digits (limit max_digits={config.max_digits})"
    for m in _FACTORIAL_NUM_RE.finditer(text):
        if int(m[1]) > config.max_factorial:
            return f"factorial of {m[1]} is too large to evaluate (limit max_factorial={config.max_factorial})"
    for inner in _factorial_groups(text):
        # factorial of a bracketed expression: refuse when it holds a power or a large number
        if regex.search(r"[A-Za-z]", regex.sub(r"\\[A-Za-z]+", "", inner)):
            continue  # symbolic, e.g. (n+1)!
        if "^" in inner or "*" in inner or any(int(d) > config.max_factorial for d in _DIGITS_RE.findall(inner)):
            return f"factorial of ({inner}) may be too large to evaluate (limit max_factorial={config.max_factorial})"
    for m in _BINOM_RE.finditer(text):
        for arg in (m[1], m[2]):
            if "^" in arg or any(int(d) > 100 * config.max_factorial for d in _DIGITS_RE.findall(arg)):
                return f"binomial with argument {arg!r} is too large to evaluate"
    return None
