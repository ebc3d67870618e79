"""The tournament's own SQLite file in the event directory: ``DIR/tournament.sqlite``.

Kept apart from the hub's store (``hub.sqlite``, owned by the hub's ingest thread) so neither
waits on the other's writes; the hub links a game to a pairing by the pairing's id. WAL and
``synchronous=FULL``: a result the arbiter saw saved survives a power cut. Nothing is ever
updated in place except the event's settings: a corrected result is a new row, a pairing
change keeps its old form in the log, so the file is its own audit trail.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

from .damath_scores import from_store, store_text
from .model import (
    Dispatch,
    Division,
    Event,
    GameResult,
    Pairing,
    Player,
    Points,
    ResultRecord,
    TournamentError,
)

FILE_NAME = "tournament.sqlite"
SCHEMA_VERSION = 4
"""2: the event's clock start rule and team size, the players' grade; 3: the players'
federation ID (docs/federation.md); 4: each division's game (an old division plays Damath).
All added to an older file in place: ``_migrate``."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS event (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL, date TEXT, venue TEXT, variant TEXT, profile TEXT, time_control TEXT,
    points TEXT NOT NULL, tiebreaks TEXT NOT NULL, initial_colour TEXT NOT NULL,
    start TEXT NOT NULL DEFAULT 'desk', team_size INTEGER NOT NULL DEFAULT 3
);
CREATE TABLE IF NOT EXISTS division (
    name TEXT PRIMARY KEY, system TEXT NOT NULL, rounds INTEGER NOT NULL,
    game TEXT NOT NULL DEFAULT 'damath'
);
CREATE TABLE IF NOT EXISTS player (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, school TEXT NOT NULL,
    division TEXT NOT NULL REFERENCES division(name), rating INTEGER,
    joined_round INTEGER NOT NULL, withdrawn_after INTEGER, grade TEXT NOT NULL DEFAULT '',
    fed_id TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS absence (
    player INTEGER NOT NULL REFERENCES player(id), round INTEGER NOT NULL,
    PRIMARY KEY (player, round)
);
CREATE TABLE IF NOT EXISTS pairing (
    id INTEGER PRIMARY KEY, division TEXT NOT NULL, round INTEGER NOT NULL,
    table_no INTEGER NOT NULL, blue INTEGER NOT NULL REFERENCES player(id),
    red INTEGER REFERENCES player(id), UNIQUE (division, round, table_no)
);
CREATE TABLE IF NOT EXISTS result (
    id INTEGER PRIMARY KEY, pairing INTEGER NOT NULL REFERENCES pairing(id),
    outcome TEXT NOT NULL, blue_score TEXT, red_score TEXT, source TEXT NOT NULL,
    at TEXT NOT NULL, by TEXT NOT NULL, reason TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seat (
    division TEXT NOT NULL, table_no INTEGER NOT NULL, board TEXT NOT NULL,
    PRIMARY KEY (division, table_no)
);
CREATE TABLE IF NOT EXISTS dispatch (
    id INTEGER PRIMARY KEY, pairing INTEGER NOT NULL REFERENCES pairing(id),
    board TEXT NOT NULL, assignment TEXT NOT NULL UNIQUE, at TEXT NOT NULL, by TEXT NOT NULL,
    reason TEXT NOT NULL, active INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS log (
    id INTEGER PRIMARY KEY, at TEXT NOT NULL, by TEXT NOT NULL, action TEXT NOT NULL,
    detail TEXT NOT NULL
);
"""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _points_json(p: Points) -> str:
    return json.dumps({k: str(getattr(p, k)) for k in Points.__dataclass_fields__})


def _points_from(raw: str) -> Points:
    return Points(**{k: Fraction(v) for k, v in json.loads(raw).items()})


class Store:
    """One open tournament file. Every write is one transaction."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.execute("PRAGMA busy_timeout=5000")
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise TournamentError(f"{path}: made by a newer damath-board; update this one")
            self.db.executescript(_SCHEMA)
            _migrate(self.db)
            self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.DatabaseError as exc:
            raise TournamentError(f"{path}: not a tournament file ({exc})") from None

    def close(self) -> None:
        self.db.close()

    def transaction(self) -> _Transaction:
        return _Transaction(self.db)

    # -- writes ---------------------------------------------------------------------------

    def save_event(self, e: Event) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO event (id, name, date, venue, variant, profile, time_control,"
            " points, tiebreaks, initial_colour, start, team_size)"
            " VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                e.name,
                e.date,
                e.venue,
                e.variant,
                e.profile,
                e.time_control,
                _points_json(e.points),
                json.dumps(list(e.tiebreaks)),
                e.initial_colour,
                e.start,
                e.team_size,
            ),
        )

    def save_division(self, d: Division) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO division (name, system, rounds, game) VALUES (?, ?, ?, ?)",
            (d.name, d.system, d.rounds, d.game),
        )

    def add_player(self, p: Player) -> int:
        cur = self.db.execute(
            "INSERT INTO player (name, school, division, rating, joined_round, withdrawn_after,"
            " grade) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (p.name, p.school, p.division, p.rating, p.joined_round, p.withdrawn_after, p.grade),
        )
        return _rowid(cur)

    def update_player(self, p: Player) -> None:
        """A player's name, school, grade and rating corrected (the log keeps the old ones)."""
        self.db.execute(
            "UPDATE player SET name = ?, school = ?, grade = ?, rating = ? WHERE id = ?",
            (p.name, p.school, p.grade, p.rating, p.id),
        )

    def set_fed_id(self, player: int, fed_id: str) -> None:
        self.db.execute("UPDATE player SET fed_id = ? WHERE id = ?", (fed_id, player))

    def set_withdrawn(self, player: int, after: int | None) -> None:
        self.db.execute("UPDATE player SET withdrawn_after = ? WHERE id = ?", (after, player))

    def add_absence(self, player: int, rnd: int) -> None:
        self.db.execute("INSERT OR IGNORE INTO absence VALUES (?, ?)", (player, rnd))

    def add_pairing(self, division: str, rnd: int, table: int, blue: int, red: int | None) -> int:
        cur = self.db.execute(
            "INSERT INTO pairing (division, round, table_no, blue, red) VALUES (?, ?, ?, ?, ?)",
            (division, rnd, table, blue, red),
        )
        return _rowid(cur)

    def set_pairing_players(self, pairing: int, blue: int, red: int | None) -> None:
        self.db.execute("UPDATE pairing SET blue = ?, red = ? WHERE id = ?", (blue, red, pairing))

    def add_result(self, pairing: int, r: GameResult, by: str, reason: str) -> None:
        self.db.execute(
            "INSERT INTO result (pairing, outcome, blue_score, red_score, source, at, by, reason)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                pairing,
                r.outcome,
                None if r.blue_score is None else store_text(r.blue_score),
                None if r.red_score is None else store_text(r.red_score),
                r.source,
                now(),
                by,
                reason,
            ),
        )

    def set_seat(self, division: str, table: int, board: str | None) -> None:
        if board is None:
            self.db.execute(
                "DELETE FROM seat WHERE division = ? AND table_no = ?", (division, table)
            )
        else:
            self.db.execute(
                "INSERT OR REPLACE INTO seat VALUES (?, ?, ?)", (division, table, board)
            )

    def add_dispatch(self, pairing: int, board: str, assignment: str, by: str, reason: str) -> None:
        """The pairing is now played on ``board`` under ``assignment``; an earlier one stops."""
        self.db.execute("UPDATE dispatch SET active = 0 WHERE pairing = ?", (pairing,))
        self.db.execute(
            "INSERT INTO dispatch (pairing, board, assignment, at, by, reason, active)"
            " VALUES (?, ?, ?, ?, ?, ?, 1)",
            (pairing, board, assignment, now(), by, reason),
        )

    def log(self, by: str, action: str, **detail: object) -> None:
        self.db.execute(
            "INSERT INTO log (at, by, action, detail) VALUES (?, ?, ?, ?)",
            (now(), by, action, json.dumps(detail, default=str, ensure_ascii=False)),
        )

    # -- reads ----------------------------------------------------------------------------

    def event(self) -> Event | None:
        row = self.db.execute(
            "SELECT id, name, date, venue, variant, profile, time_control, points, tiebreaks,"
            " initial_colour, start, team_size FROM event"
        ).fetchone()
        if row is None:
            return None
        return Event(
            name=row[1],
            date=row[2],
            venue=row[3],
            variant=row[4],
            profile=row[5],
            time_control=row[6],
            points=_points_from(row[7]),
            tiebreaks=tuple(json.loads(row[8])),
            initial_colour=row[9],
            start=row[10],
            team_size=row[11],
        )

    def divisions(self) -> dict[str, Division]:
        rows = self.db.execute("SELECT name, system, rounds, game FROM division ORDER BY name")
        return {r[0]: Division(*r) for r in rows}

    def players(self) -> dict[int, Player]:
        rows = self.db.execute(
            "SELECT id, name, school, division, rating, joined_round, withdrawn_after, grade,"
            " fed_id"
            " FROM player ORDER BY id"
        )
        return {r[0]: Player(*r) for r in rows}

    def absences(self) -> set[tuple[int, int]]:
        return {(r[0], r[1]) for r in self.db.execute("SELECT player, round FROM absence")}

    def pairings(self) -> list[Pairing]:
        rows = self.db.execute(
            "SELECT id, division, round, table_no, blue, red FROM pairing"
            " ORDER BY division, round, table_no"
        )
        return [Pairing(*r) for r in rows]

    def results(self) -> list[ResultRecord]:
        """Every result ever recorded, oldest first (the last per pairing is its result)."""
        out = []
        for row in self.db.execute(
            "SELECT pairing, outcome, blue_score, red_score, source, at, by, reason"
            " FROM result ORDER BY id"
        ):
            r = GameResult(
                row[1],
                None if row[2] is None else from_store(row[2]),
                None if row[3] is None else from_store(row[3]),
                row[4],
            )
            out.append(ResultRecord(row[0], r, row[5], row[6], row[7]))
        return out

    def seats(self) -> dict[tuple[str, int], str]:
        rows = self.db.execute("SELECT division, table_no, board FROM seat")
        return {(r[0], r[1]): r[2] for r in rows}

    def dispatches(self) -> list[Dispatch]:
        """Every time a pairing was sent to a board, oldest first (``active``: the current)."""
        rows = self.db.execute(
            "SELECT pairing, board, assignment, at, by, reason, active FROM dispatch ORDER BY id"
        )
        return [Dispatch(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6])) for r in rows]

    def log_entries(self) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT at, by, action, detail FROM log ORDER BY id")
        return [{"at": a, "by": b, "action": c, "detail": json.loads(d)} for a, b, c, d in rows]


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: type[BaseException] | None, exc: object, tb: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


def _migrate(db: sqlite3.Connection) -> None:
    """An older file gets the columns later versions added (their defaults: the desk starts the
    clocks, teams of 3, no grade, no federation ID, every division Damath: the only game an
    event had before); a file that has them is left as it is."""
    added = {
        "event": (
            ("start", "TEXT NOT NULL DEFAULT 'desk'"),
            ("team_size", "INTEGER NOT NULL DEFAULT 3"),
        ),
        "player": (("grade", "TEXT NOT NULL DEFAULT ''"), ("fed_id", "TEXT NOT NULL DEFAULT ''")),
        "division": (("game", "TEXT NOT NULL DEFAULT 'damath'"),),
    }
    for table, columns in added.items():
        have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        for name, kind in columns:
            if name not in have:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")


def _rowid(cur: sqlite3.Cursor) -> int:
    assert cur.lastrowid is not None  # an INSERT
    return cur.lastrowid


def open_store(folder: str | Path, *, create: bool = False) -> Store:
    folder = Path(folder)
    path = folder / FILE_NAME
    if not path.exists() and not create:
        raise TournamentError(
            f"{folder}: no event here yet; create one with `damath-board hub event create`"
        )
    folder.mkdir(parents=True, exist_ok=True)
    return Store(path)
