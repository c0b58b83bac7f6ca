"""Thread counts of a training run, set deliberately at its start and logged.

Measured on 2 cores (benchmarks/demo_bench.py): beside 4 busy processes, GRPO steps of the embedded
default took 5-15x longer and 4.5x the CPU with torch's defaults (2 intra-op OpenMP threads that
spin while they wait at each parallel region's barrier, where a partner thread waits for a core);
with waiting threads sleeping (``OMP_WAIT_POLICY=PASSIVE``) or one intra-op thread the CPU time
stays that of an idle run. Tokenizers' threads and the verifier's workers (one thread each) made no
measurable difference.

The wait policy is read once, when OpenMP loads with torch, so it cannot be changed here: the
``rlvr`` command sets ``OMP_WAIT_POLICY=PASSIVE`` in its environment before anything imports torch
(unless it is already set). A run started from Python without it gets one intra-op thread unless
``runtime.threads`` says otherwise.
"""

from __future__ import annotations

import logging
import os
from typing import Any

logger = logging.getLogger(__name__)

__all__ = ["configure_threads", "available_cpus", "WAIT_POLICY_DEFAULT"]

WAIT_POLICY_DEFAULT = "PASSIVE"


def available_cpus() -> int:
    """CPUs this process may run on (its affinity mask, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def configure_threads(runtime: Any) -> str:
    """Set torch's thread counts from ``runtime`` (a RuntimeSettings); returns the line it logs."""
    import torch

    policy = os.environ.get("OMP_WAIT_POLICY", "")
    passive = policy.upper() == "PASSIVE"
    if runtime.threads is not None:
        threads, why = runtime.threads, "runtime.threads"
    elif os.environ.get("OMP_NUM_THREADS"):
        threads, why = torch.get_num_threads(), "OMP_NUM_THREADS"
    elif passive:
        threads, why = available_cpus(), "the CPUs this process may use"
    else:
        threads, why = 1, "OMP_WAIT_POLICY is not PASSIVE, so more threads would spin while they wait"
    torch.set_num_threads(threads)
    interop = torch.get_num_interop_threads()
    if runtime.interop_threads is not None and runtime.interop_threads != interop:
        try:
            torch.set_num_interop_threads(runtime.interop_threads)
            interop = runtime.interop_threads
        except RuntimeError:  # torch allows it only before the first inter-op work of the process
            logger.warning("runtime.interop_threads=%d not applied: torch already started its inter-op pool",
                           runtime.interop_threads)
    from rlvr.verifiers.sandbox import default_workers

    line = (f"threads: torch {threads} intra-op ({why}), {interop} inter-op; OpenMP wait policy "
            f"{policy or 'unset (threads spin)'}; tokenizers parallelism "
            f"{os.environ.get('TOKENIZERS_PARALLELISM', 'default')}; verifier {default_workers()} worker "
            f"processes x 1 thread")
    logger.info(line)
    return line
