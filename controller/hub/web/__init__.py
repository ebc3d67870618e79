"""The hub's web app: one Starlette app built by ``create_app``, its routes grouped by module.

``wall`` (the spectator pages), ``stream`` (live updates, server-sent events), ``feeds`` (PDN
and JSON for broadcasters), ``boards`` (the organiser's board list and problems), ``organiser``
(what changes things, behind the organiser's token). A later module (the tournament) adds its
own routes the same way. The one HTTP edge (``controller.httpedge.asgi``) wraps them all
with the hub's policy (``edge``): body limits and security headers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute

from controller.httpedge.asgi import SecurityEdge

from .edge import POLICY

if TYPE_CHECKING:
    from ..context import HubContext

MODULES = ("wall", "stream", "feeds", "boards", "organiser", "event_api", "desk", "event_wall")


def create_app(ctx: HubContext, modules: tuple[str, ...] = MODULES) -> Starlette:
    import importlib

    routes: list[BaseRoute] = []
    for name in modules:
        routes += importlib.import_module(f"{__name__}.{name}").routes(ctx)
    app = Starlette(routes=routes, middleware=[Middleware(SecurityEdge, policy=POLICY)])
    app.state.hub = ctx
    return app
