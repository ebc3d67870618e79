"""The buzzer: named, non-blocking sound patterns; a new pattern cuts the current one short.

Patterns are data (PATTERNS), played on a background thread. Backends: a passive piezo through
gpiozero's TonalBuzzer (PWM, any pitch), an active buzzer through gpiozero's Buzzer (on/off, one
pitch), and `MockTone` which records what would have sounded.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from drivers.base import Device
from drivers.interfaces import Tone

# name -> ((frequency Hz or None for silence, seconds), ...)
Pattern = tuple[tuple[float | None, float], ...]
"""(frequency in Hz or None for a rest, seconds) in turn."""
Patterns = dict[str, Pattern]

PATTERNS: Patterns = {
    "move": ((1760.0, 0.06),),
    "error": ((220.0, 0.15), (None, 0.05), (220.0, 0.15)),
    "warning": ((1320.0, 0.08), (None, 0.12), (1320.0, 0.08)),
    "time_up": ((880.0, 0.4), (None, 0.1), (880.0, 0.4), (None, 0.1), (880.0, 0.8)),
    "game_over": ((523.25, 0.15), (659.25, 0.15), (783.99, 0.15), (1046.5, 0.4)),
}


class Buzzer(Device):
    """play(name) returns at once; wait() blocks until the current pattern has finished."""

    def __init__(self, tone: Tone, patterns: Patterns = PATTERNS) -> None:
        self.tone = tone  # .on(frequency), .off(), .close()
        self.patterns = patterns
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def play(self, name: str) -> None:
        self.check_open()
        if name not in self.patterns:
            raise ValueError(f"no buzzer pattern {name!r}; known: {', '.join(self.patterns)}")
        with self._lock:
            self._halt()
            self._stop = threading.Event()
            self._thread = threading.Thread(
                target=self._run, args=(self.patterns[name], self._stop), daemon=True
            )
            self._thread.start()

    def _run(self, pattern: Pattern, stop: threading.Event) -> None:
        try:
            for frequency, seconds in pattern:
                if stop.is_set():
                    break
                if frequency is None:
                    self.tone.off()
                else:
                    self.tone.on(frequency)
                if stop.wait(seconds):
                    break
        finally:
            self.tone.off()

    def _halt(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def wait(self, timeout: float | None = None) -> None:
        thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def close(self) -> None:
        if not self.closed:
            with self._lock:
                self._halt()
            self.tone.close()
        super().close()


class MockTone:
    """Records (t, frequency or None) for every change, t from the injected clock."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.events: list[tuple[float, float | None]] = []

    def on(self, frequency: float) -> None:
        self.events.append((self.clock(), frequency))

    def off(self) -> None:
        if self.events and self.events[-1][1] is not None:
            self.events.append((self.clock(), None))

    def close(self) -> None:
        pass


class TonalTone:
    """A passive piezo on a PWM-capable pin: gpiozero TonalBuzzer, 220 Hz .. 3.5 kHz."""

    def __init__(self, pin: int, pin_factory: Any = None) -> None:
        from gpiozero import TonalBuzzer
        from gpiozero.tones import Tone

        self._buzzer = TonalBuzzer(
            pin, mid_tone=Tone.from_frequency(880), octaves=2, pin_factory=pin_factory
        )
        self._tone = Tone

    def on(self, frequency: float) -> None:
        self._buzzer.play(self._tone.from_frequency(frequency))

    def off(self) -> None:
        self._buzzer.stop()

    def close(self) -> None:
        self._buzzer.close()


class ActiveTone:
    """An active buzzer (its own oscillator): gpiozero Buzzer, on or off, pitch ignored."""

    def __init__(self, pin: int, pin_factory: Any = None) -> None:
        from gpiozero import Buzzer as GpioBuzzer

        self._buzzer = GpioBuzzer(pin, pin_factory=pin_factory)

    def on(self, frequency: float) -> None:
        self._buzzer.on()

    def off(self) -> None:
        self._buzzer.off()

    def close(self) -> None:
        self._buzzer.close()
