"""The anchor every verifier benchmark compares rlvr with: math-verify's own verdict on one pair.

One definition, so the benchmarks' math-verify columns mean the same thing: the gold parsed boxed
(as a grader is fed a reference answer; a gold that is already boxed or does not parse boxed is
parsed as given), the text parsed as is, default ``verify``. An exception inside math-verify counts
as "not equal", as its callers score it.
"""

from __future__ import annotations


def math_verify_equal(gold: str, text: str) -> bool:
    """math-verify 0.9's verdict: does ``text`` answer ``gold``?"""
    from math_verify import parse, verify

    try:
        parsed_gold = parse(gold if "\\boxed" in gold else "\\boxed{" + gold + "}")
        if not parsed_gold or all(isinstance(p, str) for p in parsed_gold):
            parsed_gold = parse(gold)
        return bool(verify(parsed_gold, parse(text)))
    except Exception:  # math-verify raises on some inputs
        return False
