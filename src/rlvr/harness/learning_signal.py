"""Did a GRPO run have anything to learn from? Read from its logged steps.

GRPO learns from differences within a group: when every completion of each prompt earns the same
reward (TRL logs ``frac_reward_zero_std`` = 1), every advantage is 0 and the step changes nothing.
A run where that held for every logged step had no learning signal at all; the end of ``rlvr train``
and the HTML report both say so, with the likely causes, instead of leaving a flat 0% -> 0% unexplained.
"""

from __future__ import annotations

from typing import Any

__all__ = ["learning_signal", "no_signal_summary", "truncation_summary", "TRUNCATED"]

FLAT = 0.999  # frac_reward_zero_std at or above this: every group's rewards were equal
TRUNCATED = 0.5  # completions/clipped_ratio above this: most completions were cut at max_completion_length


def learning_signal(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """``{logged_steps, flat_steps, none}`` from a run's logged steps (metrics rows); None when the run
    logged no ``frac_reward_zero_std`` (nothing to judge)."""
    steps = [r for r in rows if isinstance(r.get("frac_reward_zero_std"), (int, float))]
    if not steps:
        return None
    flat = sum(1 for r in steps if r["frac_reward_zero_std"] >= FLAT)
    return {"logged_steps": len(steps), "flat_steps": flat, "none": flat == len(steps)}


def no_signal_summary(rows: list[dict[str, Any]], reward_names: list[str]) -> str | None:
    """The warning for a run with no learning signal in any logged step (None when it had some)."""
    from rlvr.harness.run_log import no_signal_message

    signal = learning_signal(rows)
    if signal is None or not signal["none"]:
        return None
    last = [r for r in rows if isinstance(r.get("frac_reward_zero_std"), (int, float))][-1]
    why = no_signal_message(last, reward_names, signal["logged_steps"]).split("Likely: ", 1)[-1]
    return (f"no learning signal: in all {signal['logged_steps']} logged GRPO steps every group's rewards were "
            f"equal, so every advantage was 0 and GRPO did not change the model. Likely: {why}")


def truncation_summary(rows: list[dict[str, Any]], max_completion_length: int | None = None) -> str | None:
    """The warning for a run where most completions hit ``max_completion_length`` (TRL logs the share
    as ``completions/clipped_ratio``; its ``clip_ratio/*`` is policy-ratio clipping, a different thing),
    over all its logged steps; None when most were not cut."""
    shares = [r["completions/clipped_ratio"] for r in rows if isinstance(r.get("completions/clipped_ratio"), (int, float))]
    if not shares:
        return None
    mean = sum(shares) / len(shares)
    if mean <= TRUNCATED:
        return None
    limit = f" ({max_completion_length} tokens)" if max_completion_length else ""
    spread = f"{min(shares):.0%}–{max(shares):.0%} per step" if min(shares) != max(shares) else "in every step"
    return (f"most completions were truncated: {mean:.0%} of them hit trainer.max_completion_length{limit} over "
            f"{len(shares)} logged steps ({spread}). A cut completion ends before its final answer, so answer rewards "
            "read none; raise trainer.max_completion_length, or set trainer.mask_truncated_completions=true to leave "
            "cut completions out of the loss")
