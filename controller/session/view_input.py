"""What the view reads of a Damath session, as data: ``ViewInput`` (everything the board's
display, LEDs and clocks need at a moment; ``controller.view`` reads nothing else), its
``PageFacts`` (what only a page shows), and the two practice helps it carries (where a lifted
chip's takings may end and what each scores; the order the display asks for the chips while
setting up). Built from the session through ``host.ViewHost``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from controller.record.outcome import Outcome
from controller.rules.damath_data import BLUE_SQUARES, RED_SQUARES
from controller.rules.move import Move, Square
from controller.rules.scoring import score_move
from controller.scoresheet.model import Row, Scoresheet
from controller.tracker.guidance import Guidance

from .clocks import ClockReading
from .host import ViewHost
from .kinds import Cue, Phase
from .menu import Menu
from .shown import Shown


@dataclass
class ViewInput:
    """Everything the view needs, as data (controller.view.compose reads nothing else)."""

    phase: str
    paused: bool
    variant: str
    rules: str
    side_to_move: int
    ply: int
    guidance: Guidance
    clock: ClockReading
    last_move: Move | None
    rows: tuple[Row, ...]
    totals: tuple[str, str]
    menu: Menu | None
    message: str
    outcome: Outcome | None
    proxy: bool
    display_message: str = ""
    """The message's short form for the display (ASCII, a few lines)."""
    info: dict[str, str] = field(default_factory=dict)
    """Players and event (``record/info.py``)."""
    timed: bool = True
    """False in practice with the clocks off: the clock displays show no time."""
    preview: tuple[tuple[Square, str], ...] = ()
    shown: Shown | None = None
    """The computer's move or a hint the board shows for this position (``shown.py``)."""
    """Practice: where the lifted chip may land and what that taking would score."""
    start_order: tuple[Square, ...] = ()
    """Setup: the squares in the order the display asks for their chips."""
    review: dict[str, Any] | None = None
    """The coach's review of the finished game (practice), when there is one for these moves."""
    review_page: int = 0
    """Which of the review's display pages the tally page gives way to (0: the tally)."""
    page: PageFacts | None = None
    """What only a page shows (``view_input(t, page=True)``); the scan loop never builds it."""


@dataclass(frozen=True)
class PageFacts:
    """The part of the view only the simulator's page and the tests read: built on demand,
    never at the scan loop's 25 Hz (the sheet of a game in progress is not free)."""

    sheet: Scoresheet
    """The scoresheet (``Session.sheet``): the tally once the game is over."""
    cues: tuple[Cue, ...]
    """The last buzzer cues, numbered, so a page plays each once."""
    said: str
    """The session's own message (the journal's trouble first), without a shown move's text."""
    problems: tuple[str, ...]
    moves: tuple[str, ...]
    play: dict[str, Any]


def view_input(s: ViewHost, t: float, *, page: bool = False) -> ViewInput:
    """Everything the view needs at ``t``, as data; ``page`` adds what only a page shows."""
    shown = s.current_shown()
    shown_said = shown.said() if shown is not None and not s.paused else None
    return ViewInput(
        phase=s.phase,
        paused=s.paused,
        variant=s.game.variant or "",
        rules=s.config.rules,
        side_to_move=s.game.side_to_move,
        ply=s.game.ply,
        guidance=s.tracker.guidance(),
        clock=s.clocks.reading(t),
        last_move=s.last_move,
        rows=tuple(s.rows),
        totals=s.totals(),
        menu=s.menu,
        message=s.message or (shown_said.page if shown_said else ""),
        outcome=s.outcome,
        proxy=s.proxy,
        display_message=s.display_message or (shown_said.display if shown_said else ""),
        info=dict(s.info),
        timed=s.play.timed,
        preview=capture_preview(s),
        start_order=start_order(s),
        shown=shown,
        review=s.current_review(),
        review_page=s.review_page if s.current_review() else 0,
        page=None if not page else page_facts(s),
    )


def page_facts(s: ViewHost) -> PageFacts:
    return PageFacts(
        sheet=s.sheet(),
        cues=tuple(s.recent_cues),
        said=s.message,
        problems=tuple(s.problems),
        moves=tuple(str(m) for m in s.game.move_stack),
        play=s.play.json(),
    )


def capture_preview(s: ViewHost) -> tuple[tuple[Square, str], ...]:
    """Practice help: while a chip is lifted, each square where a taking of it may end and
    what that taking scores (``3`` or, for paths that score differently, ``3 / -2``)."""
    if not s.play.preview or s.phase != Phase.PLAY or s.paused:
        return ()
    g = s.tracker.guidance()
    if g.phase not in ("moving", "settling") or not g.lifted:
        return ()
    start = g.lifted[0]
    scores: dict[Square, list[str]] = {}
    for move in s.tracker.game.legal_moves():
        if move.start == start and move.takings:
            text = score_move(move, s.variant).text
            if text not in scores.setdefault(move.end, []):
                scores[move.end].append(text)
    return tuple((end, " / ".join(texts)) for end, texts in sorted(scores.items()))


def start_order(s: ViewHost) -> tuple[Square, ...]:
    """The order the display names the chips in while setting up: Blue's squares then
    Red's, each in the order of the placement table (docs/rules.md), so a teacher's list
    and the board agree; a loaded position's squares follow, by row."""
    chips = s.tracker.game.chips() if s.phase == Phase.SETUP else {}
    order = [sq for sq in (*BLUE_SQUARES, *RED_SQUARES) if sq in chips]
    rest = sorted((sq for sq in chips if sq not in order), key=lambda s: (s[1], s[0]))
    return (*order, *rest)
