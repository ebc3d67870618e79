"""Pairing where mutation testing found slips the first tests let through (bench/mutation.sh
pairing): knockout brackets of a power of two, the engine's answer taken in table order with
the bye last, the checks of that answer and their messages, the messages when the engine is
missing or fails, and a forfeit win that rules a player out of the bye."""

from __future__ import annotations

import logging
import sys
from fractions import Fraction
from types import SimpleNamespace

import pytest

from controller.tournament import pairing
from controller.tournament.history import PlayerHistory
from controller.tournament.model import BLUE, RED, TournamentError
from controller.tournament.pairing import (
    check,
    knockout_first,
    knockout_next,
    knockout_rounds,
    round_robin,
    swiss,
)


def test_a_field_of_a_power_of_two_has_no_bye_in_a_knockout():
    assert knockout_first([10, 20, 30, 40]) == [(10, 40), (20, 30)]
    assert knockout_first([1, 2]) == [(1, 2)]


@pytest.mark.parametrize(
    ("players", "rounds"), [(2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4), (16, 4)]
)
def test_a_knockout_has_as_many_rounds_as_halvings_to_one_winner(players, rounds):
    assert knockout_rounds(players) == rounds


def test_a_knockout_with_one_player_left_is_over():
    with pytest.raises(TournamentError, match=r"^the knockout is over: it has a winner$"):
        knockout_next([7])


def test_an_answer_that_leaves_a_player_out_is_refused():
    with pytest.raises(TournamentError) as info:
        check([(1, 2), (1, 3)], [1, 2, 3, 4], set())
    assert str(info.value) == (
        "the pairing engine did not pair every player exactly once; pair it with pair --by-hand"
    )


def test_two_byes_in_an_even_field_are_refused():
    with pytest.raises(TournamentError) as info:
        check([(1, 2), (3, None), (4, None)], [1, 2, 3, 4], set())
    assert str(info.value) == (
        "no pairing of this round avoids a rematch (the pairing engine left players "
        "unpaired): pair it with pair --by-hand, or end the event a round earlier"
    )
    check([(1, 2), (3, 4)], [1, 2, 3, 4], set())  # one pair each: accepted
    check([(1, 2), (3, None), (4, 5)], [1, 2, 3, 4, 5], set())


def fake_engine(answer):
    def generate_pairings(**request):
        if isinstance(answer, Exception):
            raise answer
        return answer

    return SimpleNamespace(generate_pairings=generate_pairings)


def test_the_engines_pairs_are_taken_in_table_order_with_the_bye_last(monkeypatch):
    rows = [
        {"white_id": 3, "black_id": 4, "table": 2},
        {"white_id": 5, "bye": True},
        {"white_id": 1, "black_id": 2, "table": 1},
    ]
    monkeypatch.setattr(pairing, "_engine", lambda: fake_engine(rows))
    assert round_robin([1, 2, 3, 4, 5], 1) == [(1, 2), (3, 4), (5, None)]


def test_an_engine_failure_is_one_message_naming_the_way_out(monkeypatch):
    monkeypatch.setattr(pairing, "_engine", lambda: fake_engine(RuntimeError("no solution")))
    with pytest.raises(TournamentError) as info:
        round_robin([1, 2, 3, 4], 1)
    assert str(info.value) == (
        "the pairing engine could not pair this round (RuntimeError: no solution); "
        "pair it by hand (pair --by-hand)"
    )


def test_without_the_engine_the_message_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "caissify_pairings", None)  # import fails
    with pytest.raises(TournamentError) as info:
        round_robin([1, 2, 3, 4], 1)
    assert "caissify-pairings" in str(info.value) and "./run.sh hub --help" in str(info.value)


def test_a_player_who_won_by_forfeit_does_not_get_the_bye():
    # round 2 of five: 1-2 and 3-4 drew; 5 won by forfeit (an event that gives nothing for it),
    # so 5 is alone at the bottom but may not have the bye (FIDE C.04.1 d)
    half = Fraction(1, 2)
    past = {
        1: PlayerHistory(1, half, [BLUE], ["none"], opponents={2}),
        2: PlayerHistory(2, half, [RED], ["none"], opponents={1}),
        3: PlayerHistory(3, half, [BLUE], ["none"], opponents={4}),
        4: PlayerHistory(4, half, [RED], ["none"], opponents={3}),
        5: PlayerHistory(5, Fraction(0), [], ["down"], forfeit_wins=1),
    }
    pairs = swiss([1, 2, 3, 4, 5], past, 2, 3)
    assert (5, None) not in pairs
    assert pairs == [(4, 1), (2, 5), (3, None)]
    past[5].forfeit_wins = 0  # the same player without the forfeit win: the bye is his
    assert (5, None) in swiss([1, 2, 3, 4, 5], past, 2, 3)


def test_the_engines_own_warnings_do_not_reach_the_organisers_screen(capsys, monkeypatch):
    # as outside pytest: no handler anywhere, so Python would print the engine's warning
    monkeypatch.setattr(logging.root, "handlers", [])
    monkeypatch.setattr(logging.getLogger("caissify_pairings"), "handlers", [])
    # four players who have all met: the engine leaves two unpaired ("multiple forced byes")
    past = {
        pid: PlayerHistory(pid, Fraction(3, 2), [BLUE, RED, BLUE], ["none"] * 3,
                           opponents={1, 2, 3, 4} - {pid})
        for pid in (1, 2, 3, 4)
    }  # fmt: skip
    with pytest.raises(TournamentError, match="no pairing of this round avoids a rematch"):
        swiss([1, 2, 3, 4], past, 4, 5)
    assert capsys.readouterr().err == ""
