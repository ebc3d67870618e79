"""What a Damath game on the board starts from (its variant, rules, players, play settings), read
from the command line or a settings file. Its own module: the session's parts (the buttons'
arbiter, the journal's resume) name it without importing the session."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from controller.i18n import _
from controller.record import info as game_info
from controller.record import play as play_mode
from controller.rules.profiles import Profile, get_profile


@dataclass
class SessionConfig:
    """What a game starts from; the app reads it from the command line or a settings file."""

    variant: str = "integer"
    rules: str = "official"
    rule_settings: dict[str, Any] = field(default_factory=dict)
    """Profile settings changed by the arbiter (``Profile.with_settings``), e.g. touch_move."""
    tracker_settings: dict[str, Any] = field(default_factory=dict)
    position: dict[str, Any] | None = None
    """A JSON position to start from instead of the opening (a resumed or adjourned game)."""
    checkpoint_seconds: float = 10.0
    """While time runs, a clock checkpoint is journaled this often: the most a power cut can
    give back to the players."""
    info: dict[str, str] = field(default_factory=dict)
    """Players and event (``record/info.py``): names, schools, event, round, board, date."""
    play: dict[str, Any] = field(default_factory=dict)
    """Practice or tournament (``record/play.py``): clocks, takeback, capture preview."""
    roster: tuple[str, ...] | None = None
    """The class list the board's buttons choose names from; None: read ``players.txt``
    beside the journal."""

    def __post_init__(self) -> None:
        """``run --set NAME=VALUE`` hands every setting over as a rule setting: the players,
        the event and the play settings are taken out of them here, by name, and checked."""
        if any(k in game_info.FIELDS or k in play_mode.NAMES for k in self.rule_settings):
            rule_settings = dict(self.rule_settings)
            self.info = {**self.info}
            self.play = {**self.play}
            for key in list(rule_settings):
                if key in game_info.FIELDS:
                    self.info[key] = rule_settings.pop(key)
                elif key in play_mode.NAMES:
                    self.play[key] = rule_settings.pop(key)
            self.rule_settings = rule_settings
        self.info = game_info.clean(self.info)
        self.play_settings()

    def profile(self) -> Profile:
        return get_profile(self.rules).with_settings(self.rule_settings)

    def play_settings(self) -> play_mode.PlaySettings:
        """The play settings, checked: a practice help asked for outside practice is refused
        clearly rather than silently ignored."""
        settings = play_mode.parse(self.play)
        if not settings.practice:
            wrong = [
                name
                for name, asked in (
                    ("clocks=off", settings.clocks == "off"),
                    ("takeback=players", settings.takeback == "players"),
                    ("capture_preview=true", settings.capture_preview),
                    (f"computer={settings.computer}", settings.computer != "off"),
                    ("hints=true", settings.hints),
                )
                if asked
            ]
            if wrong:
                raise play_mode.PlayError(
                    _("{join}: practice help, for practice games only (add practice=true)").format(
                        join=", ".join(wrong)
                    )
                )
        return settings
