"""One Damath game on a board: the session (``controller/session``: setup, play, the arbiter's
buttons and clocks, the journal) and the coach (the computer's moves, hints, the review), behind
the one interface of a game (``controller.games.kind.BoardGame``)."""

from __future__ import annotations

import json
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from controller.games.kind import GameKind, Outputs, SessionGame
from controller.record.games import DAMATH as NAME
from controller.rules.move import Square

if TYPE_CHECKING:
    from controller.coach.board import BoardCoach
    from controller.session import Session


class DamathGame(SessionGame):
    session: Session

    def __init__(self, kind: GameKind, session: Session, coach: BoardCoach) -> None:
        self.kind = kind
        self.session = session
        self.coach = coach
        """The computer opponent, hints and the review: searches in worker processes, polled."""

    def press(self, t: float, name: str, kind: str = "press") -> None:
        self.session.press(t, name, kind)  # a held button is the arbiter's menu, a dispute

    def menu_open(self) -> bool:
        return self.session.menu is not None

    def tick(self, t: float) -> bool:
        changed = self.session.tick(t)
        return self.coach.poll(self.session) or changed

    def outputs(self, t: float, cols: int, rows: int) -> Outputs:
        from controller.view.compose import compose

        out = compose(self.session.view_input(t), t, cols, rows)
        return Outputs(out.leds, out.page, out.clocks)

    def take_cues(self) -> list[str]:
        return [cue.name for cue in self.session.take_cues()]

    def expected(self) -> frozenset[Square]:
        return frozenset(self.session.expected_chips())

    def page(self, t: float) -> dict[str, Any]:
        from controller.view.snapshot import snapshot

        return snapshot(self.session.view_input(t, page=True), t, page=True)

    def summary(self, t: float) -> dict[str, Any]:
        from controller.scoresheet.typeset import typeset
        from controller.session.clocks import clock_text
        from controller.view.compose import message

        s = self.session
        reading = s.clocks.reading(t)
        totals = s.totals()
        outcome = s.outcome
        return {
            "game": NAME,
            "variant": s.variant,
            "rules": s.profile_name,
            "practice": s.play.practice,
            "blue": s.info.get("blue", ""),
            "red": s.info.get("red", ""),
            "event": s.info.get("event", ""),
            "totals": {"blue": typeset(totals[0]), "red": typeset(totals[1])},
            "to_move": ("blue", "red")[s.game.side_to_move],
            "phase": s.phase,
            "paused": s.paused,
            "ply": s.game.ply,
            "over": outcome is not None,
            "result": f"{outcome.result_text}: {outcome.text}" if outcome else "",
            "clocks": {
                "game": clock_text(reading.game_left) if s.play.timed else "--:--",
                "move": clock_text(reading.move_left) if s.play.timed else "--:--",
            },
            "message": message(s.view_input(t)),
        }

    def ready_line(self, board: str) -> str:
        return self.session.ready_line(board)

    def carried(self) -> dict[str, Any]:
        """What the next game on this board starts with: the players and the event, today."""
        import datetime

        return {"info": {**self.session.info, "date": datetime.date.today().isoformat()}}

    def finished(self) -> Hashable | None:
        outcome = self.session.outcome
        return None if outcome is None else id(outcome)

    def files_version(self) -> Hashable:
        return self.session.current_review() is not None

    def files(self) -> dict[str, str]:
        s = self.session
        return {"pdn": s.export_pdn(), "csv": s.export_csv(), "html": s.export_html()}

    def download(self, what: str) -> tuple[str, str]:
        if what == "position":
            return _position(self.session), "application/json; charset=utf-8"
        return super().download(what)

    def linked(self) -> Session:
        return self.session

    def put_away(self, wall: float) -> str | None:
        from controller.session.journaled import put_away

        return put_away(self.session.journal, bool(self.session.game.ply), wall)

    def close(self, t: float) -> None:
        self.session.close(t)


def _position(session: Session) -> str:
    from controller.rules.notation import game_to_json

    return json.dumps(game_to_json(session.game), ensure_ascii=False, indent=1) + "\n"
