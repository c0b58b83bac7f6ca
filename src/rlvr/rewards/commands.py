"""``rlvr rewards list`` and ``rlvr score``: the registry and a RewardSet from the command line."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from rlvr.errors import ConfigError
from rlvr.jsonl import parse_jsonl

_GOLD_KEYS = ("gold", "answer")


def list_command(args: argparse.Namespace) -> int:
    """Print every registered reward with its description and parameters."""
    from rich.console import Console
    from rich.table import Table

    from rlvr.rewards import available, describe

    table = Table(title="registered rewards")
    for column in ("name", "description", "parameters (defaults)"):
        table.add_column(column, overflow="fold")
    for name, _description in available():
        info = describe(name)
        params = ", ".join(f"{k}={v!r}" for k, v in info["params"].items())
        table.add_row(name, info["description"], params)
    Console().print(table)
    return 0


def _read_jsonl(path: str) -> list[dict[str, Any]]:
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"input {p} does not exist")
    rows = []
    for n, row in parse_jsonl(p.read_text(encoding="utf-8"), str(p)):
        if not isinstance(row, dict) or "completion" not in row:
            raise ConfigError(f"{p}:{n}: each row needs a 'completion' (and usually 'prompt' and a gold "
                              f"'answer'); got {sorted(row) if isinstance(row, dict) else type(row).__name__}")
        rows.append(row)
    if not rows:
        raise ConfigError(f"{p} has no rows")
    return rows


def score_command(args: argparse.Namespace) -> int:
    """Score JSONL rows with a RewardSet; print a table of values and reasons and a status summary."""
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import Progress
    from rich.table import Table

    from rlvr.rewards import RewardSet

    rs = RewardSet.from_config(args.rewards)
    rows = _read_jsonl(args.input)
    if "answer" not in rows[0] and "gold" in rows[0]:
        for r in rows:
            r.setdefault("answer", r.get("gold"))
    columns = sorted({k for r in rows for k in r} - {"prompt", "completion"})
    scored: list[dict[str, Any]] = []
    chunk = 64
    with Progress(transient=True, disable=len(rows) <= chunk) as progress:
        task = progress.add_task("scoring", total=len(rows))
        for i in range(0, len(rows), chunk):
            batch = rows[i:i + chunk]
            kwargs = {c: [r.get(c) for r in batch] for c in columns}
            scored += rs.explain(prompts=[r.get("prompt", "") for r in batch],
                                 completions=[r["completion"] for r in batch], **kwargs)
            progress.advance(task, len(batch))
    console = Console()
    table = Table(title=f"{len(rows)} rows scored with {rs!r}")
    table.add_column("#", justify="right")
    for name in rs.names:
        table.add_column(name, overflow="fold")
    table.add_column("total", justify="right")
    statuses: dict[str, Counter] = {name: Counter() for name in rs.names}
    for i, row in enumerate(scored):
        cells = []
        for name in rs.names:
            r = row["rewards"][name]
            statuses[name][r.status] += 1
            value = "None" if r.value is None else f"{r.value:g}"
            cells.append(escape(f"{value} [{r.status}] {r.reason}"))
        table.add_row(str(i), *cells, "None" if row["total"] is None else f"{row['total']:g}")
    console.print(table)
    for name, counts in statuses.items():
        console.print(f"{name}: " + ", ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            for row in scored:
                fh.write(json.dumps({"total": row["total"],
                                     "rewards": {k: v.to_dict() for k, v in row["rewards"].items()}},
                                    ensure_ascii=False, default=str) + "\n")
        console.print(f"wrote {len(scored)} rows to {args.out}")
    return 0
