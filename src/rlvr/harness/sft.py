"""``rlvr sft`` and ``rlvr distill``: the supervised stages of an R1-style pipeline, with ``rlvr train``'s
run-folder conventions (config.yaml, versions.json, checkpoints every N steps, ``--resume``, final/,
summary.json, held-out evaluation before and after).

SFT trains on TRL's conversational prompt/completion rows with the loss on the completion only:
a set ``rlvr select`` made by rejection sampling, a teacher's verified outputs (distillation by
SFT), or, with no set given, the recipe data's worked solutions (R1's cold start). ``rlvr distill``
matches a teacher's token distribution (TRL's GKD trainer; teacher and student share a tokenizer).
Either writes a full model folder (``merged/`` for LoRA, else ``final/``) that the next stage loads.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from rlvr.errors import ConfigError
from rlvr.harness.config import RunConfig, to_dict

logger = logging.getLogger(__name__)

__all__ = ["SftSummary", "run_sft", "run_distill", "read_sft_rows", "worked_solution_rows"]


@dataclass
class SftSummary:
    run_dir: str
    model_dir: str
    steps: int
    rows: int
    loss_first: float | None
    loss_last: float | None
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    seconds: float


def _messages(value: Any, role: str, where: str) -> list[dict[str, str]]:
    if isinstance(value, str):
        return [{"role": role, "content": value}]
    if isinstance(value, list) and value and all(isinstance(m, dict) and "content" in m for m in value):
        return [{"role": m.get("role", role), "content": str(m["content"])} for m in value]
    raise ConfigError(f"{where}: expected text or a list of chat messages, got {str(value)[:60]!r}")


def read_sft_rows(path: str | Path, limit: int | None = None) -> list[dict[str, Any]]:
    """Prompt/completion chat rows from a JSONL file (``rlvr select`` writes them; ``messages`` rows,
    the last message being the answer, are accepted too)."""
    from rlvr.files import read_text
    from rlvr.jsonl import parse_jsonl

    rows = []
    for n, row in parse_jsonl(read_text(str(path), "SFT set"), str(path)):
        where = f"{path}:{n}"
        if not isinstance(row, dict):
            raise ConfigError(f"{where}: each row must be an object with prompt and completion")
        if "messages" in row and "completion" not in row:
            msgs = _messages(row["messages"], "user", where)
            if len(msgs) < 2 or msgs[-1]["role"] != "assistant":
                raise ConfigError(f"{where}: 'messages' must end with the assistant's answer")
            rows.append({"prompt": msgs[:-1], "completion": msgs[-1:]})
        elif "prompt" in row and "completion" in row:
            rows.append({"prompt": _messages(row["prompt"], "user", where),
                         "completion": _messages(row["completion"], "assistant", where)})
        else:
            raise ConfigError(f"{where}: a row needs 'prompt' and 'completion' (or 'messages'); has {sorted(row)}")
        if limit is not None and len(rows) >= limit:
            break
    if not rows:
        raise ConfigError(f"{path} holds no training rows")
    return rows


def worked_solution_rows(config: RunConfig, train: Any, limit: int | None) -> list[dict[str, Any]]:
    """SFT rows from a data set's worked solutions (its ``reasoning`` column), in the recipe's answer
    format: R1's cold start, and ``rlvr train``'s ``cold_start`` section."""
    from rlvr.datasets import get_template

    if "reasoning" not in train.column_names:
        raise ConfigError("supervised fine-tuning without sft.data needs worked solutions (a 'reasoning' column, "
                          "as synthetic data has); give sft.data (rlvr select writes one) for this data set")
    template = get_template(config.data.template)
    n = len(train) if limit is None else min(limit, len(train))
    return [{"prompt": p, "completion": [{"role": "assistant", "content": template.format_solution(r, a)}]}
            for p, r, a in zip(train["prompt"][:n], train["reasoning"][:n], train["answer"][:n])]


def _prepare(config: RunConfig, resume: bool) -> tuple[Path, Path | None]:
    from rlvr.harness.checkpoints import resume_point
    from rlvr.harness.train import library_versions

    from rlvr.harness.threads import configure_threads

    run_dir, checkpoint = resume_point(Path(config.output.dir).expanduser().resolve(), resume)
    configure_threads(config.runtime)
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.yaml").write_text(yaml.safe_dump(to_dict(config), sort_keys=False))
    (run_dir / "versions.json").write_text(json.dumps(library_versions(), indent=2))
    return run_dir, checkpoint


def _training_rows(config: RunConfig) -> tuple[list[dict[str, Any]], Any]:
    """(SFT rows, eval set or None)."""
    from rlvr.harness.train import load_run_data

    needs_train = config.sft.data is None
    if needs_train or config.eval.enabled:
        train, evalset = load_run_data(config)
    else:
        train, evalset = None, None
    rows = read_sft_rows(config.sft.data, config.sft.examples) if config.sft.data else \
        worked_solution_rows(config, train, config.sft.examples)
    return rows, evalset


def _load_student(config: RunConfig, rows: list[dict[str, Any]], evalset: Any, run_dir: Path) -> tuple[Any, Any, Any]:
    from rlvr.harness.backends import load_policy

    corpus = [m["content"] for r in rows[:5000] for m in r["prompt"] + r["completion"]]
    if evalset is not None:
        corpus += [m["content"] for row in evalset["prompt"] for m in row]
    return load_policy(config, "trl", corpus, run_dir)


def _evaluate(config: RunConfig, model: Any, tokenizer: Any, evalset: Any, path: Path) -> dict[str, Any] | None:
    if evalset is None:
        return None
    from rlvr.harness.evaluate import evaluate

    e = config.eval
    max_new = e.max_new_tokens or config.trainer.max_completion_length
    result = evaluate(model, tokenizer, evalset, max_new, e.samples, e.batch_size, temperature=e.temperature,
                      out_path=path.with_suffix(".jsonl"))
    summary = result.summary()
    path.write_text(json.dumps(summary, indent=2))
    return summary


def _trainer_args(config: RunConfig, run_dir: Path, config_cls: Any, **extra: Any) -> Any:
    import torch

    from rlvr.harness.train import no_activation_checkpointing
    from rlvr.harness.trainer_settings import trackers

    s = config.sft
    cuda = torch.cuda.is_available()
    kwargs = dict(output_dir=str(run_dir / "checkpoints"), max_steps=s.max_steps, num_train_epochs=s.num_epochs,
                  per_device_train_batch_size=s.batch_size, learning_rate=s.learning_rate,
                  lr_scheduler_type=s.lr_scheduler_type, warmup_steps=s.warmup_ratio, logging_steps=1,
                  save_strategy="steps", save_steps=s.save_steps, save_total_limit=config.trainer.save_total_limit,
                  report_to=trackers(config.trainer.report_to), use_cpu=not cuda,
                  bf16=cuda and config.model.dtype in ("auto", "bfloat16"), seed=config.trainer.seed,
                  max_length=config.model.max_seq_length, disable_tqdm=True,
                  **no_activation_checkpointing(config_cls), **extra)
    try:
        return config_cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"TRL rejected the SFT settings: {exc}") from exc


def _finish(config: RunConfig, trainer: Any, tokenizer: Any, peft_config: Any, run_dir: Path) -> tuple[Any, Path]:
    """Save final/ (and merged/ for LoRA): the folder the next stage loads, and the model to evaluate."""
    final_dir = run_dir / "final"
    trainer.save_model(str(final_dir))
    tokenizer.save_pretrained(final_dir)
    model = trainer.model
    if peft_config is None:
        return model, final_dir
    merged = model.merge_and_unload()
    merged.save_pretrained(run_dir / "merged")
    tokenizer.save_pretrained(run_dir / "merged")
    return merged, run_dir / "merged"


def _summary(run_dir: Path, model_dir: Path, trainer: Any, rows: int, before: Any, after: Any, started: float) -> SftSummary:
    losses = [h["loss"] for h in trainer.state.log_history if "loss" in h]
    summary = SftSummary(str(run_dir), str(model_dir), trainer.state.global_step, rows,
                         round(losses[0], 4) if losses else None, round(losses[-1], 4) if losses else None,
                         before, after, round(time.perf_counter() - started, 1))
    (run_dir / "summary.json").write_text(json.dumps(summary.__dict__, indent=2))
    return summary


def run_sft(config: RunConfig, resume: bool = False) -> SftSummary:
    """Supervised fine-tuning (completion-only loss) as ``config.sft`` says; see the module docstring."""
    import torch
    from datasets import Dataset
    from trl import SFTConfig, SFTTrainer

    from rlvr.harness.train import library_deprecations_silenced, quiet

    started = time.perf_counter()
    run_dir, checkpoint = _prepare(config, resume)
    torch.manual_seed(config.trainer.seed)
    rows, evalset = _training_rows(config)
    model, tokenizer, peft_config = _load_student(config, rows, evalset, run_dir)
    logger.info("sft: %d rows, model %s, %s", len(rows), config.model.name_or_path,
                "LoRA" if peft_config is not None else "full fine-tune")
    before_path = run_dir / "eval_before.json"
    before = json.loads(before_path.read_text()) if before_path.is_file() else \
        _evaluate(config, model, tokenizer, evalset, before_path)
    args = _trainer_args(config, run_dir, SFTConfig, completion_only_loss=True)
    with library_deprecations_silenced():
        trainer = quiet(SFTTrainer(model=model, args=args, train_dataset=Dataset.from_list(rows),
                                   processing_class=tokenizer, peft_config=peft_config))
        trainer.train(resume_from_checkpoint=str(checkpoint) if checkpoint else None)
    policy, model_dir = _finish(config, trainer, tokenizer, peft_config, run_dir)
    after = _evaluate(config, policy, tokenizer, evalset, run_dir / "eval_after.json")
    summary = _summary(run_dir, model_dir, trainer, len(rows), before, after, started)
    logger.info("sft: %d steps, loss %s -> %s, model %s", summary.steps, summary.loss_first, summary.loss_last,
                model_dir)
    return summary


def run_distill(config: RunConfig, resume: bool = False) -> SftSummary:
    """Generalised knowledge distillation (TRL's GKD trainer): the student (``config.model``) matches the
    teacher's (``config.distill.teacher``) token distribution on the SFT set's prompts, on its own
    samples for a ``lmbda`` share of batches. Teacher and student must share a tokenizer."""
    import torch
    from datasets import Dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from rlvr.models import check_model_path
    from rlvr.harness.train import library_deprecations_silenced, quiet

    d = config.distill
    if not d.teacher:
        raise ConfigError("rlvr distill needs a teacher: --teacher PATH (a model sharing the student's tokenizer)")
    check_model_path(d.teacher, "--teacher")
    with library_deprecations_silenced():
        import os

        os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
        from trl.experimental.gkd import GKDConfig, GKDTrainer

    started = time.perf_counter()
    run_dir, checkpoint = _prepare(config, resume)
    torch.manual_seed(config.trainer.seed)
    rows, evalset = _training_rows(config)
    model, tokenizer, peft_config = _load_student(config, rows, evalset, run_dir)
    teacher = AutoModelForCausalLM.from_pretrained(d.teacher)
    teacher_tok = AutoTokenizer.from_pretrained(d.teacher)
    if teacher_tok.get_vocab() != tokenizer.get_vocab():
        raise ConfigError(f"teacher {d.teacher} and student {config.model.name_or_path} have different tokenizers: "
                          "logit distillation needs one vocabulary; distil by SFT on the teacher's samples instead "
                          "(rlvr sample --model TEACHER, rlvr select, rlvr sft)")
    before = _evaluate(config, model, tokenizer, evalset, run_dir / "eval_before.json")
    args = _trainer_args(config, run_dir, GKDConfig, lmbda=d.lmbda, beta=d.beta, temperature=d.temperature,
                         max_new_tokens=d.max_new_tokens)
    data = Dataset.from_list([{"messages": r["prompt"] + r["completion"]} for r in rows])
    with library_deprecations_silenced():
        trainer = quiet(GKDTrainer(model=model, teacher_model=teacher, args=args, train_dataset=data,
                                   processing_class=tokenizer, peft_config=peft_config))
        trainer.train(resume_from_checkpoint=str(checkpoint) if checkpoint else None)
    policy, model_dir = _finish(config, trainer, tokenizer, peft_config, run_dir)
    after = _evaluate(config, policy, tokenizer, evalset, run_dir / "eval_after.json")
    return _summary(run_dir, model_dir, trainer, len(rows), before, after, started)
