"""Built-in rewards; importing this package registers them all."""

from rlvr.rewards.builtin import accuracy, format, language, length, model, numeric, remote  # noqa: F401
