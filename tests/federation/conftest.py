"""Fixtures of the federation's tests: a real PostgreSQL (initdb'd for the session), the
federation's certificates, and federations served over HTTPS on PostgreSQL and on SQLite."""

from __future__ import annotations

from pathlib import Path

import pytest

from .services import FederationServer, Postgres, damath, make_certificates

# The registry every federation of these tests holds, in this order (so each gives the same
# federation IDs): name, school, region, birth year. Strongest first: in the halls' events the
# stronger player of each game wins it.
PLAYERS = [
    ("Ana Reyes", "Rizal ES", "NCR", "2014"),
    ("Ben Cruz", "Rizal ES", "NCR", "2013"),
    ("Carla Santos", "Mabini HS", "NCR", "2011"),
    ("Dino Lim", "Mabini HS", "NCR", "2012"),
    ("Ella Garcia", "Bonifacio ES", "NCR", "2015"),
    ("Fe Aquino", "Bonifacio ES", "NCR", "2014"),
    ("Gio Ramos", "Calamba NHS", "IV-A", "2010"),
    ("Hana Torres", "Calamba NHS", "IV-A", "2011"),
]
EVENTS = [  # id, name, date, region; the players (by their place in PLAYERS), in entry order
    ("ncr-meet", "NCR Division Meet", "2026-09-12", "NCR", (0, 1, 2, 3)),
    ("ncr-interschool", "NCR Inter-school Cup", "2026-10-10", "NCR", (0, 2, 4, 5)),
    ("calabarzon-open", "Calabarzon Open", "2026-11-14", "IV-A", (1, 4, 6, 7)),
]


@pytest.fixture(scope="session")
def postgres():
    pg = Postgres().start()
    yield pg
    pg.stop()


@pytest.fixture(scope="session")
def certs(tmp_path_factory):
    return make_certificates(tmp_path_factory.mktemp("certs"))


def new_federation(
    folder: Path,
    db: str,
    certs: tuple[str, str, str],
    broker: list[str] | None = None,
    broker_password: str = "",
) -> tuple[FederationServer, list[str]]:
    """A federation initialised by its commands: the registry, the three events and their
    credentials (``folder/events/<id>.toml``); served over HTTPS. Returns the federation IDs."""
    ca, cert, key = certs
    server = FederationServer(folder, ca, cert, key)
    args = [
        "federation",
        "init",
        "--dir",
        str(folder),
        "--url",
        server.url,
        "--ca",
        ca,
        "--name",
        "Damath Federation (test)",
    ]
    if db:
        args += ["--db", db]
    if broker:
        args += [
            "--broker-nodes",
            ",".join(broker),
            "--broker-user",
            "federation",
            "--broker-password",
            broker_password,
        ]
    damath(*args)
    roster = folder / "players.csv"
    roster.write_text(
        "name,school,region,birth_year\n" + "".join(",".join(p) + "\n" for p in PLAYERS)
    )
    out = damath("federation", "player", "import", str(roster), "--dir", str(folder)).stdout
    ids = [line.split(",")[0] for line in out.splitlines()[1:]]
    for event_id, name, date, region, _players in EVENTS:
        damath(
            "federation",
            "event",
            "add",
            event_id,
            "--name",
            name,
            "--date",
            date,
            "--region",
            region,
            "--dir",
            str(folder),
        )
    return server.start(), ids
