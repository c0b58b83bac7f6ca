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
from typing import Any, BinaryIO, TextIO

from rlvr.errors import ConfigError

__all__ = ["read_text", "read_lines", "read_config", "check_output", "atomic_output", "looks_like_path"]


MAX_CONFIG_BYTES = 1024 * 1024  # a recipe or RewardSet file; anything larger is not one
MAX_CONFIG_NODES = 100_000  # values a config may hold once YAML aliases are expanded
MAX_LINE_BYTES = 256 * 1024 * 1024  # one JSON Lines row
_CHUNK = 1024 * 1024


@contextlib.contextmanager
def _open_input(path: str, what: str) -> Iterator[tuple[BinaryIO, str]]:
    if path == "-":
        yield sys.stdin.buffer, "standard input"
        return
    p = Path(path).expanduser()
    if not p.exists():
        raise ConfigError(f"{what} {path} does not exist")
    if p.is_dir():
        raise ConfigError(f"{what} {path} is a folder; give a file")
    with open(p, "rb") as fh:
        yield fh, str(path)


def _binary(name: str, what: str) -> ConfigError:
    return ConfigError(f"{what} {name} is a binary file, not text (expected JSON Lines / YAML)")


def read_text(path: str, what: str = "input", max_bytes: int | None = None) -> str:
    """The text of ``path`` (``-``: standard input), or a ConfigError that names the problem.

    Read in chunks, each checked as it arrives: a NUL byte (a binary file, ``/dev/zero``) or more
    than ``max_bytes`` stops the read there, before the rest is read.
    """
    with _open_input(path, what) as (fh, name):
        chunks, size = [], 0
        while chunk := fh.read(_CHUNK):
            if b"\x00" in chunk:
                raise _binary(name, what)
            size += len(chunk)
            if max_bytes is not None and size > max_bytes:
                raise ConfigError(f"{what} {name} is over {max_bytes:,} bytes; this is not a config file")
            chunks.append(chunk)
    data = b"".join(chunks)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{what} {name} is not UTF-8 text (byte {exc.start}: {exc.reason})") from None


@contextlib.contextmanager
def read_lines(path: str, what: str = "input", max_line_bytes: int = MAX_LINE_BYTES) -> Iterator[Iterator[str]]:
    """The lines of ``path`` (``-``: standard input), read one at a time: memory holds one line.

    A NUL byte, a line over ``max_line_bytes`` or a line that is not UTF-8 raises a ConfigError
    naming the file and the line, as soon as that line is reached.
    """
    with _open_input(path, what) as (fh, name):
        def decoded(raw: bytes, n: int) -> str:
            try:
                return raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ConfigError(f"{name}:{n}: not UTF-8 text (byte {exc.start} of the line: {exc.reason})") from None

        def lines() -> Iterator[str]:
            n, parts, size = 0, [], 0
            while piece := fh.readline(_CHUNK):  # a line is read in pieces, each checked as it arrives
                if b"\x00" in piece:
                    raise _binary(name, what)
                size += len(piece)
                if size > max_line_bytes:
                    raise ConfigError(f"{name}:{n + 1}: a line over {max_line_bytes:,} bytes; one row is never that long")
                parts.append(piece)
                if piece.endswith(b"\n"):
                    n += 1
                    yield decoded(b"".join(parts), n)
                    parts, size = [], 0
            if parts:
                yield decoded(b"".join(parts), n + 1)

        yield lines()


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

    Bounded like every input: at most :data:`MAX_CONFIG_BYTES` of text, nesting as
    :func:`rlvr.jsonl.loads` allows, and at most :data:`MAX_CONFIG_NODES` values once YAML aliases
    are expanded (a 1 KB "billion laughs" file is refused, not expanded). Returns ``None`` for an
    empty file; every problem is a ConfigError naming ``what`` and the file.
    """
    from rlvr.jsonl import JSONError, loads

    text = str(spec)
    if text.lstrip().startswith(("{", "[")):
        if len(text) > MAX_CONFIG_BYTES:
            raise ConfigError(f"{what} given inline is over {MAX_CONFIG_BYTES:,} characters")
        try:
            return loads(text)
        except JSONError as exc:
            raise ConfigError(f"{what} is {exc}" if str(exc).startswith("not valid") else f"{what}: {exc}") from None
    path = Path(text).expanduser()
    if path.is_dir():
        raise ConfigError(f"{what} {path} is a folder; give the config file in it (YAML, TOML or JSON)")
    if not path.is_file():
        raise ConfigError(f"{what} {path} does not exist")
    raw = read_text(str(path), what, max_bytes=MAX_CONFIG_BYTES)
    if path.suffix == ".toml":
        try:
            import tomllib
        except ImportError:  # Python 3.10
            import tomli as tomllib  # type: ignore[no-redef]
        try:
            return tomllib.loads(raw)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: invalid TOML: {exc}") from None
        except RecursionError:
            raise ConfigError(f"{path}: nested too deeply") from None
    return _load_yaml(raw, path)


def _load_yaml(raw: str, path: Path) -> Any:
    import yaml

    from rlvr.jsonl import MAX_DEPTH

    class BoundedLoader(yaml.SafeLoader):
        """PyYAML's safe loader, refusing a document deeper than MAX_DEPTH or larger than
        MAX_CONFIG_NODES values with its aliases expanded (PyYAML shares an aliased node, but every
        consumer that walks, prints or saves the config expands it)."""

        depth = 0

        def compose_node(self, parent: Any, index: Any) -> Any:
            self.depth += 1
            try:
                if self.depth > MAX_DEPTH:
                    raise ConfigError(f"{path}: nested more than {MAX_DEPTH} levels deep")
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

        def get_single_node(self) -> Any:
            node = super().get_single_node()
            if node is not None:
                _expanded_size(node, {}, path)
            return node

    try:
        return yaml.load(raw, Loader=BoundedLoader)  # noqa: S506 (a SafeLoader)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: invalid YAML: {' '.join(str(exc).split())}") from None


def _expanded_size(node: Any, sizes: dict[int, int | None], path: Path) -> int:
    """Values under ``node`` counting each alias as a full copy; memoised, so a shared node costs once."""
    key = id(node)
    if key in sizes:
        if sizes[key] is None:
            raise ConfigError(f"{path}: a YAML alias refers to the node that contains it (an endless config)")
        return sizes[key]  # type: ignore[return-value]
    sizes[key] = None
    children = node.value if isinstance(node.value, list) else []
    total = 1
    for child in children:
        for part in child if isinstance(child, tuple) else (child,):
            total += _expanded_size(part, sizes, path)
    if total > MAX_CONFIG_NODES:
        raise ConfigError(f"{path}: the config holds over {MAX_CONFIG_NODES:,} values once its YAML aliases "
                          "are expanded (an alias bomb?); write the values out, or load them from a data file")
    sizes[key] = total
    return total
