"""One client against the hub and the federation at once (issue 39, break 1): from one address,
a thousand connections held open at each (half a request at the hub, not even a TLS hello at
the federation), reopened as fast as they are closed. Both servers run under a stock Debian
shell's limit of 1,024 open files, where uvicorn alone let those connections take every file
(the federation's log grew 724 MB in 3 minutes; the hub's desk stopped answering and it could
not acknowledge a record).

Meanwhile the desk answers, a board's moves are acknowledged and another hall's submission is
accepted; each server closes what it holds past its deadline; each log grows by a few lines."""

from __future__ import annotations

import os
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from controller.federation.credentials import load
from controller.hub.submit import send
from tests.hub.conftest import DAMATH, RunningHub
from tests.hub.eventkit import MOVES, HallBoard

from .kit import event_of
from .services import STOCK_FILES, Siege, damath_here, file_limit

LOG_GROWTH = 4096
"""Bytes each server's log may grow by during the siege: a few lines, not one per connection."""


class StockHub(RunningHub):
    """The hub under a stock shell's open-file limit (soft and hard: it cannot raise it)."""

    def start(self, wait: bool = True) -> StockHub:
        ready = self.folder / "ready"
        fd = os.open(self.folder / "hub.log", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        with os.fdopen(fd, "a") as log:
            self.proc = subprocess.Popen(
                [*file_limit(STOCK_FILES), DAMATH, "hub", "--dir", str(self.folder),
                 "--http-host", "127.0.0.1", "--http-port", str(self.http_port),
                 "--mqtt-port", str(self.mqtt_port), "--mqtt-bind", "127.0.0.1",
                 "--ready-file", str(ready), "--event", "Division Meet"],
                stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
        deadline = time.monotonic() + 120  # a bound for a hung start, not a pace
        while not ready.exists():
            assert self.proc.poll() is None, (self.folder / "hub.log").read_text()[-2000:]
            assert time.monotonic() < deadline, "the hub did not start in 120 s"
            time.sleep(0.05)
        return self


def size(path: Path) -> int:
    return path.stat().st_size if path.exists() else 0


@pytest.mark.slow
def test_one_address_holding_a_thousand_connections_stops_neither_hub_nor_federation(
    tmp_path, sqlite_fed
):
    federation, _ids = sqlite_fed
    # another hall's event, its players without federation IDs (nothing of it is rated)
    damath_here("federation", "event", "add", "siege-cup", "--name", "Siege Cup", "--date",
           "2026-12-05", "--dir", str(federation.folder))  # fmt: skip
    cred = load(federation.folder / "events" / "siege-cup.toml")
    event = event_of(tmp_path / "game", "blue")
    event.event_id, event.sign_key, event.fed_ids = cred.event, cred.key, ("", "")
    hub = StockHub(tmp_path / "event")
    hub.folder.mkdir()
    hub.start()
    board = HallBoard.start("b1", hub.add_board("b1"), tmp_path / "b1")
    sieges: list[Siege] = []
    try:
        board.play_some(1)
        board.wait_acked()
        logs = {p: size(p) for p in (hub.folder / "hub.log", federation.folder / "serve.log")}
        sieges = [
            Siege([f"127.0.0.1:{hub.http_port}"], http=True),
            Siege([f"127.0.0.1:{federation.port}"]),
        ]
        for siege in sieges:
            siege.wait("a thousand connections from 127.0.0.2", lambda f: f["attempts"] >= 1000)

        # -- the hall and the federation go on -----------------------------------------------
        for _ in range(3):
            with urllib.request.urlopen(hub.url + "/desk", timeout=30) as r:
                assert r.status == 200 and b"<form" in r.read()
        board.play.play_moves(MOVES[1:3])
        board.wait_acked()
        verdict = send(cred, event.submission(), timeout=30)
        assert verdict["verdict"] == "accepted", verdict

        # -- what one address holds past the deadline is closed, not kept for ever -----------
        for siege in sieges:
            figures = siege.wait(
                "connections closed at the deadline", lambda f: f["closed"] >= 50, timeout=40
            )
            assert figures["refused"] > 0, figures  # beyond its share: refused at once
    finally:
        for siege in sieges:
            siege.stop()
        board.close()
        hub.stop()
    for path, before in logs.items():
        grown = size(path) - before
        text = path.read_text(errors="replace")
        assert grown <= LOG_GROWTH, f"{path.name} grew {grown} bytes: {text[-1500:]}"
        assert "Traceback" not in text[before:]
        assert "refused" in text[before:] and "said at most once a minute" in text[before:]
