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

from rlvr.errors import ConfigError

logger = logging.getLogger(__name__)

__all__ = ["EvalResult", "evaluate", "generate", "score_completions", "pass_at_k", "read_completions",
           "summary_line", "summary_table"]


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased pass@k estimate for one problem with ``c`` correct of ``n`` samples (Chen et al. 2021):
    ``1 - C(n-c, k) / C(n, k)``, computed as a stable product."""
    if k > n:
        raise ValueError(f"pass@{k} needs at least {k} samples, got {n}")
    if n - c < k:
        return 1.0
    value = 1.0
    for i in range(n - c + 1, n + 1):
        value *= 1.0 - k / i
    return 1.0 - value


def _mean_ci(values: list[float]) -> tuple[float, float, float]:
    """Mean and a 95% confidence interval over problems (normal approximation, clipped to [0, 1])."""
    n = len(values)
    mean = sum(values) / n if n else float("nan")
    if n < 2:
        return mean, mean, mean
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def pass_ks(samples: int) -> list[int]:
    """The k of pass@k reported for ``samples`` samples per problem: 1, 2, 4, … and ``samples`` itself."""
    ks, k = [], 1
    while k < samples:
        ks.append(k)
        k *= 2
    return ks + [samples]


@dataclass
class EvalResult:
    n: int
    samples: int
    pass_at_1: float  # unbiased estimate: mean correctness over all samples
    pass_at_k: float  # pass@samples: any sample correct
    maj_at_k: float
    mean_at_k: float = 0.0  # correctness averaged over every sample (sampled accuracy)
    statuses: dict[str, int] = field(default_factory=dict)
    rows: list[dict[str, Any]] = field(default_factory=list)
    curve: dict[int, tuple[float, float, float]] = field(default_factory=dict)  # k -> (pass@k, ci low, ci high)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"n": self.n, "samples": self.samples, "pass@1": round(self.pass_at_1, 4),
                               f"pass@{self.samples}": round(self.pass_at_k, 4),
                               f"maj@{self.samples}": round(self.maj_at_k, 4),
                               f"mean@{self.samples}": round(self.mean_at_k, 4), "statuses": self.statuses}
        if self.curve:
            out["pass@k"] = {str(k): {"estimate": round(v[0], 4), "ci95": [round(v[1], 4), round(v[2], 4)]}
                             for k, v in self.curve.items()}
        return out


def _metrics(summary: dict[str, Any]) -> list[str]:
    return [k for k, v in summary.items() if k.startswith(("pass@", "maj@", "mean@")) and isinstance(v, (int, float))]


def _statuses(summary: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted((summary.get("statuses") or {}).items(), key=lambda kv: -kv[1]))


def summary_line(summary: dict[str, Any]) -> str:
    """One line for a log: ``pass@1 29.0% [23.1, 35.2], maj@4 31.0%, ... on 200 problems x 4 samples; statuses …``."""
    parts = []
    for key in _metrics(summary):
        ci = (summary.get("pass@k") or {}).get(key[5:], {}).get("ci95") if key.startswith("pass@") else None
        parts.append(f"{key} {summary[key]:.1%}" + (f" [{ci[0]:.1%}, {ci[1]:.1%}]" if ci and ci[0] != ci[1] else ""))
    return (", ".join(dict.fromkeys(parts)) + f" on {summary.get('n')} problems x {summary.get('samples')} sample(s)"
            + (f"; statuses: {_statuses(summary)}" if summary.get("statuses") else ""))


def summary_table(columns: dict[str, dict[str, Any] | None]) -> str:
    """A small text table of eval summaries side by side (e.g. before and after GRPO)."""
    present = {name: s for name, s in columns.items() if s}
    if not present:
        return ""
    first = next(iter(present.values()))
    rows = list(dict.fromkeys(k for s in present.values() for k in _metrics(s)))
    width = max([len(r) for r in rows] + [len("statuses")]) + 2
    lines = [f"held-out eval, {first.get('n')} problems x {first.get('samples')} sample(s)",
             "  " + "".ljust(width) + "".join(name.rjust(10) for name in present)]
    for key in rows:
        cells = "".join((f"{s[key]:.1%}" if isinstance(s.get(key), (int, float)) else "-").rjust(10)
                        for s in present.values())
        lines.append("  " + key.ljust(width) + cells)
    for name, s in present.items():
        if s.get("statuses"):
            lines.append(f"  statuses {name}: {_statuses(s)}")
    return "\n".join(lines)


def score_completions(golds: list[str], completions: list[list[Any]], ids: list[Any] | None = None,
                      verifier_config: Any = None) -> EvalResult:
    """Verify each problem's completions against its gold: pass@k (unbiased, with 95% intervals for every
    k up to the sample count), maj@k and mean@k. Any generator's completions can be scored this way."""
    from rlvr.verifiers import answer_key, verify_batch

    if len(golds) != len(completions):
        raise ConfigError(f"{len(golds)} golds but {len(completions)} completion groups")
    if not golds:
        raise ConfigError("nothing to evaluate: no problems")
    samples = min(len(g) for g in completions)
    if samples < 1:
        raise ConfigError("every problem needs at least one completion")
    completions = [list(g)[:samples] for g in completions]  # the same k for every problem
    flat = [c for group in completions for c in group]
    verdicts = verify_batch(flat, [g for g in golds for _ in range(samples)], verifier_config)
    statuses: Counter[str] = Counter(v.status for v in verdicts)
    rows, correct_counts, maj_ok = [], [], 0
    for i, gold in enumerate(golds):
        group = verdicts[i * samples:(i + 1) * samples]
        correct_counts.append(sum(v.correct for v in group))
        votes = Counter(answer_key(v.answer) for v in group if v.answer)
        if votes:
            top = votes.most_common(1)[0][0]
            maj_ok += next(v.correct for v in group if v.answer and answer_key(v.answer) == top)
        rows.append({"id": ids[i] if ids is not None else i, "gold": gold, "completions": completions[i],
                     "answers": [v.answer for v in group], "statuses": [v.status for v in group],
                     "reasons": [v.reason for v in group], "correct": [v.correct for v in group],
                     "pass_rate": correct_counts[-1] / samples})
    curve = {k: _mean_ci([pass_at_k(samples, c, k) for c in correct_counts]) for k in pass_ks(samples)}
    n = len(golds)
    return EvalResult(n, samples, curve[1][0], curve[samples][0], maj_ok / n, curve[1][0], dict(statuses), rows, curve)


def write_rows(rows: list[dict[str, Any]], out_path: str | Path) -> None:
    from rlvr.files import atomic_output

    with atomic_output(str(out_path)) as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def generate(model: Any, tokenizer: Any, prompts: list[list[dict[str, str]]], max_new_tokens: int,
             batch_size: int = 32, samples: int = 1, temperature: float = 1.0,
             truncated: list[list[bool]] | None = None) -> list[list[str]]:
    """``samples`` completions per chat prompt (greedy when samples == 1). Pass a list as
    ``truncated`` to get, per prompt, whether each completion stopped at ``max_new_tokens`` without
    an end-of-sequence token (cut off, not finished)."""
    import torch

    eos = {tokenizer.eos_token_id}
    config_eos = getattr(getattr(model, "generation_config", None), "eos_token_id", None)
    eos |= set(config_eos) if isinstance(config_eos, (list, tuple)) else {config_eos}
    eos.discard(None)

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
            if truncated is not None:
                cut = [new.shape[1] >= max_new_tokens and not eos & set(row.tolist()) for row in new]
                truncated += [cut[i * samples:(i + 1) * samples] for i in range(len(chunk))]
    finally:
        tokenizer.padding_side = side
        model.train(was_training)
    return outputs


def generate_vllm(model_path: str, tokenizer: Any, prompts: list[list[dict[str, str]]], max_new_tokens: int,
                  samples: int = 1, temperature: float = 1.0, gpu_memory_utilization: float = 0.8,
                  truncated: list[list[bool]] | None = None) -> list[list[str]]:
    """``samples`` completions per chat prompt with vLLM (GPU; a merged model folder or hub id);
    ``truncated`` as in :func:`generate` (vLLM's ``finish_reason == "length"``)."""
    try:
        from vllm import LLM, SamplingParams
    except ImportError:
        from rlvr.errors import DependencyMissingError

        raise DependencyMissingError("--engine vllm needs vLLM on a CUDA machine: pip install 'rlvr[gpu]'") from None
    texts = [tokenizer.apply_chat_template(p, tokenize=False, add_generation_prompt=True) for p in prompts]
    llm = LLM(model=model_path, gpu_memory_utilization=gpu_memory_utilization)
    params = SamplingParams(n=samples, max_tokens=max_new_tokens,
                            temperature=temperature if samples > 1 else 0.0)
    results = llm.generate(texts, params)
    if truncated is not None:
        truncated += [[o.finish_reason == "length" for o in request.outputs] for request in results]
    return [[o.text for o in request.outputs] for request in results]


def evaluate(model: Any, tokenizer: Any, dataset: Any, max_new_tokens: int, samples: int = 1, batch_size: int = 32,
             temperature: float = 1.0, verifier_config: Any = None, out_path: str | Path | None = None) -> EvalResult:
    """Generate for ``dataset`` (rows with ``prompt`` and ``answer``), score, optionally write per-problem JSONL."""
    prompts, golds = list(dataset["prompt"]), list(dataset["answer"])
    completions = generate(model, tokenizer, prompts, max_new_tokens, batch_size, samples, temperature)
    ids = [dataset[i].get("id", i) for i in range(len(golds))]
    result = score_completions(golds, completions, ids, verifier_config)
    if out_path is not None:
        write_rows(result.rows, out_path)
    return result


def read_completions(path: str) -> tuple[list[Any], list[str], list[list[Any]]]:
    """(ids, golds, completions per problem) from a JSONL file made by any generator.

    A row holds ``completions`` (a list) or one ``completion``; rows sharing an ``id`` are one
    problem's samples. The gold is ``answer`` or ``gold``.
    """
    from rlvr.files import read_text
    from rlvr.jsonl import parse_jsonl

    order: list[Any] = []
    golds: dict[Any, str] = {}
    groups: dict[Any, list[Any]] = {}
    for n, row in parse_jsonl(read_text(path, "--completions file"), path):
        if not isinstance(row, dict):
            raise ConfigError(f"{path}:{n}: each row must be an object with id, answer and completion(s)")
        gold = row.get("answer", row.get("gold"))
        if gold is None:
            raise ConfigError(f"{path}:{n}: the row has no 'answer' (or 'gold')")
        if "completions" in row and isinstance(row["completions"], list):
            found = row["completions"]
        elif "completion" in row:
            found = [row["completion"]]
        else:
            raise ConfigError(f"{path}:{n}: the row has no 'completion' or 'completions' list")
        key = row.get("id", f"line-{n}" if "completions" in row else row.get("problem", row.get("prompt", n)))
        key = json.dumps(key, sort_keys=True) if isinstance(key, (dict, list)) else key
        if key not in groups:
            order.append(key)
            groups[key] = []
            golds[key] = str(gold)
        elif golds[key] != str(gold):
            raise ConfigError(f"{path}:{n}: id {key!r} has two different golds ({golds[key]!r}, {gold!r})")
        groups[key].extend(found)
    if not order:
        raise ConfigError(f"{path} has no rows")
    return order, [golds[k] for k in order], [groups[k] for k in order]
