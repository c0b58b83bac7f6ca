"""Cheap structural checks that keep pathological answers away from sympy.

sympy and math-verify can run for minutes (or exhaust memory) on power towers, huge factorials or
binomials, thousand-digit literals and deep nesting. These checks run in the caller's process on the
raw text in linear time and return a reason when the text must not be parsed; the sandbox's hard
timeout and memory cap remain the backstop for anything they miss.
"""

from __future__ import annotations

import math
import unicodedata

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S

from rlvr.verifiers.config import VerifierConfig

__all__ = ["unsafe_reason"]

_DIGITS_RE = regex.compile(r"[0-9]+")
_FACTORIAL_NUM_RE = regex.compile(r"([0-9]+)\s*!")
_BINOM_RE = regex.compile(r"\\[dt]?binom\s*\{((?:[^{}]|\{[^{}]*\})*)\}\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_GAMMA_RE = regex.compile(r"\\Gamma(?![A-Za-z])\s*(?:\\left\s*)?(?=[({])")
_MACRO_NAME_RE = regex.compile(r"\\[A-Za-z]+")
_LATIN_RE = regex.compile(r"[A-Za-z]")
_PRODUCT_RE = regex.compile(r"\*|×|\\(?:cdot|times)(?![A-Za-z])")
_BOUNDED_MACRO_RE = regex.compile(r"\*|×|\\(?:cdot|times|[dt]?frac|left|right|pi)(?![A-Za-z])")
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


def _int(digits: str, cap: int = 10**18) -> int:
    """``int(digits)`` for a digit string, saturating at ``cap`` (never Python's 4,300-digit error)."""
    return int(digits) if len(digits) <= 18 else cap


def _group_before(text: str, close: int) -> tuple[int, str] | None:
    """For a ``)``/``}``/``]`` at ``close``: (start, content) of the bracketed group it closes."""
    depth, i = 0, close
    while i >= 0:
        if text[i] in ")}]":
            depth += 1
        elif text[i] in "({[":
            depth -= 1
            if depth == 0:
                return i, text[i + 1:close]
        i -= 1
    return None


def _group_after(text: str, open_: int) -> str | None:
    """Content of the bracketed group opening at ``open_``."""
    depth = 0
    for i in range(open_, len(text)):
        if text[i] in "({[":
            depth += 1
        elif text[i] in ")}]":
            depth -= 1
            if depth == 0:
                return text[open_ + 1:i]
    return None


def _magnitude(expr: str) -> float | None:
    """log10 of a plain numeric expression (``10``, ``2^{64}``, ``10^{10^9}``); ``None`` if not plain."""
    e = expr.strip().strip("{}()").strip()
    if regex.fullmatch(r"[0-9]+(?:\.[0-9]+)?", e, timeout=REGEX_TIMEOUT_S):
        return math.log10(max(float(e[:300]) if len(e) <= 300 else 10.0 ** len(e), 1.0)) if len(e) <= 300 else float(len(e))
    m = regex.fullmatch(r"\{?\(?([0-9]+(?:\.[0-9]+)?)\)?\}?\s*(?:\^|\*\*)\s*(.+)", e, regex.DOTALL, timeout=REGEX_TIMEOUT_S)
    if m:
        base, exponent = _magnitude(m[1]), _magnitude(m[2])
        if base is None or exponent is None:
            return None
        if exponent > 300:
            return float("inf")
        return base * 10.0 ** exponent
    return None


def _large_powers(text: str, config: VerifierConfig) -> str | None:
    """A power whose value (or symbolic expansion) is too large, whatever brackets hide the base."""
    for m in regex.finditer(r"(?:\^|\*\*)\s*", text, timeout=REGEX_TIMEOUT_S):
        k = m.end()
        if k >= len(text):
            break
        exponent = _group_after(text, k) if text[k] in "{(" else regex.match(r"[0-9]+", text[k:], timeout=REGEX_TIMEOUT_S)
        if exponent is None:
            continue
        exponent = exponent if isinstance(exponent, str) else exponent[0]
        size = _magnitude(exponent)  # log10 of the exponent
        if size is None:
            continue
        before = m.start() - 1
        while before >= 0 and text[before] == " ":
            before -= 1
        if before < 0:
            continue
        if text[before] in ")}]":
            group = _group_before(text, before)
            base = group[1] if group else ""
        else:
            digits = regex.search(r"[0-9.]+$", text[:before + 1], timeout=REGEX_TIMEOUT_S)
            base = digits[0] if digits else text[before]
        base_size = _magnitude(base)
        if base_size is None:  # a symbolic base: (x+1)^{10^6} is a huge expansion
            if size > 3:
                return f"power with exponent {exponent!r} on a symbolic base is too large to compare safely"
            continue
        if base_size > 0 and size < 300 and base_size * 10.0 ** size > config.max_digits:
            return f"power with exponent {exponent!r} has more than {config.max_digits} digits (limit max_digits)"
        if base_size > 0 and size >= 300:
            return f"power with exponent {exponent!r} is too large to compare"
    return None


_FACTORIAL_CHAIN_RE = regex.compile(r"(?<![0-9.])([0-9]{1,6})\s*!((?:\s*!)+)")


def _symbolic(arg: str) -> bool:
    """Whether an argument holds a variable: a Latin letter outside a macro's name, or a Greek letter's macro (named
    as Unicode names the letter; \\pi is a constant, not a variable)."""
    if _LATIN_RE.search(_MACRO_NAME_RE.sub(" ", arg, timeout=REGEX_TIMEOUT_S), timeout=REGEX_TIMEOUT_S):
        return True
    for name in _MACRO_NAME_RE.findall(arg, timeout=REGEX_TIMEOUT_S):
        try:
            if name[1:] != "pi" and unicodedata.lookup(f"GREEK SMALL LETTER {name[1:].upper()}"):
                return True
        except KeyError:
            continue
    return False


def _argument_bound(arg: str) -> float:
    """An upper bound of a factorial's or gamma function's argument: the product of its numbers where it multiplies
    ("1000 \\cdot 1000" is no small argument though each number is), else their sum; unbounded with a power, a root,
    a factorial or a macro other than a product's or a fraction's."""
    if _symbolic(arg):
        return 0.0  # "\\Gamma(\\alpha)", "(n + 1)!", "\\Gamma(x^{1000})": sympy keeps a symbol's gamma unevaluated
    rest = _BOUNDED_MACRO_RE.sub(" ", arg, timeout=REGEX_TIMEOUT_S)  # a fraction is at most its numerator
    if "^" in rest or "!" in rest or "\\" in rest:
        return math.inf
    numbers = [min(_int(d), 10**9) for d in _DIGITS_RE.findall(arg, timeout=REGEX_TIMEOUT_S)]
    if _PRODUCT_RE.search(arg, timeout=REGEX_TIMEOUT_S):
        return math.prod(max(n, 1) for n in numbers)
    return sum(numbers)


def _large_factorials(text: str, config: VerifierConfig) -> str | None:
    """Factorials of large numbers, of powers, or of other factorials (``((4!)!)!``)."""
    for m in _FACTORIAL_NUM_RE.finditer(text, timeout=REGEX_TIMEOUT_S):
        if m.start() > 0 and text[m.start() - 1] in "^_":
            continue  # 10^{10}! is handled as a group below; x^2! is 2!
        if _int(m[1]) > config.max_factorial:
            return f"factorial of {m[1][:20]} is too large to evaluate (limit max_factorial={config.max_factorial})"
    for m in _FACTORIAL_CHAIN_RE.finditer(text, timeout=REGEX_TIMEOUT_S):  # "11!!!" is read as ((11!)!)!
        value = _int(m[1])
        for _ in range(1 + m[2].count("!")):
            if value > config.max_factorial:
                return f"factorial of a factorial ({m[0][:20]!r}) is too large to evaluate"
            value = math.factorial(value)
    for m in regex.finditer(r"[)}\]]\s*!", text, timeout=REGEX_TIMEOUT_S):
        group = _group_before(text, m.start())
        if group is None:
            continue
        start, inner = group
        power_base = regex.search(r"[0-9)}]\s*\^\s*$", text[:start], timeout=REGEX_TIMEOUT_S)
        if power_base:  # 10^{10}!: the factorial of a power
            return f"factorial of a power ({text[max(0, start - 20):m.end()]!r}) is too large to evaluate"
        if "!" in inner:
            nested = regex.fullmatch(r"\s*([0-9]+)\s*!\s*", inner, timeout=REGEX_TIMEOUT_S)
            if not nested or _int(nested[1]) > 6:  # (3!)! = 720 is fine, (4!)! = 24! is fine, ((4!)!)! is not
                if not nested or math.factorial(min(_int(nested[1]), 20)) > config.max_factorial:
                    return f"factorial of a factorial ({inner[:40]!r}) is too large to evaluate"
        if regex.search(r"[A-Za-z]", regex.sub(r"\\[A-Za-z]+", "", inner, timeout=REGEX_TIMEOUT_S), timeout=REGEX_TIMEOUT_S):
            continue  # symbolic, e.g. (n+1)!
        if _argument_bound(inner) > config.max_factorial:
            return f"factorial of ({inner[:40]}) may be too large to evaluate (limit max_factorial={config.max_factorial})"
    return None


def unsafe_reason(text: str, config: VerifierConfig) -> str | None:
    """A sentence saying why ``text`` must not reach sympy, or ``None`` when it may."""
    if len(text) > config.max_answer_chars:
        return f"answer is {len(text)} characters long (limit max_answer_chars={config.max_answer_chars})"
    depth = _nesting_depth(text)
    if depth > config.max_nesting:
        return f"answer nests brackets {depth} deep (limit max_nesting={config.max_nesting})"
    longest = max((len(m) for m in _DIGITS_RE.findall(text, timeout=REGEX_TIMEOUT_S)), default=0)
    if longest > min(config.max_digits, 4000):
        return f"answer has a {longest}-digit number (limit max_digits={min(config.max_digits, 4000)})"
    if _exponent_depth(text) >= 3:
        return "answer is an exponent tower three or more levels high; too large to compare safely"
    reason = _large_powers(text, config) or _large_factorials(text, config)
    if reason:
        return reason
    if "Gamma" in text:
        for m in _GAMMA_RE.finditer(text, timeout=REGEX_TIMEOUT_S):  # \Gamma(n) is (n - 1)!: the factorial's limit holds
            arg = _group_after(text, m.end())
            if arg is None or _argument_bound(arg) > config.max_factorial:
                return f"gamma function of {(arg or text[m.end():])[:40]!r} may be too large to evaluate " \
                       f"(limit max_factorial={config.max_factorial})"
    for m in _BINOM_RE.finditer(text, timeout=REGEX_TIMEOUT_S):
        for arg in (m[1], m[2]):
            if "^" in arg or "!" in arg or any(_int(d) > 100 * config.max_factorial for d in _DIGITS_RE.findall(arg, timeout=REGEX_TIMEOUT_S)):
                return f"binomial with argument {arg[:40]!r} is too large to evaluate"
    return None


# an operator with no operand beside a bracket or at the end: "( * )", "7 ^8^", "(x+)"
_DANGLING_OPERATOR_RE = regex.compile(r"(?:^|[(\[{,])\s*[*/^]|[-+*/^]\s*[)\]]|[-+*/^=]\s*$")
# a fraction and a number side by side: "\frac{1}{2} 12" (a mixed number puts the whole part first)
_FRACTION_THEN_NUMBER_RE = regex.compile(r"\\frac\s*\{[^{}]*\}\s*\{[^{}]*\}\s+[0-9]")


def malformed_reason(text: str) -> str | None:
    """Why a (normalised) answer is not well-formed mathematics, or ``None``.

    math-verify parses leniently: it drops what it cannot read and grades what is left, so
    ``。 ( 22 ^8^ ( * ) 3+4=7`` would be graded as 7 and ``= \\frac{1}{2} 12`` as 12. Such text is
    refused here instead, before the sandbox sees it. Intervals such as ``[0, 1)`` are balanced.
    """
    depth = 0
    for c in text:  # French intervals (]0, 1[) were rewritten as (0, 1) by normalisation
        depth += 1 if c in "([" else -1 if c in ")]" else 0
        if depth < 0:
            return "answer closes a bracket before opening one; it is not well-formed"
    if depth:
        return f"answer leaves {depth} bracket(s) open; it is not well-formed"
    if text.count("{") != text.count("}"):
        return "answer has unbalanced braces { }; it is not well-formed"
    m = _DANGLING_OPERATOR_RE.search(text, timeout=REGEX_TIMEOUT_S)
    if m:
        return f"answer has an operator without an operand ({m[0].strip()!r}); it is not well-formed"
    if _FRACTION_THEN_NUMBER_RE.search(text, timeout=REGEX_TIMEOUT_S):
        return "answer puts a fraction and a number side by side; write one value"
    return None

