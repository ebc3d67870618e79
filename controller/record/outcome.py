"""How a game ended and what it scored: the tally (RULES.md §5) with the arbiter's endings.

Decision (RULES.md is silent on forfeits): a resignation or a no-show gives the point to the
other side whatever the totals; the sheet still shows totals, RC and grand totals. Every other
ending (no chips, no moves, repetition, game time, the arbiter's stop) is decided by the grand
totals, as the manual says.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from controller.i18n import N_, _, side_word
from controller.rules.game import Game
from controller.rules.move import BLUE, RED
from controller.scoresheet.model import Scoresheet, build_scoresheet

from . import info as game_info

FORFEITS = ("resign", "no-show")
ENDINGS: dict[str, str] = {
    "no-chips": N_("{SIDE} has no chip left"),
    "no-moves": N_("{SIDE} cannot move"),
    "repetition": N_("the same position was repeated"),
    "time": N_("the game time is over"),
    "stop": N_("the arbiter stopped the game"),
    "resign": N_("{SIDE} resigned"),
    "no-show": N_("{SIDE} did not show"),
    "abandon": N_("abandoned"),
}
"""Every way a game ends, as the sheet and the board say it (an ``end`` record's ``reason``)."""
WINNER = N_("{SIDE} wins")
DRAW = N_("Draw: 1/2 point each")


@dataclass(frozen=True)
class Outcome:
    reason: str
    side: int | None
    """The side the reason is about (who resigned, who cannot move), if any."""
    winner: int | None
    points: tuple[Fraction, Fraction]
    sheet: Scoresheet

    @property
    def text(self) -> str:
        return _reason_text(self.reason, self.side)

    @property
    def result_text(self) -> str:
        if self.winner is None:
            return _(DRAW)
        return _(WINNER).format(SIDE=side_word(self.winner).upper())


def _reason_text(reason: str, side: int | None) -> str:
    who = side_word(side).upper() if side is not None else ""
    return _(ENDINGS[reason]).format(SIDE=who) if reason in ENDINGS else reason


def scoring_profile(game: Game) -> str:
    """The scorer knows the two named profiles; what matters to it is the remaining-dama rule."""
    prof = game.profile
    return "official" if prof is None or prof.remaining_dama_double else "online"


def tally(
    game: Game, reason: str, side: int | None, info: Mapping[str, str] | None = None
) -> Outcome:
    """The end of the game: the sheet with RC and grand totals, the winner and the points.
    ``info`` (players and event, ``record/info.py``) goes on the sheet."""
    forfeit_by = side if reason in FORFEITS and side is not None else None
    sheet = build_scoresheet(
        game.played(),
        game.chips(),
        game.variant or "",
        scoring_profile(game),
        game_info.players(info or {}),
        event=game_info.event(info or {}),
        ending=_reason_text(reason, side),
        forfeit_by=forfeit_by,
    )
    winner = sheet.winner
    if winner is None:
        points = (Fraction(1, 2), Fraction(1, 2))
    else:
        points = (Fraction(int(winner == BLUE)), Fraction(int(winner == RED)))
    return Outcome(reason, side, winner, points, sheet)
