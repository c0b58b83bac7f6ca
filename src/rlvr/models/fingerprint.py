"""A content hash of a model folder: the identity of a judge's weights in the verdict cache."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

__all__ = ["fingerprint"]

# tokenizer files are left out: re-saving the same tokenizer rewrites them (class names, flags)
_WEIGHT_FILES = ("*.safetensors", "*.bin", "*.gguf", "config.json", "chat_template.jinja", "adapter_config.json")
_FINGERPRINTS: dict[tuple[str, tuple[tuple[str, int, int], ...]], str] = {}


def _files(root: Path) -> list[Path]:
    if root.is_file():
        return [root]
    return sorted({f for pattern in _WEIGHT_FILES for f in root.glob(pattern) if f.is_file()})


def fingerprint(folder: str) -> str:
    """``weights:<hash>`` of a model folder's (or a GGUF file's) weights, config and chat template, so a
    model retrained into the same folder never reuses old judgments and two folders holding the same
    weights share theirs. Anything else (a hub id) is its own identity."""
    root = Path(folder).expanduser()
    if not root.exists():
        return folder
    files = _files(root)
    stamp = tuple((f.name, f.stat().st_size, f.stat().st_mtime_ns) for f in files)
    key = (str(root.resolve()), stamp)
    if key not in _FINGERPRINTS:
        digest = hashlib.sha256()
        for f in files:
            digest.update(f.name.encode() + b"\0")
            if f.suffix == ".json":  # where it was saved from, by which version, with a KV cache or not: no identity
                data = json.loads(f.read_text(encoding="utf-8"))
                if isinstance(data, dict):
                    for noise in ("_name_or_path", "name_or_path", "transformers_version", "use_cache"):
                        data.pop(noise, None)
                digest.update(json.dumps(data, sort_keys=True).encode())
                continue
            with f.open("rb") as fh:
                for block in iter(lambda: fh.read(1 << 22), b""):
                    digest.update(block)
        _FINGERPRINTS[key] = f"weights:{digest.hexdigest()[:16]}"  # not the folder: copies share judgments
    return _FINGERPRINTS[key]
