"""The process group of a run: one process, or several started by ``accelerate launch`` / ``torchrun``.

On a machine without CUDA the processes talk over gloo; accelerate only sets that up when told the
run is on CPU, so every caller gets the state through :func:`process_state`. Rank 0 owns the run
folder: it picks its name, writes config, logs, samples, evaluations, plots and the report; the
other ranks train and wait at the barriers.
"""

from __future__ import annotations

from typing import Any

__all__ = ["process_state"]


def process_state() -> Any:
    """accelerate's ``PartialState`` for this process (CPU runs use gloo)."""
    import torch
    from accelerate import PartialState

    return PartialState(cpu=not torch.cuda.is_available())
