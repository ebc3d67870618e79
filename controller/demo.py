"""``damath-board demo``: play the bundled sample game on a simulated board; print its sheet.

A quick look for someone without a board, and a smoke test of the whole pipeline. The game's
moves are first checked by the engine; then a pair of simulated hands plays them on the board
(``tracker.generator.human_trace``: lifts, hesitations, taken chips removed in any order, switch
bounce), and the Pi's own scan loop (``app.Board`` over the mock devices of ``hardware/sim.toml``)
feeds the sensor frames to the tracker and the session, which render LEDs, clocks, buzzer and
display. The sheet printed is the session's. If the board read any move differently from the
recorded game, the demo says which and fails, instead of printing a wrong sheet.
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

from .rules.game import Game, IllegalMove
from .scoresheet import Player, build_scoresheet, render_csv, render_html, render_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", metavar="FILE", help="a game file (default: the bundled one)")
    parser.add_argument(
        "--format",
        choices=("text", "csv", "html"),
        default="text",
        help="how to print the scoresheet (default: a table for the terminal)",
    )
    parser.add_argument("--moves", action="store_true", help="also list the moves as played")
    parser.add_argument(
        "--seed", type=int, default=7, help="the simulated hands' randomness (default 7)"
    )


def load_game_file(path: str | None) -> dict[str, Any]:
    if path is None:
        text = resources.files("controller.data").joinpath("sample_game.json").read_text("utf-8")
    else:
        text = Path(path).read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(data, dict) or not isinstance(data.get("moves"), list):
        raise ValueError(f"{path}: expected an object with 'variant' and a list of 'moves'")
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
    from controller.app import Board, build_session_for_sim
    from controller.sim.engine import sim_profile
    from controller.tracker.generator import human_trace
    from controller.tracker.trace import Frame, read_trace
    from drivers.factory import build_devices

    hands = hands or human_trace

    start = Game.new(recorded.variant or "integer", recorded.profile.name)
    moves = [move for _, move in recorded.played()]
    trace = read_trace(hands(start, moves, random.Random(seed)))
    now = [0.0]
    devices = build_devices(sim_profile(), clock=lambda: now[0])
    session = build_session_for_sim(
        "demo", variant=start.variant or "integer", rules=recorded.profile.name
    )
    frames = 0
    with devices:
        board = Board(session, devices)

        def step(t: float) -> None:
            now[0] = t
            board.step(t)

        for rec in trace.records:
            if isinstance(rec, Frame):
                devices.sensors.source.set(rec.occupied)
                frames += 1
            else:
                devices.buttons.inject(rec.button)
            step(rec.t)
        t = trace.records[-1].t if trace.records else 0.0
        for _ in range(40):  # let the last settle and the end of the game run out
            t += 0.05
            step(t)
        led_frames = len(getattr(devices.leds.writer, "frames", ())) if devices.leds else 0
    played = [m.path for _, m in session.game.played()]
    for number, (want, got) in enumerate(zip(moves, played, strict=False), start=1):
        if want.path != got:
            raise PipelineMismatch(f"move {number}: the board read {got}, the game has {want.path}")
    if len(played) != len(moves):
        raise PipelineMismatch(f"the board read {len(played)} moves, the game has {len(moves)}")
    outcome = session.outcome.text if session.outcome is not None else None
    return BoardRun(session.game, outcome, frames, led_frames)


def run(args: argparse.Namespace) -> int:
    data = load_game_file(args.game)
    try:
        played = play_on_board(replay(data), args.seed)
    except PipelineMismatch as exc:
        print(f"damath-board demo: the simulated board went wrong: {exc}", file=sys.stderr)
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
            who = "Blue" if side == 0 else "Red"
            print(f"{ply:3}. {who:4} {move.chip.value if move.chip else ''} {move}")
        print()
    if args.format == "csv":
        print(render_csv(sheet), end="")
    elif args.format == "html":
        print(render_html(sheet))
    else:
        print(
            f"Damath ({game.variant}), {game.ply} moves played on the simulated board: "
            f"{played.frames} sensor frames read, {played.led_frames} LED frames shown."
        )
        if ending is not None:
            print(f"Game over: {ending.describe()}.")
        print(render_text(sheet))
    return 0
