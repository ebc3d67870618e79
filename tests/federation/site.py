"""The federation's pages in this process, for the browser tests: a federation initialised by
its own command on SQLite, its app served over HTTP on a free port, its wall fed by the test
(``Wall.message``, what the broker cluster's reader calls)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from controller.federation import ratings
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


PLAYERS = [  # long names and schools, as a real registry has them
    ("Maria Concepcion Santos-Villanueva", "Dr. Jose P. Rizal Elementary School", "NCR"),
    ("Jose Emmanuel Reyes", "Apolinario Mabini National High School", "NCR"),
    ("Gino Ramos", "Calamba National High School", "IV-A"),
    ("Ana Reyes", "Rizal ES", "NCR"),
]


def rated(site: Site) -> list[str]:
    """The registry's players and a rating list of their games (a rating run as the service
    makes one, from results of the month: each plays each twice, the first named wins)."""
    ids = site.fed.store.add_players(
        [{"name": n, "school": s, "region": r, "birth_year": 2012} for n, s, r in PLAYERS]
    )
    results = [
        {"date": "2026-11-14", "blue": ids[i], "red": ids[j], "outcome": "blue",
         "family": "integer"}
        for i in range(len(ids)) for j in range(len(ids)) if i < j for _twice in (1, 2)
    ]  # fmt: skip
    run = ratings.Run()
    rows = ratings.rate(results, 1, run)
    site.fed.store.replace_ratings(
        rows,
        lambda: {"games": run.games, "players": len(run.players), "periods": run.periods,
                 "last_period": run.last_period, "seconds": 0.0},
    )  # fmt: skip
    return ids
