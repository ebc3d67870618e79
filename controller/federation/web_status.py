"""The service's status (``/status``, ``/status.json``): whether its store answers now, its
last rating run and its wall's broker: what an administrator looks at first when a page says
"try again". It answers while the store does not (it is how that is seen); the JSON's status
is 503 then, for a monitor."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from . import pages
from .storehealth import RETRY_SECONDS, StoreUnreachable
from .web_site import Site


def status_of(site: Site) -> dict[str, Any]:
    store = site.fed.store
    ok = store.ping()
    run = None
    if ok:
        try:
            run = store.last_run()
        except StoreUnreachable:  # lost between the two questions
            ok = False
    since = store.health.down_since
    cards = site.wall.snapshot(0)
    return {
        "v": 1,
        "name": site.name,
        "store": {
            "kind": store.kind,
            "ok": ok,
            "down_since": _stamp(since) if since is not None and not ok else None,
        },
        "ratings": None
        if run is None
        else {k: run[k] for k in ("at", "games", "players", "periods", "last_period")},
        "wall": {
            "broker": vars(site.wall.broker) if site.wall.broker is not None else None,
            "halls": len({c["hall"] for c in cards}),
            "boards": len(cards),
        },
    }


def _stamp(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds")


def status(site: Site, request: Request) -> Response:
    found = status_of(site)
    if request.url.path.endswith(".json"):
        ok = found["store"]["ok"]
        headers = None if ok else {"retry-after": str(RETRY_SECONDS)}
        return JSONResponse(found, status_code=200 if ok else 503, headers=headers)
    return HTMLResponse(pages.status_page(found, site.name))
