"""A plain draughts game's record (Dam on 12 × 12, English draughts on 8 × 8), without the board:
what each game brings (``DraughtsRules``: its opening, settings, JSON position), how its journal's
``start`` and ``move`` records are read, and how its result is told by the pieces. The board's
session reads its journal with these, and the hub re-applies a board's records with them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from controller import registry
from controller.i18n import _
from controller.record.games import Record, Recorded, Refused, board_picture, square_of
from controller.rules.game import Ending, EndReason, Game
from controller.rules.move import Move
from controller.rules.pdn import fen_of
from controller.rules.pdn_game import move_text, new_game, write_pdn


@dataclass(frozen=True)
class DraughtsRules:
    """What one draughts game brings to the board; everything else is shared."""

    name: str
    """The game's name in its journal and its PDN (``dam``, ``english``)."""
    title: str
    colours: tuple[str, str]
    """Side 0 (moves first) and side 1, as the game names them (``black``, ``white``)."""
    opening: Callable[[Mapping[str, Any]], Game]
    """The opening under these settings (ValueError for a wrong one, with its reason)."""
    from_json: Callable[[dict[str, Any], Mapping[str, Any]], Game]
    """A JSON position (with the settings) as a game (ValueError saying what is wrong)."""
    to_json: Callable[[Game], dict[str, Any]]
    fen_positions: bool = False
    """Its positions are PDN FEN (``pdn_rules``): ``rules moves`` reads them as it reads every
    such game's."""


def start_game(rules: DraughtsRules, rec: Record) -> Game:
    """The position a ``start`` record opens (its settings, its position or the opening);
    ValueError saying why a record is not such a start."""
    if rec.get("k") != "start" or rec.get("game") != rules.name:
        raise ValueError(_("not the start of a {game} game").format(game=_(rules.title)))
    settings = rec.get("settings") or {}
    if not isinstance(settings, dict):
        raise ValueError(_("the start record's settings are not an object"))
    position = rec.get("position")
    if position is not None:
        if not isinstance(position, dict):
            raise ValueError(_("the start record's position is not an object"))
        return rules.from_json(position, settings)
    return rules.opening(settings)


def recorded_move(game: Game, rec: Record) -> Move:
    """The legal move a ``move`` record names (its path, and its takings where two moves share
    a path); ValueError when the rules allow no such move here."""
    path = tuple(square_of(p) for p in rec.get("path") or ())
    fits = [m for m in game.legal_moves() if m.path == path]
    captures = rec.get("captures")
    if captures is not None and len(fits) > 1:
        taken = tuple(square_of(c) for c in captures)
        fits = [m for m in fits if m.captures == taken]
    if not fits:
        raise ValueError(_("not a legal move here: {path}").format(path=list(path)))
    return fits[0]


def winner_of(ending: Ending) -> int | None:
    """The side that won, None for a draw (a repetition, the quiet-move limit)."""
    return 1 - ending.side if ending.reason in (EndReason.NO_CHIPS, EndReason.NO_MOVES) else None


def result_of(ending: Ending | None) -> str:
    """The PDN result, from the first mover's side: ``*`` while the game goes on."""
    if ending is None:
        return "*"
    winner = winner_of(ending)
    if winner is None:
        return "1/2-1/2"
    return "1-0" if winner == 0 else "0-1"


def describe(rules: DraughtsRules, ending: Ending) -> str:
    """Why the game ended, in the game's own colours."""
    who = _(rules.colours[ending.side].capitalize())
    if ending.reason is EndReason.NO_CHIPS:
        return _("{who} has no piece left").format(who=who)
    if ending.reason is EndReason.NO_MOVES:
        return _("{who} cannot move").format(who=who)
    if ending.reason is EndReason.QUIET_MOVES:
        return _("moves without a taking or a man moved reached the limit (draw)")
    return _("the same position occurred a third time (draw)")


# ---------------------------------------------------------------------- Dam


# ---------------------------------------------------------------------- English draughts


def pdn_rules(name: str, colours: tuple[str, str], example: str) -> DraughtsRules:
    """A draughts game of the rules engine's without settings, its positions as PDN FEN
    (``{"game": name, "fen": …}``; ``example`` shown when one is wrong): English draughts, and
    any plain rule set a game's folder brings (``controller/games/<name>/``)."""

    def opening(settings: Mapping[str, Any]) -> Game:
        return new_game(name, None, dict(settings) or None)

    def from_json(position: dict[str, Any], settings: Mapping[str, Any]) -> Game:
        if set(position) - {"game", "fen"} or position.get("game", name) != name:
            title = _(registry.entry(name).title)
            raise ValueError(
                _('a {title} position is {{"game": "{name}", "fen": "…"}}').format(
                    title=title, name=name
                )
            )
        fen = position.get("fen")
        if not isinstance(fen, str):
            raise ValueError(
                _("fen: the position as PDN FEN, e.g. {example}").format(example=example)
            )
        return new_game(name, fen, dict(settings) or None)

    def to_json(game: Game) -> dict[str, Any]:
        return {"game": name, "fen": fen_of(game.generator_board())}

    return DraughtsRules(
        name=name,
        title=registry.entry(name).title,
        colours=colours,
        opening=opening,
        from_json=from_json,
        to_json=to_json,
        fen_positions=True,
    )


class DraughtsRecorded(Recorded):
    """Dam and English draughts: a ``start``, then ``move`` records, each a legal move."""

    export_as = "pdn"

    def __init__(self, rules: DraughtsRules) -> None:
        super().__init__()
        self.rules = rules
        self.name = rules.name
        self.start: Game | None = None
        self.game: Game | None = None

    def _apply(self, record: Record) -> dict[str, Any]:
        kind = record.get("k")
        if kind == "start":
            self.start = start_game(self.rules, record)
            self.game = self.start.copy()
            return {"game": self.name, "to_move": self.rules.colours[self.game.side_to_move]}
        if self.game is None:
            raise Refused(_("the game has not started: its first record is not its start"))
        if kind != "move":
            raise Refused(_("unknown record {kind!r}").format(kind=kind))
        move = recorded_move(self.game, record)
        side = self.game.side_to_move
        self.game.push(move)
        return {"side": self.rules.colours[side], "move": move_text(self.name, move)}

    def _summary(self) -> dict[str, Any]:
        game = self.game
        if game is None:
            return {"phase": "setup", "ply": 0, "to_move": None, "position": None,
                    "result": None, "ending": None}  # fmt: skip
        ending = game.ending()
        result = result_of(ending)
        colours = self.rules.colours
        pieces = [
            {"at": list(square), "side": colours[chip.side], "label": "", "king": chip.dama}
            for square, chip in sorted(game.chips().items())
        ]
        return {
            "phase": "over" if ending is not None else "play",
            "ply": game.ply,
            "to_move": self.rules.colours[game.side_to_move],
            "picture": board_picture(game.rules.size, "dark-squares", colours, pieces),
            "position": self.rules.to_json(game),
            "result": None if result == "*" else result,
            "ending": ending.reason.value if ending is not None else None,
            "ending_text": describe(self.rules, ending) if ending is not None else None,
        }

    def export(self) -> str | None:
        if self.game is None or self.start is None:
            return None
        result = self.table.result(result_of(self.game.ending()))
        tags = {"Event": _(self.rules.title), **self.table.tags(self.rules.colours)}
        return write_pdn(self.game, self.start, result, tags)
