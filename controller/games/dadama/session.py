"""One Dadama game on a board: the board is the dice (docs/rules-dadama.md, G-8).

The rules engine never throws; this session does. A throw is drawn from a generator seeded by
the game's seed and the throw's number (``throw_faces``), so it is uniform, reproducible and
needs no state beyond the count; every throw is also journaled as it fell, so a game replays
exactly after a restart whatever the generator. With ``dice = real`` the players throw real
dice and enter each face with the buttons (``next`` counts 1 to 6, ``confirm`` enters).

Buttons: ``confirm`` throws the chosen die (the only one that may, or the one last lifted),
goes on after a taking, or keeps the dadama's chosen value; ``next`` stops after a taking
(G-3) or switches the value a dadama keeps. The page may also enter a face directly
(``face1`` … ``face6``). Every record is read by the one ``apply``, live and on resume.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from controller.games.arbiter import stop_rule
from controller.games.dadama import computer_turn
from controller.games.dadama.computer import COMPUTER
from controller.games.dadama.record import (
    DICE_MODES,
    GAME,
    DadamaRecord,
    step_to_json,
    throw_faces,
)
from controller.games.dadama.tracker import Seen, read_board
from controller.games.opponent import NAMES as OPPONENT
from controller.games.opponent import (
    Choice,
    Opponent,
    Submit,
    choice_from_settings,
    its_turn,
    thinking_of_hint,
)
from controller.i18n import _
from controller.record.journal_file import Record
from controller.record.table import STOP_RULES, TableState, is_table
from controller.rules.dadama import (
    COLOURS,
    DEFAULT,
    DadamaEnding,
    DadamaGame,
    Die,
    IllegalStep,
    Phase,
    Step,
    Stop,
    Throw,
    jumped,
)
from controller.rules.dadama_notation import (
    dadama_from_json,
    dadama_to_json,
    record_json,
    record_text,
    result_of,
)
from controller.rules.move import Square
from controller.session.journal import Journal
from controller.session.journaled import JournaledGame, open_journal, without_start


@dataclass
class DadamaConfig:
    """What a Dadama game starts from: rule settings (docs/rules-dadama.md), where the throws
    come from, the seed (None: a fresh one, journaled) and a position (None: the opening)."""

    settings: dict[str, Any] = field(default_factory=dict)
    dice: str = "board"
    seed: int | None = None
    position: dict[str, Any] | None = None
    stop: str = "draw"
    """What the arbiter's stop gives: ``draw`` or ``adjudicate`` (``games.arbiter``)."""
    opponent: Choice = field(default_factory=Choice)
    """The side the computer plays and its level (``games.opponent``); no side: none."""

    def __post_init__(self) -> None:
        if self.dice not in DICE_MODES:
            raise ValueError(_("dice: board or real, not {value!r}").format(value=self.dice))
        DEFAULT.with_settings(self.settings)  # refused here, with its reason, if wrong
        if self.position is not None:
            dadama_from_json(self.position)  # NotationError (a ValueError) says what is wrong


def config_from_settings(given: dict[str, Any], position: Any = None) -> DadamaConfig:
    """A Dadama game's config from ``--set`` style settings: the rules' settings, ``dice``
    (board or real), ``seed`` (a whole number) and ``stop`` (the arbiter's stop: ``draw`` or
    ``adjudicate``); ``game`` names the game and is left out."""
    own = ("game", "dice", "seed", "stop", *OPPONENT)
    rules = {k: v for k, v in given.items() if k not in own}
    seed = given.get("seed")
    if seed is not None and not isinstance(seed, int):
        try:
            seed = int(str(seed))
        except ValueError:
            raise ValueError(_("seed: a whole number, not {value!r}").format(value=seed)) from None
    stop = stop_rule(given, STOP_RULES)
    opponent = choice_from_settings(given, COMPUTER, COLOURS, _("Dadama"))
    return DadamaConfig(rules, str(given.get("dice", "board")), seed, position, stop, opponent)


@dataclass(frozen=True)
class DadamaView:
    """Everything the LEDs, the display and the page show of a Dadama game (pure data)."""

    phase: str
    """``setup`` (set the board), ``play``, ``over``."""
    side_to_move: int
    pieces: dict[Square, Die]
    throwers: tuple[Square, ...]
    selected: Square | None
    dice: tuple[int, ...]
    """The throw waiting for its taking (or the dadama's choice); () when none."""
    keep: int | None
    targets: tuple[Square, ...]
    """The pieces the throw (with the kept value) may take: one of them must be."""
    landings: tuple[Square, ...]
    go_on: bool
    can_stop: bool
    entering: tuple[int, ...]
    """Real dice: the faces entered so far and, last, the one ``next`` shows now."""
    dice_mode: str
    last_throw: tuple[Square, tuple[int, ...], int] | None
    """The last throw made: the die's square, the faces, the value kept."""
    missing: tuple[Square, ...]
    extra: tuple[Square, ...]
    message: str
    ending: DadamaEnding | None
    turn: int
    arbiter: str = ""
    """How the arbiter ended the game from the menu (``WHITE resigned; BLACK wins``), or ""."""
    result: str = "*"
    shown: computer_turn.Shown | None = None
    """The computer's move or a hint, lit until it is made (``computer_turn``)."""


class DadamaSession(JournaledGame):
    """The state machine of a Dadama game; time only comes in as values, never read here."""

    def __init__(
        self, config: DadamaConfig, journal: Journal | None = None, submit: Submit | None = None
    ) -> None:
        super().__init__(journal)
        self.config = config
        self.opponent = Opponent(COMPUTER, config.opponent, *([submit] if submit else []))
        """The computer's side (``games.opponent``): its moves and the hints."""
        self.record_state = DadamaRecord(config.dice)
        """The game as its records build it (the one reading the link and the hub share)."""
        self.phase = "setup"
        self.keep: int | None = None
        self.selected: Square | None = None
        self.entering: list[int] = []
        self.last_throw: tuple[Square, tuple[int, ...], int] | None = None
        self.board: frozenset[Square] | None = None
        self.seen = Seen()
        self.table = TableState()
        """The tournament table's records (``record.table``): its players, hold, pause."""
        self.blocks: Callable[[], str | None] = self.table.blocks
        """Why no throw or step may be played now (None: it may)."""
        self.ended_text: Callable[[], str] = lambda: ""
        """The arbiter's end of the game in words (the board's table says it), or ""."""

    # ------------------------------------------------------------------ opening, resuming

    @classmethod
    def begin(
        cls, config: DadamaConfig, journal: Journal | None = None, submit: Submit | None = None
    ) -> DadamaSession:
        """A new game: its start record (seed included) journaled and applied."""
        s = cls(config, journal, submit)
        seed = config.seed if config.seed is not None else secrets.randbits(48)
        start: Record = {"k": "start", "game": GAME, "seed": seed, "dice": config.dice}
        start["settings"] = dict(config.settings)
        if config.position is not None:
            start["position"] = config.position
        s.commit(start)
        return s

    @classmethod
    def open(cls, config: DadamaConfig, path: str | None, *, sync: bool = True) -> DadamaSession:
        """The game in the journal at ``path``, resumed (the board must show it again before
        play goes on), or a new one when the journal holds none (or there is no journal)."""
        journal, loaded = open_journal(path, sync=sync)
        lost = without_start(loaded, journal)
        if not loaded.records or lost:
            s = cls.begin(config, journal)
            s.problems += lost or loaded.problems
            return s
        s = cls(config, journal)
        s.resumed(loaded)
        s.phase = "over" if s.game.phase is Phase.OVER or s.table.ending else "setup"
        s._settle()
        return s

    def played(self) -> bool:
        return bool(self.game.history)

    # the game as its records build it, read through ``record_state``
    @property
    def game(self) -> DadamaGame:
        return self.record_state.game

    @property
    def start(self) -> DadamaGame:
        return self.record_state.start

    @property
    def seed(self) -> int:
        return self.record_state.seed

    @property
    def dice_mode(self) -> str:
        return self.record_state.dice_mode

    @property
    def throws(self) -> int:
        return self.record_state.throws

    @property
    def pending(self) -> tuple[Square, tuple[int, ...]] | None:
        return self.record_state.pending

    def apply(self, rec: Record) -> str | None:
        """Read one journal record into the game: the one path for play and for resume.
        Returns why a record cannot be applied (nothing changed), or None."""
        if is_table(rec):
            try:
                self.table.apply(rec, bool(self.game.history), self.game.phase is Phase.OVER)
            except ValueError as exc:
                return str(exc)
            if self.table.ending is not None and self.phase == "play":
                self.phase = "over"  # the arbiter ended it (on a resume: once it is set)
            return None
        try:
            step = self.record_state.apply(rec)
        except (IllegalStep, ValueError, TypeError, KeyError) as exc:
            return str(exc)
        kind = rec.get("k")
        if kind == "throw" and self.pending is not None:
            square, dice = self.pending
            self.keep = _default_keep(self.game.throw_options(square, dice))
            self.last_throw = (square, dice, self.keep)
            self.entering = []
        elif step is not None:
            if isinstance(step, Throw):
                self.last_throw = (step.square, step.dice, step.kept)
            self.keep = None
            self.selected = None
            if self.game.phase is Phase.OVER:
                self.phase = "over"
        return None

    # ------------------------------------------------------------------ live

    def commit(self, rec: Record) -> bool:
        """A throw or a step while the table is held or paused is refused, said; the rest is
        journaled then applied."""
        why = self.blocks() if rec.get("k") in ("throw", "step") else None
        if why is not None:
            if self.message != why:
                self.cues.append("error")
            self.message = why
            return False
        return super().commit(rec)

    def _settle(self) -> None:
        """A throw that leaves nothing to choose is played at once (also after a resume that
        stopped between a throw and its step)."""
        if self.pending is None:
            return
        options = self.options()
        keeps = {o.kept for o in options}
        if all(o.to is None for o in options) and len(keeps) == 1:
            self.commit({"k": "step", "step": step_to_json(options[0])})
            self._after_step()

    def _after_step(self) -> None:
        if self.game.phase is Phase.OVER:
            ending = self.game.ending()
            self.message = ending.describe() if ending is not None else ""
            self.cues.append("game_over")
        elif self.last_throw is not None and self.game.going_on is None and self.pending is None:
            self.cues.append("move")

    def options(self) -> list[Throw]:
        if self.pending is None:
            return []
        return self.game.throw_options(*self.pending)

    def feed_frame(self, t: float, occupied: Iterable[Square]) -> None:
        """A scan of the board: setup until it shows the game, then the step it shows."""
        self.board = frozenset(occupied)
        self._look()

    def _look(self) -> None:
        if self.board is None:
            return
        seen = read_board(self.game, self.board, [o for o in self.options() if o.to is not None])
        self.seen = seen
        if self.phase == "setup":
            if seen.ready:
                self.phase = "over" if self.game.phase is Phase.OVER else "play"
                self.phase = "over" if self.table.ending is not None else self.phase
                self.message = ""
            return
        if self.phase != "play":
            return
        if seen.step is not None:
            step = self._chosen(seen.step)
            wrong = computer_turn.check(self, step)
            if wrong is not None:
                if self.message != wrong:
                    self.cues.append("error")
                self.message = wrong
                return
            if self.commit({"k": "step", "step": step_to_json(step)}):
                self.cues.append("move")
                self._after_step()
                self._look()  # the board may already show what comes next
            return
        if seen.lifted is not None and self.pending is None and seen.lifted in self.game.throwers():
            self.selected = seen.lifted

    def _chosen(self, step: Step) -> Step:
        """The taking shown on the board, with the value the player chose to keep."""
        if not isinstance(step, Throw):
            return step
        fits = [o for o in self.options() if o.to == step.to]
        return next((o for o in fits if o.kept == self.keep), fits[0])

    def press(self, t: float, name: str, kind: str = "press") -> None:
        """A button of the board (or the page's)."""
        if self.phase != "play":
            self.message = (
                _("set the board as the lights show first") if self.phase == "setup" else ""
            )
            return
        if name == "hint":
            self.message = computer_turn.hint(self)
        elif computer_turn.holds(self, name):
            self.message = its_turn()
        elif name.startswith("face") and name[4:].isdigit() and self.dice_mode == "real":
            self._enter(int(name[4:]))
        elif name == "confirm":
            self._confirm()
        elif name == "next":
            self._next()
        else:
            self.message = _("that button does nothing in Dadama")

    def _thrower(self) -> Square | None:
        throwers = self.game.throwers()
        if self.game.phase is Phase.GO_ON or len(throwers) == 1:
            return throwers[0] if throwers else None
        return self.selected if self.selected in throwers else None

    def _confirm(self) -> None:
        if self.pending is not None:
            options = self.options()
            if all(o.to is None for o in options):  # a dadama's failed throw: keep the chosen value
                step = next(o for o in options if o.kept == self.keep)
                if self.commit({"k": "step", "step": step_to_json(step)}):
                    self._after_step()
            else:
                self.message = _("make the taking the lights show")
            return
        if self.game.phase not in (Phase.THROW, Phase.GO_ON):
            self.message = _("no die can take: move a die")
            return
        square = self._thrower()
        if square is None:
            self.message = _("lift the die you want to throw, put it back, then throw")
            return
        if self.dice_mode == "real":
            if self.game.phase is Phase.GO_ON and not self.entering:
                self.entering = [1]  # going on: now enter the face thrown
                return
            self._enter(self.entering[-1] if self.entering else 1)
            return
        faces = throw_faces(self.seed, self.throws, self.game.dice_to_throw(square))
        self._throw(square, faces)

    def _throw(self, square: Square, faces: tuple[int, ...]) -> None:
        if self.commit({"k": "throw", "sq": list(square), "dice": list(faces)}):
            self.cues.append("move")
            self.message = ""
            self._settle()
            self._look()

    def _enter(self, face: int) -> None:
        """Real dice: one face entered; the throw is made when the die (or both) are in."""
        if face not in range(1, 7):
            return
        square = self._thrower()
        if self.pending is not None or square is None:
            return
        done = self.entering[:-1] if self.entering else []
        done.append(face)
        if len(done) == self.game.dice_to_throw(square):
            self.entering = []
            self._throw(square, tuple(done))
        else:
            self.entering = [*done, 1]

    def _next(self) -> None:
        counting = self.entering or self.game.phase is Phase.THROW
        if self.dice_mode == "real" and counting and self.pending is None and self._thrower():
            if not self.entering:
                self.entering = [1]
            self.entering[-1] = self.entering[-1] % 6 + 1
            return
        if self.pending is not None:
            keeps = sorted({o.kept for o in self.options()})
            if self.keep in keeps and len(keeps) > 1:
                self.keep = keeps[(keeps.index(self.keep) + 1) % len(keeps)]
            return
        if self.game.phase is Phase.GO_ON and self.game.can_stop:
            going = self.game.going_on
            assert going is not None
            if self.commit({"k": "step", "step": step_to_json(Stop(going[0]))}):
                self._after_step()
                self._look()
        elif self.game.phase is Phase.GO_ON:
            self.message = _("this die must throw again while it can take")

    def tick(self, t: float) -> bool:
        """The computer's answers come in; on its turn it throws, stops or shows its move."""
        changed = self.opponent.harvest()
        return computer_turn.play(self) or changed

    # ------------------------------------------------------------------ what is shown

    def view(self) -> DadamaView:
        g = self.game
        shown = computer_turn.shown(self)
        options = [o for o in self.options() if o.kept == self.keep]
        if shown is not None and shown.kind == "computer" and shown.to is not None:
            options = [o for o in options if o.to == shown.to]
        landings = tuple(o.to for o in options if o.to is not None)
        targets = tuple(jumped(o.square, o.to) for o in options if o.to is not None)
        return DadamaView(
            phase=self.phase,
            side_to_move=g.side_to_move,
            pieces=g.pieces(),
            throwers=g.throwers() if g.phase in (Phase.THROW, Phase.GO_ON) else (),
            selected=self._thrower(),
            dice=self.pending[1] if self.pending else (),
            keep=self.keep,
            targets=targets,
            landings=landings,
            go_on=g.phase is Phase.GO_ON and self.pending is None,
            can_stop=g.can_stop and self.pending is None,
            entering=tuple(self.entering) or self._first_face(),
            dice_mode=self.dice_mode,
            last_throw=self.last_throw,
            missing=self.seen.missing,
            extra=self.seen.extra,
            message=self.message or self._computer_words(shown),
            ending=g.ending() if g.phase is Phase.OVER else None,
            turn=len(g.turns()),
            arbiter=self.ended_text() if self.table.ending is not None else "",
            result=self.table.result(result_of(g)),
            shown=shown,
        )

    def computer(self) -> dict[str, Any]:
        """The computer's side for the page: who it plays, its level, whether it thinks."""
        return self.opponent.json(computer_turn.key(self))

    def _computer_words(self, shown: computer_turn.Shown | None) -> str:
        if shown is not None:
            return shown.text
        thinking = self.opponent.thinking(computer_turn.key(self), "hint")
        return thinking_of_hint() if thinking else ""

    def _first_face(self) -> tuple[int, ...]:
        """Real dice: the face ``confirm`` would enter before ``next`` was pressed."""
        waiting = self.pending is None and self.game.phase is Phase.THROW
        return (1,) if self.dice_mode == "real" and waiting and self._thrower() else ()

    def record(self) -> dict[str, Any]:
        """The game's record (JSON, every throw in it): the Dadama scoresheet."""
        return record_json(self.game, self.start, self.table.result("*"))

    def record_text(self) -> str:
        """The game as PDN-like text with its throws (docs/notation.md)."""
        return record_text(self.game, self.start, self.table.result("*"), self.table.tags(COLOURS))

    def position(self) -> dict[str, Any]:
        return dadama_to_json(self.game)


def _default_keep(options: list[Throw]) -> int:
    """The value a dadama keeps unless the player switches: the highest that allows a taking,
    else the highest that does not lose."""
    taking = [o.kept for o in options if o.to is not None]
    return max(taking) if taking else max(o.kept for o in options)
