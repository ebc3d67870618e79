"""Damath's puzzle mode on a board: a puzzle of the class's store (``puzzles.sqlite``), set up
with the board's guided setup (the LEDs light where each chip goes), the child's move read by
the tracker and judged by ``controller.puzzles.solve.judge`` (the page's words, the language
in force), the attempt kept in the same store as the page's (so ratings and progress count
it). A wrong move is told, taken back with the LEDs and tried again; after a second miss the
best move is shown on the board (the hint's green lights). Not a game of its own in the
registry: a Damath game opened with the settings ``puzzle`` and ``child``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.games.kind import GameKind, Opening, Outputs
from controller.i18n import N_, _, side_word
from controller.puzzles.model import Path_, Puzzle
from controller.puzzles.solve import judge, solution_words
from controller.puzzles.store import (
    StoreError,
    next_puzzle,
    puzzle,
    puzzle_db_path,
    record_attempt,
)
from controller.record.info import ROSTER_FILE, read_roster
from controller.rules.scoring import score_move

from .game import DamathGame

if TYPE_CHECKING:
    from controller.rules.move import Move, Square
    from controller.session import Session, SessionConfig

SETTINGS = ("puzzle", "child")
"""The settings that make a Damath game a puzzle (``--set puzzle=next --set child=NAME``)."""
NEXT = "next"
"""``puzzle=next``: the puzzle nearest the child's rating not tried yet (as the page picks)."""
TRIES = 2
"""A wrong first try gets a second; then the best move is shown (as on the page)."""

PROMPT = N_("{side} to move: find the best move.")
RATING_CHANGE = N_("Your puzzle rating: {before} → {after} ({delta})")
RATING_STAYS = N_("Solved at the second try: your puzzle rating stays {rating}.")
SECOND_TRY = N_("Second try: your move again.")
PUT_BACK = N_("Put the chips back where the lights show.")
MAKE_REPLY = N_("Now move {side}'s chip where the green lights show.")
YOUR_MOVE = N_("Now find your next move.")
SHOWN_BEST = N_("Put the chips back, then make the best move where the green lights show.")
NEXT_PUZZLE = N_("Press New game for the next puzzle.")
CLEAR_FIRST = N_("Next puzzle: take every chip off the board where the blue lights blink.")
NO_STORE = N_("puzzle: no puzzle store at {path}: the teacher generates the puzzles first")
NO_FOLDER = N_("puzzle: this board keeps no state folder, so it has no puzzle store")
NO_PUZZLE = N_("puzzle: no puzzle {id!r} in {path}")
NO_PUZZLES = N_("puzzle: no puzzles yet in {path}: the teacher generates them first")
NEED_ID = N_("puzzle: a puzzle's id, or next")
NEED_CHILD = N_("child: the name of the child who solves the puzzle (from players.txt)")
NOT_LISTED = N_("child: {child!r} is not on the class list (players.txt)")
READY = N_("board {board}: a puzzle for {child}: set the board as the lights show")


@dataclass(frozen=True)
class PuzzleRequest:
    """What the settings ask for (checked): a puzzle (an id, or ``next``) for a child."""

    puzzle: str
    child: str


def wanted(settings: Mapping[str, Any]) -> bool:
    return any(name in settings for name in SETTINGS)


def check(settings: Mapping[str, Any], opening: Opening | None) -> PuzzleRequest:
    """The puzzle settings checked (ValueError, one line); when the opening names the board's
    folder, the puzzle is looked up too, so a wrong id fails before anything is touched. The
    other settings are the puzzle's (its variant and rules): given ones are not used."""
    raw, child = settings.get("puzzle", NEXT), settings.get("child")
    if isinstance(raw, bool) or not isinstance(raw, str | int) or not str(raw).strip():
        raise ValueError(_(NEED_ID))
    if not isinstance(child, str) or not child.strip():
        raise ValueError(_(NEED_CHILD))
    request = PuzzleRequest(str(raw).strip(), child.strip())
    if opening is not None and opening.journal is not None:
        load(request, opening)
    return request


def store_of(journal: Path | None) -> Path:
    """The class's store for a board: beside the board's journal (a board's state folder), or,
    for one of the simulator's boards (``boards/<id>/``), in the simulator's state folder."""
    if journal is None:
        raise ValueError(_(NO_FOLDER))
    folder = Path(journal).parent
    if folder.parent.name == "boards" and not puzzle_db_path(folder).is_file():
        folder = folder.parent.parent
    return puzzle_db_path(folder)


def load(request: PuzzleRequest, opening: Opening) -> tuple[Puzzle, Path, tuple[str, ...]]:
    """The puzzle asked for, its store and the class list; ValueError, one line."""
    store = store_of(opening.journal)
    if not store.is_file():
        raise ValueError(_(NO_STORE).format(path=store))
    roster = opening.roster or read_roster(store.parent / ROSTER_FILE)
    if roster and request.child not in roster:
        raise ValueError(_(NOT_LISTED).format(child=request.child))
    try:
        if request.puzzle == NEXT:
            found = next_puzzle(store, request.child)
            if found is None:
                raise ValueError(_(NO_PUZZLES).format(path=store))
        else:
            found = puzzle(store, request.puzzle)
            if found is None:
                raise ValueError(_(NO_PUZZLE).format(id=request.puzzle, path=store))
    except StoreError as exc:
        raise ValueError(str(exc)) from None
    return found[0], store, roster


def session_config(p: Puzzle, tracker: Mapping[str, Any], roster: tuple[str, ...]) -> SessionConfig:
    """The session of a puzzle: its position, practice without clocks, the other side played
    by the board (its forced reply shown with the lights, as the computer's move is)."""
    from controller.session import SessionConfig

    return SessionConfig(
        variant=p.variant,
        rules=p.profile,
        tracker_settings=dict(tracker),
        position=p.position,
        checkpoint_seconds=0,
        play={
            "practice": True,
            "clocks": "off",
            "computer": ("blue", "red")[1 - p.solver],
            "hints": False,
        },
        roster=roster,
    )


def open_puzzle(settings: Mapping[str, Any], opening: Opening, kind: GameKind) -> PuzzleGame:
    """The puzzle game; a puzzle is not journaled (the attempt is kept in the store): the game
    in the board's journal, if any, waits there untouched."""
    request = opening.config if isinstance(opening.config, PuzzleRequest) else None
    request = request or check(settings, None)
    found, store, roster = load(request, opening)
    return PuzzleGame(kind, found, request.child, store, dict(opening.tracker), roster, opening.t)


class PuzzleGame(DamathGame):
    """One child's puzzle on a board: a Damath session over the puzzle's position, and what
    the puzzle adds (the judging, the tries, the attempt kept, the next puzzle)."""

    def __init__(
        self,
        kind: GameKind,
        found: Puzzle,
        child: str,
        store: Path,
        tracker: dict[str, Any],
        roster: tuple[str, ...],
        t: float,
    ) -> None:
        from controller.coach.board import BoardCoach

        self.child = child
        self.store = store
        self._tracker = tracker
        self._roster = roster
        super().__init__(kind, self._session(found, t), BoardCoach())
        self._begin(found)

    def _session(self, found: Puzzle, t: float) -> Session:
        from controller.session import Session

        return Session.start(session_config(found, self._tracker, self._roster), t)

    def _begin(self, found: Puzzle) -> None:
        self.puzzle = found
        self.played: list[Path_] = []
        """The child's right moves so far (each followed by the forced reply)."""
        self.misses = 0
        self.helped = False
        """The best move was shown (after the second miss): nothing more is kept."""
        self.solved = False
        self.started: float | None = None
        self.words: list[str] = []
        """What the board says of the puzzle now (the page's words, in the language in force)."""
        self.first_frame = True
        self.clearing: frozenset[Square] | None = None
        """The chips still on the board before the setup begins (None: not clearing). The
        sensors see where chips stand, not their numbers: chips left from another position
        may carry other numbers, so such a board is cleared first and the setup names every
        chip. A board that shows exactly the puzzle's squares (the simulator lays a new
        position out itself) is taken as set."""

    # ------------------------------------------------------------------ inputs

    def feed_frame(self, t: float, occupied: frozenset[Square]) -> None:
        board = frozenset((sq[0], sq[1]) for sq in occupied)
        if self.first_frame:
            self.first_frame = False
            if board and board != frozenset(self.puzzle.game().chips()):
                self.clearing = board
        if self.clearing is not None:
            self.clearing = board or None
            if board:
                return
        before = self._before()
        self.session.feed_frame(t, occupied)
        self._after(t, *before)

    def tick(self, t: float) -> bool:
        if self.clearing is not None:
            return False
        before = self._before()
        changed = self.session.tick(t)
        return self._after(t, *before) or changed

    def press(self, t: float, name: str, kind: str = "press") -> None:
        if name == "new_game" and kind == "press":
            self.next_puzzle(t)
        elif name != "takeback":  # the board takes a wrong move back itself
            super().press(t, name, kind)

    # ------------------------------------------------------------------ the puzzle

    def _before(self) -> tuple[str, int, int]:
        s = self.session
        return str(s.phase), s.game.ply, s.game.side_to_move

    def _after(self, t: float, phase: str, ply: int, side: int) -> bool:
        s = self.session
        changed = False
        if phase == "setup" and s.phase == "play":
            self.started = t
            self._tell([_(PROMPT).format(side=side_word(self.puzzle.solver))])
            changed = True
        if s.game.ply == ply + 1 and s.last_move is not None:
            if side == self.puzzle.solver:
                self._answer(t, s.last_move)
            else:
                self._tell([_(YOUR_MOVE)])
            changed = True
        if self.words and s.phase in ("play", "restore") and not s.message:
            s.message = " ".join(self.words)  # said again once the chips stand (the session
            # clears its message when a restore is done)
        return changed

    def _tell(self, words: list[str]) -> None:
        self.words = words
        self.session.message = " ".join(words)

    def _answer(self, t: float, move: Move) -> None:
        s = self.session
        if self.solved:
            return  # a move after the puzzle: the board plays on, nothing is judged
        path: Path_ = tuple(move.path)
        try:
            judged = judge(self.puzzle, self.played, path)
        except ValueError as exc:
            s.arbiter.takeback(t)
            self._tell([str(exc), _(PUT_BACK)])
            return
        if judged.result == "continue":
            self.played.append(path)
            reply = s.game.find_move(list(judged.reply or ()))
            self._show("computer", reply)
            side = side_word(1 - self.puzzle.solver)
            self._tell([*judged.said, _(MAKE_REPLY).format(side=side)])
            return
        if judged.result == "right":
            self.solved = True
            said = [*judged.said, *self._kept(t, path, True), _(NEXT_PUZZLE)]
            self._tell(said)
            return
        self.misses += 1
        said = [*judged.said, *self._kept(t, path, False)]
        s.arbiter.takeback(t)
        if self.misses >= TRIES:
            self.helped = True
            best = s.game.find_move(list(self.puzzle.solution[2 * len(self.played)]))
            self._show("hint", best)
            said += [*solution_words(self.puzzle, self.played), _(SHOWN_BEST)]
        else:
            said += [_(SECOND_TRY), _(PUT_BACK)]
        self._tell(said)

    def _show(self, kind: str, move: Move) -> None:
        from controller.session.shown import Shown

        s = self.session
        s.shown = Shown(kind, s.game.ply, move, score_move(move, s.variant).text, s.variant)

    def _kept(self, t: float, path: Path_, correct: bool) -> list[str]:
        """The attempt kept in the class's store, as the page keeps it; what the board says of
        the rating (or why it could not be kept)."""
        if self.helped:
            return []
        seconds = max(0.0, t - (self.started if self.started is not None else t))
        answer = " ".join(f"{x}{y}" for x, y in path)
        try:
            done = record_attempt(self.store, self.child, self.puzzle.id, answer, correct, seconds)
        except StoreError as exc:
            return [str(exc)]
        before, after = round(done.child_before.rating), round(done.child_after.rating)
        if done.first_try:
            delta = f"{after - before:+d}"
            return [_(RATING_CHANGE).format(before=before, after=after, delta=delta)]
        return [_(RATING_STAYS).format(rating=after)] if correct else []

    def next_puzzle(self, t: float) -> None:
        """New game on a puzzle board: the child's next puzzle, set up from the chips as they
        stand (the LEDs guide the changes)."""
        try:
            found = next_puzzle(self.store, self.child)
        except StoreError as exc:
            self._tell([str(exc)])
            return
        if found is None:
            self._tell([_(NO_PUZZLES).format(path=self.store)])
            return
        board = self.session.board
        self.session = self._session(found[0], t)
        self._begin(found[0])
        if board is not None:
            self.feed_frame(t, board)

    # ------------------------------------------------------------------ outputs

    def outputs(self, t: float, cols: int, rows: int) -> Outputs:
        if self.clearing is None:
            return super().outputs(t, cols, rows)
        from controller.view.leds import shade
        from controller.view.outputs import page_lines
        from controller.view.session_leds import ALL_LIGHTS

        extra = ALL_LIGHTS["extra"]
        leds = {
            sq: shade(extra if sq in self.clearing else None, t) for sq in self.kind.geometry.cells
        }
        return Outputs(leds, page_lines([_(CLEAR_FIRST)], cols, rows))

    def expected(self) -> frozenset[Square]:
        return frozenset() if self.clearing is not None else super().expected()

    def page(self, t: float) -> dict[str, Any]:
        out = {**super().page(t), "puzzle": {"id": self.puzzle.id, "child": self.child}}
        if self.clearing is not None:
            out["message"] = _(CLEAR_FIRST)
        return out

    # ------------------------------------------------------------------ what is kept

    def finished(self) -> None:
        return None  # the attempt is in the store; a puzzle's moves are not a game to keep

    def ready_line(self, board: str) -> str:
        return _(READY).format(board=board, child=self.child)

    def summary(self, t: float) -> dict[str, Any]:
        return {**super().summary(t), "puzzle": self.puzzle.id, "child": self.child}
