"""Glicko-2 as Glickman's paper works it ("Example of the Glicko-2 system", 2013), and the
rating run's periods, pools, provisional ratings and list, on results made by hand."""

from __future__ import annotations

import math
import random

import pytest

from controller.federation import lists, ratings
from controller.ratings import glicko2
from controller.ratings.glicko2 import Game, Rating


def test_the_papers_worked_example():
    """A player rated 1500 (RD 200, volatility 0.06) beats a 1400 (RD 30), loses to a 1550
    (RD 100) and to a 1700 (RD 300), τ = 0.5: the paper gives 1464.06, 151.52, 0.05999
    (its rating computed with rounded intermediate values; exactly it is 1464.0507)."""
    new = glicko2.update(
        Rating(1500, 200, 0.06),
        [Game(Rating(1400, 30), 1), Game(Rating(1550, 100), 0), Game(Rating(1700, 300), 0)],
    )
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.005)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_player_who_does_not_play_grows_less_certain_and_no_more():
    p = Rating(1700, 60, 0.06)
    once = glicko2.update(p, [])
    assert once.rating == 1700 and once.rd == pytest.approx(math.hypot(60, 0.06 * 173.7178))
    assert glicko2.idle(p, 3).rd == pytest.approx(
        173.7178 * math.sqrt((60 / 173.7178) ** 2 + 3 * 0.06**2)
    )
    assert glicko2.idle(Rating(1500, 345), 100).rd == 350  # never beyond a newcomer's


def test_a_win_raises_a_loss_lowers_and_the_expected_score_is_symmetric():
    a, b = Rating(1600, 80), Rating(1500, 120)
    assert glicko2.update(a, [Game(b, 1)]).rating > 1600 > glicko2.update(a, [Game(b, 0)]).rating
    assert glicko2.expected(a, b) + glicko2.expected(b, a) == pytest.approx(1.0)
    assert glicko2.expected(a, b) > 0.5


def rows(date, blue, red, outcome, family="integer"):
    return {"date": date, "blue": blue, "red": red, "outcome": outcome, "family": family}


def test_periods_are_calendar_months_and_a_game_is_rated_against_the_periods_start():
    """Within a period every game is rated against the opponents' ratings at its start: two
    newcomers who beat each other once each end the period level."""
    results = [
        rows("2026-09-12", "A", "B", "blue"),
        rows("2026-09-13", "B", "A", "blue"),
        rows("2026-10-10", "A", "C", "blue"),
    ]
    run = ratings.Run()
    out = list(ratings.rate(results, run=run))
    sept = {r["fed_id"]: r for r in out if r["pool"] == "all" and r["period"] == "2026-09"}
    assert sept["A"]["rating"] == pytest.approx(sept["B"]["rating"])
    assert (sept["A"]["wins"], sept["A"]["losses"]) == (1, 1)
    assert (run.games, run.periods, run.last_period, len(run.players)) == (3, 2, "2026-10", 3)
    oct_a = next(r for r in out if r["fed_id"] == "A" and r["period"] == "2026-10")
    assert oct_a["rating"] > sept["A"]["rating"]


def test_forfeits_byes_and_self_pairings_are_not_rated():
    results = [
        rows("2026-09-01", "A", "B", "blue-forfeit"),
        rows("2026-09-01", "A", None, "bye"),
        rows("2026-09-01", "A", "A", "blue"),
    ]
    assert list(ratings.rate(results)) == []


def test_each_family_is_a_pool_of_its_own_beside_the_whole():
    results = [
        rows("2026-09-01", "A", "B", "blue", "radical"),
        rows("2026-09-01", "A", "B", "red", "integer"),
    ]
    out = list(ratings.rate(results))
    pools = {(r["pool"], r["fed_id"]): r for r in out}
    assert set(pools) == {(p, x) for p in ("all", "radical", "integer") for x in "AB"}
    assert pools[("radical", "A")]["rating"] > 1500 > pools[("integer", "A")]["rating"]
    assert pools[("all", "A")]["rating"] == pytest.approx(1500, abs=0.01)


def test_results_out_of_date_order_are_a_mistake_not_a_silent_rating():
    with pytest.raises(ValueError):
        list(
            ratings.rate(
                [rows("2026-10-01", "A", "B", "blue"), rows("2026-09-01", "A", "B", "blue")]
            )
        )


def test_the_list_ranks_filters_and_marks_provisional_ratings():
    games = (
        ("A", "B", "blue"),
        ("B", "A", "draw"),
        ("B", "C", "blue"),
        ("C", "B", "draw"),
        ("A", "C", "blue"),
        ("C", "A", "draw"),
        ("D", "C", "blue"),
        ("C", "D", "draw"),
        ("D", "B", "draw"),
    )
    results = [rows(f"2026-{m:02d}-01", a, b, o) for m in range(1, 13) for a, b, o in games]
    history = sorted(ratings.rate(results), key=lambda r: (r["fed_id"], r["period"]))
    history = [r for r in history if r["pool"] == "all"]
    players = {
        "A": {"name": "Ana", "school": "Rizal ES", "region": "NCR", "birth_year": 2015},
        "B": {"name": "Ben", "school": "Rizal ES", "region": "NCR", "birth_year": 2010},
        "C": {"name": "Cy", "school": "Bagong HS", "region": "IV-A", "birth_year": None},
        "D": {"name": "Di", "school": "Bagong HS", "region": "IV-A", "birth_year": 2016},
    }
    full = lists.rating_list(history, players, "2026-12", lists.Filters())
    assert [r["fed_id"] for r in full] == ["A", "D", "B", "C"]
    assert [r["rank"] for r in full] == [1, 2, 3, 4]
    assert (full[0]["games"], full[0]["wins"], full[0]["draws"]) == (48, 24, 24)
    assert not any(r["provisional"] for r in full)  # a year of games: established
    assert [r["age_group"] for r in full] == ["U12", "U12", "U18", ""]
    ncr = lists.rating_list(history, players, "2026-12", lists.Filters(region="ncr"))
    assert [r["fed_id"] for r in ncr] == ["A", "B"]
    u12 = lists.rating_list(history, players, "2026-12", lists.Filters(age="U12"))
    assert [r["fed_id"] for r in u12] == ["A", "D"]
    # away for years, every rating grows uncertain (about 10 a month): provisional again
    later = lists.rating_list(history, players, "2034-12", lists.Filters())
    assert all(r["provisional"] for r in later) and later[0]["rating"] == full[0]["rating"]
    assert lists.to_csv(full).splitlines()[0].startswith("rank,fed_id,name")


def test_age_groups_follow_the_year_a_player_reaches():
    assert lists.age_group(2014, 2025) == "U12"  # turns 11 in 2025
    assert lists.age_group(2013, 2025) == "U14"  # turns 12
    assert lists.age_group(1990, 2025) == "open"
    with pytest.raises(ValueError):
        lists.Filters(age="U11").check()


def test_a_csv_cell_never_becomes_a_spreadsheet_formula():
    row = {c: "" for c in lists.COLUMNS} | {
        "name": "=HYPERLINK(1)",
        "rating": -5,
        "provisional": True,
    }
    assert "'=HYPERLINK(1)" in lists.to_csv([row]) and ",-5," in lists.to_csv([row])


def test_ratings_converge_on_the_true_order_of_a_small_simulated_league():
    """Players of known strength (the calibrated engine levels, bench/bench_federation_ratings)
    play a year of games: the list's order ends close to the true order (Spearman's rho)."""
    from bench.fedsim import League, spearman

    league = League.make(players=40, seed=3)
    results = league.play(periods=12, event_size=16, rounds=4, seed=4)
    history = sorted(
        (r for r in ratings.rate(results) if r["pool"] == "all"),
        key=lambda r: (r["fed_id"], r["period"]),
    )
    now = ratings.current(history, "2026-12")
    ids = sorted(now)
    rho = spearman([now[i]["rating"] for i in ids], [league.strength[i] for i in ids])
    assert rho > 0.85, rho
    shuffled = [league.strength[i] for i in ids]
    random.Random(1).shuffle(shuffled)  # the same measure on no information is near 0
    assert abs(spearman([now[i]["rating"] for i in ids], shuffled)) < 0.4
