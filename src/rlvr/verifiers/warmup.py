"""A worker's warm-up: read a few completions of every common shape before reporting ready.

The readers compile regular expressions and fill vocabulary tables on first use. Without this, the
first rows a fresh worker reads (the first step of a run, or the rows after a worker was restarted)
pay those one-time costs against their own CPU budget. Measured in one process on the 800 Qwen2.5-Math
outputs of ``benchmarks/verifier_bench.py``: the first 50 rows cost 1.9 CPU-ms each unwarmed, 1.3 warmed;
on the whole set a worker's task fell from 1.20 to 0.90 CPU-ms per row. The warm-up itself costs a
worker about 0.4 CPU-s at start, beside pint's 0.5. The texts below are written for this; they cover the slots (boxes, answer lines, GSM8K's
``####``, tags, option letters, other languages), units, currencies, recaps after a box and hedges.
Caches are cleared afterwards, so no verdict depends on having been warmed.
"""

from __future__ import annotations

from typing import Any, Callable

# (completion, gold): each exercises readers the others do not
SAMPLES: tuple[tuple[str, str], ...] = (
    ("We expand $(x+1)^2 = x^2 + 2x + 1$, so the answer is $\\boxed{x^2+2x+1}$.", "(x+1)^2"),
    ("<think>\n7 * 6 = 42\n</think>\nThe total is 42 apples.\n\nAnswer: 42", "42"),
    ("Natalia sold 48/2 = <<48/2=24>>24 clips in May.\n#### 72", "72"),
    ("Each side is $\\frac{3}{4}$ m, so the area is \\boxed{\\dfrac{9}{16}\\text{ m}^2}. "
     "That is about 0.56 square meters.", "\\frac{9}{16}"),
    ("**Final Answer:** The correct option is (C).", "C"),
    ("Решение: 6 * 7 = 42.\nОтвет: 42 яблока.", "42"),
    ("由题意得 $x=3$。\n答：共有42个苹果。故选C", "42"),
    ("The roots are $x = 2$ or $x = -3$, so $\\boxed{2, -3}$.", "-3, 2"),
    ("The solution set is $\\boxed{(-1, 1]}$, i.e. $\\{x \\mid -1 < x \\le 1\\}$.", "(-1, 1]"),
    ("She pays \\$1,250.50 in total, which is 25\\% of the price. The answer is $\\boxed{\\$1{,}250.50}$.",
     "1250.5"),
    ("It could be 41 or 42; I think it is \\boxed{41}. Wait, no: recounting gives \\boxed{42}.", "42"),
    ("Let $f(z) = z^2$. Then $f'(z)=2z$ and the maximum is $\\boxed{\\sqrt{2}\\pi}$ (approximately 4.44).",
     "\\pi\\sqrt{2}"),
    ("The point is $\\left( 3, \\frac{\\pi}{2} \\right)$.\n\nFinal answer: $x=\\boxed{3}$, $y=\\boxed{4}$", "(3, 4)"),
    ("<answer>\\boxed{12 \\text{ sheep}}</answer>", "12"),
    ("The speed is 60 km/h, so the trip takes $\\boxed{2.5\\ \\text{hours}}$, or 150 minutes.", "2.5"),
    ("Therefore, the final answer is: $\\boxed{1\\,000\\,000}$. I hope it is correct.", "10^6"),
)


def warm(config: Any, compare: Callable, clear: Callable[[], None]) -> None:
    """Verify :data:`SAMPLES` under ``config`` with ``compare``, then ``clear()`` every cache."""
    from rlvr.verifiers.rows import verify_row

    for completion, gold in SAMPLES:
        verify_row(completion, gold, config, compare)
    clear()
