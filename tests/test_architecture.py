"""One pipeline, one direction (docs/architecture.md): imports point down the pipeline and never
back, including imports inside functions. A new upward import fails here, naming the line."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# package -> the project packages it may import (besides itself)
ALLOWED = {
    "controller/i18n": set(),  # the words' languages: every layer may speak through it
    "controller/rules": set(),
    "controller/scoresheet": {"controller.i18n", "controller.rules"},
    "controller/audit": {"controller.i18n", "controller.rules", "controller.scoresheet"},
    "controller/tracker": {"controller.i18n", "controller.rules"},
    "controller/engine": {"controller.i18n", "controller.rules"},
    # the coach on a board: the engine's searches for a session, run in worker processes
    "controller/coach": {
        "controller.i18n",
        "controller.rules",
        "controller.engine",
        "controller.session",
        "controller.game_record",
        "controller.review_cli",
    },
    "controller/session": {
        "controller.i18n",
        "controller.rules",
        "controller.scoresheet",
        "controller.tracker",
    },
    "controller/view": {
        "controller.i18n",
        "controller.rules",
        "controller.scoresheet",
        "controller.tracker",
        "controller.session",
    },
    # the board's link: reads the journal (session), describes games (rules, scoresheet);
    # its playback board drives a session from traces (tracker) for tests and load
    "controller/link": {
        "controller.i18n",  # what the board says of its link, in the board's language
        "controller.rules",
        "controller.scoresheet",
        "controller.session",
        "controller.tracker",
        "controller.demo",
    },
    # the hub: the rules engine and the scoresheet, the wire protocol and the rebuilt game of
    # the link; never drivers, tracker or the session's machinery
    "controller/hub": {
        "controller.rules",
        "controller.scoresheet",
        "controller.link.protocol",
        "controller.link.gamestate",
        "controller.link.config",
        "controller.link.client",
        "controller.tournament",  # the organiser's commands under `damath-board hub`
    },
    # the tournament: exact Damath scores from the rules engine; nothing of the hub or boards
    "controller/tournament": {"controller.rules"},
    "drivers": {"firmware"},
    "firmware": set(),
}
PROJECT = ("controller", "drivers", "firmware")


def project_imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return [(n, m) for n, m in found if m.split(".")[0] in PROJECT]


@pytest.mark.parametrize("package", ALLOWED)
def test_imports_point_down_the_pipeline(package: str) -> None:
    own = package.replace("/", ".")
    allowed = ALLOWED[package] | {own}
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for line, module in project_imports(path)
        if not any(module == a or module.startswith(a + ".") for a in allowed)
    ]
    assert wrong == []
