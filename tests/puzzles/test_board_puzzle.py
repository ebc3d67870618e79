"""A puzzle solved on a board, driven through its sensors (mock sensor frames, as the session's
tests feed them): the guided setup lights each chip's square until the position stands, the
child's move is read by the tracker and judged, a wrong one is told (English and Filipino),
guided back with the LEDs and tried again, the attempt is kept in the class's store."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from controller.board import BoardHost
from controller.games.damath.kind import DAMATH
from controller.games.damath.puzzle import PuzzleGame
from controller.i18n import _, use
from controller.puzzles.model import Puzzle
from controller.puzzles.solve import WRONG_EQUAL, WRONG_LESS
from controller.puzzles.store import puzzle_db_path
from controller.rules.move import Move, Square
from controller.view.session_leds import session_lights

SETTLE = 0.25


class Board:
    """The chips on the board, as the sensors see them, and the time of the board's clock."""

    def __init__(self, game: PuzzleGame) -> None:
        self.game = game
        self.t = 0.0
        self.chips: set[Square] = set()

    def frame(self, chips: set[Square]) -> None:
        self.t += 0.05
        self.chips = set(chips)
        self.game.feed_frame(self.t, frozenset(self.chips))

    def settle(self) -> None:
        """Hands off: the board waits out the settle time (the tracker commits)."""
        self.t += SETTLE + 0.05
        self.game.tick(self.t)

    def lights(self, name: str) -> set[Square]:
        lit = session_lights(self.game.session.view_input(self.t))
        return {sq for sq, light in lit.items() if light.name == name}

    def move(self, move: Move) -> None:
        """A child's move by hand: the chip lifted, put down at the end, the taken chips off."""
        self.frame(self.chips - {move.start})
        for sq in move.path[1:-1]:  # a taking of several chips passes its squares
            self.frame(self.chips | {sq})
            self.frame(self.chips - {sq})
        self.frame(self.chips | {move.end})
        for sq in move.captures:
            self.frame(self.chips - {sq})
        self.settle()

    def follow_lights(self) -> int:
        """Do what the lights ask until the board is as expected (chips off where blue blinks,
        on where yellow is lit); how many changes it took."""
        for changes in range(40):
            extra = self.lights("extra")
            missing = self.lights("missing") | self.lights("place_next")
            if extra:
                self.frame(self.chips - {min(extra)})
            elif missing:
                self.frame(self.chips | {min(missing)})
            else:
                self.settle()
                return changes
        raise AssertionError("the lights never showed the board as expected")


def open_board(folder: Path, puzzle_id: str, child: str = "Ana Cruz") -> PuzzleGame:
    game = BoardHost(folder).open(DAMATH, {"puzzle": puzzle_id, "child": child}, 0.0)
    assert isinstance(game, PuzzleGame)
    game.feed_frame(0.0, frozenset())  # the board as it stands at start (the scan loop's)
    return game


def set_up(board: Board) -> list[Square]:
    """The guided setup, chip by chip: each time one square is lit yellow, the chip goes there."""
    placed: list[Square] = []
    while board.game.session.phase == "setup":
        lit = board.lights("place_next")
        assert len(lit) == 1, "the setup lights one square at a time"
        (square,) = lit
        board.frame(board.chips | {square})
        placed.append(square)
        assert len(placed) <= 12 * 2
        if board.chips == set(board.game.session.expected_chips()):
            board.settle()
    return placed


def attempts(folder: Path) -> list[tuple[str, str, int, int]]:
    with sqlite3.connect(puzzle_db_path(folder)) as conn:
        return conn.execute(
            "SELECT child, puzzle, correct, first_try FROM attempts ORDER BY id"
        ).fetchall()


def wrong_move(p: Puzzle) -> Move:
    """A legal move that is not the solution's, with the engine's refutation (so the reason
    names what it costs)."""
    game = p.game()
    best = p.solution[0]
    return next(m for m in game.legal_moves() if tuple(m.path) != best)


def one_move(engine_puzzles: list[Puzzle]) -> Puzzle:
    return next(
        p for p in engine_puzzles if len(p.solution) == 1 and len(p.game().legal_moves()) > 1
    )


@pytest.mark.slow
def test_setup_is_guided_chip_by_chip(class_dir: Path, engine_puzzles: list[Puzzle]) -> None:
    p = one_move(engine_puzzles)
    board = Board(open_board(class_dir, p.id))
    placed = set_up(board)
    assert set(placed) == set(p.game().chips())
    assert board.game.session.phase == "play"
    assert set(board.game.session.game.chips()) == set(p.game().chips())
    message = board.game.session.message
    assert "find the best move" in message


def test_wrong_then_right(class_dir: Path, engine_puzzles: list[Puzzle]) -> None:
    p = one_move(engine_puzzles)
    board = Board(open_board(class_dir, p.id))
    set_up(board)
    start = set(board.chips)
    wrong = wrong_move(p)
    board.move(wrong)
    session = board.game.session
    said = session.message
    assert session.game.ply == 0, "the wrong move is taken back"
    assert session.phase == "restore"
    assert WRONG_LESS.split("{")[0] in said or WRONG_EQUAL in said
    assert "Second try" in said
    assert board.lights("missing") >= {wrong.start}, "the chip is guided back to its square"
    board.follow_lights()
    assert board.chips == start
    assert session.phase == "play"
    assert "Second try" in session.message, "the reason stays while the child tries again"
    rows = attempts(class_dir)
    assert rows == [("Ana Cruz", p.id, 0, 1)]
    right = p.game().find_move(list(p.solution[0]))
    board.move(right)
    assert board.game.solved
    assert session.message.startswith("Right! That is the best move.")
    assert "Solved at the second try: your puzzle rating stays" in session.message
    rows = attempts(class_dir)
    assert rows == [("Ana Cruz", p.id, 0, 1), ("Ana Cruz", p.id, 1, 0)]
    with sqlite3.connect(puzzle_db_path(class_dir)) as conn:
        (rating,) = conn.execute("SELECT rating FROM solvers WHERE child = 'Ana Cruz'").fetchone()
        (p_rating,) = conn.execute("SELECT rating FROM puzzles WHERE id = ?", (p.id,)).fetchone()
        kept = conn.execute("SELECT child_rating FROM attempts ORDER BY id").fetchall()
    assert rating < 1500.0, "the first (wrong) try moved the child's rating down, once"
    assert p_rating > p.rating, "and the puzzle's up"
    assert kept[0] == kept[1], "the second try moved nothing"


def test_right_first_try_moves_the_rating_up(class_dir: Path, engine_puzzles: list[Puzzle]) -> None:
    p = one_move(engine_puzzles)
    board = Board(open_board(class_dir, p.id, "Ben Reyes"))
    set_up(board)
    board.move(p.game().find_move(list(p.solution[0])))
    said = board.game.session.message
    assert "Your puzzle rating: 1500 →" in said
    assert "Press New game for the next puzzle." in said
    assert attempts(class_dir) == [("Ben Reyes", p.id, 1, 1)]


def test_second_miss_shows_the_best_move(class_dir: Path, engine_puzzles: list[Puzzle]) -> None:
    p = one_move(engine_puzzles)
    board = Board(open_board(class_dir, p.id))
    set_up(board)
    wrong = wrong_move(p)
    for _try in range(2):
        board.move(wrong)
        board.follow_lights()
    session = board.game.session
    assert "The best move was" in session.message
    best = p.game().find_move(list(p.solution[0]))
    assert board.lights("shown_from") == {best.start}, "the best move's chip pulses green"
    assert attempts(class_dir) == [("Ana Cruz", p.id, 0, 1), ("Ana Cruz", p.id, 0, 0)]
    board.move(best)
    assert board.game.solved
    assert len(attempts(class_dir)) == 2, "a move the board showed is not kept"


def test_forced_reply_puzzle(class_dir: Path, engine_puzzles: list[Puzzle]) -> None:
    p = next(p for p in engine_puzzles if len(p.solution) == 3)
    board = Board(open_board(class_dir, p.id))
    set_up(board)
    game = p.game()
    first = game.push(game.find_move(list(p.solution[0])))
    board.move(first)
    session = board.game.session
    assert "must answer" in session.message
    reply = game.push(game.find_move(list(p.solution[1])))
    assert board.lights("shown_from") == {reply.start}, "the reply's chip pulses green"
    board.move(reply)
    assert session.game.ply == 2
    assert "Now find your next move." in session.message
    assert attempts(class_dir) == [], "nothing is kept before the puzzle is answered"
    board.move(game.find_move(list(p.solution[2])))
    assert board.game.solved
    assert attempts(class_dir) == [("Ana Cruz", p.id, 1, 1)]


def test_the_reason_in_filipino(class_dir: Path, engine_puzzles: list[Puzzle]) -> None:
    p = one_move(engine_puzzles)
    with use("fil"):
        board = Board(open_board(class_dir, p.id))
        set_up(board)
        board.move(wrong_move(p))
        said = board.game.session.message
        reasons = (_(WRONG_LESS).split("{")[0], _(WRONG_EQUAL))
        assert "Ikalawang subok: ikaw ulit ang gagalaw." in said
        assert "Ibalik ang mga chip kung saan ipinapakita ng mga ilaw." in said
        assert any(reason in said for reason in reasons)
    assert reasons[1] != WRONG_EQUAL and reasons[0] != WRONG_LESS.split("{")[0]
    assert "Second try" not in said
    assert "points less" not in said and "lets the other side" not in said


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        ({"puzzle": "nosuchpuzzle", "child": "Ana Cruz"}, "no puzzle 'nosuchpuzzle' in"),
        ({"puzzle": "next", "child": "Zed"}, "'Zed' is not on the class list"),
        ({"puzzle": "next"}, "child: the name of the child"),
        ({"puzzle": "", "child": "Ana Cruz"}, "puzzle: a puzzle's id, or next"),
    ],
)
def test_bad_settings_are_one_line(
    class_dir: Path, settings: dict[str, str], expected: str
) -> None:
    with pytest.raises(ValueError) as caught:
        BoardHost(class_dir).open(DAMATH, settings, 0.0)
    assert expected in str(caught.value)
    assert "\n" not in str(caught.value)


def test_missing_store_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(ValueError) as caught:
        BoardHost(tmp_path).open(DAMATH, {"puzzle": "next", "child": "Ana"}, 0.0)
    text = str(caught.value)
    assert "no puzzle store at" in text and "puzzles.sqlite" in text and "\n" not in text
    with pytest.raises(ValueError) as caught:
        BoardHost(None).open(DAMATH, {"puzzle": "next", "child": "Ana"}, 0.0)
    assert "no state folder" in str(caught.value)


def test_next_puzzle_on_new_game(class_dir: Path, engine_puzzles: list[Puzzle]) -> None:
    """New game: the child's next puzzle. The chips left on the board may carry other numbers
    (the sensors cannot tell): every one blinks blue until the board is clear, then the setup
    names each chip from an empty board."""
    p = one_move(engine_puzzles)
    board = Board(open_board(class_dir, p.id))
    set_up(board)
    board.move(p.game().find_move(list(p.solution[0])))
    left = set(board.chips)
    board.game.press(board.t, "new_game")
    game = board.game
    assert game.puzzle.id != p.id
    outputs = game.outputs(board.t, 21, 4)
    blue = {sq for sq, rgb in outputs.leds.items() if rgb != (0, 0, 0)}
    assert blue == left, "every chip left on the board is lit, nothing else"
    assert "take every chip off the board" in " ".join(outputs.page)
    assert game.expected() == frozenset()
    for sq in sorted(left)[:-1]:
        board.frame(board.chips - {sq})
        assert game.clearing, "the setup waits for an empty board"
    board.frame(set())
    assert game.clearing is None and game.session.phase == "setup"
    placed = set_up(board)
    assert set(placed) == set(game.puzzle.game().chips())
    assert game.session.phase == "play"


SIM = str(Path(__file__).resolve().parents[2] / "hardware" / "sim.toml")


def test_run_opens_a_puzzle(
    class_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``damath-board run --set puzzle=next --set child=…``: the board's own command opens it."""
    from controller.cli import main

    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    ready = class_dir / "ready"
    args = ["run", "--profile", SIM, "--state-dir", str(class_dir), "--exit-after", "0.2"]
    code = main(
        [*args, "--set", "puzzle=next", "--set", "child=Ana Cruz", "--ready-file", str(ready)]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "a puzzle for Ana Cruz" in ready.read_text() + captured.out + captured.err
    assert not (class_dir / "journal.jsonl").exists(), "a puzzle is not journaled"
    code = main([*args, "--set", "puzzle=nosuch", "--set", "child=Ana Cruz"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("damath-board run: error:") and "no puzzle 'nosuch' in" in err, err
    assert err.count("\n") == 1


def test_the_simulated_board_solves_a_puzzle(class_dir: Path, engine_puzzles: list[Puzzle]) -> None:
    """The simulator's board (its mock sensors under the page's table): a puzzle opened by the
    page's message, a wrong move dragged, the reason and the chip guided back, the right one."""
    from controller.sim.engine import SimBoard
    from controller.sim.errors import SimError

    now = [1000.0]
    board = SimBoard("b1", lambda: now[0], state_dir=class_dir)

    def settle() -> None:
        now[0] += SETTLE + 0.05
        board.tick()

    with pytest.raises(SimError, match="no puzzle 'nosuch' in"):
        board.act({"type": "new_game", "puzzle": "nosuch", "child": "Ana Cruz"})
    p = one_move(engine_puzzles)
    done = board.act({"type": "new_game", "puzzle": p.id, "child": "Ana Cruz"})
    assert done == "A puzzle for Ana Cruz: set the board as the lights show."
    game = board.game
    assert isinstance(game, PuzzleGame)
    settle()
    assert game.session.phase == "play"
    assert set(board.table.occupied()) == set(p.game().chips())

    def drag(move: Move) -> None:
        board.act({"type": "drag", "from": list(move.start), "to": list(move.end)})
        for sq in move.captures:
            board.act({"type": "remove", "square": list(sq)})
        settle()

    wrong = wrong_move(p)
    drag(wrong)
    assert game.session.phase == "restore" and "Second try" in game.session.message
    board.act({"type": "drag", "from": list(wrong.end), "to": list(wrong.start)})
    if wrong.captures:
        board.act({"type": "arrange"})
    settle()
    assert game.session.phase == "play"
    drag(p.game().find_move(list(p.solution[0])))
    assert game.solved
    assert attempts(class_dir) == [("Ana Cruz", p.id, 0, 1), ("Ana Cruz", p.id, 1, 0)]


def test_sim_set_puzzle_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """A puzzle is one child's: ``sim --set puzzle=…`` (every new board's game) is refused."""
    from controller.cli import main

    args = ["sim", "--no-save", "--port", "0", "--set", "puzzle=next", "--set", "child=Ana"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "a simulated board opens a puzzle from its page" in err and err.count("\n") == 1
