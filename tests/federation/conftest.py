"""Fixtures of the federation's tests: a real PostgreSQL (initdb'd for the session), the
federation's certificates, and federations served over HTTPS on PostgreSQL and on SQLite, each
started once for the session (the tests that change them use events of their own)."""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from pathlib import Path

import pytest

from controller.federation.cluster import reader_user_commands

from .services import (
    FederationServer,
    Postgres,
    RabbitCluster,
    damath_here,
    definitions_of,
    make_certificates,
)

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
    broker_ca: str = "",
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
            "--broker-ca",
            broker_ca,
        ]
    damath_here(*args)
    roster = folder / "players.csv"
    roster.write_text(
        "name,school,region,birth_year\n" + "".join(",".join(p) + "\n" for p in PLAYERS)
    )
    out = damath_here("federation", "player", "import", str(roster), "--dir", str(folder)).stdout
    ids = [line.split(",")[0] for line in out.splitlines()[1:]]
    for event_id, name, date, region, _players in EVENTS:
        damath_here(
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


@pytest.fixture(scope="session")
def sqlite_fed(tmp_path_factory, certs):
    server, ids = new_federation(tmp_path_factory.mktemp("fed-sqlite"), "", certs)
    yield server, ids
    server.stop()


@pytest.fixture(scope="session")
def pg_fed(tmp_path_factory, certs, postgres):
    db = postgres.create_database("fedtest")
    server, ids = new_federation(tmp_path_factory.mktemp("fed-pg"), db, certs)
    yield server, ids
    server.stop()


# ------------------------------------------------------------------ the broker cluster

READER_PASSWORD = "federation-reader-password"
"""The federation's own user at the cluster (it reads every hall, publishes nothing)."""


class ClusterStart:
    """The session's broker cluster, started in a thread as soon as the tests are collected
    when any test will use it (its three Erlang nodes boot while the first tests run), else
    when first asked for. TLS only, with a CA of its own (not the federation's)."""

    def __init__(self) -> None:
        self.rabbit: RabbitCluster | None = None
        self.ca = ""
        self.error: BaseException | None = None
        self.thread: threading.Thread | None = None
        self.folder = Path(tempfile.mkdtemp(prefix="damath-cluster-certs-"))

    def begin(self) -> None:
        if self.thread is None:
            self.thread = threading.Thread(target=self._start, name="rabbit", daemon=True)
            self.thread.start()

    def _start(self) -> None:
        try:
            ca, cert, key = make_certificates(self.folder)
            rabbit = RabbitCluster(3, tls=(ca, cert, key))
            self.rabbit, self.ca = rabbit, ca
            rabbit.start(definitions_of(reader_user_commands("federation", READER_PASSWORD)))
        except BaseException as exc:  # said by the fixture, in the test that needs it
            self.error = exc

    def get(self) -> RabbitCluster:
        self.begin()
        assert self.thread is not None
        self.thread.join()
        if self.error is not None:
            raise self.error
        assert self.rabbit is not None
        return self.rabbit

    def stop(self) -> None:
        if self.thread is not None:
            self.thread.join()
        if self.rabbit is not None:
            self.rabbit.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


_CLUSTER = ClusterStart()

SERVERS = {
    "cluster": "federation-cluster",
    "postgres": "federation-servers",
    "pg_fed": "federation-servers",
    "sqlite_fed": "federation-servers",
}
"""The session's servers, and the pytest-xdist group of the tests that use each: one worker
runs every test of a group, so each server starts once in a run (a worker of its own would
start its own copy: a cluster of three Erlang nodes costs about 40 s of CPU)."""
ON_SERVERS = pytest.mark.xdist_group(SERVERS["postgres"])
"""For a test that asks for a server by its name at run time (``request.getfixturevalue``)."""
ON_POSTGRES = [pytest.mark.slow, ON_SERVERS]
"""A test's PostgreSQL case: only the slow tier starts the server (``./test.sh --quick`` never
does)."""


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(session, config, items):
    for item in items:
        used = [SERVERS[f] for f in getattr(item, "fixturenames", ()) if f in SERVERS]
        if used:
            item.add_marker(pytest.mark.xdist_group(sorted(used)[0]))


def pytest_collection_finish(session):
    # what will run (after -m and -k): the cluster boots while the first tests run; in a
    # pytest-xdist worker, which may run none of them, when its first test asks for it
    wanted = any("cluster" in getattr(item, "fixturenames", ()) for item in session.items)
    if wanted and not os.environ.get("PYTEST_XDIST_WORKER"):
        _CLUSTER.begin()
    session.config.add_cleanup(_CLUSTER.stop)


@pytest.fixture(scope="session")
def cluster() -> RabbitCluster:
    return _CLUSTER.get()


@pytest.fixture(scope="session")
def cluster_ca(cluster) -> str:
    return _CLUSTER.ca
