"""rlvr: reward functions and answer verifiers for RL with verifiable rewards, and a GRPO harness.

Subpackages: :mod:`rlvr.verifiers` (is this completion's answer right, and why),
:mod:`rlvr.rewards` (registry and composition of reward functions for TRL),
:mod:`rlvr.datasets` (math data as GRPO-ready datasets), :mod:`rlvr.harness` (GRPO runs),
:mod:`rlvr.testing` (fixture files, pytest plugin, audits). Importing ``rlvr`` is cheap: nothing
heavy (torch, sympy, TRL) is imported until a subpackage needs it.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
