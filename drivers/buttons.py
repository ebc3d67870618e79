"""The arbiter's buttons: short presses and holds, collected as events the session polls.

`poll()` returns what happened since the last call, in order. A press is reported when the
button is released before `hold_seconds`; a hold when it has been down that long (and no press
follows it). Backends: `GpioButtons` (gpiozero Button, pull-ups, switch to ground) and
`MockButtons` (a test or the simulator injects events).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from drivers.base import Device

BUTTON_NAMES = ("pause", "confirm", "next", "takeback", "new_game", "blue", "red")
"""The arbiter's five, then each player's own (Blue's and Red's side: sign, confirm, dispute)."""


@dataclass(frozen=True)
class ButtonEvent:
    name: str
    kind: Literal["press", "hold"]
    t: float


class Buttons(Device):
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._events: list[ButtonEvent] = []
        self._lock = threading.Lock()

    def _record(self, name: str, kind: Literal["press", "hold"]) -> None:
        with self._lock:
            self._events.append(ButtonEvent(name, kind, self.clock()))

    def poll(self) -> list[ButtonEvent]:
        self.check_open()
        with self._lock:
            events, self._events = self._events, []
        return events


class MockButtons(Buttons):
    def inject(self, name: str, kind: Literal["press", "hold"] = "press") -> None:
        self.check_open()
        if name not in BUTTON_NAMES:
            raise ValueError(f"no button {name!r}; known: {', '.join(BUTTON_NAMES)}")
        self._record(name, kind)


class GpioButtons(Buttons):
    def __init__(
        self,
        pins: Mapping[str, int],
        hold_seconds: float = 1.5,
        bounce_seconds: float | None = None,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        from gpiozero import Button

        super().__init__(clock)
        self._buttons = []
        self._held: set[str] = set()
        try:
            for name, pin in pins.items():
                button = Button(
                    pin,
                    pull_up=True,
                    bounce_time=bounce_seconds,
                    hold_time=hold_seconds,
                    pin_factory=pin_factory,
                )
                button.when_held = self._on_held(name)
                button.when_released = self._on_released(name)
                self._buttons.append(button)
        except Exception:
            self.close()
            raise

    def _on_held(self, name: str) -> Callable[[], None]:
        def held() -> None:
            self._held.add(name)
            self._record(name, "hold")

        return held

    def _on_released(self, name: str) -> Callable[[], None]:
        def released() -> None:
            if name in self._held:
                self._held.discard(name)
            else:
                self._record(name, "press")

        return released

    def close(self) -> None:
        for button in self._buttons:
            button.close()
        self._buttons = []
        super().close()
