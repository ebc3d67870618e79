"""``damath-board demo --trace TRACE.jsonl [--hub BOARD.toml] [--speed X]``: a recorded sensor trace
played through the whole pipeline of a board, publishing as a real board does.

The trace's frames go into the simulated board's mock sensors (``controller.board.sim``) and its
presses into its mock buttons; the Pi's own scan loop (``controller.board.ScanLoop``) passes every
50 ms of trace time, so the tracker, the session, the clocks, the journal (fsync'd, as on the Pi)
and the outputs run as on a board. Time is the trace's, paced against the wall clock by ``--speed``.
With ``--hub`` the board's link follows the journal in its own thread and publishes it; at the end
the demo waits (``--wait``) for the hub to acknowledge every record, and says if it did not: nothing
is lost, the records stay in the state folder and go at the next run with the same folder.

A trace always starts a new game: a game left in the state folder's journal by an earlier run is
archived first (to ``games/``, where the link still publishes it if the hub lacks any of it).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from controller.i18n import _

STEP = 0.05
"""Trace seconds between two passes of the scan loop (the Pi scans faster; 20 Hz is enough for
the settle and clock timers to fire on time)."""
SETTLE_AFTER = 2.0
"""Trace seconds the loop runs on after the last record: the last move settles, the end runs."""


if TYPE_CHECKING:
    from controller.board import ScanLoop
    from controller.tracker.trace import Trace


def read_trace_file(path: str) -> Trace:
    from controller.tracker.trace import TraceError, lines_of, read_trace

    try:
        with open(path, encoding="utf-8") as fh:
            return read_trace(lines_of(fh))
    except FileNotFoundError:
        raise ValueError(_("--trace {path}: no such file").format(path=path)) from None
    except UnicodeDecodeError:
        raise ValueError(_("--trace {path}: not a text file").format(path=path)) from None
    except TraceError as exc:
        raise ValueError(_("--trace {path}: {error}").format(path=path, error=exc)) from None


def run_trace(args: argparse.Namespace) -> int:
    from controller.board import BoardHost, ScanLoop, default_state_dir
    from controller.board.hub import announce_link, close_link, open_link
    from controller.board.sim import sim_devices
    from controller.games.damath.kind import DAMATH, DamathGame
    from controller.games.keeper import Keeper
    from controller.session import SessionConfig
    from controller.tracker.trace import Frame

    if args.speed < 0:
        raise ValueError(
            _("--speed {speed}: use a positive number, or 0 for no pacing").format(speed=args.speed)
        )
    trace = read_trace_file(args.trace)
    folder = Path(args.state_dir) if args.state_dir else None
    link = None
    if args.hub:
        from controller.link.config import load

        board_id = load(args.hub).board  # a wrong connection file stops here, clearly
        folder = folder or default_state_dir() / "demo" / board_id
        link = open_link(args.hub, folder, "demo", holds=False)  # a recording: no round to wait for
        announce_link(link, "demo")
    config = SessionConfig(
        variant=trace.variant,
        rules=trace.profile,
        position=trace.position,
        tracker_settings=dict(trace.settings),
    )
    host = BoardHost(folder)
    if folder is not None:
        config.profile()  # a wrong setting stops here, before anything is put away
        folder.mkdir(parents=True, exist_ok=True)
        problem = host.put_away_journal()  # a trace always starts a new game
        if problem:
            print(f"damath-board demo: {problem}", file=sys.stderr)
    board_game = host.open_as(DAMATH, DamathGame, {}, 0.0, config=config)
    session = board_game.session
    now = [0.0]
    devices, hands = sim_devices(clock=lambda: now[0])
    speed = args.speed or None
    if link is not None:
        link.start()
    wall0 = time.monotonic()

    def step_to(t_end: float, board: ScanLoop) -> None:
        t = now[0]
        while t < t_end:
            t = min(t_end, t + STEP)
            if speed:
                delay = wall0 + t / speed - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
            now[0] = t
            board.step(t)

    frames = 0
    with devices:
        keeper = Keeper.of_board(folder, host.wall)
        board = ScanLoop(board_game, devices, keeper, link=link)
        try:
            for rec in trace.records:
                step_to(rec.t, board)  # the scan loop runs between the trace's records
                if isinstance(rec, Frame):
                    hands.set_occupied(rec.occupied)
                    frames += 1
                else:
                    hands.press(rec.button)
                now[0] = max(now[0], rec.t)
                board.step(now[0])
            step_to(now[0] + SETTLE_AFTER, board)
        finally:
            host.close(board_game, now[0])
    game = session.game
    played = _(
        "damath-board demo: played {trace}: {frames} sensor frames, {moves} moves, phase {phase}"
    )
    if folder:
        played = _(
            "damath-board demo: played {trace}: {frames} sensor frames, {moves} moves, "
            "phase {phase} (journal in {folder})"
        )
    values = dict(trace=args.trace, frames=frames, moves=game.ply, phase=session.phase)
    print(played.format(**values, folder=folder), flush=True)
    if session.outcome is not None:
        print(_("Game over: {why}.").format(why=session.outcome.text), flush=True)
    for problem in session.problems:
        print(f"damath-board demo: {problem}", file=sys.stderr)
    if link is None:
        return 0
    acked = link.wait_acknowledged(args.wait)
    left = close_link(link, "demo", timeout=2.0)
    if acked and not left:
        print(
            _("damath-board demo: the hub acknowledged every record of board {board}").format(
                board=link.board
            )
        )
        return 0
    return 1
