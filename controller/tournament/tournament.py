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

from .games import DAMATH, check_game_scores, tiebreaks_for, tournament_game
from .history import histories
from .model import (
    BLUE,
    PLAYED,
    RED,
    START_RULES,
    SYSTEMS,
    TIEBREAKS,
    Division,
    Event,
    GameResult,
    Pairing,
    Player,
    ResultRecord,
    RoundProgress,
    TournamentError,
)
from .pairing import Pair, knockout_first, knockout_next, knockout_rounds, round_robin, swiss
from .roster import read_roster
from .standings import Standing, standings
from .store import Store, open_store

DEFAULT_DIVISION = "open"
PlayerRow = tuple[str, str, str, int | None] | tuple[str, str, str, int | None, str]
"""A player to add: name, school, division, rating, and the grade when it is known."""


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
    tournament_game(d.game)
    if d.rounds < 0 or (d.system == "swiss" and d.rounds < 1):
        raise TournamentError(
            "a Swiss needs its number of rounds", cli="--rounds N", desk="fill in Rounds"
        )
    return d


def check_event(e: Event) -> Event:
    """The event's settings that are not free text, checked (creating it or changing it)."""
    check_tiebreaks(e.tiebreaks)
    if not e.name.strip():
        raise TournamentError("the event needs a name")
    if e.initial_colour not in (BLUE, RED):
        raise TournamentError("the initial colour is blue or red")
    if e.start not in START_RULES:
        raise TournamentError(
            f"the clocks start at the desk's start or at each table's confirmation: "
            f"{' or '.join(START_RULES)}, not {e.start!r}"
        )
    if (
        isinstance(e.team_size, bool)
        or not isinstance(e.team_size, int)
        or not 0 <= e.team_size <= 20
    ):
        raise TournamentError(
            f"a school's team counts its best 1 to 20 players (0: no team ranking), "
            f"not {e.team_size!r}"
        )
    return e


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
        check_event(event)
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
        new = check_event(replace(self.event, **fields))
        with self.store.transaction():
            self.store.save_event(new)
            self.store.log(by, "event-update", **{k: str(v) for k, v in changes.items()})
        self.event = new
        return new

    def divisions(self) -> dict[str, Division]:
        return self.store.divisions()

    def set_division(
        self,
        name: str,
        system: str = "swiss",
        rounds: int = 0,
        by: str = "organiser",
        game: str | None = None,
    ) -> Division:
        """A new division, or a change before it starts. ``game`` None keeps a division's game
        (a new one plays Damath)."""
        before = self.divisions().get(name.strip())
        if game is None:
            game = before.game if before is not None else DAMATH
        d = check_division(Division(name.strip(), system, rounds, tournament_game(game).name))
        if self.last_round(d.name):
            raise TournamentError(
                f"division {d.name!r} has started: its system and its game are fixed"
            )
        with self.store.transaction():
            self.store.save_division(d)
            self.store.log(by, "division", name=d.name, system=system, rounds=rounds, game=d.game)
        return d

    def event_for(self, division: str | None = None) -> Event:
        """The event as a division's game reads it: the tie-breaks its game has (no score
        tie-break for a game without scores) and the way its scores are written."""
        d = self.division(division)
        game = tournament_game(d.game)
        return replace(
            self.event,
            tiebreaks=tiebreaks_for(d.game, self.event.tiebreaks),
            variant=game.score_variant(self.event.variant),
        )

    def division(self, name: str | None) -> Division:
        divisions = self.divisions()
        if name is None:
            used = {p.division for p in self.players().values()} or set(divisions)
            if len(used) > 1:
                raise TournamentError(
                    f"this event has divisions {', '.join(sorted(used))}: name one",
                    cli="--division",
                    desk="choose the division",
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
        """A player by number, by full name, or by a part of the name that only one player's
        name has (``Paolo`` for Paolo Reyes, ``reyes``): letters' case and accents aside."""
        everyone = self.players()
        text = str(ref).strip()
        if text.isdigit() and int(text) in everyone:
            return everyone[int(text)]
        found = find_players(everyone.values(), text)
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            if _folded(" ".join(found[0].name.split())) == _folded(" ".join(text.split())):
                # the same full name twice (two divisions): only the number tells them apart
                raise TournamentError(f"{text!r}: several players have this name; use the number")
            names = ", ".join(f"{p.name} ({p.id})" for p in found[:6])
            raise TournamentError(f"{text!r} could be {names}: give the number or the full name")
        raise TournamentError(
            f"no player {text!r} in this event", cli="see `hub player list`", desk="see Players"
        )

    def add_player(
        self,
        name: str,
        school: str = "",
        division: str = DEFAULT_DIVISION,
        rating: int | None = None,
        by: str = "organiser",
        grade: str = "",
    ) -> Player:
        """A player, by hand; a late entry once the division has started (Swiss only)."""
        return self.add_players([(name, school, division, rating, grade)], by)[0]

    def import_players(self, csv_text: str, by: str = "organiser") -> list[Player]:
        """Every player of a CSV list (``roster``), all or none."""
        entries = read_roster(csv_text)
        return self.add_players(
            [(e.name, e.school, e.division, e.rating, e.grade) for e in entries], by
        )

    def add_players(self, rows: Iterable[PlayerRow], by: str = "organiser") -> list[Player]:
        """Players all or none: ``(name, school, division, rating[, grade])`` each (the grade
        came later; rows without it, as scripts and benches write them, have none)."""
        divisions = self.divisions()
        known = {(p.name.casefold(), p.division) for p in self.players().values()}
        new: list[Player] = []
        for row in rows:
            name, school, division, rating = row[:4]
            grade = row[4] if len(row) > 4 else ""
            name, school, grade = name.strip(), school.strip(), grade.strip()
            division = division.strip() or DEFAULT_DIVISION
            if not name:
                raise TournamentError("a player needs a name")
            _check_names(name, school)
            _check_rating(name, rating)
            _check_grade(name, grade)
            if division not in divisions:
                raise TournamentError(
                    f"{name}: no division {division!r}; create it first",
                    cli=f"`damath-board hub division set {division} --system swiss --rounds N`",
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
            new.append(
                Player(0, name, school, division, rating, joined_round=started + 1, grade=grade)
            )
        with self.store.transaction():
            added = []
            for p in new:
                pid = self.store.add_player(p)
                self.store.log(by, "player-add", player=pid, name=p.name, division=p.division)
                added.append(replace(p, id=pid))
        return added

    def edit_player(
        self,
        ref: str | int,
        by: str = "organiser",
        reason: str = "",
        *,
        name: str | None = None,
        school: str | None = None,
        grade: str | None = None,
        rating: int | str | None = "",
    ) -> Player:
        """A misspelt name, a wrong school, grade or rating corrected (``None`` or, for the
        rating, ``""``: unchanged; a rating of ``None`` clears it). The log keeps what it was.
        The pairings follow the player's number, so nothing else changes: the pages, the
        printed lists and the archive's sheets use the new name (a board keeps the one it was
        sent for the game it plays)."""
        p = self.player(ref)
        new = replace(
            p,
            name=p.name if name is None else name.strip(),
            school=p.school if school is None else school.strip(),
            grade=p.grade if grade is None else grade.strip(),
            rating=p.rating if rating == "" else rating,  # type: ignore[arg-type]
        )
        if not new.name:
            raise TournamentError("a player needs a name")
        _check_names(new.name, new.school)
        _check_rating(new.name, new.rating)
        _check_grade(new.name, new.grade)
        twin = [
            q
            for q in self.players(p.division).values()
            if q.id != p.id and q.name.casefold() == new.name.casefold()
        ]
        if twin:
            raise TournamentError(f"{new.name} is already entered in division {p.division!r}")
        if new == p:
            raise TournamentError(f"nothing to change for {p.name}")
        changed = {
            key: {"before": getattr(p, key), "after": getattr(new, key)}
            for key in ("name", "school", "grade", "rating")
            if getattr(p, key) != getattr(new, key)
        }
        with self.store.transaction():
            self.store.update_player(new)
            self.store.log(by, "player-edit", player=p.id, reason=reason.strip(), **changed)
        return new

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

    def progress(self, division: str) -> RoundProgress:
        """The last complete round and the one under way (paired, a result missing): a round
        only paired is not over, whatever ``last_round`` says."""
        last = self.last_round(division)
        if not last:
            return RoundProgress(0)
        results = self.results()
        pairs = self.pairings(division, last)
        done = sum(1 for p in pairs if p.id in results)
        if done == len(pairs):
            return RoundProgress(last)
        return RoundProgress(last - 1, last, done, len(pairs))

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
                f"round {rnd} of division {d.name!r} is already paired",
                cli="see `hub pairings`; the arbiter can change a pairing with a reason",
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
                raise TournamentError("pairing a round by hand needs a reason", cli="--reason")
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
            raise TournamentError("changing a pairing needs a reason", cli="--reason")
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
        check_game_scores(d.game, result.blue_score, result.red_score)
        if result.outcome in PLAYED and result.blue_score is not None:
            _check_scores_agree(result)
        before = self.results().get(p.id)
        if before is not None and not reason.strip():
            raise TournamentError(
                f"round {p.round}, table {p.table} already has a result ({before.outcome}); "
                "a correction needs a reason",
                cli="--reason",
                desk="fill in Reason",
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
            tiebreaks_for(d.game, self.event.tiebreaks),
        )

    def log(self) -> list[dict[str, Any]]:
        return self.store.log_entries()


def _check_scores_agree(result: GameResult) -> None:
    """With scores (Damath's, or Mathematical Chess's points at the time limit: C-11), a win goes
    to the higher score and a draw has equal scores, unless the arbiter recorded it or the
    board's own sheet says so (a loss on time, a resignation or a rule can go against the
    score: the board's rules engine decided it)."""
    from .damath_scores import cmp

    if result.source in ("arbiter", "board"):
        return
    c = cmp(result.blue_score, result.red_score)  # type: ignore[arg-type]
    expected = BLUE if c > 0 else "red" if c < 0 else "draw"
    if expected != result.outcome:
        raise TournamentError(
            f"the scores say {expected}, the result says {result.outcome}: check the sheet",
            cli="an arbiter's decision against the scores is recorded with --by-arbiter",
            desk="an arbiter's decision against the scores: tick "
            "“arbiter's decision against the scores”",
        )


def _check_rating(name: str, rating: int | None) -> None:
    if rating is not None and not 0 <= rating <= 4000:
        raise TournamentError(f"{name}: rating {rating} is not between 0 and 4000")


NAME_LENGTH = 60
"""A name or a school, as the federation's registry bounds them: every page, sheet and list
holds it (a 10,000-character name filled them)."""


def _check_names(name: str, school: str) -> None:
    """A name and a school of at most ``NAME_LENGTH`` characters, without control or format
    characters (a BEL, a NUL, U+202E that turns the text after it around on every page)."""
    import unicodedata

    for what, text in (("a name", name), ("a school", school)):
        shown = "".join(c for c in text[:40] if not unicodedata.category(c).startswith("C"))
        if len(text) > NAME_LENGTH:
            raise TournamentError(f"{shown}…: {what} has at most {NAME_LENGTH} characters")
        if any(unicodedata.category(c).startswith("C") for c in text):
            raise TournamentError(f"{shown!r}: {what} may not hold control or direction characters")


def _check_grade(name: str, grade: str) -> None:
    if len(grade) > 20:
        raise TournamentError(f"{name}: a grade or year of at most 20 characters (“Grade 6”)")


def _folded(text: str) -> str:
    """For finding a name: case and accents aside (``Niño`` is found as ``nino``)."""
    import unicodedata

    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def find_players(players: Iterable[Player], text: str) -> list[Player]:
    """The players ``text`` names: those whose full name it is; else those whose name has
    every word of it as the start of a word (``Paolo``, ``paolo r``, ``Reyes``)."""
    wanted = _folded(" ".join(text.split()))
    if not wanted:
        return []
    everyone = list(players)
    exact = [p for p in everyone if _folded(" ".join(p.name.split())) == wanted]
    if exact:
        return exact
    words = wanted.split()
    out = []
    for p in everyone:
        own = _folded(p.name).replace("-", " ").split()
        if all(any(w.startswith(x) for w in own) for x in words):
            out.append(p)
    return out
