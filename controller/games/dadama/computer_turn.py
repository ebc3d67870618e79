"""Dadama against the computer, on the board: what the shared opponent (``games.opponent``)
needs of a Dadama session, and what its answers mean here.

Before the dice the computer chooses which die throws (the board throws it, as it throws every
die; with real dice the player throws them for it and enters the faces), or stops after a
taking; both are done at once. A quiet move and a throw's taking are shown on the LEDs and
wait until the player makes them on the board exactly, as Damath's computer's moves do."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.games.opponent import (
    hint_not_now,
    its_turn,
    not_the_move,
    shown_lights,
    wait_for_it,
)
from controller.i18n import _
from controller.record.games import square_of
from controller.rules.dadama import Phase, Quiet, Step, Stop, Throw, jumped, square_text
from controller.rules.dadama_notation import dadama_to_json
from controller.rules.move import Square
from controller.view.leds import Light

from .record import step_from_json, step_to_json, throw_faces

DadamaSession = Any
"""The session these functions serve (``session.DadamaSession``, which imports this module)."""
Key = tuple[int, int]


@dataclass(frozen=True)
class Shown:
    """A move lit before it is made: the computer's (to be made as shown) or a hint."""

    kind: str
    start: Square
    to: Square | None
    taken: Square | None
    text: str

    def lights(self) -> dict[Square, Light]:
        path = () if self.to is None else (self.to,)
        return shown_lights(self.start, path, () if self.taken is None else (self.taken,))


def key(s: DadamaSession) -> Key:
    """The position: the steps played and the throws made (a throw waiting is its own)."""
    return (len(s.game.history), s.throws)


def request(s: DadamaSession) -> dict[str, Any]:
    """The ``choose`` task's request for the position now (``dadama.computer``)."""
    out: dict[str, Any] = {
        "start": dadama_to_json(s.start),
        "moves": [step_to_json(p.step) for p in s.game.history],
        "seed": (s.seed + 7919 * sum(key(s))) % 2**31,
    }
    if s.pending is not None:
        out["thrown"] = {"square": list(s.pending[0]), "dice": list(s.pending[1])}
    return out


def _computers_turn(s: DadamaSession) -> bool:
    return (
        s.phase == "play"
        and s.game.phase is not Phase.OVER
        and s.opponent.plays(s.game.side_to_move)
        and s.blocks() is None
    )


def play(s: DadamaSession) -> bool:
    """On the computer's turn: ask for its choice, and do what needs no hand on the board
    (throw, stop, keep a dadama's value); True when something changed."""
    changed = False
    for _step in range(8):  # a throw, then its taking, each answered in turn
        if not _computers_turn(s):
            return changed
        at = key(s)
        s.opponent.want(at, lambda: request(s))
        changed = s.opponent.harvest() or changed  # an answer already there is used now
        move = s.opponent.move_for(at)
        if move is None or not _act(s, move):
            return changed
        changed = True
    return changed


def _act(s: DadamaSession, move: dict[str, Any]) -> bool:
    """Do the computer's choice if no hand is needed; False when it waits (shown)."""
    if "roll" in move:
        square = square_of(move["roll"])
        s.selected = square
        if s.dice_mode != "board":
            return False  # the player throws the real dice for it and enters them
        faces = throw_faces(s.seed, s.throws, s.game.dice_to_throw(square))
        before = s.throws
        s._throw(square, faces)
        return bool(s.throws != before)
    step = step_from_json(move)
    if isinstance(step, Stop):
        done = bool(s.commit({"k": "step", "step": step_to_json(step)}))
        if done:
            s._after_step()
            s._look()
        return done
    if isinstance(step, Throw):
        s.keep = step.kept
        if step.to is None:  # a dadama's throw that takes nothing: it keeps its value
            done = bool(s.commit({"k": "step", "step": step_to_json(step)}))
            if done:
                s._after_step()
            return done
    return False


def shown(s: DadamaSession) -> Shown | None:
    """What is lit for the position now: the computer's move on its turn, else a hint."""
    if s.phase != "play":
        return None
    computer = s.opponent.plays(s.game.side_to_move)
    at = key(s)
    move = s.opponent.move_for(at) if computer else s.opponent.hint_for(at)
    if move is None:
        return None
    return _shown(s, "computer" if computer else "hint", move)


def _value(s: DadamaSession, square: Square) -> int:
    die = s.game.piece_at(square)
    return die.value if die is not None else 0


def _shown(s: DadamaSession, kind: str, move: dict[str, Any]) -> Shown | None:
    level = s.opponent.level
    if "roll" in move:
        square = square_of(move["roll"])
        if kind == "hint":
            text = _("Hint: throw your die on {square}, where the light breathes green.")
        else:
            text = _(
                "The computer throws its die on {square}: throw the real dice for it and "
                "enter the faces."
            )
        return Shown(kind, square, None, None, text.format(square=square_text(square)))
    step: Step = step_from_json(move)
    if isinstance(step, Stop):
        text = _("Hint: stop now, press Next: your die keeps its value.")
        return Shown(kind, step.square, None, None, text)
    if isinstance(step, Quiet):
        words = {
            "level": level,
            "value": _value(s, step.start),
            "start": square_text(step.start),
            "end": square_text(step.end),
        }
        if kind == "hint":
            text = _("Hint: move your {value} from {start} to {end}, along the green lights.")
        else:
            text = _(
                "The computer (level {level}) moves its {value} from {start} to {end}: make "
                "its move as the green lights show."
            )
        return Shown(kind, step.start, step.end, None, text.format(**words))
    if step.to is None:
        text = _("Hint: keep {keep}: Next switches the value, Confirm keeps it.")
        return Shown(kind, step.square, None, None, text.format(keep=step.kept))
    over = jumped(step.square, step.to)
    words = {
        "level": level,
        "dice": "+".join(str(d) for d in step.dice),
        "keep": step.kept,
        "value": _value(s, over),
        "start": square_text(step.square),
        "over": square_text(over),
        "end": square_text(step.to),
    }
    if kind == "hint":
        text = _(
            "Hint: keep {keep}, jump the {value} on {over} and land on {end}: the piece you "
            "jump comes off the board."
        )
    else:
        text = _(
            "The computer (level {level}) threw {dice} with its die on {start} and keeps "
            "{keep}: it jumps your {value} on {over} and lands on {end}. Make its move as the "
            "green lights show and take your {value} off the board."
        )
    return Shown(kind, step.square, step.to, over, text.format(**words))


def check(s: DadamaSession, step: Step) -> str | None:
    """A step seen on the board for the computer's side: refused (why, what to do) unless it
    is the one shown."""
    if not s.opponent.plays(s.game.side_to_move):
        return None
    lit = shown(s)
    if lit is None or lit.kind != "computer" or lit.to is None:
        return wait_for_it()
    made: tuple[Square, Square | None] | None = None
    if isinstance(step, Quiet):
        made = (step.start, step.end)
    if isinstance(step, Throw):
        made = (step.square, step.to)
    if made == (lit.start, lit.to):
        s.message = ""
        return None
    move = _("{start} to {end}").format(start=square_text(lit.start), end=square_text(lit.to))
    return not_the_move(move)


def holds(s: DadamaSession, name: str) -> bool:
    """A button that is the computer's on its turn (refused), but the faces of the real dice
    the player throws for it."""
    if s.phase != "play" or not s.opponent.plays(s.game.side_to_move):
        return False
    entering = s.dice_mode == "real" and s.pending is None and s.selected is not None
    if entering and (name.startswith("face") or name in ("next", "confirm")):
        return False
    return name in ("next", "confirm") or name.startswith("face")


def hint(s: DadamaSession) -> str:
    """The page's (or a button's) Hint: the best the top level finds for the player to move;
    what to say now (the hint itself is lit and said once it comes)."""
    if s.phase != "play" or s.game.phase is Phase.OVER:
        return hint_not_now()
    if s.opponent.side is None:
        return _("Hints are given in a game against the computer (computer=white or black).")
    if s.opponent.plays(s.game.side_to_move):
        return its_turn()
    s.opponent.ask_hint(key(s), request(s))
    s.opponent.harvest()
    return ""
