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
# GRM step: the grm reward with the vLLM backend, scores read from vLLM's log-probabilities.
# Judge: $RLVR_GRM_JUDGE if it names a model folder of a 1.5B+ instruct model (e.g. Qwen2.5-1.5B-Instruct), else
# the first folder of 1.5B+ parameters under ~/.cache/rlvr/models or /models; without one the step says so and
# stops (a smaller judge says nothing about the paper's effects). Prints, for the same judgments: the share whose
# score line parsed from the text, the share scored from the distribution, the unparseable share (target <= 2%),
# then pairwise accuracy (95% CI) of greedy and voting@8 on held-out real pairs when ../shared/data is present.
python3 - <<'PY'
import glob, json, os, sys, time
from pathlib import Path
from rlvr.rewards import get_reward

def params(folder):
    try:
        c = json.loads(Path(folder, "config.json").read_text())
        c = c.get("text_config", c)
        h, n, v, i = c["hidden_size"], c["num_hidden_layers"], c["vocab_size"], c.get("intermediate_size", 4 * c["hidden_size"])
        return n * (4 * h * h + 3 * h * i) + v * h
    except Exception:
        return 0
candidates = [os.environ.get("RLVR_GRM_JUDGE", "")] + sorted(glob.glob(os.path.expanduser("~/.cache/rlvr/models/*"))) \
    + sorted(glob.glob("/models/*"))
judge = next((c for c in candidates if c and params(c) >= 1.4e9), None)
if judge is None:
    print("GRM step skipped: no 1.5B+ judge folder (set RLVR_GRM_JUDGE to one, e.g. Qwen2.5-1.5B-Instruct)")
    sys.exit(0)
print(f"GRM judge: {judge} ({params(judge) / 1e9:.1f}B parameters)")
problems = [("What is 17 * 23?", "391", "17 * 23 = 391. The answer is \\boxed{391}.", "17 * 23 = 381. The answer is \\boxed{381}."),
            ("What is 2^10?", "1024", "2^10 = 1024, so \\boxed{1024}.", "2^10 = 2048, so \\boxed{2048}.")] * 4
prompts = [[{"role": "user", "content": q}] for q, _, _, _ in problems for _ in range(2)]
completions = [c for _, _, good, bad in problems for c in (good, bad)]
answers = [a for _, a, _, _ in problems for _ in range(2)]
for method in ("auto", "distribution", "text"):
    r = get_reward("grm", backend="vllm", judge_model=judge, k=4, max_new_tokens=256, cache_dir=None,
                   reference_column="answer", gpu_memory_utilization=0.3, score_method=method)
    start = time.perf_counter()
    results = r.explain(prompts=prompts, completions=completions, answer=answers)
    seconds = time.perf_counter() - start
    stats = r.judge_stats()
    right = sum(results[i].value is not None and results[i + 1].value is not None and results[i].value > results[i + 1].value
                for i in range(0, len(results), 2))
    n = max(stats.get("judgments", 0), 1)
    print(f"vLLM GRM, score_method={method}: {stats.get('generated', 0)} judgments in {seconds:.1f}s, "
          f"{stats.get('distribution_scored', 0)} scored from vLLM logprobs, unparseable {stats.get('unparseable', 0) / n:.1%}; "
          f"right response on top in {right} of {len(results) // 2} groups")
    print("  example:", results[0].status, results[0].reason[:240])
    del r
    import gc, torch; gc.collect(); torch.cuda.empty_cache()
shared = Path("shared/data") if Path("shared/data").is_dir() else Path("../shared/data")
if (shared / "qwen25math-rm-maj-example").is_dir():
    sys.path.insert(0, "benchmarks")
    from grm_bench import build_pairs, split
    from rlvr.harness.grm import evaluate_judge, format_table, judge_pairs, read_pairs
    from rlvr.rewards.judges import EngineSettings, JudgePrompt, VerdictCache
    from rlvr.rewards.judges.backends import VLLMJudge
    _, held = split(build_pairs(shared), 32)
    Path("/tmp/grm-held.jsonl").write_text("".join(json.dumps(p) + "\n" for p in held[:60]))
    rows, backend, prompt = read_pairs("/tmp/grm-held.jsonl"), VLLMJudge(judge, gpu_memory_utilization=0.5), JudgePrompt(max_response_chars=2000)
    g = judge_pairs(backend, rows, prompt, EngineSettings(k=1, temperature=0.0, max_new_tokens=384), VerdictCache(), name="greedy")
    s = judge_pairs(backend, rows, prompt, EngineSettings(k=8, temperature=0.5, max_new_tokens=384), VerdictCache(), name="k=8")
    print(format_table({f"{Path(judge).name} on vLLM, {len(rows)} held-out pairs": evaluate_judge(g, s, None, k=8)}))
PY
