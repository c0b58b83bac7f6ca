"""Evaluation: generate for each problem, verify with rlvr's verifier, report pass@1 / pass@k / maj@k.

Generation uses batched ``model.generate`` with left padding (vLLM when the backend provides it is a
later addition). Majority voting groups samples by their normalised final answer.
"""

from __future__ import annotations

import json
import logging
import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

__all__ = ["EvalResult", "evaluate", "generate"]


@dataclass
class EvalResult:
    n: int
    samples: int
    pass_at_1: float
    pass_at_k: float
    maj_at_k: float
    mean_at_k: float = 0.0  # correctness averaged over every sample (sampled accuracy)
    statuses: dict[str, int] = field(default_factory=dict)
    rows: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        return {"n": self.n, "samples": self.samples, "pass@1": round(self.pass_at_1, 4),
                f"pass@{self.samples}": round(self.pass_at_k, 4), f"maj@{self.samples}": round(self.maj_at_k, 4),
                f"mean@{self.samples}": round(self.mean_at_k, 4), "statuses": self.statuses}


def generate(model: Any, tokenizer: Any, prompts: list[list[dict[str, str]]], max_new_tokens: int,
             batch_size: int = 32, samples: int = 1, temperature: float = 1.0) -> list[list[str]]:
    """``samples`` completions per chat prompt (greedy when samples == 1)."""
    import torch

    was_training = model.training
    model.eval()
    side = tokenizer.padding_side
    tokenizer.padding_side = "left"
    outputs: list[list[str]] = []
    try:
        for start in range(0, len(prompts), batch_size):
            chunk = prompts[start:start + batch_size]
            texts = [tokenizer.apply_chat_template(p, tokenize=False, add_generation_prompt=True) for p in chunk]
            batch = tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=False).to(model.device)
            kwargs = dict(max_new_tokens=max_new_tokens, pad_token_id=tokenizer.pad_token_id,
                          eos_token_id=tokenizer.eos_token_id)
            if samples > 1:
                kwargs.update(do_sample=True, temperature=temperature, num_return_sequences=samples)
            else:
                kwargs.update(do_sample=False)
            with torch.inference_mode():
                out = model.generate(**batch, **kwargs)
            new = out[:, batch["input_ids"].shape[1]:]
            decoded = tokenizer.batch_decode(new, skip_special_tokens=True)
            outputs += [decoded[i * samples:(i + 1) * samples] for i in range(len(chunk))]
    finally:
        tokenizer.padding_side = side
        model.train(was_training)
    return outputs


def evaluate(model: Any, tokenizer: Any, dataset: Any, max_new_tokens: int, samples: int = 1, batch_size: int = 32,
             temperature: float = 1.0, verifier_config: Any = None, out_path: str | Path | None = None) -> EvalResult:
    """Score ``dataset`` (rows with ``prompt`` and ``answer``) and optionally write per-problem JSONL."""
    from rlvr.verifiers import answer_key, verify_batch

    prompts, golds = list(dataset["prompt"]), list(dataset["answer"])
    completions = generate(model, tokenizer, prompts, max_new_tokens, batch_size, samples, temperature)
    flat = [c for group in completions for c in group]
    verdicts = verify_batch(flat, [g for g in golds for _ in range(samples)], verifier_config)
    statuses: Counter[str] = Counter(v.status for v in verdicts)
    rows, first, any_ok, maj_ok = [], 0, 0, 0
    for i, gold in enumerate(golds):
        group = verdicts[i * samples:(i + 1) * samples]
        first += group[0].correct
        any_ok += any(v.correct for v in group)
        votes = Counter(answer_key(v.answer) for v in group if v.answer)
        if votes:
            top = votes.most_common(1)[0][0]
            maj_ok += next(v.correct for v in group if v.answer and answer_key(v.answer) == top)
        rows.append({"id": dataset[i].get("id", i), "gold": gold, "completions": completions[i],
                     "answers": [v.answer for v in group], "statuses": [v.status for v in group],
                     "reasons": [v.reason for v in group], "correct": [v.correct for v in group]})
    n = max(1, len(golds))
    mean = sum(v.correct for v in verdicts) / max(1, len(verdicts))
    result = EvalResult(len(golds), samples, first / n, any_ok / n, maj_ok / n, mean, dict(statuses), rows)
    if out_path is not None:
        from rlvr.files import atomic_output

        with atomic_output(str(out_path)) as fh:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    if math.isnan(result.pass_at_1):  # pragma: no cover - defensive
        raise RuntimeError("evaluation produced no result")
    return result
