"""One simulated board: the physical table, the mock devices and the session, wired as on the Pi.

Every action of the page changes the table (``table.py``); the occupied squares go to the mock
sensors of the simulated board (``controller.board.sim``) through its controls, the arbiter's
buttons to its mock buttons, and one pass of the Pi's own scan loop
(``controller.board.ScanLoop``) scans them into the session the board's host opened
(``controller.board.BoardHost``: journal, resume, kept games) and renders the view on the mock
LEDs, clocks, buzzer and scoresheet display. What the page shows is the session's snapshot; this
module decides nothing about the game.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.board import BoardHost, ScanLoop
from controller.board.sim import sim_devices
from controller.coach.board import BoardCoach, CoachError
from controller.engine.levels import LEVELS
from controller.i18n import _
from controller.rules import variants
from controller.rules.move import Square, side_name
from controller.rules.notation import NotationError, game_from_json, game_to_json
from controller.rules.profiles import PROFILES
from controller.scoresheet.typeset import typeset
from controller.session import Session, SessionConfig
from controller.session.clocks import clock_text
from controller.view.session_leds import ALL_LIGHTS
from controller.view.snapshot import snapshot
from drivers.buttons import BUTTON_NAMES as BUTTONS
from drivers.buzzer import PATTERNS
from drivers.factory import Devices, MockControls

from . import texts
from .table import Table, TableError

if TYPE_CHECKING:
    from .dadama import DadamaSim
    from .dam import DamSim


class SimError(ValueError):
    """A message from the page that cannot be acted on; the text is shown to the user."""


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
        self.state_dir = state_dir
        self.defaults = dict(defaults or {})
        self.game_kind = str(self.defaults.pop("game", "damath"))
        """``sim --set game=dadama``: every new board plays Dadama (``sim/dadama.py``), and
        the other ``--set`` are its settings."""
        self.dadama_defaults: dict[str, Any] = {}
        if self.game_kind in ("dadama", "dam"):
            self.dadama_defaults, self.defaults = self.defaults, {}
        """``sim --set``: rule settings, play settings and event fields every new game starts
        with (split by ``SessionConfig``)."""
        self.roster = roster or (lambda: ())
        self.host = BoardHost.of_board(state_dir, board_id)
        """Where this board's games live (its folder in the simulator's state folder)."""
        devices, hands = sim_devices(clock)
        self.devices: Devices = devices
        self.hands: MockControls = hands
        """The mock sensors and buttons, moved by the page's actions."""
        self.version = 0
        self.notice = ""
        self.assignment = ""
        """The hub's assignment line as last put on the session (``sim --hub``): a page shows a
        new one when it comes, not only when it opens."""
        self.said: deque[str] = deque(maxlen=8)
        self.coach = BoardCoach()
        """The computer opponent, hints and review: searches in worker processes, polled."""
        self.dadama: DadamaSim | DamSim | None = None
        """A Dadama or a Dam game on this board (``sim/dadama.py``, ``sim/dam.py``): it answers
        instead of the session."""
        new = not self.host.has_game()
        if self.host.has_game():
            self._resume()
        else:
            self.new_game(variant, profile)
        if self._folder_has_dadama() or (new and self.game_kind == "dadama"):
            self._start_dadama({})
        elif self._folder_has_dam() or (new and self.game_kind == "dam"):
            self._start_dadama({}, game="dam")

    # ------------------------------------------------------------------ life

    def new_game(
        self,
        variant: str,
        profile: str,
        position: dict[str, Any] | None = None,
        play: dict[str, Any] | None = None,
        rule_settings: dict[str, Any] | None = None,
    ) -> None:
        """A fresh game on this board: the opening of ``variant``, or ``position`` (the JSON
        position format, docs/notation.md: a lesson's position, or one saved from a game).
        ``play`` and ``rule_settings`` (practice, clocks) default to ``sim --set``; the players
        and the event carry over from the last game, with today's date."""
        if variant in ("dadama", "dam"):
            self._start_dadama(rule_settings or {}, position, game=variant)
            return
        if self.dadama is not None:
            self.dadama.put_away(self._folder())
            self.dadama = None
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
        t = self.clock()
        old = getattr(self, "session", None)
        base = SessionConfig(rule_settings=dict(self.defaults))
        info = dict(old.info) if old is not None else dict(base.info)
        info["date"] = datetime.date.today().isoformat()
        try:
            config = SessionConfig(
                variant=variant,
                rules=profile,
                rule_settings={**base.rule_settings, **(rule_settings or {})},
                play={**base.play, **(play or {})},
                info=info,
                tracker_settings=dict(self.settings),
                position=position,
                roster=self.roster(),
            )
            config.profile()
        except ValueError as exc:  # a wrong setting: said, and the game on the board goes on
            raise SimError(str(exc)) from None
        if old is not None:  # a game with moves is kept; one nobody moved in is dropped
            problem = self.host.put_away(old)
            if problem:
                self.notice = _(texts.NOT_PUT_AWAY).format(error=problem)
        self.session = self.host.open(config, t)
        self.table = Table(self.session.expected_chips())
        self._wire()

    def _folder(self) -> Path | None:
        path = self.host.journal_path
        return path.parent if path is not None else None

    def _folder_has_dadama(self) -> bool:
        from .dadama import DadamaSim

        return DadamaSim.journal_in(self._folder())

    def _folder_has_dam(self) -> bool:
        from .dam import DamSim

        return DamSim.journal_in(self._folder())

    def _start_dadama(
        self, settings: dict[str, Any], position: Any = None, game: str = "dadama"
    ) -> None:
        """A Dadama game on this board (``game=dadama``): resumed from its journal when there is
        one, else new with ``settings`` (rule settings, ``dice``, ``seed``)."""
        from controller.session import dam
        from controller.session.dadama import config_from_settings

        from .dadama import DadamaSim
        from .dam import DamSim

        defaults = self.dadama_defaults if self.game_kind == game else {}
        try:
            if game == "dam":
                dam_config = dam.config_from_settings({**defaults, **settings}, position)
            else:
                config = config_from_settings({**defaults, **settings}, position)
        except ValueError as exc:
            raise SimError(str(exc)) from None
        old = getattr(self, "session", None)
        if old is not None and self.dadama is None:
            problem = self.host.put_away(old)
            if problem:
                self.notice = _(texts.NOT_PUT_AWAY).format(error=problem)
        elif self.dadama is not None:
            self.dadama.put_away(self._folder())
        if game == "dam":
            self.dadama = DamSim(dam_config, self.clock, self._folder())
        else:
            self.dadama = DadamaSim(config, self.devices, self.hands, self.clock, self._folder())
        self.version += 1

    def games_folder(self) -> Path | None:
        """Where this board keeps its finished games (None without a state folder)."""
        return self.host.games_folder

    def _resume(self) -> None:
        """The board's game as its journal left it (the simulator was stopped): the chips stand
        where the game has them and the taken ones lie in the trays, so the session's restore
        completes by itself and play goes on; damage in the journal is shown, never fatal."""
        config = SessionConfig(tracker_settings=dict(self.settings), roster=self.roster())
        self.session = self.host.open(config, self.clock())
        self.table = Table(self.session.start_chips())
        self.table.arrange(self.session.expected_chips())
        self.notice = "; ".join(self.session.problems) or _(texts.RESUMED)
        self._wire()

    def _wire(self) -> None:
        self.loop = ScanLoop(self.session, self.devices)
        self.said.clear()
        self._sense(force=True)
        self.version += 1

    def close(self) -> None:
        """The simulator stops: the clocks are journaled as they stand, so no time is lost."""
        if self.dadama is not None:
            self.dadama.close()
            self.devices.close()
            return
        self.devices.close()
        self.host.close(self.session, self.clock())

    def _sense(self, force: bool = False) -> None:
        """The table's occupancy on the mock sensors, then one pass of the scan loop; ``force``
        hands a new session the current frame even when the sensors saw no change."""
        sensors = self.devices.sensors
        assert sensors is not None
        self.hands.set_occupied(self.table.occupied())
        if force:
            frame = sensors.scan() or sensors.current
            self.session.feed_frame(frame.t, frame.occupied)
        self.loop.step(self.clock())

    def tick(self) -> None:
        """One pass of the scan loop: time passes (settle, error delay, the clocks), outputs
        are rendered on the mock devices and buzzer cues played."""
        if self.dadama is not None:
            self.dadama.tick()
            return
        changed = self.coach.poll(self.session)
        self.loop.step(self.clock())
        if changed:  # a search finished or started: every output shows it at once
            self.loop.render(self.clock())
            self.version += 1

    # ------------------------------------------------------------------ actions from the page

    def act(self, message: Any) -> str:
        """One message from the page; returns a sentence saying what was done."""
        if not isinstance(message, dict):
            raise SimError(_(texts.NOT_AN_OBJECT))
        kind = message.get("type")
        if self.dadama is not None and kind != "new_game":
            try:
                done = self.dadama.act(message)
            except TableError as exc:
                raise SimError(str(exc)) from None
            self.notice = done
            self.version += 1
            return done
        handler = self._handlers().get(kind) if isinstance(kind, str) else None
        if handler is None:
            types = ", ".join(self._handlers())
            raise SimError(_(texts.UNKNOWN_TYPE).format(kind=kind, types=types))
        try:
            done = handler(message)
        except TableError as exc:
            raise SimError(str(exc)) from None
        self._sense()
        self.coach.poll(self.session)  # the computer starts thinking as soon as it is its turn
        self.loop.render(self.clock())  # the outputs show what was done at once
        self.notice = done
        self.version += 1
        return done

    def _handlers(self) -> dict[str, Callable[[dict[str, Any]], str]]:
        return {
            "click": self._click,
            "lift": lambda m: self._chip_said(_(texts.LIFTED), self.table.lift(_square(m)), m),
            "place": lambda m: self._chip_said(_(texts.SET_DOWN), self.table.place(_square(m)), m),
            "remove": lambda m: self._chip_said(
                _(texts.TOOK_OFF), self.table.remove(_square(m)), m
            ),
            "drag": self._drag,
            "put_aside": lambda m: _(texts.PUT_ASIDE).format(
                chip=self.table.put_aside().describe()
            ),
            "from_tray": self._from_tray,
            "crown": self._crown,
            "arrange": self._arrange,
            "touch": lambda m: self._touch(_square(m)),
            "button": self._button,
            "takeback": self._player_takeback,
            "new_game": self._new_game_message,
            "info": self._info,
            "play": self._play,
            "hint": lambda m: self._coach(self.coach.ask_hint),
            "review": lambda m: self._coach(self.coach.ask_review),
        }

    def _coach(self, ask: Callable[[Session], str]) -> str:
        try:
            return ask(self.session)
        except CoachError as exc:
            raise SimError(str(exc)) from None

    @staticmethod
    def _chip_said(template: str, chip: Any, message: dict[str, Any]) -> str:
        return template.format(chip=chip.describe(), square=_where(_square(message)))

    def _click(self, message: dict[str, Any]) -> str:
        """A click as a hand means it. While the board asks which way a taking went, a click on
        a blinking empty square is a touch there; a chip the board shows as being taken goes
        beside the board; any other chip is lifted (the board says if it may not move)."""
        square = _square(message)
        g = self.session.tracker.guidance()
        table = self.table
        if (
            table.hand is None
            and square not in table.board
            and g.phase == "ambiguity"
            and square in g.blink
        ):
            return self._touch(square)
        removable = frozenset(g.to_be_taken)
        if g.mode != "play":
            removable |= frozenset(g.extra)
        return table.click(square, self.session.game.side_to_move, removable)

    def _touch(self, square: Square) -> str:
        """Touch ``square`` with the chip that made the taking, and set it back: on the real
        board this chooses the way round that passes there (the square blinks)."""
        g = self.session.tracker.guidance()
        if g.phase != "ambiguity" or not g.choices:
            raise SimError(_(texts.EMPTY_SQUARE).format(square=_where(square)))
        end = g.choices[0].end
        table = self.table
        table.lift(end)
        self._sense()
        table.place(square)
        self._sense()
        table.lift(square)
        self._sense()
        table.place(end)
        return _(texts.TOUCHED).format(square=_where(square))

    def _drag(self, message: dict[str, Any]) -> str:
        a, b = _square(message, "from"), _square(message, "to")
        table = self.table
        chip = table.lift(a)
        self._sense()
        try:
            table.place(b)
        except TableError:
            table.place(a)  # the hand puts it back where it was
            raise
        return _(texts.MOVED).format(chip=chip.describe(), start=_where(a), end=_where(b))

    def _from_tray(self, message: dict[str, Any]) -> str:
        chip_id = message.get("chip")
        if not isinstance(chip_id, int) or isinstance(chip_id, bool):
            raise SimError(_(texts.BAD_TRAY_CHIP))
        return _(texts.PICKED_UP).format(chip=self.table.take_from_tray(chip_id).describe())

    def _arrange(self, message: dict[str, Any]) -> str:
        self.table.arrange(self.session.expected_chips())
        return _(texts.ARRANGED)

    def _button(self, message: dict[str, Any]) -> str:
        name = message.get("name")
        if name not in BUTTONS:
            raise SimError(_(texts.UNKNOWN_BUTTON).format(name=name, names=", ".join(BUTTONS)))
        hold = message.get("hold", False) is True
        self.hands.press(name, "hold" if hold else "press")
        template = _(texts.BUTTON_HELD) if hold else _(texts.BUTTON_PRESSED)
        return template.format(button=name.replace("_", " "))

    def _player_takeback(self, message: dict[str, Any]) -> str:
        """A player takes back their own move: only in practice, when the teacher allows it."""
        if not self.session.play.players_take_back:
            raise SimError(_(texts.NO_PLAYER_TAKEBACK))
        if not self.session.game.ply:
            raise SimError(_(texts.NOTHING_TO_TAKE_BACK))
        session = self.session
        presses = 1
        computer = session.play.computer_side
        if computer is not None and session.game.side_to_move != computer and session.game.ply > 1:
            presses = 2  # the computer's answer goes too: the player's own move comes back
        for _press in range(presses):
            self.hands.press("takeback")
        return _(texts.TAKEN_BACK)

    def _new_game_message(self, message: dict[str, Any]) -> str:
        if self.dadama is not None or message.get("variant") in ("dadama", "dam"):
            return self._new_dadama_message(message)
        session = self.session
        in_progress = session.game.ply > 0 and session.outcome is None
        if in_progress and message.get("confirm") is not True:
            raise SimError(_(texts.CONFIRM_NEW_GAME).format(moves=session.game.ply))
        variant = message.get("variant", session.variant)
        profile = message.get("profile", session.profile_name)
        position = message.get("position")
        play = _fields(message, "play")
        rule_settings = _fields(message, "rules")
        self.new_game(str(variant), str(profile), position, play, rule_settings)
        template = _(texts.NEW_GAME) if position is None else _(texts.NEW_GAME_FROM_POSITION)
        return template.format(variant=self.session.variant.capitalize(), rules=profile)

    def _new_dadama_message(self, message: dict[str, Any]) -> str:
        """A new game when the board plays Dadama, or a new Dadama game (``dice``, ``seed``)."""
        from .dadama import DadamaSim

        d = self.dadama
        steps = int(d.snapshot()["ply"]) if d is not None else 0
        playing = d is not None and d.session.phase != "over"
        if steps and playing and message.get("confirm") is not True:
            raise SimError(_(texts.CONFIRM_NEW_GAME).format(moves=steps))
        default = "dadama" if d is None or isinstance(d, DadamaSim) else "dam"
        variant = str(message.get("variant", default))
        if variant == "dam":
            self._start_dadama(_fields(message, "rules"), message.get("position"), game="dam")
            return _("a new Dam game: set the pieces as the lights show")
        if variant != "dadama":
            self.new_game(variant, str(message.get("profile", "official")))
            return _(texts.NEW_GAME).format(variant=variant.capitalize(), rules="official")
        settings = _fields(message, "rules")
        if isinstance(d, DadamaSim):  # a new game keeps the board's dice unless the page says so
            settings["dice"] = d.session.dice_mode
        for key in ("dice", "seed"):
            if key in message:
                settings[key] = message[key]
        self._start_dadama(settings, message.get("position"))
        return _("a new Dadama game: the dice are on the board")

    def _info(self, message: dict[str, Any]) -> str:
        try:
            self.session.set_info(self.clock(), _fields(message, "info"))
        except ValueError as exc:
            raise SimError(str(exc)) from None
        return _(texts.PLAYERS_SET)

    def _play(self, message: dict[str, Any]) -> str:
        try:
            self.session.set_play(self.clock(), _fields(message, "play"))
        except ValueError as exc:
            raise SimError(str(exc)) from None
        return _(texts.PLAY_SET)

    def _crown(self, message: dict[str, Any]) -> str:
        """Crowning on the real board: lift the chip, turn it over, set it back."""
        table = self.table
        if message.get("square") is None:
            chip = table.turn_over()
            return _(texts.TURNED_OVER).format(chip=chip.describe())
        square = _square(message)
        table.lift(square)
        self._sense()
        chip = table.turn_over()
        table.place(square)
        return _(texts.CROWNED).format(chip=chip.describe(), square=_where(square))

    # ------------------------------------------------------------------ output

    def display_lines(self) -> list[str]:
        """What the scoresheet display shows at this moment (the mock device's last page)."""
        if self.dadama is not None:
            return self.dadama.display_lines()
        display = self.devices.scoresheet
        assert display is not None
        return list(display.last or [])

    def snapshot(self) -> dict[str, Any]:
        """What the page shows: the view's snapshot for a page (the LEDs by meaning, the chips
        on the table), and what only this board knows: its table, display, notices, coach."""
        if self.dadama is not None:
            return {
                **self.dadama.snapshot(),
                "board": self.board_id,
                "version": self.version,
                "notice": self.notice,
            }
        t = self.clock()
        snap = snapshot(self.session.view_input(t, page=True), t, page=True, chips=self.table.board)
        message = snap["message"]
        if message and (not self.said or self.said[-1] != message):
            self.said.append(message)
        lines = self.display_lines()
        return {
            **snap,
            **self.table.json(),
            "messages": list(self.said),  # the board's last words, not only this instant's
            "display": lines,
            "display_key": hashlib.sha1("\n".join(lines).encode()).hexdigest()[:12],
            "board": self.board_id,
            "version": self.version,
            "notice": self.notice,
            "assignment": self.assignment,
            "roster": list(self.session.roster),
            "player_takeback": self.session.play.players_take_back,
            "coach": self.coach.json(self.session),
        }

    def summary(self) -> dict[str, Any]:
        """What the class overview shows of this board (``/api/class``)."""
        if self.dadama is not None:
            return {**self.dadama.summary(), "board": self.board_id}
        s = self.session
        reading = s.clocks.reading(self.clock())
        totals = s.totals()
        outcome = s.outcome
        return {
            "board": self.board_id,
            "variant": s.variant,
            "rules": s.profile_name,
            "practice": s.play.practice,
            "blue": s.info.get("blue", ""),
            "red": s.info.get("red", ""),
            "event": s.info.get("event", ""),
            "totals": {"blue": typeset(totals[0]), "red": typeset(totals[1])},
            "to_move": side_name(s.game.side_to_move),
            "phase": s.phase,
            "paused": s.paused,
            "ply": s.game.ply,
            "over": outcome is not None,
            "result": f"{outcome.result_text}: {outcome.text}" if outcome else "",
            "clocks": {
                "game": clock_text(reading.game_left) if s.play.timed else "--:--",
                "move": clock_text(reading.move_left) if s.play.timed else "--:--",
            },
            "message": snapshot_message(s, self.clock()),
        }

    def oled_png(self) -> bytes:
        """The scoresheet display as the mock device last showed it, drawn as on the OLED."""
        import io

        display = self.devices.scoresheet
        assert display is not None
        image = display.render(self.display_lines())
        out = io.BytesIO()
        image.convert("L").resize((image.width * 3, image.height * 3)).save(out, "PNG")
        return out.getvalue()

    def export(self, what: str) -> tuple[str, str]:
        """(text, media type) of a download: ``csv``, ``html``, ``pdn`` or ``position``."""
        if self.dadama is not None:
            return self.dadama.export(what)
        return export_session(self.session, what)


def export_session(session: Session, what: str) -> tuple[str, str]:
    """(text, media type) of a game's download: the board's, or a kept game's."""
    if what == "csv":
        return session.export_csv(), "text/csv; charset=utf-8"
    if what == "html":
        return session.export_html(), "text/html; charset=utf-8"
    if what == "pdn":
        return session.export_pdn(), "application/x-pdn; charset=utf-8"
    if what == "position":
        text = json.dumps(game_to_json(session.game), ensure_ascii=False, indent=1)
        return text + "\n", "application/json; charset=utf-8"
    raise SimError(_(texts.UNKNOWN_DOWNLOAD).format(what=what))


def snapshot_message(session: Session, t: float) -> str:
    from controller.view.compose import message

    return message(session.view_input(t))


def _where(square: Square) -> str:
    return f"({square[0]}, {square[1]})"


def _fields(message: dict[str, Any], key: str) -> dict[str, Any]:
    raw = message.get(key) or {}
    if not isinstance(raw, dict):
        raise SimError(_(texts.BAD_FIELDS).format(key=key))
    return raw


def static_facts() -> dict[str, Any]:
    """What every page needs once: variants, profiles, the LED legend, the buzzer patterns."""
    return {
        "variants": list(variants.NAMES),
        "games": ["dadama", "dam"],
        "profiles": list(PROFILES),
        "buttons": list(BUTTONS),
        "legend": [
            {"name": x.name, "rgb": list(x.colour), "pattern": x.pattern, "meaning": x.meaning}
            for x in ALL_LIGHTS.values()
        ],
        "patterns": {k: [[f, s] for f, s in v] for k, v in PATTERNS.items()},
        "levels": [{"number": lv.number, "name": lv.name} for lv in LEVELS],
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


def _square(message: dict[str, Any], key: str = "square") -> Square:
    raw = message.get(key)
    if (
        not isinstance(raw, list | tuple)
        or len(raw) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        raise SimError(_(texts.BAD_SQUARE).format(key=key))
    return (raw[0], raw[1])
