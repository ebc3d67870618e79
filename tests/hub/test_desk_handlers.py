"""The desk's handlers called as the functions they are, without HTTP, a broker or a login:
each action takes the hub, the open tournament, the form and the person and answers with the
sentence the desk shows, or refuses with the fix; each page builder returns its HTML. The
routes, the cookies and the CSRF check are tested against the running hub (test_desk.py)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from starlette.requests import Request

from controller.hub.accounts import Session
from controller.hub.context import HubContext
from controller.hub.store import Store
from controller.hub.web import desk_actions, desk_pages, desk_players
from controller.tournament.model import TournamentError

ORGANISER = Session("Maria", "organiser", "csrf-token")
ARBITER = Session("Jun", "arbiter", "csrf-token")


@dataclass
class Hall:
    """What the desk's handlers use of a running hub: its folder, its store, the tournament."""

    folder: Path
    store: Store
    tournament = HubContext.tournament


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[Hall]:
    store = Store(tmp_path / "hub.sqlite", "Division meet")
    yield Hall(tmp_path, store)
    store.close()


def request(path: str, query: str = "") -> Request:
    return Request({"type": "http", "method": "GET", "path": path,
                    "query_string": query.encode(), "headers": []})  # fmt: skip


def act(hall: Hall, fn, s: Session = ORGANISER, **data: str) -> str:
    with hall.tournament() as t:
        return fn(hall, t, data, s)


def test_an_event_is_made_and_filled_by_the_organisers_actions(hall: Hall) -> None:
    with pytest.raises(TournamentError, match="team size 'x'"):
        desk_players.new_event(hall, {"name": "Meet", "team_size": "x"}, ORGANISER)
    said = desk_players.new_event(
        hall, {"name": "Meet", "colour": "blue", "rounds": "3"}, ORGANISER
    )
    assert said == "event 'Meet' created; pairing number 1 plays Blue in round 1"
    assert act(hall, desk_players.add_division, name="dam", game="dam", rounds="2") == (
        "division dam: Dam, swiss, 2 rounds"
    )
    names = ["Ana Cruz", "Ben <b>Reyes</b>", "Carla Diaz", "Dino Sy"]
    for n, name in enumerate(names, start=1):
        assert act(hall, desk_players.add_player, name=name, school="Rizal", division="open",
                   rating=str(1000 + n)) == f"{name} added (number {n})"  # fmt: skip
    with pytest.raises(TournamentError, match="rating 'tall': a whole number up to 9999"):
        act(hall, desk_players.add_player, name="Eve", rating="tall")
    edited = act(hall, desk_players.edit_player, player="3", name="Carla Díaz", school="Rizal",
                 grade="5", rating="", reason="spelling")  # fmt: skip
    assert edited == "player 3 is now Carla Díaz, Rizal, 5"
    assert act(hall, desk_players.withdraw, player="4", reason="ill") == (
        "Dino Sy withdrawn: not paired after round 0"
    )
    page = desk_players.players_page(hall, request("/desk/players"), ORGANISER)
    assert "Carla Díaz" in page and "Ben &lt;b&gt;Reyes&lt;/b&gt;" in page
    assert "withdrawn after 0" in page and "Ben <b>" not in page


def test_a_round_is_paired_recorded_and_logged_with_who_did_it(hall: Hall) -> None:
    desk_players.new_event(hall, {"name": "Meet", "colour": "red", "rounds": "2"}, ORGANISER)
    for name in ("Ana", "Ben", "Carla", "Dino"):
        act(hall, desk_players.add_player, name=name)
    with pytest.raises(TournamentError, match="which round"):
        act(hall, desk_actions.publish, round="first")
    assert act(hall, desk_actions.pair) == "round 1 paired: check it, then send it to the boards"
    with hall.tournament() as t:
        first, second = (p.id for p in t.pairings("open", 1))
    with pytest.raises(TournamentError, match="choose a result"):
        act(hall, desk_actions.result, ARBITER, pairing=str(first))
    with pytest.raises(TournamentError, match="no pairing given"):
        act(hall, desk_actions.result, ARBITER, outcome="blue")
    with pytest.raises(TournamentError, match="needs its reason"):
        act(hall, desk_actions.result, ARBITER, pairing=str(first), outcome="blue", ruling="1")
    assert act(hall, desk_actions.result, ARBITER, pairing=str(first), outcome="blue",
               blue="12", red="-3") == "recorded: Blue wins"  # fmt: skip
    with pytest.raises(TournamentError, match="which table"):
        act(hall, desk_actions.seat, division="open", table="one")
    with hall.tournament() as t:
        kept = t.results()
        assert kept[first].outcome == "blue" and kept[first].source == "hand"
        assert second not in kept
    log = desk_pages.log_page(hall, request("/desk/log"), ARBITER)
    assert "arbiter Jun" in log and "organiser Maria" in log
    with pytest.raises(Exception, match="round 'x': a whole number"):
        desk_pages.round_view(hall, request("/desk/round.json", "round=x"))
