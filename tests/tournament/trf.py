"""A reader of the FIDE TRF16 player lines the reference tournaments use (fixed columns)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from controller.tournament.model import GameResult, Pairing

FIXTURES = Path(__file__).parent / "fixtures"

# TRF result codes, from the point of view of the player on the line
_PLAYED = {"1": "win", "0": "loss", "=": "draw"}


@dataclass(frozen=True)
class Entry:
    opponent: int | None
    colour: str  # "w", "b" or "-"
    code: str


@dataclass
class TrfEvent:
    rounds: dict[int, dict[int, Entry]]  # round -> player -> entry
    players: list[int]  # by starting number (the pairing order)


def read(name: str) -> TrfEvent:
    rounds: dict[int, dict[int, Entry]] = {}
    players = []
    for line in (FIXTURES / name).read_text().splitlines():
        if not line.startswith("001"):
            continue
        sn = int(line[4:8])
        players.append(sn)
        rest = line[91:]
        for i in range(0, len(rest), 10):
            cell = rest[i : i + 8]
            if len(cell.strip()) == 0:
                continue
            opp, colour, code = int(cell[0:4]), cell[5], cell[7]
            rounds.setdefault(i // 10 + 1, {})[sn] = Entry(opp or None, colour, code)
    return TrfEvent(rounds, sorted(players))


def as_records(event: TrfEvent, upto: int) -> tuple[list[Pairing], dict[int, GameResult]]:
    """Rounds 1 .. upto - 1 as this project's pairings and results (Blue = White)."""
    pairings: list[Pairing] = []
    results: dict[int, GameResult] = {}
    for rnd in range(1, upto):
        done: set[int] = set()
        for sn, e in sorted(event.rounds[rnd].items()):
            if sn in done or (e.code in "ZHF" and e.opponent is None):
                continue
            pid = len(pairings) + 1
            if e.opponent is None:
                pairings.append(Pairing(pid, "open", rnd, len(pairings) + 1, sn, None))
                results[pid] = GameResult("bye")
                done.add(sn)
                continue
            blue, red = (sn, e.opponent) if e.colour == "w" else (e.opponent, sn)
            mine = e.code
            blue_code = mine if blue == sn else event.rounds[rnd][blue].code
            outcome = {
                "1": "blue",
                "0": "red",
                "=": "draw",
                "+": "blue-forfeit",
                "-": "red-forfeit",
            }[blue_code]
            if blue_code == "-" and event.rounds[rnd][red].code == "-":
                outcome = "double-forfeit"
            pairings.append(Pairing(pid, "open", rnd, len(pairings) + 1, blue, red))
            results[pid] = GameResult(outcome)
            done.update((blue, red))
    return pairings, results


def present(event: TrfEvent, rnd: int) -> list[int]:
    """Players paired by the engine in round ``rnd`` (not absent with a Z, H or F bye)."""
    return [
        sn
        for sn in event.players
        if sn in event.rounds[rnd]
        and not (event.rounds[rnd][sn].opponent is None and event.rounds[rnd][sn].code in "ZHF")
    ]


def reference_pairs(event: TrfEvent, rnd: int) -> set[tuple[int, int | None]]:
    out: set[tuple[int, int | None]] = set()
    for sn, e in event.rounds[rnd].items():
        if e.opponent is None:
            if e.code == "U":
                out.add((sn, None))
        elif e.colour == "w":
            out.add((sn, e.opponent))
    return out
