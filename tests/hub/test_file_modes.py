"""The event folder is the organiser's alone (issue 27, item 9), with the real commands and the
running hub: the folder 0700 and every file in it 0600, the stores' -wal and -shm included,
whether the hub, its broker, board-add, the desk's logins or the tournament's commands made
them; a folder an earlier version left readable is taken back at the next start."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
from pathlib import Path

import pytest

from controller.hub.store import Store

from .conftest import DAMATH, Board, RunningHub
from .test_desk import PASSWORD, Browser


def modes(folder: Path) -> dict[str, int]:
    out = {}
    for root, dirs, files in os.walk(folder):
        for name in [".", *dirs, *files]:
            path = Path(root) / name
            out[str(path.relative_to(folder))] = stat.S_IMODE(path.lstat().st_mode)
    return out


def wrong_modes(folder: Path) -> dict[str, str]:
    found = modes(folder)
    return {
        name: oct(mode)
        for name, mode in found.items()
        if mode != (0o700 if (folder / name).is_dir() else 0o600)
    }


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    r = subprocess.run([DAMATH, *args], input=stdin, capture_output=True, text=True,
                       timeout=120)  # fmt: skip
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    return r


@pytest.mark.slow
def test_every_file_of_the_event_is_the_organisers_alone(tmp_path, sample_moves):
    os.umask(0o022)  # as a user's shell usually has it
    event = tmp_path / "event"
    run("hub", "board-add", "b1", "--dir", str(event), "--host", "127.0.0.1")
    run("hub", "account", "add", "org", "--role", "organiser", "--password-stdin",
        "--dir", str(event), stdin=PASSWORD + "\n")  # fmt: skip
    run("hub", "event", "create", "--dir", str(event), "--name", "Division Meet", "--rounds", "3")
    run("hub", "player", "add", "Ana Cruz", "--dir", str(event))
    hub = RunningHub(event)
    run("hub", "board-add", "b1", "--dir", str(event), "--port", str(hub.mqtt_port),
        "--replace")  # fmt: skip
    hub.start()
    try:
        board = Board("b1", tmp_path / "b1", event / "boards" / "b1.toml")
        board.start_link()
        board.open_session()
        board.play.play_moves(sample_moves[:4], speed=60)
        board.wait_acked()
        b = Browser(hub.url)
        assert b.login("org") == (303, "/desk")  # a session row: desk.sqlite's WAL
        found = modes(event)
        for name in ("hub.sqlite", "hub.sqlite-wal", "hub.sqlite-shm", "desk.sqlite",
                     "desk.sqlite-wal", "desk.sqlite-shm", "tournament.sqlite", "hub.toml",
                     "boards/b1.toml", "broker/passwd", "broker/acl", "broker/mosquitto.conf",
                     "broker/mosquitto.log"):  # fmt: skip
            assert name in found, (name, sorted(found))
        assert wrong_modes(event) == {}
        board.close()
    finally:
        hub.stop()
    assert wrong_modes(event) == {}  # the broker's persistence written at its stop too


def test_a_folder_left_readable_is_taken_back_at_start(tmp_path):
    os.umask(0o022)
    event = tmp_path / "event"
    event.mkdir(mode=0o755)
    Store(event / "hub.sqlite", "Division Meet").close()  # as an earlier version left it:
    (event / "hub.sqlite").chmod(0o644)
    event.chmod(0o755)
    db = sqlite3.connect(event / "desk.sqlite")
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE t (x)")
    (event / "notes.txt").write_text("the organiser's own file")
    assert modes(event)["hub.sqlite"] == 0o644 and modes(event)["desk.sqlite-wal"] == 0o644
    db.close()
    hub = RunningHub(event)
    hub.start()
    try:
        assert wrong_modes(event) == {}
    finally:
        hub.stop()


def test_account_add_makes_a_new_event_folder(tmp_path):
    new = tmp_path / "not" / "there" / "yet"
    r = run("hub", "account", "add", "org", "--role", "organiser", "--password-stdin",
            "--dir", str(new), stdin=PASSWORD + "\n")  # fmt: skip
    assert "ready" in r.stdout
    assert stat.S_IMODE(new.stat().st_mode) == 0o700
    assert wrong_modes(new) == {}
