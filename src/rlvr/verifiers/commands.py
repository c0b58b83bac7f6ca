"""``rlvr verify``: check completions against gold answers from the command line."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rlvr.errors import ConfigError
from rlvr.jsonl import parse_jsonl


def _read_rows(path: str) -> list[dict]:
    from rlvr.files import read_text

    rows = []
    for n, row in parse_jsonl(read_text(path, "--jsonl file"), path):
        if not isinstance(row, dict) or "completion" not in row or not ({"gold", "answer"} & set(row)):
            raise ConfigError(f"{path}:{n}: each row needs 'completion' and 'gold' (or 'answer'); got keys "
                              f"{sorted(row) if isinstance(row, dict) else type(row).__name__}")
        rows.append(row)
    if not rows:
        raise ConfigError(f"{path} has no rows: write one JSON object a line with 'completion' and 'gold'")
    return rows


def verify_command(args: argparse.Namespace) -> int:
    """Print one verdict per completion; exit 0 if all are correct, 1 otherwise."""
    from rlvr.verifiers import VerifierConfig, verify_batch

    config = VerifierConfig.load(args.config)
    if args.jsonl:
        rows = _read_rows(args.jsonl)
        completions = [r["completion"] for r in rows]
        golds = [str(r.get("gold", r.get("answer"))) for r in rows]
    else:
        if args.completion is None or args.gold is None:
            raise ConfigError("give a COMPLETION (text or file) and --gold, or --jsonl FILE")
        text = args.completion
        if text == "-" or (len(text) < 4096 and Path(text).is_file()):
            from rlvr.files import read_text

            text = read_text(text, "completion file")
        completions, golds = [text], [args.gold]
    verdicts = verify_batch(completions, golds, config)
    for v in verdicts:
        if args.json or args.jsonl:
            print(json.dumps(v.to_dict(), ensure_ascii=False))
        else:
            print(f"{v.status}: {v.reason}  [answer={v.answer!r} source={v.source} method={v.method} {v.elapsed_s * 1000:.1f} ms]")
    return 0 if all(v.correct for v in verdicts) else 1
