"""Exceptions that carry a user-facing message: what is wrong and how to fix it.

The CLI prints these as one line (no traceback unless ``--debug``); library callers can catch
:class:`RlvrError` to handle any of them.
"""

from __future__ import annotations

__all__ = ["RlvrError", "ConfigError", "NotAvailableError", "DependencyMissingError"]


class RlvrError(Exception):
    """Base class of every error rlvr raises on purpose."""


class ConfigError(RlvrError, ValueError):
    """A configuration value, recipe or parameter is invalid; the message names it and the fix."""


class NotAvailableError(RlvrError):
    """The feature exists in the interface but is not built yet in this version."""


class DependencyMissingError(RlvrError, ImportError):
    """An optional dependency is not installed; the message names the ``pip install`` that fixes it."""
