"""Fixtures for the simulator's tests: a clock the test moves, the server on a free port (in
memory, or keeping its games in a folder), and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from starlette.applications import Starlette

from controller.cli.sim import bind
from controller.sim.guard import server_config
from controller.sim.server import create_app
from tests.chromium import ARGS, ARTIFACTS, CHROMIUM

__all__ = ["ARGS", "ARTIFACTS", "CHROMIUM"]  # the simulator's browser tests import them from here


class ManualClock:
    """Monotonic time that moves only when the test says so: settle, error delay and the
    arbiter clocks become exact and the browser test never sleeps for them."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class RunningServer:
    url: str
    clock: ManualClock
    app: Starlette


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@contextlib.contextmanager
def serve(
    app: Starlette, clock: ManualClock, sndbuf: int | None = None, **overrides: Any
) -> Iterator[RunningServer]:
    """``app`` served by uvicorn in a thread on 127.0.0.1, a free port, with the configuration
    ``damath-board sim`` uses (``guard.server_config``; ``overrides`` change some of it).
    ``sndbuf``: the kernel's send buffer of every connection (inherited from the listening
    socket), small so that a page that never reads backs the server's writes up in seconds."""
    sock, _ = bind("127.0.0.1", 0)
    if sndbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, sndbuf)
    port = sock.getsockname()[1]
    server = uvicorn.Server(server_config(app, **overrides))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60  # a bound for a hung start, not a pace
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the simulator did not start within 60 s")
        time.sleep(0.02)
    try:
        yield RunningServer(f"http://127.0.0.1:{port}", clock, app)
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


@pytest.fixture
def sim_server(clock: ManualClock) -> Iterator[RunningServer]:
    """The simulator on 127.0.0.1, a free port, the test's clock."""
    with serve(create_app(clock=clock, tick_seconds=0.02), clock) as running:
        yield running


@pytest.fixture
def saving_server(clock: ManualClock, tmp_path: Path) -> Iterator[RunningServer]:
    """The simulator keeping its games in a folder, with a class list."""
    (tmp_path / "players.txt").write_text("Ana Cruz\nBen Reyes\nCara Lim\nDan Uy\n")
    app = create_app(clock=clock, tick_seconds=0.02, state_dir=tmp_path)
    with serve(app, clock) as running:
        yield running


@contextlib.contextmanager
def new_page(browser, width: int = 1280, height: int = 900):
    """A page in its own context; any JavaScript error on it, and anything the
    Content-Security-Policy blocks (an inline script or style the page would need), fails the
    test."""
    context = browser.new_context(viewport={"width": width, "height": height})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on(
        "console",
        lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None,
    )
    try:
        yield pg
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def page(browser):
    with new_page(browser) as pg:
        yield pg


def open_board(page, url: str, board_id: str, pin: str | None = None) -> None:
    """Open a board's page in the browser as the arbiter does the first time: the address
    shows "There is no board … yet", and the button creates it (with the PIN, if one is set)."""
    page.goto(f"{url}/board/{board_id}")
    create = page.get_by_role("button", name=f"Create board {board_id}")
    if create.count():
        if pin is not None:
            page.get_by_label("Arbiter's PIN").fill(pin)
        create.click()
        page.wait_for_url(f"{url}/board/{board_id}")
