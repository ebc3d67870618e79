"""Issue 40, item 15, on the command line: in an event of two divisions an export without
``--division`` writes every division's file (and asks for one only where it would print them
all on one screen); what an organiser hands on (a printed list, the archive) is readable by
others (0644), while the event folder's secrets stay 0600; the log's times are the hall's
(the machine's time zone, named), not UTC."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

EXE = str(Path(sys.executable).with_name("damath-board"))


def hub(folder: Path, *argv: str, tz: str = "UTC") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TZ": tz}
    return subprocess.run([EXE, "hub", *argv, "--dir", str(folder)], capture_output=True,
                          text=True, timeout=120, env=env)  # fmt: skip


def two_divisions(folder: Path) -> None:
    assert hub(folder, "event", "create", "--name", "Cup", "--division", "open",
               "--rounds", "3").returncode == 0  # fmt: skip
    assert hub(folder, "division", "set", "dam", "--game", "dam", "--rounds", "3").returncode == 0
    for n in range(4):
        assert hub(folder, "player", "add", f"Open {n}", "--division", "open").returncode == 0
        assert hub(folder, "player", "add", f"Dam {n}", "--division", "dam").returncode == 0
    for d in ("open", "dam"):
        assert hub(folder, "pair", "--round", "1", "--division", d).returncode == 0


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_exports_of_a_two_division_event_are_every_divisions_and_readable(tmp_path):
    event = tmp_path / "meet"
    two_divisions(event)
    for what in ("standings", "crosstable", "teams", "pairings", "find-table"):
        to = str(tmp_path / f"{what}.html")
        out = hub(event, "export", what, "--format", "html", "--out", to)
        assert out.returncode == 0, out.stderr
        for d in ("dam", "open"):
            page = tmp_path / f"{what}-{d}.html"
            assert f"{what}-{d}.html" in out.stdout and page.is_file(), (what, out.stdout)
            assert f"division {d}" in page.read_text(), what
            assert mode(page) == 0o644, (what, oct(mode(page)))
    one = hub(event, "export", "standings", "--division", "dam", "--out", str(tmp_path / "dam.csv"))
    assert one.returncode == 0 and mode(tmp_path / "dam.csv") == 0o644
    asked = hub(event, "export", "standings")
    (line,) = asked.stderr.strip().splitlines()
    assert asked.returncode == 2 and "divisions dam, open" in line and "--division" in line, line
    assert "--out" in line, line
    (event / "hub.sqlite").touch()
    out = hub(event, "board-add", "b01", "--host", "127.0.0.1")
    assert out.returncode == 0, out.stderr
    assert mode(event / "boards" / "b01.toml") == 0o600  # a board's secret stays private
    archive = hub(event, "archive", "--out", str(tmp_path / "cup.zip"))
    assert archive.returncode == 0, archive.stderr
    assert mode(tmp_path / "cup.zip") == 0o644


def test_the_log_says_the_halls_time_and_which(tmp_path):
    event = tmp_path / "meet"
    two_divisions(event)
    utc = hub(event, "log").stdout.splitlines()[0]
    manila = hub(event, "log", tz="Asia/Manila").stdout.splitlines()[0]
    assert " UTC+8 " in manila and "+00:00" not in manila, manila
    assert utc[:16] != manila[:16]  # 8 hours apart, the same moment
