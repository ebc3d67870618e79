"""The tournament-on-the-hub commands answer a mistake with one line and change nothing."""

from __future__ import annotations

import subprocess

import pytest

from controller.tournament import boards as seating
from controller.tournament.model import Division, Event
from controller.tournament.tournament import Tournament

from .conftest import DAMATH, free_port


def run(folder, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [DAMATH, "hub", *args, "--dir", str(folder)],
        capture_output=True,
        text=True,
        timeout=60,
        input=stdin,
    )


@pytest.mark.slow
def test_mistakes_are_one_line_and_change_nothing(tmp_path):
    t = Tournament.create(tmp_path, Event("Cup"), Division("open", "swiss", 3))
    t.add_player("Ana")
    t.add_player("Ben")
    t.pair(1)
    before = len(t.log())
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    cases = [
        (["publish", "--round", "1", "--url", url], "no hub here (hub.toml is missing)"),
        (["accept", "--round", "1"], "no hub store here"),
        (["seat", "--table", "0", "--board", "b01"], "tables are numbered from 1"),
        (["seat"], "give --table N --board ID, or --auto"),
        (["account", "add", "lina", "--password-stdin"], "at least 10 characters"),
    ]
    for args, said in cases:
        out = run(tmp_path, *args, stdin="short\n")
        assert out.returncode == 2, (args, out.stdout)
        (line,) = out.stderr.strip().splitlines()
        assert line.startswith("damath-board hub: error:") and said in line, (args, line)
    (tmp_path / "hub.toml").write_text(
        'password = "p"\norganiser_token = "t"\npublic_host = ""\nevent = "Cup"\n'
    )
    out = run(tmp_path, "publish", "--round", "1", "--url", url)
    assert "does not answer" in out.stderr and "is it running?" in out.stderr
    seating.set_seat(t, "open", 1, "b01")
    out = run(tmp_path, "seat", "--table", "2", "--board", "b01")
    assert "board b01 already stands at table 1" in out.stderr
    assert len(t.log()) == before + 1  # only the seat set above
    out = run(tmp_path, "account", "add", "lina", "--password-stdin", stdin="long enough pw\n")
    assert out.returncode == 0 and "account lina (arbiter) ready" in out.stdout
    assert "lina" in run(tmp_path, "account", "list").stdout
    t.close()
