"""A game rebuilt from its journal records, one at a time, by the one applier of a Damath game's
records (``controller.record.state.DamathState``), the same the board's session reads them with.

Both ends use it: the board's link to describe each record it publishes (the move as written,
its takings and score, both totals, the clocks) and to keep its retained state; the hub to
check every record it receives and to show and export the game. It is a visitor of the records:
it applies each one, then says what it meant. A record that cannot be read (a start the rules
refuse, a move the engine refuses) ends what can be rebuilt, as it does on the board when it
resumes; players and event a record cannot name leave the game nameless, never unbuilt.
"""

from __future__ import annotations

from typing import Any

from controller.record import info as game_info
from controller.record.check import start_ok
from controller.record.games import DAMATH, Recorded, Refused, game_of, reads_its_own, recorded
from controller.record.outcome import Outcome
from controller.record.state import DamathState
from controller.rules.game import Game, IllegalMove, Result
from controller.rules.move import Move, side_name
from controller.rules.notation import NotationError, game_to_json
from controller.rules.profiles import Profile, RulesProfileError
from controller.rules.scoring import score_move
from controller.scoresheet.model import Row, Scoresheet


def _clean_info(raw: object) -> dict[str, str]:
    """Players and event as the board checked them; a record that is not a table of
    writable fields names nobody (the game itself still rebuilds)."""
    if not isinstance(raw, dict):
        return {}
    try:
        return game_info.clean(raw)
    except game_info.InfoError:
        return {}


def move_text(move: Move) -> str:
    """``3,2-4,3`` for a move, ``4,3x2,5`` for a taking, as in the game record (PDN)."""
    return ("x" if move.captures else "-").join(f"{x},{y}" for x, y in move.path)


class GameState:
    """Everything known about one game after the records applied so far."""

    def __init__(self) -> None:
        self.state = DamathState()
        self.started = False
        self.count = 0
        self.last_t = 0.0
        self.move_used_ms = 0
        """The move clock of the player to move now (a move starts the next player's afresh)."""
        self.broken: str | None = None
        """Why rebuilding stopped (a record the rules refuse), or None."""
        self.other: Recorded | None = None
        """The game, when the journal holds another game than Damath (its first record says
        which): each record is then that game's to apply (``record.games``)."""

    @property
    def kind(self) -> str:
        """The game the records are of: ``damath``, or the name of the other game."""
        return self.other.name if self.other is not None else DAMATH

    # ------------------------------------------------------------------ applying records

    def apply(self, record: dict[str, Any]) -> dict[str, Any]:
        """Apply one record; return what it meant (the ``info`` a link publishes with it). A
        record the game's rules refuse stops the rebuilding (``broken`` says why)."""
        if self.count == 0:
            name = game_of(record)
            if name is not None and reads_its_own(name):
                self.other = recorded(name)
        if self.other is not None:
            return self._other(record)
        self.count += 1
        kind = record.get("k")
        if isinstance(record.get("t"), int | float):
            self.last_t = float(record["t"])
        clocks_ok = isinstance(record.get("game_ms"), int) and isinstance(
            record.get("move_ms"), int
        )
        if clocks_ok:
            self.move_used_ms = record["move_ms"] if kind != "move" else 0
        if kind == "start":
            return self._start(record)
        if not self.started or self.broken is not None:
            return {}
        if kind == "info":
            record = {**record, "info": _clean_info(record.get("info"))}
        elif kind not in ("ready", "pause", "resume", "move", "takeback", "end", "hold", "go"):
            if clocks_ok:
                self.state.reading = (record["game_ms"], record["move_ms"])
            return self._clocks_info()
        if kind != "info" and not clocks_ok:
            record = {k: v for k, v in record.items() if k not in ("game_ms", "move_ms")}
        if kind in ("move", "takeback") and type(record.get("ply")) is int:
            now = self.state.game.ply
            if record["ply"] != (now - 1 if kind == "takeback" else now):
                # a record before it was lost: the board's resume bridges it or resumes before
                # it; the rebuild stops here, never a move played out of its place
                self.broken = (
                    f"record {self.count}: its {kind} is of ply {record['ply']}, the game is at "
                    f"ply {now}: a record before it is missing"
                )
                return {}
        try:
            played = self.state.apply(record)
        except (IllegalMove, KeyError, TypeError, ValueError) as exc:
            self.broken = f"record {self.count}: {exc}"
            return {}
        if kind == "move":
            assert played is not None
            return self._move_info(played)
        if kind == "takeback":
            if played is None:
                return self._clocks_info()
            return {"undone": move_text(played), "totals": self.totals(), "clocks": self.clocks()}
        if kind == "end":
            return {"result": self.result(), "totals": self.totals(), "clocks": self.clocks()}
        return self._clocks_info()

    def _other(self, record: dict[str, Any]) -> dict[str, Any]:
        assert self.other is not None
        self.count += 1
        if isinstance(record.get("t"), int | float):
            self.last_t = float(record["t"])
        if self.broken is not None:
            return {}
        try:
            return self.other.apply(record)
        except Refused as exc:
            self.broken = f"record {self.count}: {exc}"
            return {}

    def _start(self, record: dict[str, Any]) -> dict[str, Any]:
        self.__init__()  # type: ignore[misc]
        self.count = 1
        self.last_t = float(record.get("t", 0.0))
        try:
            if not start_ok(record):
                raise ValueError("it names no variant or rules")
            self.state.apply({**record, "info": _clean_info(record.get("info")), "play": {}})
        except (NotationError, RulesProfileError, KeyError, TypeError, ValueError) as exc:
            self.broken = f"the start record cannot be read ({exc})"
            return {}
        self.started = True
        return {"variant": self.variant, "rules": self.rules, "to_move": self.to_move}

    def _move_info(self, played: Move) -> dict[str, Any]:
        side = 1 - self.state.game.side_to_move
        scored = score_move(played, self.variant)
        return {
            "side": side_name(side),
            "move": move_text(played),
            "takings": [
                {"square": list(s.taking.square), "expression": s.expression, "score": s.text}
                for s in scored.takings
            ],
            "score": scored.text,
            "totals": self.totals(),
            "clocks": self.clocks(),
        }

    def _clocks_info(self) -> dict[str, Any]:
        return {"clocks": self.clocks()} if self.started else {}

    # ------------------------------------------------------------------ what the state holds

    @property
    def game(self) -> Game | None:
        return self.state.game if self.started else None

    @property
    def start(self) -> Game | None:
        return self.state.start_game() if self.started else None

    @property
    def profile(self) -> Profile | None:
        return self.state.profile if self.started else None

    @property
    def rules(self) -> str:
        return self.state.setup.rules if self.started else ""

    @property
    def phase(self) -> str:
        if self.other is not None:
            return str(self.other.summary()["phase"])
        return self.state.phase if self.started else "none"

    @property
    def paused(self) -> bool:
        return self.state.paused

    @property
    def outcome(self) -> Outcome | None:
        return self.state.outcome

    @property
    def clock_ms(self) -> tuple[int, int]:
        return self.state.reading

    @property
    def move_clocks(self) -> list[tuple[int, int]]:
        return self.state.move_clocks

    @property
    def rows(self) -> list[Row]:
        return self.state.rows

    @property
    def last_move(self) -> Move | None:
        return self.state.last_move

    @property
    def info(self) -> dict[str, str]:
        """Players and event (``start`` and ``info`` records), the game record's header."""
        return self.state.info

    # ------------------------------------------------------------------ reading

    @property
    def variant(self) -> str:
        if self.other is not None:
            return self.other.name
        return (self.state.game.variant if self.started else None) or "integer"

    @property
    def ply(self) -> int:
        """Moves (another game: steps or actions) played so far."""
        if self.other is not None:
            return int(self.other.summary()["ply"])
        return self.state.game.ply if self.started else 0

    @property
    def to_move(self) -> str | None:
        if self.other is not None:
            side = self.other.summary()["to_move"]
            return str(side) if side is not None else None
        return side_name(self.state.game.side_to_move) if self.started else None

    def totals(self) -> dict[str, str]:
        if not self.started:
            return {"blue": "0", "red": "0"}
        blue, red = self.state.totals()
        return {"blue": blue, "red": red}

    def clocks(self) -> dict[str, Any]:
        """Used and left time as journaled (whole milliseconds), and whether time runs."""
        game_ms, move_ms = self.state.reading
        profile = self.profile
        game_total = int(profile.game_seconds * 1000) if profile else 0
        move_total = int(profile.move_seconds * 1000) if profile else 0
        return {
            "game_ms": game_ms,
            "move_ms": move_ms,
            "game_left_ms": max(0, game_total - game_ms),
            "move_left_ms": max(0, move_total - self.move_used_ms),
            "running": self.phase == "play" and not self.paused and self.state.held is None,
            "held": self.state.held,
        }

    def result(self) -> dict[str, Any] | None:
        outcome = self.outcome
        if outcome is None:
            return None
        sides = outcome.sheet.game.sides
        winner = outcome.winner
        return {
            "result": Result.of(winner),
            "winner": side_name(winner) if winner is not None else None,
            "reason": outcome.reason,
            "text": outcome.text,
            "points": [str(p) for p in outcome.points],
            "totals": {"blue": sides[0].total_text, "red": sides[1].total_text},
            "rc": {"blue": sides[0].remaining.text, "red": sides[1].remaining.text},
            "grand": {"blue": sides[0].grand_text, "red": sides[1].grand_text},
        }

    def position(self) -> dict[str, Any] | None:
        return game_to_json(self.state.game) if self.started else None

    def sheet(self) -> Scoresheet | None:
        """The scoresheet so far (RC and grand totals once the game is over)."""
        return self.state.sheet() if self.started else None

    def pdn(self) -> str | None:
        """The game record, the same text the board exports for this game (as PDN: Damath,
        Dam, English draughts, and Dadama's text with its throws; None for a game whose record
        is JSON, ``export``)."""
        if self.other is not None:
            return self.other.export() if self.other.export_as == "pdn" else None
        return self.state.pdn() if self.started else None

    def export(self) -> tuple[str, str] | None:
        """The game's record as the board exports it: (its kind, ``pdn`` or ``json``, the text);
        None before the game's start."""
        if self.other is not None:
            text = self.other.export()
            return None if text is None else (self.other.export_as, text)
        text = self.pdn()
        return None if text is None else ("pdn", text)

    def summary(self) -> dict[str, Any]:
        """What a spectator needs to see the game now (the board's retained state carries it).
        Another game than Damath has the same fields (no totals, clocks or last move; its
        position under ``game_position``, in its own JSON format) and its own besides."""
        if self.other is not None:
            return self._other_summary(self.other)
        last = self.last_move
        return {
            "phase": self.phase,
            "paused": self.paused,
            "variant": self.variant if self.started else None,
            "rules": self.rules or None,
            "ply": self.state.game.ply if self.started else 0,
            "to_move": self.to_move,
            "position": self.position(),
            "totals": self.totals(),
            "clocks": self.clocks(),
            "last_move": {"move": move_text(last), "path": [list(s) for s in last.path]}
            if last
            else None,
            "result": self.result(),
            "problem": self.broken,
        }

    def _other_summary(self, other: Recorded) -> dict[str, Any]:
        now = other.summary()
        result = None
        if now["result"] is not None:
            result = {"result": now["result"], "text": now.get("ending_text") or now["ending"],
                      "reason": now["ending"]}  # fmt: skip
        totals = {"blue": "", "red": ""}
        score, picture = now.get("score"), now.get("picture")
        if score is not None and picture is not None:  # in the players' places: the first mover's
            first, second = picture["colours"]
            totals = {"blue": str(score[first]), "red": str(score[second])}
        hidden = ("position", "result", "ending", "ending_text")
        extra = {k: v for k, v in now.items() if k not in hidden}
        return {
            **extra,
            "game": other.name,
            "paused": False,
            "variant": other.name,
            "rules": None,
            "position": None,
            "game_position": now["position"],
            "totals": totals,
            "clocks": None,
            "last_move": None,
            "result": result,
            "problem": self.broken,
        }


def rebuild(records: list[dict[str, Any]]) -> GameState:
    state = GameState()
    for record in records:
        state.apply(record)
    return state
