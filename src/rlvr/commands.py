"""Handler of ``rlvr tour``, the one CLI subcommand that belongs to no single subpackage.

(It was ``rlvr demo``, a different thing from ``make demo``, which trains: ``rlvr train``.)
"""

from __future__ import annotations

import argparse

TOUR_CASES: tuple[tuple[str, str], ...] = (
    ("<think>Half of 1 is 0.5.</think> The answer is \\boxed{0.5}.", "\\frac{1}{2}"),
    ("<think>x^2+2x+1 factors.</think> \\boxed{(x+1)^2}", "x^2+2x+1"),
    ("<think>Maybe 5, maybe 7.</think> \\boxed{5} or \\boxed{7}", "7"),
    ("<think>I think it is 12 but I never finish", "12"),
    ("Answer: 1,000", "1000"),
    ("\\boxed{9^{9^{9^{9}}}}", "3"),
)


def tour(args: argparse.Namespace) -> int:
    """Verify a few built-in completions and print each verdict with its reason."""
    from rich.console import Console
    from rich.table import Table

    from rlvr.verifiers import verify_batch

    verdicts = verify_batch([c for c, _ in TOUR_CASES], [g for _, g in TOUR_CASES])
    table = Table(title="rlvr verify: built-in examples")
    for column in ("completion", "gold", "status", "reason"):
        table.add_column(column, overflow="fold")
    for (completion, gold), v in zip(TOUR_CASES, verdicts):
        table.add_row(completion, gold, v.status, v.reason)
    Console().print(table)
    return 0
