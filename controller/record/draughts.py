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
from controller.rules.dam import COLOURS as DAM_COLOURS
from controller.rules.dam import DEFAULT as DAM_DEFAULT
from controller.rules.dam import DamGame
from controller.rules.dam_notation import dam_from_json, dam_to_json
from controller.rules.game import Ending, EndReason, Game
from controller.rules.move import Move, Square
from controller.rules.pdn import fen_of
from controller.rules.pdn_game import new_game

Record = dict[str, Any]


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


def square_of(raw: object) -> Square:
    """A record's square, ``[x, y]`` of whole numbers; ValueError naming it otherwise."""
    if (
        isinstance(raw, list | tuple)
        and len(raw) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        return (raw[0], raw[1])
    raise ValueError(_("not a square: {raw!r}").format(raw=raw))


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


def _dam_opening(settings: Mapping[str, Any]) -> Game:
    return DamGame.opening(DAM_DEFAULT.with_settings(settings))


def _dam_from_json(position: dict[str, Any], settings: Mapping[str, Any]) -> Game:
    return dam_from_json({**position, "settings": dict(settings)})


def _dam_to_json(game: Game) -> dict[str, Any]:
    assert isinstance(game, DamGame)
    return dam_to_json(game)


DAM = DraughtsRules(
    name="dam",
    title=registry.GAMES["dam"].title,
    colours=DAM_COLOURS,
    opening=_dam_opening,
    from_json=_dam_from_json,
    to_json=_dam_to_json,
)
"""Dam, the 12 × 12 draughts of Sri Lanka (docs/rules-dam.md)."""


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


ENGLISH = pdn_rules("english", ("black", "white"), "B:W21,22,23:B1,2,3")
"""English draughts (checkers): Black moves first (docs/rules-english.md)."""
