"""``damath-board replay``: output shapes, and bad traces give one clear line and exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.cli.replay import main

TRACES = Path(__file__).parent / "traces"
HEADER = '{"trace": 1, "variant": "integer"}\n'


def test_json_output_lists_moves_with_scores(capsys) -> None:
    assert main([str(TRACES / "multi_capture_intermediate.jsonl"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["moves"] == [
        {"side": "blue", "path": [[1, 2], [3, 4], [5, 6]], "captures": [[2, 3], [4, 5]],
         "score_text": "-13", "score_value": -13.0}
    ]  # fmt: skip
    assert data["result"]["totals"] == {"blue": "-13", "red": "0"}


def test_text_output_names_moves_and_events(capsys) -> None:
    assert main([str(TRACES / "ambiguity_buttons.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "(0,1)x(4,5)x(6,7)  score 8" in out and "ambiguity" in out


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("", "empty"),
        ('{"trace": 2}\n', "line 1"),
        (HEADER + "not json\n", "line 2: not valid JSON"),
        (HEADER + '{"t": 1, "button": "jump"}\n', "line 2: unknown button 'jump'"),
        (HEADER + '{"t": 1, "occupied": [[8, 1]]}\n', "line 2: (8, 1) is off the board"),
        (HEADER + '{"t": 1, "occupied": [[0, 0]]}\n', "line 2: (0, 0) is not a playable"),
        (HEADER + '{"t": 2, "occupied": []}\n{"t": 1, "occupied": []}\n', "line 3: time 1.0"),
        ('{"trace": 1, "variant": "chess"}\n', "unknown variant"),
        ('{"trace": 1, "settings": {"settle": -1}}\n', "setting settle"),
    ],
)
def test_bad_trace_gives_a_clear_message(tmp_path, capsys, body: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(body, encoding="utf-8")
    assert main([str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_missing_file_is_exit_code_2(tmp_path, capsys) -> None:
    assert main([str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_replay_prints_the_scoresheet_of_the_game(capsys) -> None:
    from controller.cli import main

    assert main(["replay", "tests/tracker/traces/multi_capture_intermediate.jsonl"]) == 0
    out = capsys.readouterr().out
    assert "Integer DAMATH Scoresheet" in out
    assert "−9 − (−1)" in out and "−9 + 4" in out
    assert "Game in progress after 1 move: BLUE −13, RED 0." in out.strip().splitlines()[-1]


def test_replay_json_gives_grand_totals_and_winner_when_the_game_ends(tmp_path, capsys) -> None:
    import json

    from controller.cli import main

    position = {
        "to_move": "blue",
        "pieces": [
            {"square": [3, 4], "side": "blue", "value": "-5"},
            {"square": [4, 5], "side": "red", "value": "10", "dama": True},
        ],
    }
    lines = [
        {"trace": 1, "variant": "integer", "profile": "official", "position": position},
        {"t": 0.0, "occupied": [[3, 4], [4, 5]]},
        {"t": 1.0, "occupied": [[4, 5]]},
        {"t": 1.5, "occupied": [[4, 5], [5, 6]]},
        {"t": 2.0, "occupied": [[5, 6]]},
    ]
    path = tmp_path / "last_chip.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    assert main(["replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (move,) = data["moves"]
    # (5, 6) is a + square and the taken chip is a dama: (-5 + 10) x 2 = 10.
    assert (move["path"], move["score_text"], move["score_value"]) == ([[3, 4], [5, 6]], "10", 10.0)
    result = data["result"]
    assert result["ending"] == "Red has no chip left"
    assert result["totals"] == {"blue": "10", "red": "0"}
    assert result["grand_totals"] == {"blue": "5", "red": "0"}
    assert result["winner"] == "blue" and result["points"] == {"blue": 1.0, "red": 0.0}
