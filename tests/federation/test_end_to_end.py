"""Three halls, one federation, on a real PostgreSQL and on SQLite.

Each hall is a real hub (its own Mosquitto) whose boards play their games through their own
sessions and links; its organiser imports the event's players by their federation IDs, runs a
round robin of four, corrects one result with a reason (hall 1) or records one by hand (hall 2),
and submits the finished event over HTTPS with the event's credential. The federation verifies
every game record by record with the rules engine, refuses a forged one with its reason (hall
3's store altered after the event), accepts it once the store is the boards' again, and
publishes the rating list: the same test on each store.
"""

from __future__ import annotations

import json
import sqlite3
import ssl
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from controller.audit.check import audit_text
from controller.tournament import boards as seating
from controller.tournament.damath_scores import parse_score
from controller.tournament.model import Division, Event, GameResult
from controller.tournament.tournament import Tournament
from tests.hub.conftest import RunningHub
from tests.hub.eventkit import HallBoard, round_view, wait_for

from .conftest import EVENTS, ON_POSTGRES, ON_SERVERS, PLAYERS
from .services import damath_here

CORRECTION = "Red's flag fell before the last move was made (clock)"
BY_HAND = "board b2 lost its power at move 12; the game was finished on paper"


@dataclass
class Hall:
    event_id: str
    folder: Path
    players: list[str]
    """The event's federation IDs in entry order."""


def strength(ids: list[str], fed_id: str) -> int:
    return -ids.index(fed_id)  # PLAYERS lists the strongest first


def play_event(base: Path, n: int, cred: Path, ids: list[str]) -> Hall:
    """One hall's whole event on its hub; the hub is stopped at the end (a submission is made
    from the event's folder)."""
    event_id, name, date, _region, entrants = EVENTS[n]
    fed_ids = [ids[i] for i in entrants]
    hub = RunningHub(base / f"hall-{n + 1}")
    hub.folder.mkdir()
    hub.start()
    boards = {
        b: HallBoard.start(b, hub.add_board(b), base / f"boards-{n + 1}" / b) for b in ("b1", "b2")
    }
    Tournament.create(
        hub.folder,
        Event(name, date=date, venue=f"Hall {n + 1}", initial_colour="blue"),
        Division("open", "round-robin"),
    ).close()
    out = damath_here(
        "hub", "federation", "import", *fed_ids, "--dir", str(hub.folder), "--credential", str(cred)
    ).stdout
    assert out.count("division open") == 4, out
    damath_here("hub", "seat", "--auto", "--dir", str(hub.folder))
    t = Tournament.open(hub.folder)
    try:
        players = t.players()
        assert [p.fed_id for p in players.values()] == fed_ids  # entered by ID, in order
        assert players[1].name == PLAYERS[entrants[0]][0]  # the registry's name
        for rnd in (1, 2, 3):
            for b in boards.values():
                b.next_game()
            t.pair(rnd)
            damath_here(
                "hub", "publish", "--round", str(rnd), "--url", hub.url, "--dir", str(hub.folder)
            )
            sent = seating.dispatches(t)
            hand = []
            games = []
            for p in t.pairings("open", rnd):
                blue, red = players[p.blue].fed_id, players[p.red].fed_id
                board = boards[sent[p.id].board]
                board.take_assignment(sent[p.id].assignment)
                if n == 1 and {blue, red} == {ids[4], ids[5]}:
                    hand.append(p)  # its board fails: finished on paper
                    continue
                games.append((board, "blue" if strength(ids, blue) > strength(ids, red) else "red"))
            # the clocks wait for the round's start from the desk (docs/tournament.md)
            damath_here(
                "hub", "start", "--round", str(rnd), "--url", hub.url, "--dir", str(hub.folder)
            )
            for board, winner in games:
                board.wait_started()
                board.play_game(winner)
            for b in boards.values():
                b.wait_acked()
            if n == 0 and rnd == 1:
                sheets_carry_the_ids(hub, games[0][0], players, t.pairings("open", 1), sent)
            played = 2 - len(hand)
            wait_for(
                f"hall {n + 1} round {rnd}'s board games",
                lambda rnd=rnd, k=played: (
                    sum(bool(r["board_result"]) for r in round_view(hub, rnd)) == k
                ),
            )
            damath_here("hub", "accept", "--round", str(rnd), "--dir", str(hub.folder))
            for p in hand:  # Ella (stronger) beat Fe on paper
                word = "blue" if players[p.blue].fed_id == ids[4] else "red"
                t.record_result(p.id, GameResult(word), by="arbiter Lina", reason=BY_HAND)
        if n == 0:  # Carla against Dino: the board's win for Carla corrected to a draw
            p = next(
                p
                for p in t.pairings()
                if {players[p.blue].fed_id, players[p.red].fed_id} == {ids[2], ids[3]}
            )
            zero = parse_score("0")
            t.record_result(
                p.id,
                GameResult("draw", zero, zero, source="arbiter"),
                by="arbiter Lina",
                reason=CORRECTION,
            )
        assert len(t.results()) == 6
    finally:
        t.close()
        for b in boards.values():
            b.close()
        hub.stop()
    return Hall(event_id, hub.folder, fed_ids)


def sheets_carry_the_ids(hub, board, players, pairings, sent) -> None:
    """The board's own sheet (its CSV, which the audit still reads) and the hub's feed of the
    game (its sheet as JSON) name both players' federation IDs."""
    p = next(p for p in pairings if sent[p.id].board == board.board)
    blue, red = players[p.blue].fed_id, players[p.red].fed_id
    sheet_csv = board.play.session.export_csv()
    assert f"BLUE,federation-id,{blue}," in sheet_csv and f"RED,federation-id,{red}," in sheet_csv
    assert audit_text(sheet_csv, "integer", "official").errors == 0  # still the audit's format
    game = next(g for g in hub.json("/feeds")["games"] if g["board"] == board.board)
    sheet = hub.json(game["json"])["sheet"]
    assert (sheet["players"]["blue"]["fed_id"], sheet["players"]["red"]["fed_id"]) == (blue, red)


@pytest.fixture(scope="module")
def halls(tmp_path_factory, sqlite_fed):
    """The three halls' events, played once (their players imported from a federation's
    registry: every federation of these tests gives the same IDs)."""
    server, ids = sqlite_fed
    base = tmp_path_factory.mktemp("halls")
    return [
        play_event(base, n, server.folder / "events" / f"{EVENTS[n][0]}.toml", ids)
        for n in range(3)
    ]


def submit(hall: Hall, federation, *extra: str):
    cred = federation.folder / "events" / f"{hall.event_id}.toml"
    return damath_here(
        "hub",
        "federation",
        "submit",
        "--dir",
        str(hall.folder),
        "--credential",
        str(cred),
        *extra,
        check=False,
    )


def forge(hall: Hall) -> tuple[str, str, int, str]:
    """Someone alters a move in the hall's store after the event (the board's record changed,
    its hash and HMAC left as they were). Returns the game, the original envelope's place."""
    db = sqlite3.connect(hall.folder / "hub.sqlite")
    board, game, seq, envelope = db.execute(
        "SELECT board_id, game_id, seq, envelope FROM records WHERE kind = 'move' "
        "ORDER BY board_id, game_id, seq LIMIT 1"
    ).fetchone()
    data = json.loads(envelope)
    data["record"]["path"] = [[1, 2], [0, 3]]  # another move written in
    db.execute(
        "UPDATE records SET envelope = ? WHERE board_id = ? AND game_id = ? AND seq = ?",
        (json.dumps(data, sort_keys=True, separators=(",", ":")), board, game, seq),
    )
    db.commit()
    db.close()
    return board, game, seq, envelope


def restore(hall: Hall, where: tuple[str, str, int, str]) -> None:
    board, game, seq, envelope = where
    db = sqlite3.connect(hall.folder / "hub.sqlite")
    db.execute(
        "UPDATE records SET envelope = ? WHERE board_id = ? AND game_id = ? AND seq = ?",
        (envelope, board, game, seq),
    )
    db.commit()
    db.close()


@pytest.mark.slow
@pytest.mark.parametrize("store", [pytest.param("postgresql", marks=ON_POSTGRES), "sqlite"])
def test_three_halls_submit_and_the_federation_verifies_rates_and_publishes(request, store, halls):
    federation, ids = request.getfixturevalue("pg_fed" if store == "postgresql" else "sqlite_fed")
    assert ("PostgreSQL" if store == "postgresql" else "SQLite") in federation.log()

    # -- the submission as a USB stick would carry it: every sheet names the players' IDs -----
    stick = halls[0].folder.parent / f"submission-{store}.zip"
    out = submit(halls[0], federation, "--out", str(stick))
    assert out.returncode == 0 and f"written to {stick}" in out.stdout, out.stdout + out.stderr
    with zipfile.ZipFile(stick) as z:
        sheets = "".join(
            z.read(n).decode() for n in z.namelist() if n.endswith("/scoresheets.html")
        )
    assert sheets.count("Federation ID") == 12  # six games, two players each
    assert all(f">{fed_id}<" in sheets for fed_id in halls[0].players)

    # -- halls 1 and 2: accepted, every game verified ----------------------------------------
    for hall, games in ((halls[0], 6), (halls[1], 5)):
        out = submit(hall, federation)
        assert out.returncode == 0, out.stdout + out.stderr
        assert (
            f"event {hall.event_id}: accepted by the federation ({games} games verified, 6 "
            "results" in out.stdout
        )
    meet = federation.json(f"/events/{halls[0].event_id}.json")
    assert meet["event"]["state"] == "accepted" and len(meet["games"]) == 6
    assert all(g["records"] > g["moves"] > 0 for g in meet["games"])
    corrected = [r for r in meet["results"] if r["corrected"]]
    assert [(r["outcome"], r["reason"], r["verified"]) for r in corrected] == [
        ("draw", CORRECTION, False)
    ]
    inter = federation.json(f"/events/{halls[1].event_id}.json")
    by_hand = [r for r in inter["results"] if not r["verified"]]
    assert [(r["source"], r["reason"], r["game_id"]) for r in by_hand] == [("hand", BY_HAND, None)]
    assert any(BY_HAND in n["reason"] for n in inter["submissions"][-1]["notes"])

    # -- hall 3: its store altered after the event: refused, with where and why --------------
    hall = halls[2]
    where = forge(hall)
    try:
        out = submit(hall, federation)
        assert out.returncode == 1 and "refused by the federation" in out.stdout
        board, game, seq, _ = where
        assert (
            f"refused: board {board}, game {game}, record {seq}: forged: record {seq}: the "
            "hash does not match its content" in out.stdout
        ), out.stdout
    finally:
        restore(hall, where)
    state = federation.json(f"/events/{hall.event_id}.json")
    assert state["event"]["state"] == "refused" and state["results"] == []
    out = submit(hall, federation)  # the boards' own records again: accepted
    assert out.returncode == 0 and "accepted by the federation (6 games" in out.stdout
    state = federation.json(f"/events/{hall.event_id}.json")
    assert [s["verdict"] for s in state["submissions"]] == ["refused", "accepted"]  # both kept
    assert state["submissions"][0]["reasons"][0]["reason"].startswith("forged:")

    # -- the rating list: every player, their games as the halls played them ----------------
    expected = {  # won, drawn, lost over the three events (the stronger wins each game)
        ids[0]: (6, 0, 0),
        ids[1]: (5, 0, 1),
        ids[2]: (2, 1, 3),
        ids[3]: (0, 1, 2),
        ids[4]: (3, 0, 3),
        ids[5]: (0, 0, 3),
        ids[6]: (1, 0, 2),
        ids[7]: (0, 0, 3),
    }

    def listed():
        data = federation.json("/ratings.json")
        got = {r["fed_id"]: (r["wins"], r["draws"], r["losses"]) for r in data["players"]}
        return data if got == expected else None

    data = wait_for("the rating list of every accepted game", listed, timeout=60)
    assert data["as_of"] == "2026-11"  # three monthly periods: September to November
    order = [r["fed_id"] for r in data["players"]]
    assert order[:2] == [ids[0], ids[1]] and set(order[-2:]) == {ids[5], ids[7]}
    assert all(r["provisional"] for r in data["players"])  # three to six games: provisional
    ncr = federation.json("/ratings.json?region=NCR")["players"]
    assert {r["fed_id"] for r in ncr} == set(ids[:6])
    u14 = federation.json("/ratings.json?age=U14")["players"]  # turning 12 or 13 in 2026
    assert {r["fed_id"] for r in u14} == {ids[0], ids[1], ids[5]}
    csv_text = federation.get("/ratings.csv").decode()
    assert csv_text.splitlines()[1].startswith(f"1,{ids[0]},Ana Reyes,Rizal ES,NCR,U14")
    page = federation.get("/ratings").decode()
    assert "Ana Reyes" in page and f'href="/players/{ids[0]}"' in page
    ana = federation.json(f"/players/{ids[0]}.json")
    assert "birth_year" not in ana and ana["age_group"] == "U14"
    assert [h["period"] for h in ana["history"]["all"]] == ["2026-09", "2026-10"]
    # the games' records, as the federation keeps them, with the federation IDs in the tags
    game = meet["games"][0]
    pdn = federation.get(f"/games/{game['id']}.pdn").decode()
    assert '[BlueFedId "' in pdn and '[RedFedId "' in pdn and f'[Game "{game["game"]}"]' in pdn


@ON_SERVERS  # the session's federations, asked for by name
@pytest.mark.slow  # a federation's process and its halls' credentials: the slow tier's
@pytest.mark.parametrize("store", [pytest.param("postgresql", marks=ON_POSTGRES), "sqlite"])
def test_a_wrong_credential_or_a_damaged_body_is_answered_and_stores_nothing(request, store):
    federation, _ids = request.getfixturevalue("pg_fed" if store == "postgresql" else "sqlite_fed")
    context = ssl.create_default_context(cafile=federation.ca)

    def post(body: bytes, token: str, length: str | None = None) -> tuple[int, dict]:
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/zip"}
        req = urllib.request.Request(federation.url + "/api/submissions", body, headers)
        if length is not None:
            req.add_header("Content-Length", length)
        try:
            with urllib.request.urlopen(req, timeout=30, context=context) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    before = federation.json("/events/ncr-meet.json")
    status, said = post(b"PK garbage", "not-a-token")
    assert (status, said) == (401, {"error": "the federation knows no event with this credential"})
    status, said = post(b"x" * 10, "t", length=str(65 * 1024 * 1024))
    assert status == 413 and "at most" in said["error"]
    cred = (federation.folder / "events" / "ncr-meet.toml").read_text()
    token = next(line.split('"')[1] for line in cred.splitlines() if line.startswith("token"))
    status, said = post(b"not a zip at all", token)
    assert status == 200 and said["verdict"] == "refused"
    assert said["reasons"] == [
        {
            "where": "the archive",
            "reason": "not a zip archive (damaged, or not the event's archive)",
        }
    ]
    after = federation.json("/events/ncr-meet.json")
    # the damaged body is kept, refused; what was accepted before stays in force
    assert len(after["submissions"]) == len(before["submissions"]) + 1
    assert after["submissions"][-1]["verdict"] == "refused"
    assert after["results"] == before["results"]
    was = before["event"]["state"]
    assert after["event"]["state"] == ("accepted" if was == "accepted" else "refused")
