"""Caches bounded by the bytes they hold, not by entry count.

A gold can be 200,000 characters long and a server sees golds from its clients, so "65,536 entries"
bounds nothing. Every cache of the verifier is a :class:`ByteLRU`: it estimates the size of each
key and value (strings by their real size, containers by their items) and evicts least recently
used entries until it is under its share of :data:`TOTAL_BYTES`.
"""

from __future__ import annotations

import dataclasses
import functools
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["TOTAL_BYTES", "ByteLRU", "byte_cache", "cost", "all_caches"]

#: what all of the verifier's caches in one process hold at most, together (64 MiB)
TOTAL_BYTES = 64 * 1024 * 1024
_ENTRY_OVERHEAD = 120  # an OrderedDict slot, the key tuple and the hash
_REGISTRY: list["ByteLRU"] = []

F = TypeVar("F", bound=Callable[..., Any])


def cost(obj: Any, _depth: int = 0) -> int:
    """Approximate bytes held by ``obj``: exact for strings, summed over containers and dataclasses."""
    if isinstance(obj, (str, bytes)):
        return sys.getsizeof(obj)
    if _depth > 4:
        return 64
    if isinstance(obj, (tuple, list, frozenset, set)):
        return 56 + sum(cost(x, _depth + 1) for x in obj)
    if isinstance(obj, dict):
        return 232 + sum(cost(k, _depth + 1) + cost(v, _depth + 1) for k, v in obj.items())
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        if getattr(type(obj), "__hash__", None) and _depth > 0 and type(obj).__name__ == "VerifierConfig":
            return 16  # a config is shared by every entry that names it
        return 56 + sum(cost(getattr(obj, f.name), _depth + 1) for f in dataclasses.fields(obj))
    return 64


class ByteLRU:
    """A thread-safe LRU mapping holding at most ``max_bytes`` (keys and values counted)."""

    def __init__(self, name: str, max_bytes: int) -> None:
        self.name, self.max_bytes = name, max_bytes
        self.bytes = 0
        self._data: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()
        _REGISTRY.append(self)

    def get(self, key: Any, default: Any = None) -> Any:
        with self._lock:
            item = self._data.get(key)
            if item is None:
                return default
            self._data.move_to_end(key)
            return item[0]

    def put(self, key: Any, value: Any, size: int | None = None) -> None:
        """Store ``value``; ``size`` overrides the estimate of the bytes the value holds (for objects
        :func:`cost` cannot see into, such as parsed sympy trees)."""
        size = cost(key) + (cost(value) if size is None else int(size)) + _ENTRY_OVERHEAD
        if size > self.max_bytes // 8:
            return  # one entry may never take more than an eighth of the cache
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self._data[key] = (value, size)
            self.bytes += size
            while self.bytes > self.max_bytes and self._data:
                _key, (_value, evicted) = self._data.popitem(last=False)
                self.bytes -= evicted

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self.bytes = 0

    def __len__(self) -> int:
        return len(self._data)


_MISSING = object()


def byte_cache(share: float) -> Callable[[F], F]:
    """Memoise a pure function of hashable arguments in a :class:`ByteLRU` of ``share`` × TOTAL_BYTES.

    The wrapped function keeps ``cache_clear()`` (as ``functools.lru_cache`` has) and ``cache``.
    """

    def wrap(func: F) -> F:
        store = ByteLRU(func.__qualname__, int(TOTAL_BYTES * share))

        @functools.wraps(func)
        def cached(*args: Any) -> Any:
            value = store.get(args, _MISSING)
            if value is _MISSING:
                value = func(*args)
                store.put(args, value)
            return value

        cached.cache_clear = store.clear  # type: ignore[attr-defined]
        cached.cache = store  # type: ignore[attr-defined]
        return cached  # type: ignore[return-value]

    return wrap


def all_caches() -> list[ByteLRU]:
    """Every byte-bounded cache created so far (their ``bytes`` add up to at most TOTAL_BYTES)."""
    return list(_REGISTRY)
