"""The crosstables and the printable page, read back as an organiser would read them."""

from __future__ import annotations

from fractions import Fraction as F

from controller.tournament import export
from controller.tournament.model import Division, Event, GameResult
from controller.tournament.tournament import Tournament


def test_a_round_robin_grid_shows_each_result_from_both_sides(tmp_path):
    t = Tournament.create(tmp_path, Event("RR"), Division("open", "round-robin"))
    for n in ("Ana", "Ben", "Cid", "Dee"):
        t.add_player(n)
    outcomes = iter(["blue", "draw", "red", "blue-forfeit", "blue", "draw"])
    for rnd in (1, 2, 3):
        for p in t.pair(rnd):
            t.record_result(p.id, GameResult(next(outcomes)))
    table = t.standings()
    rows = export.grid_rows(table)
    names = [r[1] for r in rows[1:]]
    cell = {(a, b): rows[1 + i][2 + j] for i, a in enumerate(names) for j, b in enumerate(names)}
    mirror = {"1": "0", "0": "1", "½": "½", "+": "−", "−": "+", "×": "×"}
    for (a, b), value in cell.items():
        assert mirror[value] == cell[(b, a)], (a, b)
    assert all(cell[(n, n)] == "×" for n in names)
    points = {r[1]: r[-1] for r in rows[1:]}
    assert points == {s.player.name: export.points_text(s.points) for s in table}


def test_points_are_written_as_people_write_them():
    assert [export.points_text(F(x)) for x in ("5/2", "3", "1/2", "7/4", "-1/2", "7/3")] == [
        "2½",
        "3",
        "½",
        "1¾",
        "-½",
        "7/3",
    ]


def test_the_page_escapes_names_and_keeps_the_a4_rules(tmp_path):
    t = Tournament.create(tmp_path, Event("<Cup>"), Division("open", "swiss", 3))
    t.add_player("Ana <b>Reyes</b>", school="A & B")
    t.add_player("Ben")
    rows = export.standings_rows(t.standings(), t.event)
    page = export.html_page("standings", t.event, "open", rows, export.standings_key(t.event))
    assert "<b>Reyes" not in page and "Ana &lt;b&gt;Reyes&lt;/b&gt;" in page
    assert "A &amp; B" in page and "&lt;Cup&gt;" in page
    assert "@page { size: A4" in page and "thead { display: table-header-group; }" in page
