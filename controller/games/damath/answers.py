"""Damath answering ``rules moves`` and ``rules perft``: every legal move of a position with its
takings and what each scores, in words or JSON, and the move generator's perft, from the opening
of a variant under a rules profile or from a JSON position (docs/notation.md)."""

from __future__ import annotations

import json
from typing import Any, TextIO

from controller.games.answers import Ask, PerftAsk, board_perft, parse_object, refuse_throw
from controller.rules import variants
from controller.rules.game import Game
from controller.rules.move import Move
from controller.rules.movegen import RawMove
from controller.rules.notation import NotationError, game_from_json
from controller.rules.scoring import score_move, taking_json

# What the answers say, each sentence defined once with named placeholders (plural forms
# apart), so that a translation catalogue can take them over as they are.
LEGAL_MOVES = ("{side} to move: {count} legal move", "{side} to move: {count} legal moves")
LEGAL_TAKINGS = (
    "{side} to move: {count} legal taking (taking is mandatory)",
    "{side} to move: {count} legal takings (taking is mandatory)",
)
NO_LEGAL_MOVE = "{side} to move has no legal move."


def plural(forms: tuple[str, str], count: int) -> str:
    """The singular or the plural form of a sentence for ``count``."""
    return forms[0] if count == 1 else forms[1]


def move_json(move: Move, variant: str | None) -> dict[str, Any]:
    """One move as the ``moves`` command describes it, scored when Damath."""
    out: dict[str, Any] = {
        "path": [list(sq) for sq in move.path],
        "captures": [list(sq) for sq in move.captures],
        "promotes": move.promotes,
        "takings": [],
    }
    if variant is not None:
        scored = score_move(move, variant)
        out["takings"] = [taking_json(s) for s in scored.takings]
        out["score_text"] = scored.text
        out["score_value"] = scored.value
    return out


class DamathAnswers:
    def opening(self, ask: Ask) -> object:
        return Game.new(ask.variant or variants.DEFAULT, ask.rules or "official")

    def from_json(self, obj: dict[str, Any], ask: Ask) -> object:
        """The position, with the variant and profile the options give (which must agree with
        the position's own)."""
        obj = dict(obj)
        obj.pop("game", None)
        for key, option, given in (
            ("variant", "variant", ask.variant),
            ("profile", "rules", ask.rules),
        ):
            if given is None:
                continue
            if key in obj and str(obj[key]).lower() != given:
                raise NotationError(
                    f"{key}: the position says {obj[key]!r} but --{option} says {given!r}"
                )
            obj[key] = given
        return game_from_json(obj)

    def print_moves(self, position: object, as_json: bool, out: TextIO) -> None:
        assert isinstance(position, Game)
        game = position
        if game.variant is None:
            raise NotationError("a plain draughts position has no Damath moves to score")
        moves = game.legal_moves()
        if as_json:
            out.write(json.dumps({"moves": [move_json(m, game.variant) for m in moves]}) + "\n")
            return
        side = "Blue" if game.side_to_move == 0 else "Red"
        if not moves:
            out.write(NO_LEGAL_MOVE.format(side=side) + "\n")
            return
        forms = LEGAL_TAKINGS if moves[0].captures else LEGAL_MOVES
        out.write(plural(forms, len(moves)).format(side=side, count=len(moves)) + "\n")
        for m in moves:
            label = f"{m.chip.value} " if m.chip is not None and m.chip.value is not None else ""
            extra = " (becomes dama)" if m.promotes else ""
            fields = move_json(m, game.variant)
            score = f"  score {fields['score_text']}" if "score_text" in fields else ""
            out.write(f"  {label}{m}{extra}{score}\n")

    def perft(self, ask: PerftAsk) -> int:
        refuse_throw(ask)
        if ask.fen:
            raise NotationError("--fen is for the draughts games; use --position-json for damath")
        if ask.position:
            obj = parse_object(ask.text())
            name = str(obj.get("game", ask.game)).strip().lower()
            if name != ask.game:
                raise NotationError(
                    f"game: the position says {name!r} but --game says {ask.game!r}"
                )
            found = self.from_json(obj, Ask())
            assert isinstance(found, Game)
            game = found
        else:
            game = Game.new(ask.variant, ask.rules)
        squares = game.geo.squares

        def describe(raw: RawMove) -> str:
            sep = "x" if raw[1] else "-"
            return sep.join(f"({squares[i][0]},{squares[i][1]})" for i in raw[0])

        ask.facts["variant"] = ask.variant
        return board_perft(ask, game.generator_board(), describe)


ANSWERS = DamathAnswers()
