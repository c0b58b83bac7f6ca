"""Model backends: where the policy comes from and how it is adapted.

- ``trl``: ``AutoModelForCausalLM`` (or the locally built ``local-tiny`` model) with a PEFT
  ``LoraConfig`` handed to TRL's GRPOTrainer; CPU or GPU, optionally TRL's own vLLM.
- ``unsloth``: ``FastLanguageModel.from_pretrained(..., fast_inference=True)`` + ``get_peft_model``,
  generation through vLLM. unsloth and vllm are imported here, lazily, and nowhere else.
- ``auto``: unsloth only when CUDA is present and unsloth imports; the choice and why are logged.
"""

from __future__ import annotations

import importlib.util
import logging
from pathlib import Path
from typing import Any

from rlvr.errors import ConfigError, DependencyMissingError
from rlvr.harness.config import RunConfig

logger = logging.getLogger(__name__)

__all__ = ["pick_backend", "load_policy", "lora_config", "torch_dtype", "build_local_tiny"]


def pick_backend(config: RunConfig) -> tuple[str, str]:
    """(backend, why) for this machine."""
    import torch

    if config.backend != "auto":
        return config.backend, f"backend set to {config.backend!r}"
    if not torch.cuda.is_available():
        return "trl", "no CUDA device: TRL + PEFT on CPU"
    if importlib.util.find_spec("unsloth") is None:
        return "trl", "CUDA present but unsloth is not installed (pip install 'rlvr[gpu]'): TRL backend"
    if config.model.name_or_path == "local-tiny":
        return "trl", "local-tiny model: TRL backend (unsloth needs a hub architecture)"
    return "unsloth", "CUDA present and unsloth installed"


def torch_dtype(name: str) -> Any:
    import torch

    if name == "auto":
        return torch.bfloat16 if torch.cuda.is_available() else torch.float32
    return getattr(torch, name)


def lora_config(config: RunConfig) -> Any:
    """PEFT LoraConfig from the recipe (None when LoRA is off)."""
    lora = config.model.lora
    if not lora.enabled:
        return None
    from peft import LoraConfig

    return LoraConfig(r=lora.r, lora_alpha=lora.alpha, lora_dropout=lora.dropout,
                      target_modules=list(lora.target_modules), task_type="CAUSAL_LM")


def build_local_tiny(config: RunConfig, corpus: list[str], out_dir: Path) -> tuple[Any, Any]:
    """Build (or reload) the embedded default's small Qwen2 model and its tokenizer, saved in ``out_dir``."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from rlvr.harness.local_models import build_qwen2, build_tokenizer

    from rlvr.harness.distributed import process_state

    dist = process_state()
    if not (out_dir / "config.json").is_file() and dist.is_main_process:  # rank 0 builds; every rank loads
        m = config.model
        tokenizer = build_tokenizer(corpus, vocab_size=m.vocab_size)
        model = build_qwen2(tokenizer, hidden_size=m.hidden_size, num_layers=m.num_layers, num_heads=m.num_heads,
                            seed=config.trainer.seed, max_position_embeddings=m.max_seq_length)
        out_dir.mkdir(parents=True, exist_ok=True)
        model.save_pretrained(out_dir)
        tokenizer.save_pretrained(out_dir)
    dist.wait_for_everyone()
    # reload so the model's name_or_path is this folder: adapters saved later point at real weights
    return AutoModelForCausalLM.from_pretrained(out_dir), AutoTokenizer.from_pretrained(out_dir)


def _prepare_tokenizer(tokenizer: Any, model: Any) -> Any:
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
        logger.info("tokenizer has no pad token; using eos %r", tokenizer.eos_token)
    if getattr(model, "generation_config", None) is not None:
        model.generation_config.pad_token_id = tokenizer.pad_token_id
        if model.generation_config.eos_token_id is None:
            model.generation_config.eos_token_id = tokenizer.eos_token_id
    return tokenizer


def load_policy(config: RunConfig, backend: str, corpus: list[str], run_dir: Path, base_dir: Path | None = None) -> tuple[Any, Any, Any]:
    """(model, tokenizer, peft_config or None). ``base_dir`` overrides where weights come from
    (the cold-started model of a resumed run)."""
    m = config.model
    if backend == "unsloth":
        return _load_unsloth(config)
    from transformers import AutoModelForCausalLM, AutoTokenizer

    if base_dir is not None and (base_dir / "config.json").is_file():
        model = AutoModelForCausalLM.from_pretrained(base_dir, dtype=torch_dtype(m.dtype))
        tokenizer = AutoTokenizer.from_pretrained(base_dir)
    elif m.name_or_path == "local-tiny":
        model, tokenizer = build_local_tiny(config, corpus, run_dir / "base")
    else:
        from rlvr.models import resolve_model

        source = resolve_model(m.name_or_path, "model.name_or_path")  # a folder, a packaged name, a .gguf file, a hub id
        try:
            model = AutoModelForCausalLM.from_pretrained(source, dtype=torch_dtype(m.dtype))
            tokenizer = AutoTokenizer.from_pretrained(m.tokenizer or source)
        except OSError as exc:
            raise ConfigError(f"could not load model {m.name_or_path!r}: {exc}. Give a local path, or for the offline "
                              "SmolLM2 run `rlvr models prepare smollm2-135m` first") from exc
    return model, _prepare_tokenizer(tokenizer, model), lora_config(config)


def _load_unsloth(config: RunConfig) -> tuple[Any, Any, Any]:
    try:
        from unsloth import FastLanguageModel  # noqa: I001  (unsloth must be imported before transformers/trl)
    except ImportError as exc:
        raise DependencyMissingError("backend 'unsloth' needs unsloth and vllm on a CUDA machine: "
                                     "pip install 'rlvr[gpu]'") from exc
    m, lora = config.model, config.model.lora
    model, tokenizer = FastLanguageModel.from_pretrained(
        model_name=m.name_or_path, max_seq_length=m.max_seq_length, load_in_4bit=m.load_in_4bit,
        fast_inference=True, max_lora_rank=lora.r, gpu_memory_utilization=m.gpu_memory_utilization,
    )
    model = FastLanguageModel.get_peft_model(
        model, r=lora.r, target_modules=list(lora.target_modules), lora_alpha=lora.alpha, lora_dropout=lora.dropout,
        use_gradient_checkpointing="unsloth", random_state=config.trainer.seed,
    )
    return model, _prepare_tokenizer(tokenizer, model), None
