"""Standings worked by hand where the first tests left a slip unnoticed (bench/mutation.sh
standings): rounds a player did not play (before a late entry, a double forfeit), games without
a result yet, points that are not 1, ½, 0, and the direct encounter among three or four tied
players. Every number below is counted by hand from the rules in docs/tournament.md."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from controller.tournament.model import BLUE, RED, GameResult, Pairing, Player, Points
from controller.tournament.standings import Round, individual, player_rounds, standings

A, B, C, D = (Player(i, n) for i, n in enumerate("ABCD", start=1))


def event(*games: tuple[int, int, int | None, str | None]) -> tuple[list, dict]:
    """(round, blue, red, outcome) -> pairings and results; outcome None: no result yet."""
    pairings, results = [], {}
    tables: dict[int, int] = {}
    for n, (rnd, blue, red, outcome) in enumerate(games, start=1):
        tables[rnd] = tables.get(rnd, 0) + 1
        pairings.append(Pairing(n, "open", rnd, tables[rnd], blue, red))
        if outcome is not None:
            results[n] = GameResult(outcome)
    return pairings, results


def test_before_the_first_round_is_paired_nobody_has_a_round():
    table = standings([A, B], [], {}, Points())
    assert [(s.player.name, s.rank, s.shared, s.points, s.rounds) for s in table] == [
        ("A", 1, True, 0, []),
        ("B", 1, True, 0, []),
    ]


def test_a_late_entry_misses_the_rounds_before_it_with_no_points():
    # round 1: A beats B, C has not entered yet; round 2: C (Blue) draws A, B has the bye
    pairings, results = event((1, 1, 2, "blue"), (2, 3, 1, "draw"), (2, 2, None, "bye"))
    rounds = player_rounds([A, B, C], pairings, results, Points())
    half = F(1, 2)
    assert rounds == {
        1: [Round(1, 2, BLUE, "win", F(1)), Round(2, 3, RED, "draw", half)],
        2: [Round(1, 1, RED, "loss", F(0)), Round(2, None, None, "bye", F(1))],
        3: [Round(1, None, None, "absent", F(0)), Round(2, 1, BLUE, "draw", half)],
    }
    table = standings([A, B, C], pairings, results, Points(), ("buchholz",))
    assert [(s.player.name, s.points) for s in table] == [("A", F(3, 2)), ("B", 1), ("C", half)]
    # C's missed round: a dummy opponent with C's own points (½); A's 3/2 for the draw
    assert individual("buchholz", 3, rounds, Points()) == F(3, 2) + half


def test_a_double_forfeit_is_a_forfeit_loss_for_both():
    pairings, results = event((1, 1, 2, "double-forfeit"))
    rounds = player_rounds([A, B], pairings, results, Points(forfeit_loss=F(0)))
    assert rounds[1] == [Round(1, 2, BLUE, "forfeit-loss", F(0))]
    assert rounds[2] == [Round(1, 1, RED, "forfeit-loss", F(0))]


def test_a_game_without_a_result_counts_for_nobodys_buchholz():
    # round 1: A beats B, C beats D; round 2: A-C not decided yet, B beats D
    pairings, results = event(
        (1, 1, 2, "blue"), (1, 3, 4, "blue"), (2, 1, 3, None), (2, 2, 4, "blue")
    )
    rounds = player_rounds([A, B, C, D], pairings, results, Points())
    # opponents' points (their unplayed rounds as draws, the undecided game as nothing):
    # A 1, B 1, C 1, D 0; A's and C's undecided round is no opponent at all
    buchholz = {pid: individual("buchholz", pid, rounds, Points()) for pid in (1, 2, 3, 4)}
    assert buchholz == {1: 1, 2: 1, 3: 0, 4: 2}


def test_sonneborn_berger_counts_a_forfeit_win_in_full_whatever_it_scores():
    # A wins by forfeit (worth ½ in this event): the dummy opponent has A's own ½, counted whole
    pairings, results = event((1, 1, 2, "blue-forfeit"))
    points = Points(forfeit_win=F(1, 2))
    rounds = player_rounds([A, B], pairings, results, points)
    assert rounds[1] == [Round(1, 2, BLUE, "forfeit-win", F(1, 2))]
    assert individual("sonneborn-berger", 1, rounds, points) == F(1, 2)


def test_sonneborn_berger_counts_a_bye_as_its_points_over_a_win():
    # three points a win and a bye: A has the bye, then beats B (who beat C in round 1)
    pairings, results = event(
        (1, 1, None, "bye"), (1, 2, 3, "blue"), (2, 1, 2, "blue"), (2, 3, None, "bye")
    )
    points = Points(win=F(3), draw=F(1), bye=F(3))
    rounds = player_rounds([A, B, C], pairings, results, points)
    # A's own points 6: the bye is a dummy opponent worth 6 x 3/3; B (3 points) beaten: 3 x 1
    assert individual("sonneborn-berger", 1, rounds, points) == 6 + 3


def test_an_unknown_tiebreak_is_named_in_the_error():
    rounds = player_rounds([A], [], {}, Points())
    with pytest.raises(ValueError, match="nonsense"):
        individual("nonsense", 1, rounds, Points())


P, Q, R, X, Y = (Player(i, n) for i, n in enumerate("PQRXY", start=1))


def three_tied(points: Points) -> list:
    """P, Q and R end level, and each met the other two: P beat Q, Q drew R, R drew P."""
    pairings, results = event(
        (1, 1, 2, "blue"), (1, 3, 4, "draw"), (1, 5, None, "bye"),  # P-Q, R-X, Y
        (2, 2, 3, "draw"), (2, 1, 5, "red"), (2, 4, None, "bye"),  # Q-R, P-Y (Y wins), X
        (3, 3, 1, "draw"), (3, 2, 4, "blue"), (3, 5, None, "bye"),  # R-P, Q-X, Y
        (4, 2, 5, "blue"), (4, 1, 4, "blue"), (4, 3, None, "bye"),  # Q-Y, P-X, R
    )  # fmt: skip
    return standings([P, Q, R, X, Y], pairings, results, points, ("direct",))


def test_the_direct_encounter_splits_three_tied_players_who_all_met():
    table = three_tied(Points())
    # P 1 + ½ = 3/2, R ½ + ½ = 1, Q 0 + ½ = ½ among themselves; Y and X tied with nobody
    assert [(s.rank, s.player.name, s.points) for s in table] == [
        (1, "Y", 3),
        (2, "P", F(5, 2)),
        (3, "R", F(5, 2)),
        (4, "Q", F(5, 2)),
        (5, "X", F(3, 2)),
    ]
    assert {s.player.name: s.tiebreaks["direct"] for s in table} == {
        "Y": 0, "P": F(3, 2), "R": 1, "Q": F(1, 2), "X": 0,
    }  # fmt: skip


def test_the_direct_encounter_counts_the_points_of_a_loss_too():
    # 3, 2, 1 for a win, a draw and a loss (and 3 for the bye): the same three still level at 9
    table = three_tied(Points(win=F(3), draw=F(2), loss=F(1), bye=F(3)))
    assert [(s.player.name, s.points) for s in table][1:4] == [("P", 9), ("R", 9), ("Q", 9)]
    # P 3 + 2, R 2 + 2, Q 1 (the loss to P) + 2
    assert [s.tiebreaks["direct"] for s in table][1:4] == [5, 4, 3]


def test_the_direct_encounter_does_not_split_tied_players_who_have_not_all_met():
    # P, Q, R and Y end on 2; P-Q, Q-Y and P-Y met (one win each), R met none of them
    pairings, results = event(
        (1, 1, 2, "blue"), (1, 3, 4, "blue"), (1, 5, None, "bye"),  # P beats Q, R beats X
        (2, 2, 5, "blue"), (2, 4, 3, "blue"), (2, 1, None, "bye"),  # Q beats Y, X beats R
        (3, 1, 5, "red"), (3, 2, 4, "blue"), (3, 3, None, "bye"),  # Y beats P, Q beats X
    )  # fmt: skip
    table = standings([P, Q, R, X, Y], pairings, results, Points(), ("direct",))
    assert [(s.rank, s.player.name, s.shared, s.points) for s in table] == [
        (1, "P", True, 2),
        (1, "Q", True, 2),
        (1, "R", True, 2),
        (1, "Y", True, 2),
        (5, "X", False, 1),
    ]
    assert all(s.tiebreaks["direct"] == 0 for s in table)
