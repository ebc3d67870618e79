"""The coach on one board: the computer's moves, the hints and the post-game review.

The board's loop calls ``poll`` at every pass; it starts a search in a worker process when one
is needed (``worker.py``) and, once it is done, hands the move to the session to show
(``session.show``). Nothing here waits: a search that is not finished is looked at again at the
next pass, and a search whose position has gone (a move was made, taken back, a new game) is
dropped when it ends. The session decides what a shown move means (the computer's move must be
made as shown); this module decides only when to ask the engine."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from controller.i18n import _
from controller.rules.move import Move
from controller.session import Session
from controller.session import coach_texts as say
from controller.session.shown import Shown

from . import worker

REVIEW_DEPTH = 6
"""The review looks 6 moves ahead at every move (reproducible; docs/engine.md)."""

Request = dict[str, Any]
"""A coach task's question and answer: JSON-like data that crosses to a worker process."""
Submit = Callable[[Callable[[Request], Request], Request], Future[Request]]


class CoachError(ValueError):
    """A request the coach cannot answer now; the text is shown to the player."""


@dataclass
class _Job:
    session: Session
    ply: int
    moves: tuple[Move, ...]
    kind: str
    future: Future[dict[str, Any]]

    def current(self, session: Session) -> bool:
        return (
            session is self.session
            and session.game.ply == self.ply
            and tuple(session.game.move_stack) == self.moves
        )


class BoardCoach:
    def __init__(self, submit: Submit = worker.submit) -> None:
        self._submit = submit
        self._move_job: _Job | None = None
        self._hint_job: _Job | None = None
        self._review_job: _Job | None = None
        self.review: dict[str, Any] | None = None
        self.review_for: tuple[Session, int] | None = None
        self.review_error = ""
        self.problem = ""
        """The last search that failed (a worker that died): said on the page."""
        self._hints_seen: tuple[Session | None, int] = (None, 0)
        self._auto_review: tuple[Session | None, int] = (None, -1)
        """The finished game the coach last reviewed by itself (asked once, even if it fails)."""
        self._failed: _Job | None = None
        """The computer's last search that failed: not started again for the same position
        (a worker that keeps dying would otherwise be asked at every pass)."""

    # ------------------------------------------------------------------ the loop

    def poll(self, session: Session) -> bool:
        """One pass of the board's loop; True when what the board shows changed."""
        changed = self._harvest(session)
        if self._board_hint(session):
            changed = True
        if self._wants_review(session):
            self._auto_review = (session, session.game.ply)
            self.ask_review(session)
            changed = self._harvest(session) or True
        failed = self._failed is not None and self._failed.current(session)
        if self._computer_to_move(session) and self._move_job is None and not failed:
            self._move_job = self._start(session, "computer", worker.computer_move)
            changed = self._harvest(session) or True  # an answer already there is shown now
        return changed

    def _board_hint(self, session: Session) -> bool:
        """The board's own hint button (Confirm with nothing to confirm): as the page's."""
        seen_session, seen = self._hints_seen
        if seen_session is not session:
            seen = 0
        if session.hint_requests <= seen:
            return False
        self._hints_seen = (session, session.hint_requests)
        try:
            self.ask_hint(session)
        except CoachError as exc:
            session.message = str(exc)
        return True

    def _wants_review(self, session: Session) -> bool:
        """A practice game played against the computer or with hints has ended: the coach
        reviews it by itself, for the board's display and the printable sheet."""
        if session.phase != "over" or session.outcome is None or not session.game.ply:
            return False
        play = session.play
        if not play.practice or (play.computer_side is None and not play.hints_on):
            return False
        return self._auto_review != (session, session.game.ply)

    def _computer_to_move(self, session: Session) -> bool:
        side = session.play.computer_side
        if side is None or session.phase != "play" or session.paused or session.outcome:
            return False
        if session.game.side_to_move != side or session.game.ending() is not None:
            return False
        shown = session.current_shown()
        return shown is None or shown.kind != "computer"

    def _start(self, session: Session, kind: str, task: Any, **extra: Any) -> _Job:
        request = {
            "start": session.start_position,
            "paths": [[list(sq) for sq in m.path] for m in session.game.move_stack],
            "level": session.play.level,
            **extra,
        }
        moves = tuple(session.game.move_stack)
        return _Job(session, session.game.ply, moves, kind, self._submit(task, request))

    def _harvest(self, session: Session) -> bool:
        changed = False
        for slot in ("_move_job", "_hint_job"):
            job: _Job | None = getattr(self, slot)
            if job is None or not job.future.done():
                continue
            setattr(self, slot, None)
            changed = True
            if not job.current(session):
                continue  # the position has moved on: this answer is for another one
            try:
                answer = job.future.result()
                move = session.game.find_move([tuple(sq) for sq in answer["path"]])
            except Exception as exc:  # a worker that died, a move the rules refuse
                self.problem = f"{type(exc).__name__}: {exc}"[:200]
                if job.kind == "computer":
                    self._failed = job
                continue
            self.problem = ""
            level = session.play.level if job.kind == "computer" else None
            variant = session.game.variant or ""
            session.show(Shown(job.kind, job.ply, move, answer["score"], variant, level))
        job = self._review_job
        if job is not None and job.future.done():
            self._review_job = None
            changed = True
            try:
                self.review = job.future.result()
                self.review_for = (job.session, job.ply)
                self.review_error = ""
                job.session.set_review(self.review, job.ply)
            except Exception as exc:
                self.review = None
                self.review_error = _(say.REVIEW_FAILED).format(reason=str(exc)[:200])
        return changed

    # ------------------------------------------------------------------ the players' requests

    def ask_hint(self, session: Session) -> str:
        """First press: the chip to move; second press: the whole move."""
        if not session.play.hints_on:
            raise CoachError(_(say.HINTS_OFF))
        if session.phase != "play" or session.paused or session.game.ending() is not None:
            raise CoachError(_(say.HINT_NOT_NOW))
        if session.play.computer_side == session.game.side_to_move:
            raise CoachError(_(say.NO_COMPUTER_HINT))
        shown = session.current_shown()
        if shown is not None and shown.kind == "hint_chip":
            whole = Shown("hint", shown.ply, shown.move, shown.score_text, shown.variant)
            session.show(whole)
            return whole.said().page
        if shown is not None and shown.kind == "hint":
            return shown.said().page
        if self._hint_job is None or not self._hint_job.current(session):
            self._hint_job = self._start(session, "hint_chip", worker.best_move)
        return say.HINT_THINKING.format().page

    def ask_review(self, session: Session) -> str:
        if not session.game.ply:
            raise CoachError(_(say.REVIEW_NOT_YET))
        if self._review_job is not None and self._review_job.current(session):
            return _(say.REVIEW_WORKING)
        if self.review is not None and self.review_for == (session, session.game.ply):
            return _(say.REVIEW_STARTED)  # this game, these moves: reviewed already
        computer = session.play.computer_side
        request = {"pdn": session.export_pdn(), "depth": REVIEW_DEPTH, "computer": computer}
        self.review = None
        self.review_error = ""
        self._review_job = self._start(session, "review", worker.game_review, **request)
        return _(say.REVIEW_STARTED)

    # ------------------------------------------------------------------ for the page

    def json(self, session: Session) -> dict[str, Any]:
        review = None
        if self.review is not None and self.review_for and self.review_for[0] is session:
            review = {**self.review, "ply": self.review_for[1]}
        move_job = self._move_job
        return {
            "thinking": bool(move_job and move_job.current(session)),
            "hint_thinking": bool(self._hint_job and self._hint_job.current(session)),
            "reviewing": bool(self._review_job and self._review_job.current(session)),
            "review": review,
            "review_error": self.review_error,
            "problem": self.problem,
            "level": session.play.level,
            "computer": session.play.computer,
            "hints": session.play.hints_on,
        }
