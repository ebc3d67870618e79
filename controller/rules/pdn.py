"""PDN FEN for the draughts rule sets: ``W:W31-50:B1-20`` style, kings as ``K12``.

Square numbers follow each game's standard numbering (``draughts.number_map``), the one
pydraughts and the published perft positions use; Brazilian positions may also be written with
pydraughts' algebraic squares (``a1``, ``h8``).
"""

from __future__ import annotations

import re

from .draughts import GAMES, DraughtsGame, diagram_square, number_map, start_cells
from .geometry import geometry
from .movegen import KING, MAN, Board


class FenError(ValueError):
    """A FEN that cannot be read; the message names the offending part."""


_SQUARE = re.compile(r"^(K?)(\d+)(?:-(\d+))?$")
_ALGEBRAIC = re.compile(r"^(K?)([a-z])(\d+)$")


def board_from_fen(game_name: str, fen: str | None = None) -> Board:
    """A generator board for ``game_name`` from a FEN, or the start position when None."""
    game = _game(game_name)
    if fen is None or fen.strip().lower() in ("", "startpos", "start"):
        return Board(game.rules, start_cells(game), 0)
    parts = [p.strip() for p in fen.strip().rstrip(".").split(":") if p.strip()]
    if not parts or parts[0].upper() not in ("W", "B"):
        raise FenError(f"FEN {fen!r}: must start with the side to move, 'W' or 'B'")
    first, second = game.colours
    side = 0 if parts[0].upper() == first else 1
    by_number, _ = number_map(game.rules.name)
    geo = geometry(game.rules.size, game.rules.parity)
    cells = [0] * geo.count
    seen_colours = set()
    for part in parts[1:]:
        colour = part[0].upper()
        if colour not in ("W", "B"):
            raise FenError(f"FEN part {part!r}: expected 'W' or 'B' followed by squares")
        if colour in seen_colours:
            raise FenError(f"FEN part {part!r}: the colour {colour} appears twice")
        seen_colours.add(colour)
        owner = 1 if colour == first else -1
        body = part[1:].strip()
        if not body:
            continue
        for item in body.split(","):
            item = item.strip()
            for number, king in _expand(item, game_name, len(by_number)):
                square = by_number[number]
                i = geo.index[square]
                if cells[i]:
                    raise FenError(f"FEN square {number} is given twice")
                cells[i] = (KING if king else MAN) * owner
    del second
    return Board(game.rules, cells, side)


def fen_of(board: Board) -> str:
    """The FEN of a board; ``board_from_fen(game, fen_of(b))`` gives the same board back."""
    game = _game(board.rules.name)
    _, by_square = number_map(game.rules.name)
    squares = board.geo.squares
    parts: dict[int, list[tuple[int, bool]]] = {0: [], 1: []}
    for i, c in enumerate(board.cells):
        if c:
            number = by_square[squares[i]]
            parts[0 if c > 0 else 1].append((number, abs(c) == KING))
    colour_of = game.colours
    sections = []
    for side in sorted((0, 1), key=lambda s: colour_of[s] != "W"):
        items = ",".join(f"{'K' if k else ''}{n}" for n, k in sorted(parts[side]))
        sections.append(f"{colour_of[side]}{items}")
    return f"{colour_of[board.side]}:{':'.join(sections)}"


def _expand(item: str, game_name: str, count: int) -> list[tuple[int, bool]]:
    m = _SQUARE.match(item)
    if m:
        king = bool(m.group(1))
        lo = int(m.group(2))
        hi = int(m.group(3)) if m.group(3) else lo
        for n in (lo, hi):
            if not 1 <= n <= count:
                raise FenError(f"FEN square {item!r}: {game_name} squares run from 1 to {count}")
        if hi < lo:
            raise FenError(f"FEN range {item!r}: the range runs backwards")
        return [(n, king) for n in range(lo, hi + 1)]
    a = _ALGEBRAIC.match(item.lower() if not item.startswith("K") else "K" + item[1:].lower())
    if a and game_name == "brazilian":
        col = ord(a.group(2)) - ord("a")
        row = int(a.group(3))
        if not (0 <= col < 8 and 1 <= row <= 8) or (col + row) % 2 != 1:
            raise FenError(f"FEN square {item!r}: not a dark square of the 8x8 board")
        # pydraughts' algebraic squares: a1 is White's bottom-left dark square.
        _, by_square = number_map(game_name)
        square = diagram_square(GAMES[game_name], 8 - row, col)
        return [(by_square[square], bool(a.group(1)))]
    raise FenError(f"FEN square {item!r}: expected a number like 12, a range like 1-12 or K12")


def _game(name: str) -> DraughtsGame:
    try:
        return GAMES[name.strip().lower()]
    except KeyError:
        raise FenError(f"unknown game {name!r}; games are: {', '.join(GAMES)}") from None
