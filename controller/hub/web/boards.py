"""The organiser's view of the hall: every board (online, last contact, problems, versions, what
it sent and what was refused) and the list of refused messages with their reasons."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Route

from controller.link.protocol import REASONS

from ..storecheck import read_marker
from .wall import STATIC

if TYPE_CHECKING:
    from ..context import HubContext


def store_status(ctx: HubContext) -> dict[str, Any]:
    """What the store holds, whether it can be written, its last backup, a rebuild's progress."""
    held = ctx.ingest.held
    out: dict[str, Any] = {
        "games": held.games,
        "records": held.records,
        "problem": ctx.ingest.store_problem,
        "backup": ctx.backups.last,
        "backup_problem": ctx.backups.problem,
    }
    rebuild = read_marker(ctx.folder).get("rebuild")
    if isinstance(rebuild, dict) and time.time() < float(rebuild.get("until", 0)):
        out["rebuild"] = rebuild
    return out


def routes(ctx: HubContext) -> list[Route]:
    store = ctx.store

    def boards(request: Request) -> JSONResponse:
        counters = store.counters()
        out = []
        for b in store.boards():
            card = ctx.live.cards.get(b["id"], {})
            out.append(
                {
                    "board": b["id"],
                    "label": b["label"],
                    "online": bool(card.get("online", b["online"])),
                    "last_contact": card.get("last_contact", b["last_contact"]),
                    "software": b["software"],
                    "firmware": b["firmware"],
                    "problems": card.get("problems", b["problems"]),
                    "game": card.get("game"),
                    "records": card.get("seq", 0),
                    "counters": counters.get(b["id"], {}),
                    "held_until": getattr(ctx.ingest.meta.get(b["id"]), "held_until", None),
                }
            )
        broker = ctx.broker
        return JSONResponse(
            {
                "now": time.time(),
                "event": store.event_name,
                "broker": {
                    "url": ctx.broker_url,
                    "connected": ctx.ingest.connected,
                    "connections": ctx.ingest.connects,
                    "restarts": broker.restarts if broker else None,
                    "problem": broker.problem if broker else "",
                },
                "boards": out,
                "unknown": counters.get("", {}),
                "store": store_status(ctx),
            }
        )

    def problems(request: Request) -> JSONResponse:
        rows = store.rejects(200)
        for r in rows:
            r["meaning"] = REASONS.get(r["reason"], "")
        return JSONResponse({"now": time.time(), "rejected": rows, "reasons": REASONS})

    def page(request: Request) -> FileResponse:
        return FileResponse(STATIC / "boards.html")

    return [
        Route("/boards", page),
        Route("/api/boards", boards),
        Route("/api/problems", problems),
    ]
