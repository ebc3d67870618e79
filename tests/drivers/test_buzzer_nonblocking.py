"""play() hands the pattern to a background thread and returns: the scan loop never waits for a
sound. Checked by order of events, not by time (the latency is measured in
bench/bench_buzzer.py): the tone below holds the pattern's first note until the test lets it go,
so a play() that waited for the pattern could only return after the release."""

from __future__ import annotations

import threading

from drivers.buzzer import PATTERNS, Buzzer, MockTone


class HeldTone(MockTone):
    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.sounding = threading.Event()
        self.notes_done = 0

    def on(self, frequency: float) -> None:
        super().on(frequency)
        self.sounding.set()
        self.release.wait(2)
        self.notes_done += 1


def test_buzzer_play_returns_before_the_pattern_ends():
    tone = HeldTone()
    with Buzzer(tone) as buzzer:
        buzzer.play("game_over")
        done_at_return = tone.notes_done
        assert tone.sounding.wait(10)
        tone.release.set()
        buzzer.wait(10)
    assert done_at_return == 0
    sounded = [f for _, f in tone.events if f is not None]
    assert sounded == [f for f, _ in PATTERNS["game_over"]]
