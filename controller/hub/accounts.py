"""Who may use the arbiter's desk: accounts, passwords, sessions (``DIR/desk.sqlite``).

Passwords are kept as scrypt hashes (``hashlib.scrypt``, in the standard library: no new
dependency; n=2**14, r=8, p=1 costs ~50 ms and 16 MiB per try, so a stolen file is slow to
attack). A session is a random token in an HttpOnly cookie; the file keeps only its SHA-256, so
a copy of the file opens no session. Sessions end after ``IDLE`` without use and at the latest
``LIFETIME`` after login. Each session has its own CSRF token that every form posts back.

Guessing is slowed per address, so that nobody on the hall's Wi-Fi can lock the organiser
out (docs/security.md, "The desk's logins"): within ``LOCK`` seconds, ``FAILURES`` wrong
passwords for a name from one address stop that address trying that name; ``ADDRESS_FAILURES``
wrong passwords from one address, whatever the names, stop that address; and once a name has
had ``NAME_FAILURES`` wrong passwords from anywhere (guessing from many addresses), only
addresses that have not failed for it, or that have logged in as it before (within ``KNOWN``),
may still try it. A name is never locked for an address by other addresses' failures: the
organiser logs in from her own laptop, after a typo there too, while someone else guesses.
A new password (``account add --replace``) forgets the name's failures.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

from .folder import private_file, private_folder, sqlite_files

F = TypeVar("F", bound=Callable[..., Any])

FILE_NAME = "desk.sqlite"
ROLES = ("organiser", "arbiter")
IDLE = 2 * 3600
LIFETIME = 14 * 3600
FAILURES, LOCK = 8, 300
ADDRESS_FAILURES = 20
NAME_FAILURES = 40
KNOWN = 30 * 24 * 3600
"""How long an address a name logged in from stays its own against other addresses' guessing."""
MIN_PASSWORD = 10
SCRYPT = {"n": 2**14, "r": 8, "p": 1, "dklen": 32}

_SCHEMA = """
CREATE TABLE IF NOT EXISTS account (
    name TEXT PRIMARY KEY, role TEXT NOT NULL, salt BLOB NOT NULL, hash BLOB NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS session (
    token_hash TEXT PRIMARY KEY, name TEXT NOT NULL REFERENCES account(name) ON DELETE CASCADE,
    csrf TEXT NOT NULL, created REAL NOT NULL, used REAL NOT NULL
);
DROP TABLE IF EXISTS failure;
CREATE TABLE IF NOT EXISTS login_failure (
    name TEXT NOT NULL, address TEXT NOT NULL, at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS login_failure_name ON login_failure(name, address);
CREATE INDEX IF NOT EXISTS login_failure_address ON login_failure(address);
CREATE TABLE IF NOT EXISTS login_known (
    name TEXT NOT NULL, address TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (name, address)
);
"""


class AccountError(ValueError):
    """A refused account operation or login; the message can be shown as it is."""


@dataclass(frozen=True)
class Session:
    name: str
    role: str
    csrf: str

    @property
    def organiser(self) -> bool:
        return self.role == "organiser"


def _hash(password: str, salt: bytes) -> bytes:
    return hashlib.scrypt(password.encode(), salt=salt, maxmem=64 * 2**20, **SCRYPT)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _locked(fn: F) -> F:
    """One connection serves the web server's threads: one call at a time."""

    @wraps(fn)
    def call(self: Accounts, *args: Any, **kw: Any) -> Any:
        with self.lock:
            return fn(self, *args, **kw)

    return call  # type: ignore[return-value]


class Accounts:
    def __init__(self, folder: str | Path, clock: Callable[[], float] = time.time) -> None:
        self.path = private_folder(folder) / FILE_NAME  # a new event folder is made
        self.clock = clock
        self.lock = threading.RLock()
        private_file(self.path)  # 0600 before SQLite opens it: its -wal and -shm follow
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.execute("PRAGMA busy_timeout=5000")
        self.db.executescript(_SCHEMA)
        for path in sqlite_files(self.path)[1:]:  # made 0644 by an earlier version
            if path.exists():
                path.chmod(0o600)

    @_locked
    def close(self) -> None:
        self.db.close()

    # -- accounts -------------------------------------------------------------------------

    @_locked
    def add(self, name: str, role: str, password: str, replace: bool = False) -> None:
        name = name.strip()
        if not name or len(name) > 40 or not name.replace("-", "").replace("_", "").isalnum():
            raise AccountError(f"account {name!r}: letters, digits, - and _ (up to 40)")
        if role not in ROLES:
            raise AccountError(f"role {role!r}: one of {', '.join(ROLES)}")
        if len(password) < MIN_PASSWORD:
            raise AccountError(f"the password needs at least {MIN_PASSWORD} characters")
        exists = self.role(name) is not None
        if exists and not replace:
            raise AccountError(f"account {name!r} exists (--replace sets a new password)")
        salt = secrets.token_bytes(16)
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.execute(
                "INSERT OR REPLACE INTO account VALUES (?, ?, ?, ?, ?)",
                (name, role, salt, _hash(password, salt), self.clock()),
            )
            self.db.execute("DELETE FROM session WHERE name = ?", (name,))
            self.db.execute("DELETE FROM login_failure WHERE name = ?", (name[:40],))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    @_locked
    def remove(self, name: str) -> None:
        if self.db.execute("DELETE FROM account WHERE name = ?", (name,)).rowcount == 0:
            raise AccountError(f"no account {name!r}")

    @_locked
    def role(self, name: str) -> str | None:
        row = self.db.execute("SELECT role FROM account WHERE name = ?", (name,)).fetchone()
        return row[0] if row else None

    @_locked
    def names(self) -> list[tuple[str, str]]:
        return [(r[0], r[1]) for r in self.db.execute("SELECT name, role FROM account ORDER BY 1")]

    # -- logging in -----------------------------------------------------------------------

    @_locked
    def login(self, name: str, password: str, address: str = "") -> str:
        """A new session's token, or AccountError (the same message for a wrong name or
        password, so the page does not tell which names exist). ``address`` is where the
        request came from (the throttles are per address: see the module's text)."""
        now = self.clock()
        key, address = name[:40], address[:64]
        self.db.execute("DELETE FROM login_failure WHERE at < ?", (now - LOCK,))

        def count(where: str, *args: str) -> int:
            sql = f"SELECT COUNT(*) FROM login_failure WHERE {where}"
            return int(self.db.execute(sql, args).fetchone()[0])

        if count("address = ?", address) >= ADDRESS_FAILURES:
            raise AccountError("too many wrong passwords from this address: wait five minutes")
        mine = count("name = ? AND address = ?", key, address)
        known = self.db.execute(
            "SELECT 1 FROM login_known WHERE name = ? AND address = ? AND at >= ?",
            (key, address, now - KNOWN),
        ).fetchone()
        if mine >= FAILURES or (mine and not known and count("name = ?", key) >= NAME_FAILURES):
            raise AccountError(
                "too many wrong passwords for this name from this address: wait five minutes "
                "(or log in from another machine)"
            )
        row = self.db.execute("SELECT salt, hash FROM account WHERE name = ?", (name,)).fetchone()
        salt, want = (row[0], row[1]) if row else (b"\0" * 16, b"")
        given = _hash(password, salt)  # computed either way: the time says nothing
        if row is None or not hmac.compare_digest(given, want):
            self.db.execute("INSERT INTO login_failure VALUES (?, ?, ?)", (key, address, now))
            raise AccountError("wrong name or password")
        token = secrets.token_urlsafe(32)
        self.db.execute(
            "INSERT INTO session VALUES (?, ?, ?, ?, ?)",
            (_digest(token), name, secrets.token_urlsafe(24), now, now),
        )
        self.db.execute("INSERT OR REPLACE INTO login_known VALUES (?, ?, ?)", (key, address, now))
        return token

    @_locked
    def session(self, token: str | None) -> Session | None:
        """The session of a cookie, if it is still valid (its use extends it)."""
        if not token:
            return None
        now = self.clock()
        row = self.db.execute(
            "SELECT s.name, a.role, s.csrf, s.created, s.used FROM session s "
            "JOIN account a ON a.name = s.name WHERE s.token_hash = ?",
            (_digest(token),),
        ).fetchone()
        if row is None:
            return None
        if now - row[4] > IDLE or now - row[3] > LIFETIME:
            self.logout(token)
            return None
        if now - row[4] > 30:
            self.db.execute(
                "UPDATE session SET used = ? WHERE token_hash = ?", (now, _digest(token))
            )
        return Session(row[0], row[1], row[2])

    @_locked
    def logout(self, token: str) -> None:
        self.db.execute("DELETE FROM session WHERE token_hash = ?", (_digest(token),))
