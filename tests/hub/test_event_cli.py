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


def test_auto_seating_gives_each_division_boards_of_its_game_and_seats_swap(tmp_path):
    """Issue 40: ``seat --auto`` seated Damath boards at Dam tables (the boards in name order,
    whatever game each said it plays), and swapping two seated boards needed both unseated
    first. Each division now gets boards of its game (a board that has not said its game
    fills what is left), and ``--swap`` exchanges two tables' boards in one step."""
    from controller.hub.store import Store

    store = Store(tmp_path / "hub.sqlite", "Cup")
    plays = {"b01": "damath", "b02": "damath", "b03": "dam", "b04": "dam", "b05": None}
    for board, game in plays.items():
        store.add_board(board, "00" * 32)
        with store.transaction() as db:
            store.touch_board(db, board, 1.0, plays=game)
    store.close()
    t = Tournament.create(tmp_path, Event("Cup"), Division("dam", "swiss", 3, game="dam"))
    t.set_division("open", "swiss", 3)
    for n in range(4):
        t.add_player(f"Dam {n}", division="dam")
        t.add_player(f"Open {n}", division="open")
    out = run(tmp_path, "seat", "--auto")
    assert out.returncode == 0, out.stderr
    assert seating.seats(t) == {("dam", 1): "b03", ("dam", 2): "b04",
                                ("open", 1): "b01", ("open", 2): "b02"}  # fmt: skip
    out = run(tmp_path, "seat", "--division", "open", "--table", "1", "--board", "b02")
    assert out.returncode == 2 and "--swap" in out.stderr, out.stderr
    out = run(tmp_path, "seat", "--division", "open", "--table", "1", "--board", "b02", "--swap")
    assert out.returncode == 0, out.stderr
    assert "table 1: board b02; board b01 to table 2" in out.stdout, out.stdout
    assert seating.seats(t)[("open", 1)] == "b02" and seating.seats(t)[("open", 2)] == "b01"
    t.close()
