"""``rlvr train``: a GRPO run from a recipe, end to end.

Plan: resolve the config and save it (with package versions and the reward-config hash) -> load data
with the recipe's template -> load or build the policy -> optional supervised cold start on worked
solutions -> evaluate -> GRPO with the RewardSet on TRL's GRPOTrainer (checkpoints every N steps;
``--resume`` continues from the last) -> save the adapter/model -> evaluate again -> write
metrics JSONL, sampled completions with reward reasons, and a reward-curve PNG.
"""

from __future__ import annotations

import contextlib
import json
import logging
import platform
import time
import warnings
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import yaml

from rlvr.errors import ConfigError
from rlvr.harness.checkpoints import last_checkpoint, resume_point
from rlvr.harness.config import RunConfig, to_dict
from rlvr.harness.run_log import plot_reward_curve, run_logger

logger = logging.getLogger(__name__)

__all__ = ["run", "plan", "RunSummary", "last_checkpoint", "quiet"]


@dataclass
class RunSummary:
    run_dir: str
    backend: str
    steps: int
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    reward_means: dict[str, float]
    seconds: float
    no_signal: str | None = None  # the warning when no logged step had any learning signal
    truncated: str | None = None  # the warning when most completions hit max_completion_length


def reward_config(rs: Any) -> list[dict[str, Any]]:
    """Each reward the run trains on with its weight, gate and every parameter as it took effect
    (defaults filled in): what ``rewards.json`` records and the report shows."""
    out = []
    for name, weight, func, spec in zip(rs.names, rs.weights, rs.funcs, rs.specs):
        params = func.params() if hasattr(func, "params") else dict(spec.params)
        out.append({"name": name, "reward": spec.name, "weight": weight, "gate": spec.gate,
                    "params": {k: v for k, v in params.items() if k not in ("gate", "gate_min", "gate_fail_value")}})
    return out


def library_versions() -> dict[str, str]:
    """Versions of Python and the training stack, recorded with every run for reproducibility."""
    out = {"python": platform.python_version()}
    for pkg in ("rlvr", "torch", "transformers", "trl", "peft", "accelerate", "datasets", "math-verify", "sympy"):
        try:
            out[pkg] = version(pkg)
        except PackageNotFoundError:
            out[pkg] = "not installed"
    return out


def _reward_set(config: RunConfig) -> Any:
    from rlvr.rewards import RewardSet

    spec = config.rewards if isinstance(config.rewards, dict) else {"rewards": config.rewards}
    return RewardSet.from_config(spec)


def plan(config: RunConfig) -> dict[str, Any]:
    """What a run would do, without loading weights or data."""
    from rlvr.harness.backends import pick_backend

    backend, why = pick_backend(config)
    rs = _reward_set(config)
    t = config.trainer
    return {
        "backend": backend, "backend_reason": why,
        "model": config.model.name_or_path + (" (built locally, no download)" if config.model.name_or_path == "local-tiny" else ""),
        "adapter": f"LoRA r={config.model.lora.r} alpha={config.model.lora.alpha} on {config.model.lora.target_modules}"
                   if config.model.lora.enabled else "full fine-tune",
        "data": f"{config.data.name}" + (f" from {config.data.path}" if config.data.path else "")
                + f", template {config.data.template if isinstance(config.data.template, str) else 'custom'}",
        "cold_start": f"{config.cold_start.steps} SFT steps" if config.cold_start.enabled else "off",
        "rewards": [f"{n} x{w:g}" for n, w in zip(rs.names, rs.weights)], "reward_config_hash": rs.config_hash(),
        "grpo": f"{t.max_steps} steps, {t.per_device_train_batch_size // t.num_generations} prompts x "
                f"{t.num_generations} generations per step, loss {t.loss_type}, lr {t.learning_rate:g}",
        "eval": f"{config.eval.n} problems of {config.eval.name}, {config.eval.samples} sample(s)" if config.eval.enabled else "off",
        "output": config.output.dir,
    }


def load_run_data(config: RunConfig) -> tuple[Any, Any]:
    """The run's training set and its held-out evaluation set, as the config's ``data``/``eval`` name them."""
    from rlvr.datasets import load

    d = config.data
    train = load(d.name, path=d.path, template=d.template, on_bad_gold=d.on_bad_gold, limit=d.limit, **d.options)
    evalset = None
    if config.eval.enabled:
        e = config.eval
        options = dict(e.options)
        if e.name == "synthetic":
            options.setdefault("n", e.n)
            for key in ("level", "kinds", "seed"):  # the held-out split of the training distribution
                if key in d.options and key not in options:
                    options[key] = d.options[key]
        evalset = load(e.name, path=e.path, template=d.template, **options)
        evalset = evalset.select(range(min(e.n, len(evalset))))
    return train, evalset


def _corpus(config: RunConfig, train: Any, evalset: Any) -> list[str]:
    from rlvr.datasets import get_template

    template = get_template(config.data.template)
    texts = [m["content"] for row in train.select(range(min(len(train), 5000)))["prompt"] for m in row]
    if "reasoning" in train.column_names:
        texts += [template.format_solution(r, a) for r, a in zip(train["reasoning"][:5000], train["answer"][:5000])]
    if evalset is not None:
        texts += [m["content"] for row in evalset["prompt"] for m in row]
    return texts


def _filter_prompts(config: RunConfig, train: Any, tokenizer: Any) -> Any:
    from rlvr.datasets import filter_prompt_length

    limit = config.trainer.max_prompt_length
    if config.data.length_quantile is None and limit is None:
        return train
    kept, cutoff = filter_prompt_length(train, tokenizer, quantile=config.data.length_quantile, max_tokens=limit)
    if len(kept) == 0:
        raise ConfigError(f"no training prompt fits in {cutoff} tokens; raise trainer.max_prompt_length")
    return kept


def _cold_start(config: RunConfig, model: Any, tokenizer: Any, train: Any, out_dir: Path) -> Any:
    """Supervised warm-up on worked solutions with TRL's SFTTrainer (completion-only loss)."""
    import torch
    from datasets import Dataset
    from trl import SFTConfig, SFTTrainer

    from rlvr.harness.sft import worked_solution_rows

    c = config.cold_start
    rows = worked_solution_rows(config, train, c.examples)
    cuda = torch.cuda.is_available()
    args = SFTConfig(output_dir=str(out_dir / "tmp"), max_steps=c.steps, per_device_train_batch_size=c.batch_size,
                     learning_rate=c.learning_rate, lr_scheduler_type="cosine", warmup_steps=0.05, logging_steps=max(1, c.steps // 10),
                     save_strategy="no", report_to=[], use_cpu=not cuda, bf16=cuda, seed=config.trainer.seed,
                     max_length=config.model.max_seq_length, completion_only_loss=True, disable_tqdm=True,
                     **no_activation_checkpointing(SFTConfig))
    trainer = SFTTrainer(model=model, args=args, train_dataset=Dataset.from_list(rows), processing_class=tokenizer)
    quiet(trainer)
    trainer.train()
    losses = [h["loss"] for h in trainer.state.log_history if "loss" in h]
    logger.info("cold start: %d steps, loss %.3f -> %.3f", c.steps, losses[0] if losses else float("nan"),
                losses[-1] if losses else float("nan"))
    from rlvr.harness.distributed import process_state

    if process_state().is_main_process:
        trainer.model.save_pretrained(out_dir)
        tokenizer.save_pretrained(out_dir)
    process_state().wait_for_everyone()
    from transformers import AutoModelForCausalLM

    # reloaded from disk: a LoRA adapter trained on top records this folder as its base model
    return AutoModelForCausalLM.from_pretrained(out_dir)


def quiet(trainer: Any) -> Any:
    """Drop transformers' console callbacks that dump raw log dicts (rlvr logs compact lines instead)."""
    from transformers.trainer_callback import PrinterCallback, ProgressCallback

    for noisy in (PrinterCallback, ProgressCallback):
        trainer.remove_callback(noisy)
    return trainer


@contextlib.contextmanager
def library_deprecations_silenced() -> Any:
    """Silence the deprecations that libraries raise about each other (PEFT reads transformers'
    ``is_gradient_checkpointing``); rlvr's own options use the names the installed versions know."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"`is_gradient_checkpointing` is deprecated", category=FutureWarning)
        yield


def no_activation_checkpointing(config_cls: Any) -> dict[str, bool]:
    """Checkpointing off under the name this transformers knows: ``activation_checkpointing`` from
    5.2x, ``gradient_checkpointing`` before (unsloth's stack pins transformers <= 5.17, which rejects
    the new name; the new one warns about the old)."""
    import dataclasses

    names = {f.name for f in dataclasses.fields(config_cls)}
    return {"activation_checkpointing": False} if "activation_checkpointing" in names else {"gradient_checkpointing": False}


def _grpo_args(config: RunConfig, run_dir: Path, weights: list[float]) -> Any:
    """TRL's GRPOConfig for this run: the recipe's trainer section, checkpoints under the run folder."""
    import torch

    from rlvr.harness.trainer_settings import grpo_config

    return grpo_config(config.trainer, str(run_dir / "checkpoints"), weights, torch.cuda.is_available(),
                       config.model.dtype)


def _time_budget(minutes: float) -> Any:
    """A callback that ends training (saving a checkpoint) once ``minutes`` of it have passed."""
    from transformers import TrainerCallback

    class TimeBudget(TrainerCallback):
        def on_train_begin(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
            self.started = time.monotonic()

        def on_step_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
            if time.monotonic() - self.started >= minutes * 60:
                logger.info("time budget of %g min reached at step %d; stopping", minutes, state.global_step)
                control.should_training_stop = True
                control.should_save = True

    return TimeBudget()


def _agreed_path(dist: Any, path: Path) -> Path:
    """The run folder rank 0 chose, on every process (a later rank could otherwise see rank 0's fresh
    folder and pick the next free name)."""
    if dist.num_processes <= 1:
        return path
    from accelerate.utils import broadcast_object_list

    chosen = [str(path)]
    broadcast_object_list(chosen, from_process=0)
    return Path(chosen[0])


def _finished_summary(run_dir: Path, config: RunConfig) -> RunSummary | None:
    """The summary of a run that already reached ``max_steps`` (so ``--resume`` leaves it alone)."""
    try:
        data = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
        summary = RunSummary(**data)
    except (OSError, ValueError, TypeError):
        return None
    return summary if summary.steps >= config.trainer.max_steps else None


def run(config: RunConfig, resume: bool = False) -> RunSummary:
    """Train and evaluate as the recipe says; returns the summary (also written to summary.json)."""
    import torch
    from trl import GRPOTrainer

    from rlvr.harness.backends import load_policy, pick_backend
    from rlvr.harness.evaluate import evaluate

    from rlvr.harness.distributed import process_state

    dist = process_state()  # one process unless started by `accelerate launch` (DDP / DeepSpeed; gloo on CPU)
    started = time.perf_counter()
    run_dir = Path(config.output.dir).expanduser().resolve()
    finished = _finished_summary(run_dir, config) if resume else None
    if finished is not None:
        logger.info("%s is complete (%d of %d steps, summary.json written); nothing to resume", run_dir,
                    finished.steps, config.trainer.max_steps)
        return finished
    run_dir, checkpoint = resume_point(run_dir, resume)
    run_dir = _agreed_path(dist, run_dir)  # every process writes into the folder rank 0 chose
    from rlvr.harness.threads import configure_threads

    configure_threads(config.runtime)
    backend, why = pick_backend(config)
    logger.info("backend %s: %s", backend, why)
    rs = _reward_set(config)
    if dist.is_main_process:
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / "config.yaml").write_text(yaml.safe_dump(to_dict(config), sort_keys=False))
        (run_dir / "versions.json").write_text(json.dumps({**library_versions(), "reward_config_hash": rs.config_hash(),
                                                          "processes": dist.num_processes}, indent=2))
        (run_dir / "rewards.json").write_text(json.dumps(reward_config(rs), indent=2, default=str))
    dist.wait_for_everyone()
    torch.manual_seed(config.trainer.seed)

    train, evalset = load_run_data(config)
    logger.info("data: %d training rows, %s eval rows", len(train), len(evalset) if evalset is not None else 0)
    cold_dir = run_dir / "cold_start"
    base_dir = cold_dir if (checkpoint is not None or resume) and (cold_dir / "config.json").is_file() else None
    model, tokenizer, peft_config = load_policy(config, backend, _corpus(config, train, evalset), run_dir, base_dir)
    train = _filter_prompts(config, train, tokenizer)
    if config.cold_start.enabled and base_dir is None:
        model = _cold_start(config, model, tokenizer, train, cold_dir)

    max_new = config.eval.max_new_tokens or config.trainer.max_completion_length
    before = None
    if evalset is not None:
        before_path = run_dir / "eval_before.json"
        if before_path.is_file():
            before = json.loads(before_path.read_text())
        elif not dist.is_main_process:
            pass  # rank 0 evaluates; the others wait for it at the next barrier
        else:
            result = evaluate(model, tokenizer, evalset, max_new, config.eval.samples, config.eval.batch_size,
                              temperature=config.eval.temperature, out_path=run_dir / "eval_before.jsonl")
            before = result.summary()
            before_path.write_text(json.dumps(before, indent=2))
        if before is not None:  # rank 0's (the other ranks wait for it)
            from rlvr.harness.evaluate import summary_line

            logger.info("before GRPO: %s", summary_line(before))

    args = _grpo_args(config, run_dir, rs.weights)
    trainer_cls = GRPOTrainer
    if config.trainer.dynamic_sampling.enabled:
        from rlvr.harness.dynamic_sampling import dynamic_sampling_trainer

        trainer_cls = dynamic_sampling_trainer(GRPOTrainer, config.trainer.dynamic_sampling.max_gen_batches,
                                               config.trainer.seed)
    with library_deprecations_silenced():
        trainer = trainer_cls(model=model, processing_class=tokenizer, reward_funcs=rs.funcs, args=args,
                              train_dataset=train, peft_config=peft_config,
                              callbacks=[run_logger(run_dir, rs, config.output.sample_completions)]
                              + ([_time_budget(config.trainer.max_minutes)] if config.trainer.max_minutes else []))
        quiet(trainer)
        if checkpoint is not None:
            logger.info("resuming from %s", checkpoint)
        trainer.train(resume_from_checkpoint=str(checkpoint) if checkpoint else None)
    final_dir = run_dir / "final"
    trainer.save_model(str(final_dir))  # the Trainer saves from rank 0 only
    policy = trainer.model
    if dist.is_main_process:
        tokenizer.save_pretrained(final_dir)
        if config.output.save_merged and peft_config is not None:
            policy.merge_and_unload().save_pretrained(run_dir / "merged")
            tokenizer.save_pretrained(run_dir / "merged")

    after = None
    if not dist.is_main_process:  # the run folder is rank 0's to finish
        dist.wait_for_everyone()
        return RunSummary(str(run_dir), backend, trainer.state.global_step, before, None, {},
                          round(time.perf_counter() - started, 1))
    if evalset is not None:
        result = evaluate(policy, tokenizer, evalset, max_new, config.eval.samples, config.eval.batch_size,
                          temperature=config.eval.temperature, out_path=run_dir / "eval_after.jsonl")
        after = result.summary()
        (run_dir / "eval_after.json").write_text(json.dumps(after, indent=2))
        from rlvr.harness.evaluate import summary_line

        logger.info("after GRPO: %s", summary_line(after))
    history = [h for h in trainer.state.log_history if "reward" in h]
    tail = history[-max(1, len(history) // 4):]
    means = {}
    for name in rs.names:  # a step where a reward failed or abstained throughout logs None for it
        logged = [h[f"rewards/{name}/mean"] for h in tail if isinstance(h.get(f"rewards/{name}/mean"), (int, float))]
        if logged:
            means[name] = sum(logged) / len(logged)
    if config.output.plot and (run_dir / "metrics.jsonl").is_file():
        plot_reward_curve(run_dir / "metrics.jsonl", run_dir / "reward_curve.png", rs.names)
    from rlvr.harness.learning_signal import no_signal_summary, truncation_summary

    no_signal = no_signal_summary(history, rs.names)  # the command prints it; the report shows it
    truncated = truncation_summary(history, config.trainer.max_completion_length)
    summary = RunSummary(str(run_dir), backend, trainer.state.global_step, before, after, means,
                         round(time.perf_counter() - started, 1), no_signal, truncated)
    (run_dir / "summary.json").write_text(json.dumps(summary.__dict__, indent=2))
    try:
        from rlvr.harness.report import write_report

        write_report([run_dir])
    except Exception:  # a report is a view of the run: it must never fail the run
        logger.warning("could not write %s/report.html", run_dir, exc_info=True)
    dist.wait_for_everyone()
    return summary
