"""The verdict cache: a judge's raw text per (judge model, template, query, responses, sample index).

Judgments are the expensive part of a generative reward, and the same ones recur: a resumed run
re-scores the batch it stopped in, ``rlvr grm eval`` re-reads the judgments a training stage made,
a benchmark is re-run after a crash. The cache keeps them in memory (a bounded LRU) and, given a
``path``, in SQLite (stdlib, safe across threads and processes; bounded to ``max_entries``, oldest
dropped first). Only texts the backend returned are stored: a timeout or a dead server is retried
next time. An unparseable text *is* stored (the judge said it; asking again would pay again).
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

__all__ = ["VerdictCache", "CachedJudgment", "cache_key"]


@dataclass(frozen=True)
class CachedJudgment:
    text: str
    prompt_tokens: int
    completion_tokens: int


def cache_key(**parts: Any) -> str:
    """A stable hash of the named parts (JSON, sorted keys)."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str).encode()).hexdigest()


class VerdictCache:
    """Bounded memory LRU in front of an optional SQLite file (``path``: a file or a folder)."""

    def __init__(self, path: str | Path | None = None, max_entries: int = 200_000, memory_entries: int = 4096):
        if max_entries < 1 or memory_entries < 1:
            raise ValueError("max_entries and memory_entries must be >= 1")
        if path is not None:
            path = Path(path).expanduser()
            if path.suffix not in (".sqlite", ".db"):
                path = path / "verdicts.sqlite"
        self.path = path
        self.max_entries, self.memory_entries = max_entries, memory_entries
        self.hits = self.misses = self._puts = 0
        self._memory: OrderedDict[str, CachedJudgment] = OrderedDict()
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_db"], state["_memory"] = None, OrderedDict()
        state.pop("_lock", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def _conn(self) -> sqlite3.Connection | None:
        if self.path is None:
            return None
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(str(self.path), timeout=30.0, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("CREATE TABLE IF NOT EXISTS verdicts (key TEXT PRIMARY KEY, text TEXT NOT NULL, "
                       "prompt_tokens INTEGER, completion_tokens INTEGER, created REAL)")
            db.commit()
            self._db = db
        return self._db

    def _remember(self, key: str, value: CachedJudgment) -> None:
        self._memory[key] = value
        self._memory.move_to_end(key)
        while len(self._memory) > self.memory_entries:
            self._memory.popitem(last=False)

    def get(self, key: str) -> CachedJudgment | None:
        with self._lock:
            found = self._memory.get(key)
            if found is None and (db := self._conn()) is not None:
                row = db.execute("SELECT text, prompt_tokens, completion_tokens FROM verdicts WHERE key = ?",
                                 (key,)).fetchone()
                if row is not None:
                    found = CachedJudgment(row[0], int(row[1] or 0), int(row[2] or 0))
            if found is None:
                self.misses += 1
                return None
            self.hits += 1
            self._remember(key, found)
            return found

    def put(self, key: str, value: CachedJudgment) -> None:
        with self._lock:
            self._remember(key, value)
            db = self._conn()
            if db is None:
                return
            try:
                db.execute("INSERT OR REPLACE INTO verdicts VALUES (?, ?, ?, ?, ?)",
                           (key, value.text, value.prompt_tokens, value.completion_tokens, time.time()))
                self._puts += 1
                count = 0
                if self._puts % 256 == 1:  # counting is a scan: bound the table every 256 writes
                    count = db.execute("SELECT COUNT(*) FROM verdicts").fetchone()[0]
                if count > self.max_entries:
                    db.execute("DELETE FROM verdicts WHERE key IN (SELECT key FROM verdicts ORDER BY created "
                               "LIMIT ?)", (count - self.max_entries,))
                db.commit()
            except sqlite3.Error as exc:  # a full disk or a locked file costs the cache, never the reward
                logger.warning("verdict cache %s: could not store a judgment: %s", self.path, exc)

    def __len__(self) -> int:
        with self._lock:
            db = self._conn()
            if db is None:
                return len(self._memory)
            return int(db.execute("SELECT COUNT(*) FROM verdicts").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
