"""``damath-board sim``: serve the virtual board on this machine and say where to open it.

Binds 127.0.0.1 by default (a classroom projector or a phone on the same network needs
``--host 0.0.0.0``, a deliberate choice). A busy port is reported and the next free one is used,
so a second run never fails with a bare "address already in use". Games are journaled in the
state folder (``$STATE_DIRECTORY`` or ~/.local/state/damath-board, under ``sim/``), so stopping
the simulator loses nothing: a board opened again resumes its game. ``--no-save`` keeps nothing.
The arbiter's PIN (docs/security.md): ``--set-pin`` keeps its hash in ``--pin-file``;
``DAMATH_SIM_PIN`` overrides it; on 127.0.0.1 there is none by default, anywhere else a random
one is printed. uvicorn runs with ``guard.server_config`` (limits, no server header).
"""

from __future__ import annotations

import argparse
import errno
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from controller.link.board import BoardLinks

from controller.i18n import _

DEFAULT_PORT = 8000
TRIES = 20
MAX_HUB_BOARDS = 64
"""The simulator's own limit on boards (``create_app``'s ``max_boards``)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help=_("address to listen on (127.0.0.1)"))
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=_(
            "port ({DEFAULT_PORT}; 0 picks a free one; a busy port moves to the next free one)"
        ).format(DEFAULT_PORT=DEFAULT_PORT),
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=None,
        metavar="SECONDS",
        help=_("seconds the board must stand still before a move counts (tracker default)"),
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=_(
            "what every new game starts with: a rule setting (move_seconds=120), practice "
            "(practice=true, clocks=off, takeback=players, capture_preview=true) or the event "
            "(event=..., round=2); repeatable"
        ),
    )
    parser.add_argument(
        "--players",
        metavar="FILE",
        help=_(
            "the class list the boards offer, one name a line (default: players.txt in the "
            "state folder)"
        ),
    )
    parser.add_argument(
        "--set-pin",
        action="store_true",
        help=_("ask for the arbiter's PIN, keep its hash in --pin-file, then run"),
    )
    parser.add_argument(
        "--pin-file",
        metavar="FILE",
        help=_("where the arbiter's PIN is kept, hashed (default ~/.config/damath-board/sim-pin)"),
    )
    parser.add_argument(
        "--hub",
        action="append",
        default=[],
        metavar="BOARD.toml",
        help=_(
            "publish a board's games to a tournament hub: its connection file (the board is "
            "opened at start under the file's board id), or a folder of them, one board each; "
            "repeatable"
        ),
    )
    saving = parser.add_mutually_exclusive_group()
    saving.add_argument(
        "--state-dir",
        metavar="DIR",
        help=_("where the boards' games are kept (default: the state folder's sim/)"),
    )
    saving.add_argument(
        "--no-save", action="store_true", help=_("keep games in memory only (lost when it stops)")
    )


def state_folder(args: argparse.Namespace) -> Path | None:
    """The folder for the boards' journals, created and checked writable; None with --no-save."""
    if args.no_save:
        return None
    from controller.board import default_state_dir

    folder = Path(args.state_dir) if args.state_dir else default_state_dir() / "sim"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise ValueError(
            _(
                "cannot keep games in {folder} ({value}): choose another with --state-dir, or "
                "run with --no-save"
            ).format(folder=folder, value=exc.strerror or exc)
        ) from None
    return folder


def hub_links(paths: list[str], state_dir: Path | None) -> BoardLinks | None:
    """``--hub``: the boards' links, every connection file checked before the server starts;
    each board's link follows that board's folder (journal and kept games) in ``state_dir``."""
    if not paths:
        return None
    if state_dir is None:
        raise ValueError(_("--hub publishes the games the boards keep: drop --no-save"))
    from controller.board import board_folder
    from controller.link.board import BoardLinks
    from controller.sim.registry import Boards

    def say(text: str) -> None:
        print(f"damath-board sim: {text}", file=sys.stderr, flush=True)

    links = BoardLinks.open(paths, lambda board: board_folder(state_dir, board), say)
    for board_id in links.ids():
        Boards.check_id(board_id)
    if len(links.ids()) > MAX_HUB_BOARDS:
        raise ValueError(
            _("--hub: at most {count} boards in one simulator").format(count=MAX_HUB_BOARDS)
        )
    return links


def bind(host: str, port: int, tries: int = TRIES) -> tuple[socket.socket, str | None]:
    """A listening socket on ``port`` or the next free one; the second item says what moved."""
    if not 0 <= port <= 65535:
        raise ValueError(_("--port {port}: a port is a number from 0 to 65535").format(port=port))
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    note = None
    for candidate in [port] if port == 0 else range(port, min(port + tries, 65536)):
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, candidate))
        except OSError as exc:
            sock.close()
            if exc.errno == errno.EADDRINUSE:
                note = f"port {port} is busy"
                continue
            raise ValueError(
                _("cannot listen on {host}:{candidate}: {value}").format(
                    host=host, candidate=candidate, value=exc.strerror or exc
                )
            ) from None
        sock.listen(128)
        sock.set_inheritable(True)
        if note is not None:
            note += _("; using port {getsockname} instead").format(
                getsockname=sock.getsockname()[1]
            )
        return sock, note
    raise ValueError(
        _("ports {port} to {value} are all busy: choose one with --port").format(
            port=port, value=port + tries - 1
        )
    )


def address(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def arbiter_access(
    args: argparse.Namespace, host: str, state_dir: Path | None = None
) -> tuple[Any, str | None]:
    """The arbiter's PIN (docs/security.md): ``DAMATH_SIM_PIN``, else the PIN file (set with
    ``--set-pin``), else none on 127.0.0.1 (this machine only: everyone is the arbiter), else a
    random PIN for this run, printed. The browsers it unlocked are kept in ``state_dir``, so a
    restart keeps them unlocked under the same PIN. Returns the Access and a line to print."""
    import getpass
    import os

    from controller.sim.access import (
        Access,
        check_new_pin,
        default_pin_file,
        is_loopback,
        random_pin,
        read_pin_file,
        write_pin_file,
    )

    pin_file = Path(args.pin_file) if args.pin_file else default_pin_file()
    if args.set_pin:
        pin = getpass.getpass(_("Arbiter's PIN (4 to 64 characters): "))
        check_new_pin(pin)
        if getpass.getpass(_("The same PIN again: ")) != pin:
            raise ValueError(_("the two PINs differ: nothing was changed"))
        write_pin_file(pin_file, pin)
        print(_("The arbiter's PIN is set (kept hashed in {pin_file}).").format(pin_file=pin_file))
    env = os.environ.get("DAMATH_SIM_PIN")
    if env:
        return Access.with_pin(env, state_dir), _("The arbiter's PIN is the one in DAMATH_SIM_PIN.")
    stored = read_pin_file(pin_file)
    if stored is not None:
        return Access.kept(stored, state_dir), _(
            "The arbiter's PIN is the one set with --set-pin ({pin_file})."
        ).format(pin_file=pin_file)
    if is_loopback(host):
        return Access(), None
    pin = random_pin()
    return Access.with_pin(pin, state_dir), (
        _(
            "Arbiter's PIN for this run: {pin} (new game, takeback, settings, new boards). Set a "
            "lasting one with --set-pin."
        ).format(pin=pin)
    )


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from controller.board.options import parse_settings
    from controller.games import DEFAULT, find_game
    from controller.sim.access import LOOPBACK_NAMES, is_loopback
    from controller.sim.guard import server_config
    from controller.sim.server import create_app
    from controller.tracker import Settings, SettingsError

    settings = None
    if args.settle is not None:
        try:
            Settings().with_overrides({"settle": args.settle})
        except SettingsError as exc:
            raise ValueError(f"--settle: {exc}") from None
        settings = {"settle": args.settle}
    state_dir = state_folder(args)
    links = hub_links(args.hub, state_dir)
    defaults = parse_settings(args.set)
    kind = find_game(defaults.pop("game", DEFAULT))  # the game every new board plays
    kind.check(defaults, None)  # its settings: a wrong --set fails here, in one line
    if {"puzzle", "child"} & set(defaults):  # one child's puzzle is not every board's game
        raise ValueError(_("--set puzzle, child: a simulated board opens a puzzle from its page"))
    if kind.name != DEFAULT:
        defaults["game"] = kind.name
    roster_file = Path(args.players) if args.players else None
    if roster_file is not None and not roster_file.is_file():
        raise ValueError(_("--players {roster_file}: no such file").format(roster_file=roster_file))
    access, pin_note = arbiter_access(args, args.host, state_dir)
    sock, note = bind(args.host, args.port)
    port = sock.getsockname()[1]
    if note:
        print(f"damath-board sim: {note}", file=sys.stderr)
    url = address(args.host, port)
    print(
        _("Damath virtual board: open {url} in a browser (boards at {url}board/<id>).").format(
            url=url
        )
    )
    print(_("The class overview for a teacher: {url}class").format(url=url))
    if state_dir is not None:
        print(_("The class's puzzles, for the children: {url}puzzles").format(url=url))
        print(
            _("Games are kept in {state_dir}; a board opened again resumes its game.").format(
                state_dir=state_dir
            )
        )
    if pin_note:
        print(pin_note)
    if links is not None:
        for board_id, link in links.links.items():
            print(
                _("Board {board} ({url}) publishes to the hub {hub}.").format(
                    board=board_id, url=f"{url}board/{board_id}", hub=link.link.config.url
                )
            )
    print(_("Press Ctrl+C to stop."), flush=True)
    hosts = LOOPBACK_NAMES if is_loopback(args.host) else None
    app = create_app(
        settings=settings,
        state_dir=state_dir,
        defaults=defaults,
        roster_file=roster_file,
        access=access,
        allowed_hosts=hosts,
        links=links,
    )
    server = uvicorn.Server(server_config(app, whole_process=True))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return 0
