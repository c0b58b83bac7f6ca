"""Separate virtual environments that hold another framework's real code (verl, OpenRLHF, verifiers).

Their pins clash with rlvr's (verl wants transformers < 5.11, OpenRLHF transformers 5.15 and
flash-attn, verifiers 0.3 and 0.4 cannot live together), so each test gets an *overlay* venv: the
framework and the versions it pins live in the overlay's own site-packages, which come first on
``sys.path``; a ``.pth`` then adds this test run's site-packages (torch, rlvr itself, the rest)
behind them. Only the framework module that loads and calls rewards is imported, never a GPU stack
(flash-attn, deepspeed, vLLM). Built once per spec under ``.pytest-artifacts/framework-envs``
(about 15-30 s each from PyPI), reused while the spec and interpreter stay the same.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DRIVERS = Path(__file__).resolve().parent

# name: (packages installed without their dependencies, packages installed with them)
SPECS: dict[str, tuple[list[str], list[str]]] = {
    # verl's reward loop: tensordict (DataProto), omegaconf/hydra (config), aiohttp (reward_loop imports it)
    # kernels: the release this transformers was written against (rlvr's own transformers brings a newer one
    # whose LayerRepository this transformers' hub_kernels cannot build)
    "verl": (["verl==0.9.1", "tensordict==0.10.0", "pyvers<0.2", "cloudpickle", "orjson", "importlib_metadata",
              "zipp", "omegaconf", "hydra-core", "codetiming", "kernels>=0.12,<0.13"],
             ["transformers>=5.5.3,<5.11,!=5.6.0", "huggingface-hub>=1.5,<2", "aiohttp"]),
    # OpenRLHF's rollout executor (openrlhf.utils.agent) and the transformers it pins
    "openrlhf": (["openrlhf==0.11.2", "kernels>=0.16,<0.17"], ["transformers==5.15.0", "aiohttp", "pylatexenc"]),
    "verifiers": ([], ["verifiers==0.4.0"]),
    "verifiers-legacy": ([], ["verifiers==0.3.1"]),
}


def _run(cmd: list[str], log: Path) -> None:
    with open(log, "a", encoding="utf-8") as out:
        out.write(f"$ {' '.join(cmd)}\n")
        out.flush()
        done = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, timeout=900)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:4])} ... failed (exit {done.returncode}); see {log}")


def framework_python(name: str) -> Path:
    """The python of the overlay venv for ``name`` (one of SPECS), built on first use."""
    no_deps, with_deps = SPECS[name]
    purelib = sysconfig.get_paths()["purelib"]
    key = hashlib.sha256(json.dumps([no_deps, with_deps, purelib, sys.version]).encode()).hexdigest()[:12]
    home = Path(os.environ.get("RLVR_FRAMEWORK_ENVS", ROOT / ".pytest-artifacts" / "framework-envs"))
    venv = home / f"{name}-{key}"
    python = venv / "bin" / "python"
    home.mkdir(parents=True, exist_ok=True)
    with open(home / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (venv / ".ready").exists():
            return python
        log = home / f"{name}-{key}.log"
        base = getattr(sys, "_base_executable", sys.executable)
        _run([base, "-m", "venv", "--clear", str(venv)], log)
        own = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
        Path(own, "zz_rlvr_test_run.pth").write_text(f"import site; site.addsitedir({purelib!r})\n")
        pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
        if no_deps:
            _run(pip + ["--no-deps", *no_deps], log)
        if with_deps:
            _run(pip + with_deps, log)
        (venv / ".ready").write_text(key)
    return python


def run_driver(name: str, driver: str, job: dict, tmp_path: Path, env: dict[str, str] | None = None,
               timeout: float = 600, expect_failure: bool = False) -> object:
    """Run ``tests/frameworks/<driver>`` with ``job`` in the ``name`` overlay venv; its JSON output
    (``expect_failure``: the run must fail; its stdout and stderr)."""
    python = framework_python(name)
    job_path, out_path = tmp_path / f"{driver}.job.json", tmp_path / f"{driver}.out.json"
    job_path.write_text(json.dumps(job), encoding="utf-8")
    out_path.unlink(missing_ok=True)
    done = subprocess.run([str(python), str(DRIVERS / driver), str(job_path), str(out_path)],
                          capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})})
    if expect_failure:
        assert done.returncode != 0, f"{driver} in {name} did not fail"
        return done.stdout + done.stderr
    assert done.returncode == 0, f"{driver} in {name} failed:\n{done.stdout[-3000:]}\n{done.stderr[-5000:]}"
    return json.loads(out_path.read_text(encoding="utf-8"))
