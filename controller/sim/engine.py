"""One simulated board: the physical table, the mock devices and the game, wired as on the Pi.

The board plays one game of the registry at a time (``controller.games``: Damath, Dadama, Dam,
Mathematical Chess, English draughts, any later one), through the one interface of a game. Every
action of the page changes the table (the game's table: ``chips.ChipsTable`` for Damath's chips,
``tables`` for the others); the occupied cells go to the mock sensors of a simulated board of
the game's size (``controller.board.sim``), the buttons to its mock buttons, and one pass of the
Pi's own scan loop (``controller.board.ScanLoop``) scans them into the game the board's host
opened (``controller.board.BoardHost``: journal, resume) and renders what it shows on the mock
LEDs, clocks, buzzer and scoresheet display; a finished game is kept by the loop's keeper. What
the page shows is the game's snapshot with the table's; this module decides nothing about the
game.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.board import BoardHost, ScanLoop
from controller.board.sim import sim_devices
from controller.coach.board import BoardCoach
from controller.engine.levels import LEVELS
from controller.games import DEFAULT, GAMES, BoardGame, GameKind, find_game
from controller.games.keeper import Keeper
from controller.games.opponent import levels_json
from controller.i18n import _, rules_word
from controller.rules import variants
from controller.rules.notation import NotationError, game_from_json
from controller.rules.profiles import PROFILES
from controller.scoresheet.typeset import typeset
from controller.session import Session
from controller.view.session_leds import ALL_LIGHTS
from controller.view.snapshot import scores
from drivers.buttons import BUTTON_NAMES as BUTTONS
from drivers.buzzer import PATTERNS
from drivers.factory import Devices, MockControls

from . import texts
from .chips import ChipsTable, fields
from .errors import SimError, square_of
from .tables import DiceTable, PiecesTable, PointsTable, SimTable

__all__ = ["SimBoard", "SimError", "square_of", "static_facts"]

TABLES: dict[str, Callable[..., SimTable]] = {
    "chips": ChipsTable,
    "dice": DiceTable,
    "pieces": PiecesTable,
    "points": PointsTable,
}
"""A game's table (``GameKind.table``) -> the simulated table for its pieces."""


class SimBoard:
    """A board on the table of the simulator: actions in, a JSON-ready snapshot out."""

    def __init__(
        self,
        board_id: str,
        clock: Callable[[], float],
        *,
        variant: str = "integer",
        profile: str = "official",
        settings: dict[str, Any] | None = None,
        state_dir: Path | None = None,
        defaults: dict[str, Any] | None = None,
        roster: Callable[[], tuple[str, ...]] | None = None,
    ) -> None:
        self.board_id = board_id
        self.clock = clock
        self.settings = dict(settings or {})
        """Tracker settings every game of the board is read with (``sim --settle``)."""
        self.state_dir = state_dir
        self.defaults = dict(defaults or {})
        """``sim --set``: the game every new board plays (``game=``) and its settings."""
        self.default_kind = find_game(self.defaults.pop("game", DEFAULT))
        self.roster = roster or (lambda: ())
        self.host = BoardHost.of_board(state_dir, board_id)
        """Where this board's games live (its folder in the simulator's state folder)."""
        self.keeper = Keeper.of_board(self.host.folder, self.host.wall)
        self.devices: Devices | None = None
        self.hands: MockControls
        self.version = 0
        self.notice = ""
        self.assignment = ""
        """The hub's assignment line as last put on the game (``sim --hub``): a page shows a
        new one when it comes, not only when it opens."""
        self.said: deque[str] = deque(maxlen=8)
        held = self.host.held()
        if held is not None:
            self._start_game(held, {}, resumed=True)
        elif self.default_kind.variants:
            self.new_game(variant, profile)
        else:
            self._start_game(self.default_kind, self.defaults)

    # ------------------------------------------------------------------ life

    @property
    def kind(self) -> GameKind:
        return self.game.kind

    @property
    def session(self) -> Session:
        """The Damath session of the board's game (a Damath board's tests and scripts)."""
        session = getattr(self.game, "session", None)
        if not isinstance(session, Session):
            raise SimError(_("board {id} does not play Damath").format(id=self.board_id))
        return session

    @property
    def coach(self) -> BoardCoach:
        """The Damath game's coach (the computer, hints, the review): tests swap it."""
        coach = getattr(self.game, "coach", None)
        if not isinstance(coach, BoardCoach):
            raise SimError(_("board {id} does not play Damath").format(id=self.board_id))
        return coach

    @coach.setter
    def coach(self, coach: BoardCoach) -> None:
        self.game.coach = coach  # type: ignore[attr-defined]

    def _start_game(
        self,
        kind: GameKind,
        settings: dict[str, Any],
        position: dict[str, Any] | None = None,
        resumed: bool = False,
    ) -> None:
        """A game of ``kind`` on this board: the one in its journal (resumed), or a new one;
        the game on the board before it is put away (kept when anything was played)."""
        t = self.clock()
        old: BoardGame | None = getattr(self, "game", None)
        carried: dict[str, Any] = {}
        if old is not None and old.kind is kind:
            carried = dict(getattr(old, "carried", dict)())
        elif kind.dated:  # a first game on the board: today's date on its sheet
            carried = {"info": {"date": datetime.date.today().isoformat()}}
        try:
            config = kind.check(
                settings, _opening(self, t, position, carried)
            )  # a wrong setting: said, and the game on the board goes on
        except ValueError as exc:
            raise SimError(str(exc)) from None
        if old is not None:
            problem = self.host.put_away(old)
            if problem:
                self.notice = _(texts.NOT_PUT_AWAY).format(error=problem)
        self.game = self.host.open(
            kind,
            settings,
            t,
            tracker=dict(self.settings),
            position=position,
            carried=carried,
            roster=self.roster(),
            config=config,
        )
        self._wire(resumed)
        if resumed:
            self.notice = "; ".join(self.game.problems) or _(texts.RESUMED)

    def _wire(self, resumed: bool = False) -> None:
        """The devices of a board of the game's size (made again when it changes), its table
        and the scan loop."""
        geometry = self.kind.geometry
        if self.devices is None or getattr(self, "_geometry", None) != geometry:
            if self.devices is not None:
                self.devices.close()
            self.devices, self.hands = sim_devices(self.clock, geometry.size, geometry.grid)
            self._geometry = geometry
        maker = TABLES[self.kind.table]
        self.table = maker(self, resumed) if maker is ChipsTable else maker(self)
        assert self.devices.sensors is not None
        self.hands.set_occupied(self.table.occupied())  # the loop starts from the table
        self.devices.sensors.scan()
        self.loop = ScanLoop(self.game, self.devices, self.keeper)
        self.said.clear()
        self.sense(force=True)
        self.version += 1

    def new_game(
        self,
        variant: str,
        profile: str,
        position: dict[str, Any] | None = None,
        play: dict[str, Any] | None = None,
        rule_settings: dict[str, Any] | None = None,
    ) -> None:
        """A fresh Damath game on this board: the opening of ``variant``, or ``position`` (the
        JSON position format, docs/notation.md). ``play`` and ``rule_settings`` (practice,
        clocks) default to ``sim --set``; the players and the event carry over from the last
        game, with today's date."""
        if position is not None:
            variant = _check_position(position, variant, profile)
        if variant not in variants.NAMES:
            raise SimError(
                _(texts.UNKNOWN_VARIANT).format(variant=variant, variants=", ".join(variants.NAMES))
            )
        if profile not in PROFILES:
            raise SimError(
                _(texts.UNKNOWN_PROFILE).format(profile=profile, profiles=", ".join(PROFILES))
            )
        damath = GAMES["damath"]
        defaults = self.defaults if self.default_kind is damath else {}
        settings = {**defaults, **(rule_settings or {}), **(play or {})}
        settings.update(variant=variant, rules=profile)
        self._start_game(damath, settings, position)

    def _new_puzzle(self, message: dict[str, Any]) -> str:
        """A puzzle of the class's store for a child (Damath's puzzle mode), checked against the
        store before the game on the board is put away."""
        from controller.games import Opening
        from controller.games.damath import puzzle as puzzles

        settings = {k: message[k] for k in puzzles.SETTINGS if k in message}
        t = self.clock()
        try:
            request = puzzles.check(settings, None)
            puzzles.load(request, Opening(self.host.journal_path, t, roster=self.roster()))
        except ValueError as exc:
            raise SimError(str(exc)) from None
        self._start_game(GAMES["damath"], settings)
        return _(texts.NEW_PUZZLE).format(child=request.child)

    def games_folder(self) -> Path | None:
        """Where this board keeps its finished games (None without a state folder)."""
        return self.host.games_folder

    def close(self) -> None:
        """The simulator stops: the game journals what it must, so no time is lost."""
        if self.devices is not None:
            self.devices.close()
        self.host.close(self.game, self.clock())

    def sense(self, force: bool = False) -> None:
        """The table's occupancy on the mock sensors, then one pass of the scan loop; ``force``
        hands a new game the current frame even when the sensors saw no change."""
        assert self.devices is not None and self.devices.sensors is not None
        sensors = self.devices.sensors
        self.hands.set_occupied(self.table.occupied())
        if force:
            frame = sensors.scan() or sensors.current
            self.game.feed_frame(frame.t, frame.occupied)
        self.loop.step(self.clock())

    def tick(self) -> None:
        """One pass of the scan loop: time passes (settle, error delay, the clocks, a search
        done), outputs are rendered on the mock devices and buzzer cues played."""
        self.loop.step(self.clock())

    def menu_open(self) -> bool:
        """The arbiter's menu is open on the board (whatever the game)."""
        return self.game.menu_open()

    # ------------------------------------------------------------------ actions from the page

    def act(self, message: Any) -> str:
        """One message from the page; returns a sentence saying what was done."""
        if not isinstance(message, dict):
            raise SimError(_(texts.NOT_AN_OBJECT))
        if message.get("type") == "new_game":
            done = self._new_game_message(message)
        else:
            done = self.table.act(message)
        self.sense()
        self.loop.render(self.clock())  # the outputs show what was done at once
        self.notice = done
        self.version += 1
        return done

    def _new_game_message(self, message: dict[str, Any]) -> str:
        """A new game: of the page's ``game`` (or a registry game named as the ``variant``),
        else Damath of its ``variant``; a game in progress only when ``confirm`` is true."""
        played = self.game.finished() is None and _moves(self.game)
        if played and message.get("confirm") is not True:
            raise SimError(_(texts.CONFIRM_NEW_GAME).format(moves=played))
        if "puzzle" in message or "child" in message:
            return self._new_puzzle(message)
        named = message.get("game", message.get("variant"))
        if named in GAMES and not GAMES[str(named)].variants:
            return self._new_other(GAMES[str(named)], message)
        session = getattr(self.game, "session", None)
        last = session if isinstance(session, Session) else None
        variant = message.get("variant", last.variant if last else variants.DEFAULT)
        profile = message.get("profile", last.profile_name if last else "official")
        position = message.get("position")
        self.new_game(
            str(variant), str(profile), position, fields(message, "play"), fields(message, "rules")
        )
        template = _(texts.NEW_GAME) if position is None else _(texts.NEW_GAME_FROM_POSITION)
        return template.format(
            variant=self.session.variant.capitalize(), rules=rules_word(str(profile))
        )

    def _new_other(self, kind: GameKind, message: dict[str, Any]) -> str:
        settings = dict(self.defaults) if kind is self.default_kind else {}
        if kind is self.kind:  # a new game keeps what the board plays with (Dadama's dice)
            settings.update(getattr(self.game, "carried", dict)())
        settings.update(fields(message, "rules"))
        settings.update({k: message[k] for k in kind.settings if k in message})
        position = message.get("position")
        if position is not None and not isinstance(position, dict):
            raise SimError(_(texts.NOT_A_POSITION))
        self._start_game(kind, settings, position)
        return _("a new {game} game: set the board as the lights show").format(game=_(kind.title))

    # ------------------------------------------------------------------ output

    def display_lines(self) -> list[str]:
        """What the scoresheet display shows at this moment (the mock device's last page)."""
        assert self.devices is not None
        display = self.devices.scoresheet
        return list(display.last or []) if display is not None else []

    def snapshot(self) -> dict[str, Any]:
        """What the page shows: the game's snapshot for a page (with the table's pieces), and
        what only this board knows: its table, display, notices."""
        t = self.clock()
        snap = self.table.page(t)
        message = snap.get("message") or ""
        if message and (not self.said or self.said[-1] != message):
            self.said.append(message)
        lines = self.display_lines()
        return {
            **snap,
            **self.table.json(),
            "game": self.kind.name,
            "renderer": self.kind.renderer,
            "title": _(self.kind.title),
            "messages": list(self.said),  # the board's last words, not only this instant's
            "display": lines,
            "display_key": hashlib.sha1("\n".join(lines).encode()).hexdigest()[:12],
            "board": self.board_id,
            "version": self.version,
            "notice": self.notice,
            "assignment": self.assignment,
            "device_problem": self.loop.device_problem,
            "clock_seconds": _clock_seconds(self.game),
        }

    def summary(self) -> dict[str, Any]:
        """What the class overview shows of this board (``/api/class``)."""
        title = _(self.game.kind.title)  # the game's name in the page's language
        summary = {**self.game.summary(self.clock()), "board": self.board_id, "title": title}
        session = getattr(self.game, "session", None)
        if isinstance(session, Session) and session.outcome is not None:  # the final scores
            final = scores(session.totals(), session.outcome)
            summary["totals"] = {"blue": typeset(final[0]), "red": typeset(final[1])}
        return summary

    def ended_game(self) -> dict[str, Any] | None:
        """The Damath game on the board once it has ended, as the saved games list one (its
        journal joins ``games/`` only when the next game starts; its files are kept already):
        the page lists it at once, with the board's own downloads."""
        session = getattr(self.game, "session", None)
        if not isinstance(session, Session) or session.outcome is None or not session.game.ply:
            return None
        journal = self.host.journal_path
        outcome = session.outcome
        return {
            "name": "",
            "current": True,
            "saved": journal.stat().st_mtime if journal is not None and journal.exists() else 0,
            "variant": session.variant,
            "rules": session.profile_name,
            "blue": session.info.get("blue", ""),
            "red": session.info.get("red", ""),
            "moves": session.game.ply,
            "result": f"{outcome.result_text}: {outcome.text}",
            "problems": [],
        }

    def oled_png(self) -> bytes:
        """The scoresheet display as the mock device last showed it, drawn as on the OLED."""
        import io

        assert self.devices is not None
        display = self.devices.scoresheet
        assert display is not None
        image = display.render(self.display_lines())
        out = io.BytesIO()
        image.convert("L").resize((image.width * 3, image.height * 3)).save(out, "PNG")
        return out.getvalue()

    def export(self, what: str) -> tuple[str, str]:
        """(text, media type) of a download: the game's files (``csv``, ``html``, ``pdn``,
        ``json``, ``txt``) or its ``position``."""
        try:
            return self.game.download(what)
        except ValueError as exc:
            raise SimError(str(exc)) from None


def _opening(board: SimBoard, t: float, position: Any, carried: dict[str, Any]) -> Any:
    from controller.games import Opening

    return Opening(
        None,
        t,
        tracker=dict(board.settings),
        position=position,
        carried=carried,
        roster=board.roster(),
    )


def _clock_seconds(game: BoardGame) -> dict[str, int] | None:
    """A Damath game's clocks, in seconds (the new-game dialog starts from them); None for
    another game."""
    session = getattr(game, "session", None)
    if not isinstance(session, Session):
        return None
    profile = session.rules_profile
    return {"game": profile.game_seconds, "move": profile.move_seconds}


def _moves(game: BoardGame) -> int:
    """How many moves (or steps) the game on the board has: asking before a new game."""
    summary = game.summary(0.0)
    return int(summary.get("ply") or 0)


def export_session(session: Session, what: str) -> tuple[str, str]:
    """(text, media type) of a kept Damath game's download."""
    if what == "csv":
        return session.export_csv(), "text/csv; charset=utf-8"
    if what == "html":
        return session.export_html(), "text/html; charset=utf-8"
    if what == "pdn":
        return session.export_pdn(), "application/x-pdn; charset=utf-8"
    if what == "position":
        from controller.rules.notation import game_to_json

        text = json.dumps(game_to_json(session.game), ensure_ascii=False, indent=1)
        return text + "\n", "application/json; charset=utf-8"
    raise SimError(_(texts.UNKNOWN_DOWNLOAD).format(what=what))


def static_facts() -> dict[str, Any]:
    """What every page needs once: variants, games, profiles, the LED legend, the buzzer."""
    return {
        "variants": list(variants.NAMES),
        "games": [name for name, kind in GAMES.items() if not kind.variants],
        "titles": {name: _(kind.title) for name, kind in GAMES.items()},
        "profiles": list(PROFILES),
        "buttons": list(BUTTONS),
        "legend": [
            {"name": x.name, "rgb": list(x.colour), "pattern": x.pattern, "meaning": x.meaning}
            for x in ALL_LIGHTS.values()
        ],
        "patterns": {k: [[f, s] for f, s in v] for k, v in PATTERNS.items()},
        "levels": [{"number": lv.number, "name": lv.name} for lv in LEVELS],
        "computers": {
            name: levels_json(kind.computer)
            for name, kind in GAMES.items()
            # a game whose session plays its computer takes the ``computer`` setting
            if kind.computer is not None and not kind.variants and "computer" in kind.settings
        },
    }


def _check_position(position: Any, variant: str, profile: str) -> str:
    """The variant of a position from the page, or a SimError saying what is wrong with it."""
    if not isinstance(position, dict):
        raise SimError(_(texts.NOT_A_POSITION))
    data = {"variant": variant, **position, "profile": profile}
    try:
        game = game_from_json(data)
    except NotationError as exc:
        raise SimError(_(texts.CANNOT_PLAY_POSITION).format(error=exc)) from None
    if not game.legal_moves():
        raise SimError(_(texts.NO_LEGAL_MOVE))
    return str(data["variant"])
