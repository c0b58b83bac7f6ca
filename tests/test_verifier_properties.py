"""Property-based checks of the verifier (hypothesis): reflexivity, symmetry, robustness."""

from __future__ import annotations

import time
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rlvr.verifiers.sandbox import RETRY_FACTOR
from rlvr.verifiers import VerifierConfig, verify

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

integers = st.integers(min_value=-10**12, max_value=10**12).map(str)
decimals = st.decimals(min_value=-10**6, max_value=10**6, places=4, allow_nan=False, allow_infinity=False).map(
    lambda d: format(d, "f"))
fractions = st.tuples(st.integers(-999, 999), st.integers(1, 999)).map(lambda t: f"\\frac{{{t[0]}}}{{{t[1]}}}")
numbers = st.one_of(integers, decimals, fractions)
polynomials = st.lists(st.integers(-9, 9), min_size=1, max_size=4).map(
    lambda cs: "+".join(f"{c}x^{{{i}}}" for i, c in enumerate(cs)).replace("+-", "-"))


@SETTINGS
@given(numbers)
def test_a_number_verifies_against_itself(x):
    assert verify(f"\\boxed{{{x}}}", x).correct


@SETTINGS
@given(polynomials)
def test_an_expression_verifies_against_itself(p):
    v = verify(f"\\boxed{{{p}}}", p)
    assert v.correct, v


def _value(s: str) -> Fraction:
    if s.startswith("\\frac"):
        a, b = s[6:-1].split("}{")
        return Fraction(int(a), int(b))
    return Fraction(s)


@SETTINGS
@given(numbers, numbers)
def test_numeric_equivalence_is_symmetric_and_exact(a, b):
    forward, backward = verify(f"\\boxed{{{a}}}", b), verify(f"\\boxed{{{b}}}", a)
    assert forward.correct == backward.correct
    assert forward.correct == (_value(a) == _value(b))


LATEX_NOISE = st.lists(st.sampled_from([
    "\\frac", "{", "}", "\\sqrt", "^", "_", "\\left(", "\\right)", "\\boxed{", "\\text{", "x", "1", "0", "9", "+", "-",
    "\\cdot", "\\pi", "!", "\\binom", "(", ")", "[", "]", "\\{", "\\}", ",", "=", "<think>", "</think>", "<answer>",
    "</answer>", "Answer:", "$", "\\\\", "&", "\\begin{pmatrix}", "\\end{pmatrix}", "%", "\\infty", " ", "\n", "or",
]), max_size=60).map("".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LATEX_NOISE, st.sampled_from(["1", "x+1", "\\frac{1}{2}", "(1,2)"]))
def test_latex_noise_never_raises_or_hangs(text, gold):
    v = verify(text, gold, VerifierConfig(timeout_s=1.0))
    assert v.elapsed_s <= 1.0 * (1 + RETRY_FACTOR) + 0.5  # the row's CPU: its budget and one retry, whatever the text
    assert v.status in ("correct", "incorrect", "no_answer", "unparseable_answer", "unparseable_gold", "timeout")


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=300), st.binary(max_size=200))
def test_random_text_and_bytes_never_raise(text, raw):
    for completion in (text, raw.decode("utf-8", "replace"), "\\boxed{" + text + "}"):
        v = verify(completion, "7")
        assert v.elapsed_s <= VerifierConfig().timeout_s * (1 + RETRY_FACTOR) + 0.5
        assert v.reason
