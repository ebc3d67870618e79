"""The federation's web service: hubs submit events here (HTTPS, the event's token), the hub
imports players by ID from here, and anyone reads the rating list (page, CSV, JSON), a
player's history, the events with their verdicts, and the live wall of every hall.

Every body is refused by its announced length before it is read (``edge``: a submission at
most ``bundle.MAX_SUBMISSION``, anything else 16 KiB); every response carries a strict
Content-Security-Policy; errors are a sentence, never a traceback. This module is the table of
routes; the handlers are module functions of ``web_submit``, ``web_read``, ``web_wall`` and
``web_status``.
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Route

from controller.httpedge.asgi import SecurityEdge

from . import web_read as read
from .edge import POLICY, SUBMISSIONS
from .service import Federation
from .wall import Wall
from .web_site import Site
from .web_status import status
from .web_submit import submit
from .web_wall import wall_json, wall_page, wall_stream


def create_app(fed: Federation, wall: Wall | None = None) -> Starlette:
    on = Site(fed, wall if wall is not None else Wall()).route
    routes = [
        Route("/", on(read.home)),
        Route(SUBMISSIONS, on(submit), methods=["POST"]),
        Route("/api/players/{fed_id}", on(read.api_player)),
        Route("/ratings", on(read.ratings_page)),
        Route("/ratings.csv", on(read.ratings_csv)),
        Route("/ratings.json", on(read.ratings_json)),
        Route("/players/{fed_id}", on(read.player)),
        Route("/events", on(read.events)),
        Route("/events.json", on(read.events)),
        Route("/events/{event_id}", on(read.event)),
        Route("/games/{game}.pdn", on(read.game_pdn)),
        Route("/wall", on(wall_page)),
        Route("/api/wall", on(wall_json)),
        Route("/api/wall/stream", on(wall_stream)),
        Route("/status", on(status)),
        Route("/status.json", on(status)),
        Route("/static/{file}", on(read.static)),
    ]
    return Starlette(routes=routes, middleware=[Middleware(SecurityEdge, policy=POLICY)])
