"""uvicorn's h11 protocol with the two guards it lacks: a header-read timeout and a connection cap.

Why a subclass: uvicorn (0.54, read in its ``protocols/http/h11_impl.py``) arms no timer until a
first response is sent, and its keep-alive timer is cancelled by every byte received, so a client
that connects and sends nothing, or trickles a header byte every few seconds (slowloris), holds its
connection forever; ``limit_concurrency`` only answers 503 to *requests*, so idle connections still
pile up. Here each connection gets ``header_timeout_s`` to deliver a complete request head, counted
from the connection or from the previous response and never reset by partial data; and at most
``max_connections`` are open: a new one first evicts the connection that has waited longest for a
request head, and is refused with a 503 when every connection is busy with a request.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["guarded_protocol"]

_BUSY = b"HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nretry-after: 1\r\nconnection: close\r\n\r\n"


class GuardedH11Protocol(H11Protocol):
    """An :class:`H11Protocol` whose connections must send a request head in time (see module doc)."""

    header_timeout_s: float = 10.0
    max_connections: int = 256

    waiting_since: float | None = None  # when this connection began to wait for a request head
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        full = len(self.connections) >= self.max_connections and not _evict_longest_waiting(self.connections)
        super().connection_made(transport)
        if full:
            transport.write(_BUSY)
            transport.close()
            return
        self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timer()
        self.waiting_since = None
        super().connection_lost(exc)

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:  # a complete request head arrived: the request's deadline governs now
            self._stop_timer()
            self.waiting_since = None

    def on_response_complete(self) -> None:
        if not self.transport.is_closing():
            self._await_head()  # before the parent handles a pipelined request (which stops the timer)
        super().on_response_complete()

    def _await_head(self) -> None:
        self._stop_timer()
        self.waiting_since = time.monotonic()
        self._header_timer = self.loop.call_later(self.header_timeout_s, self._head_timed_out)

    def _stop_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _head_timed_out(self) -> None:
        self._header_timer = None
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()


def _evict_longest_waiting(connections: set[Any]) -> bool:
    """Close the open connection that has waited longest for a request head; False if none waits."""
    waiting = [c for c in connections if getattr(c, "waiting_since", None) is not None]
    if not waiting:
        return False
    oldest = min(waiting, key=lambda c: c.waiting_since)
    oldest.waiting_since = None
    oldest.transport.close()
    return True


def guarded_protocol(header_timeout_s: float, max_connections: int) -> type[GuardedH11Protocol]:
    """A protocol class for ``uvicorn.Config(http=...)`` with these limits."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,),
                {"header_timeout_s": header_timeout_s, "max_connections": max_connections})
