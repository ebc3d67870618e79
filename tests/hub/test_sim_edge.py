"""The simulator's HTTP edge (issue 27, item 6), against the real ``damath-board sim``: one
address holding 540 half-sent requests open no longer turns everyone else away. It may hold
``MAX_PER_ADDRESS`` connections; one more is answered 503 and closed at once, and the requests
of another machine are all answered meanwhile. The addresses are 127.0.0.x: every one of them
reaches a server on 127.0.0.1.

(This test belongs with the simulator's tests, tests/sim/; it is here while that folder is being
restructured.)"""

from __future__ import annotations

import http.client
import socket
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from controller.sim.guard import MAX_PER_ADDRESS

from .conftest import DAMATH, free_port

HALF_SENT = 540
REQUESTS = 49


@pytest.fixture
def sim():
    port = free_port()
    proc = subprocess.Popen([DAMATH, "sim", "--port", str(port), "--no-save"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)  # fmt: skip
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None, "the simulator stopped"
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/")
            if conn.getresponse().status == 200:
                break
        except OSError:
            pass
        assert time.monotonic() < deadline, "the simulator did not start in 60 s"
        time.sleep(0.1)
    yield port
    proc.terminate()
    proc.wait(15)


def half_sent(port: int, source: str) -> socket.socket | None:
    """A request that never ends (the headers' last line never comes)."""
    s = socket.socket()
    s.bind((source, 0))
    s.settimeout(5)
    try:
        s.connect(("127.0.0.1", port))
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1")
    except OSError:
        s.close()
        return None
    return s


def answered_503(s: socket.socket) -> bool:
    try:
        s.settimeout(0.05)  # said at once, or not at all
        return s.recv(100).startswith(b"HTTP/1.1 503")
    except OSError:
        return False


def get(port: int) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        conn.request("GET", "/")
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


@pytest.mark.slow
def test_half_sent_requests_from_one_address_do_not_starve_the_others(sim):
    port = sim
    held = [half_sent(port, "127.0.0.2") for _ in range(HALF_SENT)]
    opened = [s for s in held if s is not None]
    # another machine, while those are held (well within their 10 s to finish a request)
    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(lambda _: get(port), range(REQUESTS)))
    assert statuses == [200] * REQUESTS, statuses
    refused = [s for s in opened[MAX_PER_ADDRESS:] if answered_503(s)]
    assert len(refused) >= HALF_SENT - MAX_PER_ADDRESS - 10, len(refused)
    for s in opened:
        s.close()
    # the address gets its connections back once it closes them
    deadline = time.monotonic() + 30
    while True:
        probe = half_sent(port, "127.0.0.2")
        ok = probe is not None and not answered_503(probe)
        if probe is not None:
            probe.close()
        if ok:
            break
        assert time.monotonic() < deadline, "127.0.0.2 was not given its connections back"
        time.sleep(0.1)
