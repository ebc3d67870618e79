"""``damath-board rules moves`` and ``rules perft`` as a user meets them."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from controller.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_moves_of_the_opening_as_json(capsys):
    code, out, _ = run(capsys, "rules", "moves", "--variant", "integer", "--json")
    assert code == 0
    moves = json.loads(out)["moves"]
    assert len(moves) == 7
    assert {k: moves[1][k] for k in ("path", "captures", "promotes")} == {
        "path": [[1, 2], [0, 3]],
        "captures": [],
        "promotes": False,
    }


def test_moves_readable_list(capsys):
    code, out, _ = run(capsys, "rules", "moves", "--variant", "rational")
    assert code == 0
    assert "Blue to move: 7 legal moves" in out
    assert "-9/10 (1,2)-(0,3)" in out


def test_moves_json_lines_answers_one_line_per_position(tmp_path, capsys):
    take = {
        "variant": "integer",
        "to_move": "blue",
        "pieces": [
            {"square": [3, 4], "side": "blue", "value": "-5"},
            {"square": [4, 5], "side": "red", "value": "10"},
        ],
    }
    lines = [json.dumps({"variant": "integer"}), "{broken", json.dumps(take)]
    path = tmp_path / "positions.jsonl"
    path.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "rules", "moves", "--position-json", str(path), "--json")
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert len(answers) == 3
    assert len(answers[0]["moves"]) == 7
    assert answers[1]["line"] == 2 and "not valid JSON" in answers[1]["error"]
    (move,) = answers[2]["moves"]
    assert move["captures"] == [[4, 5]] and move["path"] == [[3, 4], [5, 6]]
    # (5, 6) is a + square: -5 + 10 = 5.
    assert move["takings"] == [
        {
            "taker": "-5",
            "taken": "10",
            "square": [5, 6],
            "operator": "+",
            "multiplier": 1,
            "expression": "-5 + 10",
            "text": "5",
            "value": 5.0,
        }
    ]
    assert (move["score_text"], move["score_value"]) == ("5", 5.0)


def test_moves_conflicting_variant_is_refused(tmp_path, capsys):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"variant": "integer"}))
    code, _, err = run(
        capsys, "rules", "moves", "--variant", "radical", "--position-json", str(path)
    )
    assert code == 2
    assert "variant" in err and "radical" in err


def test_moves_missing_file_is_a_clear_error(capsys):
    code, _, err = run(capsys, "rules", "moves", "--position-json", "/no/such/file.json")
    assert code == 2
    assert "No such file" in err


@pytest.mark.parametrize(
    ("game", "depth", "nodes"),
    [("english", 4, 1469), ("international", 3, 658), ("damath", 3, 302)],
)
def test_perft_json(capsys, game, depth, nodes):
    code, out, _ = run(capsys, "rules", "perft", "--game", game, "--depth", str(depth), "--json")
    assert code == 0
    result = json.loads(out)
    assert (result["game"], result["depth"], result["nodes"]) == (game, depth, nodes)
    assert result["seconds"] >= 0


def test_perft_divide_with_fen(capsys):
    fen = "W:W31-50:B1-20"
    code, out, _ = run(
        capsys,
        "rules",
        "perft",
        "--game",
        "international",
        "--fen",
        fen,
        "--depth",
        "2",
        "--divide",
    )
    assert code == 0
    assert "31-26: 9" in out
    assert out.strip().endswith("nodes/s")


def test_perft_bad_fen_is_one_clear_line(capsys):
    code, _, err = run(
        capsys, "rules", "perft", "--game", "english", "--fen", "Q:W1", "--depth", "1"
    )
    assert code == 2
    assert err.count("\n") == 1 and "side to move" in err


def test_bad_position_never_prints_a_traceback():
    proc = subprocess.run(
        [sys.executable, "-m", "controller.cli", "rules", "moves", "--position-json", "-"],
        input='{"pieces": [{"square": [0, 0], "side": "blue", "value": "1"}]}',
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "pieces[0].square: (0, 0) is not a playable square" in proc.stderr
