"""The buttons of a Damath board, and the arbiter's menus: what each press or hold means in each
phase (setting up, playing, over, a menu open), the players' own buttons (confirming the table,
signing the sheet, a dispute), and the desk's pause from the hub. It decides what the press is
and does it through the session (``Session.apply`` for every record it makes); the session's
state stays the session's.
"""

from __future__ import annotations

from typing import Any

from controller.i18n import side_word
from controller.record import play as play_mode
from controller.record.kinds import RecordKind
from controller.rules import variants
from controller.rules.move import BLUE, side_name
from controller.rules.profiles import PROFILES, ProfileError
from controller.tracker import ButtonIgnored

from . import texts
from .host import ArbiterHost
from .kinds import CueName, MenuAction, Phase
from .menu import Menu, abandon_menu, adjudication_menu, names_menu, settings_menu
from .signing import PLAYER_BUTTONS

Record = dict[str, Any]


def _after(names: tuple[str, ...], name: str) -> str:
    """The name after ``name`` in the engine's list, round again to the first (the setup's
    Next button steps through the variants, and held, through the rules)."""
    return names[(names.index(name) + 1) % len(names)] if name in names else names[0]


class Arbiter:
    """What the board's buttons do to one session."""

    def __init__(self, session: ArbiterHost) -> None:
        self.session = session

    def press(self, t: float, name: str, kind: str) -> None:
        """A button, ``press`` or ``hold``, read in the phase the game is in."""
        s = self.session
        if self.signing_button(t, name, kind):
            return
        if name == "confirm" and kind == "hold" and s.menu is None and s.state.held is not None:
            s.start_clocks(t, "arbiter")  # the board's arbiter starts this table's clocks
            return
        if s.menu is not None:
            self.menu_button(t, name)
        elif s.phase == Phase.SETUP:
            self.setup_button(t, name, kind)
        elif s.phase == Phase.OVER:
            self.over_button(t, name)
        else:
            self.play_button(t, name, kind)

    def setup_button(self, t: float, name: str, kind: str) -> None:
        s = self.session
        if name == "next" and s.game.ply == 0:
            if kind == "hold":
                self.reconfigure(t, rules=_after(tuple(PROFILES), s.config.rules))
            else:
                self.reconfigure(t, variant=_after(variants.NAMES, s.game.variant or ""))
        elif name == "confirm":
            s.handle(s.tracker.feed_button(t, name), t)
        elif name == "pause" and kind == "hold":
            self.open_menu(t, settings_menu(s.info, play=s.play))
        else:
            self.ignored(t, name, texts.SETUP_BUTTONS)

    def expect_assignment(self, asg: str) -> None:
        """The hub's assignment is on the board (its link put it there): wait for it to be
        confirmed, unless this game's journal says it already is."""
        s = self.session
        s.signing.awaiting = asg
        if s.signing.waiting:  # the display keeps the players' names in view
            names = {k: s.info.get(k) or "?" for k in ("table", "blue", "red")}
            s.say(texts.CONFIRM_TABLE, **names)

    def signing_button(self, t: float, name: str, kind: str) -> bool:
        """A press that confirms the table, signs the sheet or disputes; True when it did."""
        s = self.session
        side = PLAYER_BUTTONS.get(name)
        asg = s.signing.waiting
        confirming = name == "confirm" or side is not None
        if (
            asg is not None
            and confirming
            and s.menu is None
            and s.phase in (Phase.SETUP, Phase.PLAY)
            and not s.game.ply
            and kind == "press"
        ):
            by = "arbiter" if side is None else name
            self.signing_record({"k": RecordKind.CONFIRM, "t": t, "asg": asg, "by": by})
            if s.signing.is_confirmed(asg):
                if s.state.held == "table" and s.state.held_asg == asg:
                    s.start_clocks(t, "table")  # the event starts each table's clocks so
                else:
                    s.say(texts.CONFIRMED_WAIT if s.state.held else texts.CONFIRMED)
            else:  # one player so far (the arbiter's alone confirms)
                assert side is not None
                s.say(texts.CONFIRMED_ONE, SIDE=side_word(side).upper(), OTHER=side_word(1 - side))
            s.log_event(t, "confirmed", {"asg": asg, "by": by})
            return True
        if side is None:
            return False
        if kind == "hold" and s.phase != Phase.SETUP:
            self.signing_record(
                {
                    "k": RecordKind.DISPUTE,
                    "t": t,
                    "side": side,
                    "ply": s.game.ply,
                    "sensed": s.sensed.evidence(),
                }
            )
            s.cue(t, CueName.WARNING)
            if s.phase != Phase.OVER and not s.paused:
                self.toggle_pause(t)
            s.say(texts.DISPUTED, SIDE=side_word(side).upper())
            s.log_event(t, "dispute", {"side": side})
        elif kind == "press" and s.phase == Phase.OVER and side not in s.signing.signed:
            self.signing_record({"k": RecordKind.SIGN, "t": t, "side": side})
            if len(s.signing.signed) == 2:
                s.say(texts.SIGNED_BOTH)
            else:
                s.say(texts.SIGNED_ONE, SIDE=side_word(side).upper(), OTHER=side_word(1 - side))
            s.log_event(t, "signed", {"side": side})
        else:
            s.say(texts.PLAYER_BUTTON, SIDE=side_word(side).upper())
        return True

    def signing_record(self, record: Record) -> None:
        s = self.session
        s.write(record)
        s.apply(record)

    def desk_pause(self, t: float, pause: bool) -> bool:
        """The arbiter's desk paused (or resumed) the game from the hub: as the Pause button
        does, the record saying who. False when there was nothing to do."""
        s = self.session
        if s.phase not in (Phase.PLAY, Phase.RESTORE) or s.paused == pause:
            return False
        if pause:
            s.clocks.stop(t)
        record: Record = {
            "k": RecordKind.PAUSE if pause else RecordKind.RESUME,
            "t": t,
            "by": "desk",
            **s.clocks.state(t),
        }
        s.write(record)
        s.apply(record)
        if pause:
            s.say(texts.DESK_PAUSED)
        else:
            s.message = ""
            s.resume_time(t)
        s.log_event(t, "pause" if pause else "resume", {"by": "desk"})
        return True

    def reconfigure(self, t: float, **changes: Any) -> None:
        s = self.session
        config = type(s.config)(**{**s.config.__dict__, **changes})
        try:
            config.profile()
        except ProfileError as exc:
            s.message = str(exc)
            return
        s.config = config
        s.new_game_objects(config)
        s.write(s.start_record(t))
        s.say(texts.VARIANT_CHOSEN, variant=s.variant.capitalize(), rules=config.rules)
        if s.board is not None:  # the new tracker reads the board as it stands
            s.handle(s.tracker.feed_frame(t, s.board), t)

    def play_button(self, t: float, name: str, kind: str) -> None:
        s = self.session
        if name == "pause":
            if kind == "hold":
                self.open_menu(t, adjudication_menu())
            else:
                self.toggle_pause(t)
        elif name == "takeback":
            self.takeback(t)
        elif name == "new_game":
            self.open_menu(t, abandon_menu())
        elif name in ("confirm", "next"):
            events = s.tracker.feed_button(t, name)
            g = s.tracker.guidance()
            if (
                name == "confirm"
                and s.play.hints_on
                and events
                and isinstance(events[-1], ButtonIgnored)
                and g.phase == "idle"
            ):
                s.hint_requests += 1  # nothing to confirm: the players ask for a hint
            s.handle(events, t)
        else:
            self.ignored(t, name, None)

    def over_button(self, t: float, name: str) -> None:
        s = self.session
        if name == "new_game":
            s.new_game(t)
        elif name == "next" and s.current_review() is not None:
            s.review_page += 1  # the tally, then each of the review's pages in turn
        elif (
            name == "takeback"
            and s.outcome
            and s.outcome.reason in ("no-chips", "no-moves", "repetition")
        ):
            self.takeback(t)
        else:
            self.ignored(t, name, texts.OVER_BUTTONS)

    def menu_button(self, t: float, name: str) -> None:
        s = self.session
        menu = s.menu
        assert menu is not None
        if name == "next":
            s.menu = menu.next()
        elif name == "confirm":
            s.menu = None
            choice = menu.choice
            if choice.action == MenuAction.CANCEL:
                s.log_event(t, "menu", {"action": "cancel"})
                s.resume_time(t)
            elif choice.action == MenuAction.ABANDON:
                s.end_game(t, "abandon", None)
                s.new_game(t)
            elif choice.action == MenuAction.PICK:
                assert choice.side is not None
                self.open_menu(t, names_menu(choice.side, s.roster, s.info))
            elif choice.action == MenuAction.NAME:
                key = side_name(choice.side if choice.side is not None else BLUE)
                s.set_info(t, {key: choice.value})
                # on to the next line: Red after Blue, then Close
                self.open_menu(t, settings_menu(s.info, 2 if key == "blue" else 0, s.play))
            elif choice.action in (
                MenuAction.COMPUTER,
                MenuAction.LEVEL,
            ):  # practice: Confirm turns the value
                try:
                    s.set_play(t, {choice.action: choice.value})
                except play_mode.PlayError as exc:
                    s.message = str(exc)
                self.open_menu(t, settings_menu(s.info, menu.selected, s.play))
            else:
                s.end_game(t, choice.action, choice.side)
        elif name == "pause":
            s.menu = None
            s.resume_time(t)
        else:
            self.ignored(t, name, texts.MENU_BUTTONS)

    def open_menu(self, t: float, menu: Menu) -> None:
        s = self.session
        s.menu = menu
        s.clocks.stop(t)

    def toggle_pause(self, t: float) -> None:
        s = self.session
        if s.paused:
            record: Record = {"k": RecordKind.RESUME, "t": t, **s.clocks.state(t)}
            s.write(record)
            s.apply(record)
            s.message = ""
            s.resume_time(t)
        else:
            s.clocks.stop(t)
            record = {"k": RecordKind.PAUSE, "t": t, **s.clocks.state(t)}
            s.write(record)
            s.apply(record)
            s.say(texts.PAUSED)
        s.log_event(t, "pause" if s.paused else "resume", {})

    def takeback(self, t: float) -> None:
        s = self.session
        if not s.game.ply:
            self.ignored(t, "takeback", texts.NO_TAKEBACK)
            return
        record = {
            "k": RecordKind.TAKEBACK,
            "t": t,
            "ply": s.game.ply - 1,
            **s.clocks.state(t),
        }
        if not s.write(record):
            s.cue(t, CueName.ERROR)
            return
        s.clocks.stop(t)
        s.clocks.new_move(t)
        move = s.apply(record)
        s.shown = None
        s.phase = Phase.RESTORE
        s.say(texts.TAKEBACK, move=move)
        s.handle(s.tracker.set_position(s.game, t), t)
        s.log_event(t, "takeback", {"move": str(move)})

    def ignored(self, t: float, name: str, hint: texts.Text | None) -> None:
        s = self.session
        if hint is None:
            s.say(texts.NOTHING_TO_DO, button=name.replace("_", " ").capitalize())
        else:
            s.say(hint)
        s.log_event(t, "button_ignored", {"name": name})
