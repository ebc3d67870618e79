"""uvicorn's HTTP/1.1 protocol with the edge's limits, counted from the accepted connection.

- **Per address and in all**: at most ``per_address`` connections from one address and
  ``max_connections`` in all (``serve.caps`` fits both to the process's file limit); one more is
  closed at once (plain HTTP: answered 503 first). Counted before the TLS handshake, so a
  client that connects and never says hello holds a place of its own address's share only.
- **A request within a deadline**: the TLS handshake and a whole request's headers within
  ``header_seconds`` of the connection (or of the last response), else the connection is
  closed; a body at least every ``body_idle_seconds`` and whole by ``body_idle_seconds`` plus
  its length at ``body_min_rate`` bytes a second (a school's slow uplink sends 64 MiB in
  minutes; a client that stalls is closed).
- A WebSocket (the simulator's pages) leaves the deadlines once upgraded and keeps its place
  until it closes.
- TLS, when the server has it, is started here (``loop.start_tls``), after the connection is
  counted: uvicorn's own starts it before any protocol code runs, where no limit applies.

Every refusal goes to ``quiet.RefusalLog``: said once a minute with a count, never a line or
a traceback per connection.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from dataclasses import dataclass, field
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from .quiet import RefusalLog

TOO_MANY = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 39\r\nconnection: close\r\n\r\ntoo many connections from your address\n"
)


@dataclass(frozen=True)
class EdgeLimits:
    header_seconds: float = 10.0
    body_idle_seconds: float = 20.0
    body_min_rate: int = 16 * 1024
    """Bytes a second a body must average: 128 kbit/s, slower than any uplink a hall has."""
    max_connections: int = 4096
    per_address: int = 256
    share: int = 4
    """One address holds at most 1/share of the connections the file limit leaves
    (``serve.caps``): a quarter at a hub or the federation; half at the simulator, whose
    teacher's browser opens a page per board."""


@dataclass
class EdgeState:
    """What every connection of one server shares: the limits, who holds how many, the log."""

    limits: EdgeLimits
    tls: ssl.SSLContext | None = None
    log: RefusalLog = field(default_factory=RefusalLog)
    held: dict[str, int] = field(default_factory=dict)
    total: int = 0

    def admit(self, address: str) -> str | None:
        """Count a new connection from ``address``, or say why it is refused."""
        if self.total >= self.limits.max_connections:
            return "server"
        if self.held.get(address, 0) >= self.limits.per_address:
            return "address"
        self.held[address] = self.held.get(address, 0) + 1
        self.total += 1
        return None

    def release(self, address: str) -> None:
        self.total -= 1
        left = self.held.get(address, 1) - 1
        if left <= 0:
            self.held.pop(address, None)
        else:
            self.held[address] = left


class GuardedProtocol(H11Protocol):
    """One connection through the edge (``edge`` is set on a subclass per server:
    ``serve.edge_config``)."""

    edge: EdgeState

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # uvicorn's own set-up (an h11 connection, its loggers) waits until the connection is
        # admitted: a refused one, of thousands a second, costs an accept and a close only
        self._made = (args, kwargs)
        self.loop = kwargs.get("_loop") or asyncio.get_event_loop()
        self.cycle = None  # type: ignore[assignment]

    def connection_made(self, transport: Any) -> None:
        self._address: str | None = None
        self._begun = False
        self._timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        self._raw = transport
        self._last_rx = time.monotonic()
        self._early = b""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else ""
        refused = self.edge.admit(address)
        if refused is not None:
            self.edge.log.refused(refused, address)
            if self.edge.tls is None:
                transport.write(TOO_MANY)
            transport.close()
            return
        self._address = address
        args, kwargs = self._made
        super().__init__(*args, **kwargs)
        self._arm()
        if self.edge.tls is None:
            self._begin(transport)
            return
        transport.pause_reading()  # nothing is read before the handshake takes the socket
        self._tls_task = self.loop.create_task(self._start_tls(transport, self.edge.tls))

    async def _start_tls(self, raw: Any, context: ssl.SSLContext) -> None:
        try:
            tls = await self.loop.start_tls(
                raw, self, context, server_side=True,
                ssl_handshake_timeout=self.edge.limits.header_seconds,
            )  # fmt: skip
        except (OSError, ssl.SSLError, EOFError, RuntimeError):
            raw.close()  # a failed or slow handshake: the socket goes, its place with it
            self._release()
            return
        if tls is None or tls.is_closing() or self._address is None:
            raw.close()
            return
        self._begin(tls)

    def _begin(self, transport: Any) -> None:
        self._begun = True
        super().connection_made(transport)
        early, self._early = self._early, b""
        if early:  # what came with the end of the handshake, before the task resumed
            self.data_received(early)

    # -- deadlines ------------------------------------------------------------------------

    def _arm(self) -> None:
        """A request's headers (and the TLS handshake before the first) are due within the
        deadline from now; a new request makes a new cycle."""
        self._armed_for = self.cycle if self._begun else None
        self._timer = self.loop.call_later(self.edge.limits.header_seconds, self._headers_due)

    def _headers_due(self) -> None:
        if self._address is None:
            return
        if not self._begun or self.cycle is self._armed_for:
            self.edge.log.refused("slow", self._address)
            self._close()

    def data_received(self, data: bytes) -> None:
        self._last_rx = time.monotonic()
        if not self._begun:
            self._early += data
            return
        super().data_received(data)
        cycle = self.cycle
        if (
            cycle is not None
            and cycle is not self._armed_for
            and cycle.more_body
            and self._body_timer is None
        ):
            self._watch_body(cycle)

    def _watch_body(self, cycle: Any) -> None:
        limits = self.edge.limits
        length = 0
        for name, value in self.headers or []:
            if name == b"content-length" and value.isdigit() and len(value) < 13:
                length = int(value)
        self._body_due = time.monotonic() + limits.body_idle_seconds + length / limits.body_min_rate
        self._body_cycle = cycle
        self._body_timer = self.loop.call_later(limits.body_idle_seconds, self._body_check)

    def _body_check(self) -> None:
        self._body_timer = None
        cycle = self._body_cycle
        if self._address is None or cycle is not self.cycle or not cycle.more_body:
            return
        if cycle.response_started:
            return  # answered without its body (a refusal): the header deadline runs again
        now = time.monotonic()
        if now - self._last_rx > self.edge.limits.body_idle_seconds or now > self._body_due:
            self.edge.log.refused("body", self._address)
            self._close()
            return
        idle = self.edge.limits.body_idle_seconds
        self._body_timer = self.loop.call_later(idle, self._body_check)

    def handle_websocket_upgrade(self, event: Any) -> None:
        """A page's WebSocket (the simulator's): no request deadline on it from now, and its
        place given back when it closes, since the WebSocket's protocol owns the connection."""
        self._cancel()
        super().handle_websocket_upgrade(event)
        ws = self.transport.get_protocol()
        if ws is self or self._address is None:
            return
        address, self._address = self._address, None
        lost = ws.connection_lost

        def connection_lost(exc: Exception | None) -> None:
            self.edge.release(address)
            lost(exc)

        ws.connection_lost = connection_lost  # type: ignore[method-assign]

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._cancel()
        if self._address is not None and not self.transport.is_closing():
            self._arm()

    # -- the end --------------------------------------------------------------------------

    def _close(self) -> None:
        transport = self.transport if self._begun else self._raw
        if transport is not None and not transport.is_closing():
            transport.close()

    def _cancel(self) -> None:
        for timer in (self._timer, self._body_timer):
            if timer is not None:
                timer.cancel()
        self._timer = self._body_timer = None

    def _release(self) -> None:
        if self._address is not None:
            self.edge.release(self._address)
            self._address = None

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel()
        self._release()
        if self._begun:
            super().connection_lost(exc)
