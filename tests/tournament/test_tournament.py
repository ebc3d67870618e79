"""The event as the organiser runs it, on a real SQLite file: each rule the issue names."""

from __future__ import annotations

import sqlite3

import pytest

from controller.tournament.damath_scores import parse_score
from controller.tournament.model import Division, Event, GameResult, TournamentError
from controller.tournament.tournament import Tournament


def new(tmp_path, system="swiss", rounds=4, names="Ana Ben Cid Dee Eve Fay", **kw):
    t = Tournament.create(tmp_path / "ev", Event("Cup", **kw), Division("open", system, rounds))
    for i, name in enumerate(names.split()):
        t.add_player(name, school=f"S{i % 2}", rating=2000 - 10 * i)
    return t


def play_round(t, rnd, outcome="blue"):
    for p in t.pair(rnd):
        if not p.is_bye:
            t.record_result(p.id, GameResult(outcome))


def test_the_file_is_wal_with_full_sync_and_survives_reopening(tmp_path):
    t = new(tmp_path)
    play_round(t, 1)
    t.close()
    db = sqlite3.connect(tmp_path / "ev" / "tournament.sqlite")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    t = Tournament.open(tmp_path / "ev")
    assert t.store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert len(t.pairings("open", 1)) == 3 and len(t.results()) == 3


def test_a_swiss_never_pairs_the_same_players_twice(tmp_path):
    t = new(tmp_path, rounds=5)
    met = set()
    for rnd in range(1, 6):
        play_round(t, rnd, "draw" if rnd % 2 else "red")
        for p in t.pairings("open", rnd):
            pair = frozenset(p.players())
            assert pair not in met
            met.add(pair)
    assert len(met) == 15  # 6 players, 5 rounds: everyone met everyone


def test_byes_go_to_the_lowest_ranked_without_one(tmp_path):
    t = new(tmp_path, names="Ana Ben Cid Dee Eve")
    byes = []
    for rnd in range(1, 4):
        play_round(t, rnd)
        byes += [p.blue for p in t.pairings("open", rnd) if p.is_bye]
    assert byes[0] == 5  # Eve, the lowest rated
    assert len(set(byes)) == 3  # never twice


def test_a_round_is_paired_once_and_in_order(tmp_path):
    t = new(tmp_path)
    with pytest.raises(TournamentError, match="pair round 1 first"):
        t.pair(2)
    t.pair(1)
    with pytest.raises(TournamentError, match="already paired"):
        t.pair(1)
    with pytest.raises(TournamentError, match="round 1, table 1 has no result yet"):
        t.pair(2)


def test_withdrawal_late_entry_and_absence(tmp_path):
    t = new(tmp_path)
    play_round(t, 1)
    t.withdraw("Fay", reason="ill")
    late = t.add_player("Gil", rating=1500)
    assert late.joined_round == 2
    t.mark_absent("Ana", 2)
    paired = {pid for p in t.pair(2) for pid in p.players()}
    assert paired == {2, 3, 4, 5, late.id}
    with pytest.raises(TournamentError, match="already withdrawn"):
        t.withdraw("Fay")


def test_a_result_must_fit_its_pairing_and_a_correction_needs_a_reason(tmp_path):
    t = new(tmp_path, names="Ana Ben Cid")
    game, bye = t.pair(1)
    with pytest.raises(TournamentError, match="a bye"):
        t.record_result(bye.id, GameResult("blue"))
    with pytest.raises(TournamentError, match="never paired"):
        t.record_result(999, GameResult("blue"))
    with pytest.raises(TournamentError, match="the scores say red"):
        t.record_result(game.id, GameResult("blue", parse_score("3"), parse_score("5")))
    t.record_result(game.id, GameResult("red", parse_score("3"), parse_score("5")))
    with pytest.raises(TournamentError, match="needs a reason"):
        t.record_result(game.id, GameResult("blue"))
    t.record_result(game.id, GameResult("blue", source="arbiter"), reason="flag fell first")
    history = [r.result.outcome for r in t.result_records() if r.pairing == game.id]
    assert history == ["red", "blue"]  # the first record is kept
    last = t.log()[-1]
    assert last["action"] == "result-correct" and last["detail"]["reason"] == "flag fell first"


def test_the_arbiter_exchanges_players_with_a_logged_reason(tmp_path):
    t = new(tmp_path)
    before = t.pair(1)
    a, b = before[0].blue, before[1].red
    with pytest.raises(TournamentError, match="needs a reason"):
        t.exchange(1, a, b, " ")
    after = t.exchange(1, a, b, "siblings must not meet")
    assert (after[0].blue, after[1].red) == (b, a)
    entry = t.log()[-1]
    assert entry["action"] == "pairing-change" and entry["detail"]["reason"]
    swapped = t.exchange(1, after[2].blue, after[2].red, "colour error")
    assert (swapped[2].blue, swapped[2].red) == (after[2].red, after[2].blue)
    t.record_result(after[0].id, GameResult("draw"))
    with pytest.raises(TournamentError, match="has a result"):
        t.exchange(1, b, after[0].red, "too late")


def test_a_round_robin_of_six_and_a_withdrawn_player_forfeits(tmp_path):
    t = new(tmp_path, system="round-robin", rounds=0)
    assert t.total_rounds("open") == 5
    play_round(t, 1)
    with pytest.raises(TournamentError, match="no late entries"):
        t.add_player("Late")
    t.withdraw("Fay")
    for p in t.pair(2):
        if 6 in p.players():
            r = t.results()[p.id]
            assert r.outcome == ("red-forfeit" if p.blue == 6 else "blue-forfeit")
    met = {frozenset(p.players()) for p in t.pairings("open", 1) + t.pairings("open", 2)}
    assert len(met) == 6


def test_divisions_run_side_by_side(tmp_path):
    t = new(tmp_path)
    t.set_division("secondary", "round-robin")
    for n in ("Xia", "Yul", "Zoe", "Wes"):
        t.add_player(n, division="secondary")
    with pytest.raises(TournamentError, match="name one"):
        t.pair(1)
    assert len(t.pair(1, "open")) == 3 and len(t.pair(1, "secondary")) == 2
    assert {s.player.name for s in t.standings("secondary")} == {"Xia", "Yul", "Zoe", "Wes"}
    with pytest.raises(TournamentError, match="no division 'tertiary'"):
        t.add_player("Q", division="tertiary")


def test_a_knockout_needs_winners_and_seeds_meet_late(tmp_path):
    t = new(tmp_path, system="knockout", rounds=0, names="A B C D E")
    first = t.pair(1)  # 8-slot bracket: seeds 1, 2, 3 get byes
    assert [(p.blue, p.red) for p in first] == [(1, None), (4, 5), (2, None), (3, None)]
    with pytest.raises(TournamentError, match="needs a winner"):
        t.record_result(first[1].id, GameResult("draw"))
    t.record_result(first[1].id, GameResult("red"))  # 5 beats 4
    second = t.pair(2)
    assert [(p.blue, p.red) for p in second] == [(1, 5), (2, 3)]
    for p in second:
        t.record_result(p.id, GameResult("blue"))
    assert [(p.blue, p.red) for p in t.pair(3)] == [(1, 2)]
    with pytest.raises(TournamentError, match="all are paired"):
        t.pair(4)


def test_an_event_is_created_once(tmp_path):
    new(tmp_path).close()
    with pytest.raises(TournamentError, match="already exists"):
        Tournament.create(tmp_path / "ev", Event("Again"), Division("open", "swiss", 3))
    with pytest.raises(TournamentError, match="no event here"):
        Tournament.open(tmp_path / "nothing")
    with pytest.raises(TournamentError, match="unknown tie-break"):
        Tournament.create(
            tmp_path / "x", Event("X", tiebreaks=("luck",)), Division("o", "swiss", 3)
        )


def test_a_file_that_is_not_a_tournament_is_refused(tmp_path):
    (tmp_path / "ev").mkdir()
    (tmp_path / "ev" / "tournament.sqlite").write_bytes(b"not a database" * 100)
    with pytest.raises(TournamentError, match="not a tournament file"):
        Tournament.open(tmp_path / "ev")


def test_the_arbiter_pairs_a_round_by_hand(tmp_path):
    t = new(tmp_path, names="Ana Ben Cid Dee Eve")
    with pytest.raises(TournamentError, match="needs a reason"):
        t.pair(1, by_hand=[(1, 2), (3, 4), (5, None)])
    with pytest.raises(TournamentError, match="not paired: 5"):
        t.pair(1, by_hand=[(1, 2), (3, 4)], reason="x")
    with pytest.raises(TournamentError, match="paired twice"):
        t.pair(1, by_hand=[(1, 2), (2, 4), (5, None)], reason="x")
    with pytest.raises(TournamentError, match="player 9 is not playing"):
        t.pair(1, by_hand=[(1, 9), (3, 4), (5, None)], reason="x")
    made = t.pair(1, by_hand=[(2, 1), (3, 4), (5, None)], reason="the engine was down")
    assert [(p.blue, p.red) for p in made] == [(2, 1), (3, 4), (5, None)]
    assert t.log()[-1]["action"] == "pair-by-hand"


def test_an_engine_failure_is_a_message(tmp_path, monkeypatch):
    import caissify_pairings

    def broken(**_):
        raise RuntimeError("matching did not converge")

    monkeypatch.setattr(caissify_pairings, "generate_pairings", broken)
    t = new(tmp_path)
    with pytest.raises(TournamentError, match=r"could not pair this round .*did not converge"):
        t.pair(1)
    assert t.pairings() == []


def test_a_swiss_longer_than_the_field_allows_says_so(tmp_path, capsys):
    t = new(tmp_path, rounds=5, names="A B C D")
    for rnd in (1, 2, 3):
        play_round(t, rnd, "draw")
    with pytest.raises(TournamentError, match="no pairing of this round avoids a rematch"):
        t.pair(4)
    assert t.pairings("open", 4) == []
    assert capsys.readouterr().err == ""  # the engine's own warnings do not leak


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ([{"white_id": 1, "black_id": 2, "table": 1}], "did not pair every player"),
        (
            [
                {"white_id": 1, "black_id": 2, "table": 1},
                {"white_id": 3, "black_id": 4, "table": 2},
                {"white_id": 5, "black_id": 6, "table": 3},
            ],
            "paired 1 and 2 a second time",
        ),
    ],
)
def test_a_wrong_engine_answer_is_refused_not_stored(tmp_path, monkeypatch, answer, message):
    import caissify_pairings

    t = new(tmp_path)
    made = t.pair(1, by_hand=[(1, 2), (3, 4), (5, 6)], reason="drawn on stage")
    for p in made:
        t.record_result(p.id, GameResult("draw"))
    monkeypatch.setattr(caissify_pairings, "generate_pairings", lambda **_: answer)
    with pytest.raises(TournamentError, match=message):
        t.pair(2)
    assert t.pairings("open", 2) == []
