"""The computer as a child's opponent in any game whose kind offers one (``GameKind.computer``).

Written once for every game: which side the computer plays (``computer=off|<side>``) and at which
level (``level=N``), asking a worker process for its move when it is its turn (a search never
runs in the board's loop), holding the move it chose until the player makes it on the board
exactly, and a hint for the player's side on request. What a position is and what a move looks
like stay the game's own: the game names each position by a key (a stale answer, for a key
that is gone, is ignored) and hands over the request its computer's ``choose`` task reads
(``games.computer``). The move shown is lit as Damath's computer's move is (docs/leds-session.md):
the piece to lift breathing green, where it goes dim green, what it takes breathing red-orange.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from controller.coach import worker
from controller.games.computer import Computer, Request, run
from controller.i18n import _
from controller.rules.move import Square
from controller.view.leds import Light
from controller.view.session_leds import SESSION_LEGEND

Submit = Callable[[Callable[[Request], Request], Request], "Future[Request]"]
Key = Hashable
DEFAULT_LEVEL = 1
NAMES = ("computer", "level", "computer_level")
"""The settings this module reads; a game's settings parser leaves them to it. The page sends
``computer_level`` (every game's), ``level`` is the command line's short name."""


def levels_json(computer: Computer) -> list[dict[str, Any]]:
    """A computer's levels as a page offers them: number and name, in the page's language."""
    return [{"number": lv.number, "name": _(lv.name)} for lv in computer.levels]


@dataclass(frozen=True)
class Choice:
    """Who the computer plays and how well: ``side`` an index into the game's sides (None: no
    computer), ``level`` one of its computer's levels."""

    side: int | None = None
    level: int = DEFAULT_LEVEL


ORDER = ("first", "second")
"""Every game's sides by when they move: what the simulator's page offers for any game."""


def choice_from_settings(
    given: Mapping[str, Any],
    computer: Computer | None,
    sides: tuple[str, ...],
    game: str,
    level_key: str = "level",
) -> Choice:
    """``computer=off|<side>`` (a side's name, or ``first``/``second``) and ``level=N``
    checked; ValueError in one line a child's teacher can act on. A game whose own settings
    already use ``level`` (Mathematical Chess: its start) names another ``level_key``."""
    raw = str(given.get("computer", "off")).strip().lower()
    if raw in ORDER:
        raw = sides[ORDER.index(raw)]
    side = None
    if raw != "off":
        if raw not in sides:
            raise ValueError(
                _("computer: off or one of {sides}, not {value!r}").format(
                    sides=", ".join(sides), value=raw
                )
            )
        if computer is None:
            raise ValueError(_("{game} has no computer to play against yet").format(game=game))
        side = sides.index(raw)
    level = DEFAULT_LEVEL
    if "computer_level" in given:
        level_key = "computer_level"
    if level_key in given:
        try:
            level = int(str(given[level_key]))
        except ValueError:
            raise ValueError(
                _("{key}: a whole number, not {value!r}").format(
                    key=level_key, value=given[level_key]
                )
            ) from None
        top = len(computer.levels) if computer is not None else 1
        if not 1 <= level <= top:
            raise ValueError(
                _("{key} {level}: the computer's levels in {game} run from 1 to {top}").format(
                    key=level_key, level=level, game=game, top=top
                )
            )
    return Choice(side, level)


@dataclass(frozen=True)
class Answer:
    """A worker's choice for the position ``key``: ``move`` as the game's task gives it."""

    key: Key
    kind: str
    """``computer`` (to be made as shown) or ``hint`` (only advice)."""
    move: dict[str, Any]


class Opponent:
    """The computer's side of one game: its jobs in the workers and the answers they gave."""

    def __init__(self, computer: Computer, choice: Choice, submit: Submit = worker.submit) -> None:
        self.computer = computer
        self.side = choice.side
        self.level = choice.level
        self.submit = submit
        """How a search reaches a worker (``coach.worker.submit``; a test runs it inline)."""
        self._jobs: dict[str, tuple[Key, Future[Request]]] = {}
        self._answers: dict[str, Answer] = {}
        self.problem = ""
        """The last search that failed (a worker that died): said on the page."""

    def plays(self, side_to_move: int) -> bool:
        return self.side is not None and side_to_move == self.side

    def _ask(self, kind: str, key: Key, request: Request) -> None:
        job = self._jobs.get(kind)
        if job is not None and job[0] == key:
            return
        answer = self._answers.get(kind)
        if answer is not None and answer.key == key:
            return
        extra: Request = {"hint": True} if kind == "hint" else {"level": self.level}
        asked = {**request, **extra, "task": self.computer.choose}
        self._jobs[kind] = (key, self.submit(run, asked))

    def want(self, key: Key, request: Callable[[], Request]) -> None:
        """The computer is to move in position ``key``: asked once (the request built only
        then)."""
        if self.move_for(key) is None and self._jobs.get("computer", (None,))[0] != key:
            self._ask("computer", key, request())

    def ask_hint(self, key: Key, request: Request) -> None:
        self._ask("hint", key, request)

    def harvest(self) -> bool:
        """Answers come in from the workers; True when one did (or a search failed)."""
        changed = False
        for kind, (key, future) in list(self._jobs.items()):
            if not future.done():
                continue
            del self._jobs[kind]
            changed = True
            try:
                self._answers[kind] = Answer(key, kind, future.result()["move"])
                self.problem = ""
            except Exception as exc:  # a worker that died, a request the task refused
                self.problem = f"{type(exc).__name__}: {exc}"[:200]
        return changed

    def thinking(self, key: Key, kind: str = "computer") -> bool:
        job = self._jobs.get(kind)
        return job is not None and job[0] == key

    def answer_for(self, key: Key, kind: str) -> dict[str, Any] | None:
        answer = self._answers.get(kind)
        return answer.move if answer is not None and answer.key == key else None

    def move_for(self, key: Key) -> dict[str, Any] | None:
        """The computer's move for position ``key`` (None: none yet, or only an old one)."""
        return self.answer_for(key, "computer")

    def hint_for(self, key: Key) -> dict[str, Any] | None:
        return self.answer_for(key, "hint")

    def json(self, key: Key) -> dict[str, Any]:
        return {
            "side": self.side,
            "level": self.level,
            "levels": len(self.computer.levels),
            "thinking": self.thinking(key),
            "hint_thinking": self.thinking(key, "hint"),
            "problem": self.problem,
        }


def shown_lights(
    start: Square, path: tuple[Square, ...], taken: tuple[Square, ...]
) -> dict[Square, Light]:
    """A shown move on the LEDs, in Damath's lights: lift here, go there, this comes off."""
    out: dict[Square, Light] = {}
    for sq in path:
        out[sq] = SESSION_LEGEND["shown_path"]
    for sq in taken:
        out[sq] = SESSION_LEGEND["shown_taken"]
    out[start] = SESSION_LEGEND["shown_from"]
    return out


def not_the_move(move: str) -> str:
    """A move made for the computer that is not the one shown: what to do instead."""
    return _(
        "That is not the computer's move: put the pieces back as the lights show, then make "
        "its move: {move}."
    ).format(move=move)


def wait_for_it() -> str:
    return _("The computer is still thinking: put the pieces back and wait for the green lights.")


def its_turn() -> str:
    return _("It is the computer's turn: make its move as the green lights show.")


def hint_not_now() -> str:
    return _("A hint is for your own turn, while the game is being played.")


def thinking_of_hint() -> str:
    return _("Looking for a good move…")
