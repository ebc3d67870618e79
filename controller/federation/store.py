"""The federation's store: one schema (``schema.py``) on PostgreSQL or SQLite, through
SQLAlchemy's Core, migrated by Alembic when it is opened.

PostgreSQL for a region or a country (``postgresql://user:password@host/db``, psycopg 3 over
Debian's libpq); an SQLite file for a small league (the default, ``DIR/federation.sqlite``, in
WAL mode with ``synchronous=FULL``: an accepted event survives a power cut). Every write is one
transaction: an event's verdict, its games and results go in together or not at all.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from sqlalchemy import (
    Connection,
    Engine,
    create_engine,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError

from controller.i18n import _

from . import schema as s
from .ids import FIRST, make_id, serial_of
from .storehealth import StoreHealth, StoreUnreachable, unreachable

SQLITE_NAME = "federation.sqlite"
MIGRATIONS = "controller.federation:migrations"


class StoreError(ValueError):
    """The store cannot be opened or used; the message says why and what to do."""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def database_url(target: str, folder: Path | None = None) -> str:
    """The SQLAlchemy URL of ``--db``: a PostgreSQL URL (``postgresql://…``, psycopg 3), an
    SQLite URL, or a file path (SQLite). Empty: ``DIR/federation.sqlite``."""
    if not target:
        if folder is None:
            raise StoreError(_("give the store: --db URL or --dir DIR"))
        return f"sqlite:///{(folder / SQLITE_NAME).resolve()}"
    for scheme in ("postgresql://", "postgres://"):
        if target.startswith(scheme):
            return "postgresql+psycopg://" + target[len(scheme) :]
    if target.startswith(("postgresql+psycopg://", "sqlite:///")):
        return target
    if "://" in target:
        raise StoreError(
            _("--db {url}: a postgresql:// URL or an SQLite file").format(url=_shown(target))
        )
    return f"sqlite:///{Path(target).resolve()}"


def _shown(url: str) -> str:
    """A URL fit for a message: its password hidden."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url.split("@")[-1]


@dataclass(frozen=True)
class Submitted:
    """What a submission's verification found, ready to be stored."""

    verdict: str
    reasons: list[dict[str, str]]
    notes: list[dict[str, str]]
    games: list[dict[str, Any]]
    results: list[dict[str, Any]]
    records: int
    signed_at: str | None = None
    """When the hub signed it (``bundle``'s ``signed_at``), if the archive could be read."""


class FederationStore:
    """One open store. Reads and writes through the engine's pool, safe from any thread."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.shown = _shown(url)
        self.health = StoreHealth(self.shown)
        # a PostgreSQL host that does not answer (cut off, not refusing): 5 s, not the kernel's
        # two minutes, before a request is told to try again
        args = {"connect_timeout": 5} if url.startswith("postgresql") else {}
        try:
            self.engine: Engine = create_engine(
                url, pool_pre_ping=True, future=True, connect_args=args
            )
        except (ArgumentError, ImportError) as exc:
            raise StoreError(f"{self.shown}: {exc}") from None
        if self.engine.dialect.name == "sqlite":
            path = make_url(url).database or ""
            if path and path != ":memory:":
                _private_file(Path(path))
            event.listen(self.engine, "connect", _sqlite_pragmas)

    @classmethod
    def open(cls, target: str = "", folder: Path | None = None) -> FederationStore:
        """Open (creating an SQLite file if new) and bring the schema to this version."""
        store = cls(database_url(target, folder))
        store.migrate()
        return store

    @property
    def kind(self) -> str:
        return "PostgreSQL" if self.engine.dialect.name == "postgresql" else "SQLite"

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def connect(self) -> Iterator[Connection]:
        """A connection for reading; a store that does not answer is ``StoreUnreachable``
        (a 503 and a retry), said once in the log (``health``)."""
        with self._answering(), self.engine.connect() as conn:
            yield conn

    @contextmanager
    def begin(self) -> Iterator[Connection]:
        """A transaction, committed at the end; unreachable as ``connect``."""
        with self._answering(), self.engine.begin() as conn:
            yield conn

    @contextmanager
    def _answering(self) -> Iterator[None]:
        try:
            yield
        except DBAPIError as exc:
            why = unreachable(exc)
            if why is None:
                raise
            self.health.down(why)
            raise StoreUnreachable(self.shown, why) from None
        self.health.up()

    def ping(self) -> bool:
        """Whether the store answers now (the status page asks)."""
        try:
            with self.connect() as conn:
                conn.execute(select(1))
        except StoreUnreachable:
            return False
        return True

    # ------------------------------------------------------------------ schema

    def migrate(self) -> str:
        """Every migration not yet run, in order (Alembic); the revision now."""
        from alembic import command
        from alembic.config import Config
        from alembic.runtime.migration import MigrationContext
        from alembic.script import ScriptDirectory

        cfg = Config()
        cfg.set_main_option("script_location", MIGRATIONS)
        heads = set(ScriptDirectory.from_config(cfg).get_heads())
        known = {r.revision for r in ScriptDirectory.from_config(cfg).walk_revisions()}
        try:
            with self.engine.begin() as conn:
                current = MigrationContext.configure(conn).get_current_revision()
                if current is not None and current not in known:
                    raise StoreError(
                        _(
                            "the store {url} was made by a newer damath-board (schema "
                            "{revision}): update this one"
                        ).format(url=self.shown, revision=current)
                    )
                if current not in heads:
                    cfg.attributes["connection"] = conn
                    command.upgrade(cfg, "head")
                return MigrationContext.configure(conn).get_current_revision() or ""
        except DBAPIError as exc:
            raise StoreError(
                _("the store {url} cannot be opened: {error}").format(
                    url=self.shown, error=str(exc.orig).strip().splitlines()[0]
                )
            ) from None

    # ------------------------------------------------------------------ the registry

    def add_players(self, rows: Sequence[dict[str, Any]]) -> list[str]:
        """New players (``name``, ``school``, ``region``, ``birth_year``), all or none; their
        new federation IDs in order."""
        stamp = now()
        with self.begin() as conn:
            last = conn.execute(select(func.max(s.player.c.fed_id))).scalar()
            serial = serial_of(last) + 1 if last else FIRST
            ids = []
            for row in rows:
                fed_id = make_id(serial)
                serial += 1
                conn.execute(
                    insert(s.player).values(
                        fed_id=fed_id, added_at=stamp, changed_at=stamp, **_player_fields(row)
                    )
                )
                ids.append(fed_id)
        return ids

    def change_player(self, fed_id: str, fields: dict[str, Any]) -> bool:
        with self.begin() as conn:
            done = conn.execute(
                update(s.player)
                .where(s.player.c.fed_id == fed_id)
                .values(changed_at=now(), **_player_fields(fields, partial=True))
            )
        return done.rowcount == 1

    def player(self, fed_id: str) -> dict[str, Any] | None:
        with self.connect() as conn:
            row = conn.execute(select(s.player).where(s.player.c.fed_id == fed_id)).first()
        return dict(row._mapping) if row else None

    def players(self, ids: Iterable[str] | None = None) -> dict[str, dict[str, Any]]:
        query = select(s.player).order_by(s.player.c.fed_id)
        if ids is not None:
            query = query.where(s.player.c.fed_id.in_(list(ids)))
        with self.connect() as conn:
            return {r.fed_id: dict(r._mapping) for r in conn.execute(query)}

    # ------------------------------------------------------------------ events

    def add_event(self, values: dict[str, Any]) -> None:
        try:
            with self.begin() as conn:
                conn.execute(insert(s.event).values(state="open", added_at=now(), **values))
        except IntegrityError:
            raise StoreError(
                _("there is an event {id} already").format(id=values.get("id"))
            ) from None

    def event(self, event_id: str) -> dict[str, Any] | None:
        with self.connect() as conn:
            row = conn.execute(select(s.event).where(s.event.c.id == event_id)).first()
        return dict(row._mapping) if row else None

    def event_by_token(self, token_hash: str) -> dict[str, Any] | None:
        with self.connect() as conn:
            row = conn.execute(select(s.event).where(s.event.c.token_hash == token_hash)).first()
        return dict(row._mapping) if row else None

    def events(self) -> list[dict[str, Any]]:
        with self.connect() as conn:
            rows = conn.execute(select(s.event).order_by(s.event.c.date.desc(), s.event.c.id))
            return [dict(r._mapping) for r in rows]

    # ------------------------------------------------------------------ submissions

    def submit(
        self, event_id: str, body: bytes | None, sha256: str, found: Submitted, size: int = -1
    ) -> int:
        """Keep a submission and its verdict; an accepted one becomes the event's games and
        results in force (an earlier accepted one's are replaced, its file kept). A refused one
        changes nothing else (what was accepted before stays) and keeps its digest and reasons,
        not its file."""
        with self.begin() as conn:
            current = self._accepted_signed_at(conn, event_id)
            if (
                found.verdict == "accepted"
                and current is not None
                and (found.signed_at is None or found.signed_at <= current)
            ):  # another process accepted a newer one meanwhile
                found = Submitted("refused", [{"where": _("the archive"), "reason": _(
                    "a newer submission was accepted while this one was checked")}],
                    found.notes, [], [], found.records, found.signed_at)  # fmt: skip
            sub_id = conn.execute(
                insert(s.submission)
                .values(
                    event_id=event_id,
                    received_at=now(),
                    sha256=sha256,
                    size=size if size >= 0 else len(body or b""),
                    body=body if found.verdict == "accepted" else None,
                    signed_at=found.signed_at,
                    results=len(found.results),
                    verdict=found.verdict,
                    reasons=json.dumps(found.reasons, ensure_ascii=False),
                    notes=json.dumps(found.notes, ensure_ascii=False),
                    games=len(found.games),
                    records=found.records,
                )
                .returning(s.submission.c.id)
            ).scalar_one()
            if found.verdict != "accepted":
                conn.execute(
                    update(s.event)
                    .where(s.event.c.id == event_id, s.event.c.submission_id.is_(None))
                    .values(state="refused")
                )
                return int(sub_id)
            conn.execute(delete(s.result).where(s.result.c.event_id == event_id))
            conn.execute(delete(s.game).where(s.game.c.event_id == event_id))
            keys: dict[tuple[str, str], int] = {}
            for g in found.games:
                keys[(g["board"], g["game"])] = conn.execute(
                    insert(s.game)
                    .values(submission_id=sub_id, event_id=event_id, **g)
                    .returning(s.game.c.id)
                ).scalar_one()
            rows = []
            for r in found.results:
                ref = r.get("game_ref")
                values = {k: v for k, v in r.items() if k != "game_ref"}
                values["game_id"] = keys.get(tuple(ref)) if ref else None
                rows.append({"submission_id": sub_id, "event_id": event_id, **values})
            if rows:
                conn.execute(insert(s.result), rows)
            conn.execute(
                update(s.event)
                .where(s.event.c.id == event_id)
                .values(state="accepted", submission_id=sub_id)
            )
        return int(sub_id)

    @staticmethod
    def _accepted_signed_at(conn: Connection, event_id: str) -> str | None:
        sub = s.submission
        row = conn.execute(
            select(sub.c.signed_at, sub.c.received_at)
            .join(s.event, s.event.c.submission_id == sub.c.id)
            .where(s.event.c.id == event_id)
        ).first()
        if row is None:
            return None
        # a submission accepted before hubs said when they signed: as old as its arrival
        return str(row.signed_at or row.received_at)

    def accepted_signed_at(self, event_id: str) -> str | None:
        """When the hub signed the event's submission in force (None: none accepted)."""
        with self.connect() as conn:
            return self._accepted_signed_at(conn, event_id)

    def last_submission(self, event_id: str) -> dict[str, Any] | None:
        """The event's latest submission, whatever its verdict (without its file)."""
        cols = [c for c in s.submission.c if c.name != "body"]
        with self.connect() as conn:
            row = conn.execute(
                select(*cols)
                .where(s.submission.c.event_id == event_id)
                .order_by(s.submission.c.id.desc())
                .limit(1)
            ).first()
        return _decoded(row) if row is not None else None

    def submissions(self, event_id: str) -> list[dict[str, Any]]:
        cols = [c for c in s.submission.c if c.name != "body"]
        with self.connect() as conn:
            rows = conn.execute(
                select(*cols).where(s.submission.c.event_id == event_id).order_by(s.submission.c.id)
            )
            return [_decoded(r) for r in rows]

    def submission_body(self, sub_id: int) -> bytes | None:
        with self.connect() as conn:
            body = conn.execute(
                select(s.submission.c.body).where(s.submission.c.id == sub_id)
            ).scalar()
        return bytes(body) if body is not None else None

    # ------------------------------------------------------------------ games and results

    def games(self, event_id: str) -> list[dict[str, Any]]:
        cols = [c for c in s.game.c if c.name != "pdn"]
        with self.connect() as conn:
            rows = conn.execute(
                select(*cols)
                .where(s.game.c.event_id == event_id)
                .order_by(s.game.c.round, s.game.c.table_no, s.game.c.id)
            )
            return [dict(r._mapping) for r in rows]

    def game_pdn(self, game_id: int) -> str | None:
        with self.connect() as conn:
            return conn.execute(select(s.game.c.pdn).where(s.game.c.id == game_id)).scalar()

    def results(
        self, event_id: str | None = None, fed_id: str | None = None
    ) -> list[dict[str, Any]]:
        """Results in force (those of each event's accepted submission), by date and round."""
        query = select(s.result).order_by(
            s.result.c.date, s.result.c.event_id, s.result.c.round, s.result.c.table_no
        )
        if event_id is not None:
            query = query.where(s.result.c.event_id == event_id)
        if fed_id is not None:
            query = query.where(or_(s.result.c.blue == fed_id, s.result.c.red == fed_id))
        with self.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def rated_results(self) -> Iterator[Mapping[str, Any]]:
        """What the rating reads: every played result between two registered players, in date
        order (streamed: a federation of 100,000 games is never one list of dicts)."""
        r = s.result.c
        query = (
            select(r.date, r.blue, r.red, r.outcome, r.family, r.event_id, r.round, r.table_no)
            .where(r.blue.is_not(None), r.red.is_not(None), r.outcome.in_(PLAYED))
            .order_by(r.date, r.event_id, r.round, r.table_no)
        )
        with self.connect() as conn:
            for row in conn.execution_options(yield_per=5000).execute(query).mappings():
                yield cast(Mapping[str, Any], row)

    # ------------------------------------------------------------------ ratings

    def replace_ratings(
        self, rows: Iterable[dict[str, Any]], figures: Callable[[], dict[str, Any]]
    ) -> None:
        """A rating run's rows instead of the last run's, in one transaction; ``figures``
        (read once every row is written) says what the run did."""
        with self.begin() as conn:
            conn.execute(delete(s.rating))
            batch: list[dict[str, Any]] = []
            for row in rows:
                batch.append(row)
                if len(batch) >= 5000:
                    conn.execute(insert(s.rating), batch)
                    batch = []
            if batch:
                conn.execute(insert(s.rating), batch)
            conn.execute(insert(s.rating_run).values(at=now(), **figures()))

    def last_run(self) -> dict[str, Any] | None:
        with self.connect() as conn:
            row = conn.execute(
                select(s.rating_run).order_by(s.rating_run.c.id.desc()).limit(1)
            ).first()
        return dict(row._mapping) if row else None

    def ratings(self, pool: str) -> list[dict[str, Any]]:
        """Every rating row of a pool, by player then period (the list and the histories)."""
        query = (
            select(s.rating)
            .where(s.rating.c.pool == pool)
            .order_by(s.rating.c.fed_id, s.rating.c.period)
        )
        with self.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def history(self, fed_id: str) -> list[dict[str, Any]]:
        query = (
            select(s.rating)
            .where(s.rating.c.fed_id == fed_id)
            .order_by(s.rating.c.pool, s.rating.c.period)
        )
        with self.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]


PLAYED = ("blue", "red", "draw")

PLAYER_FIELDS = ("name", "school", "region", "birth_year")


def _player_fields(row: dict[str, Any], partial: bool = False) -> dict[str, Any]:
    out = {k: row[k] for k in PLAYER_FIELDS if k in row}
    if not partial:
        out.setdefault("school", "")
        out.setdefault("region", "")
        out.setdefault("birth_year", None)
    return out


def _decoded(row: Any) -> dict[str, Any]:
    out = dict(row._mapping)
    for key in ("reasons", "notes"):
        if isinstance(out.get(key), str):
            out[key] = json.loads(out[key])
    return out


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cur = dbapi_connection.cursor()
    for pragma in (
        "journal_mode=WAL",
        "synchronous=FULL",
        "foreign_keys=ON",
        "busy_timeout=10000",
    ):
        cur.execute(f"PRAGMA {pragma}")
    cur.close()


def _private_file(path: Path) -> None:
    """The SQLite file created 0600 before SQLite opens it (its -wal and -shm follow)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    os.close(fd)
    path.chmod(0o600)
