"""The tournament as the organiser and the arbiter run it: one object over the event's file.

Every change goes through here (the command line now, the hub's pages and its MQTT
assignments later), is checked against the event's rules, written in one transaction and
logged with who did it and, for a change of something already decided, why.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from .history import histories
from .model import (
    BLUE,
    PLAYED,
    RED,
    SYSTEMS,
    TIEBREAKS,
    Division,
    Event,
    GameResult,
    Pairing,
    Player,
    ResultRecord,
    TournamentError,
)
from .pairing import Pair, knockout_first, knockout_next, knockout_rounds, round_robin, swiss
from .roster import read_roster
from .standings import Standing, standings
from .store import Store, open_store

DEFAULT_DIVISION = "open"


def check_tiebreaks(order: Iterable[str]) -> tuple[str, ...]:
    out = tuple(order)
    for tb in out:
        if tb not in TIEBREAKS:
            raise TournamentError(f"unknown tie-break {tb!r}: one of {', '.join(TIEBREAKS)}")
    if len(set(out)) != len(out):
        raise TournamentError("a tie-break is named twice")
    return out


def check_division(d: Division) -> Division:
    if not d.name:
        raise TournamentError("a division needs a name")
    if d.system not in SYSTEMS:
        raise TournamentError(f"unknown system {d.system!r}: one of {', '.join(SYSTEMS)}")
    if d.rounds < 0 or (d.system == "swiss" and d.rounds < 1):
        raise TournamentError("a Swiss needs its number of rounds (--rounds N)")
    return d


class Tournament:
    def __init__(self, store: Store) -> None:
        self.store = store
        event = store.event()
        if event is None:
            raise TournamentError(f"{store.path}: the event was never created")
        self.event: Event = event

    # -- opening ----------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        folder: str | Path,
        event: Event,
        division: Division,
        by: str = "organiser",
    ) -> Tournament:
        """A new event in ``folder`` with its first division (more with ``set_division``)."""
        check_tiebreaks(event.tiebreaks)
        if not event.name.strip():
            raise TournamentError("the event needs a name")
        if event.initial_colour not in (BLUE, RED):
            raise TournamentError("the initial colour is blue or red")
        check_division(division)
        store = open_store(folder, create=True)
        if store.event() is not None:
            store.close()
            raise TournamentError(f"{folder}: an event already exists here ({store.path})")
        with store.transaction():
            store.save_event(event)
            store.save_division(division)
            store.log(by, "event-create", name=event.name)
        return cls(store)

    @classmethod
    def open(cls, folder: str | Path) -> Tournament:
        return cls(open_store(folder))

    def close(self) -> None:
        self.store.close()

    # -- the event --------------------------------------------------------------------------

    def update_event(self, by: str = "organiser", **changes: object) -> Event:
        if "tiebreaks" in changes:
            order = changes["tiebreaks"]
            if isinstance(order, str) or not isinstance(order, Iterable):
                raise TournamentError("the tie-breaks are a list of names")
            changes["tiebreaks"] = check_tiebreaks(str(x) for x in order)
        fields: dict[str, Any] = dict(changes)  # the command line and the pages give each its type
        new = replace(self.event, **fields)
        with self.store.transaction():
            self.store.save_event(new)
            self.store.log(by, "event-update", **{k: str(v) for k, v in changes.items()})
        self.event = new
        return new

    def divisions(self) -> dict[str, Division]:
        return self.store.divisions()

    def set_division(
        self, name: str, system: str = "swiss", rounds: int = 0, by: str = "organiser"
    ) -> Division:
        d = check_division(Division(name.strip(), system, rounds))
        if self.last_round(d.name):
            raise TournamentError(f"division {d.name!r} has started: its system is fixed")
        with self.store.transaction():
            self.store.save_division(d)
            self.store.log(by, "division", name=d.name, system=system, rounds=rounds)
        return d

    def division(self, name: str | None) -> Division:
        divisions = self.divisions()
        if name is None:
            used = {p.division for p in self.players().values()} or set(divisions)
            if len(used) > 1:
                raise TournamentError(
                    f"this event has divisions {', '.join(sorted(used))}: name one (--division)"
                )
            name = next(iter(used))
        if name not in divisions:
            raise TournamentError(
                f"no division {name!r}: the divisions are {', '.join(sorted(divisions))}"
            )
        return divisions[name]

    # -- players ----------------------------------------------------------------------------

    def players(self, division: str | None = None) -> dict[int, Player]:
        everyone = self.store.players()
        if division is None:
            return everyone
        return {pid: p for pid, p in everyone.items() if p.division == division}

    def player(self, ref: str | int) -> Player:
        """A player by number, or by a name that is unique in the event."""
        everyone = self.players()
        text = str(ref).strip()
        if text.isdigit() and int(text) in everyone:
            return everyone[int(text)]
        named = [p for p in everyone.values() if p.name.casefold() == text.casefold()]
        if len(named) == 1:
            return named[0]
        if len(named) > 1:
            raise TournamentError(f"{text!r}: several players have this name; use the number")
        raise TournamentError(f"no player {text!r} in this event (see `hub player list`)")

    def add_player(
        self,
        name: str,
        school: str = "",
        division: str = DEFAULT_DIVISION,
        rating: int | None = None,
        by: str = "organiser",
    ) -> Player:
        """A player, by hand; a late entry once the division has started (Swiss only)."""
        return self.add_players([(name, school, division, rating)], by)[0]

    def import_players(self, csv_text: str, by: str = "organiser") -> list[Player]:
        """Every player of a CSV list (``roster``), all or none."""
        entries = read_roster(csv_text)
        return self.add_players([(e.name, e.school, e.division, e.rating) for e in entries], by)

    def add_players(
        self, rows: Iterable[tuple[str, str, str, int | None]], by: str = "organiser"
    ) -> list[Player]:
        divisions = self.divisions()
        known = {(p.name.casefold(), p.division) for p in self.players().values()}
        new: list[Player] = []
        for name, school, division, rating in rows:
            name, school = name.strip(), school.strip()
            division = division.strip() or DEFAULT_DIVISION
            if not name:
                raise TournamentError("a player needs a name")
            if rating is not None and not 0 <= rating <= 4000:
                raise TournamentError(f"{name}: rating {rating} is not between 0 and 4000")
            if division not in divisions:
                raise TournamentError(
                    f"{name}: no division {division!r}; create it first with "
                    f"`damath-board hub division set {division} --system swiss --rounds N`"
                )
            if (name.casefold(), division) in known:
                raise TournamentError(f"{name} is already entered in division {division!r}")
            known.add((name.casefold(), division))
            d = divisions[division]
            started = self.last_round(division)
            if started and d.system != "swiss":
                raise TournamentError(
                    f"{name}: division {division!r} ({d.system}) has started: no late entries"
                )
            new.append(Player(0, name, school, division, rating, joined_round=started + 1))
        with self.store.transaction():
            added = []
            for p in new:
                pid = self.store.add_player(p)
                self.store.log(by, "player-add", player=pid, name=p.name, division=p.division)
                added.append(replace(p, id=pid))
        return added

    def withdraw(self, ref: str | int, by: str = "organiser", reason: str = "") -> Player:
        p = self.player(ref)
        if p.withdrawn_after is not None:
            raise TournamentError(f"{p.name} has already withdrawn")
        after = self.last_round(p.division)
        with self.store.transaction():
            self.store.set_withdrawn(p.id, after)
            self.store.log(by, "player-withdraw", player=p.id, after_round=after, reason=reason)
        return replace(p, withdrawn_after=after)

    def mark_absent(self, ref: str | int, rnd: int, by: str = "arbiter", reason: str = "") -> None:
        """A player who will miss one round (told before it is paired): not paired, no points."""
        p = self.player(ref)
        if rnd <= self.last_round(p.division):
            raise TournamentError(f"round {rnd} is already paired: record a forfeit instead")
        with self.store.transaction():
            self.store.add_absence(p.id, rnd)
            self.store.log(by, "player-absent", player=p.id, round=rnd, reason=reason)

    # -- pairings ---------------------------------------------------------------------------

    def pairings(self, division: str | None = None, rnd: int | None = None) -> list[Pairing]:
        return [
            p
            for p in self.store.pairings()
            if (division is None or p.division == division) and (rnd is None or p.round == rnd)
        ]

    def last_round(self, division: str) -> int:
        return max((p.round for p in self.pairings(division)), default=0)

    def total_rounds(self, division: str) -> int:
        d = self.division(division)
        n = len(self.players(division))
        if d.system == "swiss":
            return d.rounds
        if d.system == "knockout":
            return knockout_rounds(n)
        per_cycle = n + n % 2 - 1
        return d.rounds or per_cycle

    def _present(self, division: str, rnd: int) -> list[Player]:
        absent = {pid for pid, r in self.store.absences() if r == rnd}
        return [
            p
            for p in self.players(division).values()
            if p.joined_round <= rnd
            and (p.withdrawn_after is None or p.withdrawn_after >= rnd)
            and p.id not in absent
        ]

    @staticmethod
    def _seeded(players: Iterable[Player]) -> list[Player]:
        """Strongest first: rating (unrated last), then the order of entry."""
        return sorted(players, key=lambda p: (p.rating is None, -(p.rating or 0), p.id))

    def pair(
        self,
        rnd: int,
        division: str | None = None,
        by: str = "organiser",
        by_hand: list[tuple[int, int | None]] | None = None,
        reason: str = "",
    ) -> list[Pairing]:
        """The next round's pairings: by the division's system, or the arbiter's own
        (``by_hand``: (blue, red) player numbers, red None for the bye, with a reason)."""
        d = self.division(division)
        last = self.last_round(d.name)
        if rnd <= last:
            raise TournamentError(
                f"round {rnd} of division {d.name!r} is already paired"
                " (see `hub pairings`; the arbiter can change a pairing with a reason)"
            )
        if rnd != last + 1:
            raise TournamentError(f"division {d.name!r}: pair round {last + 1} first")
        total = self.total_rounds(d.name)
        if rnd > total:
            raise TournamentError(f"division {d.name!r} has {total} rounds; all are paired")
        results = self.results()
        done = self.pairings(d.name)
        histories(self.players(d.name), done, results, self.event.points, rnd)  # all in?
        if by_hand is None:
            pairs = self._pairs(d, rnd, done, results)
        else:
            if not reason.strip():
                raise TournamentError("pairing a round by hand needs a reason (--reason)")
            pairs = self._check_by_hand(d, rnd, by_hand, done)
        created: list[Pairing] = []
        with self.store.transaction():
            for table, (blue, red) in enumerate(pairs, start=1):
                pid = self.store.add_pairing(d.name, rnd, table, blue, red)
                created.append(Pairing(pid, d.name, rnd, table, blue, red))
            self._forfeit_withdrawn(created, by)
            self.store.log(
                by,
                "pair" if by_hand is None else "pair-by-hand",
                division=d.name,
                round=rnd,
                tables=len(created),
                reason=reason.strip(),
            )
        return created

    def _check_by_hand(
        self, d: Division, rnd: int, pairs: list[tuple[int, int | None]], done: list[Pairing]
    ) -> list[tuple[int, int | None]]:
        """The arbiter's own pairing: everyone present once, one bye at most; a rematch is the
        arbiter's call (it is in the logged pairing) but never a player against himself."""
        present = {p.id for p in self._present(d.name, rnd)}
        seen = [pid for pair in pairs for pid in pair if pid is not None]
        for pid in seen:
            if pid not in present:
                raise TournamentError(f"player {pid} is not playing in round {rnd} of {d.name!r}")
        if len(seen) != len(set(seen)):
            raise TournamentError("a player is paired twice")
        missing = sorted(present - set(seen))
        if missing:
            raise TournamentError(f"not paired: {', '.join(map(str, missing))}")
        if sum(1 for _, red in pairs if red is None) > 1:
            raise TournamentError("more than one bye")
        return pairs

    def _pairs(
        self, d: Division, rnd: int, done: list[Pairing], results: Mapping[int, GameResult]
    ) -> list[Pair]:
        if d.system == "swiss":
            present = self._seeded(self._present(d.name, rnd))
            if len(present) < 2:
                raise TournamentError(f"division {d.name!r}: fewer than 2 players to pair")
            ids = [p.id for p in present]
            past = histories(ids, done, results, self.event.points, rnd)
            return swiss(ids, past, rnd, d.rounds, self.event.initial_colour)
        everyone = [p.id for p in self._seeded(self.players(d.name).values())]
        if len(everyone) < 2:
            raise TournamentError(f"division {d.name!r}: fewer than 2 players to pair")
        if d.system == "round-robin":
            per_cycle = len(everyone) + len(everyone) % 2 - 1
            if d.rounds not in (0, per_cycle, 2 * per_cycle):
                raise TournamentError(
                    f"a round robin of {len(everyone)} has {per_cycle} rounds (or"
                    f" {2 * per_cycle} played twice), not {d.rounds}"
                )
            return round_robin(everyone, rnd, cycles=2 if d.rounds == 2 * per_cycle else 1)
        if rnd == 1:
            return knockout_first(everyone)
        return knockout_next([self._winner(p, results) for p in self.pairings(d.name, rnd - 1)])

    @staticmethod
    def _winner(p: Pairing, results: Mapping[int, GameResult]) -> int:
        r = results.get(p.id)
        if p.is_bye:
            return p.blue
        if r is None or r.outcome in ("draw", "double-forfeit"):
            raise TournamentError(
                f"knockout round {p.round}, table {p.table} has no winner: record the "
                "deciding game's winner (blue or red)"
            )
        if r.outcome in (BLUE, "blue-forfeit") or p.red is None:
            return p.blue
        return p.red

    def _forfeit_withdrawn(self, created: list[Pairing], by: str) -> None:
        """A withdrawn player's remaining round-robin or knockout games are forfeits."""
        players = self.players()
        for p in created:
            if p.is_bye:
                continue
            gone = [
                pid
                for pid in (p.blue, p.red)
                if players[pid].withdrawn_after is not None  # type: ignore[index]
                and players[pid].withdrawn_after < p.round  # type: ignore[index,operator]
            ]
            if gone:
                outcome = (
                    "double-forfeit"
                    if len(gone) == 2
                    else ("red-forfeit" if gone[0] == p.blue else "blue-forfeit")
                )
                self.store.add_result(p.id, GameResult(outcome, source="arbiter"), by, "withdrawn")

    def pairing(self, rnd: int, table: int, division: str | None = None) -> Pairing:
        d = self.division(division)
        for p in self.pairings(d.name, rnd):
            if p.table == table:
                return p
        if not self.pairings(d.name, rnd):
            raise TournamentError(f"round {rnd} of division {d.name!r} is not paired yet")
        raise TournamentError(f"round {rnd} of division {d.name!r} has no table {table}")

    def exchange(
        self, rnd: int, a: str | int, b: str | int, reason: str, by: str = "arbiter",
        division: str | None = None,
    ) -> list[Pairing]:  # fmt: skip
        """The arbiter swaps two players' seats in a paired round (the same table: their colours).
        Only before either game has a result; the reason is logged with the old pairings."""
        if not reason.strip():
            raise TournamentError("changing a pairing needs a reason (--reason)")
        pa, pb = self.player(a), self.player(b)
        if pa.id == pb.id:
            raise TournamentError("name two different players to exchange")
        d = self.division(division or pa.division)
        pairs = self.pairings(d.name, rnd)
        if not pairs:
            raise TournamentError(f"round {rnd} of division {d.name!r} is not paired yet")
        results = self.results()
        seat = {}
        for p in pairs:
            for side, pid in ((BLUE, p.blue), ("red", p.red)):
                if pid in (pa.id, pb.id):
                    seat[pid] = (p, side)
        for who in (pa, pb):
            if who.id not in seat:
                raise TournamentError(f"{who.name} is not paired in round {rnd}")
            if seat[who.id][0].id in results:
                raise TournamentError(
                    f"{who.name}'s game in round {rnd} has a result: correct the result instead"
                )
        (p1, s1), (p2, s2) = seat[pa.id], seat[pb.id]
        new: dict[int, list[int | None]] = {p1.id: [p1.blue, p1.red], p2.id: [p2.blue, p2.red]}
        new[p1.id][0 if s1 == BLUE else 1] = pb.id
        new[p2.id][0 if s2 == BLUE else 1] = pa.id
        if p1.id == p2.id:
            new[p1.id] = [p1.red, p1.blue]
        seats: dict[int, tuple[int, int | None]] = {}
        for pid, (blue, red) in new.items():
            if blue is None:
                raise TournamentError("a bye has no Red seat: exchange the bye's player instead")
            seats[pid] = (blue, red)
        with self.store.transaction():
            for pid, (blue, red) in seats.items():
                self.store.set_pairing_players(pid, blue, red)
            self.store.log(
                by,
                "pairing-change",
                round=rnd,
                division=d.name,
                before=[[p.table, p.blue, p.red] for p in {p1.id: p1, p2.id: p2}.values()],
                after=[[p.table, *new[p.id]] for p in {p1.id: p1, p2.id: p2}.values()],
                reason=reason.strip(),
            )
        return self.pairings(d.name, rnd)

    # -- results ----------------------------------------------------------------------------

    def result_records(self) -> list[ResultRecord]:
        return self.store.results()

    def results(self) -> dict[int, GameResult]:
        """The current result of every pairing that has one (its latest record)."""
        return {r.pairing: r.result for r in self.store.results()}

    def record_result(
        self, pairing_id: int, result: GameResult, by: str = "arbiter", reason: str = ""
    ) -> GameResult:
        """A result, or a correction of one (which needs a reason and keeps the old record)."""
        found = [p for p in self.pairings() if p.id == pairing_id]
        if not found:
            raise TournamentError(f"no pairing {pairing_id}: this game was never paired")
        p = found[0]
        if p.is_bye != (result.outcome == "bye"):
            raise TournamentError(
                f"round {p.round}, table {p.table} is "
                + ("a bye: its result is the bye" if p.is_bye else "a game, not a bye")
            )
        d = self.division(p.division)
        if d.system == "knockout" and result.outcome in ("draw", "double-forfeit"):
            raise TournamentError("a knockout game needs a winner (after its deciding game)")
        if result.outcome in PLAYED and result.blue_score is not None:
            _check_scores_agree(result)
        before = self.results().get(p.id)
        if before is not None and not reason.strip():
            raise TournamentError(
                f"round {p.round}, table {p.table} already has a result ({before.outcome}); "
                "a correction needs a reason (--reason)"
            )
        if before == result:
            raise TournamentError("this is already the recorded result")
        with self.store.transaction():
            self.store.add_result(p.id, result, by, reason.strip())
            self.store.log(
                by,
                "result-correct" if before else "result",
                pairing=p.id,
                round=p.round,
                table=p.table,
                outcome=result.outcome,
                before=before.outcome if before else None,
                reason=reason.strip(),
            )
        return result

    # -- standings --------------------------------------------------------------------------

    def standings(self, division: str | None = None) -> list[Standing]:
        d = self.division(division)
        return standings(
            list(self.players(d.name).values()),
            self.pairings(d.name),
            self.results(),
            self.event.points,
            self.event.tiebreaks,
        )

    def log(self) -> list[dict[str, Any]]:
        return self.store.log_entries()


def _check_scores_agree(result: GameResult) -> None:
    """With Damath scores, a win goes to the higher score and a draw has equal scores, unless the
    arbiter recorded it or the board's own sheet says so (a loss on time, a resignation or a
    rule can go against the score: the board's rules engine decided it)."""
    from .damath_scores import cmp

    if result.source in ("arbiter", "board"):
        return
    c = cmp(result.blue_score, result.red_score)  # type: ignore[arg-type]
    expected = BLUE if c > 0 else "red" if c < 0 else "draw"
    if expected != result.outcome:
        raise TournamentError(
            f"the scores say {expected}, the result says {result.outcome}: check the sheet "
            "(an arbiter's decision against the scores is recorded with --by-arbiter)"
        )
