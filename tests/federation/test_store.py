"""One schema on both stores: Alembic's migrations make exactly the tables ``schema.py``
declares, on PostgreSQL and on SQLite; the registry hands out IDs with their check digit; a
submission is kept whatever its verdict (a refused one as its digest and reasons), and a
refused one never undoes an accepted one."""

from __future__ import annotations

import itertools

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text

from controller.federation import registry
from controller.federation.ids import check_id
from controller.federation.schema import metadata
from controller.federation.store import FederationStore, StoreError, database_url
from controller.federation.verify import verify

from .conftest import ON_POSTGRES
from .kit import event_of
from .services import damath

NUMBERS = itertools.count(1)


@pytest.fixture(params=[pytest.param("postgresql", marks=ON_POSTGRES), "sqlite"])
def store(request, tmp_path):
    if request.param == "postgresql":
        pg = request.getfixturevalue("postgres")
        url = pg.create_database(f"store{next(NUMBERS)}")
    else:
        url = str(tmp_path / "fed.sqlite")
    s = FederationStore.open(url)
    yield s
    s.close()


def test_the_migrated_store_is_the_declared_schema(store):
    with store.engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, metadata) == []
        assert context.get_current_revision() == "0002"


def test_a_store_of_a_newer_version_is_refused_with_the_fix(store):
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0099'"))
    with pytest.raises(StoreError, match=r"made by a newer damath-board \(schema 0099\): update"):
        store.migrate()


def test_ids_are_issued_in_order_with_their_check_digit(store):
    ids = store.add_players([{"name": "Ana"}, {"name": "Ben"}])
    assert ids == ["1000009", "1000017"] and all(check_id(i) == i for i in ids)
    assert store.add_players([{"name": "Cy"}]) == ["1000025"]
    assert store.player("1000017")["name"] == "Ben"


def test_a_bad_registry_list_adds_nobody_and_names_the_lines(store):
    bad = "name,school,region,birth_year\nAna,Rizal ES,NCR,2014\n,Rizal ES,NCR,2013\nCy,,,20x4\n"
    with pytest.raises(registry.RegistryError) as exc:
        registry.read_csv(bad)
    assert "line 3: name is needed" in str(exc.value)
    assert "line 4: birth year '20x4' is not a year" in str(exc.value)
    assert store.players() == {}


def test_submissions_are_kept_and_a_refusal_never_undoes_an_acceptance(store, tmp_path):
    store.add_players([{"name": "Ana"}, {"name": "Ben"}])
    ev = event_of(tmp_path, "blue")
    store.add_event(
        {
            "id": ev.event_id,
            "name": "Test Cup",
            "date": "2026-12-05",
            "region": "NCR",
            "token_hash": "0" * 64,
            "sign_key": ev.sign_key.hex(),
        }
    )
    row = store.event(ev.event_id)
    good = ev.submission()
    first = store.submit(ev.event_id, good, "a", verify(good, row, store.players))
    assert store.event(ev.event_id)["state"] == "accepted"
    assert [r["outcome"] for r in store.results()] == ["blue"]
    bad = ev.submission(key=b"x" * 32)
    store.submit(ev.event_id, bad, "b", verify(bad, row, store.players))
    subs = store.submissions(ev.event_id)
    assert [s["verdict"] for s in subs] == ["accepted", "refused"]
    # the refused file is not kept (three 60 MiB ones used to take 236 MB): its digest is
    assert store.submission_body(subs[1]["id"]) is None
    assert (subs[1]["sha256"], subs[1]["size"]) == ("b", len(bad))
    assert store.submission_body(subs[0]["id"]) == good
    assert store.event(ev.event_id)["submission_id"] == first  # still the accepted one's
    assert [r["outcome"] for r in store.results()] == ["blue"]
    assert len(store.games(ev.event_id)) == 1


def test_the_store_url_is_a_postgresql_url_or_an_sqlite_file(tmp_path):
    assert database_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert database_url(str(tmp_path / "f.sqlite")) == f"sqlite:///{tmp_path / 'f.sqlite'}"
    with pytest.raises(StoreError, match=r"mysql://h/db: a postgresql:// URL or an SQLite file"):
        database_url("mysql://h/db")


def test_an_unreachable_postgresql_is_one_line_not_a_traceback(tmp_path):
    out = damath("federation", "init", "--dir", str(tmp_path / "f"), "--db",
                 "postgresql://fed:secret@127.0.0.1:1/fed", check=False)  # fmt: skip
    assert out.returncode == 2 and "Traceback" not in out.stderr
    (line,) = out.stderr.strip().splitlines()
    assert line.startswith("damath-board federation: error: the store ")
    assert "cannot be opened" in line and "secret" not in line  # the password never shown
