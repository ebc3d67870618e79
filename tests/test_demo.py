"""``damath-board demo``: the bundled game replays legally and its sheet passes the audit."""

from __future__ import annotations

import json

import pytest

from controller.cli import main


def test_demo_prints_the_scoresheet_and_the_result(capsys):
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "Integer DAMATH Scoresheet" in out
    assert "Game over: BLUE has no chip left." in out  # the session's words, as on the sheet
    assert out.rstrip().endswith(
        "RED wins: 1 point, BLUE 0.\nThe game ended: BLUE has no chip left."
    )
    assert "Player BLUE: Maria Santos" in out


def test_demo_sheet_passes_the_audit(tmp_path, capsys):
    assert main(["demo", "--format", "csv"]) == 0
    sheet = tmp_path / "demo.csv"
    sheet.write_text(capsys.readouterr().out)
    assert main(["audit", str(sheet), "--variant", "integer", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["errors"] == 0 and len(report["entries"]) > 50


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "not valid JSON"),
        ('{"moves": 3}', "list of 'moves'"),
        ('{"variant": "integer", "moves": [[[1, 2], [2, 3]], [[1, 2], [2, 3]]]}', "move 2"),
    ],
)
def test_demo_refuses_a_bad_game_file_clearly(tmp_path, capsys, content, message):
    path = tmp_path / "game.json"
    path.write_text(content)
    assert main(["demo", "--game", str(path)]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_demo_plays_through_the_board_pipeline_and_gets_the_recorded_game(seed, capsys):
    from controller.cli.demo import load_game_file, play_on_board, replay

    recorded = replay(load_game_file(None))
    run = play_on_board(recorded, seed)
    assert [m.path for _, m in run.game.played()] == [m.path for _, m in recorded.played()]
    assert run.outcome_text == "BLUE has no chip left"
    assert run.frames > 2 * recorded.ply  # hands lift and set down: several frames a move
    assert run.led_frames > recorded.ply  # the view was rendered on the mock LEDs as it went

    assert main(["demo", "--seed", str(seed)]) == 0
    assert "moves played on the simulated board" in capsys.readouterr().out


def test_demo_fails_loudly_when_the_board_reads_another_move():
    from controller.cli.demo import PipelineMismatch, load_game_file, play_on_board, replay
    from controller.tracker.generator import human_trace

    def hands_that_stop_early(game, moves, rng):
        return human_trace(game, moves[:-1], rng)

    with pytest.raises(PipelineMismatch, match="the board read 55 moves, the game has 56"):
        play_on_board(replay(load_game_file(None)), 7, hands_that_stop_early)


def test_demo_piped_into_a_reader_that_has_gone_ends_quietly():
    import os
    import subprocess
    import sys

    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader (`| head`) is gone before the first line
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "controller.cli", "demo"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert proc.stderr == "" and proc.returncode == 0
