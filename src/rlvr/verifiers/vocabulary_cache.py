"""Vocabularies read off a library's data once per release and kept in the user's cache folder.

Reading CLDR's spell-outs of ninety languages, or every locale's currency symbols, takes seconds; a
sandbox worker that starts should not spend them each time. :func:`cached` builds a vocabulary with
the given function the first time a release of the library is seen, writes it as JSON (atomically:
a worker that reads while another writes sees the old file or the new one), and loads it afterwards.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["cached", "installed_version"]


def installed_version(name: str) -> str:
    """The installed release of distribution ``name``, or "unknown"."""
    try:
        from importlib.metadata import version

        return version(name)
    except Exception:
        return "unknown"


def cached(name: str, release: str, build: Callable[[], Any]) -> Any:
    """The vocabulary ``name`` of library release ``release``: from the cache folder, else ``build()`` (then kept)."""
    folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rlvr"
    path = folder / f"{name}-{release}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    found = build()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(found, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:  # a read-only home: the vocabulary is built again next time, nothing else changes
        pass
    return found
