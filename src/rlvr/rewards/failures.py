"""A reward's own failure, as a typed error that names the reward and the line of code that failed.

A reward that raises is the reward author's bug, not rlvr's: :class:`RewardError` carries the
reward's name, ``where`` (``file:line in function`` of the last traceback frame in the author's code,
found by :func:`user_location`) and the original exception (also its ``__cause__``). The command line
prints it as one line (exit 1), never as an "internal error". :class:`RewardFailure` is the same error
once a reward has failed on too many consecutive batches (the scoring core raises it).
"""

from __future__ import annotations

import inspect
import os
import sysconfig
from pathlib import Path
from typing import Any

from rlvr.errors import RlvrError

__all__ = ["RewardError", "RewardFailure", "user_location", "definition_location"]


class RewardError(RlvrError):
    """A reward raised, or broke the contract (a wrong type or count of values), on a batch.

    ``reward``: its name as the RewardSet calls it. ``where``: ``file:line in function`` of the code
    that failed (``None`` when unknown). ``exception``: the original exception, or ``None`` for a
    contract violation found by rlvr.
    """

    def __init__(self, reward: str, problem: str, where: str | None = None,
                 exception: BaseException | None = None) -> None:
        self.reward, self.problem, self.where, self.exception = reward, problem, where, exception
        super().__init__(f"reward {reward!r} {problem}" + (f" (at {where})" if where else ""))

    @classmethod
    def from_exception(cls, reward: str, exc: BaseException) -> RewardError:
        """The error for ``exc`` raised inside reward ``reward`` (``exc`` itself when it is one)."""
        if isinstance(exc, RewardError):
            return exc
        text = " ".join(str(exc).split())
        return cls(reward, f"raised {type(exc).__name__}" + (f": {text}" if text else ""), user_location(exc), exc)


class RewardFailure(RewardError, RuntimeError):
    """A reward failed on ``max_consecutive_failures`` batches in a row; ``__cause__`` is the last
    original exception. (A ``RuntimeError`` too, as it was before it became a :class:`RewardError`.)"""


_OWN = str(Path(__file__).resolve().parents[1])  # the rlvr package
_LIBRARIES = {str(Path(p).resolve()) for key in ("stdlib", "platstdlib", "purelib", "platlib")
              if (p := sysconfig.get_paths().get(key))}


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _shown(filename: str, lineno: int | None, name: str | None) -> str:
    path = Path(filename)
    try:
        path = path.resolve().relative_to(Path.cwd().resolve())
    except (ValueError, OSError):
        pass
    return f"{path}:{lineno}" + (f" in {name}" if name else "")


def user_location(exc: BaseException) -> str | None:
    """``file:line in function`` of the last traceback frame in the user's code: outside rlvr, the
    standard library and installed packages (a reward shipped as an installed package: the last
    frame outside rlvr; a built-in reward's own bug: the last frame)."""
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        name = code.co_filename
        frames.append((name, tb.tb_lineno, getattr(code, "co_qualname", code.co_name),
                       name if name.startswith("<") else str(Path(name).resolve())))
        tb = tb.tb_next
    if not frames:
        return None
    outside = [f for f in frames if not _inside(f[3], _OWN)]
    users = [f for f in outside if not any(_inside(f[3], lib) for lib in _LIBRARIES)]
    filename, line, name, _ = (users or outside or frames)[-1]
    return _shown(filename, line, name)


def definition_location(target: Any) -> str | None:
    """``file:line in name`` where a function or class is defined (for contract violations: no
    traceback points into the user's code when the values it returned are wrong)."""
    try:
        target = inspect.unwrap(target)
        filename = inspect.getsourcefile(target) or inspect.getfile(target)
        _, line = inspect.getsourcelines(target)
    except (TypeError, OSError):
        return None
    return _shown(filename, line, getattr(target, "__qualname__", None))
