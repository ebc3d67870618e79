"""A division names its game: pairings, results, standings and exports per game, each game's
result with its own score (Damath's exact scores, Mathematical Chess's points, none for Dam,
English draughts and Dadama) and tie-breaks; an old event file reads as Damath.

Every standings table here is worked out by hand in the comments beside it."""

from __future__ import annotations

import json
import sqlite3
from fractions import Fraction

import pytest

from controller import registry
from controller.record.games import NAMES
from controller.tournament.games import GAMES
from controller.tournament.model import GameResult, TournamentError
from controller.tournament.store import FILE_NAME
from controller.tournament.tournament import Tournament

from .test_cli import hub

PLAYERS = (("Ana", 1900), ("Ben", 1800), ("Cid", 1700), ("Dee", 1600))


def _division(tmp_path, capsys, game: str):
    """An event whose second division ``kids`` plays ``game``: a round robin of four."""
    d = tmp_path / "hall"
    assert hub(d, "event", "create", "--name", "Hall Day", "--system", "round-robin") == 0
    assert hub(d, "division", "set", "kids", "--system", "round-robin", "--game", game) == 0
    for name, rating in PLAYERS:
        assert hub(d, "player", "add", name, "--division", "kids", "--rating", str(rating)) == 0
    assert hub(d, "pair", "--round", "1", "--division", "kids") == 0
    capsys.readouterr()
    return d


Game = tuple[str, str, str, tuple[int, int] | None]
"""``a``, ``b``, ``a``'s result (``win``, ``draw``, ``loss``) and their scores, ``a``'s first."""


def _play(d, games: list[Game]) -> None:
    """The round robin played round by round, each result typed as the arbiter would."""
    for rnd in (1, 2, 3):
        if rnd > 1:
            assert hub(d, "pair", "--round", str(rnd), "--division", "kids") == 0
        t = Tournament.open(d)
        names = {p.id: p.name for p in t.players("kids").values()}
        tables = t.pairings("kids", rnd)
        t.close()
        for p in tables:
            assert p.red is not None
            blue, red = names[p.blue], names[p.red]
            found = [g for g in games if {g[0], g[1]} == {blue, red}]
            a, _, result, scores = found[0]
            a_blue = a == blue
            word = {"draw": "draw", "win": "blue" if a_blue else "red"}.get(
                result, "red" if a_blue else "blue"
            )
            argv = ["result", "--division", "kids", "--round", str(rnd), "--table", str(p.table)]
            if scores is not None:
                x, y = scores if a_blue else scores[::-1]
                argv += ["--scores", f"{x}:{y}"]
            assert hub(d, *argv, word) == 0


def _standings(d, capsys) -> dict:
    assert hub(d, "standings", "--division", "kids", "--json") == 0
    out = capsys.readouterr().out
    return json.loads(out[out.index("{") :])


def test_the_tournaments_games_are_the_boards_games():
    assert tuple(GAMES) == NAMES


@pytest.mark.slow
@pytest.mark.parametrize("game", ["dam", "english", "dadama"])
def test_a_game_without_scores_ranks_by_win_draw_loss_and_its_tie_breaks(tmp_path, capsys, game):
    d = _division(tmp_path, capsys, game)
    # Ana beats Ben and Dee, loses to Cid: 2; Ben beats Cid and Dee: 2; Cid beats Ana, draws
    # Dee: 1½; Dee: ½. Ana and Ben are tied on 2: Buchholz cut 1 ties them too (3½ each: 2 +
    # 1½ + ½ less ½), Sonneborn-Berger splits them: Ana beat Ben (2) and Dee (½) = 2½, Ben beat
    # Cid (1½) and Dee (½) = 2.
    _play(d, [("Ana", "Ben", "win", None), ("Ana", "Cid", "loss", None),
              ("Ana", "Dee", "win", None), ("Ben", "Cid", "win", None),
              ("Ben", "Dee", "win", None), ("Cid", "Dee", "draw", None)])  # fmt: skip
    data = _standings(d, capsys)
    assert data["tiebreaks"] == ["buchholz-cut1", "sonneborn-berger", "direct", "wins"]
    rows = [
        (r["rank"], r["name"], r["points_text"], r["tiebreaks"]["buchholz-cut1"]["text"],
         r["tiebreaks"]["sonneborn-berger"]["text"])
        for r in data["standings"]
    ]  # fmt: skip
    assert rows == [
        (1, "Ana", "2", "3½", "2½"),
        (2, "Ben", "2", "3½", "2"),
        (3, "Cid", "1½", "4", "2¼"),
        (4, "Dee", "½", "4", "¾"),
    ]
    # the printed standings have no score column: the game has no score
    out = tmp_path / "s.csv"
    assert hub(d, "export", "standings", "--division", "kids", "--out", str(out)) == 0
    assert out.read_text().splitlines()[0] == "Rank,No,Name,School,Points,BuchC1,SB,DE,Wins"


@pytest.mark.parametrize("game", ["dam", "english", "dadama"])
def test_a_game_without_scores_refuses_scores_in_one_line(tmp_path, capsys, game):
    d = _division(tmp_path, capsys, game)
    assert hub(d, "result", "--division", "kids", "--round", "1", "--table", "1",
               "--scores", "3:1") == 2  # fmt: skip
    err = capsys.readouterr().err
    title = GAMES[game].title
    assert err == (
        f"damath-board hub: error: a {title} game has no scores: give its result alone "
        "(blue, red or draw)\n"
    )
    t = Tournament.open(d)
    p = t.pairing(1, 1, "kids")
    with pytest.raises(TournamentError, match=f"a {title} game has no scores"):
        t.record_result(p.id, GameResult("blue", Fraction(3), Fraction(1), source="board"))
    assert t.results() == {}
    t.close()


def test_mathematical_chess_ranks_by_points_then_by_its_points_difference(tmp_path, capsys):
    d = _division(tmp_path, capsys, "mathchess")
    # Ana beats Ben 9:4 and Dee 7:5, loses to Cid 3:6: 2 points, difference 5 - 3 + 2 = 4;
    # Ben beats Cid 8:2 and Dee 5:4: 2 points, difference -5 + 6 + 1 = 2; Cid draws Dee 4:4:
    # 1½ (3 - 6 + 0 = -3); Dee ½ (-2 - 1 + 0 = -3). Ana is above Ben by the difference.
    _play(d, [("Ana", "Ben", "win", (9, 4)), ("Ana", "Cid", "loss", (3, 6)),
              ("Ana", "Dee", "win", (7, 5)), ("Ben", "Cid", "win", (8, 2)),
              ("Ben", "Dee", "win", (5, 4)), ("Cid", "Dee", "draw", (4, 4))])  # fmt: skip
    data = _standings(d, capsys)
    assert data["tiebreaks"][0] == "score-diff"
    rows = [
        (r["rank"], r["name"], r["points_text"], r["tiebreaks"]["score-diff"]["text"])
        for r in data["standings"]
    ]
    assert rows == [(1, "Ana", "2", "4"), (2, "Ben", "2", "2"), (3, "Cid", "1½", "-3"),
                    (4, "Dee", "½", "-3")]  # fmt: skip
    out = tmp_path / "s.csv"
    assert hub(d, "export", "standings", "--division", "kids", "--out", str(out)) == 0
    lines = out.read_text().splitlines()
    assert lines[0] == "Rank,No,Name,School,Points,Diff,BuchC1,SB,DE,Wins"
    assert lines[1].startswith("1,1,Ana,,2,4,")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--scores", "9/2:4"], "Mathematical Chess points '9/2': the points a side took, a "
         "whole number (0 or more)"),
        (["--scores=-1:4"], "Mathematical Chess points '-1'"),
        (["blue", "--scores", "3:9"], "the scores say red, the result says blue: check the "
         "sheet"),
    ],
)  # fmt: skip
def test_mathematical_chess_points_are_whole_and_decide_a_typed_result(
    tmp_path, capsys, argv, message
):
    d = _division(tmp_path, capsys, "mathchess")
    table = ["result", "--division", "kids", "--round", "1", "--table", "1"]
    assert hub(d, *table, *argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("damath-board hub: error: ") and message in err, err
    assert err.count("\n") == 1
    # the points alone decide (the time limit's rule, C-11); an elimination won on fewer points
    # is the arbiter's to record against them
    assert hub(d, *table, "--scores", "3:9") == 0
    assert capsys.readouterr().out == "round 1, table 1: red (3 : 9)\n"
    assert hub(d, *table, "blue", "--scores", "3:9", "--by-arbiter", "--reason", "C-11") == 0


def test_a_division_names_its_game_and_keeps_it_once_started(tmp_path, capsys):
    d = tmp_path / "hall"
    assert hub(d, "event", "create", "--name", "Hall Day", "--system", "round-robin",
               "--division", "chess", "--game", "mathchess") == 0  # fmt: skip
    assert "division 'chess': Mathematical Chess, round-robin" in capsys.readouterr().out
    assert hub(d, "division", "set", "dam", "--system", "round-robin", "--game", "dam") == 0
    assert hub(d, "division", "set", "main", "--system", "round-robin") == 0
    # changed before it starts, without --game: it keeps its game
    assert hub(d, "division", "set", "dam", "--system", "swiss", "--rounds", "3") == 0
    capsys.readouterr()
    assert hub(d, "division", "list") == 0
    listed = capsys.readouterr().out.splitlines()
    assert [line.split(", ")[:2] for line in listed] == [
        ["chess: Mathematical Chess", "round-robin"],
        ["dam: Dam", "swiss"],
        ["main: Damath", "round-robin"],
    ]
    assert hub(d, "event", "show", "--json") == 0
    shown = json.loads(capsys.readouterr().out)["divisions"]
    assert {name: v["game"] for name, v in shown.items()} == {
        "chess": "mathchess",
        "dam": "dam",
        "main": "damath",
    }
    assert hub(d, "division", "set", "x", "--system", "swiss", "--rounds", "2",
               "--game", "chess") == 2  # fmt: skip
    assert capsys.readouterr().err == (
        f"damath-board hub: error: unknown game 'chess': one of {', '.join(registry.NAMES)}\n"
    )
    assert registry.NAMES[:5] == ("damath", "dadama", "dam", "mathchess", "english")
    for name in ("Ana", "Ben"):
        assert hub(d, "player", "add", name, "--division", "dam") == 0
    assert hub(d, "pair", "--round", "1", "--division", "dam") == 0
    capsys.readouterr()
    assert hub(d, "division", "set", "dam", "--system", "swiss", "--rounds", "3",
               "--game", "english") == 2  # fmt: skip
    assert "division 'dam' has started: its system and its game are fixed" in (
        capsys.readouterr().err
    )
    t = Tournament.open(d)
    assert t.division("dam").game == "dam"
    t.close()


def test_an_event_file_from_before_games_reads_as_damath(tmp_path, capsys):
    d = tmp_path / "old"
    assert hub(d, "event", "create", "--name", "Old Cup", "--system", "round-robin") == 0
    for name in ("Ana", "Ben"):
        assert hub(d, "player", "add", name) == 0
    assert hub(d, "pair", "--round", "1") == 0
    # the file as version 3 wrote it (before divisions had a game): no game column
    db = sqlite3.connect(d / FILE_NAME)
    db.execute("ALTER TABLE division DROP COLUMN game")
    db.execute("PRAGMA user_version=3")
    db.commit()
    db.close()
    capsys.readouterr()
    assert hub(d, "result", "--round", "1", "--table", "1", "--scores", "12:-7/6") == 0
    assert hub(d, "division", "list") == 0
    assert capsys.readouterr().out.splitlines()[-1] == "open: Damath, round-robin, 1 rounds"
    t = Tournament.open(d)
    assert t.division("open").game == "damath"
    assert t.event_for("open").tiebreaks[0] == "score-diff"
    assert t.store.db.execute("PRAGMA user_version").fetchone()[0] == 4
    t.close()
