"""What a request's ``/v1/verify`` config may change: extraction and comparison, never resources.

The server's :class:`~rlvr.verifiers.VerifierConfig` decides resources. A request may *lower* a
limit (shorter timeouts, smaller size caps: less work) but never raise one, and never choose
``memory_mb`` (each value is a pool of worker processes of its own) or turn symbolic comparison on
where the server has it off. Extraction and comparison settings (``sources``, ``multiple_answers``,
tolerances, ``percent``, ``list_order``, ``integer_answers``, think tags ...) are the request's,
checked as any VerifierConfig is.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from rlvr.errors import ConfigError
from rlvr.verifiers.config import VerifierConfig

__all__ = ["LIMITS", "FIXED", "request_config"]

LIMITS = VerifierConfig.RESOURCE_LIMITS  # a request may lower these, never raise them
FIXED = VerifierConfig.PROCESS_FIELDS  # the server's pool: a request cannot change it


def request_config(server: Any, given: Any) -> Any:
    """The server's config narrowed by a request's ``config`` mapping; ConfigError naming what it may not set."""
    if given is None or given == {}:
        return server
    if not isinstance(given, dict):
        raise ConfigError(f"config must be a mapping of VerifierConfig fields, got {type(given).__name__}")
    for name in FIXED:
        if name in given and given[name] != getattr(server, name):
            raise ConfigError(f"config.{name} is the server's ({getattr(server, name)}); a request cannot set it")
    for name in LIMITS:
        if name not in given:
            continue
        value, limit = given[name], getattr(server, name)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"config.{name}={value!r}; use a number up to the server's {limit}")
        if value > limit:
            raise ConfigError(f"config.{name}={value} is over the server's limit of {limit}; a request may "
                              "lower a limit, never raise it")
    if given.get("symbolic") is True and not server.symbolic:
        raise ConfigError("config.symbolic: this server does not run symbolic comparisons")
    merged = {f.name: getattr(server, f.name) for f in fields(server)}
    merged.update(given)
    return type(server).from_dict(merged)
