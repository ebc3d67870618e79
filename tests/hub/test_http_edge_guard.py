"""The HTTP edge the hub and the federation serve through (``controller/httpedge``; issue 39,
break 1), on the real uvicorn with its real protocol, in this process with deadlines of a
second: a request's headers and a body that stall are closed at their deadline (uvicorn alone
kept them for ever: ≥ 90 s at the hub), one address holds its share and no more while another
is answered, a TLS client that never says hello is counted and closed like the others, and
what is refused is said once a minute with a count (tests/federation/test_one_client.py: the
same against the running hub and federation, under a stock file limit)."""

from __future__ import annotations

import contextlib
import http.client
import socket
import ssl
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn

from controller.httpedge import EdgeLimits, edge_config
from controller.httpedge.quiet import QuietLogs, RefusalLog
from controller.httpedge.serve import caps
from tests.federation.services import make_certificates

from .conftest import free_port

LIMITS = EdgeLimits(header_seconds=1.0, body_idle_seconds=1.0, body_min_rate=1024,
                    max_connections=64, per_address=4)  # fmt: skip
BOUND = 15.0
"""Seconds a test waits for the server to close a connection: only ends a hung test."""


async def echo(scope, receive, send) -> None:
    """An app that reads the whole body and answers its length."""
    if scope["type"] != "http":
        return
    size, more = 0, True
    while more:
        message = await receive()
        size += len(message.get("body", b""))
        more = message.get("more_body", False)
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"text/plain")]})  # fmt: skip
    await send({"type": "http.response.body", "body": str(size).encode()})


@contextlib.contextmanager
def serving(tls: tuple[str, str] | None = None) -> Iterator[tuple[int, RefusalLog]]:
    port = free_port()
    said: list[str] = []
    refusals = RefusalLog(say=said.append)
    config = edge_config(echo, "127.0.0.1", port, tls=tls, limits=LIMITS, refusals=refusals,
                         whole_process=False)  # fmt: skip
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield port, refusals
    finally:
        server.should_exit = True
        thread.join(10)


def closed_by_server(sock: socket.socket) -> float:
    """Seconds until the server closes ``sock`` (what it sent before is read and dropped)."""
    start = time.monotonic()
    sock.settimeout(BOUND)
    while True:
        try:
            if not sock.recv(4096):
                return time.monotonic() - start
        except (ConnectionResetError, ssl.SSLError):
            return time.monotonic() - start


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.socket()
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def test_stalled_headers_and_a_stalled_body_are_closed_at_their_deadlines():
    with serving() as (port, refusals):
        slow = connect(port)
        slow.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        assert closed_by_server(slow) < BOUND
        body = connect(port)
        body.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123456789")
        assert closed_by_server(body) < BOUND
        # a body that keeps coming, however slowly, is read whole
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=BOUND)
        conn.putrequest("POST", "/")
        conn.putheader("Content-Length", "1200")
        conn.endheaders()
        for _ in range(3):
            conn.send(b"x" * 400)
            time.sleep(0.4)
        assert conn.getresponse().read() == b"1200"
        assert refusals.total == 2


def test_one_address_holds_its_share_and_another_is_answered():
    with serving() as (port, refusals):
        held = [connect(port, "127.0.0.2") for _ in range(LIMITS.per_address)]
        for sock in held:
            sock.sendall(b"GET / HTTP/1.1\r\n")
        extra = connect(port, "127.0.0.2")
        assert extra.recv(100).startswith(b"HTTP/1.1 503 ")
        assert closed_by_server(extra) < 1.0  # at once, not at a deadline
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=BOUND)
        conn.request("GET", "/")
        assert conn.getresponse().status == 200
        for sock in held:  # and the share is given back at the deadline
            assert closed_by_server(sock) < BOUND
        again = connect(port, "127.0.0.2")
        again.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert again.recv(100).startswith(b"HTTP/1.1 200 ")
        assert refusals.reasons["address"] >= 1 or refusals.total >= 1


def test_a_tls_client_that_never_says_hello_is_counted_and_closed(tmp_path):
    ca, cert, key = make_certificates(tmp_path)
    with serving(tls=(cert, key)) as (port, refusals):
        silent = [connect(port, "127.0.0.3") for _ in range(LIMITS.per_address)]
        extra = connect(port, "127.0.0.3")
        assert closed_by_server(extra) < 1.0  # its address's share is taken: closed at once
        context = ssl.create_default_context(cafile=ca)
        conn = http.client.HTTPSConnection("127.0.0.1", port, timeout=BOUND, context=context)
        conn.request("POST", "/", body=b"abc")
        assert conn.getresponse().read() == b"3"  # HTTPS as usual for everyone else
        for sock in silent:
            assert closed_by_server(sock) < BOUND  # the handshake's deadline
        assert refusals.total >= 1 + len(silent)


def test_refusals_are_said_once_a_minute_with_their_count():
    now = [1000.0]
    said: list[str] = []
    log = RefusalLog(every=60.0, say=said.append, clock=lambda: now[0])
    log.refused("address", "10.0.0.5")  # the first at once
    assert said == [
        "refused 1 connection in 1 s (too many at once from one address: 1); most from "
        "10.0.0.5 ×1 (said at most once a minute)"
    ]
    for n in range(999):
        now[0] += 0.05
        log.refused("address" if n % 3 else "slow", "10.0.0.5" if n % 10 else "10.0.0.6")
    assert len(said) == 1  # nothing more within the minute
    now[0] = 1061.0
    log.refused("address", "10.0.0.5")
    assert len(said) == 2 and said[1].startswith("refused 1000 connections in ")
    assert "too many at once from one address: 667" in said[1]
    assert "no whole request within the deadline: 333" in said[1]
    assert "most from 10.0.0.5 ×900, 10.0.0.6 ×100" in said[1]
    # asyncio's traceback per refused accept() and uvicorn's line per bad request: counted
    quiet = QuietLogs(log)
    import logging

    text = "socket.accept() out of system resource\nsocket: …"
    record = logging.LogRecord("asyncio", logging.ERROR, __file__, 1, text, None, None)
    assert quiet.filter(record) is False and log.reasons["accept"] == 1


@pytest.mark.parametrize(
    ("files", "total", "per_address"),
    [(1024, 896, 224), (65536, 4096, 256), (200, 72, 18)],
)
def test_the_limits_fit_under_the_file_limit(files, total, per_address):
    fitted = caps(EdgeLimits(), files)
    assert (fitted.max_connections, fitted.per_address) == (total, per_address)
