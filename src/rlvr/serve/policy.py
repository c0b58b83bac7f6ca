"""What a request's ``/v1/verify`` config may change: extraction and comparison, never resources.

The server's :class:`~rlvr.verifiers.VerifierConfig` decides resources. A request's ``config`` is
typed exactly like a file's (one checker, ``VerifierConfig``'s own: ``{"symbolic": 1}`` is a 422
naming the field, never a truthy value). A request may *lower* a limit within a band, never raise
one, never choose ``memory_mb`` (each value is a pool of worker processes of its own) and never turn
symbolic comparison on where the server has it off. Extraction and comparison settings
(``sources``, ``multiple_answers``, tolerances, ``percent``, ``list_order``, ``integer_answers``,
think tags ...) are the request's.

Floors: lowering a limit must never cost the server more. A symbolic comparison that spends its
CPU budget gets its worker killed and restarted (about 0.6 s of CPU for the restart alone, more
than most comparisons cost), and the pool retries it once with four times the budget; so a tiny
``timeout_s`` turns cheap honest comparisons into kill-and-restart cycles that no budget counts
(``timeout_s: 0.001`` made 20 moderate rows cost 46 CPU-s and 34 restarts, against 0.9 CPU-s and
none). Hence:

============================  =========================================================
limit                         lowest value a request may give
============================  =========================================================
``timeout_s``                 half the server's (default server: 0.5 s; honest comparisons
                              measured at most 0.3 s of CPU on a loaded 2-core machine)
``batch_timeout_s``           half the server's, and never under the request's ``timeout_s``
``regex_timeout_s``           half the server's
``max_completion_chars``,     VerifierConfig's own minimums (100, 10, 2, 10, 10): lowering a
``max_answer_chars``,         size cap only makes the reader stop or a guard refuse earlier
``max_nesting``,
``max_digits``,
``max_factorial``
============================  =========================================================

A value under its floor or over the server's limit is a 422 naming the field and the band
``[floor, limit]``; nothing is clamped silently. ``/readyz`` lists every band (:func:`bands`).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from rlvr.errors import ConfigError
from rlvr.verifiers.config import VerifierConfig

__all__ = ["LIMITS", "FIXED", "TIME_FLOOR_FRACTION", "floor", "bands", "request_config"]

LIMITS = VerifierConfig.RESOURCE_LIMITS  # a request may lower these within a band, never raise them
FIXED = VerifierConfig.PROCESS_FIELDS  # the server's pool: a request cannot change it
#: a request may lower a time limit to this fraction of the server's, no lower (see the module doc)
TIME_FLOOR_FRACTION = 0.5
_TIME_LIMITS = ("timeout_s", "batch_timeout_s", "regex_timeout_s")


def floor(server: VerifierConfig, name: str) -> float:
    """The lowest value a request may give the limit ``name`` on a server with config ``server``."""
    if name in _TIME_LIMITS:
        return getattr(server, name) * TIME_FLOOR_FRACTION
    return min(getattr(server, name), VerifierConfig.MINIMUMS[name])


def bands(server: VerifierConfig) -> dict[str, list[float]]:
    """``{limit: [floor, server's value]}`` for every limit a request may lower."""
    return {name: [floor(server, name), getattr(server, name)] for name in LIMITS}


def request_config(server: VerifierConfig, given: Any) -> VerifierConfig:
    """The server's config narrowed by a request's ``config`` mapping; ConfigError naming what it may not set."""
    if given is None or given == {}:
        return server
    if not isinstance(given, dict):
        raise ConfigError(f"config must be a mapping of VerifierConfig fields, got {type(given).__name__}")
    merged = {f.name: getattr(server, f.name) for f in fields(server)}
    merged.update(given)
    try:  # types and ranges first (VerifierConfig's own checks): every comparison below is of typed values
        config = type(server).from_dict(merged)
    except ConfigError as exc:
        _check_bands(server, {k: v for k, v in given.items() if _is_number(v)})  # a limit out of its band says so
        text = str(exc).replace("VerifierConfig.", "config.")  # named as the request wrote it
        raise ConfigError(text if text.startswith("config") else f"config: {text}") from None
    for name in FIXED:
        if getattr(config, name) != getattr(server, name):
            raise ConfigError(f"config.{name} is the server's ({getattr(server, name)}); a request cannot set it")
    _check_bands(server, {name: getattr(config, name) for name in LIMITS if name in given})
    if config.symbolic and not server.symbolic:
        raise ConfigError("config.symbolic: this server does not run symbolic comparisons")
    return config


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_bands(server: VerifierConfig, given: dict[str, float]) -> None:
    for name in LIMITS:
        if name not in given:
            continue
        value, limit, low = given[name], getattr(server, name), floor(server, name)
        if not low <= value <= limit:
            raise ConfigError(f"config.{name}={_num(value)} is outside this server's band [{_num(low)}, {_num(limit)}]: "
                              "a request may lower a limit to its floor, never raise it"
                              + (" (a lower time budget would kill and restart sandbox workers for comparisons an "
                                 "honest answer needs)" if value < low and name in _TIME_LIMITS else ""))


def _num(value: float) -> str:
    try:
        return f"{value:,}" if isinstance(value, int) else f"{value:g}"
    except ValueError:  # past Python's int-to-text limit
        return "a huge integer"
