"""Every game's record read the same way, whatever the game: the games a journal can hold, known
by its first record (``game_of``), and for each game but Damath (whose record is ``state``'s) a
``Recorded`` game that applies its records one at a time with that game's rules and says what
each meant, what the game is now, and its record as the board exports it.

The board's link describes each record it publishes with it, and the hub re-applies every
record it receives with it: a record the game's rules refuse raises ``Refused`` with the
reason, and nothing changes. Pure: the rules engine only, nothing of a board.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from controller import registry
from controller.i18n import _
from controller.rules.move import Square

from .table import TableState, is_table

Record = dict[str, Any]
DAMATH = registry.DAMATH
NAMES = registry.NAMES
"""Every game whose journal the board keeps, as its records name it (``controller.registry``)."""


def board_picture(
    size: int, grid: str, colours: tuple[str, str], pieces: list[dict[str, Any]]
) -> dict[str, Any]:
    """What a spectator's page draws of a game, whatever the game: the board (``size`` × ``size``
    dark squares, or the points of a grid), the sides' colours (the first mover first) and each
    piece: ``at`` ``[x, y]``, ``side`` (its colour), ``label`` (a die's value, a Mathematical
    Chess piece's digit or operator, or empty), ``king``."""
    return {"size": size, "grid": grid, "colours": list(colours), "pieces": pieces}


def square_of(raw: object) -> Square:
    """A record's square, ``[x, y]`` of whole numbers; ValueError naming it otherwise."""
    if (
        isinstance(raw, list | tuple)
        and len(raw) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        return (raw[0], raw[1])
    raise ValueError(_("not a square: {raw!r}").format(raw=raw))


LEGACY_STARTS = {"mathchess-start": "mathchess"}
"""The first record's kind in journals written before the one record key (``kind``, not
``k``), and the game it starts."""


def upgraded(record: Record) -> Record:
    """``record`` in the one record grammar: a record written before it (its kind under
    ``kind``, the start as ``mathchess-start``) read as written today, its actions too; every
    other record as it is. Records are kept as written (their hashes are the hub's): read them
    through this."""
    if "k" in record or not isinstance(record.get("kind"), str):
        return record
    rest = {key: value for key, value in record.items() if key != "kind"}
    game = LEGACY_STARTS.get(record["kind"])
    if game is not None:
        return {"k": "start", "game": game, **rest}
    if isinstance(rest.get("actions"), list):
        rest["actions"] = [upgraded(a) if isinstance(a, dict) else a for a in rest["actions"]]
    return {"k": record["kind"], **rest}


class Refused(ValueError):
    """A record the game's rules refuse; the text says which rule, or what is wrong."""


def game_of(first: Record) -> str | None:
    """The game a journal holds, from its first record (a journal written before the one record
    key read too); None for a record that starts none."""
    first = upgraded(first)
    if first.get("k") != "start":
        return None
    name = first.get("game", DAMATH)
    return name if name in NAMES else None


class Recorded(ABC):
    """One game as its records build it, for a game other than Damath (each game's reader in its
    folder, ``controller/games/<name>/record.py``, named by its registry entry)."""

    name: str
    export_as: str
    """The kind of the board's own record of the game (``BoardGame.files``): ``pdn`` or
    ``json``; ``export`` is that text."""

    def __init__(self) -> None:
        self.count = 0
        self.table = TableState()
        """The tournament table's records (``record.table``): players, hold, start, pause."""

    def apply(self, record: Record) -> dict[str, Any]:
        """Apply one record; what it meant (the ``info`` a link publishes with it). Refused,
        with the reason, when the game's rules refuse it: nothing changes then. A move while
        the table is held or paused is refused too, as the board refuses it."""
        try:
            if is_table(record):
                if self.count == 0:
                    raise Refused(_("the game has not started: its first record is not its start"))
                summary = self.summary()
                info = self.table.apply(
                    record, played=bool(summary["ply"]), over=summary["phase"] == "over"
                )
                self.count += 1
                return info
            if self.count and (blocked := self.table.blocks()) is not None:
                raise Refused(blocked)
            info = self._apply(record)
        except Refused:
            raise
        except (KeyError, TypeError, ValueError) as exc:  # every rules error is a ValueError
            raise Refused(str(exc) or type(exc).__name__) from None
        self.count += 1
        return info

    @abstractmethod
    def _apply(self, record: Record) -> dict[str, Any]: ...

    def summary(self) -> dict[str, Any]:
        """The game now: ``phase`` (``setup`` before a start, ``play``, ``over``), ``ply``
        (steps played), ``to_move`` (the side's colour), ``position`` (the game's JSON
        position), ``picture`` (``board_picture``: what a spectator's page draws), ``result``
        (``1-0``, ``0-1``, ``1/2-1/2``, or None while it goes on), ``ending`` (why it ended, or
        None) and ``ending_text`` (that, in words). A game the arbiter ended from the board's
        menu (``record.table``'s ``end``) is over with the arbiter's result, ``ending`` its
        reason (``stop``, ``resign``, ``no-show``) and ``side`` the side it is about."""
        now = self._summary()
        ending = self.table.ending
        if ending is None or now.get("phase") == "setup":
            return now
        colours = tuple((now.get("picture") or {}).get("colours") or ("first", "second"))
        return {
            **now,
            "phase": "over",
            "result": ending.result,
            "ending": ending.reason,
            "ending_text": ending.text((str(colours[0]), str(colours[1]))),
            "side": ending.side,
        }

    @abstractmethod
    def _summary(self) -> dict[str, Any]:
        """The game as its own records build it (``summary`` without the arbiter's end)."""

    @abstractmethod
    def export(self) -> str | None:
        """The game's record, the same text the board exports for it (None before a start)."""


def reads_its_own(name: str) -> bool:
    """Whether the game ``name`` has a reader of its own here (``recorded``); Damath's records
    are ``record.state``'s, with its scoresheet and clocks."""
    return registry.entry(name).record is not None


def recorded(name: str) -> Recorded:
    """A new record of the game ``name`` (a game that ``reads_its_own``): the reader its
    registry entry names."""
    try:
        reader = registry.entry(name).new_record()
    except ValueError:
        raise ValueError(f"no record reader for the game {name!r}") from None
    assert isinstance(reader, Recorded)
    return reader
