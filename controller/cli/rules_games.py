"""``rules moves`` and ``rules perft`` for Dadama and Dam: their positions and their answers
(Mathematical Chess answers from ``rules_mathchess``).

Dadama's answer is what a board must show at that moment: the quiet moves; or the dice that
must throw, and for every value a throw may keep, the takings it allows; or, during a multiple
taking, the choice to throw again or stop.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from controller import registry
from controller.record.draughts import DraughtsRules
from controller.record.games import DraughtsRecorded
from controller.rules.dadama import COLOURS as DADAMA_COLOURS
from controller.rules.dadama import FACES, DadamaGame, Phase, square_text
from controller.rules.dadama_notation import dadama_from_json
from controller.rules.dam import COLOURS as DAM_COLOURS
from controller.rules.dam import DamGame
from controller.rules.dam_notation import dam_from_json
from controller.rules.game import Game
from controller.rules.move import Move
from controller.rules.notation import NotationError
from controller.rules.pdn_game import move_text

from .rules_mathchess import MathChess
from .rules_mathchess import from_json as mathchess_from_json
from .rules_mathchess import print_moves as print_mathchess
from .rules_mathchess import start as mathchess_start


def fen_games() -> dict[str, DraughtsRules]:
    """The registry's plain draughts games whose positions are PDN FEN (English and Italian
    draughts, and any later one), found through each game's record reader."""
    found: dict[str, DraughtsRules] = {}
    for entry in registry.ENTRIES:
        reader = entry.new_record() if entry.record is not None else None
        if isinstance(reader, DraughtsRecorded) and reader.rules.fen_positions:
            found[entry.name] = reader.rules
    return found


FEN_GAMES = fen_games()
OTHER_GAMES = ("dadama", "dam", "mathchess", *FEN_GAMES)
Answered = DadamaGame | DamGame | MathChess | Game


def opening(name: str) -> Answered:
    if name in FEN_GAMES:
        return FEN_GAMES[name].opening({})
    if name == "mathchess":
        return mathchess_start()
    return DadamaGame.opening() if name == "dadama" else DamGame.opening()


def from_json(name: str, obj: dict[str, Any]) -> Answered:
    if name in FEN_GAMES:
        try:
            return FEN_GAMES[name].from_json(obj, {})
        except ValueError as exc:
            raise NotationError(str(exc)) from None
    if name == "mathchess":
        return mathchess_from_json(obj)
    return dadama_from_json(obj) if name == "dadama" else dam_from_json(obj)


def print_moves(game: Answered, as_json: bool, out: TextIO) -> None:
    if isinstance(game, MathChess):
        print_mathchess(game, as_json, out)
    elif isinstance(game, DadamaGame):
        _print_dadama(game, as_json, out)
    elif isinstance(game, DamGame):
        _print_draughts(game, DAM_COLOURS, as_json, out)
    else:
        _print_draughts(game, FEN_GAMES[game.rules.name].colours, as_json, out)


# ---------------------------------------------------------------------- dadama


def dadama_json(game: DadamaGame) -> dict[str, Any]:
    phase = game.phase
    out: dict[str, Any] = {
        "game": "dadama",
        "to_move": DADAMA_COLOURS[game.side_to_move],
        "phase": phase.value,
        "moves": [],
        "throwers": [],
        "can_stop": game.can_stop,
    }
    if phase is Phase.OVER:
        ending = game.ending()
        assert ending is not None
        out["ending"] = {"reason": ending.reason, "text": ending.describe()}
        winner = ending.winner
        out["ending"]["winner"] = None if winner is None else DADAMA_COLOURS[winner]
        return out
    for move in game.quiet_moves():
        piece = game.piece_at(move.start)
        far = 7 if game.side_to_move == 0 else 0
        promotes = piece is not None and not piece.dadama and move.end[1] == far
        out["moves"].append({"path": [list(move.start), list(move.end)], "promotes": promotes})
    for square in game.throwers():
        piece = game.piece_at(square)
        assert piece is not None
        jumps = game.jumps(square)
        by_value = []
        for value in FACES:
            allowed = game.allowed_takings(square, value)
            by_value.append({"value": value, "to": [list(land) for land, _ in allowed]})
        out["throwers"].append(
            {
                "square": list(square),
                "value": piece.value,
                "dadama": piece.dadama,
                "dice": game.dice_to_throw(square),
                "takings": [
                    {
                        "to": list(land),
                        "taken": list(over),
                        "taken_value": game.piece_at(over).value,  # type: ignore[union-attr]
                    }
                    for land, over in jumps
                ],
                "by_value": by_value,
            }
        )
    if game.going_on is not None:
        where, taken = game.going_on
        out["going_on"] = {"square": list(where), "taken": [list(t) for t in taken]}
    return out


def _print_dadama(game: DadamaGame, as_json: bool, out: TextIO) -> None:
    if as_json:
        out.write(json.dumps(dadama_json(game)) + "\n")
        return
    side = DADAMA_COLOURS[game.side_to_move].capitalize()
    phase = game.phase
    if phase is Phase.OVER:
        out.write(f"The game is over: {game.ending().describe()}.\n")  # type: ignore[union-attr]
        return
    if phase is Phase.MOVE:
        moves = game.quiet_moves()
        count = len(moves)
        noun = "legal move" if count == 1 else "legal moves"
        out.write(f"{side} to move: {count} {noun} (no die can take)\n")
        for move in moves:
            piece = game.piece_at(move.start)
            label = f"{'dadama ' if piece and piece.dadama else ''}{piece.value if piece else ''}"
            out.write(f"  {label} {square_text(move.start)}-{square_text(move.end)}\n")
        return
    if phase is Phase.GO_ON:
        here = game.throwers()[0]
        value = game.pieces()[here].value
        stop = f"or stop, keeping {value}" if game.can_stop else "(going on is compulsory)"
        out.write(f"{side}'s die on {square_text(here)} has taken: throw again {stop}\n")
    else:
        count = len(game.throwers())
        out.write(
            f"{side} to move: taking is compulsory; {count} "
            f"{'piece' if count == 1 else 'pieces'} can take, one must throw\n"
        )
    for square in game.throwers():
        _print_thrower(game, square, out)


def _print_thrower(game: DadamaGame, square: tuple[int, int], out: TextIO) -> None:
    piece = game.piece_at(square)
    assert piece is not None
    if piece.dadama:
        out.write(f"  dadama {piece.value} on {square_text(square)} throws two dice, keeps one:\n")
    else:
        out.write(f"  die {piece.value} on {square_text(square)} throws:\n")
    groups: list[tuple[list[int], str]] = []
    for value in FACES:
        allowed = game.allowed_takings(square, value)
        if allowed:
            text = " or ".join(
                f"x{square_text(land)} takes {game.piece_at(over).value} on {square_text(over)}"  # type: ignore[union-attr]
                for land, over in allowed
            )
        elif piece.dadama:
            text = "too low to take: the dadama shows the value kept and the turn passes"
        else:
            text = "too low to take: the die keeps the throw and the turn passes"
        if groups and groups[-1][1] == text:
            groups[-1][0].append(value)
        else:
            groups.append(([value], text))
    for values, text in groups:
        label = str(values[0]) if len(values) == 1 else f"{values[0]}-{values[-1]}"
        out.write(f"    {'keeping ' if piece.dadama else ''}{label}: {text}\n")


# ---------------------------------------------------------------------- dam


def draughts_move_json(name: str, move: Move) -> dict[str, Any]:
    """A draughts move as ``rules moves --json`` gives it, ``pdn`` in the game's own numbers."""
    return {
        "path": [list(sq) for sq in move.path],
        "captures": [list(sq) for sq in move.captures],
        "promotes": move.promotes,
        "pdn": move_text(name, move),
    }


def _print_draughts(game: Game, colours: tuple[str, str], as_json: bool, out: TextIO) -> None:
    """A plain draughts game's moves (Dam, English, Italian ...), in its own square numbers."""
    name = game.rules.name
    moves = game.legal_moves()
    ending = game.ending()
    if as_json:
        answer: dict[str, Any] = {
            "game": name,
            "to_move": colours[game.side_to_move],
            "moves": [draughts_move_json(name, m) for m in moves],
        }
        if ending is not None:
            answer["ending"] = {"reason": ending.reason, "text": ending.describe()}
        out.write(json.dumps(answer) + "\n")
        return
    side = colours[game.side_to_move].capitalize()
    if not moves:
        out.write(f"{side} to move has no legal move.\n")
        return
    kind = "takings (taking is compulsory)" if moves[0].captures else "moves"
    out.write(f"{side} to move: {len(moves)} legal {kind}\n")
    for move in moves:
        label = "king" if move.chip is not None and move.chip.dama else "man"
        extra = " (crowned)" if move.promotes else ""
        out.write(f"  {label} {move_text(name, move):<16} {move}{extra}\n")
