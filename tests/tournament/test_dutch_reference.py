"""The Swiss pairings against bbpPairings (FIDE-endorsed) on its reference tournaments, and on
cases a person can check by hand against the FIDE Dutch rules."""

from __future__ import annotations

import pytest
from caissify_pairings import generate_pairings

from controller.tournament.history import histories
from controller.tournament.model import BLUE, RED, Points
from controller.tournament.pairing import swiss
from tests.tournament import trf

REFERENCE = sorted(p.name for p in trf.FIXTURES.glob("*.trf"))


def _replay(name: str) -> list[tuple[int, set, set]]:
    event = trf.read(name)
    last = max(event.rounds)
    first = event.rounds[1][1].colour  # pairing number 1's colour in round 1: the drawn colour
    out = []
    for rnd in range(1, last + 1):
        pairings, results = trf.as_records(event, rnd)
        past = histories(event.players, pairings, results, Points(), rnd)
        ours = set(swiss(trf.present(event, rnd), past, rnd, last, BLUE if first == "w" else RED))
        out.append((rnd, ours, trf.reference_pairs(event, rnd)))
    return out


@pytest.mark.parametrize("name", REFERENCE)
def test_every_round_has_bbppairings_pairs_and_colours(name):
    for rnd, ours, reference in _replay(name):
        assert ours == reference, f"{name} round {rnd}"


def test_all_nine_reference_tournaments_are_replayed():
    assert len(REFERENCE) == 9
    assert sum(len(_replay(n)) for n in REFERENCE) == 43


def test_the_engine_alone_gives_the_lower_ranked_player_his_colour():
    """Why colours.py exists: 10p5r_s44 round 4, players 7 and 10 both played Black then White
    (forfeits do not count) and both would like Black; 10 has ½ point, 7 none, so 10 ranks
    higher and gets Black by rule E.4 (bbpPairings: 7 White). The engine ranks by pairing number
    and gives 7 Black."""
    players = [
        {"id": 7, "score": 0.0, "rating": 0, "starting_number": 7, "pairing_number": 7,
         "color_hist": ["black", "white"], "float_history": ["none", "none", "none"],
         "bye_count": 0},
        {"id": 10, "score": 0.5, "rating": 0, "starting_number": 10, "pairing_number": 10,
         "color_hist": ["black", "white"], "float_history": ["none", "none", "none"],
         "bye_count": 0},
    ]  # fmt: skip
    raw = generate_pairings("dutch", players, set(), 4, 5)
    assert (raw[0]["white_id"], raw[0]["black_id"]) == (10, 7)
    past = histories([7, 10], [], {}, Points(), 1)
    past[7].colours[:] = [RED, BLUE]
    past[10].colours[:] = [RED, BLUE]
    past[10].score = past[7].score + 1 / 2
    past[7].floats[:] = past[10].floats[:] = ["none"] * 3
    assert swiss([7, 10], past, 4, 5) == [(7, 10)]


def test_round_one_is_top_half_against_bottom_half_with_colours_by_the_draw():
    """8 players: 1–5, 2–6, 3–7, 4–8; the drawn colour goes to the odd pairing numbers."""
    seeds = [11, 12, 13, 14, 15, 16, 17, 18]  # ids, strongest first
    past = histories(seeds, [], {}, Points(), 1)
    assert swiss(seeds, past, 1, 4, BLUE) == [(11, 15), (16, 12), (13, 17), (18, 14)]
    assert swiss(seeds, past, 1, 4, RED) == [(15, 11), (12, 16), (17, 13), (14, 18)]


def test_round_one_bye_goes_to_the_lowest_ranked():
    seeds = [1, 2, 3, 4, 5]
    pairs = swiss(seeds, histories(seeds, [], {}, Points(), 1), 1, 3)
    assert (5, None) in pairs
    assert sorted(p for pair in pairs for p in pair if p) == seeds
