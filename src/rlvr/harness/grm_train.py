"""``rlvr grm train``: the meta RM and SPCT's two stages for a generative judge.

From preference pairs whose better response is known, the judge samples k judgments per pair (the
verdict cache keeps them, so ``rlvr grm eval`` and a re-run reuse them). Then:

* ``meta-rm``: a Bradley-Terry scorer of judgments (:mod:`rlvr.harness.rm`, TRL's RewardTrainer):
  a judgment that put the better response strictly on top is preferred to one of the same pair
  that did not. Used as ``meta_rm`` with ``k_meta`` (MetaRM@k).
* ``rft`` (rejective fine-tuning): the judgments go through ``rlvr sample`` (scored by
  ``grm_rule``: +1 right, -1 wrong), pairs whose judgments are all right or all wrong are dropped,
  ``rlvr select`` keeps the right ones, ``rlvr sft`` fine-tunes the judge on them.
* ``rl`` (rule-based online RL): ``rlvr train`` runs GRPO on the judge prompts with ``grm_rule`` as
  the reward and the KL term kept (``beta`` > 0); the merged judge is the result.

A stage with nothing to learn from (no parseable judgment, no right one) says so and is skipped; it
never fabricates data.
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlvr.errors import ConfigError
from rlvr.harness.grm import JudgeRun, judge_pairs
from rlvr.rewards.judges import EngineSettings, JudgePrompt, VerdictCache
from rlvr.rewards.judges.prompts import SYSTEM

logger = logging.getLogger(__name__)

__all__ = ["SpctResult", "judgment_rows", "train_meta_rm", "rejective_fine_tuning", "online_rl", "spct_train",
           "STAGES"]

STAGES = ("meta-rm", "rft", "rl")


@dataclass
class SpctResult:
    """What ``rlvr grm train`` produced: the trained judge folder, the meta RM folder, and notes."""

    judge: str | None = None
    meta_rm: str | None = None
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return "rlvr grm train: " + "; ".join(self.notes + [f"judge: {self.judge or 'unchanged'}",
                                                           f"meta RM: {self.meta_rm or 'none'}"])


def judgment_rows(run: JudgeRun, pairs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per judgment with text: the judge prompt it answered (chat), the 1-based position of
    the better response in it, whether the judgment was right, and the pair it came from."""
    rows = []
    for pair, verdict in zip(pairs, run.verdicts):
        for v in verdict.votes:
            if v.text is None:
                continue
            best = v.order.index(0) + 1  # the chosen response is index 0 of the pair
            right = v.scores is not None and v.scores[0] > v.scores[1]
            rows.append({"id": f"{pair['id']}-o{''.join(map(str, v.order))}", "pair": pair["id"], "sample": v.sample,
                         "prompt": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": v.prompt}],
                         "problem": v.prompt, "answer": str(best), "completion": v.text, "parsed": v.scores is not None,
                         "right": right})
    return rows


def train_meta_rm(rows: list[dict[str, Any]], out_dir: Path, max_steps: int = 60, per_pair: int = 4) -> str:
    """A Bradley-Terry meta RM on (right, wrong) judgment pairs of the same preference pair."""
    from rlvr.harness.rm import load_rm_recipe, train_reward_model

    by_pair: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        if r["parsed"]:
            by_pair[r["pair"]].append(r)
    examples = []
    for judged in by_pair.values():
        good, bad = [r for r in judged if r["right"]], [r for r in judged if not r["right"]]
        for i, (g, b) in enumerate((g, b) for g in good for b in bad):
            if i >= per_pair:
                break
            examples.append({"prompt": g["problem"] + "\n\n[Judgment]\n", "chosen": g["completion"],
                             "rejected": b["completion"]})
    parsed = sum(len(v) for v in by_pair.values())
    if len(examples) < 2:
        raise ConfigError(f"the meta RM needs right and wrong parseable judgments of the same pairs: {parsed} of "
                          f"{len(rows)} judgments parsed, {len(examples)} (right, wrong) pair(s). Sample more (k) or "
                          "use a judge that writes the score line")
    out_dir.mkdir(parents=True, exist_ok=True)
    data = out_dir / "meta_pairs.jsonl"
    data.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in examples))
    recipe = load_rm_recipe(None, [f"data.path={data}", f"output.dir={out_dir / 'model'}", f"training.max_steps={max_steps}",
                                   "training.batch_size=8", "training.max_length=512", "data.eval_share=0.2"])
    metrics = train_reward_model(recipe)
    logger.info("meta RM: %d judgment pairs, held-out accuracy %.3f", len(examples), metrics["accuracy"])
    return str(out_dir / "model")


def _run_config(judge: str, out_dir: Path, max_seq_length: int = 1536, **sections: Any) -> Any:
    from rlvr.harness.config import load_recipe

    spec = {"backend": "trl", "model": {"name_or_path": judge, "max_seq_length": max_seq_length,
                                        "lora": {"enabled": True, "r": 8, "alpha": 16,
                                                 "target_modules": ["q_proj", "k_proj", "v_proj", "o_proj"]}},
            "data": {"name": "synthetic"}, "rewards": [{"name": "grm_rule"}], "eval": {"enabled": False},
            "output": {"dir": str(out_dir), "plot": False}, **sections}
    return load_recipe(spec, [])


def rejective_fine_tuning(judge: str, rows: list[dict[str, Any]], out_dir: Path, steps: int = 20,
                          keep_per_prompt: int = 2) -> tuple[str | None, str]:
    """(fine-tuned judge folder or None, what happened): rlvr sample -> drop all-right/all-wrong
    pairs -> rlvr select (right judgments) -> rlvr sft."""
    import datasets

    from rlvr.harness.sampling import read_samples, sample
    from rlvr.harness.selection import SelectOptions, select
    from rlvr.harness.sft import run_sft

    out_dir.mkdir(parents=True, exist_ok=True)
    by_id: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_id[r["id"]].append(r)
    completions = out_dir / "judgments.jsonl"
    completions.write_text("".join(json.dumps({"id": i, "answer": g[0]["answer"], "completions": [r["completion"] for r in g]},
                                              ensure_ascii=False) + "\n" for i, g in by_id.items()))
    prompts = datasets.Dataset.from_list([{"id": i, "prompt": g[0]["prompt"], "answer": g[0]["answer"]}
                                          for i, g in by_id.items()])
    sample(out_dir / "samples", completions_file=str(completions), dataset=prompts, rewards=[{"name": "grm_rule"}])
    samples = read_samples(out_dir / "samples" / "samples.jsonl")
    pair_of = {r["id"]: r["pair"] for r in rows}
    outcome: dict[str, list[bool]] = defaultdict(list)
    for s in samples:
        outcome[pair_of[str(s["id"])]].append((s.get("total") or 0) > 0)
    mixed = {p for p, o in outcome.items() if any(o) and not all(o)}
    note = (f"RFT: {sum(len(o) for o in outcome.values())} judgments of {len(outcome)} pairs; "
            f"{sum(all(o) for o in outcome.values())} pairs all right, {sum(not any(o) for o in outcome.values())} "
            f"all wrong (dropped), {len(mixed)} mixed")
    kept_samples = [s for s in samples if pair_of[str(s["id"])] in mixed]
    if not kept_samples:
        return None, note + "; nothing to fine-tune on, SFT skipped"
    sft_rows, report = select(kept_samples, SelectOptions(k=keep_per_prompt, require_correct=False, min_total=0.5,
                                                          drop_truncated=False))
    if not sft_rows:
        return None, note + "; select kept nothing, SFT skipped"
    sft_path = out_dir / "sft.jsonl"
    sft_path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in sft_rows))
    summary = run_sft(_run_config(judge, out_dir / "sft", sft={"data": str(sft_path), "max_steps": steps, "batch_size": 4,
                                                               "learning_rate": 1e-4, "save_steps": max(steps, 1)}))
    return summary.model_dir, note + f"; SFT on {len(sft_rows)} right judgments, {summary.steps} steps"


def online_rl(judge: str, rows: list[dict[str, Any]], out_dir: Path, steps: int = 4, max_new_tokens: int = 64,
              beta: float = 0.04, max_prompt_length: int = 896) -> tuple[str, str]:
    """(merged judge folder, what happened): GRPO on the judge prompts, ``grm_rule`` as the reward."""
    from rlvr.harness.train import run

    out_dir.mkdir(parents=True, exist_ok=True)
    data = out_dir / "judge_prompts.jsonl"
    seen: dict[str, dict[str, Any]] = {}
    for r in rows:
        seen.setdefault(r["id"], {"id": r["id"], "problem": r["problem"], "answer": r["answer"]})
    data.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in seen.values()))
    config = _run_config(judge, out_dir / "grpo", max_seq_length=max_prompt_length + max_new_tokens,
                         data={"name": str(data), "template": {"system": SYSTEM, "instruction": "{problem}"},
                               "on_bad_gold": "keep"},
                         trainer={"num_generations": 4, "per_device_train_batch_size": 8, "max_prompt_length": max_prompt_length,
                                  "max_completion_length": max_new_tokens, "temperature": 0.5, "learning_rate": 1e-5,
                                  "beta": beta, "max_steps": steps, "save_steps": max(1, steps // 2), "seed": 0})
    config.output.save_merged = True
    summary = run(config)
    means = ", ".join(f"{k} {v:.2f}" for k, v in summary.reward_means.items())
    return str(Path(summary.run_dir) / "merged"), f"RL: {summary.steps} GRPO steps on {len(seen)} judge prompts ({means})"


def spct_train(judge: str, pairs: list[dict[str, Any]], out_dir: str | Path, prompt: JudgePrompt,
               settings: EngineSettings, cache: VerdictCache, k_meta: int | None = 4,
               stages: tuple[str, ...] = STAGES, progress: Callable[[str], None] | None = None,
               batch_size: int = 8, rft_steps: int = 20, rl_steps: int = 4) -> SpctResult:
    """Sample judgments on ``pairs`` and run the chosen stages; see the module docstring."""
    from rlvr.rewards.judges.backends import TransformersJudge

    unknown = sorted(set(stages) - set(STAGES))
    if unknown:
        raise ConfigError(f"unknown stage(s) {unknown}; stages: {list(STAGES)}")
    out = Path(out_dir)
    done = out / "spct.json"
    if done.is_file():  # finished before: a re-run (a resumed benchmark) reuses it
        saved = json.loads(done.read_text())
        if saved.get("stages") == list(stages):
            logger.info("rlvr grm train: %s is complete; delete it to train again", done)
            return SpctResult(saved["judge"], saved["meta_rm"], saved["notes"])
    out.mkdir(parents=True, exist_ok=True)
    run = judge_pairs(TransformersJudge(judge, batch_size=batch_size), pairs, prompt, settings, cache,
                      name=f"training split, k={settings.k}", progress=progress)
    rows = judgment_rows(run, pairs)
    (out / "judgments.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    parsed, right = sum(r["parsed"] for r in rows), sum(r["right"] for r in rows)
    result = SpctResult(notes=[f"{len(rows)} training judgments, {parsed} parsed, {right} right"])
    if "meta-rm" in stages and k_meta:
        try:
            result.meta_rm = train_meta_rm(rows, out / "meta-rm")
        except ConfigError as exc:
            result.notes.append(f"meta RM not trained: {exc}")
    current = judge
    if "rft" in stages:
        tuned, note = rejective_fine_tuning(judge, rows, out / "rft", steps=rft_steps)
        result.notes.append(note)
        current = tuned or judge
    if "rl" in stages:
        current, note = online_rl(current, rows, out / "rl", steps=rl_steps, max_new_tokens=settings.max_new_tokens)
        result.notes.append(note)
    result.judge = current if current != judge else None
    done.write_text(json.dumps({**result.__dict__, "stages": list(stages)}, indent=2))
    return result
