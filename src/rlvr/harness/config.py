"""The run configuration: one dataclass tree, loaded from a YAML recipe, overridable field by field.

Sections: ``model``, ``data``, ``rewards`` (a RewardSet config), ``cold_start`` (supervised warm-up),
``trainer`` (every field of the installed TRL's GRPOConfig and rlvr's additions:
:mod:`rlvr.harness.trainer_settings`), ``eval``, ``output`` and ``runtime`` (thread counts). Every field
is an :func:`rlvr.typed.param` with help text, a type, and where it has them choices and a range,
checked when the recipe loads; :func:`validate` runs the cross-field checks and TRL's own
``GRPOConfig`` checks up front and says how to fix each problem. ``rlvr train --set
trainer.learning_rate=5e-6`` overrides one field; ``rlvr train --help-config`` lists them all.
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
from rlvr.harness.trainer_settings import DynamicSamplingSettings, merge_extra, trackers, trainer_settings
from rlvr.typed import build, field_docs, param

__all__ = ["RunConfig", "ModelConfig", "LoraSettings", "DataConfig", "ColdStartConfig", "TrainerSettings",
           "DynamicSamplingSettings", "EvalSettings", "OutputConfig", "RuntimeSettings", "SftSettings",
           "SampleSettings", "SelectSettings", "DistillSettings", "load_recipe", "apply_overrides", "validate",
           "to_dict", "config_fields", "DEFAULT_RECIPE"]

DEFAULT_RECIPE = "default-cpu"


def __getattr__(name: str) -> Any:  # TrainerSettings is built from the installed TRL on first use
    if name == "TrainerSettings":
        return trainer_settings()
    raise AttributeError(name)


@dataclass
class LoraSettings:
    enabled: bool = param(True, "train LoRA adapters instead of all weights")
    r: int = param(16, "LoRA rank", min=1)
    alpha: int = param(32, "LoRA alpha (scaling = alpha / r)", min=1)
    dropout: float = param(0.0, "LoRA dropout", min=0, max=1)
    target_modules: list[str] = param(["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"],
                                   "module names to adapt (all attention and MLP projections by default)")


@dataclass
class ModelConfig:
    name_or_path: str = param("local-tiny", "hub id or local path; 'local-tiny' builds a small Qwen2 model and "
                                         "tokenizer locally (no download)")
    tokenizer: str | None = param(None, "tokenizer id or path (default: the model's)")
    dtype: str = param("auto", "auto: float32 on CPU, bfloat16 on GPU", choices=("auto", "float32", "bfloat16", "float16"))
    max_seq_length: int = param(1024, "longest prompt + completion in tokens", min=1)
    load_in_4bit: bool = param(False, "load 4-bit quantised weights (unsloth / bitsandbytes, GPU only)")
    gpu_memory_utilization: float = param(0.6, "share of GPU memory vLLM may take (unsloth fast_inference)", min=0, max=1)
    hidden_size: int = param(128, "local-tiny: hidden size", min=1)
    num_layers: int = param(2, "local-tiny: transformer layers", min=1)
    num_heads: int = param(4, "local-tiny: attention heads", min=1)
    vocab_size: int = param(400, "local-tiny: BPE vocabulary size of the locally trained tokenizer", min=1)
    lora: LoraSettings = field(default_factory=LoraSettings, metadata={"help": "LoRA adapter settings"})


@dataclass
class DataConfig:
    name: str = param("synthetic", "data set name (synthetic, dapo-math, math-500, gsm8k, ...) or file path")
    path: str | None = param(None, "local copy of the data set (parquet/jsonl/json)")
    template: Any = param("r1", "prompt template: r1, working_out, boxed, dapo, plain, or {system, instruction, ...}")
    options: dict[str, Any] = param({}, "loader options, e.g. synthetic {n, level, kinds, seed}; problem_field/answer_field")
    limit: int | None = param(None, "use at most this many training rows", min=1)
    length_quantile: float | None = param(None, "drop prompts longer than this quantile of lengths (recipe: 0.9)")
    on_bad_gold: str = param("drop", "rows whose gold does not parse: dropped, kept, or an error", choices=("drop", "keep", "error"))


@dataclass
class ColdStartConfig:
    enabled: bool = param(False, "supervised warm-up on worked solutions before GRPO (needs a 'reasoning' column)")
    steps: int = param(200, "optimizer steps of the warm-up", min=1)
    batch_size: int = param(16, "examples per warm-up step", min=1)
    learning_rate: float = param(3e-3, "warm-up learning rate", min=0)
    examples: int = param(2000, "worked solutions generated/used for the warm-up", min=1)


@dataclass
class EvalSettings:
    enabled: bool = param(True, "evaluate before and after GRPO")
    name: str = param("synthetic", "eval set name or path")
    path: str | None = param(None, "local copy of the eval set")
    options: dict[str, Any] = param({"split": "test"}, "loader options (synthetic: split test)")
    n: int = param(100, "problems evaluated", min=1)
    samples: int = param(1, "samples per problem (pass@k / maj@k / mean@k); 1 = greedy", min=1)
    temperature: float = param(1.0, "sampling temperature when samples > 1")
    max_new_tokens: int | None = param(None, "default: trainer.max_completion_length")
    batch_size: int = param(32, "prompts per generate call", min=1)


@dataclass
class OutputConfig:
    dir: str = param("runs/default", "run folder: config, metrics, checkpoints, adapter, plots")
    sample_completions: int = param(2, "completions per logged step written with their reward reasons")
    save_merged: bool = param(False, "also save merged 16-bit weights at the end")
    plot: bool = param(True, "write reward_curve.png")


@dataclass
class RuntimeSettings:
    threads: int | None = param(None, "torch intra-op threads of the run (null: the CPUs this process may use, "
                                      "when waiting OpenMP threads sleep (OMP_WAIT_POLICY=PASSIVE, the rlvr "
                                      "command's default); else 1, since threads that spin while they wait cost "
                                      "several times the CPU beside other work)", min=1)
    interop_threads: int | None = param(None, "torch inter-op threads (null: torch's default)", min=1)


@dataclass
class SftSettings:
    data: str | None = param(None, "SFT set in TRL's prompt/completion chat format (rlvr select writes one); "
                                "unset: worked solutions of the recipe's data (a 'reasoning' column: R1's cold start)")
    max_steps: int = param(200, "optimizer steps (-1: run num_epochs over the set)")
    num_epochs: float = param(1.0, "passes over the set when max_steps is -1")
    batch_size: int = param(16, "examples per step")
    learning_rate: float = param(2e-4, "peak learning rate (full fine-tunes of real models want ~1e-5)")
    lr_scheduler_type: str = param("cosine", "learning-rate schedule")
    warmup_ratio: float = param(0.05, "share of steps spent warming up")
    save_steps: int = param(100, "checkpoint every N steps (--resume continues from the last)")
    examples: int | None = param(None, "use at most this many training rows")


@dataclass
class SampleSettings:
    n: int = param(8, "completions per problem")
    problems: int | None = param(None, "sample at most this many problems of the recipe's data")
    temperature: float = param(1.0, "sampling temperature")
    max_new_tokens: int | None = param(None, "default: trainer.max_completion_length")
    batch_size: int = param(32, "prompts per generate call")
    engine: str = param("hf", "hf: transformers generate, CPU or GPU; vllm: GPU", choices=("hf", "vllm"))
    completions: str | None = param(None, "score this JSONL of completions made elsewhere instead of generating")


@dataclass
class SelectSettings:
    k: int = param(1, "verified samples kept per problem at most (best-of-N by total reward)")
    drop_truncated: bool = param(True, "drop samples cut off at the token limit (their last sentence may state the "
                                    "gold by chance)")
    require_correct: bool = param(True, "keep only samples the verifier accepts")
    min_total: float | None = param(None, "keep only samples whose total reward reaches this")
    min_chars: int = param(1, "drop completions shorter than this")
    max_chars: int | None = param(None, "drop completions longer than this many characters")
    max_tokens: int | None = param(None, "drop completions longer than this many tokens (the model's tokenizer)")
    dedupe: bool = param(True, "drop a completion identical (whitespace aside) to a kept one of the same problem")
    shortest_correct: bool = param(False, "rank the shortest verified sample first instead of the highest total")


@dataclass
class DistillSettings:
    teacher: str | None = param(None, "teacher model (a folder or hub id) sharing the student's tokenizer")
    lmbda: float = param(0.5, "share of on-policy (student-generated) batches (GKD's lambda; 0: the teacher's data only)")
    beta: float = param(0.5, "generalised JSD interpolation (0: forward KL, 1: reverse KL)")
    temperature: float = param(0.9, "sampling temperature of on-policy generations")
    max_new_tokens: int = param(64, "tokens generated per on-policy sample")


@dataclass
class RunConfig:
    backend: str = param("auto", "auto: unsloth only with CUDA and unsloth installed", choices=("auto", "trl", "unsloth"))
    model: ModelConfig = field(default_factory=ModelConfig, metadata={"help": "the policy model"})
    data: DataConfig = field(default_factory=DataConfig, metadata={"help": "training data"})
    rewards: Any = param([{"name": "math_equivalence", "weight": 1.0}], "RewardSet config: list of {name, weight, params}")
    cold_start: ColdStartConfig = field(default_factory=ColdStartConfig, metadata={"help": "supervised warm-up"})
    trainer: Any = field(default_factory=lambda: trainer_settings()(),
                         metadata={"help": "GRPO settings: every field of the installed TRL's GRPOConfig, and rlvr's",
                                   "section": trainer_settings})
    eval: EvalSettings = field(default_factory=EvalSettings, metadata={"help": "evaluation"})
    output: OutputConfig = field(default_factory=OutputConfig, metadata={"help": "outputs"})
    runtime: RuntimeSettings = field(default_factory=RuntimeSettings, metadata={"help": "threads of the run"})
    sft: SftSettings = field(default_factory=SftSettings, metadata={"help": "rlvr sft: supervised fine-tuning"})
    sample: SampleSettings = field(default_factory=SampleSettings, metadata={"help": "rlvr sample: N completions "
                                                                                     "per problem, scored"})
    select: SelectSettings = field(default_factory=SelectSettings, metadata={"help": "rlvr select: rejection "
                                                                                     "sampling into an SFT set"})
    distill: DistillSettings = field(default_factory=DistillSettings, metadata={"help": "rlvr distill: logit "
                                                                                        "distillation (GKD)"})
    recipe: str | None = param(None, "where this config came from")
    plugins: list[str] = param([], "modules or .py files imported first (your own @reward functions and loaders)")
    note: str | None = param(None, "printed at the end of the run: what to expect from this recipe")


def recipe_path(name_or_path: str) -> Path:
    """A recipe file: a path, or the name of a recipe shipped with rlvr (``default-cpu``, ...)."""
    p = Path(name_or_path)
    if p.is_file():
        return p
    if p.is_dir():
        raise ConfigError(f"recipe {name_or_path} is a folder; give the recipe's YAML file")
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
        if "stages" in data:
            raise ConfigError(f"{path}: this is a pipeline recipe (it has stages): use rlvr pipeline --recipe {spec}")
        data.setdefault("recipe", str(spec or DEFAULT_RECIPE))
    apply_overrides(data, overrides or [])
    try:
        if isinstance(data.get("trainer"), dict):
            merge_extra(data["trainer"], "")
        config = build(RunConfig, data, "")
    except ConfigError as exc:
        item = _override_blamed(str(exc), overrides or [])
        # a bad value given on the command line is named there, not in the recipe file it overrides
        raise ConfigError(f"--set {item}: {exc}" if item else f"{where}: {exc}") from None
    from rlvr.plugins import import_plugins

    import_plugins(config.plugins, Path(where).parent if Path(where).is_file() else None)
    validate(config, check_hardware)
    return config


def _override_blamed(message: str, overrides: list[str]) -> str | None:
    """The ``--set KEY=VALUE`` item an error of the config's build is about (its field's path starts
    the message, or the field is named unknown in its section), else None: the recipe's own value."""
    for item in reversed(overrides):  # the last --set of a key is the one that took effect
        key = item.partition("=")[0].strip()
        if not key:
            continue
        if message.startswith(key) and not (message[len(key):len(key) + 1].isalnum()
                                            or message[len(key):len(key) + 1] == "_"):
            return item
        parent, _, leaf = key.rpartition(".")
        if message.startswith(f"{parent}: unknown field(s)" if parent else "unknown field(s)") \
                and repr(leaf) in message.split(";")[0]:
            return item
    return None


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
    """Cross-field checks, then TRL's own GRPOConfig checks; each error says how to fix it.

    Types, choices and ranges of single fields were checked when the config was built."""
    t, m = config.trainer, config.model
    if t.num_generations is not None and t.num_generations < 2:
        raise ConfigError("trainer.num_generations must be >= 2: GRPO compares completions within a group")
    generation_batch = t.per_device_train_batch_size * t.gradient_accumulation_steps
    if t.num_generations and generation_batch % t.num_generations:
        raise ConfigError(f"trainer.per_device_train_batch_size x gradient_accumulation_steps = {generation_batch} is not "
                          f"divisible by num_generations = {t.num_generations}; e.g. set per_device_train_batch_size="
                          f"{t.num_generations * max(1, generation_batch // t.num_generations)}")
    if t.epsilon_high is not None and t.epsilon_high < t.epsilon:
        raise ConfigError(f"trainer.epsilon_high={t.epsilon_high} < epsilon={t.epsilon}: clip-higher widens the upper "
                          "bound, so epsilon_high must be >= epsilon (DAPO: 0.2 and 0.28)")
    if not 0 < t.temperature <= 5:
        raise ConfigError("trainer.temperature must be in (0, 5]")
    if t.dynamic_sampling.enabled:  # it reaches TRL's private generation step: the installed TRL must have it
        from trl import GRPOTrainer

        from rlvr.harness.trl_generation import check_trainer

        check_trainer(GRPOTrainer)
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

    for tracker in [x for x in trackers(t.report_to) if x != "all"]:
        module = {"tensorboard": "tensorboard", "wandb": "wandb", "swanlab": "swanlab", "mlflow": "mlflow",
                  "trackio": "trackio"}.get(tracker)
        if module is None:
            raise ConfigError(f"trainer.report_to: unknown tracker {tracker!r}; use tensorboard, wandb, swanlab, "
                              "mlflow or trackio")
        if check_hardware and importlib.util.find_spec(module) is None:
            raise ConfigError(f"trainer.report_to includes {tracker!r} but it is not installed: pip install {module}")
    from rlvr.files import looks_like_path

    for what, name in (("model.name_or_path", m.name_or_path), ("model.tokenizer", m.tokenizer),
                       ("data.path", config.data.path), ("eval.path", config.eval.path)):
        if check_hardware and name and name != "local-tiny" and (looks_like_path(name) or what.endswith("path") and what != "model.name_or_path") \
                and not Path(name).expanduser().exists():
            fix = (f"point it at a local copy, or remove {what} to load {getattr(config, what.split('.')[0]).name} "
                   "from the Hugging Face Hub (README: data sets)") if what.endswith(".path") else \
                "a local path; hub ids look like org/name"
            raise ConfigError(f"{what}={name!r} does not exist ({fix})")
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
    if config.data.length_quantile is not None and not 0 < config.data.length_quantile <= 1:
        raise ConfigError("data.length_quantile must be in (0, 1]")
    if t.max_prompt_length is not None and t.max_completion_length is not None \
            and t.max_prompt_length + t.max_completion_length > m.max_seq_length:
        raise ConfigError(f"trainer.max_prompt_length + max_completion_length = "
                          f"{t.max_prompt_length + t.max_completion_length} exceeds model.max_seq_length = "
                          f"{m.max_seq_length}; raise max_seq_length or shorten them")
    from rlvr.rewards import RewardSet

    rs = RewardSet.from_config(config.rewards if isinstance(config.rewards, dict) else {"rewards": config.rewards})
    from rlvr.harness.trainer_settings import grpo_config

    cuda = check_hardware and _cuda()
    grpo_config(t, str(Path(config.output.dir) / "checkpoints"), rs.weights, cuda, m.dtype)  # TRL's checks speak


def _cuda() -> bool:
    import torch

    return torch.cuda.is_available()


def to_dict(config: RunConfig, compact: bool = False) -> dict[str, Any]:
    """The config as plain data (what a run saves as config.yaml). ``compact`` leaves out the trainer
    fields that are at TRL's default (what ``--dry-run`` prints)."""
    out = dataclasses.asdict(config)
    if compact:
        docs = field_docs(type(config.trainer))
        out["trainer"] = {k: v for k, v in out["trainer"].items()
                          if docs[k].get("source") != "TRL" or "rlvr_reason" in docs[k] or v != docs[k]["trl_default"]}
    return out


def config_fields(section: str | None = None) -> dict[str, dict[str, Any]]:
    """Every field of the run config (``section.field``: type, default, help, source), or one section's."""
    docs = field_docs(RunConfig, recursive=True)
    if not section:
        return docs
    picked = {k: v for k, v in docs.items() if k == section or k.startswith(section + ".")}
    if not picked:
        sections = sorted({k.split(".")[0] for k in docs})
        raise ConfigError(f"--help-config {section!r}: no such section or field; sections: {', '.join(sections)}")
    return picked
