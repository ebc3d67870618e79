"""The house's ceilings (issue 38): import cycles, game names tested outside the game's folder,
lists of games and imports hidden inside functions may only come down. Each figure is held at
what the code has today; a step of the redesign that removes some lowers its ceiling here in the
same commit, and anything new beyond it fails, naming the place. The target is zero for all but
the command layer's imports, which load a command only when it runs. The readers themselves are
checked on planted sources (tests/house.py)."""

from __future__ import annotations

import pytest

from . import house

CONTROLLER = house.project_files(("controller",))
ONE_READING = pytest.mark.xdist_group("house")
"""The figures' tests in one worker, which parses every file once for all of them."""

KNOWN_CYCLES: list[list[str]] = []
"""The cycles there are (each found through an import inside a function or under
TYPE_CHECKING, which hides it from a reader): none since the session's parts see the session
through Protocols (controller/session/host.py); never added to."""

GAME_LISTS = 2
"""Module-level values spelling three or more games: controller/registry's (the one list) and
the rules engine's draughts rule sets (Italian, International and Brazilian among them: rules,
not the board's games). The target is one, the registry."""

IN_FUNCTION_IMPORTS = 226
"""Project imports inside functions in controller/, today. The target: only the command
layer's, which load a command when it runs."""


@ONE_READING
def test_no_new_import_cycle() -> None:
    found = house.cycles(house.import_graph(house.project_files()))
    new = [c for c in found if c not in KNOWN_CYCLES]
    gone = [c for c in KNOWN_CYCLES if c not in found]
    assert new == [], f"a new import cycle: {new}"
    assert gone == [], f"broken, well done: take it out of KNOWN_CYCLES: {gone}"
    assert found == [], "no import cycle anywhere (firmware's MicroPython pair excepted)"


@ONE_READING
def test_no_game_name_tested_outside_its_folder() -> None:
    found = [where for path in CONTROLLER for where in house.game_ifs(path)]
    assert found == [], (
        "a game's name tested outside controller/games/<name>/ and its rules (ask the game's "
        f"registry entry instead): {found}"
    )


@ONE_READING
def test_no_new_list_of_games() -> None:
    found = [w for path in CONTROLLER for w in house.game_lists(path)]
    assert len(found) <= GAME_LISTS, f"a new list of the games: {found}"
    assert len(found) == GAME_LISTS, f"fewer now, well done: GAME_LISTS = {len(found)}"


@ONE_READING
def test_no_new_import_inside_a_function() -> None:
    found = house.in_function_imports(CONTROLLER)
    assert len(found) <= IN_FUNCTION_IMPORTS, "an import inside a function: move it to the top"
    assert len(found) == IN_FUNCTION_IMPORTS, f"fewer now: IN_FUNCTION_IMPORTS = {len(found)}"


# ---------------------------------------------------------------------------- the readers


def test_a_cycle_through_an_import_in_a_function_is_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "firmware.x": {"firmware.y"}}
    graph["firmware.y"] = {"firmware.x"}
    assert house.cycles(graph) == [["a", "b", "c"]]


@pytest.mark.parametrize(
    ("source", "how"),
    [
        ("from controller.rules import game\n", "top"),
        ("def f():\n    from controller.rules import game\n", "function"),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from controller.rules import game\n",
            "type_checking",
        ),
        ("class C:\n    def m(self):\n        import controller.rules.game\n", "function"),
    ],
)
def test_how_an_import_runs_is_read(source: str, how: str) -> None:
    path = house.ROOT / "controller" / "view" / "compose.py"
    found = house.imports_of(path, source)
    assert [(i.module, i.how) for i in found] == [("controller.rules.game", how)]


@pytest.mark.parametrize(
    "source",
    [
        'if name == "dadama":\n    pass\n',
        'x = 1 if game in ("dam", "english") else 2\n',
        "if kind.name == dadama.GAME:\n    pass\n",
        "if rules is draughts.DAM.name:\n    pass\n",
        'match game:\n    case "mathchess":\n        pass\n',
        'xs = [g for g in games if g != "damath"]\n',
    ],
)
def test_a_game_named_in_a_test_is_found(source: str) -> None:
    assert house.game_ifs(house.ROOT / "controller" / "hub" / "store.py", source) != []


def test_a_game_named_in_its_own_folder_is_not() -> None:
    source = 'if name == "dadama":\n    pass\n'
    assert house.game_ifs(house.ROOT / "controller/games/dadama/view.py", source) == []
    assert house.game_ifs(house.ROOT / "controller/games/dam/view.py", source) != []


def test_a_game_named_in_its_own_rules_is_not() -> None:
    source = 'if obj["game"] != "dadama":\n    pass\n'
    rules = house.ROOT / "controller/rules"
    assert house.game_ifs(rules / "dadama_notation.py", source) == []
    assert house.game_ifs(rules / "dadama.py", source) == []
    assert house.game_ifs(rules / "dam_notation.py", source) != []
    assert house.game_ifs(rules / "mathchess/record.py", 'if g == "mathchess":\n    pass\n') == []
    assert house.game_ifs(rules / "pdn_game.py", source) != []  # the core's, of no one game
