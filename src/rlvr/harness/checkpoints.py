"""Checkpoints of a run: which one to resume from, and what to do with the ones a kill left half-written.

The Trainer saves ``checkpoints/checkpoint-N`` every ``save_steps``; a run killed during a save leaves
the newest folder incomplete. Resuming picks the newest whole one and moves newer broken ones aside.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path

logger = logging.getLogger(__name__)

__all__ = ["checkpoint_problem", "last_checkpoint", "set_aside_broken_checkpoints"]


def checkpoint_problem(path: Path) -> str | None:
    """Why a ``checkpoint-N`` folder cannot be resumed from, or None when it is whole.

    A run killed while saving leaves a folder with some files missing or cut short. The Trainer writes
    ``trainer_state.json`` last, so a state file that parses means the rest was written before it;
    the weight files are also checked against their safetensors headers (cheap: a header read and a
    stat), which catches a copy or sync that lost the tail of a file.
    """
    state_file = path / "trainer_state.json"
    if not state_file.is_file():
        return "no trainer_state.json (the save did not finish)"
    try:
        state = json.loads(state_file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return f"trainer_state.json is cut short or corrupt ({type(exc).__name__})"
    if not isinstance(state, dict) or not isinstance(state.get("global_step"), int):
        return "trainer_state.json has no global_step"
    weights = sorted(path.glob("*.safetensors"))
    if not weights and not any(path.glob("*.bin")):
        return "no model or adapter weights"
    for file in weights:
        problem = _safetensors_problem(file)
        if problem:
            return f"{file.name}: {problem}"
    return None


def _safetensors_problem(file: Path) -> str | None:
    size = file.stat().st_size
    try:
        with file.open("rb") as fh:
            head = fh.read(8)
            if len(head) < 8:
                return "shorter than a safetensors header"
            n = int.from_bytes(head, "little")
            if n <= 0 or 8 + n > size:
                return "header is cut short"
            header = json.loads(fh.read(n))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return "header does not parse"
    ends = [t["data_offsets"][1] for k, t in header.items() if k != "__metadata__" and isinstance(t, dict)]
    if 8 + n + max(ends, default=0) > size:
        return f"{size} bytes, the header promises {8 + n + max(ends)}"
    return None


def last_checkpoint(run_dir: Path) -> Path | None:
    """The newest whole ``checkpoint-N`` folder of a run, if any; newer broken ones are skipped with a warning."""
    folder = run_dir / "checkpoints"
    if not folder.is_dir():
        return None
    found = sorted(((int(p.name.split("-")[-1]), p) for p in folder.glob("checkpoint-*")
                    if p.is_dir() and p.name.split("-")[-1].isdigit()), reverse=True)
    for _, path in found:
        problem = checkpoint_problem(path)
        if problem is None:
            return path
        logger.warning("skipping %s: %s", path.name, problem)
    return None


def set_aside_broken_checkpoints(run_dir: Path, kept: Path | None) -> None:
    """Move checkpoints newer than the one resumed from (all of them broken) to ``broken-checkpoints/``.

    Left in place, the Trainer would write the same step's files into a folder that still holds the
    half-written ones; moved, they stay on disk for a look instead of being deleted.
    """
    folder = run_dir / "checkpoints"
    if not folder.is_dir():
        return
    kept_step = int(kept.name.split("-")[-1]) if kept is not None else -1
    for path in folder.glob("checkpoint-*"):
        step = path.name.split("-")[-1]
        if path.is_dir() and step.isdigit() and int(step) > kept_step:
            target = run_dir / "broken-checkpoints" / f"{path.name}-{int(time.time())}"
            target.parent.mkdir(parents=True, exist_ok=True)
            path.rename(target)
            logger.warning("moved the unfinished %s to %s", path.name, target)


def resume_point(run_dir: Path, resume: bool) -> tuple[Path, Path | None]:
    """The run folder to write and the checkpoint to continue from (``rlvr train``, ``rlvr sft``).

    ``resume``: the newest whole checkpoint of ``run_dir`` (newer broken ones set aside), or None with a
    warning. Otherwise a folder that already holds checkpoints is left alone and the run goes to
    ``<name>-2`` (``-3``, ...), so a repeated command never mixes two runs' checkpoints.
    """
    if resume:
        checkpoint = last_checkpoint(run_dir)
        set_aside_broken_checkpoints(run_dir, checkpoint)
        if checkpoint is None:
            logger.warning("--resume: no checkpoint in %s/checkpoints; starting from the beginning", run_dir)
        return run_dir, checkpoint
    if (run_dir / "checkpoints").exists() and any((run_dir / "checkpoints").iterdir()):
        n = 2
        while (run_dir.parent / f"{run_dir.name}-{n}").exists():
            n += 1
        chosen = run_dir.parent / f"{run_dir.name}-{n}"
        logger.warning("%s already holds a run; writing this one to %s (pass --resume to continue the old one)",
                       run_dir, chosen)
        return chosen, None
    return run_dir, None
