"""The finished event sent to the federation (docs/federation.md, "Submitting an event").

The submission is the event's archive (``archive.build_zip``: what the organiser keeps) with,
beside it, every record of every game played for a pairing exactly as its board signed and
sent it (the hub's store keeps each envelope), the event's players with their federation IDs,
its pairings and every result record, and the boards' keys; the whole signed by the hub with
the event's credential (``federation.bundle``). It goes to the federation over HTTPS with the
event's token, which answers with its verdict: accepted, or refused with every reason.
"""

from __future__ import annotations

import io
import json
import ssl
import urllib.error
import urllib.request
import zipfile
from importlib import metadata
from typing import Any

from controller.federation import bundle
from controller.federation.credentials import EventCredential
from controller.tournament import boards as seating
from controller.tournament.damath_scores import store_text
from controller.tournament.tournament import Tournament

from .archive import build_zip
from .store import Store


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
        "results": [
            {
                "pairing": r.pairing,
                "outcome": r.result.outcome,
                "blue_score": None
                if r.result.blue_score is None
                else store_text(r.result.blue_score),
                "red_score": None if r.result.red_score is None else store_text(r.result.red_score),
                "source": r.result.source,
                "at": r.at,
                "by": r.by,
                "reason": r.reason,
            }
            for r in t.result_records()
        ],
        "games": games,
        "boards": keys,
    }


def _software() -> str:
    try:
        return metadata.version("damath-board")
    except metadata.PackageNotFoundError:
        return ""


def build(store: Store, t: Tournament, cred: EventCredential) -> bytes:
    """The submission's bytes, signed with the event's key."""
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


def send(cred: EventCredential, body: bytes, timeout: float = 120) -> dict[str, Any]:
    """POST the submission to the federation over HTTPS with the event's token; its verdict.
    ValueError with a sentence for what the hub cannot get past (no answer, a refused token)."""
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
        except (ValueError, AttributeError):
            said = ""
        if exc.code == 401:
            raise ValueError(
                f"the federation at {cred.url} refused the event's credential ({said})"
            ) from None
        raise ValueError(f"the federation at {cred.url} answered {exc.code}: {said}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ValueError(f"cannot reach the federation at {cred.url}: {reason}") from None
