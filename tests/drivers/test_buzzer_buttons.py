import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from drivers.buttons import ButtonEvent, GpioButtons, MockButtons
from drivers.buzzer import PATTERNS, ActiveTone, Buzzer, MockTone, TonalTone


class RecordingPWMPin(MockPWMPin):
    def __init__(self, factory, info):
        self.tones: list[float | None] = []
        super().__init__(factory, info)

    def _set_state(self, value):
        super()._set_state(value)
        sound = round(self._frequency, 2) if value and self._frequency else None
        if sound != (self.tones[-1] if self.tones else None):
            self.tones.append(sound)

    def _set_frequency(self, value):
        super()._set_frequency(value)
        if value is None and self.tones and self.tones[-1] is not None:
            self.tones.append(None)


@pytest.fixture
def recording_factory():
    f = MockFactory(revision="d04170", pin_class=RecordingPWMPin)
    yield f
    f.reset()
    f.close()


def sounded(pattern):
    out = []
    for frequency, _ in pattern:
        out.append(frequency)
    out.append(None)
    collapsed = []
    for f in out:
        if not collapsed or f != collapsed[-1]:
            collapsed.append(f)
    return collapsed


@pytest.mark.parametrize("name", ["move", "error", "warning", "game_over"])
def test_patterns_on_a_mock_pwm_pin(recording_factory, name):
    with Buzzer(TonalTone(18, recording_factory)) as buzzer:
        buzzer.play(name)  # returns at once: test_buzzer_play_returns_before_the_pattern_ends
        buzzer.wait(5)
        pin = recording_factory.pin(18)
        assert pin.tones == sounded(PATTERNS[name])
        assert pin.state == 0


def test_a_new_pattern_cuts_the_current_one_short():
    tone = MockTone()
    buzzer = Buzzer(tone)
    buzzer.play("time_up")
    buzzer.play("move")
    buzzer.wait(2)
    buzzer.close()
    assert [f for _, f in tone.events] == [880.0, None, 1760.0, None]


def test_active_buzzer_switches_on_and_off(factory):
    with Buzzer(ActiveTone(13, factory)) as buzzer:
        buzzer.play("error")
        buzzer.wait(2)
    assert [s.state for s in factory.pin(13).states] == [False, True, False, True, False]


def test_unknown_pattern_is_a_clear_error():
    with pytest.raises(ValueError, match="no buzzer pattern 'tada'"):
        Buzzer(MockTone()).play("tada")


def wait_for(predicate, timeout=10.0):
    end = time.monotonic() + timeout
    while not predicate() and time.monotonic() < end:
        time.sleep(0.01)


def test_short_press_and_hold(factory, ticker):
    buttons = GpioButtons({"pause": 4, "confirm": 24}, 0.1, None, factory, ticker)
    with buttons:
        pause, confirm = factory.pin(4), factory.pin(24)
        pause.drive_low()
        pause.drive_high()
        assert buttons.poll() == [ButtonEvent("pause", "press", 100.0)]
        ticker.t = 101.0
        confirm.drive_low()
        events: list[ButtonEvent] = []
        wait_for(lambda: events.extend(buttons.poll()) or events)
        confirm.drive_high()
        assert events == [ButtonEvent("confirm", "hold", 101.0)]
        assert buttons.poll() == []  # no press after a hold


def test_mock_buttons_inject():
    buttons = MockButtons(lambda: 5.0)
    buttons.inject("new_game", "hold")
    assert buttons.poll() == [ButtonEvent("new_game", "hold", 5.0)]
    with pytest.raises(ValueError, match="no button 'reset'"):
        buttons.inject("reset")
