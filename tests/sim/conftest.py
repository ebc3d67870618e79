"""Fixtures for the simulator's tests: a clock the test moves, and the server on a free port."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import uvicorn
from starlette.applications import Starlette

from controller.sim.cli import bind
from controller.sim.server import create_app


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


@pytest.fixture
def sim_server(clock: ManualClock) -> Iterator[RunningServer]:
    """The simulator served by uvicorn in a thread on 127.0.0.1, a free port, the test's clock."""
    app = create_app(clock=clock, tick_seconds=0.02)
    sock, _ = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the simulator did not start within 10 s")
        time.sleep(0.02)
    try:
        yield RunningServer(f"http://127.0.0.1:{port}", clock, app)
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
