"""The house's figures (issue 38): what the codebase's shape is, measured the same way before
and after each step of its redesign, so that a step is judged by numbers, not by taste.

    .venv/bin/python bench/house_figures.py [--list]

Prints loose modules at the top of controller/, lists of games, game names tested outside the
game's folder, import cycles (imports inside functions and under TYPE_CHECKING counted), those
imports' counts, the longest functions and widest classes, and what ``damath-board --help``
imports (``python -X importtime``). ``--list`` names every place behind each count.
docs/architecture.md keeps the table of each step."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests import house

IMPORT_LINE = re.compile(r"^import time:\s+(\d+)\s+\|\s+(\d+)\s+\|(\s*)(\S+)")


def importtime() -> tuple[int, int, float]:
    """Project modules, all modules, and the wall seconds of ``damath-board --help``."""
    start = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "controller.cli", "--help"],
        capture_output=True,
        text=True,
        cwd=house.ROOT,
        check=True,
    )
    wall = time.perf_counter() - start
    names = [m.group(4) for line in run.stderr.splitlines() if (m := IMPORT_LINE.match(line))]
    project = [n for n in names if n.split(".")[0] in house.PROJECT]
    return len(project), len(names), wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="name every place behind each count")
    args = parser.parse_args(argv)
    files = house.project_files()
    controller = house.project_files(("controller",))

    loose = house.loose_modules()
    lists = [w for p in controller for w in house.game_lists(p)]
    ifs = [w for p in controller for w in house.game_ifs(p)]
    found_cycles = house.cycles(house.import_graph(files))
    in_function = house.in_function_imports(controller)
    type_checking = house.type_checking_imports(controller)
    funcs = sorted((f for p in controller for f in house.functions(p)), key=lambda f: -f.lines)
    wide = sorted((c for p in controller for c in house.classes(p)), key=lambda c: -c.lines)
    project, every, wall = importtime()

    rows = [
        ("loose modules at the top of controller/", str(len(loose))),
        ("module-level lists of three or more games", str(len(lists))),
        ("game names tested outside the game's folder", str(len(ifs))),
        ("import cycles (modules in them)", f"{len(found_cycles)} ({sum(map(len, found_cycles))})"),
        ("project imports inside functions", str(len(in_function))),
        ("project imports under TYPE_CHECKING", str(len(type_checking))),
        ("longest function", f"{funcs[0].name} {funcs[0].lines} lines ({funcs[0].where})"),
        (
            "widest class",
            f"{wide[0].name} {wide[0].lines} lines, {wide[0].public} public methods"
            f" ({wide[0].where})",
        ),
        ("damath-board --help imports", f"{project} project modules of {every}, {wall:.2f} s"),
    ]
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print(f"{label:<{width}}  {value}")
    if args.list:
        sections = {
            "loose modules": loose,
            "lists of games": lists,
            "game names in tests": ifs,
            "cycles": [" ".join(c) for c in found_cycles],
            "longest functions (10)": [f"{f.lines:5d} {f.name} {f.where}" for f in funcs[:10]],
            "widest classes (10)": [
                f"{c.lines:5d} {c.public:3d} {c.name} {c.where}" for c in wide[:10]
            ],
        }
        for title, items in sections.items():
            print(f"\n{title}:")
            for item in items:
                print(f"  {item}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
