"""A command loads only its own module: every process a user, the service or a test starts pays
for the commands it runs, not for all twelve (``damath-board --help`` imported about 165 of the
project's modules before)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from controller import cli

_PROBE = (
    "import json, sys\n"
    "from controller import cli\n"
    "argv = json.loads(sys.argv[1])\n"
    "cli.build_parser(cli.command_of(argv) or None).parse_known_args(argv)\n"
    "print(json.dumps(sorted(m for m in sys.modules if m.startswith('controller.'))))\n"
)


def _loaded(argv: list[str]) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(argv)],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    loaded: list[str] = json.loads(out.stdout)
    return loaded


def test_the_help_loads_no_command() -> None:
    loaded = _loaded(["--help-not-parsed"])
    assert loaded == ["controller.cli", "controller.i18n"], loaded


def test_rules_loads_the_rules_engine_and_nothing_of_the_board_or_the_hub() -> None:
    loaded = _loaded(["rules", "perft", "--depth", "1"])
    assert "controller.cli.rules" in loaded
    heavy = ("controller.hub", "controller.sim", "controller.federation", "controller.session")
    assert not [m for m in loaded if m.startswith(heavy)], loaded


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["rules", "perft"], "rules"),
        (["--help"], None),
        ([], None),
        (["nonsense"], None),
        (["--", "hub"], None),
        (["-h", "hub", "serve"], "hub"),
    ],
)
def test_the_command_of_an_argument_list(argv: list[str], command: str | None) -> None:
    assert cli.command_of(argv) == command


def test_every_command_is_listed_in_the_help_without_loading_it(capsys) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = capsys.readouterr().out
    for name in cli.COMMANDS:
        assert f"    {name} " in out or f"    {name}\n" in out, name
