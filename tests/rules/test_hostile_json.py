"""JSON from people (positions, trace lines, the command line) read safely: deep nesting, numbers
with thousands of digits, NaN, empty input and stray digits get one plain sentence and a
refusal, never a traceback, a hint about ``sys.set_int_max_str_digits`` or a wrong value."""

from __future__ import annotations

import io
import json
import sys

import pytest

from controller.cli import main
from controller.rules.notation import MAX_DEPTH, NotationError, game_from_json, load_json

DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (DEEP, f"nested more than {MAX_DEPTH} levels"),
        ('{"a":' * 40 + "1" + "}" * 40, f"nested more than {MAX_DEPTH} levels"),
        ("1" * 5000, "thousands of digits"),
        ("NaN", "NaN is not a number"),
        ('{"t": Infinity}', "Infinity is not a number"),
        ("1e400", "too large a number"),
        (b"\x80abc", "not UTF-8"),
        ("{not json", "not valid JSON"),
    ],
)
def test_load_json_refuses_with_a_plain_sentence(text, says):
    with pytest.raises(NotationError, match=says) as info:
        load_json(text)
    assert "sys.set_int_max_str_digits" not in str(info.value)


def test_a_position_of_normal_depth_loads():
    assert load_json('{"pieces": [{"square": [1, 2]}]}') == {"pieces": [{"square": [1, 2]}]}


def test_a_huge_value_in_a_position_is_quoted_short_in_the_message():
    position = {"pieces": [{"square": ["x" * 10_000, 2], "side": "blue", "value": "1"}]}
    with pytest.raises(NotationError) as info:
        game_from_json(position)
    assert len(str(info.value)) < 200


def _run(capsys, monkeypatch, stdin: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["rules", "moves", "--position-json", "-", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_empty_input_is_an_error_not_a_silent_success(capsys, monkeypatch):
    code, out, err = _run(capsys, monkeypatch, "")
    assert code == 2 and out == ""
    assert "standard input is empty" in err
    code, _, err = _run(capsys, monkeypatch, "  \n\n")
    assert code == 2 and "is empty" in err


def test_deep_nesting_on_the_command_line_is_answered_per_line(capsys, monkeypatch):
    code, out, err = _run(capsys, monkeypatch, DEEP + "\n")
    assert code == 1 and "nested more than" in out and "Traceback" not in err


def test_a_number_with_thousands_of_digits_on_the_command_line(capsys, monkeypatch):
    piece = '{"square": [3, 4], "side": "blue", "value": ' + "9" * 5000 + "}"
    code, out, err = _run(capsys, monkeypatch, '{"pieces": [' + piece + "]}")
    assert code == 1 and "thousands of digits" in out and "set_int_max_str" not in out + err
    piece = '{"square": [3, 4], "side": "blue", "value": "' + "9" * 5000 + '"}'
    code, _, err = _run(capsys, monkeypatch, '{"pieces": [' + piece + "]}")
    assert code == 2 and "5000 characters long" in err


def test_an_arabic_indic_digit_is_not_read_as_a_number(capsys, monkeypatch):
    position = {"pieces": [{"square": [3, 4], "side": "blue", "value": "٣"},
                           {"square": [4, 5], "side": "red", "value": "1"}]}  # fmt: skip
    code, _, err = _run(capsys, monkeypatch, json.dumps(position))
    assert code == 2 and "bad integer value" in err
