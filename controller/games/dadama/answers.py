"""Dadama answering ``rules moves`` and ``rules perft``: what a board must show at that moment
(the quiet moves; or the dice that must throw, and for every value a throw may keep, the
takings it allows; or, during a multiple taking, the choice to throw again or stop), and its
perft of complete turns, summed over every throw's outcomes (or one fixed throw)."""

from __future__ import annotations

import json
from typing import Any, TextIO

from controller.games.answers import Ask, PerftAsk, parse_object
from controller.rules.dadama import COLOURS, FACES, DadamaGame, Phase, square_text
from controller.rules.dadama_notation import dadama_from_json
from controller.rules.notation import NotationError
from controller.rules.perft import dadama_divide, dadama_perft


class DadamaAnswers:
    def opening(self, ask: Ask) -> object:
        ask.refuse_damath_options()
        return DadamaGame.opening()

    def from_json(self, obj: dict[str, Any], ask: Ask) -> object:
        ask.refuse_damath_options()
        return dadama_from_json(obj)

    def print_moves(self, position: object, as_json: bool, out: TextIO) -> None:
        assert isinstance(position, DadamaGame)
        _print_dadama(position, as_json, out)

    def perft(self, ask: PerftAsk) -> int:
        if ask.fen or ask.unique:
            raise NotationError("--fen and --unique are not for dadama")
        game = dadama_from_json(parse_object(ask.text())) if ask.position else DadamaGame.opening()
        if not ask.divide:
            return dadama_perft(game, ask.depth, ask.throw)
        for text, count in dadama_divide(game, ask.depth, ask.throw):
            ask.row(text, count)
        return sum(c for _, c in ask.rows) if ask.depth > 0 else 1


ANSWERS = DadamaAnswers()


def dadama_json(game: DadamaGame) -> dict[str, Any]:
    phase = game.phase
    out: dict[str, Any] = {
        "game": "dadama",
        "to_move": COLOURS[game.side_to_move],
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
        out["ending"]["winner"] = None if winner is None else COLOURS[winner]
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
    side = COLOURS[game.side_to_move].capitalize()
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
