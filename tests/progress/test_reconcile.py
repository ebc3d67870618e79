"""Issue 40, item 7: the progress page and the coach's review count one thing, the best moves
(a move with a choice that the review finds as good as the engine's best; a forced move is
counted in neither), so a teacher reconciles them game by game; the period is said in dates,
not ISO weeks; a store of the first schema is brought up to date and its games read again; the
child's page fits a 390 px phone."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from controller.engine.coach import OPERATORS, review
from controller.progress.service import Progress
from controller.progress.store import open_store, store_path
from controller.rules.notation import game_from_json
from controller.sim.server import create_app
from tests.sim.conftest import ManualClock, new_page, serve

from .kept import keep, new_board, play_game

DEPTH = 2


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory):
    """One game, Ana (Blue) against Ben (Red), kept; and the review of it at the same depth."""
    state = tmp_path_factory.mktemp("reconcile")
    (state / "players.txt").write_text("Ana Cruz\nBen Reyes\n")
    clock = ManualClock()
    board = new_board(state, "b1", clock)
    play_game(board, clock, "Ana Cruz", "Ben Reyes", levels=(2, 1), seed=4, date="2026-10-07")
    start = game_from_json(board.session.start_position)
    paths = [m.path for m in board.session.game.move_stack]
    keep(board)
    board.close()
    return state, review(start, paths, depth=DEPTH)


def reconciled(child: dict, side, ops_of_review) -> None:
    assert (child["best_moves"], child["choices"]) == (side.best_moves, side.choices)
    assert child["accuracy"] == round(100 * side.best_moves / side.choices, 1)
    for a in side.accuracy:
        assert child["operations"][a.operator]["takings"] == a.takings
        assert child["operations"][a.operator]["best"] == a.accurate
    assert ops_of_review == OPERATORS


def test_the_progress_figures_are_the_reviews(played) -> None:
    state, reviewed = played
    progress = Progress(state, depth=DEPTH)
    assert progress.index_now().counted == 1
    for name, side in (("Ana Cruz", 0), ("Ben Reyes", 1)):
        child = progress.child_json(name)
        reconciled(child, reviewed.sides[side], OPERATORS)
        game = child["recent"][0]
        assert (game["best_moves"], game["choices"]) == (
            reviewed.sides[side].best_moves,
            reviewed.sides[side].choices,
        )
        assert (child["first"], child["last"]) == ("2026-10-07", "2026-10-07")
        assert child["weeks"][0]["from"] == "2026-10-05" and child["weeks"][0]["to"] == "2026-10-11"
    # the review's own per-operation figures count the moves with a choice only, as the page
    for side in reviewed.sides:
        forced = [m for m in reviewed.moves if m.side == side.side and m.forced]
        assert sum(a.takings for a in side.accuracy) == sum(
            len(m.move.takings) for m in reviewed.moves if m.side == side.side and not m.forced
        ), forced
    progress.stop()


def test_a_store_of_the_first_schema_is_brought_up_to_date(played, tmp_path: Path) -> None:
    kept, reviewed = played
    state = tmp_path / "class"
    shutil.copytree(kept, state)  # the other tests' class stays as it is
    first = Progress(state, depth=DEPTH)
    first.index_now()  # the game counted (here, or by the test before on this worker)
    first.stop()
    store = open_store(store_path(state))
    with store.db:  # as the first schema left it: no best moves, the takings of every move
        store.db.execute("ALTER TABLE plays DROP COLUMN choices")
        store.db.execute("ALTER TABLE plays DROP COLUMN best_moves")
        store.db.execute("UPDATE plays SET child = 'Ana C. Cruz' WHERE child = 'Ana Cruz'")
        store.db.execute("DELETE FROM plays WHERE child = 'Ben Reyes'")  # his data deleted
        store.db.execute("UPDATE meta SET value = '1' WHERE key = 'schema'")
    store.close()
    (state / "players.txt").write_text("Ana C. Cruz\nBen Reyes\n")
    progress = Progress(state, depth=DEPTH)
    progress.index_now()
    reconciled(progress.child_json("Ana C. Cruz"), reviewed.sides[0], OPERATORS)
    assert progress.child_json("Ben Reyes")["games"] == 0  # a deleted child stays deleted
    progress.stop()


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "fil"])
def test_the_childs_page_says_the_period_in_dates_and_fits_a_phone(browser, played, lang) -> None:
    state, reviewed = played
    progress = Progress(state, depth=DEPTH)
    progress.index_now()
    progress.stop()
    clock = ManualClock()
    with serve(create_app(clock=clock, state_dir=state), clock) as running:
        for width in (390, 1366):
            with new_page(browser, width, 800) as page:
                page.context.add_cookies(
                    [{"name": "damath_lang", "value": lang, "url": running.url}]
                )
                page.goto(running.url + "/class/progress?child=Ben%20Reyes")
                page.wait_for_selector("body[data-ready='1']")
                period = page.locator("#child-period").inner_text()
                assert "W4" not in period and "2026" in period and "7" in period, period
                side = reviewed.sides[1]
                best = page.locator("#child-figures dd.best")
                expect(best).to_contain_text(f"{side.best_moves}")
                expect(best).to_contain_text(f"{side.choices}")
                expect(page.locator("#child-figures dd.lost")).to_have_count(0)
                labels = page.evaluate("Chart.getChart('chart-weeks').data.labels")
                assert not any("W" in str(label) for label in labels), labels
                assert page.evaluate("document.documentElement.scrollWidth") <= width
