"""The games of the board are listed once (``controller.registry``): every other list of the
games is read from it, its parts load only when asked for, and a wrong name is one clear line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from controller import registry
from controller.games import GAMES, find_game
from controller.games.kind import GameKind
from controller.i18n import _, use
from controller.record.games import NAMES, Recorded, recorded
from controller.tournament.games import GAMES as DIVISION_GAMES

from ..test_architecture import ROOT


def test_every_list_of_the_games_is_the_registry_in_its_order() -> None:
    assert registry.NAMES[0] == registry.DAMATH  # the default first
    assert tuple(GAMES) == NAMES == tuple(DIVISION_GAMES) == registry.NAMES
    for entry in registry.ENTRIES:
        kind, division = GAMES[entry.name], DIVISION_GAMES[entry.name]
        assert isinstance(kind, GameKind)
        assert (kind.name, kind.title) == (entry.name, entry.title)
        assert (division.title, division.scores) == (entry.title, entry.scores)


def test_each_game_but_damath_names_its_record_reader() -> None:
    for entry in registry.ENTRIES:
        if entry.record is None:
            assert entry.name == registry.DAMATH  # Damath's records: controller.record.state
            with pytest.raises(ValueError, match="no record reader for the game 'damath'"):
                recorded(entry.name)
            continue
        reader = recorded(entry.name)
        assert isinstance(reader, Recorded) and reader.name == entry.name
        assert reader is not recorded(entry.name)  # a new reader for each game


def test_the_titles_are_said_in_the_readers_language() -> None:
    with use("fil"):
        titles = {e.name: _(e.title) for e in registry.ENTRIES}
    assert titles["english"] == "Damang Ingles"  # translated (the others are names in both)
    assert all(titles.values())


def test_a_wrong_game_is_one_line_naming_the_games() -> None:
    for wrong in ("chess", "", None, 3, "Damath "):
        with pytest.raises(ValueError) as caught:
            find_game(wrong)
        message = str(caught.value)
        assert "\n" not in message and message.endswith(", ".join(registry.NAMES)), message


def loaded_by(code: str) -> list[str]:
    """The project's modules a fresh Python has loaded after running ``code``."""
    report = "import json, sys\nprint(json.dumps(sorted(m for m in sys.modules)))\n"
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\n{report}"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return [m for m in json.loads(out) if m.startswith("controller.")]


def test_reading_the_list_loads_no_game() -> None:
    """The hub and the tournament read the registry (and the records) without the board's
    machinery: importing them loads no game's session, tracker or board runtime."""
    loaded = loaded_by(
        "import controller.registry, controller.tournament.games, controller.record.games"
    )
    assert "controller.registry" in loaded
    heavy = ("controller.games", "controller.session", "controller.tracker", "controller.board")
    assert [m for m in loaded if m.startswith(heavy)] == []


@pytest.mark.parametrize("name", [e.name for e in registry.ENTRIES if e.record is not None])
def test_a_games_record_reader_in_its_folder_loads_no_board(name: str) -> None:
    """Each game's reader lives in its folder (``controller/games/<name>/record.py``; a plain
    draughts game's over the shared ``controller/games/draughts/record.py``): the hub reads its
    records without loading any game's board, session, tracker or link."""
    loaded = loaded_by(f"from controller.record.games import recorded\nrecorded({name!r})")
    assert f"controller.games.{name}.record" in loaded
    games = {m for m in loaded if m.startswith("controller.games.")}
    shared = {"controller.games.draughts", "controller.games.draughts.record"}
    assert games - shared == {"controller.games.kind", f"controller.games.{name}",
                              f"controller.games.{name}.record"}  # fmt: skip
    board = ("controller.session", "controller.board", "controller.link", "controller.sim",
             "controller.tracker")  # fmt: skip
    assert [m for m in loaded if m.startswith(board)] == []


def test_an_entry_loads_its_parts_by_path() -> None:
    entry = registry.entry("dadama")
    assert entry.load_board() is GAMES["dadama"]
    with pytest.raises(ModuleNotFoundError):
        registry.load("controller.no_such_module:X")
