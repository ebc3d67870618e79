"""The finished event sent to the federation (docs/federation.md, "Submitting an event").

The submission is the event's archive (``archive.build_zip``: what the organiser keeps) with,
beside it, every record of every game played for a pairing exactly as its board signed and
sent it (the hub's store keeps each envelope), the event's players with their federation IDs,
its pairings and every result record, and the boards' keys; the whole signed by the hub with
the event's credential (``federation.bundle``). It goes to the federation over HTTPS with the
event's token, which answers with its verdict: accepted, or refused with every reason.
"""

from __future__ import annotations

import http.client
import io
import json
import ssl
import tempfile
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

from controller.federation import bundle
from controller.federation.credentials import EventCredential
from controller.tournament import boards as seating
from controller.tournament.tournament import Tournament

from .archive import build_zip, result_json
from .store import FILENAME, Store


def _played(row: dict[str, Any]) -> bool:
    """A game, not a board set up and left (the archive's rule)."""
    summary = row["summary"] or {}
    return bool(summary.get("ply")) or summary.get("phase") == "over"


def manifest(
    store: Store, t: Tournament, cred: EventCredential, members: list[str]
) -> dict[str, Any]:
    """What the federation reads: the event, players, pairings, results, games, keys."""
    ev = t.event
    by_asg: dict[str, list[dict[str, Any]]] = {}
    for row in store.games():
        if row["assignment_id"]:
            by_asg.setdefault(row["assignment_id"], []).append(row)
    games: list[dict[str, Any]] = []
    for p in t.pairings():
        if p.is_bye:
            continue
        for dispatch in seating.history(t, p.id):
            for row in by_asg.get(dispatch.assignment, []):
                if not _played(row):
                    continue
                board, game = row["board_id"], row["game_id"]
                end = f"/round-{p.round}/table-{p.table}_{board}_{game}.pdn"
                pdn = next((m for m in members if m.endswith(end)), None)
                games.append({"board": board, "game": game, "pairing": p.id, "pdn": pdn})
    boards = {g["board"] for g in games}
    keys = {b: key.hex() for b in sorted(boards) if (key := store.board_key(b)) is not None}
    return {
        "v": bundle.FORMAT,
        "software": _software(),
        "event": {
            "id": cred.event,
            "name": ev.name,
            "date": ev.date,
            "venue": ev.venue,
            "variant": ev.variant,
            "rules": ev.profile,
        },
        "players": [
            {
                "id": p.id,
                "name": p.name,
                "school": p.school,
                "division": p.division,
                "fed_id": p.fed_id,
            }
            for p in t.players().values()
        ],
        "pairings": [
            {
                "id": p.id,
                "division": p.division,
                "round": p.round,
                "table": p.table,
                "blue": p.blue,
                "red": p.red,
            }
            for p in t.pairings()
        ],
        "results": [result_json(r) for r in t.result_records()],
        "games": games,
        "boards": keys,
    }


def _software() -> str:
    try:
        return metadata.version("damath-board")
    except metadata.PackageNotFoundError:
        return ""


def build(store: Store | None, t: Tournament, cred: EventCredential) -> bytes:
    """The submission's bytes, signed with the event's key. ``store`` None: an event run with
    the command line only, its hub never started (no board games: its results typed)."""
    if store is None:
        with tempfile.TemporaryDirectory(prefix="damath-submit-") as empty:
            nothing = Store(Path(empty) / FILENAME)
            try:
                return build(nothing, t, cred)
            finally:
                nothing.close()
    members: dict[str, bytes] = {}
    with zipfile.ZipFile(io.BytesIO(build_zip(store, t))) as z:
        for name in z.namelist():
            members[name] = z.read(name)
    data = manifest(store, t, cred, list(members))
    for g in data["games"]:
        rows = store.query(
            "SELECT envelope FROM records WHERE board_id = ? AND game_id = ? ORDER BY seq",
            (g["board"], g["game"]),
        )
        members[bundle.records_name(g["board"], g["game"])] = "".join(
            r["envelope"] + "\n" for r in rows
        ).encode("utf-8")
    members[bundle.MANIFEST] = json.dumps(data, indent=1, ensure_ascii=False).encode("utf-8")
    return bundle.write(cred.event, cred.key, members)


def unfinished(t: Tournament) -> list[str]:
    """Pairings without a result yet: said before sending (the federation rates what has one)."""
    results = t.results()
    return [
        f"{p.division} round {p.round} table {p.table}"
        for p in t.pairings()
        if p.id not in results and not p.is_bye
    ]


def send(
    cred: EventCredential,
    body: bytes,
    timeout: float = 120,
    attempts: int = 5,
    pause: float = 2.0,
    say: Callable[[str], None] = lambda _text: None,
) -> dict[str, Any]:
    """POST the submission to the federation over HTTPS with the event's token; its verdict.

    A connection cut or refused (a hall's uplink that drops), or an answer the federation
    could not give (5xx), is tried again with the same bytes, up to ``attempts`` times, the
    pauses doubling from ``pause`` s: the federation answers bytes it has already received
    with the verdict they had, so an upload cut after it arrived is still accepted once.
    ValueError with a sentence for what the hub cannot get past (no answer after the last
    attempt, a refused token)."""
    for attempt in range(1, attempts + 1):
        try:
            return _post(cred, body, timeout)
        except _Retry as exc:
            if attempt == attempts:
                raise ValueError(str(exc)) from None
            wait = min(pause * 2 ** (attempt - 1), 60.0)
            say(f"{exc}; trying again in {wait:g} s (attempt {attempt + 1} of {attempts})")
            time.sleep(wait)
    raise AssertionError("unreachable")


class _Retry(Exception):
    """A failure another attempt may get past: the network, or the federation's own."""


def _post(cred: EventCredential, body: bytes, timeout: float) -> dict[str, Any]:
    url = cred.url + "/api/submissions"
    context = None
    if url.startswith("https://"):
        context = ssl.create_default_context(cafile=cred.ca_path)
    request = urllib.request.Request(
        url,
        body,
        {
            "Authorization": f"Bearer {cred.token}",
            "Content-Type": "application/zip",
            "Content-Length": str(len(body)),
        },
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout, context=context) as r:
            answer: dict[str, Any] = json.loads(r.read())
            return answer
    except urllib.error.HTTPError as exc:
        try:
            said = json.loads(exc.read()).get("error", "")
        except (ValueError, AttributeError, OSError):
            said = ""
        if exc.code == 401:
            raise ValueError(
                f"the federation at {cred.url} refused the event's credential ({said})"
            ) from None
        if exc.code >= 500:
            said = f": {said}" if said else ""  # a 503's "try again in 15 s"
            raise _Retry(f"the federation at {cred.url} answered {exc.code}{said}") from None
        raise ValueError(f"the federation at {cred.url} answered {exc.code}: {said}") from None
    except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc) or type(exc).__name__
        if isinstance(reason, ssl.SSLCertVerificationError):  # no retry makes it the one
            raise ValueError(
                f"the federation at {cred.url} is not the one the credential names: "
                f"{reason.verify_message}"
            ) from None
        raise _Retry(f"cannot reach the federation at {cred.url}: {reason}") from None
