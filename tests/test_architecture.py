"""One pipeline, one direction (docs/architecture.md): imports point down the layers and never
back, including imports inside functions and relative imports (``from ..session import``, read
as the module it names). A new upward import fails here, naming the line; a new module that no
unit below claims fails too, so nothing escapes the check by being new."""

from __future__ import annotations

from pathlib import Path

import pytest

from . import house

ROOT = Path(__file__).resolve().parents[1]
PROJECT = ("controller", "drivers", "firmware")

# The layers, bottom first. A unit is a package (a folder) or a module (a file); it may import
# units of lower layers only, and of those only the ones ALLOWED names. `controller/board` (the
# board runtime: the scan loop, the host of a board's games) sits above the session, the view,
# the coach and the link, below the commands, which are thin over it.
LAYERS: tuple[tuple[str, ...], ...] = (
    (
        "firmware",
        "controller/__init__",
        "controller/i18n",
        "controller/data",
        "controller/httpedge",
    ),
    ("drivers", "controller/rules", "controller/ratings", "controller/registry"),
    ("controller/scoresheet", "controller/tracker"),
    ("controller/engine", "controller/tournament", "controller/audit"),
    ("controller/record",),
    ("controller/session",),
    ("controller/view", "controller/coach", "controller/link", "controller/puzzles"),
    ("controller/federation",),
    ("controller/hub", "controller/games"),
    ("controller/board",),
    ("controller/progress",),
    (
        "controller/sim",
        "controller/cli",  # every command of damath-board, one module each
    ),
)
COMMANDS = LAYERS[-1]

BOARD_BELOW = {
    "drivers",
    "firmware",
    "controller.i18n",
    "controller.data",
    "controller.rules",
    "controller.scoresheet",
    "controller.tracker",
    "controller.engine",
    "controller.record",
    "controller.session",
    "controller.view",
    "controller.coach",
    "controller.link",
    "controller.games",
    "controller.registry",
}

# unit -> the project units it may import (besides itself)
ALLOWED: dict[str, set[str]] = {
    "firmware": set(),
    "controller/__init__": set(),
    "controller/i18n": set(),  # the words' languages: every layer may speak through it
    "controller/data": set(),
    "controller/httpedge": set(),  # the one HTTP edge of the hub, the simulator, the federation
    "drivers": {"firmware"},
    "controller/rules": set(),
    "controller/ratings": set(),  # Glicko-2 from the paper (pure): players and puzzles
    # the games of the board, one line each: data and dotted paths, loaded only when asked for
    "controller/registry": {"controller.i18n"},
    "controller/scoresheet": {"controller.i18n", "controller.rules"},
    "controller/tracker": {"controller.i18n", "controller.rules"},
    "controller/engine": {"controller.i18n", "controller.rules"},
    # the tournament: exact Damath scores from the rules engine (and its --rules, --variant
    # options); nothing of the hub or boards; the printed lists in the players' language
    "controller/tournament": {"controller.i18n", "controller.rules", "controller.registry"},
    "controller/audit": {"controller.i18n", "controller.rules", "controller.scoresheet"},
    # every game's record: the journal's grammar, each game's applier, the file formats
    "controller/record": {
        "controller.i18n",
        "controller.rules",
        "controller.scoresheet",
        "controller.registry",
    },
    "controller/session": {
        "controller.i18n",
        "controller.rules",
        "controller.scoresheet",
        "controller.tracker",
        "controller.record",
    },
    "controller/view": {
        "controller.i18n",
        "controller.record",
        "controller.rules",
        "controller.scoresheet",
        "controller.tracker",
        "controller.session",
    },
    # the coach on a board: the engine's searches for a session, run in worker processes
    "controller/coach": {
        "controller.i18n",
        "controller.record",
        "controller.rules",
        "controller.engine",
        "controller.session",
    },
    # the puzzles: found by the engine in kept games (journals, records), kept in SQLite
    "controller/puzzles": {
        "controller.i18n",
        "controller.rules",
        "controller.engine",
        "controller.ratings",
        "controller.session",
        "controller.record",
    },
    # the board's link: reads the journal (session), describes games (rules, scoresheet);
    # its playback board drives a session from traces (tracker) for tests and load
    "controller/link": {
        "controller.i18n",  # what the board says of its link, in the board's language
        "controller.record",
        "controller.rules",
        "controller.scoresheet",
        "controller.session",
        "controller.tracker",
        "controller.engine",  # the playback board's sample game file (engine/game_record.py)
    },
    # the federation: a game rebuilt from its records (the link's applier over the record's),
    # the wire format, exact tournament scores; nothing of the hub, the boards or the session
    "controller/federation": {
        "controller.i18n",
        "controller.rules",
        "controller.scoresheet",
        "controller.record",
        "controller.tournament",
        "controller.ratings",
        "controller.link.protocol",
        "controller.link.gamestate",
        "controller.httpedge",
    },
    # the hub: the rules engine and the scoresheet, the wire protocol and the rebuilt game of
    # the link; never drivers, tracker or the session's machinery
    "controller/hub": {
        "controller.i18n",  # what spectators and players read: the event's wall, a sheet's result
        "controller.federation",  # the submission's format, the event's credential
        "controller.rules",
        "controller.scoresheet",
        "controller.link.protocol",
        "controller.link.gamestate",
        "controller.link.config",
        "controller.link.client",
        "controller.record.toml_text",  # the one TOML string writer (hub.toml)
        "controller.tournament",  # the organiser's commands under `damath-board hub`
        "controller.httpedge",
    },
    # the registry of games: each game's session, view and coach behind one interface
    "controller/games": {
        "controller.i18n",
        "controller.registry",
        "controller.record",
        "controller.rules",
        "controller.scoresheet",
        "controller.tracker",
        "controller.session",
        "controller.view",
        "controller.coach",
        "controller.puzzles",  # Damath's puzzle mode: the class's store, the judging
    },
    "controller/board": BOARD_BELOW,
    # each child's progress: the kept games read back and reviewed by the coach's engine
    "controller/progress": {
        "controller.i18n",
        "controller.rules",
        "controller.engine",
        "controller.record",
        "controller.session",
        "controller.puzzles",  # a child's puzzles beside the games (controller/progress/puzzles.py)
    },
}
_BELOW_COMMANDS = {unit.replace("/", ".") for layer in LAYERS[:-1] for unit in layer}
for _command in COMMANDS:  # a command may use every floor below, and another command
    ALLOWED[_command] = _BELOW_COMMANDS | {c.replace("/", ".") for c in COMMANDS}

UPWARD: set[tuple[str, str]] = set()
"""The few imports that point up a layer, each with its reason; no other may."""


module_name = house.module_name


def project_imports(path: Path, source: str | None = None) -> list[tuple[int, str]]:
    """Every project module ``path`` imports, with its line (at the top, inside a function or
    for the type checker alike; ``tests/house.py`` reads them)."""
    return [(i.line, i.module) for i in house.imports_of(path, source)]


def unit_of(path: Path) -> str | None:
    """The unit a file belongs to: its package or its own module."""
    rel = path.relative_to(ROOT).with_suffix("")
    for depth in (2, 1):
        unit = "/".join(rel.parts[:depth])
        if unit in ALLOWED:
            return unit
    return None


def project_files() -> list[Path]:
    return sorted(p for top in PROJECT for p in (ROOT / top).rglob("*.py"))


def wrong_imports(path: Path, source: str | None = None) -> list[str]:
    unit = unit_of(path)
    assert unit is not None, f"{path} belongs to no unit"
    own = unit.replace("/", ".")
    allowed = ALLOWED[unit] | {own}
    return [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for line, module in project_imports(path, source)
        if not any(module == a or module.startswith(a + ".") for a in allowed)
        and unit_of(ROOT.joinpath(*module.split(".")).with_suffix(".py")) != unit
    ]


@pytest.mark.slow
@pytest.mark.parametrize("unit", ALLOWED)
def test_imports_point_down_the_layers(unit: str) -> None:
    files = [p for p in project_files() if unit_of(p) == unit]
    wrong = [w for path in files for w in wrong_imports(path)]
    assert wrong == []


def test_every_module_belongs_to_a_unit() -> None:
    """A new package or command is placed in LAYERS before it can import anything."""
    assert [str(p.relative_to(ROOT)) for p in project_files() if unit_of(p) is None] == []


def test_the_allowed_imports_point_down() -> None:
    """ALLOWED agrees with LAYERS: every allowed import is of a lower layer, but UPWARD's."""
    layer = {unit: n for n, units in enumerate(LAYERS) for unit in units}
    assert set(layer) == set(ALLOWED)
    up = []
    for unit, allowed in ALLOWED.items():
        for target in allowed:
            name = target.replace(".", "/")
            target_unit = next(u for u in layer if name == u or name.startswith(u + "/"))
            if layer[target_unit] >= layer[unit] and unit not in COMMANDS:
                up.append((unit, target))
    assert sorted(up) == sorted(UPWARD)


@pytest.mark.parametrize(
    ("where", "line"),
    [
        ("controller/tracker/tracker.py", "from ..session import Session"),
        ("controller/tracker/tracker.py", "from ..session.session import Session"),
        ("controller/tracker/tracker.py", "from .. import session"),
        ("controller/rules/game.py", "from controller import tracker"),
        ("controller/rules/game.py", "from ..engine.search import best_move"),
        ("controller/session/session.py", "from ..board import host"),
        ("controller/view/compose.py", "from controller.sim import engine"),
        ("drivers/leds.py", "from controller.rules import Game"),
        ("controller/board/host.py", "from ..sim import engine"),
        ("controller/board/host.py", "from controller import app"),
    ],
)
def test_an_upward_import_is_caught_in_every_spelling(where: str, line: str) -> None:
    """The check itself: each of these breaks the direction and must be named."""
    source = f"def later():\n    {line}\n"
    assert wrong_imports(ROOT / where, source) != []


@pytest.mark.parametrize(
    ("where", "line"),
    [
        ("controller/cli/newgame.py", "from ..rules.newgame import Position"),
        ("controller/tracker/tracker.py", "from .events import Lifted"),
        ("controller/tracker/tracker.py", "from ..rules.game import Game"),
        ("controller/board/host.py", "from ..session import Session"),
        ("controller/board/host.py", "from drivers.factory import build"),
        ("controller/sim/engine.py", "from controller.board import host"),
        ("controller/cli/run.py", "from ..board import host"),
    ],
)
def test_a_downward_import_passes(where: str, line: str) -> None:
    assert wrong_imports(ROOT / where, f"{line}\n") == []


BOARD_MACHINERY = (
    "controller.session",
    "controller.tracker",
    "controller.board",
    "controller.sim",
    "controller.coach",
    "controller.games",
    "controller.view",
    "drivers",
)
"""What runs a board: the hub rebuilds a game from its records without any of it."""


def _module_file(name: str) -> Path | None:
    base = ROOT.joinpath(*name.split("."))
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    return None


def imported_closure(start: list[str]) -> dict[str, str]:
    """Every project module the ``start`` modules load, and the imports of those, with the
    packages whose ``__init__`` loading them runs: module -> the module that first brought it."""
    seen: dict[str, str] = {name: "" for name in start}
    todo = list(start)
    while todo:
        name = todo.pop()
        path = _module_file(name)
        if path is None:
            continue
        found = [module for _line, module in project_imports(path)]
        parts = name.split(".")
        found += [".".join(parts[:n]) for n in range(1, len(parts))]  # its packages' __init__
        for module in found:
            if module not in seen:
                seen[module] = name
                todo.append(module)
    return seen


def test_the_hub_loads_no_board_machinery_not_even_through_another_module() -> None:
    """The hub checks and rebuilds games with the record's one applier; no import of an import
    of the hub reaches the session, the tracker, the drivers or the board's runtime."""
    hub = sorted(module_name(p) for p in (ROOT / "controller" / "hub").rglob("*.py"))
    closure = imported_closure(hub)
    reached = {
        module: via
        for module, via in closure.items()
        if any(module == m or module.startswith(m + ".") for m in BOARD_MACHINERY)
    }
    assert reached == {}, f"the hub reaches (module: through): {reached}"
    assert "controller.record.state" in closure  # the one applier, shared with the board


def test_the_closure_check_follows_imports_of_imports() -> None:
    """The check itself: the session is reached through the link's playback board."""
    closure = imported_closure(["controller.link.playback"])
    assert "controller.session.session" in closure and "controller.tracker" in closure


def test_loading_the_hub_loads_no_board_machinery() -> None:
    """The same at run time: the modules Python has loaded after importing every hub module."""
    import subprocess
    import sys

    hub = sorted(module_name(p) for p in (ROOT / "controller" / "hub").rglob("*.py"))
    code = "import sys\n" + "".join(f"import {m}\n" for m in hub) + "print(*sorted(sys.modules))"
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    ).stdout.split()
    machinery = [m for m in loaded if any(m == b or m.startswith(b + ".") for b in BOARD_MACHINERY)]
    assert machinery == []
