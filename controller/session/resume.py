"""A Damath game read back from its journal after a restart, record by record through the
session's one ``apply``. Damage is reported in the session's ``problems`` and what was good is
resumed; a record that does not fit (a record before it was lost) is bridged when exactly one
move (or one takeback) makes every later move fit, and otherwise play resumes before it."""

from __future__ import annotations

from typing import Any

from controller.i18n import _
from controller.record.check import record_problem, start_ok
from controller.record.journal_file import JournalLoad
from controller.rules.game import Ending, Game, IllegalMove
from controller.rules.move import Move
from controller.tracker import Tracker

from . import texts
from .host import ResumeHost
from .journal import JournalError
from .kinds import Phase

Record = dict[str, Any]


def resume(s: ResumeHost, loaded: JournalLoad, t: float) -> None:
    """The game in ``loaded``, replayed record by record; damage reported, the good resumed."""
    s.problems.extend(loaded.problems)
    if loaded.saved_as:
        s.problems.append(
            _("the damaged journal was kept as {saved_as}").format(saved_as=loaded.saved_as)
        )
    records = loaded.records
    if loaded.existed and not records and not loaded.problems:
        s.problems.append(_("the journal was empty (nothing had been saved): a new game"))
    starts = [i for i, r in enumerate(records) if start_ok(r)]
    if not starts:
        if records:
            s.problems.append(_("the journal has no start record; new game"))
        s.begin(t)
        s.message = s.problems[0] if s.problems else ""
        return
    first = starts[-1]
    config = s.config  # the replay replaces it with the journal's, which may be the fault
    try:
        kept, ending = replay(s, records[first:], t)
    except Exception as exc:  # whatever is in the file, the board starts (and says why)
        reason = str(exc)[:120] or type(exc).__name__
        problems = [
            *s.problems,
            _("the journal cannot be resumed ({reason}); new game").format(reason=reason),
        ]
        s.fresh(type(config)(**{**config.__dict__, "position": None}))
        s.problems = problems
        s.begin(t)
    else:
        if loaded.problems and s.journal is not None:
            # the journal now holds exactly what was resumed; the damaged copy keeps all
            try:
                s.journal.replace(records[:first] + kept)
            except JournalError as exc:
                s.problems.append(str(exc))
        if ending is not None:  # the power went between the last move and its "end"
            s.end_game(t, ending.reason, ending.side)
    if s.problems:
        s.message = s.problems[0]


def replay(s: ResumeHost, records: list[Record], t: float) -> tuple[list[Record], Ending | None]:
    """Rebuild the game from its records; returns the records resumed and the board's ending
    if the game ended before its "end" record was written.

    Every move record must fit: its ``ply`` is the game's ply and its path is legal. One that
    does not fit means a record before it was lost (damaged) or is not what the board wrote.
    """
    s.apply(records[0])
    kept: list[Record] = [records[0]]
    n = 1
    while n < len(records):
        rec = records[n]
        seq = rec.get("seq")
        label = _("journal record {value}").format(
            value=seq if type(seq) is int and 0 < seq < 10**9 else n + 1
        )
        problem = record_problem(rec) or setting_problem(s, rec)
        if problem:
            s.problems.append(
                _("{label}: {problem}; skipped it").format(label=label, problem=problem)
            )
            n += 1
            continue
        kind = rec["k"]
        if kind in ("move", "takeback") and not fits_here(s.game, rec):
            found = bridge(s.game, records[n:], s.state.reading)
            if found is None:
                later = sum(1 for r in records[n:] if r.get("k") == "move")
                s.problems.append(
                    _(
                        "{label} does not fit the game: a record before it was lost; resumed "
                        "before it ({later} later move(s) kept only in the damaged copy)"
                    ).format(label=label, later=later)
                )
                break
            s.problems.append(f"{label}: {found['why']}")
            del found["why"]
            records = [*records[:n], found, *records[n:]]
            continue  # apply the bridge, then this record again
        s.apply(rec)
        kept.append(rec)
        n += 1
    reading = s.state.reading
    s.clocks.restore(reading[0] / 1000, reading[1] / 1000)
    s.tracker = Tracker(s.game, s.settings, mode="restore" if s.phase != Phase.SETUP else "setup")
    if s.phase == Phase.PLAY:  # the chips must be seen where the game has them
        s.phase = Phase.RESTORE
    ending = s.game.ending() if s.phase == Phase.RESTORE else None
    if s.phase == Phase.RESTORE:
        s.say(texts.RESTART)
    s.log_event(t, "resumed", {"ply": s.game.ply, "phase": s.phase})
    return kept, ending


def setting_problem(s: ResumeHost, rec: Record) -> str | None:
    """A "play" record the board could not have written in this game: practice and the
    clocks are chosen with a new game, and a practice help is refused outside practice
    (``set_play`` writes neither)."""
    if rec["k"] != "play":
        return None
    new = s.play.with_changes(rec["play"])
    if (new.practice, new.clocks) != (s.play.practice, s.play.clocks):
        return _("practice and the clocks are chosen with a new game, not during one")
    try:
        type(s.config)(**{**s.config.__dict__, "play": new.json()})
    except ValueError as exc:
        return str(exc)[:120]
    return None


def bridge(game: Game, rest: list[Record], clock: tuple[int, int]) -> Record | None:
    """The one record (a move, or a takeback) that makes every move record in ``rest`` fit
    the game, or None when there is none or more than one. ``game`` is left as it was."""
    first = rest[0]
    diff = first["ply"] - game.ply
    found: list[Record] = []
    base = {"t": first["t"], "game_ms": clock[0], "move_ms": clock[1], "recovered": True}
    if diff == 1:
        for move in game.legal_moves():
            game.push(move)
            try:
                fits = all_fit(game, rest)
            finally:
                game.pop()
            if fits:
                path = [list(sq) for sq in move.path]
                found.append({"k": "move", "ply": game.ply, "path": path, **base})
                if len(found) > 1:
                    return None
    elif diff == -1 and game.ply:
        undone = game.pop()
        try:
            fits = all_fit(game, rest)
        finally:
            game.push(undone)
        if fits:
            found.append({"k": "takeback", "ply": game.ply - 1, **base})
    if len(found) != 1:
        return None
    record = found[0]
    what = (
        _("the move {join}").format(join="-".join(f"{x},{y}" for x, y in record["path"]))
        if record["k"] == "move"
        else "a takeback"
    )
    record["why"] = _(
        "the record before it was lost; it can only have been {what} (the one that makes "
        "every later move fit): restored it"
    ).format(what=what)
    return record


def fits_here(game: Game, rec: Record) -> bool:
    """A move record whose ply is the game's and whose path is legal; a takeback whose ply is
    one less than the game's."""
    if rec["k"] == "takeback":
        return bool(rec["ply"] == game.ply - 1)
    if rec["ply"] != game.ply:
        return False
    try:
        game.find_move([(sq[0], sq[1]) for sq in rec["path"]])
    except IllegalMove:
        return False
    return True


def all_fit(game: Game, records: list[Record]) -> bool:
    """Every move and takeback in ``records`` fits ``game`` in turn; ``game`` is left as it
    was (each step is undone)."""
    undo: list[Move | None] = []  # None: a push to pop; a Move: a pop to push back
    try:
        for rec in records:
            if record_problem(rec) or rec["k"] not in ("move", "takeback"):
                continue
            if not fits_here(game, rec):
                return False
            if rec["k"] == "move":
                game.push(game.find_move([(sq[0], sq[1]) for sq in rec["path"]]))
                undo.append(None)
            else:
                undo.append(game.pop())
        return True
    finally:
        for step in reversed(undo):
            if step is None:
                game.pop()
            else:
                game.push(step)
