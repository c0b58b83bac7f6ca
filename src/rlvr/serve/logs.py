"""Logging that a flood cannot turn into a flood of log lines.

:class:`RefusalTally` counts requests refused before authentication and logs one summary line per
interval (the first refusal at once); a refusal costs a counter increment, never a formatted record.
:class:`RepeatFilter` does the same for a logger's repeated messages (uvicorn's "Invalid HTTP request
received." for each malformed request a client sends).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter

__all__ = ["RefusalTally", "RepeatFilter"]

_MAX_SOURCES = 64  # addresses counted by name per interval; the rest are counted together


class RefusalTally:
    """Refused requests by client address, summarised in one log line per ``interval_s``."""

    def __init__(self, logger: logging.Logger, what: str, interval_s: float = 60.0) -> None:
        self.logger, self.what, self.interval_s = logger, what, interval_s
        self.total = 0
        self._pending = 0
        self._sources: Counter[str] = Counter()
        self._last = float("-inf")

    def add(self, source: str) -> None:
        self.total += 1
        self._pending += 1
        if source in self._sources or len(self._sources) < _MAX_SOURCES:
            self._sources[source] += 1
        else:
            self._sources["other addresses"] += 1
        if time.monotonic() - self._last >= self.interval_s:
            self.flush()

    def flush(self) -> None:
        """Log what was counted since the last line (nothing if nothing was)."""
        if not self._pending:
            return
        now = time.monotonic()
        since = "" if self._last == float("-inf") else f" in the last {now - self._last:.0f}s"
        top = ", ".join(f"{source} x{n}" for source, n in self._sources.most_common(3))
        self.logger.warning("refused %d request(s) %s%s (from %s); further ones are summarised every %.0fs",
                            self._pending, self.what, since, top, self.interval_s)
        self._pending, self._last = 0, now
        self._sources.clear()


class RepeatFilter(logging.Filter):
    """Passes a message (by its format string) at most once per ``interval_s``; the next one that
    passes says how many were held back."""

    def __init__(self, interval_s: float = 60.0) -> None:
        super().__init__()
        self.interval_s = interval_s
        self._lock = threading.Lock()
        self._seen: dict[str, tuple[float, int]] = {}  # format string -> (last passed, held back since)

    def filter(self, record: logging.LogRecord) -> bool:
        key = str(record.msg)[:200]
        now = time.monotonic()
        with self._lock:
            last, held = self._seen.get(key, (float("-inf"), 0))
            if now - last < self.interval_s:
                self._seen[key] = (last, held + 1)
                return False
            if len(self._seen) >= _MAX_SOURCES and key not in self._seen:
                self._seen.clear()
            self._seen[key] = (now, 0)
        if held:
            record.msg = f"{record.msg} ({held} more like this in the last {now - last:.0f}s)"
        return True
