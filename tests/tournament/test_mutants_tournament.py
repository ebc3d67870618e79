"""The event as the organiser and the arbiter run it, where mutation testing found slips the
first tests let through (bench/mutation.sh tournament): what the log keeps of every change (who,
what, every detail), the exact words of every refusal (the organiser reads them: they must say
what to do), the limits at their edges, and the rules that only show with two divisions side by
side, a knockout forfeit, withdrawn players in a round robin or the drawn initial colour."""

from __future__ import annotations

import pytest

from controller.tournament.damath_scores import parse_score
from controller.tournament.model import Division, Event, GameResult, TournamentError
from controller.tournament.store import open_store
from controller.tournament.tournament import Tournament


def new(tmp_path, system="swiss", rounds=3, names="Ana Ben Cid Dee", **event):
    t = Tournament.create(tmp_path / "ev", Event("Cup", **event), Division("open", system, rounds))
    for name in names.split():
        t.add_player(name)
    return t


def refused(call) -> str:
    with pytest.raises(TournamentError) as info:
        call()
    return str(info.value)


def score(blue: str, red: str) -> tuple:
    return parse_score(blue), parse_score(red)


# ---------------------------------------------------------------------------- the log


def test_the_log_keeps_who_did_what_with_every_detail(tmp_path):
    t = Tournament.create(tmp_path / "ev", Event("Cup"), Division("open", "swiss", 3))
    t.update_event(venue="Hall", tiebreaks=["wins", "buchholz"])
    t.set_division("kids", "swiss", 2)
    t.add_player("Ana", school="S1", rating=1500)
    t.import_players("name,school\nBen,S2\nCid,S1\nDee,S2\nEve,S1\n")
    assert t.withdraw("Eve", reason="ill").withdrawn_after == 0
    t.mark_absent("Dee", 2, reason="exam")
    made = t.pair(1)
    assert [(p.table, p.blue, p.red) for p in made] == [(1, 1, 3), (2, 4, 2)]
    t.exchange(1, "Ana", "Dee", "siblings")
    for p in t.pairings("open", 1):
        t.record_result(p.id, GameResult("blue"))
    t.record_result(1, GameResult("draw"), reason="misread")
    t.pair(2, by_hand=[(1, 2), (3, None)], reason="engine down")
    assert [(e["by"], e["action"], e["detail"]) for e in t.log()] == [
        ("organiser", "event-create", {"name": "Cup"}),
        ("organiser", "event-update", {"venue": "Hall", "tiebreaks": "('wins', 'buchholz')"}),
        (
            "organiser",
            "division",
            {"name": "kids", "system": "swiss", "rounds": 2, "game": "damath"},
        ),
        ("organiser", "player-add", {"player": 1, "name": "Ana", "division": "open"}),
        ("organiser", "player-add", {"player": 2, "name": "Ben", "division": "open"}),
        ("organiser", "player-add", {"player": 3, "name": "Cid", "division": "open"}),
        ("organiser", "player-add", {"player": 4, "name": "Dee", "division": "open"}),
        ("organiser", "player-add", {"player": 5, "name": "Eve", "division": "open"}),
        ("organiser", "player-withdraw", {"player": 5, "after_round": 0, "reason": "ill"}),
        ("arbiter", "player-absent", {"player": 4, "round": 2, "reason": "exam"}),
        ("organiser", "pair", {"division": "open", "round": 1, "tables": 2, "reason": ""}),
        (
            "arbiter",
            "pairing-change",
            {
                "round": 1,
                "division": "open",
                "before": [[1, 1, 3], [2, 4, 2]],
                "after": [[1, 4, 3], [2, 1, 2]],
                "reason": "siblings",
            },
        ),
        ("arbiter", "result", {"pairing": 1, "round": 1, "table": 1, "outcome": "blue",
                               "before": None, "reason": ""}),
        ("arbiter", "result", {"pairing": 2, "round": 1, "table": 2, "outcome": "blue",
                               "before": None, "reason": ""}),
        ("arbiter", "result-correct", {"pairing": 1, "round": 1, "table": 1, "outcome": "draw",
                                       "before": "blue", "reason": "misread"}),
        ("organiser", "pair-by-hand", {"division": "open", "round": 2, "tables": 2,
                                       "reason": "engine down"}),
    ]  # fmt: skip
    # what was changed is what is kept, now and after reopening
    assert t.event.venue == "Hall" and t.event.tiebreaks == ("wins", "buchholz")
    assert t.divisions()["kids"] == Division("kids", "swiss", 2)
    assert [(p.id, p.school) for p in t.players().values()][:2] == [(1, "S1"), (2, "S2")]
    t.close()
    again = Tournament.open(tmp_path / "ev")
    assert again.event.tiebreaks == ("wins", "buchholz") and again.event.venue == "Hall"
    assert again.players()[5].withdrawn_after == 0


# ------------------------------------------------------------------- refusals, word for word


def test_the_event_and_division_settings_refused_say_what_is_allowed(tmp_path):
    def create(event: Event, division: Division, at: str = "x") -> str:
        return refused(lambda: Tournament.create(tmp_path / at, event, division))

    swiss3 = Division("open", "swiss", 3)
    assert create(Event("X", tiebreaks=("luck",)), swiss3) == (
        "unknown tie-break 'luck': one of score-diff, score-total, buchholz, buchholz-cut1, "
        "sonneborn-berger, direct, wins, red-games"
    )
    assert create(Event("X", tiebreaks=("wins", "wins")), swiss3) == "a tie-break is named twice"
    assert create(Event("X", initial_colour="green"), swiss3) == "the initial colour is blue or red"
    assert create(Event("X"), Division("", "swiss", 3)) == "a division needs a name"
    assert create(Event("X"), Division("open", "league")) == (
        "unknown system 'league': one of swiss, round-robin, knockout"
    )
    assert create(Event("X"), Division("open", "swiss", 0)) == (
        "a Swiss needs its number of rounds (--rounds N)"
    )
    one = Tournament.create(tmp_path / "one", Event("X"), Division("open", "swiss", 1))
    assert one.total_rounds("open") == 1  # a one-round Swiss is a Swiss
    t = new(tmp_path)
    assert refused(lambda: t.update_event(tiebreaks="wins")) == "the tie-breaks are a list of names"
    assert t.event.tiebreaks == Event("X").tiebreaks  # unchanged


def test_a_folder_with_a_store_but_no_event_says_so(tmp_path):
    open_store(tmp_path / "ev", create=True).close()
    message = refused(lambda: Tournament.open(tmp_path / "ev"))
    assert message == f"{tmp_path / 'ev' / 'tournament.sqlite'}: the event was never created"


def test_divisions_are_named_when_the_event_cannot_guess_one(tmp_path):
    t = Tournament.create(tmp_path / "ev", Event("Cup"), Division("open", "swiss", 3))
    assert t.division(None).name == "open"  # no players yet, one division
    t.set_division("kids", "round-robin")
    t.add_player("Ana")
    assert t.division(None).name == "open"  # the only division with players
    t.add_player("Ben", division="kids")
    assert refused(lambda: t.division(None)) == (
        "this event has divisions kids, open: name one (--division)"
    )
    assert refused(lambda: t.division("tertiary")) == (
        "no division 'tertiary': the divisions are kids, open"
    )


def test_players_refused_and_found_by_name(tmp_path):
    t = new(tmp_path, names="Ana")
    t.set_division("kids", "swiss", 2)
    t.add_player("ana", division="kids")
    assert (
        refused(lambda: t.player("ANA")) == "'ANA': several players have this name; use the number"
    )
    assert refused(lambda: t.add_player("  ")) == "a player needs a name"
    assert t.add_player("Low", rating=0).rating == 0
    assert t.add_player("High", rating=4000).rating == 4000
    assert refused(lambda: t.add_player("Neg", rating=-1)) == (
        "Neg: rating -1 is not between 0 and 4000"
    )
    assert refused(lambda: t.add_player("Top", rating=4001)) == (
        "Top: rating 4001 is not between 0 and 4000"
    )
    # the same name twice in one list: nobody from it is added
    before = len(t.players())
    assert refused(lambda: t.import_players("name\nZed\nzed\n")) == (
        "zed is already entered in division 'open'"
    )
    assert len(t.players()) == before


def test_a_late_entry_joins_after_its_own_divisions_last_round(tmp_path):
    t = new(tmp_path)
    t.set_division("kids", "swiss", 2)
    for name in ("Kim", "Lee"):
        t.add_player(name, division="kids")
    t.pair(1, "kids")  # the kids have started; the open division has not
    assert t.add_player("Max").joined_round == 1
    assert t.add_player("Nia", division="kids").joined_round == 2


def test_an_absence_is_told_before_the_round_is_paired(tmp_path):
    t = new(tmp_path)
    t.set_division("kids", "swiss", 2)
    for name in ("Kim", "Lee"):
        t.add_player(name, division="kids")
    t.pair(1, "kids")
    t.mark_absent("Ana", 1)  # the open division's round 1 is not paired yet
    t.pair(1, "open")
    assert refused(lambda: t.mark_absent("Ben", 1)) == (
        "round 1 is already paired: record a forfeit instead"
    )


def test_a_started_division_keeps_its_system_and_another_may_still_change(tmp_path):
    t = new(tmp_path)
    t.set_division("kids", "swiss", 2)
    t.pair(1, "open")
    assert t.set_division("kids", "round-robin") == Division("kids", "round-robin", 0)
    assert refused(lambda: t.set_division("open", "knockout")) == (
        "division 'open' has started: its system and its game are fixed"
    )


# ---------------------------------------------------------------------------- pairing


def test_pairing_refusals_name_the_round_and_the_way_out(tmp_path):
    t = new(tmp_path)
    t.pair(1)
    assert refused(lambda: t.pair(1)) == (
        "round 1 of division 'open' is already paired (see `hub pairings`; the arbiter can "
        "change a pairing with a reason)"
    )
    assert refused(lambda: t.pairing(2, 1)) == "round 2 of division 'open' is not paired yet"
    assert refused(lambda: t.pairing(1, 9)) == "round 1 of division 'open' has no table 9"
    for p in t.pairings("open", 1):
        t.record_result(p.id, GameResult("draw"))
    by_hand = [(1, 2), (3, None), (4, None)]
    assert refused(lambda: t.pair(2, by_hand=by_hand)) == (
        "pairing a round by hand needs a reason (--reason)"
    )
    assert refused(lambda: t.pair(2, by_hand=by_hand, reason="x")) == "more than one bye"
    assert refused(lambda: t.pair(2, by_hand=[(1, 2), (2, 3)], reason="x")) == (
        "a player is paired twice"
    )
    assert refused(lambda: t.pair(2, by_hand=[(1, 2)], reason="x")) == "not paired: 3, 4"


def test_divisions_side_by_side_keep_to_their_own_players_and_rounds(tmp_path):
    t = new(tmp_path)
    t.set_division("kids", "knockout")
    for name in ("Kim", "Lee", "Mae", "Ned"):
        t.add_player(name, division="kids")
    opened = t.pair(1, "open")  # left without results
    kids = t.pair(1, "kids")  # pairing the kids needs no result of the open division
    assert [p.division for p in kids] == ["kids", "kids"]
    assert kids == t.pairings("kids", 1)
    assert t.pairing(1, 1, "kids") == kids[0] and t.pairing(1, 1, "open") == opened[0]
    message = refused(lambda: t.pair(2, "open", by_hand=[(1, 5), (2, 3), (4, None)], reason="x"))
    assert message == "round 1, table 1 has no result yet: record it before pairing round 2"
    for p in opened:
        t.record_result(p.id, GameResult("blue"))
    assert refused(lambda: t.pair(2, "open", by_hand=[(1, 5), (2, 3), (4, None)], reason="x")) == (
        "player 5 is not playing in round 2 of 'open'"
    )
    for p in kids:
        t.record_result(p.id, GameResult("red"))
    # the kids' final: the winners of the kids' round 1 only
    (final,) = t.pair(2, "kids")
    assert {final.blue, final.red} == {p.red for p in kids}


def test_the_drawn_initial_colour_goes_to_pairing_number_one(tmp_path):
    t = new(tmp_path, initial_colour="red")
    assert [(p.blue, p.red) for p in t.pair(1)] == [(3, 1), (2, 4)]


def test_a_field_of_two_can_be_paired(tmp_path):
    t = new(tmp_path, names="Ana Ben")
    assert [(p.blue, p.red) for p in t.pair(1)] == [(1, 2)]
    rr = new(tmp_path / "rr", system="round-robin", rounds=0, names="Ana Ben")
    assert rr.total_rounds("open") == 1 and len(rr.pair(1)) == 1
    lone = new(tmp_path / "lone", names="Ana")
    assert refused(lambda: lone.pair(1)) == "division 'open': fewer than 2 players to pair"
    lone_rr = new(tmp_path / "lone_rr", system="round-robin", rounds=0, names="Ana")
    assert refused(lambda: lone_rr.pair(1)) == "division 'open': fewer than 2 players to pair"


@pytest.mark.parametrize(("players", "rounds"), [(4, 3), (5, 5), (6, 5), (7, 7)])
def test_a_round_robin_has_a_round_for_each_opponent(tmp_path, players, rounds):
    t = new(tmp_path, system="round-robin", rounds=0, names=" ".join("ABCDEFG"[:players]))
    assert t.total_rounds("open") == rounds


def test_a_round_robin_of_a_wrong_length_says_which_lengths_it_may_have(tmp_path):
    t = new(tmp_path, system="round-robin", rounds=5)
    assert (
        refused(lambda: t.pair(1)) == "a round robin of 4 has 3 rounds (or 6 played twice), not 5"
    )


def test_a_double_round_robin_meets_everyone_twice_with_colours_reversed(tmp_path):
    t = new(tmp_path, system="round-robin", rounds=6)
    games = []
    for rnd in range(1, 7):
        for p in t.pair(rnd):
            games.append((rnd, p.blue, p.red))
            t.record_result(p.id, GameResult("draw"))
    first = {(b, r) for rnd, b, r in games if rnd <= 3}
    second = {(b, r) for rnd, b, r in games if rnd > 3}
    assert len(first) == 6 and second == {(r, b) for b, r in first}


def test_seeds_order_by_rating_a_rating_of_zero_below_one(tmp_path):
    t = Tournament.create(tmp_path / "ev", Event("Cup"), Division("open", "knockout"))
    t.add_player("Zero", rating=0)
    t.add_player("One", rating=1)
    t.add_player("Unrated")
    assert [(p.blue, p.red) for p in t.pair(1)] == [(2, None), (1, 3)]


# ---------------------------------------------------------------------------- knockout, withdrawals


def test_a_knockout_forfeit_sends_the_player_who_came_through(tmp_path):
    t = new(tmp_path, system="knockout", rounds=0)
    first = t.pair(1)
    assert [(p.blue, p.red) for p in first] == [(1, 4), (2, 3)]
    t.record_result(first[0].id, GameResult("blue-forfeit"))  # 4 did not come
    t.record_result(first[1].id, GameResult("red-forfeit"))  # 2 did not come
    assert [(p.blue, p.red) for p in t.pair(2)] == [(1, 3)]


def test_a_knockout_game_needs_a_winner_even_by_forfeit(tmp_path):
    t = new(tmp_path, system="knockout", rounds=0)
    game = t.pair(1)[0]
    assert refused(lambda: t.record_result(game.id, GameResult("double-forfeit"))) == (
        "a knockout game needs a winner (after its deciding game)"
    )


def test_a_player_withdrawn_before_the_knockout_forfeits_after_a_bye(tmp_path):
    t = new(tmp_path, system="knockout", rounds=0, names="A B C D E")
    t.withdraw("E")
    first = t.pair(1)  # a bye comes first in the bracket, then 4 against the withdrawn 5
    assert [(p.blue, p.red) for p in first][:2] == [(1, None), (4, 5)]
    (record,) = t.result_records()
    assert (record.pairing, record.result, record.by, record.reason) == (
        first[1].id,
        GameResult("blue-forfeit", source="arbiter"),
        "organiser",
        "withdrawn",
    )


def test_two_withdrawn_players_who_meet_both_forfeit(tmp_path):
    t = new(tmp_path, system="round-robin", rounds=0)
    seen = {}
    for rnd in (1, 2, 3):
        if rnd == 2:
            t.withdraw("Ana")
            t.withdraw("Ben")
        for p in t.pair(rnd):
            if p.id not in t.results():
                t.record_result(p.id, GameResult("draw"))
            seen[frozenset(p.players())] = (p, t.results()[p.id].outcome)
    assert len(seen) == 6  # everyone met everyone once
    for pair, (p, outcome) in seen.items():
        if p.round == 1:
            assert outcome == "draw"
        elif pair == {1, 2}:
            assert outcome == "double-forfeit"
        elif pair & {1, 2}:
            assert outcome == ("red-forfeit" if p.blue in (1, 2) else "blue-forfeit")
        else:
            assert outcome == "draw"


# ---------------------------------------------------------------------------- exchanges


def test_exchanges_refused_say_why(tmp_path):
    t = new(tmp_path, names="Ana Ben Cid Dee Eve")
    assert refused(lambda: t.exchange(1, "Ana", "Ben", " ")) == (
        "changing a pairing needs a reason (--reason)"
    )
    assert refused(lambda: t.exchange(1, "Ana", "Ana", "x")) == (
        "name two different players to exchange"
    )
    assert refused(lambda: t.exchange(1, "Ana", "Ben", "x")) == (
        "round 1 of division 'open' is not paired yet"
    )
    made = t.pair(1)
    assert [(p.blue, p.red) for p in made] == [(1, 3), (4, 2), (5, None)]
    # the bye's player and a player at a table change places: the bye moves with the seat
    after = t.exchange(1, "Ben", "Eve", "x")
    assert [(p.blue, p.red) for p in after] == [(1, 3), (4, 5), (2, None)]
    t.withdraw("Eve")
    t.add_player("Fay")  # entered after round 1 was paired: not in it
    assert refused(lambda: t.exchange(1, "Ana", "Fay", "x")) == "Fay is not paired in round 1"


def test_exchanging_a_red_seat_with_a_blue_seat(tmp_path):
    t = new(tmp_path)
    assert [(p.blue, p.red) for p in t.pair(1)] == [(1, 3), (4, 2)]
    after = t.exchange(1, "Cid", "Dee", "school rule")  # Cid sat Red at 1, Dee Blue at 2
    assert [(p.blue, p.red) for p in after] == [(1, 4), (3, 2)]


# ---------------------------------------------------------------------------- results


def test_result_refusals_say_what_the_table_is_and_what_to_do(tmp_path):
    t = new(tmp_path, names="Ana Ben Cid")
    game, bye = t.pair(1)
    assert refused(lambda: t.record_result(bye.id, GameResult("blue"))) == (
        "round 1, table 2 is a bye: its result is the bye"
    )
    assert refused(lambda: t.record_result(game.id, GameResult("bye"))) == (
        "round 1, table 1 is a game, not a bye"
    )
    t.record_result(game.id, GameResult("blue"))
    assert refused(lambda: t.record_result(game.id, GameResult("red"))) == (
        "round 1, table 1 already has a result (blue); a correction needs a reason (--reason)"
    )
    assert refused(lambda: t.record_result(game.id, GameResult("blue"), reason="again")) == (
        "this is already the recorded result"
    )


def test_scores_must_agree_with_the_result_unless_the_arbiter_or_the_board_says(tmp_path):
    t = new(tmp_path, names="Ana Ben Cid Dee Eve Fay")
    a, b, c = t.pair(1)
    assert refused(lambda: t.record_result(a.id, GameResult("blue", *score("7", "7")))) == (
        "the scores say draw, the result says blue: check the sheet (an arbiter's decision "
        "against the scores is recorded with --by-arbiter)"
    )
    assert refused(lambda: t.record_result(a.id, GameResult("draw", *score("7", "5")))) == (
        "the scores say blue, the result says draw: check the sheet (an arbiter's decision "
        "against the scores is recorded with --by-arbiter)"
    )
    t.record_result(a.id, GameResult("draw", *score("7", "7")))
    t.record_result(b.id, GameResult("red", *score("9", "2"), source="arbiter"))  # on time
    t.record_result(c.id, GameResult("blue", *score("1", "4"), source="board"))  # resigned
    assert [t.results()[p.id].outcome for p in (a, b, c)] == ["draw", "red", "blue"]


# -------------------------------------------------------------------- after the first after-run


def test_defaults_when_the_organiser_says_no_more(tmp_path):
    assert refused(
        lambda: Tournament.create(tmp_path / "x", Event("  "), Division("o", "swiss", 3))
    ) == ("the event needs a name")
    t = new(tmp_path, names="")
    assert t.add_player("Ana").school == ""
    assert t.set_division("kids", rounds=3) == Division("kids", "swiss", 3)
    t.add_players([("Ben", "", "", None)])
    t.import_players("name\nCid\n", by="clerk")
    t.add_player("Dee", by="clerk")
    t.withdraw("Dee")
    t.mark_absent("Cid", 2)
    log = [(e["by"], e["action"], e["detail"].get("reason")) for e in t.log()]
    assert log[-6:] == [
        ("organiser", "division", None),
        ("organiser", "player-add", None),
        ("clerk", "player-add", None),
        ("clerk", "player-add", None),
        ("organiser", "player-withdraw", ""),
        ("arbiter", "player-absent", ""),
    ]


def test_a_withdrawal_is_dated_by_the_players_own_division(tmp_path):
    t = new(tmp_path)
    t.set_division("kids", "swiss", 3)
    for name in ("Kim", "Lee"):
        t.add_player(name, division="kids")
    t.pair(1, "kids")  # the kids are in round 1; the open division has not begun
    assert t.withdraw("Ana").withdrawn_after == 0
    assert t.withdraw("Kim").withdrawn_after == 1


def test_an_odd_round_robin_may_name_its_rounds(tmp_path):
    t = new(tmp_path, system="round-robin", rounds=5, names="A B C D E")
    assert t.total_rounds("open") == 5 and len(t.pair(1)) == 3


def test_each_division_ranks_its_own_players_by_the_events_tiebreaks(tmp_path):
    t = new(tmp_path, names="Ana Ben", tiebreaks=("wins",))
    t.set_division("kids", "swiss", 3)
    for name in ("Kim", "Lee"):
        t.add_player(name, division="kids")
    (game,) = t.pair(1, "open")
    t.record_result(game.id, GameResult("blue"))
    (kids,) = t.pair(1, "kids")
    t.record_result(kids.id, GameResult("red"))
    table = t.standings("open")
    assert [(s.player.name, s.points, len(s.rounds)) for s in table] == [
        ("Ana", 1, 1),
        ("Ben", 0, 1),
    ]
    assert list(table[0].tiebreaks) == ["wins"]
    assert [s.player.name for s in t.standings("kids")] == ["Lee", "Kim"]


def test_an_exchange_in_one_division_leaves_the_other_alone(tmp_path):
    t = new(tmp_path)
    t.set_division("kids", "swiss", 3)
    for name in ("Kim", "Lee", "May", "Ned"):
        t.add_player(name, division="kids")
    t.pair(1, "kids")
    assert refused(lambda: t.exchange(1, "Ana", "Ben", "x")) == (
        "round 1 of division 'open' is not paired yet"
    )
    assert (
        refused(lambda: t.pairing(1, 1, "open")) == "round 1 of division 'open' is not paired yet"
    )
    t.pair(1, "open")
    kids_before = [(p.blue, p.red) for p in t.pairings("kids", 1)]
    after = t.exchange(1, "Kim", "Lee", "siblings")  # the division is the players' own
    assert [p.division for p in after] == ["kids", "kids"]
    assert [(p.blue, p.red) for p in after] != kids_before
    assert [(p.blue, p.red) for p in t.pairings("open", 1)] == [(1, 3), (4, 2)]
