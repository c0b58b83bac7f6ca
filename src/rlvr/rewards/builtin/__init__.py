"""Built-in rewards; importing this package registers them all."""

from rlvr.rewards.builtin import accuracy, format, grm, language, length, model, numeric, remote  # noqa: F401
