"""One round's pairs for each system: Swiss (FIDE Dutch), round robin (Berger tables), knockout.

Swiss and round robin come from caissify-pairings (a pairing engine made for the job, checked
against bbpPairings' reference tournaments and the FIDE Berger tables: docs/tournament.md).
Its output is checked before it is used: every player present is paired exactly once, no pair
meets twice, at most one bye. Colours in a Swiss are decided by ``colours`` (the engine's own
colour choice ranks players wrongly in one rule). Knockout brackets are not in the engine:
they are the usual seeded bracket, written here.

A pair is ``(blue, red)``; ``red is None`` is a bye.
"""

from __future__ import annotations

import importlib
import logging
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from .colours import ColourFacts, allocate
from .history import PlayerHistory
from .model import BLUE, TournamentError

Pair = tuple[int, int | None]

_MISSING_ENGINE = (
    "pairings need the pairing engine caissify-pairings: install the hub's lock once "
    "(./run.sh hub --help)"
)


def _engine() -> Any:
    # imported by name: the engine ships no type information (mypy would stop at it)
    try:
        caissify_pairings = importlib.import_module("caissify_pairings")
    except ImportError:
        raise TournamentError(_MISSING_ENGINE) from None
    # its warnings (e.g. "multiple forced byes") become our one message, not stray lines
    logging.getLogger("caissify_pairings").addHandler(logging.NullHandler())
    return caissify_pairings


def swiss(
    seeds: Sequence[int],
    past: Mapping[int, PlayerHistory],
    round_no: int,
    total_rounds: int,
    initial_colour: str = BLUE,
) -> list[Pair]:
    """FIDE Dutch pairs for the players in ``seeds`` (strongest first: their pairing numbers)."""
    engine = _engine()
    number = {pid: i for i, pid in enumerate(seeds, start=1)}
    # (no name, no rating: the engine's defaults, which it never reads for pairing)
    players = [
        {
            "id": pid,
            "score": float(past[pid].score),
            "starting_number": number[pid],
            "pairing_number": number[pid],
            "color_hist": ["white" if c == BLUE else "black" for c in past[pid].colours],
            "float_history": list(past[pid].floats),
            "bye_count": past[pid].byes,
            "forfeit_win_count": past[pid].forfeit_wins,
        }
        for pid in seeds
    ]
    previous = {(min(a, b), max(a, b)) for a in seeds for b in past[a].opponents if b in number}
    with warnings.catch_warnings():
        warnings.simplefilter("error", engine.MissingFloatHistoryWarning)
        raw = _ask(
            engine,
            system="dutch",
            players=players,
            previous_pairings=previous,
            round_number=round_no,
            total_rounds=max(total_rounds, round_no),
            initial_color="white" if initial_colour == BLUE else "black",
        )
    pairs = _from_engine(raw)
    check(pairs, seeds, previous)
    facts = {
        pid: ColourFacts(number[pid], past[pid].score, tuple(past[pid].colours)) for pid in seeds
    }
    out: list[Pair] = []
    for a, b in pairs:
        if b is None:
            out.append((a, None))
            continue
        blue, red = allocate(facts[a], facts[b], initial_colour)
        out.append((seeds[blue.pairing_number - 1], seeds[red.pairing_number - 1]))
    return out


def round_robin(seeds: Sequence[int], round_no: int, cycles: int = 1) -> list[Pair]:
    """Berger table pairs of ``round_no``; ``seeds`` in Berger number order (1, 2, …)."""
    engine = _engine()
    n = len(seeds) + len(seeds) % 2
    last = (n - 1) * cycles
    if not 1 <= round_no <= last:
        raise TournamentError(
            f"a round robin of {len(seeds)} players has rounds 1 to {last}, not {round_no}"
        )
    players = [{"id": pid, "starting_number": i} for i, pid in enumerate(seeds, start=1)]
    raw = _ask(
        engine,
        system="round_robin",
        players=players,
        previous_pairings=set(),
        round_number=round_no,
        total_rounds=last,
        cycles=cycles,
    )
    pairs = _from_engine(raw)
    check(pairs, seeds, set())
    return pairs


def _ask(engine: Any, **request: Any) -> list[dict[str, Any]]:
    """The engine's answer; its failure becomes the organiser's message, not a traceback."""
    try:
        answer: list[dict[str, Any]] = engine.generate_pairings(**request)
        return answer
    except Exception as exc:  # a third-party engine: any failure is one message
        raise TournamentError(
            f"the pairing engine could not pair this round ({type(exc).__name__}: {exc}); "
            "pair it by hand (pair --by-hand)"
        ) from None


def _from_engine(raw: list[dict[str, Any]]) -> list[Pair]:
    ordered = sorted(raw, key=lambda p: (bool(p.get("bye")), p.get("table", 0)))
    return [(int(p["white_id"]), None if p.get("bye") else int(p["black_id"])) for p in ordered]


def check(pairs: Sequence[Pair], seeds: Sequence[int], previous: set[tuple[int, int]]) -> None:
    """Refuse an engine answer that breaks a rule the event relies on."""
    seen: list[int] = [pid for pair in pairs for pid in pair if pid is not None]
    if sorted(seen) != sorted(seeds):
        raise TournamentError(
            "the pairing engine did not pair every player exactly once; pair it with pair --by-hand"
        )
    if sum(1 for _, b in pairs if b is None) > len(seeds) % 2:
        raise TournamentError(
            "no pairing of this round avoids a rematch (the pairing engine left players "
            "unpaired): pair it with pair --by-hand, or end the event a round earlier"
        )
    for a, b in pairs:
        if b is not None and (min(a, b), max(a, b)) in previous:
            raise TournamentError(
                f"the pairing engine paired {a} and {b} a second time; pair it with pair --by-hand"
            )


# --------------------------------------------------------------------------------------------
# Knockout


def bracket_order(size: int) -> list[int]:
    """Seed numbers in bracket slot order, so seeds 1 and 2 can only meet in the final:
    ``[1, 8, 4, 5, 2, 7, 3, 6]`` for 8."""
    order = [1]
    while len(order) < size:
        n = len(order) * 2
        order = [s for seed in order for s in (seed, n + 1 - seed)]
    return order


def knockout_first(seeds: Sequence[int]) -> list[Pair]:
    """Round 1 of a seeded bracket, in bracket order (tables 1, 2, … feed the next round in
    pairs): the top seeds get the byes when the field is not a power of 2."""
    size = 1
    while size < len(seeds):
        size *= 2
    slots = bracket_order(size)
    pairs: list[Pair] = []
    for i in range(0, size, 2):
        a, b = slots[i], slots[i + 1]
        top, bottom = min(a, b), max(a, b)
        if bottom > len(seeds):
            pairs.append((seeds[top - 1], None))
        else:
            pairs.append((seeds[top - 1], seeds[bottom - 1]))
    return pairs


def knockout_next(winners_in_bracket_order: Sequence[int]) -> list[Pair]:
    """The next round: winners of neighbouring matches meet; the upper one plays Blue."""
    w = list(winners_in_bracket_order)
    if len(w) < 2:
        raise TournamentError("the knockout is over: it has a winner")
    return [(w[i], w[i + 1]) for i in range(0, len(w), 2)]


def knockout_rounds(players: int) -> int:
    rounds, size = 0, 1
    while size < players:
        size, rounds = size * 2, rounds + 1
    return rounds
