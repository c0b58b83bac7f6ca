"""Harness overhead: seconds per GRPO step, rlvr's harness vs a bare GRPOTrainer script with the same
model, data, rewards and settings, in one run; plus the share of step time spent in rewards.

Targets: ratio <= 1.05; rewards <= 5% of step time.

    python benchmarks/harness_bench.py [--steps 30]
"""

from __future__ import annotations

import argparse
import logging
import shutil
import tempfile
import time
from pathlib import Path


class Timed:
    """Wraps a reward to add up the seconds spent in it (keeps its __name__ for TRL's logs)."""

    def __init__(self, func):
        self.func, self.seconds, self.__name__ = func, 0.0, func.__name__

    def __call__(self, *args, **kwargs):
        start = time.perf_counter()
        try:
            return self.func(*args, **kwargs)
        finally:
            self.seconds += time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=30)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    from rlvr.datasets import load
    from rlvr.harness.config import load_recipe
    from rlvr.harness.run_log import run_logger
    from rlvr.harness.train import _grpo_args, _reward_set
    from rlvr.harness.local_models import build_qwen2, build_tokenizer

    work = Path(tempfile.mkdtemp(prefix="rlvr-harness-bench-"))
    config = load_recipe("default-cpu", [f"trainer.max_steps={args.steps}", f"trainer.save_steps={args.steps * 10}",
                                         f"output.dir={work / 'rlvr'}", "cold_start.enabled=false"])
    data = load("synthetic", n=512, level=1, template=config.data.template)
    tok = build_tokenizer([m["content"] for p in data["prompt"] for m in p] + ["<think>\n</think>\n<answer>\n\\boxed{}</answer>"],
                          vocab_size=config.model.vocab_size)
    base = build_qwen2(tok, hidden_size=config.model.hidden_size, num_layers=config.model.num_layers,
                       num_heads=config.model.num_heads)
    base.save_pretrained(work / "base")
    tok.save_pretrained(work / "base")

    def fresh():
        torch.manual_seed(0)
        return AutoModelForCausalLM.from_pretrained(work / "base"), AutoTokenizer.from_pretrained(work / "base")

    results = {}
    for label in ("bare GRPOTrainer", "rlvr harness"):
        model, tokenizer = fresh()
        rs = _reward_set(config)
        timed = [Timed(f) for f in rs.funcs]
        if label == "bare GRPOTrainer":
            t = config.trainer
            grpo_args = GRPOConfig(output_dir=str(work / "bare"), num_generations=t.num_generations,
                                   per_device_train_batch_size=t.per_device_train_batch_size,
                                   max_completion_length=t.max_completion_length, learning_rate=t.learning_rate,
                                   max_steps=args.steps, logging_steps=1, save_strategy="no", report_to=[], use_cpu=True,
                                   bf16=False, seed=0, reward_weights=rs.weights, loss_type=t.loss_type, beta=t.beta,
                                   lr_scheduler_type=t.lr_scheduler_type, activation_checkpointing=False, disable_tqdm=True)
            trainer = GRPOTrainer(model=model, processing_class=tokenizer, reward_funcs=timed, args=grpo_args,
                                  train_dataset=data)
        else:
            grpo_args = _grpo_args(config, work / "rlvr", rs.weights)
            grpo_args.disable_tqdm = True
            trainer = GRPOTrainer(model=model, processing_class=tokenizer, reward_funcs=timed, args=grpo_args,
                                  train_dataset=data, callbacks=[run_logger(work / "rlvr", rs, 2)])
        start = time.perf_counter()
        trainer.train()
        total = time.perf_counter() - start
        results[label] = (total / args.steps, sum(t.seconds for t in timed) / total)
    print(f"# GRPO step time, {args.steps} steps, {config.trainer.per_device_train_batch_size} completions/step, "
          f"hidden {config.model.hidden_size} x {config.model.num_layers} layers")
    print(f"{'':22s}{'s/step':>10s}{'reward share':>14s}")
    for label, (per_step, share) in results.items():
        print(f"{label:22s}{per_step:10.3f}{share:14.1%}")
    ratio = results["rlvr harness"][0] / results["bare GRPOTrainer"][0]
    print(f"ratio rlvr / bare: {ratio:.3f} (target <= 1.05); reward share in rlvr: "
          f"{results['rlvr harness'][1]:.1%} (target <= 5%)")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
