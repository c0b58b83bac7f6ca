"""The ``trainer:`` section of a recipe: every field of the installed TRL's ``GRPOConfig``, beside rlvr's own.

The section is built from ``GRPOConfig``'s own dataclass fields on first use (their names, types,
defaults and help), so whatever the installed TRL accepts is accepted under ``trainer.`` and checked
by its type (``--set trainer.top_entropy_quantile=0.2``), and ``rlvr train --help-config trainer``
lists it with TRL's help. Beside them live rlvr's additions (:data:`RLVR_FIELDS`: dynamic sampling, a
time budget, the prompt-length filter) and rlvr's defaults where TRL's suit a GPU cluster rather than
a first run on a laptop (:data:`CPU_DEFAULTS`, each with its reason). Two fields are rlvr's to set
(:data:`MANAGED`). :func:`grpo_config` hands the section to ``GRPOConfig`` itself, so TRL's
``__post_init__`` checks run before anything loads and their errors name the fields that caused them.

Importing TRL's config costs a few seconds (it imports transformers and torch): the section is built
when a recipe is loaded, never when this module is imported.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import logging
import typing
from typing import Any

from rlvr.errors import ConfigError
from rlvr.typed import default_of, param, type_text

logger = logging.getLogger(__name__)

__all__ = ["trainer_settings", "DynamicSamplingSettings", "CPU_DEFAULTS", "RLVR_FIELDS", "MANAGED",
           "TRAIN_TIME_CHOICES", "trl_fields", "grpo_kwargs", "grpo_config", "merge_extra", "trackers"]


@dataclasses.dataclass
class DynamicSamplingSettings:
    enabled: bool = param(False, "DAPO dynamic sampling: drop groups whose rewards are all equal and sample more "
                                 "prompts until the batch is full (TRL has none; rlvr adds it)")
    metric: str = param("reward", "what must vary within a group to keep it: the combined reward (its advantages)",
                        choices=("reward",))
    max_gen_batches: int = param(3, "generation batches per step at most; then the batch is topped up with dropped "
                                    "groups (verl: max_num_gen_batches)", min=1)


# rlvr's additions to the section: (type, field). A name the installed TRL also has stays TRL's field
# (with TRL's type and help) and keeps rlvr's meaning as well (older TRLs still have max_prompt_length).
RLVR_FIELDS: dict[str, tuple[str, Any]] = {
    "max_prompt_length": ("int | None", param(256, "prompts longer than this many tokens are dropped before training "
                                                   "(rlvr: TRL 1.16 no longer truncates prompts itself)", min=1)),
    "warmup_ratio": ("float | None", param(None, "share of steps spent warming up (rlvr: transformers 5 has no "
                                                 "warmup_ratio and reads a warmup_steps below 1 as this ratio; "
                                                 "rlvr passes it so)", min=0, max=1)),
    "max_minutes": ("float | None", param(None, "stop GRPO (with a checkpoint) after this much training time, even "
                                                "before max_steps: equal wall-clock budgets for comparisons (rlvr)",
                                          min=0)),
    "dynamic_sampling": ("DynamicSamplingSettings",
                         dataclasses.field(default_factory=DynamicSamplingSettings,
                                           metadata={"help": "DAPO dynamic sampling (rlvr)"})),
}

# Where rlvr's default differs from TRL's: (rlvr's value, why). TRL's suit a GPU cluster; rlvr's a
# first run on a laptop's CPU, and a bounded run on any machine.
CPU_DEFAULTS: dict[str, tuple[Any, str]] = {
    "num_generations": (4, "small groups keep a CPU step short"),
    "max_completion_length": (64, "short completions keep a CPU step short; recipes for real models raise it"),
    "learning_rate": (5e-6, "a LoRA-friendly rate; TRL's suits full fine-tunes"),
    "optim": ("adamw_torch", "runs on every device (the fused kernel is for GPUs)"),
    "max_steps": (50, "a bounded run unless the recipe says otherwise (TRL: whole epochs)"),
    "logging_steps": (1, "every step in metrics.jsonl and on the console"),
    "save_steps": (25, "a checkpoint to --resume from every few minutes"),
    "save_total_limit": (2, "bounded disk use"),
    "seed": (0, "rlvr's runs are seeded alike"),
    "report_to": ([], "no tracker unless asked (each one named is checked to be installed)"),
    "activation_checkpointing": (False, "small models: no recomputation (TRL turns it on: slower on CPU)"),
    "gradient_checkpointing": (False, "small models: no recomputation (transformers <= 5.17 has only this name)"),
    "use_cpu": (None, "null: rlvr decides (true when no CUDA GPU is visible)"),
    "bf16": (None, "null: rlvr decides (on with CUDA and model.dtype auto/bfloat16; float32 on CPU, where bf16 "
                   "errors or runs 2x slower)"),
}

# Fields rlvr fills from other sections: setting them under trainer: is refused with the fix.
MANAGED: dict[str, str] = {
    "output_dir": "rlvr sets it from output.dir (checkpoints go to OUTPUT_DIR/checkpoints): set output.dir",
    "reward_weights": "rlvr sets it from the rewards' weights: set weight: in each entry of rewards:",
}

# TRL's trainer checks these only when the first loss is computed (after a whole generation batch);
# rlvr checks them when the recipe loads. Values of TRL 1.16 (trl/trainer/grpo_trainer.py).
TRAIN_TIME_CHOICES: dict[str, tuple[Any, ...]] = {
    "loss_type": ("grpo", "bnpo", "dr_grpo", "dapo", "cispo", "sapo", "luspo", "vespo"),
    "importance_sampling_level": ("token", "sequence"),
    "vllm_mode": ("colocate", "server"),
    "scale_rewards": ("group", "batch", "none", True, False),
}

# rlvr's ranges on TRL fields, checked when the recipe loads (TRL finds these out mid-run, or never).
_RANGES: dict[str, tuple[float | None, float | None]] = {
    "max_steps": (1, None),  # a bounded run: --resume and the summary count against it
    "per_device_train_batch_size": (1, None), "gradient_accumulation_steps": (1, None),
    "max_completion_length": (1, None), "num_iterations": (1, None),
    "learning_rate": (0, None), "weight_decay": (0, None), "max_grad_norm": (0, None), "beta": (0, None),
    "epsilon": (0, None), "top_p": (0, 1),
    # ranges TRL's help states and its __post_init__ does not check (the value is used as given, mid-run)
    "top_entropy_quantile": (0, 1), "min_p": (0, 1), "ref_model_mixup_alpha": (0, 1),
    "vllm_gpu_memory_utilization": (0, 1), "epsilon_high": (0, None), "top_k": (0, None),
    "repetition_penalty": (0, None),
}

# A type TRL declares narrower than what its own __post_init__ accepts.
_TYPE_OVERRIDES = {"scale_rewards": "str | bool"}  # True / False are mapped to group / none


def trl_fields() -> dict[str, dataclasses.Field]:
    """The init fields of the installed TRL's ``GRPOConfig``, by name."""
    from trl import GRPOConfig

    return {f.name: f for f in dataclasses.fields(GRPOConfig) if f.init}


def _enum_choices(tp: Any) -> tuple[list[Any], str] | None:
    """An enum in a field's type (``SchedulerType | str``): its values, and the type with it as text."""
    args = typing.get_args(tp) or (tp,)
    enums = [a for a in args if isinstance(a, type) and issubclass(a, enum.Enum)]
    if not enums:
        return None
    values = [m.value for e in enums for m in e]
    rest = [type_text(a) for a in args if a not in enums]
    return values, " | ".join(dict.fromkeys(["str", *rest]))


def _trl_field(f: dataclasses.Field) -> tuple[str, str, dataclasses.Field]:
    text = _TYPE_OVERRIDES.get(f.name) or type_text(f.type)
    meta: dict[str, Any] = {"help": " ".join(str(f.metadata.get("help", "")).split()), "source": "TRL",
                            "trl_default": default_of(f)}
    enum_info = _enum_choices(f.type)
    if enum_info is not None:
        meta["choices"], text = tuple(enum_info[0]), enum_info[1]
    if f.name in TRAIN_TIME_CHOICES:
        meta["choices"] = TRAIN_TIME_CHOICES[f.name]
    if f.name in _RANGES:
        meta["min"], meta["max"] = _RANGES[f.name]
    default = default_of(f)
    if f.name in CPU_DEFAULTS:
        default, meta["rlvr_reason"] = CPU_DEFAULTS[f.name]
        if default is None and "None" not in text:
            text += " | None"
    if f.name in RLVR_FIELDS:  # rlvr reads it too: keep rlvr's default and its range
        rlvr_field = RLVR_FIELDS[f.name][1]
        default = default_of(rlvr_field)
        meta.update({k: v for k, v in rlvr_field.metadata.items() if k in ("min", "max")})
        meta["rlvr_reason"] = rlvr_field.metadata["help"]
    if isinstance(default, (list, dict)):
        value = default
        field = dataclasses.field(default_factory=lambda: type(value)(value), metadata=meta)
    else:
        field = dataclasses.field(default=default, metadata=meta)
    return f.name, text, field


@functools.cache
def trainer_settings() -> type:
    """The ``trainer:`` section's dataclass for the installed TRL (built once per process)."""
    trl = trl_fields()
    spec = [_trl_field(f) for name, f in trl.items() if name not in MANAGED]
    for name, (text, field) in RLVR_FIELDS.items():
        if name not in trl:
            meta = {**field.metadata, "source": "rlvr"}
            if field.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
                spec.append((name, text, dataclasses.field(default_factory=field.default_factory, metadata=meta)))
            else:
                spec.append((name, text, dataclasses.field(default=field.default, metadata=meta)))
    spec.append(("extra", "dict[str, Any]", param({}, "deprecated: GRPOConfig fields now go directly under "
                                                      "trainer:; the ones here are moved there")))
    cls = dataclasses.make_dataclass("TrainerSettings", spec)
    cls.__module__ = __name__  # found again by name (pickle): this module's __getattr__ returns it
    cls.__doc__ = "GRPO settings: every field of the installed TRL's GRPOConfig, and rlvr's additions."
    cls.fields_hint = (f"{len(spec)} fields (every GRPOConfig field of the installed TRL and rlvr's): "  # type: ignore[attr-defined]
                       "list them with rlvr train --help-config trainer")
    return cls


def __getattr__(name: str) -> Any:  # ``from rlvr.harness.trainer_settings import TrainerSettings`` (and pickle)
    if name == "TrainerSettings":
        return trainer_settings()
    raise AttributeError(name)


def trackers(report_to: Any) -> list[str]:
    """``trainer.report_to`` as a list of trackers (TRL takes a name, a list, 'none' or 'all')."""
    if report_to in (None, "none"):
        return []
    return [report_to] if isinstance(report_to, str) else list(report_to)


def merge_extra(trainer: dict[str, Any], where: str) -> None:
    """Move a recipe's ``trainer.extra`` (the old home of other GRPOConfig fields) into ``trainer:``,
    and refuse the fields rlvr sets itself, naming where they come from."""
    extra = trainer.get("extra")
    if extra:
        if not isinstance(extra, dict):
            raise ConfigError(f"{where}trainer.extra must be a mapping; GRPOConfig fields now go directly under trainer:")
        both = sorted(set(extra) & (set(trainer) - {"extra"}))
        if both:
            raise ConfigError(f"{where}trainer.extra repeats {both}, also set under trainer:; keep one (fields now go "
                              "directly under trainer:)")
        logger.warning("%strainer.extra is deprecated: GRPOConfig fields now go directly under trainer: "
                       "(moved %s there)", where, ", ".join(sorted(extra)))
        trainer.update(trainer.pop("extra"))
    for name in sorted(set(trainer) & set(MANAGED)):
        raise ConfigError(f"{where}trainer.{name}: {MANAGED[name]}")


def grpo_kwargs(t: Any, output_dir: str, weights: list[float] | None, cuda: bool, dtype: str) -> dict[str, Any]:
    """``GRPOConfig`` keyword arguments: every TRL field whose value differs from TRL's default, the
    fields rlvr manages, and rlvr's translations (warmup_ratio, the device choices left to rlvr)."""
    trl = trl_fields()
    kwargs: dict[str, Any] = {}
    for name, f in trl.items():
        if name in MANAGED or not hasattr(t, name):
            continue
        value = getattr(t, name)
        if value != default_of(f) or type(value) is not type(default_of(f)):
            kwargs[name] = value
    kwargs["output_dir"] = output_dir
    if weights is not None:
        kwargs["reward_weights"] = weights
    if kwargs.get("use_cpu", None) is None:
        kwargs["use_cpu"] = not cuda
    if kwargs.get("bf16", None) is None:
        kwargs["bf16"] = cuda and dtype in ("auto", "bfloat16")
    ratio = getattr(t, "warmup_ratio", None)
    if ratio is not None and "warmup_ratio" not in trl:
        if getattr(t, "warmup_steps", 0):
            raise ConfigError("trainer.warmup_ratio and trainer.warmup_steps are both set; keep one")
        kwargs["warmup_steps"] = ratio  # transformers 5: a warmup_steps below 1 is a ratio of the steps
    return kwargs


def _trl_error(kwargs: dict[str, Any]) -> Exception | None:
    import warnings

    from trl import GRPOConfig

    try:
        with warnings.catch_warnings():  # a trial construction: its deprecation notes are not the user's
            warnings.simplefilter("ignore")
            GRPOConfig(**kwargs)
    except (TypeError, ValueError) as exc:
        return exc
    return None


def grpo_config(t: Any, output_dir: str, weights: list[float] | None, cuda: bool, dtype: str) -> Any:
    """TRL's ``GRPOConfig`` from the section, its ``__post_init__`` checks included: an error they raise
    becomes a ConfigError naming the trainer fields whose values cause it (each reset to its default
    in turn: the ones whose reset makes the error go away)."""
    from trl import GRPOConfig

    kwargs = grpo_kwargs(t, output_dir, weights, cuda, dtype)
    try:
        return GRPOConfig(**kwargs)
    except (TypeError, ValueError) as exc:
        blamed = [name for name in kwargs if name not in ("output_dir", "reward_weights", "use_cpu", "bf16")
                  and _trl_error({k: v for k, v in kwargs.items() if k != name}) is None]
        fields = ", ".join(f"trainer.{name}={kwargs[name]!r}" for name in blamed) or "the trainer settings"
        message = " ".join(str(exc).split())
        raise ConfigError(f"{fields}: TRL's GRPOConfig refuses {'this' if len(blamed) == 1 else 'these'}: "
                          f"{message}") from exc
