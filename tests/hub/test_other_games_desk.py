"""The desk drives a Dam, a Mathematical Chess and a Dadama board as it drives Damath's, over
the real Mosquitto and hub: each board, on its own scan loop with its link, takes its table's
players (its display, its journal, its export), holds the first move until the table is
confirmed on the board and the arbiter starts the round from the desk, is paused and resumed
from the desk (a move while paused refused, said on its display), and its game reaches the hub
whose record of it is the board's own export, the table's records in it."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from controller.board import BoardHost, ScanLoop
from controller.board.sim import sim_devices
from controller.cli import main
from controller.games import GAMES
from controller.link.board import BoardLink
from controller.link.config import load
from controller.link.publisher import Link
from controller.record.journal_file import read as read_journal
from controller.tournament.tournament import Tournament
from tests.games.players import PLAYERS, Step, play_on
from tests.games.players import Board as Hands

from .conftest import journal_games, stored_games
from .eventkit import api, wait_for

EXPORTS = {"dam": "pdn", "mathchess": "json", "dadama": "pdn"}
SIZE = {"dam": (12, "dark-squares"), "mathchess": (9, "points"), "dadama": (8, "dark-squares")}


def hub_cli(folder: Path, *argv: str) -> None:
    assert main(["hub", *argv, "--dir", str(folder)]) == 0


@dataclass
class LoopBoard(Hands):
    """A board on its own scan loop and link: the players' hands move pieces on its mock
    sensors and press its mock buttons; the board's time passes through its loop."""

    loop: Any = None
    controls: Any = None
    clock: list[float] = field(default_factory=lambda: [0.0])
    link: Any = None
    folder: Path = Path()

    def settle(self, seconds: float = 1.5) -> None:
        end = self.t + seconds
        while self.t < end:
            self.t += 0.1
            self.clock[0] = self.t
            self.loop.step(self.t)

    def show(self) -> None:
        self.cells = set(self.game.expected())
        self.controls.set_occupied(self.cells)
        self.settle()

    def do(self, step: Step) -> None:
        what, arg = step
        if what == "lift":
            self.cells.discard(arg)
        elif what == "place":
            self.cells.add(arg)
        if what in ("lift", "place"):
            self.controls.set_occupied(self.cells)
        else:
            try:
                self.controls.press(arg)
            except ValueError:  # a page's button (Dadama's faces): the page presses it
                self.game.press(self.t, arg)
        self.settle()

    def display(self) -> str:
        self.loop.render(self.t)
        return " ".join(self.loop.devices.scoresheet.last)

    def until(self, what: str, check: Any) -> Any:
        """Wait for ``check`` while the board runs (its link reads the hub at its pace)."""

        def stepped() -> Any:
            self.settle(0.5)
            return check()

        return wait_for(what, stepped, 60)


def start_board(name: str, conn: Path, folder: Path) -> LoopBoard:
    """The board's runtime: its game (resumed from the journal the folder holds, if any) on its
    scan loop, its link started, the pieces set as the game stands."""
    folder.mkdir(exist_ok=True)
    clock = [0.0]
    link = BoardLink(Link(load(conn), folder, poll_seconds=0.1, resend_seconds=2.0))
    devices, controls = sim_devices(lambda: clock[0], *SIZE[name])
    player = PLAYERS[name].short
    host = BoardHost(folder, sync=False, wall=lambda: 1_700_000_000.0)
    game = host.open(GAMES[name], player.settings, 0.0, position=player.position)
    board = LoopBoard(game, loop=ScanLoop(game, devices, link=link), controls=controls,
                      clock=clock, link=link, folder=folder)  # fmt: skip
    link.start()
    board.show()
    return board


def turn(board: LoopBoard, name: str) -> int:
    """One turn tried by the players; the turns the game has after it."""
    player = PLAYERS[name].short
    steps = player.next_turn(board)
    assert steps is not None
    for step in steps:
        board.do(step)
    return int(player.played(board))


def desk_command(arbiter: Any, pairing: int, cmd: str) -> str:
    form = {"csrf": arbiter.csrf(), "pairing": str(pairing), "cmd": cmd, "back": "/desk"}
    return str(arbiter.go("/desk/pause", form)[2])


def table_row(hub: Any, name: str) -> dict[str, Any]:
    (row,) = api(hub, "/api/event/round", {"round": 1, "division": name})["tables"]
    return dict(row)


def confirmed_row(hub: Any, name: str) -> dict[str, Any] | None:
    row = table_row(hub, name)
    return row if row["status"] == "confirmed" else None


def signed_row(hub: Any, name: str) -> dict[str, Any] | None:
    row = table_row(hub, name)
    signing = row.get("signing") or {}
    return row if signing.get("signed") == ["blue", "red"] else None


@pytest.mark.slow
def test_the_desk_drives_a_dam_a_mathematical_chess_and_a_dadama_board(hub, tmp_path):
    from controller.hub.accounts import Accounts

    from .conftest import DESK_PASSWORD
    from .test_desk import Browser

    accounts = Accounts(hub.folder)
    accounts.add("lina", "arbiter", DESK_PASSWORD)
    accounts.close()
    hub.start()
    hub_cli(hub.folder, "event", "create", "--name", "Hall Day", "--system", "round-robin",
            "--division", "dam", "--game", "dam", "--initial-colour", "blue")  # fmt: skip
    for name in ("mathchess", "dadama"):
        hub_cli(hub.folder, "division", "set", name, "--system", "round-robin", "--game", name)
    boards: dict[str, LoopBoard] = {}
    for name in EXPORTS:
        for player in (f"{name} Ana", f"{name} Ben"):
            hub_cli(hub.folder, "player", "add", player, "--division", name)
        hub_cli(hub.folder, "pair", "--round", "1", "--division", name)
        conn = hub.add_board(f"b-{name}")
        hub_cli(hub.folder, "seat", "--division", name, "--table", "1", "--board", f"b-{name}")
        boards[name] = start_board(name, conn, tmp_path / name)
    for name in EXPORTS:
        api(hub, "/api/event/publish", {"round": 1, "division": name})
    arbiter = Browser(hub.url)
    assert arbiter.login("lina")[1] == "/desk"
    t = Tournament.open(hub.folder)
    try:
        pairings = {name: t.pairings(name, 1)[0].id for name in EXPORTS}
    finally:
        t.close()

    for name, board in boards.items():
        desk = board.game.linked()
        # the table's players on the game: its display, and the first move waits
        line = f"Table 1: {name} Ana vs {name} Ben"
        board.until(f"{name}: its table's players", lambda b=board, s=line: s in b.display())
        assert desk.table.info["blue"] == f"{name} Ana" and desk.table.info["red"] == f"{name} Ben"
        assert "Confirm the table: press Confirm" in board.display(), board.display()
        if name != "mathchess":  # a move before the confirmation (its turn ends with Confirm)
            assert turn(board, name) == 0
            assert "confirm the table on the board first" in board.display(), board.display()
            board.show()
        if name == "dadama":  # both players' own buttons confirm it too
            board.do(("press", "blue"))
            assert "BLUE confirmed; Red to confirm" in board.display(), board.display()
            board.do(("press", "red"))
        else:
            board.do(("press", "confirm"))
        assert "Wait for the arbiter's start" in board.display(), board.display()
        assert turn(board, name) == 0  # confirmed, not started: refused
        assert "wait for the arbiter's start" in board.display(), board.display()
        board.show()

    # the desk sees each table confirmed at its board, from the board's records
    for name, board in boards.items():
        row = board.until(f"{name}: confirmed at the desk", lambda n=name: confirmed_row(hub, n))
        assert row["signing"]["confirmed_by"] == (
            ["blue", "red"] if name == "dadama" else ["arbiter"]
        )

    # the round's start from the desk reaches every board
    for name in EXPORTS:
        assert api(hub, "/api/event/start", {"round": 1, "division": name})["started"]
    for name, board in boards.items():
        board.until(f"{name}: the desk's start", lambda b=board: b.game.linked().table.started_by)
        assert board.game.linked().table.started_by == "desk"

    # the desk pauses each board: a move refused, said; then resumes it
    for name, board in boards.items():
        assert "pause+sent" in desk_command(arbiter, pairings[name], "pause")
        board.until(f"{name}: paused", lambda b=board: b.game.linked().table.paused)
        assert turn(board, name) == 0
        assert "paused from the arbiter's desk" in board.display(), board.display()
        board.show()
        assert "resume+sent" in desk_command(arbiter, pairings[name], "resume")
        board.until(f"{name}: resumed", lambda b=board: not b.game.linked().table.paused)
        if name == "dam":  # a piece lifted, Red holds their button: a dispute, the game paused
            cell = sorted(board.cells)[0]
            board.do(("lift", cell))
            board.controls.press("red", "hold")
            board.settle()
            assert board.game.linked().table.paused
            assert "RED disputes: the arbiter is called" in board.display(), board.display()
            board.do(("place", cell))
            assert "resume+sent" in desk_command(arbiter, pairings[name], "resume")
            board.until("dam: resumed", lambda b=board: not b.game.linked().table.paused)
        play_on(board, PLAYERS[name].short)
        assert board.game.finished() is not None
        board.do(("press", "blue"))  # both players sign the finished game on the board
        board.do(("press", "red"))
        assert "Signed by both players" in board.display(), board.display()

    # each game at the hub: every record once, and the hub's record the board's own export
    for name, board in boards.items():
        board.link.wait_acknowledged(60)
        export = board.game.files()[EXPORTS[name]]
        (game,) = journal_games(board.folder)
        journal = journal_games(board.folder)[game]
        stored = stored_games(hub.folder, f"b-{name}")[game]
        assert [r for _seq, r in stored] == journal
        acts = [r["act"] for r in journal if r.get("k") == "table" and r["act"] != "clock"]
        confirms = ["confirm"] * (2 if name == "dadama" else 1)
        disputed = ["dispute", "pause", "resume"] if name == "dam" else []
        assert acts == ["hold", "players", *confirms, "go", "pause", "resume", *disputed,
                        "sign", "sign"], acts  # fmt: skip
        feed = hub.json(f"/feeds/games/b-{name}/{game}.json")
        assert feed["record"] == (json.loads(export) if EXPORTS[name] == "json" else export)
        if name != "mathchess":  # the first mover (Blue) by its colour: Dam's Black, Dadama's White
            first, second = ("Black", "White") if name == "dam" else ("White", "Black")
            assert f'[{first} "{name} Ana"]' in export and f'[{second} "{name} Ben"]' in export
        else:
            assert json.loads(export)["players"]["blue"] == "mathchess Ana"
        row = board.until(f"{name}: signed at the desk", lambda n=name: signed_row(hub, n))
        assert row["signing"]["signed"] == ["blue", "red"]
        # signed without a dispute: the board's result is the table's, without the arbiter
        assert row["status"] == ("disputed" if name == "dam" else "accepted"), row
        board.link.stop()
    # the dispute at the desk: who, and the board's sensor changes before it
    status, page, _ = arbiter.go(f"/desk/table?pairing={pairings['dam']}")
    assert status == 200 and "Red disputes" in page and "lifted" in page, page


def confirmed_board(conn: str, folder: str, ready: multiprocessing.synchronize.Event) -> None:
    """A child: the Mathematical Chess board takes its table and is confirmed, then runs on
    until it is SIGKILLed (its journal left as the power cut leaves it)."""
    board = start_board("mathchess", Path(conn), Path(folder))
    board.until("its table", lambda: "Confirm the table: press Confirm" in board.display())
    board.do(("press", "confirm"))
    ready.set()
    while True:
        board.settle(0.5)


@pytest.mark.slow
def test_a_confirmed_table_waits_for_the_desks_start_through_a_sigkill(hub, tmp_path):
    hub.start()
    hub_cli(hub.folder, "event", "create", "--name", "Hall Day", "--system", "round-robin",
            "--division", "chess", "--game", "mathchess", "--initial-colour", "blue")  # fmt: skip
    for player in ("Ana", "Ben"):
        hub_cli(hub.folder, "player", "add", player, "--division", "chess")
    hub_cli(hub.folder, "pair", "--round", "1", "--division", "chess")
    conn = hub.add_board("c1")
    hub_cli(hub.folder, "seat", "--division", "chess", "--table", "1", "--board", "c1")
    api(hub, "/api/event/publish", {"round": 1, "division": "chess"})
    folder = tmp_path / "c1"
    ctx = multiprocessing.get_context("fork")
    ready = ctx.Event()
    child = ctx.Process(target=confirmed_board, args=(str(conn), str(folder), ready))
    child.start()
    assert ready.wait(60), "the board did not take its table"
    os.kill(child.pid, signal.SIGKILL)  # the power goes before the round's start
    child.join()
    acts = [r.get("act") for r in read_journal(folder / "journal.jsonl").records]
    before = [a for a in acts if a and a != "clock"]  # the clocks journaled as they are held
    # the desk's hold may come before the players or after the confirmation: the hub's
    # assignment of the seated table can reach the board before the published round's
    assert sorted(before) == ["confirm", "hold", "players"], acts
    assert before.index("players") < before.index("confirm"), acts

    board = start_board("mathchess", conn, folder)  # the power comes back
    desk = board.game.linked()
    assert desk.table.held == "desk" and desk.table.info["blue"] == "Ana"
    board.until("the table back on the board", lambda: desk.awaiting is not None)
    assert desk.waiting() is None  # confirmed before the cut: not asked again
    assert "Wait for the arbiter's start" in board.display(), board.display()
    assert turn(board, "mathchess") == 0  # still held: refused
    board.show()
    assert api(hub, "/api/event/start", {"round": 1, "division": "chess"})["started"]
    board.until("the desk's start", lambda: desk.table.started_by == "desk")
    play_on(board, PLAYERS["mathchess"].short)
    board.link.wait_acknowledged(60)
    (game,) = journal_games(folder)
    journal = journal_games(folder)[game]
    table_acts = [r.get("act") for r in journal if r.get("k") == "table" and r["act"] != "clock"]
    assert table_acts == [*before, "go"]
    assert [r for _seq, r in stored_games(hub.folder, "c1")[game]] == journal
    feed = hub.json(f"/feeds/games/c1/{game}.json")
    assert feed["record"] == json.loads(board.game.files()["json"])
    board.link.stop()
