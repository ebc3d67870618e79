"""The hall's housekeeping (issue 26, items 7 and 8): a board retired with ``hub board-remove``
(its credential revoked at the running broker, gone from the board list and the wall, its games
kept; refused while a table needs it), the hub's banner naming the addresses it is really
reached at, and a desk before the event exists saying who creates it and how."""

from __future__ import annotations

import subprocess
from types import SimpleNamespace

import pytest

from controller.cli.hub import banner
from controller.hub.addresses import reachable
from controller.link.playback import sample_game_moves
from controller.tournament import boards as seating
from controller.tournament.model import Division, Event
from controller.tournament.tournament import Tournament

from .conftest import DAMATH, Board
from .eventkit import wait_for
from .test_desk import PASSWORD, Browser


def hub_cli(hub, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([DAMATH, "hub", *args, "--dir", str(hub.folder)], capture_output=True,
                          text=True, timeout=60)  # fmt: skip


@pytest.mark.slow
def test_a_board_retired_leaves_the_hall_and_keeps_its_games(hub, tmp_path):
    hub.start()
    spare = Board("b21", tmp_path / "b21", hub.add_board("b21"))
    hub.add_board("b01")
    spare.start_link()
    spare.open_session()
    spare.play.play_moves(sample_game_moves()[1][:3])
    spare.wait_acked()
    wait_for(
        "the spare on the wall",
        lambda: any(c["board"] == "b21" for c in hub.json("/api/cards")["cards"]),
    )
    t = Tournament.create(hub.folder, Event("Cup"), Division("open", "swiss", 1))
    t.add_player("Ana")
    t.add_player("Ben")
    seating.set_seat(t, "open", 1, "b01")
    out = hub_cli(hub, "board-remove", "b01")
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    assert "b01 stands at table 1 of division 'open': seat another board there first" in out.stderr
    out = hub_cli(hub, "board-remove", "b21")
    assert out.returncode == 0, out.stderr
    assert "board b21 removed: its credential is revoked, its 1 game(s) stay" in out.stdout
    passwd = (hub.folder / "broker" / "passwd").read_text()
    assert "b21:" not in passwd and "b01:" in passwd
    assert "b21" not in {b["board"] for b in hub.json("/api/boards")["boards"]}
    wait_for(
        "the spare leaves the wall",
        lambda: all(c["board"] != "b21" for c in hub.json("/api/cards")["cards"]),
    )
    assert any(g["board"] == "b21" for g in hub.json("/feeds")["games"])  # its game is kept
    spare.close()
    again = Board("b21", tmp_path / "b21-again", spare.conn)
    link = again.start_link()
    wait_for(
        "the broker refuses the retired credential", lambda: "refused" in link.status().last_error
    )
    again.close()
    out = hub_cli(hub, "board-remove", "b21")
    assert out.returncode == 2 and "no board b21 in this hub" in out.stderr
    t.close()


def test_the_banner_names_the_addresses_the_hub_is_reached_at(tmp_path):
    every = reachable("0.0.0.0")
    assert every[-1] == "127.0.0.1" and all(a != "0.0.0.0" for a in every)
    assert reachable("192.168.50.10") == ["192.168.50.10"]
    args = SimpleNamespace(http_host="0.0.0.0", http_port=8080, mqtt_bind="0.0.0.0",
                           mqtt_port=1883, tls_cert=None, tls_port=8883)  # fmt: skip
    ctx = SimpleNamespace(store=SimpleNamespace(event_name="Division Meet 2026"),
                          folder=tmp_path, broker=object(), broker_url="")  # fmt: skip
    text = banner(ctx, args)  # type: ignore[arg-type]
    assert f"desk        http://{every[0]}:8080/desk" in text
    assert "0.0.0.0" not in text
    assert f"mqtt://{every[0]}:1883" in text
    assert "no tournament event here yet: create it at the desk" in text
    (tmp_path / "tournament.sqlite").write_bytes(b"")
    assert "no tournament event" not in banner(ctx, args)  # type: ignore[arg-type]


def test_before_the_event_exists_the_desk_says_who_creates_it(hub):
    from controller.hub.accounts import Accounts

    accounts = Accounts(hub.folder)
    accounts.add("lina", "arbiter", PASSWORD)
    accounts.add("maria", "organiser", PASSWORD)
    accounts.close()
    hub.start()  # with --event "Division Meet" (the fixture's), and no tournament yet
    desk = Browser(hub.url)
    desk.login("lina")
    status, html, _ = desk.go("/desk")
    assert status == 200 and "No event yet. The hub was started for Division Meet." in html
    assert "log in as the organiser" in html and "damath-board hub event create" in html
    organiser = Browser(hub.url)
    organiser.login("maria")
    status, html, _ = organiser.go("/desk")
    assert 'value="Division Meet"' in html and "Create the event" in html
    log = (hub.folder / "hub.log").read_text()
    assert "no tournament event here yet" in log
