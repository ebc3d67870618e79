"""Hostile trace files: each refused with one line naming the line and exit code 2, read with
bounded memory (a line without a break is not read whole), never a traceback."""

from __future__ import annotations

import tracemalloc

import pytest

from controller.cli.replay import main
from controller.tracker.trace import MAX_LINE, TraceError, read_trace

HEADER = '{"trace": 1, "variant": "integer"}\n'


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('{"trace": true}\n', 'must start with "trace": 1'),
        ('{"trace": 1.0}\n', 'must start with "trace": 1'),
        ("[" * 50_000 + "\n", f"line 1: longer than {MAX_LINE}"),
        ("[" * 5_000 + "\n", "line 1: not valid here: nested more than"),
        (
            HEADER + '{"t": ' + "9" * 5000 + ', "occupied": []}\n',
            "line 2: not valid JSON: a number",
        ),
        (HEADER + '{"t": NaN, "occupied": []}\n', "line 2: not valid JSON: NaN"),
        (HEADER + '{"t": 1e999, "occupied": []}\n', "line 2: not valid JSON: 1e999"),
        (
            HEADER + '{"t": 1, "occupied": ' + "[" + "[1, 0]," * 40 + "[1, 0]]}\n",
            "line 2: 41 squares occupied",
        ),
        (HEADER + '{"t": 1, "button": "' + "x" * 5000 + '"}\n', "unknown button 'xxxxx"),
        (
            '{"trace": 1, "variant": "polynomial", "position": {"pieces": '
            '[{"square": [3, 4], "side": "blue", "value": "x^99999999"}]}}\n',
            "power 3 at most",
        ),
        ('{"trace": 1, "settings": {"settle": 1e308}}\n', "setting settle"),
    ],
)
def test_a_hostile_trace_gets_one_clear_line(tmp_path, capsys, body: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(body, encoding="utf-8")
    assert main([str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert len(err) < 400  # the message quotes the file, it does not repeat it


def test_a_file_without_line_breaks_is_refused_after_one_line_of_reading(tmp_path, capsys):
    """100 MB of one line: refused after reading MAX_LINE characters, not the whole file."""
    path = tmp_path / "one-line.jsonl"
    with open(path, "w") as fh:
        fh.write('{"trace": 1, "variant": "')
        fh.seek(100 * 2**20)
        fh.write('"}\n')  # a sparse file: 100 MB of NUL bytes, nothing written on the disk
    tracemalloc.start()
    try:
        assert main([str(path)]) == 2
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5 * 2**20  # a whole-file read would hold the 100 MB line
    assert f"longer than {MAX_LINE}" in capsys.readouterr().err


def test_a_directory_instead_of_a_trace(tmp_path, capsys):
    assert main([str(tmp_path)]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_reading_a_true_header_is_refused_by_the_reader_too():
    with pytest.raises(TraceError, match="line 1"):
        read_trace(['{"trace": true}'])
