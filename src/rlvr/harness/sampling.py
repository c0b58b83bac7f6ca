"""``rlvr sample``: N completions per problem, each scored and explained, plus per-problem pass rates.

The first half of rejection sampling (R1's stage-2 data, expert iteration, distillation from a
teacher): generate with a model (batched HF ``generate`` on CPU, vLLM with ``engine="vllm"``) or read
completions made elsewhere, then score every sample with rlvr's verifier (``correct``) and a
RewardSet (``total`` and each reward's value, status and reason). Writes, in ``out_dir``:

* ``samples.jsonl``: one row per sample (problem id, prompt, completion, gold, verdict, rewards);
* ``problems.jsonl``: one row per problem with its pass rate (a difficulty estimate: drop the
  all-solved and never-solved prompts, or build a curriculum);
* ``sample_summary.json``, ``pass_at_k.png`` and ``difficulty.png``.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rlvr.errors import ConfigError

logger = logging.getLogger(__name__)

__all__ = ["SampleSummary", "sample", "score_samples", "read_samples"]


@dataclass
class SampleSummary:
    out_dir: str
    problems: int
    samples_per_problem: int
    pass_at_1: float
    pass_at_k: dict[str, float]
    solved_all: int
    solved_none: int
    seconds: float


def score_samples(ids: list[Any], prompts: list[Any], golds: list[str], completions: list[list[Any]],
                  rewards: Any = None, verifier_config: Any = None,
                  truncated: list[list[bool]] | None = None) -> tuple[list[dict], list[dict]]:
    """(sample rows, problem rows) for ``completions[i]`` = the samples of problem ``i``;
    ``truncated[i][j]``: sample j of problem i was cut off at the token limit (None: unknown)."""
    from rlvr.harness.evaluate import score_completions
    from rlvr.rewards.scoring import build_reward_set

    rs = build_reward_set(rewards)
    verified = score_completions(golds, completions, ids, verifier_config)
    k = verified.samples
    flat_prompts = [p for p in prompts for _ in range(k)]
    flat = [c for group in completions for c in list(group)[:k]]
    explained = rs.explain(prompts=flat_prompts, completions=flat,
                           **{rs.gold_column or "answer": [g for g in golds for _ in range(k)]})
    samples, problems = [], []
    for i, row in enumerate(verified.rows):
        for j in range(k):
            scored = explained[i * k + j]
            samples.append({
                "id": row["id"], "sample": j, "prompt": prompts[i], "completion": row["completions"][j],
                "answer": golds[i], "correct": bool(row["correct"][j]), "status": row["statuses"][j],
                "truncated": truncated[i][j] if truncated is not None else None,
                "reason": row["reasons"][j], "extracted": row["answers"][j], "total": scored["total"],
                "rewards": {n: {"value": r.value, "status": r.status, "reason": r.reason}
                            for n, r in scored["rewards"].items()}})
        problems.append({"id": row["id"], "answer": golds[i], "samples": k, "correct": sum(row["correct"]),
                         "pass_rate": row["pass_rate"], "prompt": prompts[i]})
    return samples, problems


def _plot(problems: list[dict], curve: dict[str, float], out_dir: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # plots are a view; the JSONL files hold the numbers
        return
    fig, ax = plt.subplots(figsize=(5, 3.2))
    ks = [int(k) for k in curve]
    ax.plot(ks, [curve[str(k)] for k in ks], marker="o")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("k")
    ax.set_ylabel("pass@k")
    ax.set_ylim(0, 1)
    ax.set_title("pass@k (unbiased estimate)")
    fig.tight_layout()
    fig.savefig(out_dir / "pass_at_k.png", dpi=100)
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(5, 3.2))
    ax.hist([p["pass_rate"] for p in problems], bins=[i / 10 for i in range(11)], edgecolor="black")
    ax.set_xlabel("pass rate per problem")
    ax.set_ylabel("problems")
    ax.set_title("difficulty (0: never solved, 1: always)")
    fig.tight_layout()
    fig.savefig(out_dir / "difficulty.png", dpi=100)
    plt.close(fig)


def _write_jsonl(rows: list[dict], path: Path) -> None:
    from rlvr.harness.evaluate import write_rows

    write_rows(rows, path)


def sample(out_dir: str | Path, *, model: str | None = None, dataset: Any = None, completions_file: str | None = None,
           rewards: Any = None, n: int = 8, max_new_tokens: int = 256, temperature: float = 1.0,
           batch_size: int = 16, engine: str = "hf", verifier_config: Any = None,
           model_and_tokenizer: tuple[Any, Any] | None = None) -> SampleSummary:
    """Generate ``n`` samples per row of ``dataset`` (rows with ``prompt`` and ``answer``) with ``model``
    (or score the completions in ``completions_file``), score them, and write the files above."""
    from rlvr.harness.evaluate import pass_ks, generate, generate_vllm, pass_at_k, read_completions

    started = time.perf_counter()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    truncated: list[list[bool]] | None = None
    if completions_file:
        ids, golds, groups = read_completions(completions_file)
        prompts: list[Any] = [""] * len(ids)
        if dataset is not None:  # prompts by id, when the data set is given too
            by_id = {str(dataset[i].get("id", i)): dataset[i]["prompt"] for i in range(len(dataset))}
            prompts = [by_id.get(str(i), "") for i in ids]
    else:
        if dataset is None or (model is None and model_and_tokenizer is None):
            raise ConfigError("rlvr sample needs --model and --dataset (or --completions FILE made elsewhere)")
        prompts, golds = list(dataset["prompt"]), [str(a) for a in dataset["answer"]]
        ids = [dataset[i].get("id", i) for i in range(len(golds))]
        if engine == "vllm":
            from transformers import AutoTokenizer

            truncated = []
            groups = generate_vllm(str(model), AutoTokenizer.from_pretrained(model), prompts, max_new_tokens, n,
                                   temperature, truncated=truncated)
        elif engine == "hf":
            from rlvr.models import load_model

            policy, tokenizer = model_and_tokenizer or load_model(str(model))
            truncated = []
            groups = generate(policy, tokenizer, prompts, max_new_tokens, batch_size, n, temperature,
                              truncated=truncated)
        else:
            raise ConfigError(f"engine must be hf or vllm, got {engine!r}")
    samples, problems = score_samples(ids, prompts, golds, groups, rewards, verifier_config, truncated)
    k = problems[0]["samples"]
    curve = {str(j): sum(pass_at_k(k, p["correct"], j) for p in problems) / len(problems) for j in pass_ks(k)}
    _write_jsonl(samples, out / "samples.jsonl")
    _write_jsonl(problems, out / "problems.jsonl")
    summary = SampleSummary(str(out), len(problems), k, curve["1"], curve,
                            sum(p["correct"] == k for p in problems), sum(p["correct"] == 0 for p in problems),
                            round(time.perf_counter() - started, 1))
    (out / "sample_summary.json").write_text(json.dumps(summary.__dict__, indent=2))
    _plot(problems, curve, out)
    logger.info("sampled %d problems x %d: pass@1 %.3f, all solved %d, none solved %d", summary.problems, k,
                summary.pass_at_1, summary.solved_all, summary.solved_none)
    return summary


def read_samples(path: str | Path) -> list[dict]:
    """The rows of a ``samples.jsonl`` written by :func:`sample` (checked: each needs id and completion)."""
    from rlvr.files import read_text
    from rlvr.jsonl import parse_jsonl

    rows = []
    for n, row in parse_jsonl(read_text(str(path), "samples file"), str(path)):
        if not isinstance(row, dict) or "completion" not in row or "id" not in row:
            raise ConfigError(f"{path}:{n}: a sample row needs 'id' and 'completion' (rlvr sample writes them)")
        rows.append(row)
    if not rows:
        raise ConfigError(f"{path} holds no samples")
    return rows
