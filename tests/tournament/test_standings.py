"""Standings computed by hand for small events, every tie-break included."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from controller.tournament.damath_scores import parse_score
from controller.tournament.model import TIEBREAKS, GameResult, Pairing, Player, Points
from controller.tournament.standings import individual, player_rounds, standings

A, B, C, D, E = (Player(i, n) for i, n in enumerate("ABCDE", start=1))


def game(pid, rnd, table, blue, red, outcome, scores=None):
    s = (parse_score(scores[0]), parse_score(scores[1])) if scores else (None, None)
    return Pairing(pid, "open", rnd, table, blue, red), GameResult(outcome, *s)


# Three rounds of five players: a bye each round, a forfeit, two draws.
EVENT = [
    game(1, 1, 1, 1, 2, "blue", ("30", "10")),  # A beats B
    game(2, 1, 2, 3, 4, "draw", ("12", "12")),  # C draws D
    game(3, 1, 3, 5, None, "bye"),  # E bye
    game(4, 2, 1, 5, 1, "red", ("20", "25")),  # A (Red) beats E
    game(5, 2, 2, 2, 3, "blue-forfeit"),  # C does not come: B wins by forfeit
    game(6, 2, 3, 4, None, "bye"),  # D bye
    game(7, 3, 1, 1, 4, "draw", ("15", "15")),  # A draws D
    game(8, 3, 2, 3, 5, "blue", ("18", "6")),  # C beats E
    game(9, 3, 3, 2, None, "bye"),  # B bye
]
PAIRINGS = [p for p, _ in EVENT]
RESULTS = {p.id: r for p, r in EVENT}
PLAYERS = [A, B, C, D, E]

# By hand (docs/tournament.md gives the rules):
POINTS = {1: F(5, 2), 2: F(2), 3: F(3, 2), 4: F(2), 5: F(1)}
BY_HAND = {
    "score-diff": {1: 25, 2: -20, 3: 12, 4: 0, 5: -17},
    "score-total": {1: 70, 2: 10, 3: 30, 4: 27, 5: 26},
    # opponents' points with their unplayed rounds as draws: A 5/2, B 1, C 2, D 3/2, E 1/2;
    # a player's own unplayed round: his own points
    "buchholz": {1: F(3), 2: F(13, 2), 3: F(7, 2), 4: F(13, 2), 5: F(11, 2)},
    "buchholz-cut1": {1: F(5, 2), 2: F(9, 2), 3: F(3), 4: F(9, 2), 5: F(9, 2)},
    "sonneborn-berger": {1: F(9, 4), 2: F(4), 3: F(5, 4), 4: F(17, 4), 5: F(1)},
    "wins": {1: 2, 2: 0, 3: 1, 4: 0, 5: 0},
    "red-games": {1: 1, 2: 1, 3: 0, 4: 2, 5: 1},
}


def test_points_by_hand():
    table = standings(PLAYERS, PAIRINGS, RESULTS, Points())
    assert {s.player.id: s.points for s in table} == POINTS


@pytest.mark.parametrize("tb", sorted(BY_HAND))
def test_each_tiebreak_by_hand(tb):
    rounds = player_rounds(PLAYERS, PAIRINGS, RESULTS, Points())
    got = {pid: individual(tb, pid, rounds, Points()) for pid in POINTS}
    if tb.startswith("score"):
        got = {pid: v.a for pid, v in got.items() if v.b == 0}
    assert got == BY_HAND[tb]


def test_every_tiebreak_is_covered():
    assert set(BY_HAND) | {"direct"} == set(TIEBREAKS)


def test_the_default_order_puts_d_above_b_on_score_difference():
    table = standings(PLAYERS, PAIRINGS, RESULTS, Points())
    assert [(s.rank, s.player.name, s.shared) for s in table] == [
        (1, "A", False),
        (2, "D", False),
        (3, "B", False),
        (4, "C", False),
        (5, "E", False),
    ]


def test_the_chosen_order_decides_and_a_full_tie_shares_the_rank():
    # B and D: equal Buchholz, never met (no direct encounter), no wins; D played Red twice
    order = ("buchholz", "direct", "wins", "red-games")
    table = standings(PLAYERS, PAIRINGS, RESULTS, Points(), order)
    assert [s.player.name for s in table][:3] == ["A", "D", "B"]
    table = standings(PLAYERS, PAIRINGS, RESULTS, Points(), ("buchholz", "wins"))
    assert [(s.rank, s.player.name, s.shared) for s in table][1:3] == [
        (2, "B", True),
        (2, "D", True),
    ]
    assert table[3].rank == 4


def test_other_points_for_win_draw_loss():
    three = Points(win=F(3), draw=F(1), loss=F(0), bye=F(3), forfeit_win=F(3))
    table = standings(PLAYERS, PAIRINGS, RESULTS, three)
    assert {s.player.id: s.points for s in table} == {1: 7, 2: 6, 3: 4, 4: 5, 5: 3}


def test_direct_encounter_among_the_tied_players():
    p, q, r, s = (Player(i, n) for i, n in enumerate("PQRS", start=1))
    ev = [
        game(1, 1, 1, 1, 2, "blue"),  # P beats Q
        game(2, 1, 2, 3, 4, "draw"),
        game(3, 2, 1, 1, 3, "draw"),
        game(4, 2, 2, 2, 4, "blue"),  # Q beats S
        game(5, 3, 1, 1, 4, "red"),  # S beats P
        game(6, 3, 2, 2, 3, "blue"),
    ]
    pairings, results = [x for x, _ in ev], {x.id: y for x, y in ev}
    # P 1½, Q 2, R 1, S 1½: P and S tied; S won their game
    table = standings([p, q, r, s], pairings, results, Points(), ("direct",))
    assert [x.player.name for x in table] == ["Q", "S", "P", "R"]
    assert table[1].tiebreaks["direct"] == 1 and table[2].tiebreaks["direct"] == 0
    # wins cannot split them (one each): they share third place
    table = standings([p, q, r, s], pairings, results, Points(), ("wins",))
    assert [(x.rank, x.player.name) for x in table] == [(1, "Q"), (2, "P"), (2, "S"), (4, "R")]


def test_radical_scores_compare_exactly():
    """12√2 (16.97…) is below 17; 24 + 12√2 above 40: the exact value decides."""
    x, y = Player(1, "X"), Player(2, "Y")
    ev = [
        game(1, 1, 1, 1, 2, "blue", ("12√2", "0")),
        game(2, 2, 1, 2, 1, "blue", ("17", "0")),
    ]
    table = standings([x, y], [p for p, _ in ev], {p.id: r for p, r in ev}, Points())
    assert [s.player.name for s in table] == ["Y", "X"]
    assert str(table[1].tiebreaks["score-diff"]) == "-17 + 12√2"


def test_a_difference_below_the_resolution_of_a_float_still_decides():
    """√2 and the double nearest it are one number to a float, two to the tie-break."""
    x, y = Player(1, "X"), Player(2, "Y")
    ev = [
        game(1, 1, 1, 1, 2, "blue", ("√2", "0")),
        game(2, 2, 1, 2, 1, "blue", ("1.4142135623730951", "0")),
    ]
    assert float(parse_score("√2")) == float(parse_score("1.4142135623730951"))
    table = standings([x, y], [p for p, _ in ev], {p.id: r for p, r in ev}, Points())
    assert [(s.rank, s.player.name) for s in table] == [(1, "Y"), (2, "X")]


def test_a_game_without_a_result_scores_nothing_yet():
    ev = [game(1, 1, 1, 1, 2, "blue"), game(2, 2, 1, 2, 1, "blue")]
    pairings, results = [p for p, _ in ev], {1: ev[0][1]}
    table = standings([A, B], pairings, results, Points(), ("buchholz",))
    assert {s.player.id: s.points for s in table} == {1: 1, 2: 0}
    assert [r.outcome for r in table[0].rounds] == ["win", "pending"]


def test_a_bye_worth_nothing_adds_nothing_to_sonneborn_berger():
    rounds = player_rounds(PLAYERS, PAIRINGS, RESULTS, Points(bye=F(0)))
    # E: bye (now 0 points) + losses to A and C: own points 0, so every dummy term is 0 anyway;
    # B: lost to A, forfeit win (dummy 1 x 1), bye (dummy 1 x 0) = 1
    assert individual("sonneborn-berger", 2, rounds, Points(bye=F(0))) == 1
