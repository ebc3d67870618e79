"""A division of every game on the real hall: the event's divisions of Dadama, Dam, Mathematical
Chess and English draughts each sent to its boards over the real Mosquitto and hub, each board
playing its game by hands on its sensors and buttons; the hub reads every game's result from
the board's own records with that game's rules, the arbiter accepts them, and the tournament
ranks each division by its game (Mathematical Chess's points kept with its result).

A board seated at another game's table refuses the assignment: one line on its display, no
players put on its game, and none of its records tied to that table."""

from __future__ import annotations

import html
import json
import os
import re
import signal
import sqlite3
import textwrap
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.board import BoardHost, ScanLoop
from controller.board.sim import sim_devices
from controller.cli import main
from controller.games import GAMES
from controller.link.board import BoardLink
from controller.link.config import load
from controller.link.publisher import Link
from controller.record.games import recorded
from controller.tournament.tournament import Tournament
from tests.games.players import PLAYERS, play_on
from tests.games.players import Board as Hands
from tests.link.gameboards import EXPORTS, OTHER_GAMES

from .conftest import Board, journal_games, stored_games
from .eventkit import HallBoard, api, wait_for

HUNG = 120.0
"""A bound, never a pace: how long a wait for something the test needs may take."""

# each game's short game (tests/games/players.py) as the hub must read it, from Blue's side
# (the first mover): Dadama's second mover wins when every die of the first shows 6 (G-7), Dam
# is drawn by repetition (M-9), Mathematical Chess is won by taking every operator (C-11) with
# 12 points to 10, English and Italian draughts are won by taking the last man.
RESULTS = {
    "dadama": ("red", None, None),
    "dam": ("draw", None, None),
    "mathchess": ("blue", "12", "10"),
    "english": ("blue", None, None),
    "italian": ("blue", None, None),
}


def hub_cli(folder: Path, *argv: str) -> None:
    assert main(["hub", *argv, "--dir", str(folder)]) == 0


def open_short(folder: Path, name: str) -> Hands:
    """A board of game ``name``, its short game opened and set up on it."""
    player = PLAYERS[name].short
    host = BoardHost(folder, sync=False, wall=lambda: 1_700_000_000.0)
    board = Hands(host.open(GAMES[name], player.settings, 0.0, position=player.position))
    board.show()
    return board


@pytest.mark.slow
def test_every_games_division_is_played_accepted_and_ranked_through_the_real_hub(hub, tmp_path):
    from controller.hub.accounts import Accounts

    from .conftest import DESK_PASSWORD
    from .test_desk import Browser

    accounts = Accounts(hub.folder)
    accounts.add("lina", "arbiter", DESK_PASSWORD)
    accounts.close()
    hub.start()
    first, *others = OTHER_GAMES
    hub_cli(hub.folder, "event", "create", "--name", "Hall Day", "--system", "round-robin",
            "--division", first, "--game", first, "--initial-colour", "blue")  # fmt: skip
    for name in others:
        hub_cli(hub.folder, "division", "set", name, "--system", "round-robin", "--game", name)
    boards = {}
    for name in OTHER_GAMES:
        for player in (f"{name} Ana", f"{name} Ben"):
            hub_cli(hub.folder, "player", "add", player, "--division", name)
        hub_cli(hub.folder, "pair", "--round", "1", "--division", name)
        board = Board(f"b-{name}", tmp_path / name, hub.add_board(f"b-{name}"))
        board.folder.mkdir()
        board.start_link()
        boards[name] = board
        hub_cli(hub.folder, "seat", "--division", name, "--table", "1", "--board", board.board)
    open_files: dict[str, str] = {}
    for name, board in boards.items():
        api(hub, "/api/event/publish", {"round": 1, "division": name})
        assert board.link is not None
        held = wait_for(f"{name}: its table", board.link.assignment)
        assert held["game"] == name and "variant" not in held, held
        played = open_short(board.folder, name)
        play_on(played, PLAYERS[name].short)
        open_files[name] = played.game.files()[EXPORTS[name]]
        board.wait_acked()
    for name in OTHER_GAMES:
        (table,) = api(hub, "/api/event/round", {"round": 1, "division": name})["tables"]
        outcome, blue, red = RESULTS[name]
        assert table["status"] == "to-accept", (name, table)
        assert table["board_result"]["outcome"] == outcome, (name, table)
        assert (table["board_result"]["blue"] or None, table["board_result"]["red"] or None) == (
            blue,
            red,
        )
        assert api(hub, "/api/event/accept", {"round": 1, "division": name})
    arbiter = Browser(hub.url)
    assert arbiter.login("lina")[1] == "/desk"
    t = Tournament.open(hub.folder)
    try:
        for name in OTHER_GAMES:
            (p,) = t.pairings(name, 1)
            # the desk shows every game's table, its board's result and its record
            status, page, _ = arbiter.go(f"/desk?division={name}&round=1")
            assert status == 200 and f"{name} Ana" in page, page
            status, page, _ = arbiter.go(f"/desk/table?pairing={p.id}")
            assert status == 200 and "The board's journal" in page
            status, page, _ = arbiter.go(f"/desk/sheet?pairing={p.id}")
            assert status == 200 and "by hand" not in page, page
            assert_printed_sheet(page, name, open_files[name])
            # the desk's pause goes to every game's board (tests/hub/test_other_games_desk.py:
            # a board paused and resumed), and its resume
            for cmd in ("pause", "resume"):
                form = {"csrf": arbiter.csrf(), "pairing": str(p.id), "cmd": cmd, "back": "/desk"}
                location = arbiter.go("/desk/pause", form)[2]
                assert f"board+b-{name}%3A+{cmd}+sent" in location, location
        for name in OTHER_GAMES:
            (p,) = t.pairings(name, 1)
            result = t.results()[p.id]
            outcome, blue, red = RESULTS[name]
            assert result.outcome == outcome and result.source == "board"
            shown = [None if s is None else str(s.a) for s in (result.blue_score, result.red_score)]
            assert shown == [blue, red]
            table = t.standings(name)
            points = {s.player.name: str(s.points) for s in table}
            ana, ben = {"blue": ("1", "0"), "red": ("0", "1"), "draw": ("1/2", "1/2")}[outcome]
            assert points == {f"{name} Ana": ana, f"{name} Ben": ben}
            # a game with a score ranks by it; the others have no score tie-break
            assert ("score-diff" in table[0].tiebreaks) == (name == "mathchess")
    finally:
        t.close()
    # the archive: each division's standings by its game, and each game's record as the board
    # exports it (PDN for Dadama, Dam, English draughts; the JSON record for Mathematical Chess)
    zipped = tmp_path / "hall.zip"
    hub_cli(hub.folder, "archive", "--out", str(zipped))
    with zipfile.ZipFile(zipped) as z:
        names = z.namelist()
        event = json.loads(z.read("Hall-Day/event.json"))
        assert {d["name"]: d["game"] for d in event["divisions"]} == {n: n for n in OTHER_GAMES}
        for name, board in boards.items():
            standings = json.loads(z.read(f"Hall-Day/{name}/standings.json"))
            assert ("score-diff" in standings["tiebreaks"]) == (name == "mathchess")
            (game,) = journal_games(board.folder)
            own = open_files[name]
            kept = [n for n in names if n.startswith(f"Hall-Day/{name}/round-1/table-1_")]
            assert kept == [f"Hall-Day/{name}/round-1/table-1_{board.board}_{game}."
                            f"{EXPORTS[name]}"], names  # fmt: skip
            text = z.read(kept[0]).decode()
            # the round's printed sheets: the game's, as the desk reprints it
            printed = z.read(f"Hall-Day/{name}/round-1/scoresheets.html").decode()
            assert_printed_sheet(printed, name, own)
            if EXPORTS[name] == "json":
                assert text == own  # the very text the board exports
            else:  # the board's own PDN, the event's tags set at its top
                assert text.split("\n\n", 1)[1] == own.split("\n\n", 1)[1]
                assert f'[Division "{name}"]' in text and '[Round "1"]' in text
                if name != "dadama":  # its PDN's sides by their colours, the first mover's first
                    first, second = (c.capitalize() for c in recorded(name).rules.colours)
                    assert f'[{first} "{name} Ana"]' in text, text
                    assert f'[{second} "{name} Ben"]' in text, text
    for board in boards.values():
        board.close()


def sheet_cells(page: str) -> list[list[str]]:
    """The printed sheet's turns, each row's cells as printed (its number, the first mover's,
    the second mover's)."""
    rows = re.findall(r"<li>(.*?)</li>", page)
    return [[html.unescape(c) for c in re.findall(r"<span>(.*?)</span>", r)] for r in rows]


def assert_printed_sheet(page: str, name: str, own: str) -> None:
    """The desk's reprint of a game: its players, and every move of the board's own record, in
    order, a row per turn (Dadama's dice beside the step they gave)."""
    assert f"{name} Ana" in page and f"{name} Ben" in page, page
    assert "Blue: " in page and "Arbiter" in page  # the signatures
    rows = sheet_cells(page)
    if EXPORTS[name] == "json":
        turns = json.loads(own)["turns"]
        assert len(rows) == (len(turns) + 1) // 2, rows
        printed = [c for r in rows for c in r[1:] if c]
        assert len(printed) == len(turns)
        for said, turn in zip(printed, turns, strict=True):
            if "move" in turn:
                (a, b) = turn["move"]
                assert said.startswith(f"({a[0]},{a[1]})") and f"({b[0]},{b[1]})" in said, said
            for removal in turn["removals"]:
                assert removal["rule"] in said and " ".join(removal["pieces"]) in said, said
        return
    movetext = "\n".join(x for x in own.split("\n") if not x.startswith("["))
    words = [w for w in movetext.split() if not re.fullmatch(r"\d+\.(\.\.)?", w)]
    assert words[-1] in ("*", "1-0", "0-1", "1/2-1/2") and rows
    assert [n for n, *_ in rows] == [f"{k}." for k in range(1, len(rows) + 1)], rows
    assert " ".join(c for r in rows for c in r[1:] if c).split() == words[:-1], rows
    assert f"Result on the board: {words[-1]}" in page


@pytest.mark.slow
def test_a_board_refuses_a_table_of_another_game_with_one_line_on_its_display(hub, tmp_path):
    """The hub sends no table to a board that says it plays another game (its presence's
    ``plays``): the round is not sent, the organiser told which table and why in one line, the
    desk's row says it. A board that has not said yet is sent the table, and refuses it itself:
    one line on its display, no players put on its game, none of its records tied to it."""
    from controller.hub.accounts import Accounts

    from .conftest import DESK_PASSWORD
    from .test_desk import Browser

    accounts = Accounts(hub.folder)
    accounts.add("org", "organiser", DESK_PASSWORD)
    accounts.close()
    hub.start()
    hub_cli(hub.folder, "event", "create", "--name", "Hall Day", "--system", "round-robin",
            "--division", "main", "--initial-colour", "blue")  # fmt: skip
    hub_cli(hub.folder, "division", "set", "dam", "--system", "round-robin", "--game", "dam")
    for division in ("main", "dam"):
        for player in (f"{division} Ana", f"{division} Ben"):
            hub_cli(hub.folder, "player", "add", player, "--division", division)
        hub_cli(hub.folder, "pair", "--round", "1", "--division", division)
    # a Dam board carried to the Damath table, a Damath board to the Dam table
    dam_conn, damath_conn = hub.add_board("b-dam"), hub.add_board("b-damath")
    hub_cli(hub.folder, "seat", "--division", "main", "--table", "1", "--board", "b-dam")
    hub_cli(hub.folder, "seat", "--division", "dam", "--table", "1", "--board", "b-damath")

    # the Dam board: its game on the board's own loop, the display a mock
    folder = tmp_path / "dam"
    folder.mkdir()
    said: list[str] = []
    link = BoardLink(
        Link(load(dam_conn), folder, poll_seconds=0.1, resend_seconds=2.0), said.append
    )
    clock = [0.0]
    devices, _hands = sim_devices(lambda: clock[0], 12, "dark-squares")
    player = PLAYERS["dam"].short
    host = BoardHost(folder, sync=False, wall=lambda: 1_700_000_000.0)
    game = host.open(GAMES["dam"], player.settings, 0.0, position=player.position)
    _hands.set_occupied(set(game.expected()))  # the pieces stand as the game starts
    loop = ScanLoop(game, devices, link=link)
    link.start()
    # the Damath board: its session and the board runtime's own assignment handling; it has
    # not said its game yet (its link says it at its loop's first pass)
    damath = HallBoard.start("b-damath", damath_conn, tmp_path / "damath")

    def main_table() -> dict:
        (table,) = api(hub, "/api/event/round", {"round": 1, "division": "main"})["tables"]
        return table

    # the Dam board said it plays Dam: the desk sees the Damath table cannot go to it
    wait_for("the hub knows b-dam plays dam", lambda: main_table()["status"] == "wrong-game")
    assert main_table()["board_game"] == "dam" and main_table()["assignment"] is None
    status, told = _post(hub, "/api/event/publish", {"round": 1, "division": "main"})
    why = "round 1: table(s) 1 (board b-dam plays dam): division main plays damath; seat a "
    assert (status, told) == (400, why + "damath board"), told
    # nor by moving the table to it
    move = {"round": 1, "table": 1, "division": "main", "board": "b-dam", "reason": "spare"}
    status, body = _post(hub, "/api/event/move", move)
    assert (status, body) == (400, "board b-dam plays dam, not damath: not sent"), body
    # the desk: the organiser's send told why in one line, the table's row says it too
    org = Browser(hub.url)
    assert org.login("org")[1] == "/desk"
    token = org.csrf("/desk?division=main&round=1")
    _, _, location = org.go("/desk/publish", {"csrf": token, "division": "main", "round": "1"})
    assert "board+b-dam+plays+dam%29%3A+division+main+plays+damath%3B+seat+a+damath+board" in (
        location
    ), location
    _, page, _ = org.go("/desk?division=main&round=1")
    assert "not sent: its board plays another game (seat one of this division&#x27;s game)" in (
        page
    ), page
    assert hub.json("/api/boards") and main_table()["status"] == "wrong-game"

    # the Damath board has not said its game: the Dam table is sent, and the board refuses it
    api(hub, "/api/event/publish", {"round": 1, "division": "dam"})
    wait_for("the Damath board holds the Dam table", lambda: damath.assignment() is not None)
    damath.step(1.0)
    assert damath.link.refused == "Table 1, round 1 is a dam game: not for this damath board"
    assert not damath.play.session.info.get("blue"), damath.play.session.info  # no players put
    # a board of a tournament's hub waits for a table of its own game: its clocks held at full
    # time (not for the refused table's start), its records tied to no table
    wait_for("the hub runs a tournament", damath.link.link.tournament)
    damath.step(1.0)
    state = damath.play.session.state
    assert (state.held, state.held_asg) == ("round", None), (state.held, state.held_asg)
    damath.wait_acked()

    # a table set by hand (``POST /api/assignments``, unchecked) reaches the Dam board, which
    # refuses it: one line on its display, said once
    api(hub, "/api/assignments", {"board": "b-dam", "round": 1, "table": 1,
                                  "blue": {"name": "Ana"}, "red": {"name": "Ben"}})  # fmt: skip
    line = "Table 1, round 1 is a damath game: not for this dam board"

    def refused() -> bool:
        clock[0] += 0.5
        loop.step(clock[0])
        return link.refused == line

    wait_for("the Dam board refuses the Damath table", refused)
    loop.render(clock[0])
    shown = devices.scoresheet.last
    wrapped = textwrap.wrap(line, loop.page_size[0])
    assert shown[: len(wrapped)] == wrapped, shown
    for _ in range(4):  # said once, however long the board holds it
        clock[0] += 1.0
        loop.step(clock[0])
    assert said.count(line) == 1, said

    # the Dam board's game, played, reaches the hub tied to no table
    hands = Hands(game, clock[0])
    hands.show()
    play_on(hands, player)
    wait_for("the Dam board's records", lambda: stored_games(hub.folder, "b-dam"))
    db = sqlite3.connect(f"file:{hub.folder / 'hub.sqlite'}?mode=ro", uri=True)
    tied = db.execute("SELECT board_id, assignment_id FROM games ORDER BY board_id").fetchall()
    db.close()
    assert ("b-dam", None) in tied and {asg for _, asg in tied} == {None}, tied
    # the desk sees the Dam table refused by a board of another game, and which game it plays
    (table,) = api(hub, "/api/event/round", {"round": 1, "division": "dam"})["tables"]
    assert table["status"] == "other-game" and table["board_game"] == "damath", table
    assert table["board_result"] is None, table
    link.link.stop()
    damath.close()


def _post(hub, path: str, body: dict) -> tuple[int, str]:
    """An API call whose refusal is the point: its status and its one line (or its answer)."""
    import urllib.error
    import urllib.request

    from .eventkit import token

    request = urllib.request.Request(
        hub.url + path, json.dumps(body).encode(), {"Authorization": f"Bearer {token(hub)}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())["error"]


@pytest.mark.slow
def test_the_desk_adds_a_division_with_its_game_and_records_its_results(desk):
    from .test_desk import Browser, _open

    org = Browser(desk.url)
    assert org.login("org")[1] == "/desk"
    token = org.csrf("/desk/players")
    status, page, _ = org.go("/desk/players")
    assert '<option value="mathchess">Mathematical Chess</option>' in page
    status, _, location = org.go(
        "/desk/division",
        {"csrf": token, "name": "chess", "game": "mathchess", "system": "round-robin",
         "rounds": "", "back": "/desk/players"},
    )  # fmt: skip
    assert status == 303 and "division+chess%3A+Mathematical+Chess%2C+round-robin" in location
    status, _, location = org.go(
        "/desk/division",
        {"csrf": token, "name": "go", "game": "go", "system": "swiss", "rounds": "3"},
    )
    assert "unknown+game+%27go%27" in location, location
    arbiter = Browser(desk.url)
    assert arbiter.login("lina")[1] == "/desk"
    atoken = arbiter.csrf()
    assert arbiter.go("/desk/division", {"csrf": atoken, "name": "x", "game": "dam"})[0] == 403
    for name in ("Ana", "Ben"):
        org.go("/desk/player", {"csrf": token, "name": name, "division": "chess"})
    assert "round+1+paired" in org.go("/desk/pair", {"csrf": token, "division": "chess"})[2]
    with _open(desk) as t:
        assert t.division("chess").game == "mathchess" and t.division("open").game == "damath"
        (p,) = t.pairings("chess", 1)
    form = {"csrf": atoken, "pairing": str(p.id), "outcome": "blue", "reason": ""}
    location = arbiter.go("/desk/result", {**form, "blue": "9.5", "red": "4"})[2]
    assert "Mathematical+Chess+points+%279.5%27" in location, location
    location = arbiter.go("/desk/result", {**form, "blue": "9", "red": "4"})[2]
    assert "recorded" in location, location
    with _open(desk) as t:
        result = t.results()[p.id]
        assert (result.outcome, result.blue_score.a, result.red_score.a) == ("blue", 9, 4)
    status, wall, _ = org.go("/event")
    assert "9\u00a0:\u00a04" in wall
    # the hall's screen names each division's game: the event plays two
    assert "Division chess · Mathematical Chess · round 1" in wall
    assert "Division chess · Mathematical Chess · Standings after round 1" in wall
    assert "Division open · Damath · Standings" in wall


@pytest.mark.slow
def test_the_simulator_shows_a_refused_table_on_its_display_and_page(hub, tmp_path):
    """``damath-board sim --hub`` with a Dam board sent a Damath table: the board's display (the
    simulated OLED's lines) and its page's notice say so, in one line."""
    import subprocess
    import urllib.request

    from .conftest import DAMATH, free_port

    hub.start()
    conn = hub.add_board("s1")
    port = free_port()
    proc = subprocess.Popen(
        [DAMATH, "sim", "--port", str(port), "--state-dir", str(tmp_path / "sim"),
         "--set", "game=dam", "--hub", str(conn)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        api(hub, "/api/assignments", {"board": "s1", "round": 2, "table": 5,
                                      "blue": {"name": "Ana"}, "red": {"name": "Ben"}})  # fmt: skip
        line = "Table 5, round 2 is a damath game: not for this dam board"

        def state() -> dict | None:
            try:
                url = f"http://127.0.0.1:{port}/board/s1/state.json"
                with urllib.request.urlopen(url, timeout=5) as r:
                    found = json.loads(r.read())
            except OSError:
                return None
            # the page's notice, and the display's first lines: the line, wrapped to its width;
            # its last line the game's own once the simulated table has laid the men out
            shown = found.get("notice") == line and " ".join(found["display"]).startswith(line)
            return found if shown and found["display"][-1].startswith("Black") else None

        found = wait_for("the simulator's Dam board refuses the table", state, HUNG)
        assert found["game"] == "dam", found
    finally:
        proc.terminate()
        proc.wait(15)


@pytest.mark.slow
def test_one_event_of_three_games_a_round_each_with_the_hub_killed_midway(hub, tmp_path):
    """Issue 28's hall: one event with a Damath division on 4 boards, a Dam division on 2 and a
    Mathematical Chess division on 2, a round each through the real Mosquitto and hub; the
    broker SIGKILLed while the round is played (the hub's supervisor starts it again), then the
    hub itself (and its broker with it) SIGKILLed and started again. Every record of every game
    is in the hub once and in order, each game's hub record is the board's own export (Damath's
    PDN too), every table's result is the board's, accepted into its division, and the event's
    archive holds each division's standings and each table's record."""
    from .conftest import assert_hub_equals_journals
    from .eventkit import GAMES as DAMATH_GAMES

    hub.start()
    hub_cli(hub.folder, "event", "create", "--name", "Hall Day", "--system", "round-robin",
            "--division", "damath", "--initial-colour", "blue")  # fmt: skip
    hub_cli(hub.folder, "division", "set", "dam", "--system", "round-robin", "--game", "dam")
    hub_cli(hub.folder, "division", "set", "chess", "--system", "round-robin", "--game",
            "mathchess")  # fmt: skip
    boards_of = {"damath": ["d1", "d2", "d3", "d4"], "dam": ["m1", "m2"], "chess": ["c1", "c2"]}
    for division, names in boards_of.items():
        for k in range(1, 2 * len(names) + 1):
            hub_cli(hub.folder, "player", "add", f"{division} {k}", "--division", division,
                    "--rating", str(2000 - k))  # fmt: skip
        hub_cli(hub.folder, "pair", "--round", "1", "--division", division)
    damath = {b: HallBoard.start(b, hub.add_board(b), tmp_path / b) for b in boards_of["damath"]}
    others: dict[str, Board] = {}
    for b in boards_of["dam"] + boards_of["chess"]:
        others[b] = Board(b, tmp_path / b, hub.add_board(b))
        others[b].folder.mkdir()
        others[b].start_link()
    for division, names in boards_of.items():
        for table, b in enumerate(names, start=1):
            hub_cli(hub.folder, "seat", "--division", division, "--table", str(table),
                    "--board", b)  # fmt: skip
        api(hub, "/api/event/publish", {"round": 1, "division": division})
    for b in damath.values():
        wait_for(f"{b.board}: its table", b.assignment)
        b.take_assignment(b.assignment() or "")
    assert api(hub, "/api/event/start", {"round": 1, "division": "damath"})["started"]
    for b in damath.values():
        b.wait_started()
    for b in others.values():
        assert b.link is not None
        wait_for(f"{b.board}: its table", b.link.assignment)
    game_of = {"m1": "dam", "m2": "dam", "c1": "mathchess", "c2": "mathchess"}
    kinds = dict(zip(boards_of["damath"], ("blue", "draw", "red", "red-big"), strict=True))
    exports: dict[str, str] = {}

    def play(b: str) -> None:
        if b in damath:
            damath[b].play_game(kinds[b])
        else:
            played = open_short(others[b].folder, game_of[b])
            play_on(played, PLAYERS[game_of[b]].short)
            exports[b] = played.game.files()[EXPORTS[game_of[b]]]

    def reached(*names: str) -> Callable[[], bool]:
        return lambda: all(stored_games(hub.folder, b) for b in names)

    for b in ("d1", "m1", "c1"):
        play(b)
    wait_for("the first games reach the hub", reached("d1", "m1", "c1"), HUNG)
    # the broker SIGKILLed mid-round: the hub's supervisor starts it again, the boards play on
    os.kill(hub.broker_pid(), signal.SIGKILL)
    for b in ("d2", "m2"):
        play(b)
    restarted = lambda: hub.json("/api/boards")["broker"]["restarts"] >= 1  # noqa: E731
    wait_for("the hub's supervisor restarts its broker", restarted, HUNG)
    wait_for("the games after the broker's restart", reached("d2", "m2"), HUNG)
    hub.kill()  # the hub SIGKILLed mid-round: its broker goes with it; the boards play on
    for b in ("d3", "d4", "c2"):
        play(b)
    hub.start()
    for b in damath.values():
        b.wait_acked()
    for b in others.values():
        b.wait_acked()
    linked = [Board(b.board, b.folder, Path(), b.link.link) for b in damath.values()]
    assert_hub_equals_journals(hub.folder, linked + list(others.values()))
    for b, board in others.items():
        (game,) = journal_games(board.folder)
        feed = hub.json(f"/feeds/games/{b}/{game}.json")
        own = exports[b]
        assert feed["record"] == (json.loads(own) if EXPORTS[game_of[b]] == "json" else own)
    for b, hall in damath.items():  # Damath's record: the board's own PDN, to the character
        (game,) = journal_games(hall.folder)
        exports[b] = hall.play.session.export_pdn()
        assert hub.get(f"/feeds/games/{b}/{game}.pdn").decode() == exports[b], b
    expected = {
        "damath": [DAMATH_GAMES[kinds[b]][2:] for b in boards_of["damath"]],
        "dam": [("draw", "", "")] * 2,
        "chess": [("blue", "12", "10")] * 2,
    }
    for division, results in expected.items():
        tables = api(hub, "/api/event/round", {"round": 1, "division": division})["tables"]
        got = [(r["board_result"]["outcome"], r["board_result"]["blue"], r["board_result"]["red"])
               for r in tables]  # fmt: skip
        assert got == results, (division, got)
        assert api(hub, "/api/event/accept", {"round": 1, "division": division})
        tables = api(hub, "/api/event/round", {"round": 1, "division": division})["tables"]
        assert {r["status"] for r in tables} == {"accepted"}, tables
    t = Tournament.open(hub.folder)
    try:
        assert [s.player.name for s in t.standings("chess")][:2] == ["chess 1", "chess 2"]
        assert "score-diff" not in t.standings("dam")[0].tiebreaks
        ranked = {d: [s.player.name for s in t.standings(d)] for d in boards_of}
    finally:
        t.close()
    # the archive: each division's standings (as ranked by its game) and each table's record,
    # the very record the board exports (Damath's and Dam's PDN with the event's tags on top,
    # Mathematical Chess's JSON as it is)
    zipped = tmp_path / "hall.zip"
    hub_cli(hub.folder, "archive", "--out", str(zipped))
    with zipfile.ZipFile(zipped) as z:
        names = set(z.namelist())
        event = json.loads(z.read("Hall-Day/event.json"))
        assert {d["name"]: d["game"] for d in event["divisions"]} == {
            "damath": "damath", "dam": "dam", "chess": "mathchess"}  # fmt: skip
        for division, boards in boards_of.items():
            standings = json.loads(z.read(f"Hall-Day/{division}/standings.json"))
            assert [row["name"] for row in standings["standings"]] == ranked[division], standings
            assert f"Hall-Day/{division}/standings.html" in names
            for table, b in enumerate(boards, start=1):
                folder = damath[b].folder if b in damath else others[b].folder
                (game,) = journal_games(folder)
                ext = "json" if game_of.get(b) == "mathchess" else "pdn"
                kept = f"Hall-Day/{division}/round-1/table-{table}_{b}_{game}.{ext}"
                assert kept in names, (kept, sorted(names))
                text, own = z.read(kept).decode(), exports[b]
                if ext == "json":
                    assert text == own
                else:  # the event's tags on top of the board's own moves
                    assert text.split("\n\n", 1)[1] == own.split("\n\n", 1)[1], b
                    assert f'[Division "{division}"]' in text and '[Round "1"]' in text
    for b in damath.values():
        b.close()
    for board in others.values():
        board.close()
