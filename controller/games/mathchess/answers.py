"""Mathematical Chess answering ``rules moves`` and ``rules perft``: what the player to move may
do, with the arithmetic of every removal, in words or as JSON (docs/notation-mathchess.md), and
its perft of complete turns."""

from __future__ import annotations

import json
from typing import Any, TextIO

from controller.games.answers import Ask, PerftAsk, refuse_throw
from controller.rules.mathchess import (
    SIDES,
    Match,
    Move,
    NotationError,
    Phase,
    Position,
    point_text,
    position_from_json,
    turns,
)
from controller.rules.mathchess.turns import perft, play_turn
from controller.rules.notation import NotationError as RulesNotationError


def start() -> Position:
    """Without a position: the start of Prepare now! with the default conditions (level 9)."""
    return Position.start()


def from_json(obj: str | dict[str, Any]) -> Position:
    try:
        return position_from_json(obj)
    except NotationError as exc:
        raise RulesNotationError(str(exc)) from None


def _move_json(position: Position, move: Move) -> dict[str, Any]:
    taken = position.board.at(move.end) if move.rule else None
    after = position.apply(move)
    return {
        "from": list(move.start),
        "to": list(move.end),
        "text": move.text(),
        "takes": None
        if taken is None
        else {"piece": taken.symbol, "side": SIDES[taken.side], "rule": move.rule},
        "removals": [m.as_json(after.board) for m in after.removal_options()],
    }


def answer_json(position: Position) -> dict[str, Any]:
    phase = position.phase
    out: dict[str, Any] = {
        "game": "mathchess",
        "phase": phase.value,
        "to_move": SIDES[position.to_move],
        "score": list(position.score()),
        "placements": [],
        "moves": [],
        "removals": [],
        "can_end_turn": position.can_end_turn(),
        "can_pass": position.can_pass(),
    }
    ending = position.ending()
    if ending is not None:
        winner = None if ending.winner is None else SIDES[ending.winner]
        out["ending"] = {"reason": ending.reason, "winner": winner, "text": ending.describe()}
        return out
    out["placements"] = [{"piece": p.symbol, "at": list(p.at)} for p in position.legal_placements()]
    out["moves"] = [_move_json(position, m) for m in position.legal_moves()]
    out["removals"] = [m.as_json(position.board) for m in position.removal_options()]
    return out


def _match_line(position: Position, match: Match) -> str:
    taken = ", ".join(
        f"{position.board.at(p).name()} {point_text(p)}"  # type: ignore[union-attr]
        for p in match.removable
    )
    return f"{match.rule} {match.text()}; removes {taken}"


def print_moves(position: Position, as_json: bool, out: TextIO) -> None:
    if as_json:
        out.write(json.dumps(answer_json(position)) + "\n")
        return
    side = SIDES[position.to_move].capitalize()
    ending = position.ending()
    if ending is not None:
        out.write(f"The game is over: {ending.describe()}.\n")
        return
    if position.phase is Phase.PREPARE:
        places = position.legal_placements()
        pieces = sorted({p.symbol for p in places}, key=lambda s: "+−×÷PR0123456789".index(s))
        points = sorted({p.at for p in places}, key=lambda at: (at[1], at[0]))
        out.write(
            f"{side} to place (Prepare now!): {len(places)} placements, "
            f"one of {' '.join(pieces)} on one of {len(points)} empty points\n"
        )
        out.write("  " + " ".join(point_text(p) for p in points) + "\n")
        return
    turn = position.turn
    if turn is not None:
        where = (
            "without moving" if turn.moved is None else f"after moving to {point_text(turn.moved)}"
        )
        options = position.removal_options()
        count = f"{len(options)} match{'es' if len(options) != 1 else ''}"
        out.write(f"{side}'s turn goes on {where}: {count} may still remove; or done\n")
        for match in options:
            out.write(f"  {_match_line(position, match)}\n")
        return
    moves = position.legal_moves()
    options = position.removal_options()
    if not moves and not options:
        out.write(f"{side} can neither move nor remove, and passes.\n")
        return
    plural_moves = "s" if len(moves) != 1 else ""
    plural_removals = "s" if len(options) != 1 else ""
    out.write(
        f"{side} to move: {len(moves)} legal move{plural_moves}, "
        f"{len(options)} removal{plural_removals} without moving\n"
    )
    for move in moves:
        after = position.apply(move)
        takes = ""
        if move.rule:
            taken = position.board.at(move.end)
            assert taken is not None
            takes = f" takes the {taken.name()} ({move.rule})"
        out.write(f"  {move.text()}{takes}\n")
        for match in after.removal_options():
            out.write(f"      then {_match_line(after, match)}\n")
    for match in options:
        out.write(f"  without moving: {_match_line(position, match)}\n")


class MathChessAnswers:
    def opening(self, ask: Ask) -> object:
        ask.refuse_damath_options()
        return start()

    def from_json(self, obj: dict[str, Any], ask: Ask) -> object:
        ask.refuse_damath_options()
        return from_json(obj)

    def print_moves(self, position: object, as_json: bool, out: TextIO) -> None:
        assert isinstance(position, Position)
        print_moves(position, as_json, out)

    def perft(self, ask: PerftAsk) -> int:
        """Complete turns counted to the depth (each placement; each move with each set of
        removals it allows; each set of removals without moving; a pass)."""
        refuse_throw(ask)
        if ask.fen or ask.unique:
            raise RulesNotationError("--fen and --unique are not for mathchess")
        position = from_json(ask.text()) if ask.position else start()
        if position.turn is not None:
            raise RulesNotationError("perft counts whole turns: give a position between two turns")
        if not ask.divide:
            return perft(position, ask.depth)
        if ask.depth == 0:
            return 1
        for turn in turns(position):
            ask.row(turn.text(), perft(play_turn(position, turn), ask.depth - 1))
        return sum(c for _, c in ask.rows)


ANSWERS = MathChessAnswers()
