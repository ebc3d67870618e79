"""``damath-board replay``: output shapes, and bad traces give one clear line and exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.replay import main

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
