"""Reading JSON Lines: one parser for every command and loader, errors that name file and line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from rlvr.errors import ConfigError

__all__ = ["parse_jsonl"]


def parse_jsonl(text: str, name: str, error: type[Exception] = ConfigError) -> Iterator[tuple[int, Any]]:
    """(line number, value) for each non-blank line; a bad line raises ``error`` with ``name:line``."""
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            yield n, json.loads(line)
        except json.JSONDecodeError as exc:
            raise error(f"{name}:{n}: not valid JSON ({exc.msg})") from exc
