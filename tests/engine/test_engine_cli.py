"""``damath-board engine``: one JSON answer per request line, bad lines answered with an error
object, the process alive until its input ends."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

from controller.cli.engine import serve
from controller.engine.protocol import Defaults
from controller.rules.game import Game

ROOT = Path(__file__).resolve().parents[2]


def ask(*lines: str, **defaults) -> list[dict]:
    out = io.StringIO()
    serve(io.StringIO("".join(line + "\n" for line in lines)), out, Defaults(**defaults))
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_a_game_from_the_opening_gets_a_legal_best_move_with_its_line() -> None:
    (answer,) = ask('{"moves": [[[1, 2], [2, 3]]], "depth": 4}', variant="fraction")
    game = Game.new("fraction")
    game.push(game.find_move([(1, 2), (2, 3)]))
    assert tuple(map(tuple, answer["bestmove"])) in {m.path for m in game.legal_moves()}
    assert answer["pv"][0] == answer["bestmove"]
    assert answer["depth"] == 4 and answer["nodes"] > 0 and answer["seconds"] >= 0
    assert isinstance(answer["eval"], float) and isinstance(answer["eval_text"], str)


def test_a_position_with_totals_and_options_per_line() -> None:
    position = {
        "variant": "integer",
        "to_move": "red",
        "pieces": [
            {"square": [3, 4], "side": "red", "value": "-5"},
            {"square": [2, 3], "side": "blue", "value": "10", "dama": True},
        ],
        "totals": {"blue": "12", "red": -3},
        "depth": 2,
        "id": "q1",
    }
    (answer,) = ask(json.dumps(position))
    # Red -5 takes the dama 10 landing on (1, 2), a ÷ square: -5 ÷ 10 = -0.5 ≈ -1, × 2 = -2.
    assert answer["id"] == "q1"
    assert answer["bestmove"] == [[3, 4], [1, 2]]
    assert answer["score_text"] == "-2"
    # Red: -3 - 2 + RC(-5) = -10; Blue: 12 + nothing left. Red's view: -22, and the game is over.
    assert answer["eval_text"] == "-22" and answer["eval"] == -22.0
    assert answer["outcome"] == "loss"


def test_bad_lines_get_an_error_naming_the_line_and_the_engine_goes_on() -> None:
    answers = ask(
        "not json",
        "[1, 2]",
        '{"moves": [[[1, 2], [3, 4]]]}',
        '{"moves": "e4"}',
        '{"depth": 0}',
        '{"level": 9}',
        '{"colour": "blue"}',
        '{"variant": "chess"}',
        '{"pieces": [{"square": [0, 0], "side": "blue", "value": "1"}]}',
        '{"totals": {"blue": "1/2"}}',
        '{"movetime_ms": -5}',
        "[" * 100_000,
        "",
        '{"depth": 1}',
        variant="integer",
    )
    errors = answers[:-1]
    assert [a["line"] for a in errors] == list(range(1, 13))
    assert all(set(a) == {"line", "error"} for a in errors)
    texts = [a["error"] for a in errors]
    assert "not valid JSON" in texts[0]
    assert "JSON object" in texts[1]
    assert texts[2].startswith("moves[0]: (1, 2) -> (3, 4)")
    assert "moves: expected a list" in texts[3]
    assert texts[4].startswith("depth:") and texts[5].startswith("level:")
    assert "unknown key 'colour'" in texts[6]
    assert "unknown variant 'chess'" in texts[7]
    assert "not a playable square" in texts[8]
    assert texts[9].startswith("totals.blue:")
    assert texts[10].startswith("movetime_ms:")
    assert texts[11] == "the request is nested too deeply"
    assert "bestmove" in answers[-1]  # the blank line is skipped, the last one answered


def test_a_finished_game_is_an_error_not_a_crash() -> None:
    (answer,) = ask(
        '{"pieces": [{"square": [3, 4], "side": "red", "value": "5"}], "to_move": "blue"}'
    )
    assert answer == {"line": 1, "error": "the game is over: Blue has no chip left"}


def test_the_process_answers_line_by_line_and_stays_alive() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "engine", "--variant", "radical", "--depth", "3"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert proc.stdin and proc.stdout
    proc.stdin.write('{"moves": []}\n')
    proc.stdin.flush()
    first = json.loads(proc.stdout.readline())  # answered before the input ends
    proc.stdin.write("{oops\n")
    proc.stdin.flush()
    second = json.loads(proc.stdout.readline())
    proc.stdin.write('{"moves": [], "level": 2}\n')
    proc.stdin.close()
    third = json.loads(proc.stdout.readline())
    assert proc.wait(timeout=60) == 0
    assert proc.stderr is not None and proc.stderr.read() == ""
    assert first["depth"] == 3 and "bestmove" in first
    assert second["line"] == 2 and "error" in second
    assert third["level"] == 2


def test_the_command_line_refuses_bad_options_with_a_message() -> None:
    from controller.cli import main

    for argv in (
        ["engine"],
        ["engine", "--variant", "integer", "--depth", "3", "--movetime", "100"],
        ["engine", "--variant", "integer", "--level", "0"],
    ):
        try:
            main(argv)
        except SystemExit as exc:
            assert exc.code == 2
        else:  # pragma: no cover - argparse always exits here
            raise AssertionError(argv)
