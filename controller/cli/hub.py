"""``damath-board hub``: the tournament hub on the organiser's laptop (docs/hall.md).

``hub --dir DIR`` runs it: its own Mosquitto (or ``--broker URL``), the store, the spectator
wall and the feeds on ``--http-port``. ``hub board-add ID --dir DIR --host ADDR`` gives a board
its credential and writes the board's connection file. Heavy imports wait until a command runs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from controller.cli.hub_event import add_commands as add_event_commands
from controller.cli.hub_federation import add_commands as add_federation_commands
from controller.cli.tournament import add_commands as add_tournament_commands

if TYPE_CHECKING:
    from controller.hub.context import HubContext


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dir", metavar="DIR", help="the event directory (store, broker, keys)")
    parser.add_argument("--http-port", type=int, default=8080, help="web pages and feeds (8080)")
    parser.add_argument("--http-host", default="0.0.0.0", help="address to serve on (0.0.0.0)")
    parser.add_argument(
        "--broker",
        metavar="URL",
        help="use this broker (mqtt[s]://[user:password@]HOST:PORT) instead of starting one",
    )
    parser.add_argument("--ca", metavar="FILE", help="CA certificate of an mqtts:// broker")
    parser.add_argument("--mqtt-port", type=int, default=1883, help="own broker's port (1883)")
    parser.add_argument("--mqtt-bind", default="0.0.0.0", help="own broker's address (0.0.0.0)")
    parser.add_argument("--tls-cert", metavar="FILE", help="own broker: TLS certificate")
    parser.add_argument("--tls-key", metavar="FILE", help="own broker: TLS private key")
    parser.add_argument("--tls-port", type=int, default=8883, help="own broker's TLS port (8883)")
    parser.add_argument("--event", metavar="NAME", help="the event's name (first run only)")
    parser.add_argument(
        "--board-rate",
        type=float,
        default=200.0,
        metavar="N",
        help="messages a second one board may send on average (200); the rest are dropped",
    )
    parser.add_argument(
        "--hold-minutes",
        type=float,
        default=10.0,
        metavar="N",
        help="a flooding board's credential is held at the broker this long (10; 0: never)",
    )
    parser.add_argument(
        "--games-per-hour",
        type=int,
        default=30,
        metavar="N",
        help="new games one board may open in an hour (30); more wait for the next hour",
    )
    parser.add_argument(
        "--rebuild",
        action="store_true",
        help="the store is damaged or lost: put it aside, start from the last good backup "
        "and ask every board for all its games again (docs/hall.md)",
    )
    parser.add_argument("--ready-file", metavar="FILE", help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="hub_action", metavar="ACTION")
    add = sub.add_parser("board-add", help="a board's credential and connection file")
    add.add_argument("board", metavar="ID", help="the board id (e.g. b07): letters, digits, -")
    add.add_argument("--dir", metavar="DIR", default=argparse.SUPPRESS, help="event directory")
    add.add_argument("--host", help="the address the boards reach this hub at")
    add.add_argument("--port", type=int, help="the broker's port for boards (1883, TLS 8883)")
    add.add_argument("--ca", metavar="FILE", help="with TLS: the CA certificate boards trust")
    add.add_argument("--out", metavar="FILE", help="where to write it (DIR/boards/ID.toml)")
    add.add_argument("--replace", action="store_true", help="issue a new credential")
    rm = sub.add_parser(
        "board-remove", help="retire a board: its credential revoked, its games kept"
    )
    rm.add_argument("board", metavar="ID", help="the board id (e.g. b21)")
    rm.add_argument("--dir", metavar="DIR", default=argparse.SUPPRESS, help="event directory")
    add_tournament_commands(sub)
    add_event_commands(sub)
    add_federation_commands(sub)
    for command in sub.choices.values():  # every hub command writes in the event folder
        handler = command.get_default("handler")
        if handler is not None:
            command.set_defaults(handler=_private(handler))


def _private(handler: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """The command run with the umask 077: what it writes in the event folder is private."""

    def run_private(args: argparse.Namespace) -> int:
        from controller.hub.folder import private_umask

        private_umask()
        return handler(args)

    return run_private


def run(args: argparse.Namespace) -> int:
    from controller.hub.folder import private_umask

    private_umask()  # everything the hub and its broker write: the organiser's only
    if not args.dir:
        raise ValueError("--dir DIR is needed: the event directory (it is created if new)")
    if getattr(args, "hub_action", None) == "board-add":
        return _board_add(args)
    if getattr(args, "hub_action", None) == "board-remove":
        return _board_remove(args)
    return _serve(args)


def _board_remove(args: argparse.Namespace) -> int:
    from controller.hub.credentials import remove_board

    removed = remove_board(args.dir, args.board)
    games = f"its {removed.games} game(s) stay in the event" if removed.games else "it had no game"
    print(f"board {removed.board} removed: its credential is revoked, {games}")
    if not removed.reloaded:
        print("(the hub's broker is not running: it starts without the credential)")
    print(
        f"delete its connection file ({args.dir}/boards/{removed.board}.toml) wherever it "
        "was copied"
    )
    return 0


def _board_add(args: argparse.Namespace) -> int:
    from controller.hub.credentials import add_board

    added = add_board(
        args.dir,
        args.board,
        host=args.host,
        port=args.port,
        ca_file=args.ca,
        out=args.out,
        replace=args.replace,
    )
    c = added.config
    print(f"board {c.board}: connection file {added.path} (hub {c.url}; keep it secret)")
    print("copy it to the board and start it with --hub " + added.path.name)
    if not added.reloaded:
        print("(the hub's broker is not running: it reads the new credential when it starts)")
    return 0


def banner(ctx: HubContext, args: argparse.Namespace) -> str:
    """What the hub says when it starts: the addresses it is really reached at (the laptop's
    own on the hall's network, not 0.0.0.0), and what to do first when there is no event."""
    from controller.hub.addresses import reachable

    hosts = reachable(args.http_host)
    first, others = hosts[0], hosts[1:]
    web = f"http://{first}:{args.http_port}"
    lines = [
        f"damath-board hub: event {ctx.store.event_name!r} in {ctx.folder}",
        f"  desk        {web}/desk   (organiser and arbiters)",
        f"  event wall  {web}/event  (pairings, standings, schools: the hall's screen)",
        f"  live wall   {web}/       boards {web}/boards   feeds {web}/feeds",
    ]
    if others:
        lines.append("  also at     " + "  ".join(f"http://{h}:{args.http_port}/" for h in others))
    if ctx.broker is not None:
        mqtt = reachable(args.mqtt_bind)
        if args.tls_cert:  # the plain listener is the hub's own, on 127.0.0.1
            said = [f"mqtts://{h}:{args.tls_port}" for h in mqtt]
        else:
            said = [f"mqtt://{h}:{args.mqtt_port}" for h in mqtt]
        lines.append("  broker      " + "  ".join(said))
    else:
        lines.append(f"  broker      {ctx.broker_url}")
    if not (ctx.folder / "tournament.sqlite").exists():
        lines.append(
            "  no tournament event here yet: create it at the desk (log in as the organiser: it"
            " asks for the name, date, system and rounds) or with `damath-board hub event"
            f" create --dir {ctx.folder} --name …`"
        )
    return "\n".join(lines)


def _serve(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    import threading
    from pathlib import Path

    import uvicorn

    from controller.httpedge import edge_config
    from controller.hub.broker import BrokerError, Tls
    from controller.hub.ingest import Limits
    from controller.hub.service import open_hub
    from controller.hub.web import create_app

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s: %(message)s")
    if not 1 <= args.http_port <= 65535:
        raise ValueError(f"--http-port {args.http_port}: a number from 1 to 65535")
    tls = None
    if args.tls_cert or args.tls_key:
        if not (args.tls_cert and args.tls_key):
            raise ValueError("--tls-cert and --tls-key go together")
        for f in (args.tls_cert, args.tls_key):
            if not Path(f).is_file():
                raise ValueError(f"{f}: no such file")
        tls = Tls(args.tls_cert, args.tls_key, args.tls_port)
    if not 1 <= args.board_rate <= 100_000:
        raise ValueError(f"--board-rate {args.board_rate:g}: a number from 1 to 100000")
    if not 1 <= args.games_per_hour <= 10_000:
        raise ValueError(f"--games-per-hour {args.games_per_hour}: a number from 1 to 10000")
    if not 0 <= args.hold_minutes <= 24 * 60:
        raise ValueError(f"--hold-minutes {args.hold_minutes:g}: from 0 (never) to 1440")
    limits = Limits(
        args.board_rate,
        max(1000, int(args.board_rate * 5)),
        args.games_per_hour,
        args.hold_minutes * 60,
    )
    try:
        ctx = open_hub(
            args.dir,
            broker_url=args.broker,
            mqtt_port=args.mqtt_port,
            mqtt_bind=args.mqtt_bind,
            tls=tls,
            ca_file=args.ca,
            event=args.event,
            limits=limits,
            rebuild=args.rebuild,
        )
    except BrokerError as exc:
        raise ValueError(str(exc)) from None
    app = create_app(ctx)
    # the edge: connections per address, deadlines, the file limit (docs/security.md)
    server = uvicorn.Server(edge_config(app, args.http_host, args.http_port))
    print(banner(ctx, args), flush=True)
    if ctx.rebuilt:
        print(
            f"  rebuild: {ctx.rebuilt}; every board is asked for its games again "
            f"(the board list shows them coming back)",
            flush=True,
        )

    def ready() -> None:
        while not server.started and not server.should_exit:
            threading.Event().wait(0.05)
        if args.ready_file and server.started:
            Path(args.ready_file).write_text("ready\n")

    threading.Thread(target=ready, daemon=True).start()
    try:
        asyncio.run(server.serve())
    finally:
        ctx.close()
    if not server.started:
        print(f"damath-board hub: cannot serve on port {args.http_port}", file=sys.stderr)
        return 2
    return 0
