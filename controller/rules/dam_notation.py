"""The JSON position of a Dam game (docs/notation.md, "Dam"):

    {"game": "dam", "to_move": "black", "settings": {"capture_priority": "most"},
     "pieces": [{"square": [1, 0], "side": "black", "king": false}, ...]}

Without ``pieces`` it is the opening. Reading is strict, like the Damath format.
"""

from __future__ import annotations

from typing import Any

from . import jsonfields as jf
from .dam import COLOURS, DEFAULT, DamGame
from .draughts import DAM
from .move import Chip, Square
from .notation import NotationError
from .settings import SettingsError

SIZE = DAM.rules.size
MEN_A_SIDE = 30


def dam_from_json(data: str | bytes | dict[str, Any]) -> DamGame:
    obj = jf.load_object(data, "game, to_move and pieces")
    jf.no_unknown_keys(obj, {"game", "to_move", "settings", "pieces"}, "")
    if "game" in obj and jf.text(obj["game"], "game").strip().lower() != "dam":
        raise NotationError(f"game: this reader is for 'dam', not {obj['game']!r}")
    try:
        settings = DEFAULT.with_settings(obj.get("settings", {}))
    except SettingsError as exc:
        raise NotationError(str(exc)) from None
    to_move = jf.side(obj.get("to_move", COLOURS[0]), COLOURS, "to_move")
    if "pieces" not in obj:
        game = DamGame.opening(settings)
        return DamGame(game.chips(), to_move, settings)
    pieces: dict[Square, Chip] = {}
    counts = [0, 0]
    for n, piece in enumerate(jf.pieces_list(obj)):
        where = f"pieces[{n}]"
        if not isinstance(piece, dict):
            raise NotationError(f"{where}: expected an object with square, side and king")
        jf.no_unknown_keys(piece, {"square", "side", "king"}, where)
        if "square" not in piece or "side" not in piece:
            raise NotationError(f"{where}: every piece needs a square and a side")
        sq = jf.square(piece["square"], SIZE, f"{where}.square")
        if sq in pieces:
            raise NotationError(f"{where}.square: two pieces on ({sq[0]}, {sq[1]})")
        side = jf.side(piece["side"], COLOURS, f"{where}.side")
        king = jf.flag(piece.get("king", False), f"{where}.king")
        far = SIZE - 1 if side == 0 else 0
        if not king and sq[1] == far:
            raise NotationError(
                f"{where}: a {COLOURS[side]} man cannot stand on ({sq[0]}, {sq[1]}): "
                "a man that ends its move there is crowned"
            )
        counts[side] += 1
        if counts[side] > MEN_A_SIDE:
            raise NotationError(f"{where}: {COLOURS[side]} has more than {MEN_A_SIDE} pieces")
        pieces[sq] = Chip(side, None, king)
    return DamGame(pieces, to_move, settings)


def dam_to_json(game: DamGame) -> dict[str, Any]:
    """The position of ``game``; ``dam_from_json`` reads it back to the same position."""
    out: dict[str, Any] = {"game": "dam", "to_move": COLOURS[game.side_to_move]}
    if game.settings.changed():
        out["settings"] = game.settings.changed()
    out["pieces"] = [
        {"square": [x, y], "side": COLOURS[chip.side], "king": chip.dama}
        for (x, y), chip in sorted(game.chips().items(), key=lambda kv: (kv[0][1], kv[0][0]))
    ]
    return out
