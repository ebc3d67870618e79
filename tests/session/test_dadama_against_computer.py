"""Dadama against the computer through the board's events: the computer (Black, level 1,
seeded) throws and stops by itself, its moves are lit and wait until the player makes them
on the board; a different move is refused, a hint is lit, a level out of range is refused.

The worker's task runs inline (a Future already done): the real ``choose`` task, in process."""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

import pytest

from controller.games.dadama.computer import LEVELS
from controller.games.dadama.kind import DADAMA, DadamaGame
from controller.games.dadama.session import DadamaSession, config_from_settings
from controller.games.dadama.view import lights
from controller.rules.dadama import Quiet, Throw

from .dadama_play import act, shown


def inline(task: Any, request: dict[str, Any]) -> Future:
    done: Future = Future()
    done.set_result(task(request))
    return done


def never(task: Any, request: dict[str, Any]) -> Future:
    return Future()  # a search still running


def against(submit=inline, **settings: Any) -> DadamaSession:
    cfg = config_from_settings({"seed": 7, "computer": "black", "level": 1, **settings})
    s = DadamaSession.begin(cfg, submit=submit)
    s.feed_frame(0.0, shown(s))
    assert s.phase == "play"
    return s


def make(s: DadamaSession, t: float, start, to, taken=None) -> None:
    """The player's hands make a move on the board: lift, place, take off."""
    board = shown(s)
    s.feed_frame(t, board - {start})
    s.feed_frame(t + 0.2, (board - {start}) | {to})
    if taken is not None:
        s.feed_frame(t + 0.4, (board - {start, taken}) | {to})


def test_a_game_against_the_computer_is_played_to_its_end_on_the_board():
    s = against()
    t, made = 1.0, 0
    for _ in range(3000):
        if s.phase == "over":
            break
        s.tick(t)
        v = s.view()
        if s.game.side_to_move == 1 and s.phase == "play":
            assert v.shown is not None and v.shown.kind == "computer", v.message
            lit = lights(v)
            assert lit[v.shown.start].name == "shown_from"
            assert v.shown.to is not None and lit[v.shown.to].name == "shown_path"
            if v.shown.taken is not None:
                assert lit[v.shown.taken].name == "shown_taken"
            assert v.message.startswith("The computer (level 1)")
            make(s, t, v.shown.start, v.shown.to, v.shown.taken)
            made += 1
            t += 1.0
        else:
            t = act(s, t)
    assert s.phase == "over" and s.view().ending is not None
    by_hand = [
        p
        for p in s.game.history
        if p.side == 1 and (isinstance(p.step, Quiet) or getattr(p.step, "to", None))
    ]
    assert made == len(by_hand) > 5  # each of its moves shown, then made on the board
    assert any(p.side == 1 and isinstance(p.step, Throw) for p in s.game.history)


def test_a_move_that_is_not_the_computers_is_refused_and_said():
    s = against(computer="white")  # White opens with a quiet move: nothing can take yet
    s.tick(0.5)
    v = s.view()
    assert v.shown is not None and v.shown.kind == "computer" and v.shown.taken is None
    other = next(m for m in s.game.quiet_moves() if (m.start, m.end) != (v.shown.start, v.shown.to))
    make(s, 1.0, other.start, other.end)
    assert s.game.history == []
    said = s.view().message
    assert said.startswith("That is not the computer's move: put the pieces back")
    assert said.endswith(
        f"make its move: ({v.shown.start[0]},{v.shown.start[1]}) to "
        f"({v.shown.to[0]},{v.shown.to[1]})."
    )
    s.feed_frame(1.5, shown(s))  # put back, then made as shown
    make(s, 2.0, v.shown.start, v.shown.to)
    assert [p.step for p in s.game.history] == [Quiet(v.shown.start, v.shown.to)]


def test_the_computers_buttons_are_its_own_while_it_thinks():
    s = DadamaSession.begin(
        config_from_settings({"seed": 7, "computer": "white", "level": 1}), submit=never
    )
    game = DadamaGame(s)
    s.feed_frame(0.0, shown(s))
    game.tick(0.5)
    assert s.view().shown is None and game.page(0.5)["computer"]["thinking"]
    s.press(0.6, "confirm")
    assert s.view().message == "It is the computer's turn: make its move as the green lights show."
    s.press(0.7, "hint")
    assert s.view().message.startswith("It is the computer's turn")


def test_a_hint_is_lit_for_the_players_side():
    s = against()
    s.press(0.5, "hint")
    v = s.view()
    assert v.shown is not None and v.shown.kind == "hint"
    assert v.message.startswith("Hint:")
    assert lights(v)[v.shown.start].name == "shown_from"


def test_a_level_out_of_range_is_refused_in_one_line():
    with pytest.raises(ValueError) as err:
        DADAMA.check({"computer": "black", "level": 9}, None)
    assert str(err.value) == f"level 9: the computer's levels in Dadama run from 1 to {len(LEVELS)}"
    with pytest.raises(ValueError, match="computer: off or one of white, black"):
        DADAMA.check({"computer": "red"}, None)
