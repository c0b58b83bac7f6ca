#!/usr/bin/env bash
# GPU check for the unsloth backend (run on a lent GPU machine, under 8 minutes):
#   a few GRPO steps of the unsloth backend on a small locally built Qwen2 model, step times printed.
# Needs: torch with CUDA, transformers, and the wheels of unsloth/unsloth_zoo/vllm/trl carried in .whl/
# (see the device notes); without unsloth it falls back to the TRL backend on the GPU and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -d .whl ] && ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
  export PYTHONPATH=/tmp/site:${PYTHONPATH:-}
fi
export PYTHONPATH=$PWD/src:${PYTHONPATH:-}
nvidia-smi -L
python3 - <<'PY'
import importlib.util, time, torch
from rlvr.datasets import load
from rlvr.harness.backends import pick_backend
from rlvr.harness.config import load_recipe
from rlvr.harness.local_models import build_qwen2, build_tokenizer
from rlvr.harness.train import run
assert torch.cuda.is_available(), "no CUDA device visible"
rows = load("synthetic", n=500, level=1)
tok = build_tokenizer([m["content"] for p in rows["prompt"] for m in p] + list(rows["reasoning"]), vocab_size=400)
build_qwen2(tok, hidden_size=256, num_layers=4, num_heads=4).save_pretrained("/tmp/tiny-qwen2")
tok.save_pretrained("/tmp/tiny-qwen2")
backend = "unsloth" if importlib.util.find_spec("unsloth") else "trl"
config = load_recipe("tiny-cpu-smoke", [f"backend={backend}", "model.name_or_path=/tmp/tiny-qwen2", "cold_start.enabled=false",
                                        "trainer.max_steps=6", "trainer.save_steps=100", "output.dir=/tmp/rlvr-gpu-check",
                                        "eval.n=16", f"trainer.use_vllm={'true' if backend == 'unsloth' else 'false'}"])
print("backend:", pick_backend(config))
start = time.perf_counter()
summary = run(config)
print(f"{summary.steps} steps in {summary.seconds:.1f}s on {summary.backend}; before {summary.before} after {summary.after}")
ds = load_recipe("tiny-cpu-smoke", ["backend=trl", "model.name_or_path=/tmp/tiny-qwen2", "cold_start.enabled=false",
                                    "trainer.max_steps=4", "trainer.save_steps=100", "output.dir=/tmp/rlvr-gpu-ds",
                                    "eval.enabled=false", "trainer.dynamic_sampling.enabled=true"])
summary = run(ds)
print(f"dynamic sampling on GPU: {summary.steps} steps in {summary.seconds:.1f}s")
PY
if [ "$(nvidia-smi -L | wc -l)" -ge 2 ]; then  # the multi-process path on GPUs (DDP)
  accelerate launch --multi_gpu --num_processes 2 -m rlvr train --recipe tiny-cpu-smoke \
    --set model.name_or_path=/tmp/tiny-qwen2 --set cold_start.enabled=false --set output.dir=/tmp/rlvr-gpu-ddp
fi
# GRM step: the grm reward with the vLLM backend (a generative judge in process on the GPU).
# Judge: $RLVR_GRM_JUDGE if it names a model folder (a real 1.5B+ instruct model, e.g. Qwen2.5-1.5B-Instruct),
# else the first such folder found under ~/.cache/rlvr/models or /models, else the tiny local Qwen2 built above
# (the machinery then runs, but every judgment is unparseable: said so below).
python3 - <<'PY'
import glob, os, time
from rlvr.rewards import get_reward
candidates = [os.environ.get("RLVR_GRM_JUDGE", "")] + sorted(glob.glob(os.path.expanduser("~/.cache/rlvr/models/*"))) \
    + sorted(glob.glob("/models/*"))
judge = next((c for c in candidates if c and os.path.isfile(os.path.join(c, "config.json"))), "/tmp/tiny-qwen2")
print("GRM judge:", judge, "(tiny local model: expect unparseable judgments)" if judge == "/tmp/tiny-qwen2" else "")
r = get_reward("grm", backend="vllm", judge_model=judge, k=4, max_new_tokens=256, cache_dir=None,
               reference_column="answer", gpu_memory_utilization=0.3)
problems = [("What is 17 * 23?", "391", "17 * 23 = 391. The answer is \\boxed{391}.", "17 * 23 = 381. The answer is \\boxed{381}."),
            ("What is 2^10?", "1024", "2^10 = 1024, so \\boxed{1024}.", "2^10 = 2048, so \\boxed{2048}.")] * 4
prompts = [[{"role": "user", "content": q}] for q, _, _, _ in problems for _ in range(2)]
completions = [c for _, _, good, bad in problems for c in (good, bad)]
answers = [a for _, a, _, _ in problems for _ in range(2)]
start = time.perf_counter()
results = r.explain(prompts=prompts, completions=completions, answer=answers)
seconds = time.perf_counter() - start
stats = r.judge_stats()
right = sum(results[i].value is not None and results[i + 1].value is not None and results[i].value > results[i + 1].value
            for i in range(0, len(results), 2))
print(f"vLLM GRM: {stats.get('generated', 0)} judgments in {seconds:.1f}s (model load included), "
      f"{stats.get('prompt_tokens', 0)} prompt / {stats.get('completion_tokens', 0)} completion tokens, "
      f"{stats.get('unparseable', 0)} unparseable; right response on top in {right} of {len(results) // 2} groups")
print("example:", results[0].status, results[0].reason[:300])
PY
