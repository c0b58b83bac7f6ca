"""The one place rlvr reaches below TRL's public surface: GRPOTrainer's generation step.

DAPO's dynamic sampling must see a generation batch after it is scored (its advantages) and before
it is trained on, and ask for more. TRL has no public hook there: ``rollout_func`` (experimental in
1.16) replaces generation before any reward is known, callbacks never see the batch, and
``compute_loss`` / ``training_step`` get one slice of the batch TRL already split. So the step is
reached through the private ``GRPOTrainer._generate_and_score_completions(self, inputs)`` and the
dict it returns; this module alone knows that name, that signature and those keys, checks them
against the installed TRL before a run starts (:func:`check_trainer`) and on the first batch
(:func:`check_output`), and names the TRL versions it supports when they do not hold. The same
private metric store TRL logs from (``trainer._metrics[mode]``) is written through :func:`log_metric`.

Checked: TRL 1.0.0, 1.15.0 (the ``gpu`` extra's, capped by unsloth) and 1.16.0 return the same keys
for text models; tests/test_dynamic_sampling.py runs the adapter against the installed TRL.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable
from typing import Any

from rlvr.errors import ConfigError

logger = logging.getLogger(__name__)

__all__ = ["SUPPORTED_TRL", "CHECKED_TRL", "METHOD", "REQUIRED_KEYS", "MERGEABLE_KEYS", "check_trainer",
           "check_output", "with_generation_hook", "log_metric", "UnsupportedTRLError"]

SUPPORTED_TRL = ">=1.0,<2"  # pyproject's range; the private step below is the same in every release of it checked
CHECKED_TRL = ("1.0.0", "1.15.0", "1.16.0")
METHOD = "_generate_and_score_completions"
REQUIRED_KEYS = frozenset({"prompt_ids", "prompt_mask", "completion_ids", "completion_mask", "advantages"})
# keys a text model's batch may hold that can be cut by rows and merged (anything else: multimodal)
MERGEABLE_KEYS = REQUIRED_KEYS | {"num_items_in_batch", "old_per_token_logps", "sampling_per_token_logps",
                                  "ref_per_token_logps", "importance_sampling_ratio", "tool_mask"}

Generate = Callable[[list[dict[str, Any]]], dict[str, Any]]
Hook = Callable[[Any, Generate, list[dict[str, Any]]], dict[str, Any]]


class UnsupportedTRLError(ConfigError):
    """The installed TRL's generation step is not the one rlvr's dynamic sampling was written for."""


def _installed() -> str:
    try:
        import trl

        return str(trl.__version__)
    except Exception:  # TRL absent or broken: the check below says what is missing
        return "not importable"


def _unsupported(problem: str) -> UnsupportedTRLError:
    return UnsupportedTRLError(
        f"trainer.dynamic_sampling needs TRL's GRPOTrainer.{METHOD}(self, inputs) returning a dict with "
        f"{sorted(REQUIRED_KEYS)} (supported TRL {SUPPORTED_TRL}; checked with {', '.join(CHECKED_TRL)}); "
        f"the installed TRL {_installed()}: {problem}. Install a supported TRL (pip install 'trl{SUPPORTED_TRL}') "
        "or set trainer.dynamic_sampling.enabled=false")


def check_trainer(base: type) -> None:
    """Refuse a trainer class whose generation step is not the one this adapter calls (before any
    model loads); warn when the installed TRL is outside the supported range but the step matches."""
    method = getattr(base, METHOD, None)
    if not callable(method):
        raise _unsupported(f"{base.__name__} has no {METHOD}")
    try:
        params = list(inspect.signature(method).parameters)
    except (TypeError, ValueError):
        params = []
    if params[:2] != ["self", "inputs"] or len(params) != 2:
        raise _unsupported(f"{base.__name__}.{METHOD} takes ({', '.join(params)}), not (self, inputs)")
    version = _installed()
    try:
        from packaging.specifiers import SpecifierSet

        outside = version not in SpecifierSet(SUPPORTED_TRL)
    except Exception:  # an unparsable version string: nothing to compare
        outside = False
    if outside:
        logger.warning("trainer.dynamic_sampling was checked with TRL %s (supported %s); the installed TRL %s "
                       "has the same generation step, so it runs, unchecked", ", ".join(CHECKED_TRL),
                       SUPPORTED_TRL, version)


def check_output(out: Any) -> set[str]:
    """The keys of a generation batch this adapter cannot merge (multimodal inputs); raises when the
    batch lacks the keys every supported TRL returns (a renamed key would break training silently)."""
    if not isinstance(out, dict):
        raise _unsupported(f"{METHOD} returned {type(out).__name__}, not a dict")
    missing = REQUIRED_KEYS - set(out)
    if missing:
        raise _unsupported(f"its batch has no {sorted(missing)} (keys: {sorted(out)})")
    return set(out) - MERGEABLE_KEYS


def with_generation_hook(base: type, hook: Hook, name: str) -> type:
    """A subclass of ``base`` whose generation step is ``hook(trainer, generate, inputs)``:
    ``generate(rows)`` runs TRL's own step on ``rows`` (checked on every call) and the hook returns
    the batch to train on."""
    check_trainer(base)

    def generate_and_score(self: Any, inputs: list[dict[str, Any]]) -> dict[str, Any]:
        def generate(rows: list[dict[str, Any]]) -> dict[str, Any]:
            out = getattr(super(cls, self), METHOD)(rows)
            check_output(out)
            return out

        return hook(self, generate, inputs)

    cls = type(name, (base,), {METHOD: generate_and_score, "__doc__": f"{base.__name__} with rlvr's generation hook"})
    cls.__qualname__ = name
    return cls


def log_metric(trainer: Any, name: str, value: float, mode: str = "train") -> None:
    """Append a value to TRL's per-step metrics (averaged and logged by TRL with its own)."""
    trainer._metrics[mode][name].append(float(value))
