"""What the board says and shows while people use it: guided setup chip by chip in every variant,
a wrong move explained on the page and the display, messages that go when they no longer hold,
the practice helps (capture preview, clocks off). Through the real session and view."""

from __future__ import annotations

import pytest

from controller.rules.damath_data import BLUE_SQUARES, PLACEMENTS, RED_SQUARES, VARIANTS
from controller.rules.game import Game
from controller.view.compose import compose
from controller.view.display_text import display_text

from .helpers import new_session, snapshot_at


def _page(s, t: float) -> list[str]:
    return list(compose(s.view_input(t), t).page)


def _lights(s, t: float) -> dict:
    return {tuple(x["square"]): x["meaning"] for x in snapshot_at(s, t)["leds"]}


def _ready(s, t: float = 0.0) -> float:
    s.feed_frame(t, Game.new(s.variant).occupied())
    s.advance(t + 1.0)
    assert s.phase == "play"
    return t + 1.0


@pytest.mark.parametrize("variant", VARIANTS)
def test_guided_setup_names_each_chip_lights_its_square_and_confirms_it(variant):
    s = new_session(variant=variant)
    labels = PLACEMENTS[variant]
    order = [(sq, "blue", labels[i]) for i, sq in enumerate(BLUE_SQUARES)]
    order += [(sq, "red", labels[i]) for i, sq in enumerate(RED_SQUARES)]
    board: set = set()
    t = 0.0
    s.feed_frame(t, board)
    for n, (square, side, label) in enumerate(order):
        page = _page(s, t)
        assert page[0] == f"Setup {n}/24"
        assert page[1] == display_text(f"Put {side.upper()} {label}")[:21]
        assert page[2] == f"on square {square[0]},{square[1]}"
        lit = {sq for sq, meaning in _lights(s, t).items() if meaning == "place_next"}
        assert lit == {square}  # that square, and only that one
        assert snapshot_at(s, t)["message"].startswith(f"Put the {side} {label} on ({square[0]}, ")
        cues = len(s.take_cues())
        board.add(square)
        t += 0.5
        s.feed_frame(t, board)
        assert [c.name for c in s.take_cues()][cues:] == ["move"]  # the board confirms it
    assert _page(s, t)[1] == "All set: hands off"
    s.advance(t + 1.0)
    assert s.phase == "play"


def test_a_lesson_position_is_set_up_from_its_own_chips_not_the_opening():
    position = {
        "variant": "integer",
        "to_move": "blue",
        "pieces": [
            {"square": [2, 3], "side": "blue", "value": "5"},
            {"square": [3, 4], "side": "red", "value": "3"},
        ],
    }
    s = new_session(position=position)
    s.feed_frame(0.0, set())
    said = snapshot_at(s, 0.0)["message"]
    assert said == "Put the blue 5 on (2, 3) (0 of 2 chips in place)."
    assert "opening" not in said


def test_a_wrong_lift_is_explained_and_the_words_go_once_it_is_put_back():
    s = new_session()
    t = _ready(s)
    board = set(Game.new("integer").occupied())
    board.discard((2, 5))  # a red chip, Blue to move
    s.feed_frame(t + 0.1, board)
    snap = snapshot_at(s, t + 0.1)
    assert snap["message"].startswith("It is BLUE's turn")
    assert _page(s, t + 0.1)[1:3] == ["BLUE's turn! Put it", "back on 2,5"]
    board.add((2, 5))
    s.feed_frame(t + 0.3, board)
    board.discard((1, 2))  # a legal lift now
    s.feed_frame(t + 0.5, board)
    assert snapshot_at(s, t + 0.5)["message"] == ""  # the old words are gone


def test_a_wrong_move_is_explained_on_the_display_too():
    s = new_session()
    t = _ready(s)
    board = set(Game.new("integer").occupied())
    board.discard((1, 2))
    board.add((1, 4))
    s.feed_frame(t + 0.1, board)
    s.advance(t + 1.5)  # the error delay
    assert snapshot_at(s, t + 1.5)["message"].startswith("Chips move diagonally")
    assert _page(s, t + 1.5)[1:] == ["Diagonally only! Put", "it back on 1,2"]
    assert "error" in [c.name for c in s.take_cues()]


def test_every_line_the_display_gets_is_ascii_in_every_variant():
    for variant in VARIANTS:
        s = new_session(variant=variant)
        game = Game.new(variant)
        s.feed_frame(0.0, set())
        pages = [_page(s, 0.0)]
        s.feed_frame(0.5, game.occupied())
        s.advance(1.5)
        for ply in range(12):
            moves = game.legal_moves()
            if not moves:
                break
            game.push(moves[ply % len(moves)])
            s.feed_frame(2.0 + ply, game.occupied())
            s.advance(2.6 + ply)
            pages.append(_page(s, 2.6 + ply))
        for page in pages:
            for line in page:
                assert line.isascii() and len(line) <= 21, (variant, line)


def test_capture_preview_shows_what_each_taking_scores_in_practice_only():
    position = {
        "variant": "integer",
        "to_move": "blue",
        "pieces": [
            {"square": [2, 3], "side": "blue", "value": "5"},
            {"square": [3, 4], "side": "red", "value": "3"},
            {"square": [1, 4], "side": "red", "value": "-2"},
            {"square": [7, 6], "side": "red", "value": "9"},
        ],
    }
    practice = new_session(position=position, play={"practice": True, "capture_preview": True})
    tournament = new_session(position=position)
    for s in (practice, tournament):
        board = {(2, 3), (3, 4), (1, 4), (7, 6)}
        s.feed_frame(0.0, board)
        s.advance(1.0)
        board.discard((2, 3))
        s.feed_frame(1.2, board)
    # 5 on (4, 5) is a × square: 5 × 3 = 15; on (0, 5) a − square: 5 − (−2) = 7
    assert snapshot_at(practice, 1.2)["preview"] == [[[0, 5], "7"], [[4, 5], "15"]]
    assert _page(practice, 1.2)[1:] == ["If you take:", "0,5 = 7", "4,5 = 15"]
    assert snapshot_at(tournament, 1.2)["preview"] == []
    assert "If you take:" not in _page(tournament, 1.2)


def test_practice_with_the_clocks_off_has_no_time_limit():
    s = new_session(play={"practice": True, "clocks": "off"})
    t = _ready(s)
    s.advance(t + 3600.0)  # an hour of thinking
    assert s.phase == "play" and not s.message
    out = compose(s.view_input(t + 3600.0), t + 3600.0)
    assert out.clocks == ("--:--", "--:--", False)
    assert out.page[1] == "BLUE to move"
    assert {c.name for c in s.take_cues()} == {"move"}  # no reminder, no time-up
