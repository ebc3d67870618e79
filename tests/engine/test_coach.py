"""The coach: a hint is the engine's move with its arithmetic; a review finds the move that
lost points, names the better one with its arithmetic, and counts accuracy per operation."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.engine.coach import hint, review
from controller.engine.game_record import read_record
from controller.engine.think import think
from controller.record.pdn import pdn
from controller.rules.game import Game
from controller.rules.notation import game_from_json

ROOT = Path(__file__).resolve().parents[2]


def _blunder_position() -> Game:
    """(3, 2)-(2, 3) gives Red's -11 a double taking (2, 3), (2, 1) ending on a dama square;
    (5, 2)-(4, 3) offers -3 and wins the -11 back with the 10."""
    return game_from_json(
        {
            "variant": "integer",
            "pieces": [
                {"square": [3, 2], "side": "blue", "value": "10"},
                {"square": [2, 1], "side": "blue", "value": "8"},
                {"square": [5, 2], "side": "blue", "value": "-3"},
                {"square": [3, 4], "side": "red", "value": "-11"},
                {"square": [6, 7], "side": "red", "value": "2"},
            ],
        }
    )


def test_a_hint_is_the_engines_best_move_with_the_chip_to_lift_and_the_arithmetic() -> None:
    game = Game.new("integer")
    for path in ([(1, 2), (0, 3)], [(2, 5), (1, 4)]):  # the manual's scoresheet
        game.push(game.find_move(path))
    tip = hint(game, depth=5)
    assert tip.move == think(game, depth=5).move
    assert tip.chip == tip.move.start
    # Blue must take: -9 + (-1) on (2, 5), a + square.
    assert tip.move.captures and tip.takings == ("-9 + (-1) = -10",)
    assert tip.score_text == "-10"


def test_a_review_finds_the_losing_move_and_the_better_one() -> None:
    start = _blunder_position()
    bad = [(3, 2), (2, 3)]
    result = review(start, [bad], depth=5)
    (move,) = result.moves
    assert move.move.path == tuple(bad)
    assert not move.accurate and move.loss > 0
    assert move.best != move.move and move.best_line[0].move == move.best
    assert result.mistakes() == (move,)
    assert result.mistakes(side=1) == ()
    assert result.sides[0].choices == 1 and result.sides[0].best_moves == 0


def test_a_review_is_reproducible_and_counts_operations() -> None:
    record = read_record(_sample_text(), "sample")
    first = review(record.start, record.paths[:24], depth=3)
    again = review(record.start, record.paths[:24], depth=3)
    assert [(m.best, m.loss_points) for m in first.moves] == [
        (m.best, m.loss_points) for m in again.moves
    ]
    for side in first.sides:  # the moves with a choice only: a forced taking counts in neither
        chosen = [m for m in first.moves if m.side == side.side and not m.forced]
        assert sum(a.takings for a in side.accuracy) == sum(len(m.move.takings) for m in chosen)
        good = sum(len(m.move.takings) for m in chosen if m.accurate)
        assert sum(a.accurate for a in side.accuracy) == good
        for a in side.accuracy:
            by_hand = [
                m.accurate for m in chosen for t in m.move.takings if t.operator == a.operator
            ]
            assert (a.takings, a.accurate) == (len(by_hand), sum(by_hand))
    assert any(m.move.takings and not m.accurate for m in first.moves)  # a case that counts
    mistakes = first.mistakes()
    assert len(mistakes) == 3
    assert [m.loss_points for m in mistakes] == sorted(
        (m.loss_points for m in mistakes), reverse=True
    )
    assert all(m.loss_points >= x.loss_points for m in mistakes for x in first.moves if x.accurate)


def test_an_illegal_move_in_a_game_is_named() -> None:
    with pytest.raises(ValueError, match=r"move 2: \(1, 2\) -> \(2, 3\)"):
        read_record('{"variant": "integer", "moves": [[[1,2],[2,3]], [[1,2],[2,3]]]}', "g")


def _sample_text() -> str:
    return (ROOT / "controller" / "data" / "sample_game.json").read_text(encoding="utf-8")


def test_a_pdn_export_reads_back_as_the_same_game() -> None:
    record = read_record(_sample_text(), "sample")
    game = record.start.copy()
    for path in record.paths:
        game.push(game.find_move(list(path)))
    text = pdn(game, record.start, None)
    again = read_record(text, "game.pdn")
    assert again.paths == record.paths
    assert again.start.chips() == record.start.chips()
    assert again.start.variant == "integer"


def test_a_pdn_from_a_position_keeps_its_start_and_damas() -> None:
    start = _blunder_position()
    game = start.copy()
    game.push(game.find_move([(5, 2), (4, 3)]))
    again = read_record(pdn(game, start, None), "lesson.pdn")
    assert again.start.chips() == start.chips()
    assert again.paths == (((5, 2), (4, 3)),)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("hello", "expected a PDN game"),
        ("{", "not valid JSON"),
        ('{"variant": "integer"}', "a list of 'moves'"),
        ('{"variant": "chess", "moves": []}', "unknown variant"),
        ('{"moves": [[1, 2]]}', "move 1: expected"),
        ('[Event "x"]\n\n1. 1,2-2,3', r"no \[Variant"),
        ('[Variant "integer"]\n\n1. 1,2-ab', "cannot read '1,2-ab'"),
        ('[Variant "integer"]\n\n1. 1,2-9,9', r"move 1: \(1, 2\) -> \(9, 9\)"),
        ('[Variant "integer"]\n[Position "B:1,2=-9|X"]\n\n*', "Position tag"),
    ],
)
def test_bad_game_files_get_a_clear_message(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        read_record(text, "g")


@pytest.mark.slow
def test_the_review_command_on_the_sample_game_and_on_a_pdn(tmp_path: Path) -> None:
    exe = [sys.executable, "-m", "controller.cli", "review"]
    out = subprocess.run(
        [*exe, "--depth", "2", "--json"], capture_output=True, text=True, cwd=ROOT, check=True
    )
    data = json.loads(out.stdout)
    assert data["variant"] == "integer" and len(data["moves"]) == 56
    assert len(data["mistakes"]) == 3
    assert data["sides"][0]["name"] == "Maria Santos"
    assert set(data["sides"][0]["accuracy"]) == {"+", "−", "×", "÷"}
    record = read_record(_sample_text(), "sample")
    game = record.start.copy()
    for path in record.paths[:10]:
        game.push(game.find_move(list(path)))
    path = tmp_path / "game.pdn"
    path.write_text(pdn(game, record.start, None), encoding="utf-8")
    text = subprocess.run(
        [*exe, str(path), "--depth", "2"], capture_output=True, text=True, cwd=ROOT, check=True
    ).stdout
    assert "The three biggest mistakes" in text and "takings on ×" in text
    bad = tmp_path / "bad.pdn"
    bad.write_text("[Event", encoding="utf-8")
    failed = subprocess.run([*exe, str(bad)], capture_output=True, text=True, cwd=ROOT)
    assert failed.returncode == 2 and "Traceback" not in failed.stderr
    assert failed.stderr.startswith("damath-board review: error:")
