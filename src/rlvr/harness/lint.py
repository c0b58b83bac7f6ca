"""Recipe-level lint: load a recipe, find its tokenizer, and run the data-level checks on it.

The checks themselves (prompt format vs reward extractors, prefilled reasoning tags, special-token
tags) live in :mod:`rlvr.datasets.lint` and need no trainer; this module adds what only a run
config knows (which model's tokenizer renders the prompts).
"""

from __future__ import annotations

import logging
from typing import Any

from rlvr.datasets.lint import Finding, lint_prompts

logger = logging.getLogger(__name__)

__all__ = ["lint_config", "lint_recipe"]


def _tokenizer(config: Any, tokenizer: Any) -> Any:
    if tokenizer is not None or config.model.name_or_path == "local-tiny":
        return tokenizer
    source = config.model.tokenizer or config.model.name_or_path
    try:
        from transformers import AutoTokenizer

        return AutoTokenizer.from_pretrained(source, local_files_only=True)
    except Exception as exc:  # offline, not cached: the tokenizer checks are skipped, and said so
        logger.info("lint: tokenizer %r not available locally (%s); chat-template checks skipped", source,
                    type(exc).__name__)
        return None


def lint_config(config: Any, tokenizer: Any = None) -> list[Finding]:
    """All findings for a RunConfig (``tokenizer`` overrides the recipe's)."""
    return lint_prompts(config.data.template, config.rewards, _tokenizer(config, tokenizer))


def lint_recipe(recipe: str, tokenizer: Any = None) -> list[Finding]:
    """Findings for a recipe file or shipped recipe name (hardware checks skipped)."""
    from rlvr.harness.config import load_recipe

    return lint_config(load_recipe(recipe, check_hardware=False), tokenizer)
