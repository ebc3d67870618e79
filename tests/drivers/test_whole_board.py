"""A real board's profile built whole, off the Pi: every backend the factory knows, on
gpiozero's mock pins and the fake I2C and SPI buses (the chips behind them answer as the real
ones do), and a real pyserial loopback port for the serial scoresheet."""

from __future__ import annotations

from pathlib import Path

import pytest

from drivers.factory import DeviceError, build_devices
from drivers.profile import load_profile
from drivers.scoresheet import OledScoresheet, SerialScoresheet
from tests.drivers.fakes import FakeI2C, FakeSpi, Ht16k33Chip, Mcp23017Chip

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


def profile_from(tmp_path: Path, name: str, *changes: tuple[str, str]):
    """A shipped profile with some lines changed (each change: old text, new text)."""
    text = (HARDWARE / name).read_text()
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / name
    path.write_text(text)
    return load_profile(path)


SERIAL_SHEET = ('backend = "ssd1306"\ni2c_address = 0x3C', 'backend = "serial"\nport = "loop://"')


def test_the_pi_gpio_board_builds_and_every_device_works(tmp_path, pwm_factory):
    profile = profile_from(tmp_path, "pi-gpio.toml", SERIAL_SHEET)
    left, right = Ht16k33Chip(), Ht16k33Chip()
    spi = FakeSpi()
    clock = [1.0]
    with build_devices(
        profile, pin_factory=pwm_factory, i2c=FakeI2C({0x70: left, 0x71: right}), spi=spi,
        clock=lambda: clock[0],
    ) as devices:  # fmt: skip
        assert devices.sensors.current.occupied == frozenset()
        devices.leds.show({(1, 0): (255, 0, 0)})
        assert spi.writes  # the frame went out on MOSI
        devices.clocks.show("19:59", "00:42", True)
        assert any(left.ram) and any(right.ram)
        devices.buzzer.play("move")
        devices.buzzer.wait(2)
        assert isinstance(devices.scoresheet, SerialScoresheet)
        devices.scoresheet.show(["BLUE 0", "RED 0"])
        assert devices.scoresheet.port.read(64).decode().endswith("BLUE 0\r\nRED 0\r\n")
        assert devices.buttons.poll() == []
    assert devices.scoresheet.closed and devices.leds.closed


def test_the_sensors_on_an_i2c_expander_and_an_active_buzzer(tmp_path, factory):
    sensors = (
        'backend = "gpio-matrix"\nrows = [5, 6, 12, 13, 16, 19, 20, 26]  # board rows y = 0..7 '
        "from Blue's side, driven low in turn\ncolumns = [17, 22, 23, 27]",
        'backend = "mcp23017"\ni2c_address = 0x20',
    )
    profile = profile_from(
        tmp_path, "pi-gpio.toml", SERIAL_SHEET, sensors,
        ('backend = "tonal"', 'backend = "active"'),
        ('backend = "neopixel-spi"', 'backend = "none"'),
    )  # fmt: skip
    chip = Mcp23017Chip()
    chip.closed.add((0, 0))  # a chip on (1, 0): row 0, column 0
    i2c = FakeI2C({0x20: chip, 0x70: Ht16k33Chip(), 0x71: Ht16k33Chip()})
    with build_devices(profile, pin_factory=factory, i2c=i2c) as devices:
        assert devices.leds is None
        for _ in range(5):
            devices.sensors.scan()
        assert devices.sensors.current.occupied == frozenset({(1, 0)})
        devices.buzzer.play("error")
        devices.buzzer.wait(2)
    assert [s.state for s in factory.pin(18).states][-1] is False


def test_an_oled_that_is_not_there_is_one_clear_error(tmp_path, pwm_factory):
    """No I2C bus on this machine: the factory names the section and the backend."""
    profile = profile_from(
        tmp_path, "pi-gpio.toml", ('backend = "neopixel-spi"', 'backend = "none"')
    )
    i2c = FakeI2C({0x70: Ht16k33Chip(), 0x71: Ht16k33Chip()})
    with pytest.raises(DeviceError, match=r"\[scoresheet\] cannot start backend 'ssd1306'"):
        build_devices(profile, pin_factory=pwm_factory, i2c=i2c)


def test_an_unknown_oled_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown OLED 'ssd9999': ssd1306, sh1106 or ssd1322"):
        OledScoresheet("ssd9999")


def test_a_clock_display_that_does_not_answer_is_one_clear_error(tmp_path, pwm_factory):
    profile = profile_from(tmp_path, "pi-gpio.toml", SERIAL_SHEET)
    with pytest.raises(DeviceError, match=r"\[clocks\] cannot start backend 'ht16k33'"):
        build_devices(profile, pin_factory=pwm_factory, i2c=FakeI2C({0x70: Ht16k33Chip()}),
                      spi=FakeSpi())  # fmt: skip
