"""A game rebuilt from its journal records with the rules engine, one record at a time.

Both ends use it: the board's link to describe each record it publishes (the move as written,
its takings and score, both totals, the clocks) and to keep its retained state; the hub to
check every record it receives and to show and export the game. It reads records as the
journal defines them (docs/session.md): a ``start`` begins the game again (setup changes write
a new start), ``move`` plays a path, ``takeback`` undoes the last move, ``end`` tallies; every
record may carry the clocks' used time. A move the engine refuses ends what can be rebuilt, as
it does on the board when it resumes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from controller.rules.game import Game, IllegalMove, Result
from controller.rules.move import Move, side_name
from controller.rules.notation import NotationError, game_from_json, game_to_json
from controller.rules.profiles import Profile, RulesProfileError, get_profile
from controller.rules.scoring import format_score, kind_of, score_move, sum_scores
from controller.scoresheet.model import Row, Scoresheet, build_scoresheet, move_rows
from controller.session import info as game_info
from controller.session.export import pdn as pdn_text
from controller.session.outcome import Outcome, scoring_profile, tally


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


@dataclass
class GameState:
    """Everything known about one game after the records applied so far."""

    game: Game | None = None
    start: Game | None = None
    profile: Profile | None = None
    rules: str = ""
    phase: str = "none"
    """``none`` (no start yet), ``setup``, ``play``, ``over``."""
    paused: bool = False
    outcome: Outcome | None = None
    clock_ms: tuple[int, int] = (0, 0)
    move_clocks: list[tuple[int, int]] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    running: list[Any] = field(default_factory=list)
    last_move: Move | None = None
    move_used_ms: int = 0
    """The move clock of the player to move now (a move starts the next player's afresh)."""
    last_t: float = 0.0
    count: int = 0
    broken: str | None = None
    """Why rebuilding stopped (a move the engine refuses), or None."""
    info: dict[str, str] = field(default_factory=dict)
    """Players and event (``start`` and ``info`` records), the game record's header."""

    # ------------------------------------------------------------------ applying records

    def apply(self, record: dict[str, Any]) -> dict[str, Any]:
        """Apply one record; return what it meant (the ``info`` a link publishes with it)."""
        self.count += 1
        kind = record.get("k")
        if isinstance(record.get("t"), int | float):
            self.last_t = float(record["t"])
        if isinstance(record.get("game_ms"), int) and isinstance(record.get("move_ms"), int):
            self.clock_ms = (record["game_ms"], record["move_ms"])
            self.move_used_ms = record["move_ms"] if kind != "move" else 0
        if kind == "start":
            return self._start(record)
        if self.game is None or self.broken is not None:
            return {}
        if kind == "ready":
            self.phase = "play"
        elif kind == "pause":
            self.paused = True
        elif kind == "resume":
            self.paused = False
        elif kind == "info":
            self.info = _clean_info(record.get("info"))
        elif kind == "move":
            return self._move(record)
        elif kind == "takeback":
            return self._takeback()
        elif kind == "end":
            return self._end(record)
        return self._clocks_info()

    def _start(self, record: dict[str, Any]) -> dict[str, Any]:
        self.__init__()  # type: ignore[misc]
        self.count = 1
        self.last_t = float(record.get("t", 0.0))
        try:
            profile = get_profile(record["rules"]).with_settings(
                dict(record.get("rule_settings") or {})
            )
            position = dict(record["position"])
            position.setdefault("variant", record["variant"])
            position["profile"] = profile.name
            base = game_from_json(position)
        except (NotationError, RulesProfileError, KeyError, TypeError, ValueError) as exc:
            self.broken = f"the start record cannot be read ({exc})"
            return {}
        self.profile = profile
        self.rules = str(record["rules"])
        self.info = _clean_info(record.get("info"))
        self.game = Game(
            base.rules, base.chips(), base.side_to_move, variant=base.variant, profile=profile
        )
        self.start = Game(
            base.rules, base.chips(), base.side_to_move, variant=base.variant, profile=profile
        )
        zero = sum_scores((), kind_of(self.variant))
        self.running = [zero, zero]
        self.phase = "setup"
        return {"variant": self.variant, "rules": self.rules, "to_move": self.to_move}

    def _move(self, record: dict[str, Any]) -> dict[str, Any]:
        assert self.game is not None
        try:
            move = self.game.find_move([tuple(s) for s in record["path"]])
        except (IllegalMove, KeyError, TypeError, ValueError) as exc:
            self.broken = f"record {self.count}: {exc}"
            return {}
        side = self.game.side_to_move
        played = self.game.push(move)
        self.move_clocks.append(self.clock_ms)
        rows, self.running[side] = move_rows(side, played, self.running[side], self.variant)
        self.rows.extend(rows)
        self.last_move = played
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

    def _takeback(self) -> dict[str, Any]:
        assert self.game is not None
        if not self.game.ply:
            return self._clocks_info()
        undone = self.game.pop()
        del self.move_clocks[self.game.ply :]
        self._rebuild_rows()
        self.last_move = self.game.move_stack[-1] if self.game.ply else None
        self.outcome = None
        if self.phase == "over":
            self.phase = "play"
        return {"undone": move_text(undone), "totals": self.totals(), "clocks": self.clocks()}

    def _end(self, record: dict[str, Any]) -> dict[str, Any]:
        assert self.game is not None
        side = record.get("side")
        self.outcome = tally(self.game, str(record["reason"]), side, self.info)
        self.phase = "over"
        self.paused = False
        return {"result": self.result(), "totals": self.totals(), "clocks": self.clocks()}

    def _clocks_info(self) -> dict[str, Any]:
        return {"clocks": self.clocks()} if self.game is not None else {}

    def _rebuild_rows(self) -> None:
        assert self.game is not None
        zero = sum_scores((), kind_of(self.variant))
        self.running = [zero, zero]
        self.rows = []
        for side, move in self.game.played():
            rows, self.running[side] = move_rows(side, move, self.running[side], self.variant)
            self.rows.extend(rows)

    # ------------------------------------------------------------------ reading

    @property
    def variant(self) -> str:
        return (self.game.variant if self.game else None) or "integer"

    @property
    def to_move(self) -> str | None:
        return side_name(self.game.side_to_move) if self.game else None

    def totals(self) -> dict[str, str]:
        kind = kind_of(self.variant)
        if not self.running:
            return {"blue": "0", "red": "0"}
        return {
            "blue": format_score(self.running[0], kind),
            "red": format_score(self.running[1], kind),
        }

    def clocks(self) -> dict[str, Any]:
        """Used and left time as journaled (whole milliseconds), and whether time runs."""
        game_ms, move_ms = self.clock_ms
        game_total = int(self.profile.game_seconds * 1000) if self.profile else 0
        move_total = int(self.profile.move_seconds * 1000) if self.profile else 0
        return {
            "game_ms": game_ms,
            "move_ms": move_ms,
            "game_left_ms": max(0, game_total - game_ms),
            "move_left_ms": max(0, move_total - self.move_used_ms),
            "running": self.phase == "play" and not self.paused,
        }

    def result(self) -> dict[str, Any] | None:
        if self.outcome is None:
            return None
        sides = self.outcome.sheet.game.sides
        winner = self.outcome.winner
        return {
            "result": Result.of(winner),
            "winner": side_name(winner) if winner is not None else None,
            "reason": self.outcome.reason,
            "text": self.outcome.text,
            "points": [str(p) for p in self.outcome.points],
            "totals": {"blue": sides[0].total_text, "red": sides[1].total_text},
            "rc": {"blue": sides[0].remaining.text, "red": sides[1].remaining.text},
            "grand": {"blue": sides[0].grand_text, "red": sides[1].grand_text},
        }

    def position(self) -> dict[str, Any] | None:
        return game_to_json(self.game) if self.game is not None else None

    def sheet(self) -> Scoresheet | None:
        """The scoresheet so far (RC and grand totals once the game is over)."""
        if self.game is None:
            return None
        if self.outcome is not None:
            return self.outcome.sheet
        return build_scoresheet(
            self.game.played(),
            self.game.chips(),
            self.variant,
            scoring_profile(self.game),
            finished=False,
        )

    def pdn(self) -> str | None:
        """The game record, the same text the board exports for this game."""
        if self.game is None or self.start is None or self.profile is None:
            return None
        total = self.profile.game_seconds
        clocks = [(total - g / 1000, m / 1000) for g, m in self.move_clocks]
        return pdn_text(self.game, self.start, self.outcome, clocks=clocks, info=self.info)

    def summary(self) -> dict[str, Any]:
        """What a spectator needs to see the game now (the board's retained state carries it)."""
        last = self.last_move
        return {
            "phase": self.phase,
            "paused": self.paused,
            "variant": self.variant if self.game else None,
            "rules": self.rules or None,
            "ply": self.game.ply if self.game else 0,
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


def rebuild(records: list[dict[str, Any]]) -> GameState:
    state = GameState()
    for record in records:
        state.apply(record)
    return state
