"""Round robin pairings against the FIDE Berger tables (FIDE Handbook C.05, Annex 1).

The Handbook prints one table per even number of players. Its rule, which these tests
rebuild independently of the engine: round 1 pairs 1–n, 2–(n−1), …, n/2–(n/2+1) with the
first named playing White (here Blue); each next round adds n/2 to every number but n,
counting round 1..n−1 (so n−1+1 is 1), keeps the tables in order, and moves n to the other
colour. The literal 4- and 6-player tables are copied from the Handbook as a check of that rule.
"""

from __future__ import annotations

import pytest

from controller.tournament.model import TournamentError
from controller.tournament.pairing import round_robin

HANDBOOK_4 = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
HANDBOOK_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]


def berger_by_rule(n: int) -> list[list[tuple[int, int]]]:
    def advance(x: int) -> int:
        return x if x == n else (x - 1 + n // 2) % (n - 1) + 1

    table = [(i, n + 1 - i) for i in range(1, n // 2 + 1)]
    rounds = [table]
    for _ in range(n - 2):
        table = [(advance(a), advance(b)) for a, b in table]
        a, b = table[0]
        table[0] = (b, a)  # n changes colour: it is on board 1 every round
        rounds.append(table)
    return rounds


def test_the_rule_reproduces_the_printed_tables():
    assert berger_by_rule(4) == HANDBOOK_4
    assert berger_by_rule(6) == HANDBOOK_6


@pytest.mark.parametrize("n", [4, 6, 8, 10, 12, 14, 16])
def test_every_round_is_the_handbook_table(n):
    seeds = [100 + i for i in range(1, n + 1)]  # ids; Berger numbers are the order
    for rnd, table in enumerate(berger_by_rule(n), start=1):
        expected = [(seeds[a - 1], seeds[b - 1]) for a, b in table]
        # The pairs and colours are the Handbook's; the engine numbers the tables its own way.
        assert set(round_robin(seeds, rnd)) == set(expected), f"{n} players, round {rnd}"


def test_an_odd_field_plays_the_next_even_table_with_a_bye_for_the_missing_number():
    seeds = [1, 2, 3, 4, 5]
    for rnd, table in enumerate(berger_by_rule(6), start=1):
        pairs = round_robin(seeds, rnd)
        games = [(a, b) for a, b in table if 6 not in (a, b)]
        bye = next(a + b - 6 for a, b in table if 6 in (a, b))
        assert {p for p in pairs if p[1] is not None} == set(games)
        assert (bye, None) in pairs


def test_a_double_round_robin_repeats_with_colours_reversed():
    seeds = [1, 2, 3, 4]
    for rnd, table in enumerate(HANDBOOK_4, start=1):
        assert set(round_robin(seeds, rnd + 3, cycles=2)) == {(b, a) for a, b in table}


def test_a_round_beyond_the_table_is_refused():
    with pytest.raises(TournamentError, match="rounds 1 to 3"):
        round_robin([1, 2, 3, 4], 4)
