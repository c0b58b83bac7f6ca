"""Reading the user's input files and writing outputs without ever losing what the user owns.

Inputs: ``-`` is standard input; a missing file, a folder, a binary file or text that is not UTF-8
is a :class:`~rlvr.errors.ConfigError` naming the file. Outputs: ``-`` is standard output; an output
that is one of the inputs, or that exists already (without ``force``), is refused before any work;
files are written to a temporary sibling and renamed into place only when complete, so an
interrupted command leaves the old file (or none), never half a file.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from rlvr.errors import ConfigError

__all__ = ["read_text", "read_config", "check_output", "atomic_output", "looks_like_path"]


def read_text(path: str, what: str = "input") -> str:
    """The text of ``path`` (``-``: standard input), or a ConfigError that names the problem."""
    if path == "-":
        data = sys.stdin.buffer.read()
        name = "standard input"
    else:
        p = Path(path).expanduser()
        if not p.exists():
            raise ConfigError(f"{what} {path} does not exist")
        if p.is_dir():
            raise ConfigError(f"{what} {path} is a folder; give a file")
        data = p.read_bytes()
        name = str(path)
    if b"\x00" in data[:8192]:
        raise ConfigError(f"{what} {name} is a binary file, not text (expected JSON Lines / YAML)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{what} {name} is not UTF-8 text (byte {exc.start}: {exc.reason})") from None


def check_output(out: str | None, inputs: Sequence[str | None] = (), force: bool = False) -> None:
    """Refuse an output that would overwrite an input, or an existing file without ``force``."""
    if out is None or out == "-":
        return
    target = Path(out).expanduser().resolve()
    for source in inputs:
        if source and source != "-" and Path(source).expanduser().resolve() == target:
            raise ConfigError(f"--out {out} is the input file; writing there would destroy it. Choose another path")
    if target.is_dir():
        raise ConfigError(f"--out {out} is a folder; give a file path")
    if target.exists() and not force:
        raise ConfigError(f"--out {out} exists; pass --force to overwrite it, or choose another path")
    if not target.parent.is_dir():
        raise ConfigError(f"--out {out}: folder {target.parent} does not exist")


@contextlib.contextmanager
def atomic_output(out: str) -> Iterator[TextIO]:
    """A text stream for ``out`` (``-``: standard output) that replaces the file only on success."""
    if out == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    target = Path(out).expanduser()
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, _file_mode(target))  # mkstemp makes 0600; an output gets the usual permissions
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _file_mode(target: Path) -> int:
    if target.exists():
        return target.stat().st_mode & 0o7777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def looks_like_path(name: str) -> bool:
    """A model or data name the user meant as a local path (``./x``, ``/x``, ``~/x``, ``runs/x``)."""
    return (name.startswith((".", "/", "~")) or os.sep in name and (name.count("/") > 1 or name.startswith("runs"))
            or name.endswith((".jsonl", ".json", ".parquet", ".yaml", ".yml", ".safetensors")))


def read_config(spec: str | Path, what: str) -> Any:
    """A config given inline (JSON text) or as a YAML / TOML / JSON file: the one reader of every
    config file rlvr takes (recipes, RewardSets, verifier configs, reward-model recipes).

    Returns ``None`` for an empty file; every problem is a ConfigError naming ``what`` and the file.
    """
    text = str(spec)
    if text.lstrip().startswith(("{", "[")):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{what} is not valid JSON: {exc}") from None
    path = Path(text).expanduser()
    if not path.is_file():
        raise ConfigError(f"{what} {path} does not exist")
    raw = read_text(str(path), what)
    if path.suffix == ".toml":
        try:
            import tomllib
        except ImportError:  # Python 3.10
            import tomli as tomllib  # type: ignore[no-redef]
        try:
            return tomllib.loads(raw)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    import yaml

    try:
        return yaml.safe_load(raw)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: invalid YAML: {' '.join(str(exc).split())}") from None
