"""Fixtures for the hub's tests: a real Mosquitto and the real hub command, boards that play
through their own session and publish through their own link, and the checks that what the
hub stored is every board's journal, once, in order."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from controller.hub.credentials import add_board
from controller.link.config import load
from controller.link.playback import PlaybackBoard, sample_game_moves
from controller.link.publisher import Link
from controller.record.journal_file import read as read_journal

ROOT = Path(__file__).resolve().parents[2]
DAMATH = str(Path(sys.executable).with_name("damath-board"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session", autouse=True)
def mosquitto_installed() -> None:
    for tool in ("mosquitto", "mosquitto_passwd"):
        if not (shutil.which(tool) or Path(f"/usr/sbin/{tool}").exists()):
            pytest.fail(f"{tool} not found: the hub's tests need Debian's mosquitto "
                        "(./test.sh installs it)")  # fmt: skip


@dataclass
class RunningHub:
    folder: Path
    mqtt_port: int = field(default_factory=free_port)
    http_port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None
    extra: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    """Set in the hub's environment over the test's (a failpoint: controller/hub/failpoints.py)."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    def start(self, wait: bool = True) -> RunningHub:
        ready = self.folder / "ready"
        ready.unlink(missing_ok=True)
        fd = os.open(self.folder / "hub.log", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        log = os.fdopen(fd, "a")  # the process keeps it
        self.proc = subprocess.Popen(
            [DAMATH, "hub", "--dir", str(self.folder), "--http-host", "127.0.0.1",
             "--http-port", str(self.http_port), "--mqtt-port", str(self.mqtt_port),
             "--mqtt-bind", "127.0.0.1", "--ready-file", str(ready), "--event", "Division Meet",
             *self.extra],
            stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **self.env},
        )  # fmt: skip
        if wait:
            deadline = time.monotonic() + 120  # a bound for a hung start, not a pace
            while not ready.exists():
                assert self.proc.poll() is None, (self.folder / "hub.log").read_text()[-2000:]
                assert time.monotonic() < deadline, "the hub did not start in 120 s"
                time.sleep(0.05)
        return self

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def broker_pid(self) -> int:
        return int((self.folder / "broker" / "mosquitto.pid").read_text())

    def get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            return r.read()

    def json(self, path: str):
        return json.loads(self.get(path))

    def add_board(self, board: str, port: int | None = None) -> Path:
        return add_board(self.folder, board, host="127.0.0.1", port=port or self.mqtt_port).path


@pytest.fixture
def hub(tmp_path: Path):
    h = RunningHub(tmp_path / "event")
    h.folder.mkdir()
    yield h
    h.stop()


@dataclass
class Board:
    """A board: its journal folder, its session played by simulated hands, its link."""

    board: str
    folder: Path
    conn: Path
    link: Link | None = None
    play: PlaybackBoard | None = None

    def start_link(self, conn: Path | None = None, **kw) -> Link:
        kw.setdefault("poll_seconds", 0.1)
        kw.setdefault("resend_seconds", 2.0)
        self.link = Link(load(conn or self.conn), self.folder, **kw).start()
        return self.link

    def open_session(self) -> PlaybackBoard:
        self.play = PlaybackBoard(self.folder, on_record=lambda _b, _n: self._nudge())
        return self.play

    def _nudge(self) -> None:
        if self.link is not None:
            self.link.nudge()

    def wait_acked(self, timeout: float = 60) -> None:
        """Until the hub has acknowledged every record of every journal file of the board."""
        assert self.link is not None
        deadline = time.monotonic() + timeout
        while True:  # a frozen link (its lock held for ever) fails the wait, never hangs it
            held = self.link._lock.acquire(timeout=max(0.1, deadline - time.monotonic()))
            assert held, f"{self.board}: the link froze: its lock was never given back"
            self.link._lock.release()
            status = self.link.status()
            if status.unacked == 0 and journal_total(self.folder) == acked_total(self.link):
                return
            assert time.monotonic() < deadline, f"{self.board}: not acknowledged: {status}"
            time.sleep(0.1)

    def close(self) -> None:
        if self.link is not None:
            self.link.stop()
        if self.play is not None:
            self.play.close()


def journal_total(folder: Path) -> int:
    paths = [folder / "journal.jsonl", *sorted((folder / "games").glob("*.jsonl"))]
    return sum(len(read_journal(p).records) for p in paths)


def acked_total(link: Link) -> int:
    with link._lock:
        games = link.follower.games
        superseded = {g.supersedes for g in games}
        return sum(g.acked for g in games if g.id not in superseded)


def journal_games(folder: Path) -> dict[str, list[dict]]:
    """Every game the board's link knows, by id: the records of its journal file now."""
    state = json.loads((folder / "link" / "state.json").read_text())
    out = {}
    for g in state["games"]:
        if g.get("supersedes") is None and not Path(g["path"]).exists():
            continue
        out[g["id"]] = read_journal(g["path"]).records
    return out


def stored_games(hub_folder: Path, board: str) -> dict[str, list[tuple[int, dict]]]:
    db = sqlite3.connect(f"file:{hub_folder / 'hub.sqlite'}?mode=ro", uri=True)
    rows = db.execute(
        "SELECT game_id, seq, record FROM records WHERE board_id = ? ORDER BY game_id, seq",
        (board,),
    ).fetchall()
    db.close()
    out: dict[str, list[tuple[int, dict]]] = {}
    for game, seq, record in rows:
        out.setdefault(game, []).append((seq, json.loads(record)))
    return out


def assert_hub_equals_journals(hub_folder: Path, boards: list[Board]) -> int:
    """Each game in the hub is its board's journal: every record once, in order, nothing else.
    Returns the number of moves checked."""
    moves = 0
    for b in boards:
        if b.link is not None:  # the link writes its state once a second: now, please
            with b.link._lock:
                b.link.follower.save()
        journals = journal_games(b.folder)
        stored = stored_games(hub_folder, b.board)
        assert set(stored) == set(journals), f"{b.board}: games differ"
        for game, records in journals.items():
            rows = stored[game]
            assert [seq for seq, _ in rows] == list(range(1, len(records) + 1)), game
            assert [r for _, r in rows] == records, f"{b.board} {game}: records differ"
            moves += sum(1 for r in records if r.get("k") == "move")
    return moves


DESK_PASSWORD = "correct horse battery"


@pytest.fixture
def desk(hub):
    """A running hub with an event of seven players and two desk logins (org, lina)."""
    from controller.hub.accounts import Accounts
    from controller.tournament.model import Division, Event
    from controller.tournament.tournament import Tournament

    t = Tournament.create(hub.folder, Event("Division Meet"), Division("open", "swiss", 3))
    for n in range(1, 8):  # seven: a bye each round
        t.add_player(f"Player {n}")
    t.close()
    accounts = Accounts(hub.folder)
    accounts.add("org", "organiser", DESK_PASSWORD)
    accounts.add("lina", "arbiter", DESK_PASSWORD)
    accounts.close()
    hub.start()
    return hub


@pytest.fixture
def sample_moves():
    return sample_game_moves()[1]


def run_in_thread(fn, *args) -> threading.Thread:
    t = threading.Thread(target=fn, args=args, daemon=True)
    t.start()
    return t


__all__ = ["ROOT", "Board", "RunningHub", "os"]
