"""A tournament table on a Dam, English draughts and Mathematical Chess board, as the hub's link
drives it (``BoardGame.linked``): the assignment's players on the game, its display, its record
and its export; the first move refused until the table is confirmed on the board and the desk
starts the round; the desk's pause refusing a move, and its resume; all of it journaled, so a
board reopened from its journal (a power cut) is as it was. The hub's reading of the same
journal (``record.games``) gives the board's own export, and refuses a move a paused board
would have refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.board import BoardHost
from controller.games import GAMES
from controller.games.dam.record import RULES as DAM
from controller.games.english.record import RULES as ENGLISH
from controller.games.italian.record import RULES as ITALIAN
from controller.record.games import Refused, recorded
from controller.record.journal_file import read as read_journal
from controller.rules.dadama import COLOURS as DADAMA_COLOURS

from .players import PLAYERS, Board, play_on

ASG = "asg-r1-t3"
INFO = {"blue": "Ana Cruz", "red": "Ben Reyes", "round": "1", "table": "3", "event": "Hall Day"}
EXPORT = {"dam": "pdn", "english": "pdn", "mathchess": "json", "dadama": "pdn", "italian": "pdn"}
COLOURS = {"dadama": DADAMA_COLOURS, **{r.name: r.colours for r in (DAM, ENGLISH, ITALIAN)}}


def open_board(name: str, folder: Path) -> Board:
    player = PLAYERS[name].short
    host = BoardHost(folder, sync=True, wall=lambda: 1_700_000_000.0)
    game = host.open(GAMES[name], player.settings, 0.0, position=player.position)
    board = Board(game)
    board.show()
    return board


def seat(board: Board, until: str) -> None:
    """What the link does with a table's assignment (``link.board.BoardLink.after_step``)."""
    desk = board.game.linked()
    desk.hold_clocks(board.t, until, ASG)
    desk.set_info(board.t, dict(INFO))
    desk.expect_assignment(ASG)


def first_turn(board: Board, name: str) -> None:
    steps = PLAYERS[name].short.next_turn(board)
    assert steps is not None
    for step in steps:
        board.do(step)


def played(board: Board, name: str) -> int:
    return PLAYERS[name].short.played(board)


def display(board: Board) -> str:
    return " ".join(board.game.outputs(board.t, 40, 12).page)


def put_back(board: Board) -> None:
    """The players put the refused move back: the board as the game stands."""
    board.show()


def hub_reading(folder: Path, name: str):
    game = recorded(name)
    for record in read_journal(folder / "journal.jsonl").records:
        game.apply(record)
    return game


@pytest.mark.parametrize("name", ["dam", "english", "mathchess", "dadama"])
def test_a_table_is_held_confirmed_started_paused_and_resumed_through_a_power_cut(
    name, tmp_path
) -> None:
    board = open_board(name, tmp_path)
    seat(board, "desk")
    shown = display(board)
    assert "Table 3: Ana Cruz vs Ben Reyes" in shown, shown
    assert "Confirm the table: press Confirm" in shown, shown
    if name != "mathchess":  # its turn ends with Confirm, which confirms the table first
        # a move before the table is confirmed: refused, said, nothing played
        first_turn(board, name)
        assert played(board, name) == 0
        assert "confirm the table on the board first" in json.dumps(board.game.page(board.t))
        put_back(board)
    board.do(("press", "confirm"))
    assert "Wait for the arbiter's start" in display(board), display(board)
    first_turn(board, name)
    assert played(board, name) == 0
    assert "wait for the arbiter's start" in json.dumps(board.game.page(board.t))
    put_back(board)
    desk = board.game.linked()
    assert desk.desk_start(board.t, "another-table") is False
    assert desk.desk_start(board.t, ASG) is True
    assert desk.state.started_asg == ASG
    # the desk pauses: a move refused, said; a power cut keeps the pause
    assert desk.desk_pause(board.t, True) is True
    assert desk.desk_pause(board.t, True) is False  # nothing to do: nothing written
    first_turn(board, name)
    assert played(board, name) == 0
    assert "Paused by the arbiter's desk" in display(board), display(board)
    board = open_board(name, tmp_path)  # the same journal, as after a SIGKILL
    desk = board.game.linked()
    assert desk.table.paused and desk.table.info == INFO and desk.state.started_asg == ASG
    desk.expect_assignment(ASG)  # the link puts the table back: confirmed already
    assert desk.waiting() is None
    assert desk.desk_pause(board.t, False) is True
    play_on(board, PLAYERS[name].short)
    assert board.game.finished() is not None
    export = board.game.files()[EXPORT[name]]
    if EXPORT[name] == "pdn":
        first, second = (c.capitalize() for c in COLOURS[name])
        assert f'[{first} "Ana Cruz"]' in export and f'[{second} "Ben Reyes"]' in export
        assert '[Event "Hall Day"]' in export and '[Round "1"]' in export
    else:
        assert json.loads(export)["players"] == INFO
    # the hub's reading of the journal: the same export
    assert hub_reading(tmp_path, name).export() == export
    acts = [r.get("act") for r in read_journal(tmp_path / "journal.jsonl").records]
    desk_acts = [a for a in acts if a and a != "clock"]
    assert desk_acts == ["hold", "players", "confirm", "go", "pause", "resume"]
    assert "clock" in acts  # every game's clocks on by default, journaled as they run


def test_the_table_starts_at_its_confirmation_when_the_event_says_so(tmp_path) -> None:
    board = open_board("dam", tmp_path)
    seat(board, "table")
    board.do(("press", "confirm"))
    assert board.game.linked().state.started_asg == ASG
    first_turn(board, "dam")
    assert played(board, "dam") == 1


def test_a_board_with_no_table_plays_at_once(tmp_path) -> None:
    board = open_board("mathchess", tmp_path)
    desk = board.game.linked()
    assert desk.hold_clocks(board.t, "round") is False  # no table of its own game: no hold
    first_turn(board, "mathchess")
    assert played(board, "mathchess") == 1


@pytest.mark.parametrize("name", ["dam", "mathchess", "dadama"])
def test_the_hub_refuses_what_a_held_or_paused_board_would_refuse(name, tmp_path) -> None:
    board = open_board(name, tmp_path)
    seat(board, "table")
    board.do(("press", "confirm"))
    board.game.linked().desk_pause(board.t, True)
    records = read_journal(tmp_path / "journal.jsonl").records
    game = recorded(name)
    for record in records:
        game.apply(record)
    # a forged move while paused: the hub refuses it with the reason
    if name == "dam":
        move = {
            "k": "move",
            "path": [list(s) for s in board.game.session.game.legal_moves()[0].path],
        }
    elif name == "mathchess":
        move = {"k": "mathchess-action", "done": True}
    else:
        move = {"k": "throw", "sq": [3, 2], "dice": [6]}
    with pytest.raises(Refused, match="paused from the arbiter's desk"):
        game.apply(move)
    with pytest.raises(Refused, match="a pause of a paused game"):
        game.apply({"k": "table", "act": "pause", "by": "desk"})
    # a start never held, players once a move is in
    fresh = recorded(name)
    fresh.apply(records[0])
    with pytest.raises(Refused, match="not held"):
        fresh.apply({"k": "table", "act": "go", "by": "desk"})


def test_a_table_record_that_cannot_be_is_refused_in_one_line() -> None:
    from controller.record.table import TableState

    table = TableState()
    players = {"k": "table", "act": "players", "info": {"blue": "Ana"}, "asg": ASG}
    with pytest.raises(ValueError, match="already under way cannot change"):
        table.apply(players, played=True)
    with pytest.raises(ValueError, match="unknown field 'blu'"):
        table.apply({**players, "info": {"blu": "Ana"}})
    with pytest.raises(ValueError, match="waits for nothing"):
        table.apply({"k": "table", "act": "hold", "until": "noon", "asg": ASG})
    with pytest.raises(ValueError, match="unknown table record 'dance'"):
        table.apply({"k": "table", "act": "dance"})
    with pytest.raises(ValueError, match="a pause of a game that is over"):
        table.apply({"k": "table", "act": "pause"}, over=True)
    assert table.info == {} and not table.paused  # nothing changed


@pytest.mark.parametrize("name", ["dam", "mathchess", "dadama"])
def test_players_confirm_dispute_with_the_boards_sensor_changes_and_sign(name, tmp_path) -> None:
    board = open_board(name, tmp_path)
    seat(board, "table")
    desk = board.game.linked()
    board.game.press(board.t, "blue")  # one player's confirmation: the other's still needed
    assert desk.waiting() == ASG and "BLUE confirmed; Red to confirm" in display(board)
    board.game.press(board.t, "red")
    assert desk.waiting() is None and desk.state.started_by == "table"
    # a move half made, then Red holds their button: a dispute with the sensor changes, paused
    cell = sorted(board.cells)[0]
    board.do(("lift", cell))
    board.game.press(board.t, "red", "hold")
    (dispute,) = desk.table.disputes
    assert dispute["side"] == 1 and dispute["ply"] == 0
    assert [round(board.t - 1.5, 1), "lift", list(cell)] in [
        [round(e[0], 1), e[1], e[2]] for e in dispute["sensed"]
    ], dispute["sensed"]
    assert desk.table.paused and "RED disputes: the arbiter is called" in display(board)
    board.do(("place", cell))
    assert desk.desk_pause(board.t, False)
    play_on(board, PLAYERS[name].short)
    assert board.game.finished() is not None
    board.game.press(board.t, "blue")
    assert "BLUE signed; Red to sign" in display(board)
    board.game.press(board.t, "red")
    assert desk.table.signed == {0, 1} and "Signed by both players" in display(board)
    # the hub's reading: the same signatures and dispute, the same export
    hub = hub_reading(tmp_path, name)
    assert hub.table.signed == {0, 1} and hub.table.disputes == desk.table.disputes
    assert hub.export() == board.game.files()[EXPORT[name]]
    # a signature before the end is refused by the hub's reading
    fresh = recorded(name)
    fresh.apply(read_journal(tmp_path / "journal.jsonl").records[0])
    with pytest.raises(Refused, match="not over"):
        fresh.apply({"k": "table", "act": "sign", "side": 0})


def test_the_boards_arbiter_starts_a_held_table_by_holding_confirm(tmp_path) -> None:
    board = open_board("dam", tmp_path)
    seat(board, "desk")
    board.game.press(board.t, "confirm")  # confirmed: waits for the desk's start
    assert "Wait for the arbiter's start" in board.game.page(board.t)["page"][0]
    board.game.press(board.t, "confirm", "hold")
    assert board.game.linked().state.started_by == "arbiter"
    first_turn(board, "dam")
    assert played(board, "dam") == 1
