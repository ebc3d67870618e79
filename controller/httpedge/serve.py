"""The uvicorn configuration the hub and the federation serve with, and the file limit.

``raise_file_limit`` lifts the process's soft limit on open files to its hard limit (Debian's
shells start at 1,024 with a hard limit far above; the systemd units set both,
``LimitNOFILE``). ``caps`` then fits the edge's connection limits under what is left, keeping
``RESERVED`` files for the server's own work (its store, logs, broker, threads): whatever
clients do, the server can still open its files.
"""

from __future__ import annotations

import resource
import ssl
from dataclasses import replace
from typing import Any, Literal

from .guard import EdgeLimits, EdgeState, GuardedProtocol
from .quiet import QuietLogs, RefusalLog

RESERVED = 128


def raise_file_limit() -> int:
    """The soft limit on open files raised as far as the hard limit allows; the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = 65536 if hard == resource.RLIM_INFINITY else hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


def caps(limits: EdgeLimits, files: int) -> EdgeLimits:
    """The limits with connections fitted under ``files`` open files: in all, what the file
    limit leaves after ``RESERVED``; one address, ``limits.share`` of that at most."""
    room = max(16, files - RESERVED)
    total = min(limits.max_connections, room)
    per_address = min(limits.per_address, max(4, total // limits.share))
    return replace(limits, max_connections=total, per_address=per_address)


def tls_context(cert: str, key: str) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    return context


def edge_config(
    app: Any,
    host: str,
    port: int,
    *,
    tls: tuple[str, str] | None = None,
    limits: EdgeLimits | None = None,
    refusals: RefusalLog | None = None,
    whole_process: bool = True,
    websockets: int | None = None,
    lifespan: Literal["auto", "on", "off"] = "auto",
) -> Any:
    """uvicorn's configuration behind the edge: ``tls`` (certificate, key) makes it HTTPS,
    the handshake started by the edge after the connection is counted. ``whole_process`` (a
    server's own process): the file limit raised first, asyncio's and uvicorn's
    per-connection messages counted instead of written; a test serving in its own process
    leaves both as they are. ``websockets``: WebSocket pages served, each message at most that
    many bytes (refused before it is read); none by default."""
    import uvicorn

    files = raise_file_limit() if whole_process else resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    state = EdgeState(
        caps(limits or EdgeLimits(), files),
        tls_context(*tls) if tls else None,
        refusals or RefusalLog(),
    )
    if whole_process:
        QuietLogs(state.log).install()
    protocol = type("EdgeProtocol", (GuardedProtocol,), {"edge": state})
    logging: dict[str, Any] = {"log_level": "warning"} if whole_process else {"log_config": None}
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=protocol,
        ws="auto" if websockets else "none",
        ws_max_size=websockets or 16 * 1024 * 1024,  # uvicorn's own when none are served
        lifespan=lifespan,
        **logging,
        server_header=False,  # the software is not named to scanners
        timeout_keep_alive=5,
        timeout_graceful_shutdown=1,
        limit_concurrency=state.limits.max_connections,
    )
    config.edge = state  # type: ignore[attr-defined]
    return config
