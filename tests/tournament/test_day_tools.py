"""What a tournament day asks of the tournament itself (issue 26): a player named by a part of
the name, edited with the change logged, a grade from the CSV; the schools' ranking (best N
players, its tie-breaks worked out by hand); the printed pairings and find-your-table lists;
the event's clock start rule and team size; a version-1 file opened by this version."""

from __future__ import annotations

import json
import sqlite3
from fractions import Fraction

import pytest

from controller.cli import main
from controller.tournament import printing
from controller.tournament.damath_scores import parse_score
from controller.tournament.model import Division, Event, GameResult, TournamentError
from controller.tournament.store import FILE_NAME
from controller.tournament.teams import team_standings
from controller.tournament.tournament import Tournament

ROSTER = """name,school,grade,rating
Paolo Reyes,Mabini NHS,Grade 9,1600
Ana Cruz,Rizal HS,Grade 10,1550
Ben Lim,Mabini NHS,Grade 8,1500
Cara Diaz,Rizal HS,Grade 10,1450
Dan Uy,Quezon HS,,1400
Niño Santos,Quezon HS,Grade 7,1350
"""


@pytest.fixture
def t(tmp_path):
    t = Tournament.create(
        tmp_path / "cup",
        Event("Cup", initial_colour="blue", team_size=2),
        Division("open", "swiss", 3),
    )
    t.import_players(ROSTER)
    yield t
    t.close()


def test_a_player_is_found_by_a_part_of_the_name_that_only_they_have(t):
    assert t.player("Paolo").name == "Paolo Reyes"
    assert t.player("reyes").name == "Paolo Reyes"
    assert t.player("nino").name == "Niño Santos"  # accents and case aside
    assert t.player("3").name == "Ben Lim"
    with pytest.raises(TournamentError, match=r"could be Cara Diaz \(4\), Dan Uy \(5\)"):
        t.player("d")  # Diaz, Dan: the start of a word of both
    with pytest.raises(TournamentError, match="no player 'Zed'"):
        t.player("Zed")


def test_withdraw_by_a_unique_name_on_the_command_line(t, capsys):
    folder = str(t.store.path.parent)
    assert main(["hub", "player", "withdraw", "Paolo", "--reason", "ill", "--dir", folder]) == 0
    assert "Paolo Reyes withdrawn" in capsys.readouterr().out
    assert t.player(1).withdrawn_after == 0


def test_an_edit_is_checked_and_logged_with_what_it_was(t, capsys):
    p = t.edit_player("Ben", name="Benjamin Lim", grade="Grade 9", reason="as on his ID")
    assert (p.name, p.school, p.grade, p.rating) == ("Benjamin Lim", "Mabini NHS", "Grade 9", 1500)
    (entry,) = [x for x in t.log() if x["action"] == "player-edit"]
    assert entry["detail"]["name"] == {"before": "Ben Lim", "after": "Benjamin Lim"}
    assert entry["detail"]["grade"] == {"before": "Grade 8", "after": "Grade 9"}
    assert "school" not in entry["detail"] and entry["detail"]["reason"] == "as on his ID"
    with pytest.raises(TournamentError, match="already entered"):
        t.edit_player("Benjamin", name="ana cruz")
    with pytest.raises(TournamentError, match="nothing to change"):
        t.edit_player("Benjamin", school="Mabini NHS")
    folder = str(t.store.path.parent)
    assert main(["hub", "player", "edit", "Dan", "--rating", "none", "--dir", folder]) == 0
    assert "Dan Uy (Quezon HS), rating 1400" in capsys.readouterr().out  # the line says what it was
    assert t.player("Dan").rating is None
    assert main(["hub", "player", "edit", "Dan", "--rating", "x", "--dir", folder]) == 2
    assert "--rating 'x': a whole number, or none" in capsys.readouterr().err


def test_the_schools_ranking_counts_each_schools_best_players(t):
    """Round 1 (by rating: 1–4, 2–5, 3–6): Paolo beats Cara 10:4, Ana draws Dan 5:5, Ben beats
    Niño 3:1. Best 2 of each school: Mabini NHS Paolo 1 + Ben 1 = 2; Rizal HS Ana ½ + Cara 0 =
    ½ (diff 0 + −6 = −6); Quezon HS Dan ½ + Niño 0 = ½ (diff 0 + −2 = −2): Quezon before
    Rizal on the score difference."""
    t.pair(1)
    scores = {1: ("blue", "10", "4"), 2: ("draw", "5", "5"), 3: ("blue", "3", "1")}
    for p in t.pairings("open", 1):
        outcome, blue, red = scores[p.table]
        t.record_result(p.id, GameResult(outcome, parse_score(blue), parse_score(red)))
    teams = team_standings(t.standings("open"), t.event.team_size)
    got = [(x.rank, x.school, x.points, str(x.score_diff.a)) for x in teams]
    assert got == [
        (1, "Mabini NHS", Fraction(2), "8"),
        (2, "Quezon HS", Fraction(1, 2), "-2"),
        (3, "Rizal HS", Fraction(1, 2), "-6"),
    ]
    assert [s.player.name for s in teams[0].counted] == ["Paolo Reyes", "Ben Lim"]
    assert team_standings(t.standings("open"), 0) == []  # no team ranking
    page = printing.teams_page(t, "open")
    assert "Mabini NHS" in page and "Paolo Reyes\u00a0(1)" in page and "best 2 players" in page


def test_schools_tied_on_points_and_difference_go_by_their_best_player(tmp_path):
    """By rating, round 1 is A1 v A2 and B1 v B2 (team size 2): each school has 1 point and a
    difference of 0 whatever the scores. A1 wins 4:0, B1 3:1: A1 ranks first, so Alpha does;
    with equal scores the two winners share their rank, and so do the schools."""
    results = {"split": (("4", "0"), ("3", "1")), "equal": (("3", "1"), ("3", "1"))}
    got = {}
    for name, scores in results.items():
        t = Tournament.create(tmp_path / name, Event("C", initial_colour="blue", team_size=2),
                              Division("open", "swiss", 1))  # fmt: skip
        t.import_players("name,school,rating\nA1,Alpha,1900\nB1,Beta,1800\nA2,Alpha,1700\n"
                         "B2,Beta,1600\n")  # fmt: skip
        t.pair(1)
        for p, (blue, red) in zip(t.pairings("open", 1), scores, strict=True):
            t.record_result(p.id, GameResult("blue", parse_score(blue), parse_score(red)))
        teams = team_standings(t.standings("open"), 2)
        got[name] = [(x.rank, x.school, x.shared, str(x.score_diff.a)) for x in teams]
        t.close()
    assert got["split"] == [(1, "Alpha", False, "0"), (2, "Beta", False, "0")]
    assert got["equal"] == [(1, "Alpha", True, "0"), (1, "Beta", True, "0")]


def test_printed_lists_by_table_and_by_name(t):
    t.pair(1)
    rows = printing.pairings_rows(t, "open", 1)
    assert rows[0] == ["Table", "Board", "Blue (moves first)", "Red", "Result"]
    assert rows[1][:4] == ["1", "", "Paolo Reyes (Mabini NHS)", "Cara Diaz (Rizal HS)"]
    names = [r[0] for r in printing.find_table_rows(t, "open", 1)[1:]]
    assert names == ["Ana Cruz", "Ben Lim", "Cara Diaz", "Dan Uy", "Niño Santos", "Paolo Reyes"]
    paolo = printing.find_table_rows(t, "open", 1)[-1]
    assert paolo == ["Paolo Reyes", "Mabini NHS", "1", "Blue", "Cara Diaz"]
    from controller.i18n import use

    with use("fil"):
        page = printing.find_table_page(t, "open", 1)
    assert 'lang="fil"' in page and "Asul" in page


def test_the_event_settings_of_the_day_are_checked(t, capsys):
    folder = str(t.store.path.parent)
    assert t.event.start == "desk" and t.event.team_size == 2
    assert (
        main(["hub", "event", "set", "--start", "table", "--team-size", "4", "--dir", folder]) == 0
    )
    capsys.readouterr()
    assert main(["hub", "event", "show", "--json", "--dir", folder]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert (shown["start"], shown["team_size"]) == ("table", 4)
    assert main(["hub", "event", "set", "--team-size", "99", "--dir", folder]) == 2
    assert "best 1 to 20 players" in capsys.readouterr().err
    with pytest.raises(TournamentError, match="desk or table"):
        t.update_event(start="whenever")


def test_a_version_1_file_gets_the_day_s_columns(tmp_path):
    """A file written before the clock start rule, the team size and the grade existed."""
    folder = tmp_path / "old"
    t = Tournament.create(folder, Event("Old", initial_colour="blue"), Division("open", "swiss", 2))
    t.add_player("Ana")
    t.close()
    db = sqlite3.connect(folder / FILE_NAME)
    db.executescript(
        """
        CREATE TABLE e2 AS SELECT id, name, date, venue, variant, profile, time_control, points,
            tiebreaks, initial_colour FROM event;
        DROP TABLE event; ALTER TABLE e2 RENAME TO event;
        CREATE TABLE p2 AS SELECT id, name, school, division, rating, joined_round,
            withdrawn_after FROM player;
        DROP TABLE player; ALTER TABLE p2 RENAME TO player;
        PRAGMA user_version=1;
        """
    )
    db.close()
    t = Tournament.open(folder)
    assert (t.event.start, t.event.team_size) == ("desk", 3)
    assert t.player("Ana").grade == ""
    t.add_player("Ben", grade="Grade 6")
    assert t.player("Ben").grade == "Grade 6"
    t.close()
