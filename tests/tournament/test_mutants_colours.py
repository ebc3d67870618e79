"""Who plays Blue at a Swiss table, against a reference written from the FIDE Dutch rules
(C.04.3 A.6 and E.1-E.5) apart from ``colours.py``: every pair of colour histories of up to
four played games each (late entries included, so of different lengths), with either player
ranked higher, odd and even pairing numbers and both initial colours."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from controller.tournament.colours import ColourFacts, allocate
from controller.tournament.model import BLUE, RED

ABSOLUTE, STRONG, MILD, NONE = 3, 2, 1, 0


def other(colour: str) -> str:
    return RED if colour == BLUE else BLUE


def wanted(history: tuple[str, ...]) -> tuple[str | None, int]:
    """A.6: the colour a player wants and how strongly, from the games played."""
    if not history:
        return None, NONE  # A.6.d: no game, no preference
    blue, red = history.count(BLUE), history.count(RED)
    # A.6.a: absolute when the colour difference is beyond one either way or the last two games
    # had the same colour. The text does not rank the two when they disagree (BBBBRR): here the
    # colour difference decides, as it does in colours.py.
    if blue - red > 1:
        return RED, ABSOLUTE
    if red - blue > 1:
        return BLUE, ABSOLUTE
    if len(history) >= 2 and history[-1] == history[-2]:
        return other(history[-1]), ABSOLUTE
    if blue - red == 1:  # A.6.b: strong
        return RED, STRONG
    if red - blue == 1:
        return BLUE, STRONG
    return other(history[-1]), MILD  # A.6.c: mild, alternate from the last game


def blue_of(a: dict, b: dict, initial: str) -> str:
    """The name ("a" or "b") of the player E.1-E.5 give Blue."""
    (ca, sa), (cb, sb) = wanted(a["history"]), wanted(b["history"])
    diff_a = abs(a["history"].count(BLUE) - a["history"].count(RED))
    diff_b = abs(b["history"].count(BLUE) - b["history"].count(RED))
    # E.1: both preferences granted, when both have one and they differ
    if ca is not None and cb is not None and ca != cb:
        return "a" if ca == BLUE else "b"
    # E.2: the stronger preference; of two absolute ones, the wider colour difference
    if sa > sb:
        return "a" if ca == BLUE else "b"
    if sb > sa:
        return "b" if cb == BLUE else "a"
    if sa == ABSOLUTE and diff_a > diff_b:
        return "a" if ca == BLUE else "b"
    if sb == ABSOLUTE and diff_b > diff_a:
        return "b" if cb == BLUE else "a"
    # E.3: alternate from the most recent game in which they had different colours (the games
    # each played, latest first)
    for x, y in zip(a["history"][::-1], b["history"][::-1], strict=False):
        if x != y:
            return "a" if x == RED else "b"
    # E.4: the preference of the higher ranked (more points, then the lower pairing number)
    higher = "a" if (a["score"], -a["number"]) > (b["score"], -b["number"]) else "b"
    lower = "b" if higher == "a" else "a"
    pref = ca if higher == "a" else cb
    if pref is not None:
        return higher if pref == BLUE else lower
    # E.5: the initial colour to the higher ranked when his pairing number is odd
    odd = (a if higher == "a" else b)["number"] % 2 == 1
    return higher if (initial == BLUE) == odd else lower


HISTORIES = [h for n in range(5) for h in itertools.product((BLUE, RED), repeat=n)]


def test_each_history_wants_the_colour_the_rules_give_it():
    for history in HISTORIES:
        facts = ColourFacts(1, Fraction(0), history)
        assert facts.preference() == wanted(history), history


@pytest.mark.parametrize("initial", [BLUE, RED])
def test_every_pair_of_histories_gets_the_colours_the_rules_give(initial):
    ranks = [  # (score, pairing number) of a and b
        ((Fraction(1), 1), (Fraction(1), 2)),
        ((Fraction(1), 4), (Fraction(1), 3)),
        ((Fraction(3, 2), 6), (Fraction(1), 5)),
        ((Fraction(0), 1), (Fraction(2), 8)),
    ]
    checked = 0
    for ha, hb in itertools.product(HISTORIES, repeat=2):
        for (sa, na), (sb, nb) in ranks:
            a = {"history": ha, "score": sa, "number": na}
            b = {"history": hb, "score": sb, "number": nb}
            fa, fb = ColourFacts(na, sa, ha), ColourFacts(nb, sb, hb)
            blue, red = allocate(fa, fb, initial)
            expected = (fa, fb) if blue_of(a, b, initial) == "a" else (fb, fa)
            assert (blue, red) == expected, (ha, hb, sa, na, sb, nb, initial)
            checked += 1
    assert checked == len(HISTORIES) ** 2 * len(ranks)


def test_two_absolute_preferences_for_the_same_colour_go_to_the_wider_difference():
    # E.2: a played Red, Red, Red (difference -3), b Blue, Red, Red (-1, but Red twice running):
    # both must have Blue; a's difference is the wider, so a gets it, whichever is ranked higher
    a = ColourFacts(2, Fraction(0), (RED, RED, RED))
    b = ColourFacts(1, Fraction(3), (BLUE, RED, RED))
    assert a.preference() == b.preference() == (BLUE, 3)
    assert allocate(a, b) == (a, b)
    assert allocate(b, a) == (a, b)
    c = ColourFacts(2, Fraction(0), (BLUE, BLUE, BLUE))
    d = ColourFacts(1, Fraction(3), (RED, BLUE, BLUE))
    assert allocate(c, d) == (d, c) and allocate(d, c) == (d, c)
