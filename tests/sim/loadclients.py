"""Hostile and heavy clients for the simulator on 127.0.0.1, shared by the suite's bounded load
test (tests/sim/test_hostile_clients.py) and the longer benchmark (bench/bench_sim_load.py).

A probe page on a board of its own measures what a player there feels while the others attack:
the **tick latency** (the test moves the simulator's clock one second; how long until the page
shows the new time: the ticker's health) and the **action latency** (a click until its answer).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import statistics
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


def create_board(url: str, board_id: str) -> None:
    """The arbiter creates a board (the simulator under test has no PIN)."""
    request = urllib.request.Request(f"{url}/board/{board_id}/create", data=b"", method="POST")
    with urllib.request.urlopen(request, timeout=30) as r:
        assert r.status == 200


def ws_url(url: str, board_id: str) -> str:
    return url.replace("http://", "ws://") + f"/ws/{board_id}"


async def next_state(ws: Any, timeout: float = 10.0) -> dict[str, Any]:
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if msg["type"] == "state":
            return msg["state"]


async def next_reply(ws: Any, timeout: float = 10.0) -> dict[str, Any]:
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if msg["type"] not in ("state", "hello"):
            return msg


@dataclass
class Probe:
    """A page on a board in play; its clock readings and its latencies."""

    ws: Any
    advance: Callable[[float], None]
    ticks: list[float] = field(default_factory=list)
    actions: list[float] = field(default_factory=list)
    game: str = ""

    @classmethod
    async def start(cls, url: str, board_id: str, advance: Callable[[float], None]) -> Probe:
        ws = await connect(ws_url(url, board_id), max_size=2**22)
        state = await next_state(ws)
        await ws.send(json.dumps({"type": "arrange"}))
        await next_reply(ws)
        probe = cls(ws, advance, game=state["clocks"]["game"])
        deadline = time.monotonic() + 20
        while True:  # the board settles, the clocks start
            advance(0.5)
            with contextlib.suppress(TimeoutError):
                state = await next_state(ws, 0.5)
                if state["clocks"]["running"]:
                    probe.game = state["clocks"]["game"]
                    return probe
            if time.monotonic() > deadline:
                raise AssertionError("the probe's board never started its clocks")

    async def tick(self, timeout: float = 10.0) -> float:
        """Move the clock a second; how long until the page shows the new game time."""
        began = time.perf_counter()
        self.advance(1.0)
        deadline = began + timeout
        while True:
            state = await next_state(self.ws, max(0.01, deadline - time.perf_counter()))
            if state["clocks"]["game"] != self.game:
                self.game = state["clocks"]["game"]
                took = time.perf_counter() - began
                self.ticks.append(took)
                return took

    async def act(self, timeout: float = 10.0) -> float:
        """Lift a chip and put it back: how long until each answer comes."""
        for kind in ("lift", "place"):
            began = time.perf_counter()
            await self.ws.send(json.dumps({"type": kind, "square": [1, 2]}))
            reply = await next_reply(self.ws, timeout)
            assert reply["type"] == "done", reply
            self.actions.append(time.perf_counter() - began)
        return self.actions[-1]

    async def measure(self, rounds: int, pause: float = 0.15) -> None:
        for _ in range(rounds):
            await self.tick()
            await self.act()
            await asyncio.sleep(pause)


def summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    return {
        "n": len(values),
        "median_ms": round(statistics.median(ordered) * 1000, 1),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 1),
        "max_ms": round(ordered[-1] * 1000, 1),
    }


# ---------------------------------------------------------------------- the hostile ones


async def crowd(url: str, boards: list[str], count: int) -> list[Any]:
    """``count`` pages spread over ``boards``, each reading everything it is sent."""
    pages = []
    for i in range(count):
        ws = await connect(ws_url(url, boards[i % len(boards)]), max_size=2**22)
        pages.append(ws)
    readers = [asyncio.create_task(_drain(ws)) for ws in pages]
    for ws, task in zip(pages, readers, strict=True):
        ws.reader = task
    return pages


async def _drain(ws: Any) -> int:
    n = 0
    with contextlib.suppress(ConnectionClosed, asyncio.CancelledError):
        async for _ in ws:
            n += 1
    return n


async def close_all(pages: list[Any]) -> None:
    for ws in pages:
        with contextlib.suppress(Exception):
            ws.reader.cancel()
            await ws.close()


async def never_reader(host: str, port: int, board_id: str) -> asyncio.StreamWriter:
    """A raw socket that opens a board's channel and then reads nothing, ever (a receive
    window of a few KB, so the server's writes back up at once)."""
    import socket

    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((host, port))
    sock.setblocking(False)
    _, writer = await asyncio.open_connection(sock=sock)
    writer.write(
        (
            f"GET /ws/{board_id} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    await writer.drain()
    return writer


async def churn(url: str, board_id: str, seconds: float) -> int:
    """A page that makes its board change as fast as it may (lift, put back): every change is a
    state pushed to every page of that board, the never-reader included."""
    sent = 0
    async with connect(ws_url(url, board_id), max_size=2**22) as ws:
        await next_state(ws)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for kind in ("lift", "place"):
                await ws.send(json.dumps({"type": kind, "square": [3, 2]}))
                await next_reply(ws)
                sent += 1
            await asyncio.sleep(0.12)  # under the rate limit: a busy, honest page
    return sent


@dataclass
class Flood:
    sent: int = 0
    refused: int = 0
    closed: bool = False
    reason: str = ""


async def flood(url: str, board_id: str, count: int) -> Flood:
    """One page sending ``count`` messages as fast as it can (and reading what comes back)."""
    out = Flood()
    answered = asyncio.Event()  # the server said "too many", or hung up
    async with connect(ws_url(url, board_id), max_size=2**22) as ws:

        async def read() -> None:
            with contextlib.suppress(ConnectionClosed, asyncio.CancelledError):
                async for raw in ws:
                    if "too many messages" in raw:
                        out.refused += 1
                        answered.set()
            answered.set()

        reader = asyncio.create_task(read())
        try:
            for i in range(count):  # lift and put back: each one a change to push
                kind = "place" if i % 2 else "lift"
                await ws.send(f'{{"type": "{kind}", "square": [5, 2]}}')
                out.sent += 1
                if out.sent % 20 == 0:
                    await asyncio.sleep(0)
        except ConnectionClosed as exc:
            out.closed = True
            out.reason = exc.rcvd.reason if exc.rcvd else ""
        # the server reads the flood at its own pace: wait for its answer (the bound only ends
        # a server that never answers, which the test then reports)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(answered.wait(), 60)
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reader
    return out


async def slow_headers(host: str, port: int, every: float = 0.2, limit: float = 30.0) -> float:
    """A request whose headers come one byte at a time: seconds until the server hangs up."""
    reader, writer = await asyncio.open_connection(host, port)
    began = time.perf_counter()
    text = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 1000
    try:
        for byte in text:
            writer.write(bytes([byte]))
            await writer.drain()
            with contextlib.suppress(TimeoutError):
                if await asyncio.wait_for(reader.read(1), every) == b"":
                    return time.perf_counter() - began
            if time.perf_counter() - began > limit:
                break
    except (ConnectionError, OSError):
        return time.perf_counter() - began
    finally:
        writer.close()
    return float("inf")


async def huge_message(url: str, board_id: str, size: int) -> int | None:
    """Send one message of ``size`` bytes; the close code the server answers with."""
    async with connect(ws_url(url, board_id), max_size=2**22) as ws:
        await next_state(ws)
        try:
            await ws.send("x" * size)
            await asyncio.wait_for(ws.recv(), 10)
            await asyncio.wait_for(ws.recv(), 10)
        except ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd else None
    return None


def get_latency(url: str, path: str = "/api/boards") -> float:
    began = time.perf_counter()
    with urllib.request.urlopen(url + path, timeout=30) as r:
        r.read()
    return time.perf_counter() - began
