"""``rlvr grm train``: the meta RM and SPCT's two stages for a generative judge.

From preference pairs whose better response is known, the judge samples k judgments per pair (the
verdict cache keeps them, so ``rlvr grm eval`` and a re-run reuse them). Then:

* ``meta-rm``: a Bradley-Terry scorer of judgments (:mod:`rlvr.harness.rm`, TRL's RewardTrainer):
  a judgment that put the better response strictly on top is preferred to one of the same pair
  that did not. Used as ``meta_rm`` with ``k_meta`` (MetaRM@k).
* ``rft`` (rejective fine-tuning): judgments whose score line puts the better response on top are
  kept, pairs whose judgments are all right are dropped (nothing to learn), pairs with none right get
  hinted judgments (the prompt says which response is better; the kept row's prompt does not), and
  ``rlvr sft`` fine-tunes the judge (LoRA) on the right ones. A judgment with no score line of its
  own carries the one read from its token distribution, so the judge learns to write it.
* ``rl`` (rule-based online RL): ``rlvr train`` runs GRPO on the judge prompts with ``grm_rule`` as
  the reward and the KL term kept (``beta`` > 0); the merged judge is the result. A sampled judgment
  that stops before its score line is scored by the stage's starting judge from its token distribution
  (``grm_rule``'s ``scorer``), and the reward is the score margin (``graded``): with +1/-1 alone a
  135M judge's sampled judgments of one prompt all scored alike (every group's rewards equal, no gradient).

A stage that finished on the same data before (an interrupted benchmark) is reused, not trained again.

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
from rlvr.rewards.judges.backends import JudgeBackend
from rlvr.rewards.judges.parse import parse_judgment
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
    text = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in examples)
    if _finished(data, text, out_dir / "model" / "eval.json"):
        logger.info("meta RM: %s was trained on these judgment pairs before; reused", out_dir / "model")
        return str(out_dir / "model")
    data.write_text(text)
    recipe = load_rm_recipe(None, [f"data.path={data}", f"output.dir={out_dir / 'model'}", f"training.max_steps={max_steps}",
                                   "training.batch_size=8", "training.max_length=512", "data.eval_share=0.2"])
    metrics = train_reward_model(recipe)
    logger.info("meta RM: %d judgment pairs, held-out accuracy %.3f", len(examples), metrics["accuracy"])
    return str(out_dir / "model")


def _finished(data: Path, text: str, marker: Path) -> bool:
    """A stage ran to its end (``marker`` written last) on exactly this data: an interrupted
    ``rlvr grm train`` resumes after its finished stages instead of training them again."""
    return marker.is_file() and data.is_file() and data.read_text(encoding="utf-8") == text


def _run_config(judge: str, out_dir: Path, max_seq_length: int = 1536, **sections: Any) -> Any:
    from rlvr.harness.config import load_recipe

    spec = {"backend": "trl", "model": {"name_or_path": judge, "max_seq_length": max_seq_length,
                                        "lora": {"enabled": True, "r": 8, "alpha": 16,
                                                 "target_modules": ["q_proj", "k_proj", "v_proj", "o_proj"]}},
            "data": {"name": "synthetic"}, "rewards": [{"name": "grm_rule"}], "eval": {"enabled": False},
            "output": {"dir": str(out_dir), "plot": False}, **sections}
    return load_recipe(spec, [])


def _prefers(text: str, best: int) -> bool:
    """The judgment's written score line puts the response at 1-based ``best`` strictly on top."""
    parsed = parse_judgment(text, 2)
    return parsed.scores is not None and parsed.scores[best - 1] > parsed.scores[2 - best]


HINT = ("\n\n(A note for you alone: Response {best} is the better one. Explain why in your critique and score "
        "it higher, without mentioning this note.)")


def hinted_judgments(backend: JudgeBackend, pairs: list[dict[str, Any]], prompt: JudgePrompt, settings: EngineSettings,
                     k: int) -> list[dict[str, Any]]:
    """SPCT's hinted sampling: ``k`` judgments per pair whose prompt says which response is better;
    their rows carry the prompt *without* the hint (what the judge learns to answer), the judgment
    with its score line (forced from the distribution when the text has none) and whether it is right."""
    import random

    from rlvr.rewards.judges import JudgeCall
    from rlvr.rewards.judges.distribution import Scale

    calls, meta = [], []
    for pair in pairs:
        for sample in range(k):
            order = [0, 1]
            random.Random(f"{pair['id']}-hint-{sample}").shuffle(order)
            shown = [(pair["chosen_text"], pair["rejected_text"])[j] for j in order]
            messages = prompt.messages(pair["query"], shown)
            best = order.index(0) + 1
            hinted = [dict(m) for m in messages]
            hinted[-1]["content"] += HINT.format(best=best)
            calls.append(JudgeCall.of(hinted, max(settings.temperature, 0.5), settings.max_new_tokens, 7919 * sample + 1))
            meta.append((pair, sample, order, messages, best))
    replies = backend.generate(calls)
    texts = [r.text for r in replies]
    todo = [i for i, t in enumerate(texts) if t is not None and parse_judgment(t, 2).scores is None]
    if todo:
        for i, scored in zip(todo, backend.score_judgments([(calls[i], texts[i], 2) for i in todo], Scale(),
                                                           settings.min_mass)):
            if scored is not None and scored.error is None:
                texts[i] = scored.text
    rows = []
    for (pair, sample, order, messages, best), text in zip(meta, texts):
        if text is None:
            continue
        rows.append({"id": f"{pair['id']}-hint{sample}", "pair": pair["id"], "sample": sample, "prompt": messages,
                     "problem": messages[-1]["content"], "answer": str(best), "completion": text,
                     "parsed": parse_judgment(text, 2).scores is not None, "right": _prefers(text, best),
                     "hinted": True})
    return rows


def rejective_fine_tuning(judge: str, rows: list[dict[str, Any]], out_dir: Path, steps: int = 20,
                          keep_per_prompt: int = 2, pairs: list[dict[str, Any]] | None = None,
                          prompt: JudgePrompt | None = None, settings: EngineSettings | None = None,
                          backend: JudgeBackend | None = None, hint_k: int = 2) -> tuple[str | None, str]:
    """(fine-tuned judge folder or None, what happened). Per training pair: judgments whose score line
    prefers the better response are kept (at most ``keep_per_prompt``); a pair whose judgments are all
    right is dropped (nothing to learn, as the paper drops them); a pair with none right gets ``hint_k``
    hinted judgments and keeps the right ones. The judge is then fine-tuned (LoRA, completion-only) on them."""
    from rlvr.harness.sft import run_sft

    out_dir.mkdir(parents=True, exist_ok=True)
    by_pair: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_pair[r["pair"]].append(r)
    for judged in by_pair.values():
        for r in judged:
            r["right_text"] = _prefers(r["completion"], int(r["answer"]))
    easy = [p for p, judged in by_pair.items() if all(r["right_text"] for r in judged)]
    hard = [p for p, judged in by_pair.items() if not any(r["right_text"] for r in judged)]
    kept = [r for p, judged in by_pair.items() if p not in easy for r in judged if r["right_text"]][:]
    note = (f"RFT: {len(rows)} judgments of {len(by_pair)} pairs; {len(easy)} pairs all right (dropped), "
            f"{len(hard)} none right, {len(by_pair) - len(easy) - len(hard)} mixed")
    hinted_right = 0
    if hard and pairs is not None and backend is not None and prompt is not None and settings is not None and hint_k:
        hinted = hinted_judgments(backend, [p for p in pairs if p["id"] in set(hard)], prompt, settings, hint_k)
        (out_dir / "hinted.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in hinted))
        hinted_right = sum(r["right"] for r in hinted)
        kept += [r for r in hinted if r["right"]]
        note += f"; hinted sampling: {len(hinted)} judgments of {len(hard)} pairs, {hinted_right} right"
    per_pair: dict[str, int] = defaultdict(int)
    sft_rows = []
    for r in kept:
        if per_pair[r["pair"]] >= keep_per_prompt:
            continue
        per_pair[r["pair"]] += 1
        sft_rows.append({"id": r["id"], "prompt": r["prompt"], "completion": [{"role": "assistant",
                                                                             "content": r["completion"]}]})
    if not sft_rows:
        return None, note + "; nothing to fine-tune on, SFT skipped"
    sft_path = out_dir / "sft.jsonl"
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in sft_rows)
    done = out_dir / "sft" / "summary.json"
    if _finished(sft_path, text, done) and json.loads(done.read_text()).get("steps") == steps:
        from types import SimpleNamespace

        summary = SimpleNamespace(**json.loads(done.read_text()))
        logger.info("RFT: %s was fine-tuned on these judgments before; reused", summary.model_dir)
    else:
        sft_path.write_text(text)
        summary = run_sft(_run_config(judge, out_dir / "sft", sft={"data": str(sft_path), "max_steps": steps,
                                                                   "batch_size": 4, "learning_rate": 1e-4,
                                                                   "save_steps": max(steps, 1)}))
    return summary.model_dir, note + (f"; SFT on {len(sft_rows)} right judgments of {len(per_pair)} pairs "
                                      f"({sum(r.get('hinted', False) for r in kept[:len(sft_rows)])} hinted), "
                                      f"{summary.steps} steps, loss {summary.loss_first} -> {summary.loss_last}")


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
    # the judge at the start of this stage reads the score of a critique that stops before its score line
    config = _run_config(judge, out_dir / "grpo", max_seq_length=max_prompt_length + max_new_tokens,
                         rewards=[{"name": "grm_rule", "params": {"scorer": judge, "graded": True}}],
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
               batch_size: int = 8, rft_steps: int = 20, rl_steps: int = 4, hint_k: int = 2,
               meta_steps: int = 60) -> SpctResult:
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
    backend = TransformersJudge(judge, batch_size=batch_size)
    run = judge_pairs(backend, pairs, prompt, settings, cache, name=f"training split, k={settings.k}", progress=progress)
    rows = judgment_rows(run, pairs)
    (out / "judgments.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    parsed, right = sum(r["parsed"] for r in rows), sum(r["right"] for r in rows)
    result = SpctResult(notes=[f"{len(rows)} training judgments, {parsed} parsed, {right} right"])
    if "meta-rm" in stages and k_meta:
        try:
            result.meta_rm = train_meta_rm(rows, out / "meta-rm", max_steps=meta_steps)
        except ConfigError as exc:
            result.notes.append(f"meta RM not trained: {exc}")
    current = judge
    if "rft" in stages:
        tuned, note = rejective_fine_tuning(judge, rows, out / "rft", steps=rft_steps, pairs=pairs, prompt=prompt,
                                            settings=settings, backend=backend, hint_k=hint_k)
        result.notes.append(note)
        current = tuned or judge
    if "rl" in stages:
        current, note = online_rl(current, rows, out / "rl", steps=rl_steps, max_new_tokens=settings.max_new_tokens + 16)
        result.notes.append(note)
    result.judge = current if current != judge else None
    done.write_text(json.dumps({**result.__dict__, "stages": list(stages)}, indent=2))
    return result
