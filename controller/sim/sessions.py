"""The browsers the arbiter's PIN unlocked, kept on disk so that a restart of the simulator keeps
them unlocked for their promised time (docs/security.md; the teacher's lesson outlives a Ctrl+C).

The file (``arbiter-sessions.json`` in the simulator's state folder, readable by its owner only,
written whole) holds the PIN's hash the sessions were opened under and, per session, the
SHA-256 of its token with the wall-clock second it expires: never a token itself, so the file
unlocks nothing. Sessions opened under another PIN are forgotten when it is read; a damaged
file is read as none (the teacher types the PIN again), and one that cannot be written leaves
the sessions in memory only.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

FILE = "arbiter-sessions.json"


def digest(token: str) -> str:
    """What is kept of a token: its SHA-256 (a token is 32 random bytes: no salt needed)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class SessionStore:
    """The unlocked sessions' file in ``folder`` (None: in memory only, ``sim --no-save``)."""

    def __init__(self, folder: Path | None) -> None:
        self.path = None if folder is None else folder / FILE

    def _read(self) -> dict[str, object]:
        if self.path is None:
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def pin_hash(self) -> str | None:
        """The PIN's hash the kept sessions were opened under (``sim`` gives a PIN from
        DAMATH_SIM_PIN that hash again when it checks, so its browsers stay unlocked)."""
        stored = self._read().get("pin")
        return stored if isinstance(stored, str) else None

    def load(self, pin_hash: str | None, now: float) -> dict[str, float]:
        """The sessions opened under ``pin_hash`` that have not expired at ``now``."""
        data = self._read()
        sessions = data.get("sessions")
        if pin_hash is None or data.get("pin") != pin_hash or not isinstance(sessions, dict):
            return {}
        return {
            k: float(v)
            for k, v in sessions.items()
            if isinstance(k, str) and isinstance(v, int | float) and v > now
        }

    def save(self, pin_hash: str | None, sessions: dict[str, float]) -> None:
        """The sessions as they are now, written whole (0600); nothing is said when it fails:
        they still hold in memory until the simulator stops."""
        if self.path is None or pin_hash is None:
            return
        text = json.dumps({"pin": pin_hash, "sessions": sessions}, sort_keys=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                os.write(fd, text.encode("ascii"))
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, self.path)
        except OSError:
            tmp.unlink(missing_ok=True)
