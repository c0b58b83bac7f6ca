"""The run configuration: one dataclass tree, loaded from a YAML recipe, overridable field by field.

Sections: ``model``, ``data``, ``rewards`` (a RewardSet config), ``cold_start`` (supervised warm-up),
``trainer`` (GRPOConfig fields), ``eval`` and ``output``. Every field has help text (``field(metadata=
{"help": ...})``); :func:`validate` runs the cross-field checks up front and says how to fix each
problem. ``rlvr train --set trainer.learning_rate=5e-6`` overrides one field.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib.resources
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rlvr.errors import ConfigError
from rlvr.typed import build

__all__ = ["RunConfig", "ModelConfig", "LoraSettings", "DataConfig", "ColdStartConfig", "TrainerSettings",
           "EvalSettings", "OutputConfig", "SftSettings", "SampleSettings", "SelectSettings", "DistillSettings", "load_recipe", "apply_overrides", "validate", "to_dict",
           "DEFAULT_RECIPE"]

DEFAULT_RECIPE = "default-cpu"


def _f(default: Any, help: str, **kw: Any) -> Any:
    if isinstance(default, (list, dict)):
        return field(default_factory=lambda: copy.deepcopy(default), metadata={"help": help}, **kw)
    return field(default=default, metadata={"help": help}, **kw)


@dataclass
class LoraSettings:
    enabled: bool = _f(True, "train LoRA adapters instead of all weights")
    r: int = _f(16, "LoRA rank")
    alpha: int = _f(32, "LoRA alpha (scaling = alpha / r)")
    dropout: float = _f(0.0, "LoRA dropout")
    target_modules: list[str] = _f(["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"],
                                   "module names to adapt (all attention and MLP projections by default)")


@dataclass
class ModelConfig:
    name_or_path: str = _f("local-tiny", "hub id or local path; 'local-tiny' builds a small Qwen2 model and "
                                         "tokenizer locally (no download)")
    tokenizer: str | None = _f(None, "tokenizer id or path (default: the model's)")
    dtype: str = _f("auto", "auto | float32 | bfloat16 | float16 (auto: float32 on CPU, bfloat16 on GPU)")
    max_seq_length: int = _f(1024, "longest prompt + completion in tokens")
    load_in_4bit: bool = _f(False, "load 4-bit quantised weights (unsloth / bitsandbytes, GPU only)")
    gpu_memory_utilization: float = _f(0.6, "share of GPU memory vLLM may take (unsloth fast_inference)")
    hidden_size: int = _f(128, "local-tiny: hidden size")
    num_layers: int = _f(2, "local-tiny: transformer layers")
    num_heads: int = _f(4, "local-tiny: attention heads")
    vocab_size: int = _f(400, "local-tiny: BPE vocabulary size of the locally trained tokenizer")
    lora: LoraSettings = field(default_factory=LoraSettings, metadata={"help": "LoRA adapter settings"})


@dataclass
class DataConfig:
    name: str = _f("synthetic", "data set name (synthetic, dapo-math, math-500, gsm8k, ...) or file path")
    path: str | None = _f(None, "local copy of the data set (parquet/jsonl/json)")
    template: Any = _f("r1", "prompt template: r1, working_out, boxed, dapo, plain, or {system, instruction, ...}")
    options: dict[str, Any] = _f({}, "loader options, e.g. synthetic {n, level, kinds, seed}; problem_field/answer_field")
    limit: int | None = _f(None, "use at most this many training rows")
    length_quantile: float | None = _f(None, "drop prompts longer than this quantile of lengths (recipe: 0.9)")
    on_bad_gold: str = _f("drop", "rows whose gold does not parse: drop | keep | error")


@dataclass
class ColdStartConfig:
    enabled: bool = _f(False, "supervised warm-up on worked solutions before GRPO (needs a 'reasoning' column)")
    steps: int = _f(200, "optimizer steps of the warm-up")
    batch_size: int = _f(16, "examples per warm-up step")
    learning_rate: float = _f(3e-3, "warm-up learning rate")
    examples: int = _f(2000, "worked solutions generated/used for the warm-up")


@dataclass
class DynamicSamplingSettings:
    enabled: bool = _f(False, "DAPO dynamic sampling: drop groups whose rewards are all equal and sample more "
                              "prompts until the batch is full (TRL has none; rlvr adds it)")
    metric: str = _f("reward", "what must vary within a group to keep it: the combined reward (its advantages)")
    max_gen_batches: int = _f(3, "generation batches per step at most; then the batch is topped up with dropped "
                                 "groups (verl: max_num_gen_batches)")


@dataclass
class TrainerSettings:
    num_generations: int = _f(4, "completions sampled per prompt (the GRPO group)")
    per_device_train_batch_size: int = _f(8, "completions per device per step (prompts x generations)")
    gradient_accumulation_steps: int = _f(1, "steps accumulated before an optimizer update")
    max_prompt_length: int | None = _f(256, "prompts longer than this many tokens are dropped before training "
                                            "(TRL 1.16 no longer truncates prompts itself)")
    max_completion_length: int = _f(64, "generated tokens per completion")
    temperature: float = _f(1.0, "sampling temperature")
    top_p: float = _f(1.0, "nucleus sampling")
    top_k: int | None = _f(None, "top-k sampling (None: off)")
    min_p: float | None = _f(None, "min-p sampling (the Unsloth recipe: 0.1)")
    learning_rate: float = _f(5e-6, "peak learning rate")
    lr_scheduler_type: str = _f("linear", "learning-rate schedule")
    warmup_ratio: float = _f(0.0, "share of steps spent warming up")
    weight_decay: float = _f(0.0, "AdamW weight decay")
    max_grad_norm: float = _f(1.0, "gradient clipping")
    optim: str = _f("adamw_torch", "optimizer (adamw_8bit needs bitsandbytes and a GPU)")
    beta: float = _f(0.0, "KL coefficient (0: no reference model)")
    epsilon: float = _f(0.2, "lower clip range")
    epsilon_high: float | None = _f(None, "upper clip range (DAPO clip-higher: 0.28)")
    loss_type: str = _f("dapo", "grpo | bnpo | dr_grpo | dapo")
    scale_rewards: Any = _f("group", "group | batch | none (Dr. GRPO: none)")
    importance_sampling_level: str = _f("token", "token | sequence (GSPO)")
    mask_truncated_completions: bool = _f(False, "exclude truncated completions from the loss (DAPO)")
    num_iterations: int = _f(1, "policy updates per generation batch (mu)")
    max_steps: int = _f(50, "GRPO optimizer steps")
    max_minutes: float | None = _f(None, "stop GRPO (with a checkpoint) after this much training time, even "
                                         "before max_steps: equal wall-clock budgets for comparisons")
    logging_steps: int = _f(1, "log every N steps")
    save_steps: int = _f(25, "checkpoint every N steps")
    save_total_limit: int | None = _f(2, "keep at most this many checkpoints")
    seed: int = _f(0, "random seed")
    use_vllm: bool = _f(False, "generate with vLLM (GPU only)")
    vllm_mode: str = _f("colocate", "colocate | server")
    report_to: list[str] = _f([], "tensorboard / wandb / swanlab (when installed)")
    dynamic_sampling: DynamicSamplingSettings = field(default_factory=DynamicSamplingSettings,
                                                      metadata={"help": "DAPO dynamic sampling"})
    extra: dict[str, Any] = _f({}, "any other GRPOConfig field, passed through")


@dataclass
class EvalSettings:
    enabled: bool = _f(True, "evaluate before and after GRPO")
    name: str = _f("synthetic", "eval set name or path")
    path: str | None = _f(None, "local copy of the eval set")
    options: dict[str, Any] = _f({"split": "test"}, "loader options (synthetic: split test)")
    n: int = _f(100, "problems evaluated")
    samples: int = _f(1, "samples per problem (pass@k / maj@k / mean@k); 1 = greedy")
    temperature: float = _f(1.0, "sampling temperature when samples > 1")
    max_new_tokens: int | None = _f(None, "default: trainer.max_completion_length")
    batch_size: int = _f(32, "prompts per generate call")


@dataclass
class OutputConfig:
    dir: str = _f("runs/default", "run folder: config, metrics, checkpoints, adapter, plots")
    sample_completions: int = _f(2, "completions per logged step written with their reward reasons")
    save_merged: bool = _f(False, "also save merged 16-bit weights at the end")
    plot: bool = _f(True, "write reward_curve.png")


@dataclass
class SftSettings:
    data: str | None = _f(None, "SFT set in TRL's prompt/completion chat format (rlvr select writes one); "
                                "unset: worked solutions of the recipe's data (a 'reasoning' column: R1's cold start)")
    max_steps: int = _f(200, "optimizer steps (-1: run num_epochs over the set)")
    num_epochs: float = _f(1.0, "passes over the set when max_steps is -1")
    batch_size: int = _f(16, "examples per step")
    learning_rate: float = _f(2e-4, "peak learning rate (full fine-tunes of real models want ~1e-5)")
    lr_scheduler_type: str = _f("cosine", "learning-rate schedule")
    warmup_ratio: float = _f(0.05, "share of steps spent warming up")
    save_steps: int = _f(100, "checkpoint every N steps (--resume continues from the last)")
    examples: int | None = _f(None, "use at most this many training rows")


@dataclass
class SampleSettings:
    n: int = _f(8, "completions per problem")
    problems: int | None = _f(None, "sample at most this many problems of the recipe's data")
    temperature: float = _f(1.0, "sampling temperature")
    max_new_tokens: int | None = _f(None, "default: trainer.max_completion_length")
    batch_size: int = _f(32, "prompts per generate call")
    engine: str = _f("hf", "hf (transformers generate, CPU or GPU) | vllm (GPU)")
    completions: str | None = _f(None, "score this JSONL of completions made elsewhere instead of generating")


@dataclass
class SelectSettings:
    k: int = _f(1, "verified samples kept per problem at most (best-of-N by total reward)")
    drop_truncated: bool = _f(True, "drop samples cut off at the token limit (their last sentence may state the "
                                    "gold by chance)")
    require_correct: bool = _f(True, "keep only samples the verifier accepts")
    min_total: float | None = _f(None, "keep only samples whose total reward reaches this")
    min_chars: int = _f(1, "drop completions shorter than this")
    max_chars: int | None = _f(None, "drop completions longer than this many characters")
    max_tokens: int | None = _f(None, "drop completions longer than this many tokens (the model's tokenizer)")
    dedupe: bool = _f(True, "drop a completion identical (whitespace aside) to a kept one of the same problem")
    shortest_correct: bool = _f(False, "rank the shortest verified sample first instead of the highest total")


@dataclass
class DistillSettings:
    teacher: str | None = _f(None, "teacher model (a folder or hub id) sharing the student's tokenizer")
    lmbda: float = _f(0.5, "share of on-policy (student-generated) batches (GKD's lambda; 0: the teacher's data only)")
    beta: float = _f(0.5, "generalised JSD interpolation (0: forward KL, 1: reverse KL)")
    temperature: float = _f(0.9, "sampling temperature of on-policy generations")
    max_new_tokens: int = _f(64, "tokens generated per on-policy sample")


@dataclass
class RunConfig:
    backend: str = _f("auto", "auto | trl | unsloth (auto: unsloth only with CUDA and unsloth installed)")
    model: ModelConfig = field(default_factory=ModelConfig, metadata={"help": "the policy model"})
    data: DataConfig = field(default_factory=DataConfig, metadata={"help": "training data"})
    rewards: Any = _f([{"name": "math_equivalence", "weight": 1.0}], "RewardSet config: list of {name, weight, params}")
    cold_start: ColdStartConfig = field(default_factory=ColdStartConfig, metadata={"help": "supervised warm-up"})
    trainer: TrainerSettings = field(default_factory=TrainerSettings, metadata={"help": "GRPO settings"})
    eval: EvalSettings = field(default_factory=EvalSettings, metadata={"help": "evaluation"})
    output: OutputConfig = field(default_factory=OutputConfig, metadata={"help": "outputs"})
    sft: SftSettings = field(default_factory=SftSettings, metadata={"help": "rlvr sft: supervised fine-tuning"})
    sample: SampleSettings = field(default_factory=SampleSettings, metadata={"help": "rlvr sample: N completions "
                                                                                     "per problem, scored"})
    select: SelectSettings = field(default_factory=SelectSettings, metadata={"help": "rlvr select: rejection "
                                                                                     "sampling into an SFT set"})
    distill: DistillSettings = field(default_factory=DistillSettings, metadata={"help": "rlvr distill: logit "
                                                                                        "distillation (GKD)"})
    recipe: str | None = _f(None, "where this config came from")
    plugins: list[str] = _f([], "modules or .py files imported first (your own @reward functions and loaders)")





def recipe_path(name_or_path: str) -> Path:
    """A recipe file: a path, or the name of a recipe shipped with rlvr (``default-cpu``, ...)."""
    p = Path(name_or_path)
    if p.is_file():
        return p
    packaged = importlib.resources.files("rlvr.harness") / "recipes" / f"{name_or_path}.yaml"
    if packaged.is_file():
        return Path(str(packaged))
    shipped = sorted(q.name[:-5] for q in (importlib.resources.files("rlvr.harness") / "recipes").iterdir()
                     if q.name.endswith(".yaml"))
    raise ConfigError(f"recipe {name_or_path!r} is neither a file nor a shipped recipe ({', '.join(shipped)})")


def load_recipe(spec: str | Path | dict[str, Any] | None = None, overrides: list[str] | None = None,
                check_hardware: bool = True) -> RunConfig:
    """Load a recipe (default: the embedded CPU default), apply ``KEY=VALUE`` overrides, validate.

    ``check_hardware=False`` (dry runs) skips the checks of this machine: a GPU, installed trackers,
    and that local model and data paths exist."""
    if isinstance(spec, dict):
        data, where = copy.deepcopy(spec), "config"
    else:
        from rlvr.files import read_config

        path = recipe_path(str(spec or DEFAULT_RECIPE))
        data = read_config(path, "recipe")
        if data is None:
            raise ConfigError(f"{path}: the recipe is empty; start from a shipped one, e.g. "
                              f"rlvr train --recipe {DEFAULT_RECIPE} --dry-run")
        if not isinstance(data, dict):
            raise ConfigError(f"{path}: a recipe is a mapping of sections (model, data, rewards, trainer, ...), "
                              f"got {type(data).__name__} {str(data)[:60]!r}")
        where = str(path)
        data.setdefault("recipe", str(spec or DEFAULT_RECIPE))
    apply_overrides(data, overrides or [])
    try:
        config = build(RunConfig, data, "")
    except ConfigError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    from rlvr.plugins import import_plugins

    import_plugins(config.plugins, Path(where).parent if Path(where).is_file() else None)
    validate(config, check_hardware)
    return config


def apply_overrides(data: dict[str, Any], overrides: list[str]) -> None:
    """``a.b.c=value`` (value parsed as YAML: numbers, booleans, lists) into the nested dict."""
    for item in overrides:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise ConfigError(f"--set {item!r}: use KEY=VALUE, e.g. --set trainer.learning_rate=5e-6")
        try:
            value = yaml.safe_load(raw)
        except yaml.YAMLError:
            value = raw
        node = data
        parts = key.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise ConfigError(f"--set {item!r}: {part!r} is not a section")
        node[parts[-1]] = value


def validate(config: RunConfig, check_hardware: bool = True) -> None:
    """Cross-field checks; each error says how to fix it."""
    t, m = config.trainer, config.model
    if config.backend not in ("auto", "trl", "unsloth"):
        raise ConfigError(f"backend={config.backend!r}; use auto, trl or unsloth")
    if t.num_generations < 2:
        raise ConfigError("trainer.num_generations must be >= 2: GRPO compares completions within a group")
    generation_batch = t.per_device_train_batch_size * t.gradient_accumulation_steps
    if generation_batch % t.num_generations:
        raise ConfigError(f"trainer.per_device_train_batch_size x gradient_accumulation_steps = {generation_batch} is not "
                          f"divisible by num_generations = {t.num_generations}; e.g. set per_device_train_batch_size="
                          f"{t.num_generations * max(1, generation_batch // t.num_generations)}")
    if t.loss_type not in ("grpo", "bnpo", "dr_grpo", "dapo"):
        raise ConfigError(f"trainer.loss_type={t.loss_type!r}; use grpo, bnpo, dr_grpo or dapo")
    if t.importance_sampling_level not in ("token", "sequence"):
        raise ConfigError(f"trainer.importance_sampling_level={t.importance_sampling_level!r}; use token or sequence")
    if t.scale_rewards not in ("group", "batch", "none", True, False):
        raise ConfigError(f"trainer.scale_rewards={t.scale_rewards!r}; use group, batch or none")
    if t.epsilon_high is not None and t.epsilon_high < t.epsilon:
        raise ConfigError(f"trainer.epsilon_high={t.epsilon_high} < epsilon={t.epsilon}: clip-higher widens the upper "
                          "bound, so epsilon_high must be >= epsilon (DAPO: 0.2 and 0.28)")
    if t.beta < 0:
        raise ConfigError("trainer.beta (KL coefficient) must be >= 0")
    if t.max_steps < 1:
        raise ConfigError("trainer.max_steps must be >= 1")
    if t.save_steps < 1:
        raise ConfigError("trainer.save_steps must be >= 1")
    if not 0 < t.temperature <= 5:
        raise ConfigError("trainer.temperature must be in (0, 5]")
    if t.dynamic_sampling.metric != "reward":
        raise ConfigError(f"trainer.dynamic_sampling.metric={t.dynamic_sampling.metric!r}; use 'reward'")
    if t.dynamic_sampling.max_gen_batches < 1:
        raise ConfigError("trainer.dynamic_sampling.max_gen_batches must be >= 1")
    if t.vllm_mode not in ("colocate", "server"):
        raise ConfigError(f"trainer.vllm_mode={t.vllm_mode!r}; use colocate or server")
    if check_hardware and (t.use_vllm or m.load_in_4bit or config.backend == "unsloth"):
        import torch

        if not torch.cuda.is_available():
            what = "trainer.use_vllm" if t.use_vllm else "model.load_in_4bit" if m.load_in_4bit else "backend: unsloth"
            raise ConfigError(f"{what} needs a CUDA GPU and none is visible; on CPU set trainer.use_vllm=false, "
                              "model.load_in_4bit=false, backend=trl")
    if check_hardware and t.optim in ("adamw_8bit", "paged_adamw_8bit"):
        import torch

        if not torch.cuda.is_available():
            raise ConfigError(f"trainer.optim={t.optim} needs bitsandbytes on a GPU; on CPU use adamw_torch")
    import importlib.util

    for tracker in t.report_to:
        module = {"tensorboard": "tensorboard", "wandb": "wandb", "swanlab": "swanlab", "mlflow": "mlflow"}.get(tracker)
        if module is None:
            raise ConfigError(f"trainer.report_to: unknown tracker {tracker!r}; use tensorboard, wandb, swanlab or mlflow")
        if check_hardware and importlib.util.find_spec(module) is None:
            raise ConfigError(f"trainer.report_to includes {tracker!r} but it is not installed: pip install {module}")
    for section, names in (("model", ("max_seq_length", "hidden_size", "num_layers", "num_heads", "vocab_size")),
                           ("model.lora", ("r", "alpha")),
                           ("trainer", ("per_device_train_batch_size", "gradient_accumulation_steps",
                                        "max_completion_length", "num_iterations", "logging_steps")),
                           ("cold_start", ("steps", "batch_size", "examples")),
                           ("eval", ("batch_size",)), ("data", ("limit",))):
        obj = config
        for part in section.split("."):
            obj = getattr(obj, part)
        for name in names:
            value = getattr(obj, name)
            if value is not None and value < 1:
                raise ConfigError(f"{section}.{name}={value!r}; use an integer >= 1")
    for name in ("learning_rate", "weight_decay", "max_grad_norm", "warmup_ratio"):
        if getattr(t, name) < 0:
            raise ConfigError(f"trainer.{name}={getattr(t, name)!r} must be >= 0")
    from rlvr.files import looks_like_path

    for what, name in (("model.name_or_path", m.name_or_path), ("model.tokenizer", m.tokenizer),
                       ("data.path", config.data.path), ("eval.path", config.eval.path)):
        if check_hardware and name and name != "local-tiny" and (looks_like_path(name) or what.endswith("path") and what != "model.name_or_path") \
                and not Path(name).expanduser().exists():
            raise ConfigError(f"{what}={name!r} does not exist (a local path; hub ids look like org/name)")
    from rlvr.datasets.loaders import check_options, loader_names

    for what, name, path in (("data", config.data.name, config.data.path), ("eval", config.eval.name, config.eval.path)):
        if what == "eval" and not config.eval.enabled:
            continue
        if name not in loader_names() and name != "synthetic" and path is None and not Path(name).expanduser().exists():
            import difflib

            close = difflib.get_close_matches(name, loader_names(), n=1)
            raise ConfigError(f"{what}.name={name!r} is neither a known data set nor an existing file"
                              + (f" (did you mean {close[0]!r}?)" if close else "")
                              + f"; known: synthetic, {', '.join(loader_names())}")
    check_options(config.data.name, config.data.options, taken=("path", "template", "on_bad_gold", "limit"))
    if config.eval.enabled:
        check_options(config.eval.name, config.eval.options, taken=("path", "template"), where="eval")
    if m.dtype not in ("auto", "float32", "bfloat16", "float16"):
        raise ConfigError(f"model.dtype={m.dtype!r}; use auto, float32, bfloat16 or float16")
    if config.data.on_bad_gold not in ("drop", "keep", "error"):
        raise ConfigError("data.on_bad_gold must be drop, keep or error")
    if config.data.length_quantile is not None and not 0 < config.data.length_quantile <= 1:
        raise ConfigError("data.length_quantile must be in (0, 1]")
    if config.eval.samples < 1 or config.eval.n < 1:
        raise ConfigError("eval.samples and eval.n must be >= 1")
    if t.max_prompt_length is not None and t.max_prompt_length + t.max_completion_length > m.max_seq_length:
        raise ConfigError(f"trainer.max_prompt_length + max_completion_length = "
                          f"{t.max_prompt_length + t.max_completion_length} exceeds model.max_seq_length = "
                          f"{m.max_seq_length}; raise max_seq_length or shorten them")
    from rlvr.rewards import RewardSet

    RewardSet.from_config(config.rewards if isinstance(config.rewards, dict) else {"rewards": config.rewards})


def to_dict(config: RunConfig) -> dict[str, Any]:
    return dataclasses.asdict(config)
