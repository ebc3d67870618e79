"""The federation as one object: its folder, settings and store, and what the pages and the
commands do with them (submit, rate, list). The web app and the command line call the same.

Ratings are computed from scratch (every accepted game, period by period) after each accepted
submission, in a thread of their own, one run at a time; the list shows the last run's.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from controller.i18n import _

from . import lists, ratings, registry
from .credentials import token_hash
from .settings import FederationSettings
from .settings import load as load_settings
from .store import FederationStore
from .storehealth import StoreUnreachable
from .verify import verify

log = logging.getLogger("damath-board.federation")


class Unauthorized(ValueError):
    """A submission without the credential of an event the federation knows."""


def unknown_credential() -> str:
    return _("the federation knows no event with this credential")


@dataclass(frozen=True)
class RunFigures:
    games: int
    players: int
    periods: int
    last_period: str
    seconds: float


class Federation:
    def __init__(self, folder: Path, settings: FederationSettings, store: FederationStore) -> None:
        self.folder = folder
        self.settings = settings
        self.store = store
        self._rate_lock = threading.Lock()
        self._rate_wanted = threading.Event()
        self._rater: threading.Thread | None = None
        self.runs = 0
        """Rating runs finished by this process (tests wait on it)."""
        self.run_done = threading.Condition()
        self._submitting = threading.Lock()

    @classmethod
    def open(cls, folder: str | Path, db: str = "") -> Federation:
        folder = Path(folder)
        settings = load_settings(folder)
        store = FederationStore.open(db or settings.db, folder)
        return cls(folder, settings, store)

    def close(self) -> None:
        self._rate_wanted.set()
        self.store.close()

    # ------------------------------------------------------------------ submissions

    def registry(self, ids: Any) -> dict[str, dict[str, Any]]:
        return self.store.players(ids)

    def event_for(self, token: str) -> dict[str, Any] | None:
        """The event whose credential ``token`` is (read from a request's headers, before its
        body: a stranger's upload is refused unread)."""
        return self.store.event_by_token(token_hash(token)) if token else None

    def submit(self, token: str, body: bytes | IO[bytes]) -> dict[str, Any]:
        """A hub's submission with its event's token: verified, kept, its verdict."""
        event = self.event_for(token)
        if event is None:
            raise Unauthorized(unknown_credential())
        return self.accept_file(event["id"], body)

    def accept_file(self, event_id: str, body: bytes | IO[bytes]) -> dict[str, Any]:
        """A submission of ``event_id`` (from a hub, or a file the administrator was given).

        The bytes of the event's last submission sent again (an upload retried after its
        connection was cut, perhaps after the federation had kept it) get the verdict they
        had, and nothing is kept twice; an older submission sent again is verified, and
        refused as not newer than the one in force (a replay).
        Submissions are checked one at a time: each holds at most what its verification
        reads (``bundle``), never several at once."""
        event = self.store.event(event_id)
        if event is None:
            raise ValueError(_("no event {id} at this federation").format(id=event_id))
        digest, size = _digest(body)
        with self._submitting:
            earlier = self.store.last_submission(event_id)
            if earlier is not None and earlier["sha256"] == digest:
                return _answer(event_id, earlier["id"], earlier, again=True)
            after = self.store.accepted_signed_at(event_id)
            found = verify(body, event, self.registry, after)
            kept = _bytes(body) if found.verdict == "accepted" else None
            sub_id = self.store.submit(event_id, kept, digest, found, size)
        if found.verdict == "accepted":
            self.rate_soon()
        return _answer(
            event_id,
            sub_id,
            {
                "verdict": found.verdict,
                "reasons": found.reasons,
                "notes": found.notes,
                "games": len(found.games),
                "results": len(found.results),
                "records": found.records,
            },
        )

    # ------------------------------------------------------------------ ratings

    def rate(self) -> RunFigures:
        """Every rating from scratch; the last run's rows replaced in one transaction."""
        with self._rate_lock:
            started = time.perf_counter()
            run = ratings.Run()
            rows = ratings.rate(self.store.rated_results(), self.settings.period_months, run)
            figures: dict[str, Any] = {}

            def finished() -> dict[str, Any]:
                figures.update(
                    games=run.games,
                    players=len(run.players),
                    periods=run.periods,
                    last_period=run.last_period,
                    seconds=round(time.perf_counter() - started, 3),
                )
                return figures

            self.store.replace_ratings(rows, finished)
        with self.run_done:
            self.runs += 1
            self.run_done.notify_all()
        return RunFigures(**figures)

    def rate_soon(self) -> None:
        """A run in the background (several requests while one runs: one more run)."""
        self._rate_wanted.set()
        if self._rater is None or not self._rater.is_alive():
            self._rater = threading.Thread(target=self._rate_loop, name="ratings", daemon=True)
            self._rater.start()

    def _rate_loop(self) -> None:
        while self._rate_wanted.is_set():
            self._rate_wanted.clear()
            try:
                self.rate()
            except StoreUnreachable:  # said once by the store's health; the next run tries again
                pass
            except Exception:  # the next submission tries again; the log says why
                log.exception("the rating run failed")

    def wait_runs(self, n: int, timeout: float) -> bool:
        with self.run_done:
            return self.run_done.wait_for(lambda: self.runs >= n, timeout)

    def rating_list(self, filters: lists.Filters) -> tuple[str, list[dict[str, Any]]]:
        """The list of the last run (as of its last period) and that period."""
        filters.check()
        run = self.store.last_run()
        if run is None or not run["last_period"]:
            return "", []
        history = self.store.ratings(filters.pool)
        players = self.store.players({row["fed_id"] for row in history})
        return run["last_period"], lists.rating_list(
            history, players, run["last_period"], filters, self.settings.period_months
        )

    def player(self, fed_id: str) -> dict[str, Any] | None:
        """A player's public page: registry (no birth year), history per pool, results."""
        p = self.store.player(fed_id)
        if p is None:
            return None
        run = self.store.last_run()
        as_of = run["last_period"] if run else ""
        group = lists.age_group(p["birth_year"], int(as_of[:4])) if as_of else ""
        history: dict[str, list[dict[str, Any]]] = {}
        for row in self.store.history(fed_id):
            history.setdefault(row["pool"], []).append(
                {
                    k: row[k]
                    for k in ("period", "rating", "rd", "volatility", "wins", "draws", "losses")
                }
            )
        now = {}
        if as_of:
            for pool, rows in history.items():
                found = ratings.current(
                    [{**r, "fed_id": fed_id} for r in rows],
                    as_of,
                    self.settings.period_months,
                )
                if found:
                    now[pool] = found[fed_id]
        return {
            **registry.public(p),
            "age_group": group,
            "as_of": as_of,
            "ratings": now,
            "history": history,
            "results": self.store.results(fed_id=fed_id),
        }


def _digest(body: bytes | IO[bytes]) -> tuple[str, int]:
    if isinstance(body, bytes):
        return hashlib.sha256(body).hexdigest(), len(body)
    body.seek(0)
    digest, size = hashlib.sha256(), 0
    while chunk := body.read(1 << 20):
        digest.update(chunk)
        size += len(chunk)
    body.seek(0)
    return digest.hexdigest(), size


def _bytes(body: bytes | IO[bytes]) -> bytes:
    if isinstance(body, bytes):
        return body
    body.seek(0)
    return body.read()


def _answer(event_id: str, sub_id: int, row: dict[str, Any], again: bool = False) -> dict[str, Any]:
    """What a hub is answered: the verdict, every reason and note, the figures; ``again``
    when these bytes had been received before (the earlier verdict, nothing kept twice)."""
    answer = {
        "v": 1,
        "event": event_id,
        "submission": sub_id,
        "verdict": row["verdict"],
        "reasons": row["reasons"],
        "notes": row["notes"],
        "games": row["games"],
        "results": row.get("results") or 0,
        "records": row["records"],
    }
    if again:
        answer["again"] = True
    return answer
