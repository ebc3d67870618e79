"""The simulated board's wiring, written once: its profile from the package, and typed hands
for its mock sensors and buttons; a closed device refuses to be used."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.board.sim import sim_devices, sim_profile
from drivers.base import DeviceClosed
from drivers.factory import DeviceError, build_devices
from drivers.profile import load_profile

ROOT = Path(__file__).resolve().parents[2]


def test_the_sim_profile_is_one_file_shipped_in_the_package():
    shipped = sim_profile()
    linked = load_profile(ROOT / "hardware" / "sim.toml")
    assert (ROOT / "hardware" / "sim.toml").resolve() == ROOT / "controller" / "board" / "sim.toml"
    assert shipped.buzzer == linked.buzzer and shipped.leds == linked.leds
    assert shipped.buzzer.backend == "mock" and shipped.leds.supply_amps == 2.0
    for section in ("sensors", "buttons", "clocks", "scoresheet"):
        assert getattr(shipped, section).backend == "mock"


def test_the_hands_move_chips_and_press_buttons_on_the_mock_board():
    now = [0.0]
    devices, hands = sim_devices(lambda: now[0])
    with devices:
        assert hands.senses and hands.presses
        hands.set_occupied({(1, 0), (3, 2)})
        now[0] = 0.5
        frame = devices.sensors.scan()
        assert frame is not None and frame.occupied == frozenset({(1, 0), (3, 2)})
        assert frame.t == 0.5
        hands.press("pause", "hold")
        events = devices.buttons.poll()
        assert [(e.name, e.kind) for e in events] == [("pause", "hold")]
        with pytest.raises(ValueError, match="no button 'reset'"):
            hands.press("reset")
        assert hands.last_led_frame() is None and hands.clock_faces() is None
        devices.leds.show({(1, 0): (9, 9, 9)})
        assert hands.led_frames() == 1 and hands.last_led_frame() == devices.leds.encode(
            {(1, 0): (9, 9, 9)}
        )
        devices.clocks.show("19:59", "0:58", True)
        assert hands.clock_faces() == ("1959", " 058", True)
        devices.buzzer.play("move")
        devices.buzzer.wait(2)
        assert [f for _t, f in hands.tones()] == [1760.0, None]


def test_real_devices_have_no_mock_hands():
    profile = load_profile(ROOT / "hardware" / "sim.toml")
    devices = build_devices(profile, only=("leds", "clocks"))  # no sensors, no buttons
    hands = devices.controls()
    assert not hands.senses and not hands.presses
    with pytest.raises(DeviceError, match="sensors are not mocks"):
        hands.set_occupied(set())
    with pytest.raises(DeviceError, match="buttons are not mocks"):
        hands.press("pause")
    devices.close()


def test_a_closed_device_refuses_to_be_used():
    devices, hands = sim_devices()
    devices.close()
    for use in (
        lambda: devices.sensors.scan(),
        lambda: devices.leds.show({}),
        lambda: devices.clocks.show("1", "2", True),
        lambda: devices.buzzer.play("move"),
        lambda: devices.buttons.poll(),
        lambda: devices.scoresheet.show(["x"]),
        lambda: hands.set_occupied(set()),
        lambda: hands.press("pause"),
    ):
        with pytest.raises(DeviceClosed, match="was closed: it cannot be used again"):
            use()
    devices.close()  # closing twice is still harmless
