"""The federation's pages in this process, for the browser tests: a federation initialised by
its own command on SQLite, its app served over HTTP on a free port, its wall fed by the test
(``Wall.message``, what the broker cluster's reader calls)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from controller.federation.service import Federation
from controller.federation.wall import Wall
from controller.federation.web import create_app
from tests.sim.conftest import ManualClock, serve

from .services import damath_here


@dataclass
class Site:
    url: str
    fed: Federation
    wall: Wall


@contextlib.contextmanager
def served(folder: Path, *init: str) -> Iterator[Site]:
    """A new federation in ``folder`` (``init``: more options of ``federation init``)."""
    damath_here("federation", "init", "--dir", str(folder), "--name", "NCR Damath", *init)
    fed = Federation.open(folder)
    wall = Wall()
    try:
        with serve(create_app(fed, wall), ManualClock()) as running:
            yield Site(running.url, fed, wall)
    finally:
        fed.close()
