"""The coach on a simulated board without a browser: the computer's move shown and checked,
hints, the board's own hint button, the review, and searches that never hold up the loop.

Most tests run the worker's tasks inline (a Future already done), so the engine's answer is
there at the next pass of the loop; one test runs the real worker processes."""

from __future__ import annotations

import time
from concurrent.futures import Future
from typing import Any

import pytest

from controller.coach import worker
from controller.coach.board import BoardCoach
from controller.record.play import PlayError, PlaySettings
from controller.rules.game import Game
from controller.session import coach_texts
from controller.sim.engine import SimBoard, SimError

from .conftest import ManualClock

SETTLE = 0.3
PRACTICE = {"practice": True, "clocks": "off"}


def inline(task: Any, request: dict[str, Any]) -> Future:
    done: Future = Future()
    done.set_result(task(request))
    return done


def never(task: Any, request: dict[str, Any]) -> Future:
    return Future()  # a search that is still running


def board_with(clock: ManualClock, submit=inline, **play: Any) -> SimBoard:
    board = SimBoard("c", clock, defaults={**PRACTICE, **play})
    board.coach = BoardCoach(submit=submit)
    clock.advance(SETTLE)
    board.tick()
    assert board.snapshot()["phase"] == "play"
    return board


def make(board: SimBoard, clock: ManualClock, path, captured=()) -> None:
    for sq in (path[0], path[-1], *captured):
        board.act({"type": "click", "square": list(sq)})
    clock.advance(SETTLE)
    board.tick()
    board.tick()


def lit(board: SimBoard, name: str) -> list[tuple[int, int]]:
    return sorted(
        (c["square"][0], c["square"][1])
        for c in board.snapshot()["squares"]
        if c["led"] and c["led"]["name"] == name
    )


def test_the_computers_move_is_lit_said_and_must_be_made_as_shown(clock: ManualClock) -> None:
    board = board_with(clock, computer="red", level=3)
    make(board, clock, [(1, 2), (2, 3)])
    snap = board.snapshot()
    shown = snap["shown"]
    assert snap["ply"] == 1 and shown["kind"] == "computer" and shown["level"] == 3
    game = Game.new("integer", "official")
    game.push(game.find_move([(1, 2), (2, 3)]))
    computer = game.find_move([tuple(sq) for sq in shown["path"]])
    assert lit(board, "shown_from") == [computer.start]
    assert lit(board, "shown_path") == sorted(computer.path[1:])
    chip = game.chips()[computer.start].value.label.replace("-", "−")
    start, end = computer.start, computer.end
    assert snap["message"].startswith(  # the chip by its number, the squares as named on the board
        f"The computer (level 3) moves its {chip} from ({start[0]}, {start[1]}) to "
        f"({end[0]}, {end[1]}): make its move as the green lights show."
    )
    assert board.display_lines()[1].startswith("PC:")  # drawn as soon as the move came

    other = next(m for m in game.legal_moves() if m.path != computer.path)
    make(board, clock, other.path, other.captures)
    snap = board.snapshot()
    assert snap["phase"] == "restore" and snap["ply"] == 1
    assert snap["message"].startswith("That is not the computer's move")
    assert len(board.session.game.move_stack) == 1  # nothing journaled, nothing scored

    board.act({"type": "arrange"})
    clock.advance(SETTLE)
    board.tick()
    assert board.snapshot()["phase"] == "play" and board.snapshot()["shown"] == shown
    make(board, clock, computer.path, computer.captures)
    snap = board.snapshot()
    assert snap["ply"] == 2 and snap["shown"] is None
    assert snap["moves"][-1] == str(computer)


def test_the_computers_chips_wait_for_its_move(clock: ManualClock) -> None:
    board = board_with(clock, submit=never, computer="red")
    make(board, clock, [(1, 2), (2, 3)])
    assert board.snapshot()["coach"]["thinking"]
    make(board, clock, [(2, 5), (3, 4)])  # Red's chip moved by hand before the computer chose
    snap = board.snapshot()
    assert snap["phase"] == "restore" and snap["ply"] == 1
    assert snap["message"] == coach_texts.WAIT_FOR_COMPUTER.page


def test_a_hint_shows_the_chip_then_the_move(clock: ManualClock) -> None:
    board = board_with(clock, hints=True)
    assert board.act({"type": "hint"}) == coach_texts.HINT_THINKING.page
    board.tick()
    first = board.snapshot()["shown"]
    assert first["kind"] == "hint_chip" and first["score"] is None
    assert lit(board, "shown_from") == [tuple(first["from"])] and lit(board, "shown_path") == []
    said = board.act({"type": "hint"})
    whole = board.snapshot()["shown"]
    assert whole["kind"] == "hint" and whole["from"] == first["from"] and said == whole["text"]
    assert lit(board, "shown_path") == sorted(tuple(sq) for sq in whole["path"][1:])
    make(board, clock, whole["path"])  # a hint is only advice: the move is played as usual
    assert board.snapshot()["ply"] == 1 and board.snapshot()["shown"] is None


def test_the_boards_confirm_button_asks_for_a_hint(clock: ManualClock) -> None:
    board = board_with(clock, hints=True)
    board.act({"type": "button", "name": "confirm"})
    board.tick()
    assert board.snapshot()["shown"]["kind"] == "hint_chip"
    board.act({"type": "button", "name": "confirm"})
    board.tick()
    assert board.snapshot()["shown"]["kind"] == "hint"


def test_hints_and_the_computer_are_off_in_a_tournament_game(clock: ManualClock) -> None:
    board = SimBoard("t", clock)
    board.coach = BoardCoach(submit=inline)
    clock.advance(SETTLE)
    board.tick()
    with pytest.raises(SimError, match="Hints are for practice games"):
        board.act({"type": "hint"})
    board.act({"type": "button", "name": "confirm"})
    board.tick()
    assert board.snapshot()["shown"] is None
    with pytest.raises(SimError, match="computer=red: practice help"):
        board.act({"type": "play", "play": {"computer": "red"}})
    with pytest.raises(SimError, match="hints=true: practice help"):
        board.act({"type": "play", "play": {"hints": True}})


def test_the_level_is_a_whole_number_from_one_to_eight() -> None:
    assert PlaySettings().with_changes({"level": "7"}).level == 7
    for wrong in (0, 9, "high", True, 2.5):
        with pytest.raises(PlayError, match="level: expected a whole number 1-8"):
            PlaySettings().with_changes({"level": wrong})


def test_the_review_on_the_page(clock: ManualClock) -> None:
    board = board_with(clock, computer="red", level=1)
    for _ in range(2):
        mine = board.session.game.legal_moves()[0]
        make(board, clock, mine.path, mine.captures)
        shown = board.snapshot()["shown"]
        move = board.session.game.find_move([tuple(sq) for sq in shown["path"]])
        make(board, clock, move.path, move.captures)
    assert board.snapshot()["ply"] == 4
    assert board.act({"type": "review"}) == coach_texts.REVIEW_STARTED
    board.tick()
    review = board.snapshot()["coach"]["review"]
    assert review["ply"] == 4 and len(review["moves"]) == 4 and review["depth"] == 6
    assert [m["move"] for m in review["moves"]] == [
        [list(sq) for sq in m.path] for m in board.session.game.move_stack
    ]
    assert set(review["sides"][0]["accuracy"]) == {"+", "−", "×", "÷"}
    assert len(review["mistakes"]) <= 3
    for index in review["mistakes"]:  # each mistake's position, ready to open as a lesson
        lesson = review["lessons"][str(index)]
        assert lesson["to_move"] == review["moves"][index]["side"]
        before = Game.new("integer", "official")
        for m in board.session.game.move_stack[:index]:
            before.push(m)
        assert len(lesson["pieces"]) == len(before.chips())


def test_searches_run_in_worker_processes_while_the_loop_goes_on(clock: ManualClock) -> None:
    board = board_with(clock, submit=worker.submit, computer="red", level=8)
    make(board, clock, [(1, 2), (2, 3)])
    job = board.coach._move_job
    assert job is not None and not job.future.done()  # level 8 thinks for seconds: not here
    assert board.snapshot()["coach"]["thinking"]
    give_up = time.monotonic() + 120
    while board.snapshot()["shown"] is None and time.monotonic() < give_up:
        time.sleep(0.05)
        board.tick()  # the loop's passes go on meanwhile
    shown = board.snapshot()["shown"]
    assert shown is not None and shown["kind"] == "computer" and shown["level"] == 8
    assert board.session.game.find_move([tuple(sq) for sq in shown["path"]])


def test_the_run_commands_loop_shows_the_computers_move(clock: ManualClock) -> None:
    """``damath-board run``: the Pi's scan loop (``app.Board``) polls its coach at every pass."""
    from controller.board import ScanLoop

    board = board_with(clock, submit=never, computer="red", level=2)  # the page's coach idles
    board.coach = BoardCoach(submit=inline)
    board.loop = ScanLoop(board.game, board.devices)
    make(board, clock, [(1, 2), (2, 3)])
    shown = board.snapshot()["shown"]
    assert shown is not None and shown["kind"] == "computer" and shown["level"] == 2
    assert board.devices.leds is not None
    assert lit(board, "shown_from") == [tuple(shown["from"])]


def test_the_computers_clock_runs_while_it_thinks(clock: ManualClock) -> None:
    board = SimBoard("k", clock, defaults={"practice": True, "computer": "red"})
    board.coach = BoardCoach(submit=never)
    clock.advance(SETTLE)
    board.tick()
    make(board, clock, [(1, 2), (2, 3)])
    before = board.session.clocks.reading(clock())
    clock.advance(7.0)
    board.tick()
    after = board.session.clocks.reading(clock())
    assert board.snapshot()["to_move"] == "red" and board.snapshot()["coach"]["thinking"]
    assert before.move_left - after.move_left == pytest.approx(7.0)
    assert after.running


def test_a_players_takeback_against_the_computer_gives_back_their_own_move(
    clock: ManualClock,
) -> None:
    board = board_with(clock, computer="red", level=2, takeback="players")
    make(board, clock, [(1, 2), (2, 3)])
    shown = board.snapshot()["shown"]
    move = board.session.game.find_move([tuple(sq) for sq in shown["path"]])
    make(board, clock, move.path, move.captures)
    assert board.snapshot()["ply"] == 2
    board.act({"type": "takeback"})
    board.act({"type": "arrange"})
    clock.advance(SETTLE)
    board.tick()
    snap = board.snapshot()
    assert snap["ply"] == 0 and snap["to_move"] == "blue" and snap["phase"] == "play"


def test_a_search_that_fails_is_said_and_the_board_goes_on(clock: ManualClock) -> None:
    asked = []

    def failing(task: Any, request: dict[str, Any]) -> Future:
        asked.append(task.__name__)
        done: Future = Future()
        done.set_exception(RuntimeError("the worker died"))
        return done

    board = board_with(clock, submit=failing, computer="red")
    make(board, clock, [(1, 2), (2, 3)])
    assert "the worker died" in board.snapshot()["coach"]["problem"]
    for _ in range(5):
        board.tick()
    assert asked == ["computer_move"]  # not asked again at every pass for the same position
    board.act({"type": "review"})
    board.tick()
    coach = board.snapshot()["coach"]
    assert coach["review"] is None
    assert coach["review_error"] == "The coach could not review this game: the worker died"
    assert board.snapshot()["phase"] == "play"


def test_the_review_against_the_computer_names_only_the_childs_mistakes(
    clock: ManualClock,
) -> None:
    """Issue 40, item 6: the computer's moves are not the child's mistakes (the cards say "Your
    move"), so the biggest mistakes of a game against the computer are the child's only."""
    board = board_with(clock, computer="red", level=1)
    for _ in range(5):
        if board.session.game.ending() is not None:
            break
        mine = board.session.game.legal_moves()[-1]
        make(board, clock, mine.path, mine.captures)
        shown = board.snapshot()["shown"]
        if shown is None:
            break
        move = board.session.game.find_move([tuple(sq) for sq in shown["path"]])
        make(board, clock, move.path, move.captures)
    board.act({"type": "review"})
    board.tick()
    review = board.snapshot()["coach"]["review"]
    red_mistakes = [m["index"] for m in review["moves"] if m["side"] == "red" and not m["accurate"]]
    assert red_mistakes, "the computer at level 1 made no mistake: the test needs one"
    assert review["mistakes"], "the child's mistakes are the review's"
    assert {review["moves"][i]["side"] for i in review["mistakes"]} == {"blue"}
    assert review["computer"] == "red"
