"""What a GRPO run writes while it trains: per-step metrics (metrics.jsonl and the console), sampled
completions with every reward's reason (samples.jsonl), a no-learning-signal warning with its likely
causes, and the reward-curve PNG at the end. rlvr.harness.train wires these into TRL's trainer."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

from rlvr.chat import completion_text, messages_as_text
from rlvr.harness.learning_signal import TRUNCATED

logger = logging.getLogger(__name__)

__all__ = ["run_logger", "plot_reward_curve", "no_signal_message", "truncated_message", "NO_SIGNAL_STEPS"]


def plot_reward_curve(metrics_path: Path, out: Path, names: list[str]) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        logger.info("matplotlib not installed: no reward curve")
        return
    rows = [json.loads(line) for line in metrics_path.read_text().splitlines() if line.strip()]
    rows = [r for r in rows if "reward" in r]
    if not rows:
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    steps = [r["step"] for r in rows]
    ax.plot(steps, [_finite(r["reward"]) for r in rows], label="total reward", linewidth=2)
    for name in names:
        key = f"rewards/{name}/mean"
        if any(key in r for r in rows):
            ax.plot(steps, [_finite(r.get(key)) for r in rows], label=name, alpha=0.7)
    ax.set_xlabel("GRPO step")
    ax.set_ylabel("mean reward")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def run_logger(run_dir: Path, reward_set: Any, samples: int) -> Any:
    from transformers import TrainerCallback

    metrics_path, samples_path = run_dir / "metrics.jsonl", run_dir / "samples.jsonl"

    class RunLogger(TrainerCallback):
        """Per-step metrics (rewards, verifier status rates, lengths, KL, clip ratio, step time) to
        metrics.jsonl and the console; a few completions with every reward's reason to samples.jsonl."""

        def __init__(self) -> None:
            self.step_start = time.perf_counter()

        def on_step_begin(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
            self.step_start = time.perf_counter()

        def on_step_end(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
            self.last_step_s = time.perf_counter() - self.step_start  # no progress bar: it would cut the log lines
            if not state.is_world_process_zero:
                return  # one writer for the run folder
            first = reward_set.funcs[0].last_call
            if not first or samples <= 0:
                return
            completions = first[0][:samples]
            with samples_path.open("a", encoding="utf-8") as fh:
                for i, completion in enumerate(completions):
                    per_reward = {}
                    for name, f in zip(reward_set.names, reward_set.funcs):
                        if f.last_call and i < len(f.last_call[1]):
                            r = f.last_call[1][i]
                            per_reward[name] = {"value": r.value, "status": r.status, "reason": r.reason}
                    try:
                        text = completion_text(completion)
                    except TypeError:
                        text = str(completion)
                    prompts = getattr(reward_set.funcs[0], "last_prompts", None)
                    prompt = prompts[i] if prompts is not None and i < len(prompts) else ""
                    prompt_text = prompt if isinstance(prompt, str) else messages_as_text(prompt or [])
                    fh.write(json.dumps({"step": state.global_step, "prompt": prompt_text, "completion": text,
                                         "rewards": per_reward}, ensure_ascii=False) + "\n")

        def on_log(self, args: Any, state: Any, control: Any, logs: dict[str, Any] | None = None, **kw: Any) -> None:
            if not logs or not state.is_world_process_zero:
                return  # TRL already reduced the metrics across processes; rank 0 writes them
            row = {"step": state.global_step, "step_time_s": round(getattr(self, "last_step_s", 0.0), 4), **logs}
            with metrics_path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(row, default=float) + "\n")
            if "frac_reward_zero_std" in logs:
                self.flat_steps = getattr(self, "flat_steps", 0) + 1 if (logs["frac_reward_zero_std"] or 0) >= 0.999 else 0
                if self.flat_steps >= NO_SIGNAL_STEPS and not getattr(self, "warned_no_signal", False):
                    self.warned_no_signal = True
                    logger.warning(no_signal_message(logs, reward_set.names, self.flat_steps))
            if "reward" in logs:
                parts = [f"step {state.global_step}",
                         f"reward {_number(logs['reward'], '.3f')}±{_number(logs.get('reward_std', 0), '.2f')}"]
                parts += [f"{n} {_number(logs[f'rewards/{n}/mean'], '.2f')}" for n in reward_set.names
                          if f"rewards/{n}/mean" in logs]
                statuses = {k.rsplit("/", 1)[-1]: v for k, v in logs.items() if "/status/" in k and v}
                bad = {k: v for k, v in statuses.items() if k in ("timeout", "no_answer", "unparseable_gold", "error")}
                if bad:
                    parts.append("status " + " ".join(f"{k}={_number(v, '.0%')}" for k, v in bad.items()))
                for key, label in (("completions/mean_length", "len"), ("kl", "kl"),
                                   ("clip_ratio/region_mean", "ratio clipped")):  # TRL's policy-ratio clipping
                    if key in logs:
                        parts.append(f"{label} {_number(logs[key], '.3g')}")
                cut = logs.get("completions/clipped_ratio")
                if cut is not None:  # completions cut at max_completion_length: a different "clip"
                    parts.append(f"truncated {_number(cut, '.0%')}")
                parts.append(f"{row['step_time_s']:.2f}s")
                logger.info(" | ".join(parts))
                if isinstance(cut, (int, float)) and cut > TRUNCATED and not getattr(self, "warned_truncated", False):
                    self.warned_truncated = True
                    logger.warning(truncated_message(cut, state.global_step, getattr(args, "max_completion_length", None)))

    return RunLogger()


def _finite(value: Any) -> float:
    """A logged metric for a plot: a gap (NaN) where it is None (every reward abstained or failed)."""
    return float(value) if isinstance(value, (int, float)) else float("nan")


def _number(value: Any, spec: str) -> str:
    """A logged metric as text: ``None`` (every reward abstained or failed: TRL logs no mean) and NaN
    say so instead of failing the format."""
    if value is None:
        return "None"
    try:
        return "nan" if value != value else format(value, spec)
    except (TypeError, ValueError):
        return str(value)


def truncated_message(share: float, step: int, max_completion_length: int | None) -> str:
    """The console's warning, once a run, when most completions of a step hit max_completion_length."""
    limit = f"={max_completion_length}" if max_completion_length else ""
    return (f"{share:.0%} of step {step}'s completions hit trainer.max_completion_length{limit} (truncated): they end "
            "before a final answer, so answer rewards read none. Raise trainer.max_completion_length, or set "
            "trainer.mask_truncated_completions=true to leave them out of the loss ('ratio clipped' is TRL's "
            "policy-ratio clipping, a different thing)")


NO_SIGNAL_STEPS = 5  # logged steps in a row where every group's rewards were all equal


def no_signal_message(logs: dict[str, Any], reward_names: list[str], steps: int) -> str:
    """Why GRPO has had no signal for ``steps`` steps (every group's rewards equal): the likely causes."""
    causes = []
    means = {n: logs.get(f"rewards/{n}/mean") for n in reward_names}
    reward = logs.get("reward") or 0.0  # None: every reward abstained or failed on the step
    if all(v is not None and v >= 0.999 * max(1e-9, reward) for v in means.values()) and reward > 0:
        causes.append("every completion earns the same full reward: the task is too easy for the model")
    flat = [n for n, v in means.items() if v is not None and abs(v) < 1e-9]
    if flat:
        causes.append(f"reward(s) {', '.join(flat)} are 0 for every completion: the format is never met or the "
                      "answers are never right (a cold start, an easier data set, or a format reward helps)")
    no_answer = next((v for k, v in logs.items() if k.endswith("/status/no_answer")), 0.0)
    if no_answer and no_answer > 0.5:
        causes.append(f"{no_answer:.0%} of completions have no final answer (check the prompt's answer-format "
                      "instruction against the rewards: rlvr data lint)")
    clipped = logs.get("completions/clipped_ratio")
    if clipped is not None and clipped > 0.5:
        causes.append(f"{clipped:.0%} of completions hit trainer.max_completion_length: raise it")
    if not causes:
        causes.append("all completions of each prompt score alike: raise trainer.temperature or num_generations")
    return (f"no learning signal for {steps} logged steps in a row (frac_reward_zero_std = 1: within every group "
            "all rewards are equal, so all advantages are 0). Likely: " + "; ".join(causes))
