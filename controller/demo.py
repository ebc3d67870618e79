"""``damath-board demo``: play the bundled sample game and print its scoresheet.

A quick look for someone without a board, and a smoke test of the engine and the scorer: every
move of the bundled game is checked for legality as it is replayed, so a broken engine fails here
loudly instead of printing a wrong sheet.
"""

from __future__ import annotations

import argparse
import json
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


def run(args: argparse.Namespace) -> int:
    data = load_game_file(args.game)
    game = replay(data)
    sheet = build_scoresheet(
        game.played(),
        game.chips(),
        game.variant or "integer",
        game.profile.name if game.profile else "official",
        players_of(data),
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
        ending = game.ending()
        print(f"Damath ({game.variant}), {game.ply} moves")
        if ending is not None:
            print(f"Game over: {ending.describe()}.")
        print(render_text(sheet))
    return 0
