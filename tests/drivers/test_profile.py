import textwrap
from pathlib import Path

import pytest

from drivers.factory import DeviceError, build_devices
from drivers.profile import ProfileError, load_profile
from firmware import config as pico_config

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"

BASE = """
[board]
name = "t"
pi = 4
[sensors]
backend = "gpio-matrix"
rows = [5, 6, 12, 13, 16, 19, 20, 26]
columns = [17, 22, 23, 27]
[leds]
backend = "neopixel-spi"
count = 32
supply_amps = 2.0
[clocks]
backend = "ht16k33"
[buzzer]
backend = "tonal"
pin = 18
[buttons]
backend = "gpio"
[buttons.pins]
pause = 4
[scoresheet]
backend = "ssd1306"
"""


def write(tmp_path, text: str) -> Path:
    path = tmp_path / "board.toml"
    path.write_text(textwrap.dedent(text))
    return path


@pytest.mark.parametrize("name", ["pi-gpio", "pico", "sim"])
def test_shipped_profiles_load(name):
    profile = load_profile(HARDWARE / f"{name}.toml")
    assert len(profile.leds.mapping) == 32


def test_pico_profile_needs_the_link():
    profile = load_profile(HARDWARE / "pico.toml")
    assert profile.link.port == "/dev/ttyACM0" and profile.sensors.backend == "link"
    assert len(pico_config.ROW_PINS) == 8 and len(pico_config.COLUMN_PINS) == 4


def test_base_profile_is_valid(tmp_path):
    assert load_profile(write(tmp_path, BASE)).sensors.rows[0] == 5


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("pin = 18", "pin = 40"), r"\[buzzer\] pin: unknown pin 40"),
        (
            ("pin = 18", "pin = 17"),
            r"\[buzzer\] pin: GPIO17 is already used by \[sensors\] columns",
        ),
        (("pause = 4", "pause = 10"), r"\[buttons.pins\] pause: GPIO10 is already used by SPI0"),
        (("[clocks]\nbackend", "[clockz]\nbackend"), r"\[clockz\]: unknown section"),
        (('[buzzer]\nbackend = "tonal"\npin = 18\n', ""), r"\[buzzer\]: missing section"),
        (("count = 32", "count = 20"), r"\[leds\] count: the layout needs LED index 31"),
        (('backend = "tonal"', 'backend = "piezo"'), r"unknown backend 'piezo'"),
        (("rows = [5, 6, 12, 13, 16, 19, 20, 26]", "rows = [5, 6]"), r"needs 8 pins, got 2"),
        (("supply_amps = 2.0", ""), r"\[leds\] supply_amps: missing"),
        (("pi = 4", "pi = 5\n[leds2]"), r"\[leds2\]: unknown section"),
    ],
)
def test_each_error_names_file_section_and_problem(tmp_path, change, message):
    path = write(tmp_path, BASE.replace(*change))
    with pytest.raises(ProfileError, match=message) as err:
        load_profile(path)
    assert str(err.value).startswith(str(path))


def test_led_map_errors(tmp_path):
    lines = [
        f'"{x},{y}" = [{i}]'
        for i, (x, y) in enumerate(load_profile(HARDWARE / "sim.toml").leds.mapping)
    ]
    good = BASE + "[leds.map]\n" + "\n".join(lines) + "\n"
    assert load_profile(write(tmp_path, good)).leds.mapping[(1, 0)] == (0,)
    with pytest.raises(ProfileError, match=r"LED index 40 out of range 0..31"):
        load_profile(write(tmp_path, good.replace('"1,0" = [0]', '"1,0" = [40]')))
    with pytest.raises(ProfileError, match=r"'3,0': LED 1 is already under square \(1, 0\)"):
        load_profile(write(tmp_path, good.replace('"1,0" = [0]', '"1,0" = [1]')))
    with pytest.raises(ProfileError, match=r"not a playable square"):
        load_profile(write(tmp_path, good.replace('"1,0" = [0]', '"0,0" = [0]')))


def test_pwm_leds_refused_on_a_pi_5(tmp_path):
    text = BASE.replace("pi = 4", "pi = 5").replace('"neopixel-spi"', '"neopixel-pwm"\npin = 12')
    with pytest.raises(ProfileError, match="neopixel-pwm fails on a Pi 5"):
        load_profile(write(tmp_path, text))


def test_link_backend_without_link_section(tmp_path):
    text = BASE.replace('backend = "gpio-matrix"', 'backend = "link"')
    with pytest.raises(ProfileError, match=r"\[link\]: missing section"):
        load_profile(write(tmp_path, text))


def test_unreadable_and_malformed_files(tmp_path):
    with pytest.raises(ProfileError, match="cannot read"):
        load_profile(tmp_path / "nope.toml")
    with pytest.raises(ProfileError, match="not valid TOML"):
        load_profile(write(tmp_path, "[board\n"))


def test_build_sim_devices():
    with build_devices(load_profile(HARDWARE / "sim.toml"), clock=lambda: 1.0) as devices:
        devices.sensors.source.set({(1, 0)})
        assert devices.sensors.scan().occupied == {(1, 0)}
        devices.leds.show({(1, 0): (0, 0, 255)})
        assert devices.leds.writer.frames[0][:3] == b"\x00\x00\xff"
        devices.clocks.show("20:00", "20:00", True)
        devices.buzzer.play("move")
        devices.buttons.inject("pause")
        devices.scoresheet.show(["x"])


def test_a_device_that_cannot_start_gives_a_clear_error(factory):
    with pytest.raises(
        DeviceError, match=r"pi-gpio.toml: \[leds\] cannot start backend 'neopixel-spi'"
    ):
        build_devices(load_profile(HARDWARE / "pi-gpio.toml"), pin_factory=factory)
    # everything built before the failure was released: the same pins can be claimed again
    from drivers.sensors import GpioMatrixSource

    GpioMatrixSource([5, 6, 12, 13, 16, 19, 20, 26], [17, 22, 23, 27], factory).close()
