"""``rlvr data show``."""

from __future__ import annotations

import argparse


def show_command(args: argparse.Namespace) -> int:
    """Print counts, columns, the gold-parse report and a few rendered prompts of a data set."""
    from rich.console import Console
    from rich.markup import escape

    from rlvr.datasets import load_with_report

    options = {"template": args.template, "on_bad_gold": "keep"}
    if args.name == "synthetic":
        options.update(n=max(args.n, 100))
    ds, report = load_with_report(args.name, path=args.path, **options)
    console = Console()
    console.print(f"[bold]{args.name}[/bold]: {len(ds)} rows, {report.duplicates_removed} duplicate problems removed")
    console.print(f"columns: {', '.join(ds.column_names)}")
    console.print(f"gold answers: {escape(report.summary(examples=5))}")
    tokenizer = None
    if args.tokenizer:
        from transformers import AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained(args.tokenizer)
    for row in ds.select(range(min(args.n, len(ds)))):
        console.rule(escape(f"{row['id']}  gold: {row['answer']}"))
        if tokenizer is not None and getattr(tokenizer, "chat_template", None):
            console.print(escape(tokenizer.apply_chat_template(row["prompt"], tokenize=False, add_generation_prompt=True)))
        else:
            for message in row["prompt"]:
                console.print(escape(f"[{message['role']}] {message['content']}"))
    return 0
