"""``rlvr pipeline``: R1-style multi-stage training (sft -> grpo -> sample -> select -> sft -> grpo).

A pipeline recipe names a base run recipe, an output folder, and stages; each stage is a type
(``sft``, ``grpo``, ``sample``, ``select``, ``distill``) plus ``--set``-style overrides of the base
recipe. Stages are wired in order: a model stage starts from the model the previous model stage
wrote (the first from the base recipe's model), ``sample`` samples the recipe's training problems
with the current model, ``select`` reads the last ``sample`` stage, and an ``sft`` after a
``select`` trains on its set. Each stage writes ``<output>/<NN>-<name>/`` and, when done,
``stage.json``; a re-run skips finished stages and resumes an interrupted model stage from its last
checkpoint, and ``from_stage`` re-runs one stage and all after it (older folders are moved aside).
A model stage's "before" evaluation is the previous stage's "after" (the same model), not re-run.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlvr.errors import ConfigError

logger = logging.getLogger(__name__)

__all__ = ["PipelineRecipe", "Stage", "load_pipeline", "run_pipeline", "stage_config", "STAGE_TYPES"]

STAGE_TYPES = ("sft", "grpo", "sample", "select", "distill")
MODEL_STAGES = ("sft", "grpo", "distill")


@dataclass
class Stage:
    name: str
    type: str
    set: dict[str, Any] = field(default_factory=dict)


@dataclass
class PipelineRecipe:
    base: Any
    output: str
    stages: list[Stage]
    set: dict[str, Any] = field(default_factory=dict)
    source: str = ""


def _overrides(values: dict[str, Any] | list[str] | None, where: str) -> dict[str, Any]:
    if values is None:
        return {}
    if isinstance(values, list):  # ["a.b=1", ...]
        out = {}
        for item in values:
            key, sep, raw = str(item).partition("=")
            if not sep:
                raise ConfigError(f"{where}: override {item!r} is not KEY=VALUE")
            import yaml

            out[key] = yaml.safe_load(raw)
        return out
    if not isinstance(values, dict):
        raise ConfigError(f"{where}: 'set' must map dotted keys to values, e.g. {{trainer.max_steps: 20}}")
    return dict(values)


def load_pipeline(spec: str | Path | dict[str, Any], overrides: list[str] | None = None) -> PipelineRecipe:
    """Read and check a pipeline recipe (a file, a shipped name, or a dict)."""
    from rlvr.harness.config import recipe_path

    if isinstance(spec, dict):
        data, where = dict(spec), "pipeline"
    else:
        from rlvr.files import read_config

        path = recipe_path(str(spec))
        data, where = read_config(path, "pipeline recipe"), str(path)
    if not isinstance(data, dict) or "stages" not in data:
        raise ConfigError(f"{where}: a pipeline recipe has 'stages' (a list of {{name, type, set}}), 'base' and "
                          f"'output'; e.g. rlvr pipeline --recipe r1-pipeline-tiny-cpu")
    unknown = sorted(set(data) - {"base", "output", "stages", "set"})
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {unknown}; valid: base, output, set, stages")
    stages, names = [], set()
    for i, raw in enumerate(data["stages"] or []):
        if not isinstance(raw, dict) or raw.get("type") not in STAGE_TYPES:
            raise ConfigError(f"{where}: stage {i + 1} needs a type, one of {', '.join(STAGE_TYPES)}; got {raw!r}")
        name = str(raw.get("name") or f"{raw['type']}-{i + 1}")
        if name in names:
            raise ConfigError(f"{where}: two stages are named {name!r}; names must be unique")
        names.add(name)
        stages.append(Stage(name, raw["type"], _overrides(raw.get("set"), f"{where} stage {name}")))
    if not stages:
        raise ConfigError(f"{where}: the pipeline has no stages")
    common = _overrides(data.get("set"), where)
    common.update(_overrides(overrides or [], "--set"))
    # output.dir names the pipeline's folder (each stage's is a sub-folder of it, set by the wiring)
    output = common.pop("output.dir", None) or data.get("output") or "runs/pipeline"
    return PipelineRecipe(data.get("base", "default-cpu"), str(output), stages, common, where)


def stage_config(recipe: PipelineRecipe, stage: Stage, extra: dict[str, Any], check_hardware: bool = True) -> Any:
    """The run config of one stage: the base recipe with the pipeline's, the wiring's and the stage's overrides."""
    from rlvr.harness.config import load_recipe

    values = {**recipe.set, **extra, **stage.set}
    return load_recipe(recipe.base, [f"{k}={json.dumps(v)}" for k, v in values.items()], check_hardware)


def _done(stage_dir: Path) -> dict[str, Any] | None:
    try:
        record = json.loads((stage_dir / "stage.json").read_text())
    except (OSError, ValueError):
        return None
    return record if record.get("status") == "done" else None


def _set_aside(stage_dir: Path) -> None:
    if stage_dir.exists():
        target = stage_dir.with_name(f"{stage_dir.name}.old-{int(time.time())}")
        stage_dir.rename(target)
        logger.info("moved the earlier %s to %s", stage_dir.name, target.name)


def _carry_eval(previous: dict[str, Any] | None, run_dir: Path) -> None:
    """The previous model stage's 'after' evaluation is this stage's 'before' (same model, same set)."""
    if previous and previous.get("eval_after"):
        run_dir.mkdir(parents=True, exist_ok=True)
        if not (run_dir / "eval_before.json").exists():
            shutil.copy(previous["eval_after"], run_dir / "eval_before.json")


def _run_stage(recipe: PipelineRecipe, stage: Stage, stage_dir: Path, state: dict[str, Any], resume: bool) -> dict[str, Any]:
    extra: dict[str, Any] = {"output.dir": str(stage_dir)}
    model = state.get("model")
    if model and stage.type in ("sft", "grpo", "distill", "sample"):
        extra["model.name_or_path"] = model
    if stage.type == "grpo" and model:
        extra["cold_start.enabled"] = False  # the pipeline's own sft stage is the cold start
    if stage.type == "grpo":
        extra["output.save_merged"] = True  # a LoRA run leaves a full model for the next stage
    if stage.type in ("sft", "distill") and state.get("sft_data"):
        extra["sft.data"] = state["sft_data"]
    config = stage_config(recipe, stage, extra)
    record: dict[str, Any] = {"name": stage.name, "type": stage.type}
    if stage.type == "grpo":
        from rlvr.harness.train import run

        _carry_eval(state.get("last_model_stage"), stage_dir)
        summary = run(config, resume=resume)
        model_dir = Path(summary.run_dir) / ("merged" if (Path(summary.run_dir) / "merged").is_dir() else "final")
        record.update(model_dir=str(model_dir), summary=summary.__dict__)
        after = Path(summary.run_dir) / "eval_after.json"
    elif stage.type in ("sft", "distill"):
        from rlvr.harness.sft import run_distill, run_sft

        _carry_eval(state.get("last_model_stage"), stage_dir)
        summary = (run_sft if stage.type == "sft" else run_distill)(config, resume=resume)
        record.update(model_dir=summary.model_dir, summary=summary.__dict__)
        after = Path(summary.run_dir) / "eval_after.json"
    elif stage.type == "sample":
        record.update(samples=str(_sample(config, stage_dir)))
        return record
    else:
        if not state.get("samples"):
            raise ConfigError(f"stage {stage.name}: 'select' needs an earlier 'sample' stage")
        from rlvr.harness.selection import SelectOptions, select_file

        s = config.select
        out = stage_dir / "sft.jsonl"
        tokenizer = None
        if s.max_tokens is not None and model:
            from transformers import AutoTokenizer

            tokenizer = AutoTokenizer.from_pretrained(model)
        report = select_file(state["samples"], out, SelectOptions(**dataclasses.asdict(s)), tokenizer)
        record.update(sft_data=str(out), report=report.__dict__)
        return record
    if after.is_file():
        record["eval_after"] = str(after)
    return record


def _sample(config: Any, stage_dir: Path) -> Path:
    """Sample the recipe's training problems with the current model (``sample`` settings)."""
    from rlvr.harness.sampling import sample
    from rlvr.harness.train import load_run_data

    s = config.sample
    train, _ = load_run_data(config)
    if s.problems is not None:
        train = train.select(range(min(s.problems, len(train))))
    rewards = config.rewards if isinstance(config.rewards, dict) else {"rewards": config.rewards}
    sample(stage_dir, model=config.model.name_or_path, dataset=train, completions_file=s.completions,
           rewards=rewards, n=s.n, max_new_tokens=s.max_new_tokens or config.trainer.max_completion_length,
           temperature=s.temperature, batch_size=s.batch_size, engine=s.engine)
    return stage_dir / "samples.jsonl"


def run_pipeline(recipe: PipelineRecipe, from_stage: str | None = None) -> dict[str, Any]:
    """Run (or continue) every stage; returns and writes ``<output>/pipeline.json``."""
    out = Path(recipe.output).expanduser().resolve()
    names = [s.name for s in recipe.stages]
    if from_stage is not None and from_stage not in names:
        raise ConfigError(f"--from-stage {from_stage!r} is not a stage of {recipe.source} ({', '.join(names)})")
    out.mkdir(parents=True, exist_ok=True)
    state: dict[str, Any] = {}
    records = []
    rerun = False
    started = time.perf_counter()
    for i, stage in enumerate(recipe.stages):
        stage_dir = out / f"{i + 1:02d}-{stage.name}"
        rerun = rerun or stage.name == from_stage
        done = None if rerun else _done(stage_dir)
        if rerun:
            _set_aside(stage_dir)
        if done is not None:
            logger.info("stage %s: done earlier, reusing %s", stage.name, stage_dir)
            record = done
        else:
            logger.info("stage %d/%d %s (%s) -> %s", i + 1, len(recipe.stages), stage.name, stage.type, stage_dir)
            t0 = time.perf_counter()
            record = _run_stage(recipe, stage, stage_dir, state, resume=stage_dir.exists())
            record.update(status="done", seconds=round(time.perf_counter() - t0, 1))
            stage_dir.mkdir(parents=True, exist_ok=True)
            (stage_dir / "stage.json").write_text(json.dumps(record, indent=2, default=str))
        records.append(record)
        if record.get("model_dir"):
            state["model"] = record["model_dir"]
            state["last_model_stage"] = record
        if record.get("samples"):
            state["samples"] = record["samples"]
        if record.get("sft_data"):
            state["sft_data"] = record["sft_data"]
        elif record["type"] in ("sft", "distill"):
            state.pop("sft_data", None)  # a set trains one sft stage; a later sft needs its own select
    result = {"output": str(out), "stages": records, "seconds": round(time.perf_counter() - started, 1),
              "model": state.get("model")}
    (out / "pipeline.json").write_text(json.dumps(result, indent=2, default=str))
    return result
