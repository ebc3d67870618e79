"""The repository carries its own documentation: no file points outside it, every link between
its documents and pictures resolves, and the board pictures are what the engine draws."""

from __future__ import annotations

import importlib.util
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEXT = {".md", ".py", ".toml", ".sh", ".html", ".js", ".css", ".txt", ".service", ".cfg", ""}


def _project_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    paths = [ROOT / raw.decode() for raw in listed if raw]
    return [p for p in paths if p.is_file() and p.suffix in TEXT]


OUTSIDE = re.compile(r"\.\./shared|/work/shared|shared/(RULES|REFERENCES|STACK|STYLE|ARCHITECTURE)")


def test_no_file_of_the_project_points_outside_the_repository() -> None:
    here = Path(__file__).resolve()
    found = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in _project_files()
        if p.resolve() != here
        for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert found == []


def test_the_rules_document_is_in_the_repository_with_every_decision() -> None:
    rules = (ROOT / "RULES.md").read_text(encoding="utf-8")
    for decision in [f"D-{n}" for n in range(1, 10)] + [f"E-{n}" for n in range(1, 6)]:
        assert f"**{decision}**" in rules or f"| {decision} |" in rules, decision
    for example in ("−7 ÷ 2 = −3.5 ≈ −4", "(−3x²y)(−xy²) = 24000", "**75**", "**−72**"):
        assert example in rules


LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize(
    "doc", sorted(p.relative_to(ROOT).as_posix() for p in [ROOT / "README.md", ROOT / "RULES.md",
                                                          *(ROOT / "docs").glob("*.md")])
)  # fmt: skip
def test_every_link_and_picture_of_a_document_resolves(doc: str) -> None:
    path = ROOT / doc
    broken = [
        target
        for target in LINK.findall(path.read_text(encoding="utf-8"))
        if not target.startswith(("http://", "https://", "mailto:"))
        and not (path.parent / target).exists()
    ]
    assert broken == []


def test_the_board_pictures_are_what_the_engine_draws() -> None:
    spec = importlib.util.spec_from_file_location(
        "make_diagrams", ROOT / "scripts/make_diagrams.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    from controller.view.diagram import svg

    for name, diagram in module.diagrams().items():
        drawn = svg(diagram)
        kept = (ROOT / "docs" / "images" / f"{name}.svg").read_text(encoding="utf-8")
        assert kept == drawn, f"docs/images/{name}.svg is stale: run scripts/make_diagrams.py"
