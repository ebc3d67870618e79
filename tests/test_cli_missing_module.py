"""A command whose module needs a package that is not installed is still listed, and says what
is missing when run; a broken module of the program itself is never silently dropped."""

from __future__ import annotations

import importlib

import pytest

from controller import cli


def _without(monkeypatch, command_module: str, missing: str) -> None:
    real = importlib.import_module

    def fake(name: str, package: str | None = None):
        if name == command_module:
            raise ModuleNotFoundError(f"No module named {missing!r}", name=missing)
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", fake)


def test_a_command_missing_an_extra_names_the_extra(monkeypatch, capsys):
    _without(monkeypatch, "controller.cli.hub", "caissify_pairings")
    assert cli.main(["hub", "serve"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "damath-board hub: needs the Python module caissify_pairings, which is not installed: "
        "pip install 'damath-board[hub]'"
    ]


def test_a_command_missing_a_dependency_says_to_install_again(monkeypatch, capsys):
    _without(monkeypatch, "controller.cli.sim", "starlette")
    assert cli.main(["sim"]) == 2
    assert "needs the Python module starlette" in capsys.readouterr().err
    assert "sim" in cli.build_parser().format_help()  # still listed


def test_a_broken_module_of_the_program_is_not_hidden(monkeypatch):
    _without(monkeypatch, "controller.cli.replay", "controller.tracker.gone")
    with pytest.raises(ModuleNotFoundError):
        cli.build_parser()
