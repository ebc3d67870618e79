"""``damath-board demo``: play the bundled sample game on a simulated board; print its sheet.

A quick look for someone without a board, and a smoke test of the whole pipeline. The game's moves
are first checked by the engine; then a pair of simulated hands plays them on the board
(``tracker.generator.human_trace``: lifts, hesitations, taken chips removed in any order, switch
bounce), and the Pi's own scan loop (``controller.board.ScanLoop`` over the simulated board's mock
devices, ``controller.board.sim``) feeds the sensor frames to the tracker and the session, which
render LEDs, clocks, buzzer and display. The sheet printed is the session's. If the board read any
move differently from the recorded game, the demo says which and fails, instead of printing a wrong
sheet.

``--trace TRACE.jsonl`` plays a recorded sensor trace instead (docs/tracker.md), paced by
``--speed``, through the same scan loop, with the session journaled in a board's state folder; with
``--hub BOARD.toml`` the board's link publishes the journal to a tournament hub exactly as a real
board does (docs/hall.md): for trying a hall out, for tests and for load.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from controller.i18n import _, side_word
from controller.rules.game import Game, IllegalMove
from controller.scoresheet import Player, build_scoresheet, render_csv, render_html, render_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", metavar="FILE", help=_("a game file (default: the bundled one)"))
    parser.add_argument(
        "--format",
        choices=("text", "csv", "html"),
        default="text",
        help=_("how to print the scoresheet (default: a table for the terminal)"),
    )
    parser.add_argument("--moves", action="store_true", help=_("also list the moves as played"))
    parser.add_argument(
        "--seed", type=int, default=7, help=_("the simulated hands' randomness (default 7)")
    )
    parser.add_argument(
        "--trace",
        metavar="TRACE.jsonl",
        help=_("play a recorded sensor trace instead of a game file"),
    )
    parser.add_argument(
        "--speed",
        type=float,
        default=1.0,
        metavar="X",
        help=_("with --trace: X times the recorded pace (default 1; 0: as fast as possible)"),
    )
    parser.add_argument(
        "--hub",
        metavar="BOARD.toml",
        help=_(
            "with --trace: publish the game to a tournament hub as this board (its connection "
            "file, written by damath-board hub board-add)"
        ),
    )
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        help=_(
            "with --trace: the board's state folder (journal, kept games, the link's state; "
            "default with --hub: the state folder's demo/<board>)"
        ),
    )
    parser.add_argument(
        "--wait",
        type=float,
        default=30.0,
        metavar="S",
        help=_("with --hub: how long to wait at the end for the hub to acknowledge (default 30)"),
    )


def load_game_file(path: str | None) -> dict[str, Any]:
    if path is None:
        text = resources.files("controller.data").joinpath("sample_game.json").read_text("utf-8")
    else:
        text = Path(path).read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(
            _("{path}: not valid JSON ({msg}, line {lineno})").format(
                path=path, msg=exc.msg, lineno=exc.lineno
            )
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("moves"), list):
        raise ValueError(
            _("{path}: expected an object with 'variant' and a list of 'moves'").format(path=path)
        )
    return data


def replay(data: dict[str, Any]) -> Game:
    """Play every recorded path through the engine; an illegal one names its move number."""
    game = Game.new(data.get("variant", "integer"), data.get("profile", "official"))
    for number, path in enumerate(data["moves"], start=1):
        try:
            squares = [(int(x), int(y)) for x, y in path]
            game.push(game.find_move(squares))
        except (IllegalMove, TypeError, ValueError) as exc:
            raise ValueError(f"move {number} ({path}): {exc}") from None
    return game


def players_of(data: dict[str, Any]) -> tuple[Player, Player]:
    people = data.get("players") or {}
    return tuple(  # type: ignore[return-value]
        Player(**{k: str(v) for k, v in (people.get(side) or {}).items() if k in Player.__slots__})
        for side in ("blue", "red")
    )


@dataclass(frozen=True)
class BoardRun:
    """What the simulated board did while the game was played on it."""

    game: Game
    outcome_text: str | None
    frames: int
    led_frames: int


class PipelineMismatch(RuntimeError):
    """The board read a move other than the recorded one: a bug, never the player's fault."""


def play_on_board(
    recorded: Game, seed: int, hands: Callable[..., list[str]] | None = None
) -> BoardRun:
    """Play ``recorded``'s moves by simulated ``hands`` (default: ``human_trace``) through the
    Pi's scan loop and session."""
    from controller.board import BoardHost, ScanLoop
    from controller.board.sim import sim_devices
    from controller.games.damath.kind import DAMATH, DamathGame
    from controller.session import SessionConfig
    from controller.tracker.generator import human_trace
    from controller.tracker.trace import Frame, read_trace

    hands = hands or human_trace

    rules = recorded.profile.name if recorded.profile is not None else "official"
    start = Game.new(recorded.variant or "integer", rules)
    moves = [move for _, move in recorded.played()]
    trace = read_trace(hands(start, moves, random.Random(seed)))
    now = [0.0]
    devices, controls = sim_devices(clock=lambda: now[0])
    config = SessionConfig(variant=start.variant or "integer", rules=rules)
    game = BoardHost(None).open_as(DAMATH, DamathGame, {}, 0.0, config=config)  # in memory
    session = game.session
    frames = 0
    with devices:
        board = ScanLoop(game, devices)

        def step(t: float) -> None:
            now[0] = t
            board.step(t)

        for rec in trace.records:
            if isinstance(rec, Frame):
                controls.set_occupied(rec.occupied)
                frames += 1
            else:
                controls.press(rec.button)
            step(rec.t)
        t = trace.records[-1].t if trace.records else 0.0
        for _tick in range(40):  # let the last settle and the end of the game run out
            t += 0.05
            step(t)
        led_frames = controls.led_frames()
    played = [m.path for _, m in session.game.played()]
    for number, (want, got) in enumerate(zip(moves, played, strict=False), start=1):
        if want.path != got:
            raise PipelineMismatch(
                _("move {number}: the board read {got}, the game has {path}").format(
                    number=number, got=got, path=want.path
                )
            )
    if len(played) != len(moves):
        raise PipelineMismatch(
            _("the board read {len} moves, the game has {len2}").format(
                len=len(played), len2=len(moves)
            )
        )
    outcome = session.outcome.text if session.outcome is not None else None
    return BoardRun(session.game, outcome, frames, led_frames)


def run(args: argparse.Namespace) -> int:
    if args.trace:
        from .demo_trace import run_trace

        return run_trace(args)
    if args.hub:
        raise ValueError(_("--hub publishes a played trace: give it with --trace TRACE.jsonl"))
    data = load_game_file(args.game)
    try:
        played = play_on_board(replay(data), args.seed)
    except PipelineMismatch as exc:
        print(
            _("damath-board demo: the simulated board went wrong: {exc}").format(exc=exc),
            file=sys.stderr,
        )
        return 1
    game = played.game
    ending = game.ending()
    sheet = build_scoresheet(
        game.played(),
        game.chips(),
        game.variant or "integer",
        game.profile.name if game.profile else "official",
        players_of(data),
        finished=ending is not None,
        ending=played.outcome_text or "",
    )
    if args.moves:
        for ply, (side, move) in enumerate(game.played(), start=1):
            who = side_word(side)
            print(f"{ply:3}. {who:4} {move.chip.value if move.chip else ''} {move}")
        print()
    if args.format == "csv":
        print(render_csv(sheet), end="")
    elif args.format == "html":
        print(render_html(sheet))
    else:
        print(
            _(
                "Damath ({variant}), {ply} moves played on the simulated board: {frames} sensor "
                "frames read, {led_frames} LED frames shown."
            ).format(
                variant=game.variant,
                ply=game.ply,
                frames=played.frames,
                led_frames=played.led_frames,
            )
        )
        if ending is not None:
            why = played.outcome_text or ending.describe()  # the session's words, translated
            print(_("Game over: {why}.").format(why=why))
        print(render_text(sheet))
    return 0
