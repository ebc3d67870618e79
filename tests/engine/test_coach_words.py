"""The coach in words a ten-year-old follows, on a known position, in English and Filipino.

Blue to move must take, and has two takings: its 2 on (7, 0) over Red's 5 onto the + square
(5, 2), ``2 + 5 = 7``, after which Red's 3 takes Blue's 6 back (``3 ÷ 6 = 0.5 ≈ 1``); or its 6
on (2, 3) over Red's 3 onto the × square (4, 5), ``6 × 3 = 18``, after which Red takes nothing.
Over the move and the three after it, the better one gives Blue 18 and Red 0 instead of 7 and 1:
12 points more, counted as the sheet counts. The engine's own estimate of the loss is another
number (takings, the chips left and the position), kept for the teacher."""

from __future__ import annotations

from fractions import Fraction

import pytest

from controller import i18n
from controller.engine.coach import review
from controller.engine.game_record import read_record
from controller.engine.review_format import review_json
from controller.rules.game import Game
from controller.rules.notation import game_from_json
from controller.rules.scoring import score_move
from controller.session.shown import Shown
from controller.view.review_pages import review_pages

KNOWN = {
    "variant": "integer",
    "pieces": [
        {"square": [2, 3], "side": "blue", "value": "6"},
        {"square": [7, 0], "side": "blue", "value": "2"},
        {"square": [1, 0], "side": "blue", "value": "-9"},
        {"square": [3, 4], "side": "red", "value": "3"},
        {"square": [6, 1], "side": "red", "value": "5"},
        {"square": [6, 7], "side": "red", "value": "-1"},
    ],
}
PLAYED = [(7, 0), (5, 2)]  # 2 + 5 = 7
BETTER = [(2, 3), (4, 5)]  # 6 × 3 = 18


def known() -> Game:
    return game_from_json(KNOWN)


@pytest.fixture(scope="module")
def reviewed():
    """The review of the game of one move, and its JSON as the page and the display get it."""
    start = known()
    result = review(start, [PLAYED], depth=6)
    record = read_record(
        '{"variant": "integer", "pieces": '
        + str(KNOWN["pieces"]).replace("'", '"')
        + ', "moves": [[[7,0],[5,2]]]}',
        "known",
    )
    return result, review_json(result, record)


def test_the_mistake_is_measured_by_the_points_the_better_move_gives(reviewed) -> None:
    result, _json = reviewed
    (move,) = result.mistakes()
    assert move.move.path == tuple(PLAYED) and move.best.path == tuple(BETTER)
    assert (move.best_exchange.mine, move.best_exchange.theirs) == (18, 0)
    assert (move.played_exchange.mine, move.played_exchange.theirs) == (7, 1)
    assert move.better_by == Fraction(12)  # exact, as the sheet adds: (18 − 0) − (7 − 1)
    assert move.best_exchange.plies == 4
    assert move.loss_points > 0 and move.loss_points != move.better_by  # the teacher's figure


def test_the_reviews_data_names_each_taking_and_keeps_the_exact_figure(reviewed) -> None:
    result, data = reviewed
    move = data["moves"][0]
    assert move["steps"] == [
        {"taker": "2", "taken": "5", "over": [6, 1], "land": [5, 2], "operator": "+",
         "multiplier": 1, "arithmetic": "2 + 5 = 7", "score": "7"},
    ]  # fmt: skip
    assert move["best_steps"] == [
        {"taker": "6", "taken": "3", "over": [3, 4], "land": [4, 5], "operator": "×",
         "multiplier": 1, "arithmetic": "6 x 3 = 18", "score": "18"},
    ]  # fmt: skip
    assert move["chip"] == {"label": "2", "dama": False}
    assert move["best_chip"] == {"label": "6", "dama": False}
    better = move["exchange"]["better_by"]
    assert better == {"text": "12", "value": 12.0, "sign": 1}
    assert move["exchange"]["best"]["mine"]["text"] == "18"
    assert move["exchange"]["played"]["theirs"]["text"] == "1"
    assert Fraction(move["loss_exact"]) == result.moves[0].loss_points


def _hint(kind: str) -> Shown:
    game = known()
    move = game.find_move(BETTER)
    return Shown(kind, 0, move, score_move(move, "integer").text, "integer")


HINTS = {
    "en": (
        "Hint: lift your 6 on (2, 3), where the light pulses green. Press Hint again to see the "
        "whole move.",
        "Hint: lift your 6 on (2, 3) and follow the green lights to (4, 5). Your 6 jumps Red's 3 "
        "on (3, 4) and lands on the × square (4, 5): 6 × 3 = 18. Then take off the board every "
        "chip that blinks red-orange: you score 18.",
        "Hint: 2,3x4,5\n6 x 3 = 18",
    ),
    "fil": (
        "Hint: iangat ang 6 mo sa (2, 3), kung saan pumipintig na berde ang ilaw. Pindutin muli "
        "ang Hint para makita ang buong galaw.",
        "Hint: iangat ang 6 mo sa (2, 3) at sundan ang mga berdeng ilaw papunta sa (4, 5). "
        "Lulundagan ng 6 mo ang 3 ng Pula sa (3, 4) at lalapag ito sa kahong × na (4, 5): "
        "6 × 3 = 18. Saka alisin sa board ang bawat chip na kumukurap na pulang-kahel: 18 ang "
        "score mo.",
        "Hint: 2,3x4,5\n6 x 3 = 18",
    ),
}


@pytest.mark.parametrize("language", ["en", "fil"])
def test_a_hint_names_the_chip_the_squares_and_the_arithmetic(language: str) -> None:
    chip, whole, display = HINTS[language]
    with i18n.use(language):
        assert _hint("hint_chip").said().page == chip
        said = _hint("hint").said()
    assert said.page == whole
    assert said.display == display


def test_the_computers_move_says_what_it_takes_of_yours() -> None:
    game = known()
    game.push(game.find_move(PLAYED))  # Red to move: its 3 must take Blue's 6
    (move,) = game.legal_moves()
    shown = Shown("computer", 1, move, score_move(move, "integer").text, "integer", 2)
    assert shown.said().page == (
        "The computer (level 2) takes with its 3 on (3, 4): move it as the green lights show, to "
        "(1, 2). Its 3 jumps your 6 on (2, 3) and lands on the ÷ square (1, 2): "
        "3 ÷ 6 = 0.5 ≈ 1. Take off the board each of your chips that blinks red-orange. The "
        "computer scores 1."
    )


def test_a_dama_in_the_taking_is_said_to_count_double() -> None:
    pieces = [{**p, "dama": p["square"] == [2, 3]} for p in KNOWN["pieces"]]
    game = game_from_json({**KNOWN, "pieces": pieces})
    move = game.find_move(BETTER)
    said = Shown("hint", 0, move, score_move(move, "integer").text, "integer").said()
    assert "6 × 3 = 18 × 2 = 36. A dama takes part, so the score counts double." in said.page


@pytest.mark.parametrize(
    ("language", "page"),
    [
        ("en", ["BLUE 1: 7,0x5,2;", "better 2,3x4,5: 12", "points more"]),  # no room for 6 x 3
        ("fil", ["ASUL 1: 7,0x5,2; mas", "mabuti 2,3x4,5 = 6 x", "3 = 18: 12 puntos pa"]),
    ],
)
def test_the_display_says_the_mistake_in_points_a_child_can_count(
    reviewed, language: str, page: list[str]
) -> None:
    _result, data = reviewed
    with i18n.use(language):
        pages = review_pages(data)
    assert pages[0] == page
    assert len(pages[0]) <= 3 and all(len(x) <= 21 for x in pages[0])
