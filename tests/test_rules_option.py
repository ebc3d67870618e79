"""``--rules`` names a rules profile in every command that takes one; the old ``--profile``
spelling gives the same answer and one line on standard error saying the new one."""

from __future__ import annotations

import json
import re

import pytest

from controller.cli import main

SHEET = "tests/scoring/data/manual_integer.csv"
COMMANDS = [
    ["rules", "moves", "--variant", "integer", "--json"],
    ["rules", "perft", "--depth", "2", "--divide", "--json"],
    ["audit", SHEET, "--variant", "integer", "--json"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: a[0] + "-" + a[1])
def test_the_old_spelling_answers_the_same_and_says_the_new_one(argv, capsys):
    code = main([*argv, "--rules", "online"])
    new = capsys.readouterr()
    assert new.err == "" and new.out
    assert main([*argv, "--profile", "online"]) == code
    old = capsys.readouterr()
    assert _untimed(old.out) == _untimed(new.out)
    assert old.err.count("\n") == 1
    assert "--profile is now spelled --rules" in old.err


def _untimed(out: str) -> str:
    """The answer without perft's measured seconds, which differ from run to run."""
    return re.sub(r'"seconds": [0-9.e-]+', '"seconds": 0', out)


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: a[0] + "-" + a[1])
def test_an_unknown_rules_profile_is_refused_by_name(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--rules", "blitz"])
    assert exit_.value.code == 2
    assert "invalid choice: 'blitz'" in capsys.readouterr().err


def test_the_rules_change_the_answer(capsys, tmp_path):
    """The option is read, not dropped: a chip can take two, a dama one; the official rules
    take the most (D-1), the online rules the dama first."""
    pieces = [
        {"square": [0, 3], "side": "blue", "value": "4"},
        {"square": [5, 6], "side": "blue", "value": "6", "dama": True},
        {"square": [3, 6], "side": "red", "value": "2"},
        {"square": [1, 2], "side": "red", "value": "2"},
        {"square": [3, 2], "side": "red", "value": "2"},
    ]
    position = tmp_path / "priority.json"
    position.write_text(json.dumps({"variant": "integer", "pieces": pieces}), encoding="utf-8")
    starts = {}
    for rules in ("official", "online"):
        argv = ["rules", "moves", "--position-json", str(position), "--json", "--rules", rules]
        assert main(argv) == 0
        starts[rules] = {tuple(m["path"][0]) for m in json.loads(capsys.readouterr().out)["moves"]}
    assert starts == {"official": {(0, 3)}, "online": {(5, 6)}}
