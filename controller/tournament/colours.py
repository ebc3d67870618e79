"""Who plays Blue at a Swiss table: the FIDE Dutch colour rules (C.04.3, E.1–E.5).

The pairing engine (caissify-pairings 0.5) chooses the pairs; its colours are not used, because
its rule E.4 ranks the two players by pairing number alone where FIDE ranks by score first
(A.2): on the engine's own bbpPairings reference tournaments it gives the wrong player the
preferred colour in four rounds (docs/tournament.md, "Checking the pairing engine"). This
module decides colours from the same facts the rules name, and nothing else. Blue moves first
in Damath, so Blue stands for the chess rules' White.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .model import BLUE, RED


@dataclass(frozen=True)
class ColourFacts:
    """A player's colour history in played games only (forfeits and byes are not games)."""

    pairing_number: int
    score: Fraction
    history: tuple[str, ...]  # BLUE / RED, oldest first

    @property
    def difference(self) -> int:
        return self.history.count(BLUE) - self.history.count(RED)

    def preference(self) -> tuple[str | None, int]:
        """(colour wanted, strength): 3 absolute, 2 strong, 1 mild, 0 none (C.04.3 A.6)."""
        if not self.history:
            return None, 0
        cd, last = self.difference, self.history[-1]
        other = RED if last == BLUE else BLUE
        # (one game: its 1-tuple never equals a pair)
        if cd > 1 or self.history[-2:] == (BLUE, BLUE):
            return RED, 3
        if cd < -1 or self.history[-2:] == (RED, RED):
            return BLUE, 3
        if cd == 1:
            return RED, 2
        if cd == -1:
            return BLUE, 2
        return other, 1


def allocate(
    a: ColourFacts, b: ColourFacts, initial_colour: str = BLUE
) -> tuple[ColourFacts, ColourFacts]:
    """(Blue, Red) for one pair, by the first of E.1–E.5 that decides."""
    (pa, sa), (pb, sb) = a.preference(), b.preference()
    # E.1: both preferences granted when they differ
    if pa and pb and pa != pb:
        return (a, b) if pa == BLUE else (b, a)
    # E.2: the stronger preference; two absolute ones: the wider colour difference
    if sa != sb:
        strong, pref = (a, pa) if sa > sb else (b, pb)
        weak = b if strong is a else a
        return (strong, weak) if pref == BLUE else (weak, strong)
    if sa == 3 and abs(a.difference) != abs(b.difference):
        wide, pref = (a, pa) if abs(a.difference) > abs(b.difference) else (b, pb)
        other = b if wide is a else a
        return (wide, other) if pref == BLUE else (other, wide)
    # E.3: alternate from the latest game in which they had different colours
    for ca, cb in zip(reversed(a.history), reversed(b.history), strict=False):
        if ca != cb:
            return (a, b) if ca == RED else (b, a)
    # E.4: the higher ranked player's preference (rank: score, then pairing number)
    a_first = (-a.score, a.pairing_number) < (-b.score, b.pairing_number)
    higher, lower = (a, b) if a_first else (b, a)
    pref = pa if higher is a else pb
    if pref:
        return (higher, lower) if pref == BLUE else (lower, higher)
    # E.5: the initial colour to an odd pairing number, the other to an even one
    odd = higher.pairing_number % 2 == 1
    gets_blue = (initial_colour == BLUE) == odd
    return (higher, lower) if gets_blue else (lower, higher)
