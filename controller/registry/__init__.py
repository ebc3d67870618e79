"""The games of the board, each described once: its name, its title, what a tournament counts
beside its result, and where its parts are (dotted paths, loaded only when asked for).

Every list of the games reads this one (the board runtime's ``controller.games.GAMES``, the
records a journal can hold, the tournament's divisions, the hub's tables), so a new game is
one folder and one line here (docs/adding-a-game.md). Pure data: importing it loads nothing
of a game, so the hub and the tournament read it without the board's machinery, as
python-chess names its variants in one list and gpiozero its pin factories by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any

from controller.i18n import N_, _


@dataclass(frozen=True)
class GameEntry:
    """One game of the board."""

    name: str
    """As profiles, settings, journals, records, assignments and pages name it."""
    title: str
    """As people read it (marked for translation: said in the reader's language)."""
    scores: str
    """What a tournament's result carries beside the win, draw or loss: ``exact`` (both
    sides' exact Damath scores, in the event's variant), ``points`` (whole points taken) or
    ``""`` (nothing)."""
    board: str
    """``module:name`` of the board runtime's game (``controller.games.kind.GameKind``)."""
    record: str | None
    """``module:name`` of a callable that makes the game's record reader (a
    ``controller.record.games.Recorded``), or None for Damath, whose records
    ``controller.record.state`` reads."""
    answers: str | None = None
    """``module:name`` of the game's answers to ``rules moves`` and ``rules perft``
    (``controller.games.answers.Answers``), or None: the rules command does not know it."""

    def load_board(self) -> Any:
        return load(self.board)

    def load_answers(self) -> Any:
        if self.answers is None:
            raise ValueError(f"the rules command has no answers for the game {self.name!r}")
        return load(self.answers)

    def new_record(self) -> Any:
        """A new reader of this game's records (ValueError for Damath, which has its own)."""
        if self.record is None:
            raise ValueError(f"no record reader for the game {self.name!r}")
        return load(self.record)()


DAMATH = "damath"
"""The first game: a profile's default, and the game of a record that names none (every
record before the other games came)."""

ENTRIES: tuple[GameEntry, ...] = (
    GameEntry(DAMATH, N_("Damath"), "exact", "controller.games.damath.kind:DAMATH", None,
              "controller.games.damath.answers:ANSWERS"),
    GameEntry("dadama", N_("Dadama"), "", "controller.games.dadama.kind:DADAMA",
              "controller.games.dadama.record:DadamaRecorded",
              "controller.games.dadama.answers:ANSWERS"),
    GameEntry("dam", N_("Dam"), "", "controller.games.dam.kind:DAM",
              "controller.games.dam.record:recorded", "controller.games.dam.answers:ANSWERS"),
    GameEntry("mathchess", N_("Mathematical Chess"), "points",
              "controller.games.mathchess.kind:MATHCHESS",
              "controller.games.mathchess.record:MathChessRecorded",
              "controller.games.mathchess.answers:ANSWERS"),
    GameEntry("english", N_("English draughts"), "", "controller.games.english.kind:ENGLISH",
              "controller.games.english.record:recorded",
              "controller.games.english.answers:ANSWERS"),
    GameEntry("italian", N_("Italian draughts"), "", "controller.games.italian.kind:ITALIAN",
              "controller.games.italian.record:recorded",
              "controller.games.italian.answers:ANSWERS"),
)  # fmt: skip
"""Every game of the board, the default first."""

GAMES: dict[str, GameEntry] = {entry.name: entry for entry in ENTRIES}
NAMES: tuple[str, ...] = tuple(GAMES)


def entry(name: object) -> GameEntry:
    """The game called ``name``; ValueError listing the games for any other."""
    found = GAMES.get(name) if isinstance(name, str) else None
    if found is None:
        raise ValueError(
            _("unknown game {name!r}; the board plays {games}").format(
                name=name, games=", ".join(NAMES)
            )
        )
    return found


def load(path: str) -> Any:
    """The object a ``module:name`` path names, its module imported now."""
    module, _sep, name = path.partition(":")
    return getattr(import_module(module), name)
