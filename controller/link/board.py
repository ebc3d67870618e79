"""The link as a board's runtime uses it (``run``, ``sim``, ``demo``): beside the session, never in
its way.

``BoardLink.after_step`` is called by the scan loop after every pass. It costs a comparison of
two integers per pass: when the journal has grown (or a game was archived) it nudges the link,
whose own thread reads and publishes the new records; the board never waits on the network.
Twice a second it also looks at the hub's assignment: a new one is put on the session as the
game's players, round and table (journaled like any entry of the arbiter's, so the display, the
sheet and the game record carry them), as long as no move of the game is played yet: a game in
progress keeps its players, and the assignment waits for the next game; the session then waits
for the table to be confirmed (docs/tournament.md). A tournament game (the hub runs a tournament,
or the assignment carries the event's start rule) has its clocks held at full time until the
round starts (``Session.hold_clocks``): the desk's start, the table's confirmation, or the
board's arbiter holding Confirm. An assignment of another game than the board's (a table of
another game's division) is refused, whatever the game: it is never put on the game nor on a
record, and the board shows one line saying so (``refused``) while it holds it. At the same
pace it carries out the arbiter's desk's last command (pause, resume, start), once. Another
game's board is driven the same way through its table (``games.desk.TableDesk``: no clocks,
its first move held; ``Driven`` names what the link asks of either). Once a
second it looks at the link's last error, so a refused credential is said once, not at every
retry.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.i18n import _, ngettext, side_word
from controller.record.games import DAMATH
from controller.session.linked import Linked

from .config import load
from .publisher import CONNECT_ERRORS, Link

Driven = Linked
"""What the link drives on a board: Damath's session, or another game's table
(``games.desk.TableDesk``, which names its game in ``link_game``): ``session/linked.py``."""
Session = Driven

log = logging.getLogger("damath-board.link")
ASSIGNMENT_EVERY = 0.5
STATUS_EVERY = 1.0
Say = Callable[[str], None]


def assignment_line(assignment: dict[str, Any] | None) -> str:
    """``Table 7 · Round 2 · Ana (Blue) vs Ben (Red)``: what the board shows of its assignment."""
    if not assignment:
        return ""
    parts = []
    if assignment.get("table") not in (None, ""):
        parts.append(_("Table {table}").format(table=assignment["table"]))
    if assignment.get("round"):
        parts.append(_("Round {round}").format(round=assignment["round"]))
    names = [_person(assignment.get(side)) for side in ("blue", "red")]
    if any(names):
        parts.append(
            _("{blue} ({blue_side}) vs {red} ({red_side})").format(
                blue=names[0] or "?",
                blue_side=side_word(0),
                red=names[1] or "?",
                red_side=side_word(1),
            )
        )
    return " · ".join(parts)


def _person(raw: object) -> str:
    return str(raw.get("name") or "") if isinstance(raw, dict) else ""


def assignment_info(assignment: dict[str, Any]) -> dict[str, str]:
    """The session's game information (players, school, grade, round, table) an assignment
    gives; fields the sheet cannot carry are left out, never fatal."""
    from controller.record import info as game_info

    raw: dict[str, Any] = {}
    for side in ("blue", "red"):
        person = assignment.get(side)
        if isinstance(person, dict):
            raw[side] = person.get("name")
            raw[f"{side}_school"] = person.get("school")
            raw[f"{side}_grade"] = person.get("grade")
            raw[f"{side}_fed_id"] = person.get("fed_id")
    if assignment.get("round"):
        raw["round"] = assignment["round"]
    raw["table"] = assignment.get("table")
    raw["event"] = assignment.get("event")  # the event's name and date on the sheet and record
    raw["date"] = assignment.get("date")
    out = {}
    for key, value in raw.items():
        if value in (None, ""):
            continue
        try:
            out[key] = game_info.clean_value(key, value)
        except game_info.InfoError as exc:
            log.warning("assignment %s: %s", assignment.get("id"), exc)
    return out


class BoardLink:
    """One board's ``Link``, wired to its session by ``after_step``."""

    def __init__(self, link: Link, say: Say | None = None) -> None:
        self.link = link
        self.say = say or (lambda text: log.warning("%s", text))
        if say is not None and not log.handlers:
            # the link's errors reach the user through ``say`` (once each), not the log's
            # last-resort handler at every retry
            log.addHandler(logging.NullHandler())
        self._journal_mark: tuple[int, int] | None = None
        self._next_assignment = 0.0
        self._next_status = 0.0
        self._applied: str | None = None
        self._started = link.started()
        """Assignments whose game has started on this board (``Link.started``)."""
        self.holds = True
        """A tournament game's clocks wait for the round's start (``demo --trace`` plays a
        recording: nothing waits)."""
        self._error = ""
        self.line = ""
        """The assignment as the board shows it (empty: none)."""
        self.refused = ""
        """While the board holds an assignment of another game: the line its display shows."""
        self._refused_id: object = None

    @classmethod
    def open(
        cls, conn: str | os.PathLike[str], folder: str | os.PathLike[str], say: Say | None = None
    ) -> BoardLink:
        """The board's link from its connection file (ConfigError, one sentence, if it is
        wrong: before anything else of the board is started). Not started yet."""
        config = load(conn)
        Path(folder).mkdir(parents=True, exist_ok=True)
        return cls(Link(config, folder), say)

    @property
    def board(self) -> str:
        return self.link.config.board

    def set_game(self, game: str) -> None:
        """The game this board plays (``controller.record.games.NAMES``): an assignment of
        another is refused. Set before the link starts, so no record carries a refused id."""
        self.link.set_game(game)

    def refusal(self) -> str:
        """The line the board shows while it holds an assignment of another game (said once
        an assignment), else empty; the assignment stays unused (``Link.refuses``)."""
        assignment = self.link.assignment()
        if not self.link.refuses(assignment):
            self.refused, self._refused_id = "", None
            return ""
        assert assignment is not None
        ident = assignment.get("id")
        if ident != self._refused_id:
            self._refused_id = ident
            self.refused = _(
                "Table {table}, round {round} is a {game} game: not for this {own} board"
            ).format(
                table=assignment.get("table", "?"),
                round=assignment.get("round", "?"),
                game=assignment.get("game", DAMATH),
                own=self.link.game,
            )
            self.say(self.refused)
        return self.refused

    def start(self) -> BoardLink:
        self.link.start()
        return self

    def stop(self, timeout: float = 5.0) -> int:
        """Wait up to ``timeout`` for the hub to hold everything, then stop; the number of
        records it has not acknowledged (they stay in the journal and go at the next start)."""
        left = 0 if self.wait_acknowledged(timeout, quiet=True) else self._unacked()
        self.link.stop(min(timeout, 1.0))
        return min(left, self._unacked()) if left else 0

    def _unacked(self) -> int:
        with self.link._lock:
            games = self.link.follower.scan()
            return sum(len(s.envelopes) - s.tracked.acked for s in games)

    def wait_acknowledged(self, timeout: float, quiet: bool = False) -> bool:
        """Until the hub holds every record of every game in the folder (True), the credential
        is refused, or ``timeout`` passes (False, said unless ``quiet``)."""
        deadline = time.monotonic() + timeout
        while True:
            self.link.nudge()
            left = self._unacked()
            if left == 0:
                return True
            error = self.link.status().last_error
            if error in CONNECT_ERRORS.values():
                if error != self._error and not quiet:
                    self._say_error(error)
                return False
            if time.monotonic() >= deadline:
                if quiet:
                    return False
                if error:
                    said = ngettext(
                        "the hub did not acknowledge {left} record in {timeout} s ({error})",
                        "the hub did not acknowledge {left} records in {timeout} s ({error})",
                        left,
                    )
                else:
                    said = ngettext(
                        "the hub did not acknowledge {left} record in {timeout} s",
                        "the hub did not acknowledge {left} records in {timeout} s",
                        left,
                    )
                self.say(said.format(left=left, timeout=f"{timeout:g}", error=error_text(error)))
                return False
            time.sleep(0.1)

    def after_step(self, session: Session, t: float) -> str | None:
        """After a pass of the scan loop. Returns the assignment line when it was just put on
        the session (for the page to show), else None."""
        self.set_game(getattr(session, "link_game", DAMATH))  # Damath's session, or a table
        journal = session.journal
        if journal is not None:
            mark = (id(journal), journal.count)
            if mark != self._journal_mark:
                self._journal_mark = mark
                self.link.nudge()
        self.watch(t)
        if t < self._next_assignment:
            return None
        self._next_assignment = t + ASSIGNMENT_EVERY
        self._hold(session, t)
        self._obey(session, t)
        return self._apply_assignment(session, t)

    def watch(self, t: float, game: str | None = None) -> None:
        """Once a second, the link's last error said once (a refused credential, an unreachable
        hub), and an assignment of another game than ``game`` (this board's) refused: for every
        game's board, whose link publishes its records whatever the game."""
        if game is not None:
            self.set_game(game)
        if t < self._next_status:
            return
        self._next_status = t + STATUS_EVERY
        self.refusal()
        error = self.link.status().last_error
        if error != self._error:
            self._error = error
            if error:
                self._say_error(error)

    def _hold(self, session: Session, t: float) -> None:
        """A tournament game's clocks wait for the round's start: for the start rule of the
        assignment the board holds (``desk``, ``table``), or, with none (or one whose game has
        already started here), for the next round."""
        if not self.holds:
            return
        assignment = self.link.assignment() or {}
        if self.link.refuses(assignment):
            assignment = {}  # another game's table: the board waits for one of its own
        ident = assignment.get("id")
        rule = assignment.get("start")
        asg = ident if isinstance(ident, str) else None
        started = session.state.started_asg
        if started and started not in self._started:
            self._started.add(started)
            self.link.mark_started(started)
        if rule not in ("desk", "table") and not self.link.tournament():
            return  # not a tournament's board: the clocks start when the chips stand
        if rule in ("desk", "table") and asg is not None and asg not in self._started:
            session.hold_clocks(t, str(rule), asg)
        else:
            session.hold_clocks(t, "round")

    def _obey(self, session: Session, t: float) -> None:
        command = self.link.command()
        if command is None:
            return
        if command["cmd"] == "start":
            held = self.link.assignment()
            if self.link.refuses(held) or command.get("asg") != (held or {}).get("id"):
                return  # the start of another assignment than the one held: not yet (or never)
            done = session.desk_start(t, command["asg"])
            self.link.obeyed(command["id"])
            if done:
                self.say(_("the round started from the arbiter's desk"))
            return
        done = session.desk_pause(t, command["cmd"] == "pause")
        self.link.obeyed(command["id"])
        if done and command["cmd"] == "pause":
            self.say(_("paused from the arbiter's desk"))
        elif done:
            self.say(_("resumed from the arbiter's desk"))

    def _say_error(self, error: str) -> None:
        self.say(_("hub {url}: {error}").format(url=self.link.config.url, error=error_text(error)))

    def _apply_assignment(self, session: Session, t: float) -> str | None:
        if self.refusal():
            self.line = ""
            return None  # another game's table: never this board's players
        assignment = self.link.assignment()
        ident = assignment.get("id") if assignment else None
        self.line = assignment_line(assignment)
        if assignment is None or ident == self._applied:
            return None
        if session.game.ply or session.phase == "over":
            return None  # the game in progress keeps its players: the next game gets these
        self._applied = ident
        info = assignment_info(assignment)
        if info and any(session.info.get(k) != v for k, v in info.items()):
            session.set_info(t, info)
        if isinstance(ident, str):
            session.expect_assignment(ident)
        self.say(_("assignment from the hub: {line}").format(line=self.line))
        return self.line


def error_text(error: str) -> str:
    """The link's last error in the language in force (its own sentences are in the catalogue;
    the network library's are said as they are)."""
    return _(error) if error else ""


def connection_files(paths: list[str]) -> list[Path]:
    """``--hub`` values: a connection file, or a folder whose ``*.toml`` are one each."""
    out: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.glob("*.toml") if p.is_file())
            if not found:
                raise ValueError(
                    _("--hub {path}: the folder holds no connection file (*.toml)").format(
                        path=path
                    )
                )
            out.extend(found)
        else:
            out.append(path)
    return out


class BoardLinks:
    """The links of several boards in one process (the simulator): one connection file each,
    the board's id taken from its file."""

    def __init__(self, links: dict[str, BoardLink]) -> None:
        self.links = links

    @classmethod
    def open(
        cls, paths: list[str], folder_of: Callable[[str], Path], say: Say | None = None
    ) -> BoardLinks:
        """Every file checked before any link starts; a board id given twice is refused."""
        links: dict[str, BoardLink] = {}
        where: dict[str, Path] = {}
        for path in connection_files(paths):
            board = load(path).board
            if board in where:
                raise ValueError(
                    _("{path}: board {board} is already given by {other}").format(
                        path=path, board=repr(board), other=where[board]
                    )
                )
            where[board] = path
            links[board] = BoardLink.open(path, folder_of(board), say)
        return cls(links)

    def ids(self) -> list[str]:
        return list(self.links)

    def start(self) -> None:
        for link in self.links.values():
            link.start()

    def stop(self, timeout: float = 5.0) -> int:
        """Stop every link at once (each waits up to ``timeout`` for its acknowledgements)."""
        from concurrent.futures import ThreadPoolExecutor

        if not self.links:
            return 0
        with ThreadPoolExecutor(min(16, len(self.links))) as pool:
            return sum(pool.map(lambda link: link.stop(timeout), self.links.values()))

    def after_step(self, board: str, session: Session, t: float) -> str | None:
        link = self.links.get(board)
        return link.after_step(session, t) if link is not None else None

    def watch(self, board: str, t: float, game: str | None = None) -> None:
        link = self.links.get(board)
        if link is not None:
            link.watch(t, game)

    def refused(self, board: str) -> str:
        """The line ``board`` shows while it refuses a table of another game, else empty."""
        link = self.links.get(board)
        return link.refused if link is not None else ""
