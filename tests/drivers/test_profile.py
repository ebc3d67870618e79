import re
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


@pytest.mark.parametrize("name", ["pi-gpio", "pi-hall", "pico", "sim"])
def test_shipped_profiles_load(name):
    profile = load_profile(HARDWARE / f"{name}.toml")
    assert len(profile.leds.mapping) == 32


def test_pico_profile_needs_the_link():
    profile = load_profile(HARDWARE / "pico.toml")
    assert profile.link.port == "/dev/ttyACM0" and profile.sensors.backend == "link"
    assert profile.link.write_timeout_ms == 500
    assert len(pico_config.ROW_PINS) == 8 and len(pico_config.COLUMN_PINS) == 4


def test_base_profile_is_valid(tmp_path):
    assert load_profile(write(tmp_path, BASE)).sensors.rows[0] == 5


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("pin = 18", "pin = 40"), r"\[buzzer\] pin \(PWM tone\): unknown pin 40"),
        (
            ("pin = 18", "pin = 17"),
            r"\[buzzer\] pin \(PWM tone\): GPIO17 is wanted by both \[sensors\] columns and",
        ),
        (
            ("pause = 4", "pause = 10"),
            r"\[buttons.pins\] pause: GPIO10 is wanted by both SPI0 MOSI \(GPIO10, the LED chain",
        ),
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


def test_pwm_leds_were_removed_with_the_reason_and_the_replacement(tmp_path):
    text = BASE.replace('"neopixel-spi"', '"neopixel-pwm"')
    with pytest.raises(ProfileError, match=r"\[leds\] backend: neopixel-pwm was removed: .*root"):
        load_profile(write(tmp_path, text))
    with pytest.raises(ProfileError, match='use backend = "neopixel-spi"'):
        load_profile(write(tmp_path, text))


def clash(tmp_path, text: str) -> str:
    with pytest.raises(ProfileError) as err:
        load_profile(write(tmp_path, text))
    return str(err.value)


def test_spi_chip_selects_are_taken_unless_the_profile_frees_ce1(tmp_path):
    """dtparam=spi=on gives GPIO7 and 8 to the kernel; the shipped profile frees GPIO7 with
    dtoverlay=spi0-1cs for the new-game button, and says so."""
    shipped = (HARDWARE / "pi-gpio.toml").read_text()
    assert load_profile(HARDWARE / "pi-gpio.toml").buttons.pins["new_game"] == 7
    message = clash(tmp_path, shipped.replace("spi_chip_selects = 1", "spi_chip_selects = 2"))
    assert "GPIO7 is wanted by both SPI0 CE1 chip-select" in message
    assert "[buttons.pins] new_game" in message
    assert "set [board] spi_chip_selects = 1 (dtoverlay=spi0-1cs" in message
    assert "(free pins: 14, 15)" in message
    message = clash(tmp_path, shipped.replace("new_game = 7", "new_game = 8"))
    assert "GPIO8 is wanted by both SPI0 CE0 chip-select" in message
    assert "move [buttons.pins] new_game to a free pin" in message


@pytest.mark.parametrize(
    ("change", "users"),
    [
        (
            ("pause = 4", "pause = 2"),
            ("I2C1 SDA (GPIO2, the clock displays, the scoresheet display)", "pause"),
        ),
        (("pause = 4", "pause = 3"), ("I2C1 SCL (GPIO3", "[buttons.pins] pause")),
        (("pin = 18", "pin = 11"), ("SPI0 SCLK (GPIO11", "[buzzer] pin (PWM tone)")),
        (("pin = 18", "pin = 9"), ("SPI0 MISO (GPIO9", "[buzzer] pin (PWM tone)")),
        (("pause = 4", "pause = 5"), ("[sensors] rows", "[buttons.pins] pause")),
    ],
)
def test_every_bus_pin_is_claimed_and_a_clash_names_both_users(tmp_path, change, users):
    message = clash(tmp_path, BASE.replace(*change))
    for user in users:
        assert user in message
    assert "fix: move [" in message and "free pins:" in message


def test_luma_control_pins_of_an_spi_display_are_claimed(tmp_path):
    """luma's SPI defaults (DC 24, RESET 25) land on the confirm and next buttons."""
    pico = (HARDWARE / "pico.toml").read_text()
    text = pico.replace('backend = "ssd1306"', 'backend = "ssd1322"')
    text = text.replace('name = "pico"', 'name = "pico"\nspi_chip_selects = 1')
    message = clash(tmp_path, text)
    assert "[scoresheet] dc_pin (luma's default: 24)" in message
    assert "[buttons.pins] confirm" in message
    moved = text.replace("[scoresheet]\n", "[scoresheet]\ndc_pin = 14\nreset_pin = 15\n")
    profile = load_profile(write(tmp_path, moved))
    assert (profile.scoresheet.dc_pin, profile.scoresheet.reset_pin) == (14, 15)
    assert {c.pin for c in profile.claims} >= {8, 9, 10, 11, 14, 15}  # SPI0 and CE0 too


def test_a_link_on_the_header_uart_claims_its_pins(tmp_path):
    pico = (HARDWARE / "pico.toml").read_text()
    text = pico.replace('port = "/dev/ttyACM0"', 'port = "/dev/ttyAMA0"').replace(
        "pause = 4", "pause = 14"
    )
    message = clash(tmp_path, text)
    assert "UART0 TXD (GPIO14, the link on /dev/ttyAMA0)" in message
    assert load_profile(HARDWARE / "pico.toml").uses("uart") is False


def test_what_each_shipped_profile_needs_from_the_pi():
    gpio = load_profile(HARDWARE / "pi-gpio.toml")
    assert (gpio.uses("i2c"), gpio.uses("spi"), gpio.uses("uart")) == (True, True, False)
    assert gpio.spi_chip_selects == 1 and gpio.sensors.settle_us == 20
    pico = load_profile(HARDWARE / "pico.toml")
    assert (pico.uses("i2c"), pico.uses("spi")) == (True, False)
    sim = load_profile(HARDWARE / "sim.toml")
    assert not any(sim.uses(bus) for bus in ("i2c", "spi", "uart"))


def test_settle_time_is_checked(tmp_path):
    text = BASE.replace("columns = [17, 22, 23, 27]", "columns = [17, 22, 23, 27]\nsettle_us = -1")
    assert "[sensors] settle_us: must be 0..1000" in clash(tmp_path, text)


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
        devices.controls().set_occupied({(1, 0)})
        assert devices.sensors.scan().occupied == {(1, 0)}
        devices.leds.show({(1, 0): (0, 0, 255)})
        assert devices.leds.writer.frames[0][:3] == b"\x00\x00\xff"
        devices.clocks.show("20:00", "20:00", True)
        devices.buzzer.play("move")
        devices.controls().press("pause")
        devices.scoresheet.show(["x"])


def test_a_device_that_cannot_start_gives_a_clear_error(factory):
    with pytest.raises(
        DeviceError, match=r"pi-gpio.toml: \[leds\] cannot start backend 'neopixel-spi'"
    ):
        build_devices(load_profile(HARDWARE / "pi-gpio.toml"), pin_factory=factory)
    # everything built before the failure was released: the same pins can be claimed again
    from drivers.sensors import GpioMatrixSource

    GpioMatrixSource([5, 6, 12, 13, 16, 19, 20, 26], [17, 22, 23, 27], factory).close()


DAM_PICO = (HARDWARE / "dam-pico.toml").read_text()


def test_the_12x12_dam_profile_has_one_led_under_each_of_its_72_squares():
    profile = load_profile(HARDWARE / "dam-pico.toml")
    assert (profile.size, profile.squares, profile.leds.count) == (12, 72, 72)
    assert sorted(i for leds in profile.leds.mapping.values() for i in leds) == list(range(72))
    assert profile.leds.mapping[(1, 0)] == (0,) and profile.leds.mapping[(0, 1)] == (11,)
    assert profile.leds.mapping[(10, 11)] == (66,)  # row 11 runs right to left: its last LED
    assert load_profile(HARDWARE / "pico.toml").size == 8  # no size: 8 x 8, as before


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("count = 72", "count = 32"),
            r"\[leds\] count: the layout needs LED index 71, count is 32$",
        ),
        (("size = 12", "size = 10"), r"\[board\] size: must be 8 or 12 squares a side, not 10$"),
        (
            ('backend = "link"       # scanned', 'backend = "mcp23017"  #'),
            r"\[sensors\] backend: a 12 x 12 board\'s 72 sensors are scanned by the co-processor",
        ),
        (
            ("serpentine = true", 'map = { "1,0" = 0, "8,8" = 1 }'),
            r"\[leds.map\] '8,8': not a playable square$",
        ),
    ],
)
def test_a_12x12_profile_of_the_wrong_size_is_refused_in_one_line(tmp_path, change, message):
    assert change[0] in DAM_PICO
    with pytest.raises(ProfileError, match=message) as caught:
        load_profile(write(tmp_path, DAM_PICO.replace(*change)))
    assert "\n" not in str(caught.value)


HALL = (HARDWARE / "pi-hall.toml").read_text()


def test_the_hall_profile_wires_no_sensor_to_gpa7_or_gpb7():
    from drivers.sensors import hall_wiring

    s = load_profile(HARDWARE / "pi-hall.toml").sensors
    assert s.i2c_addresses == (0x20, 0x21, 0x22)
    wiring = hall_wiring(s.i2c_addresses, s.inputs)
    assert len(set(wiring)) == 32  # every square its own input
    assert not {bit for _address, bit in wiring} & {7, 15}  # GPA7, GPB7: never an input
    assert wiring[13] == (0x20, 14) and wiring[14] == (0x21, 0) and wiring[31] == (0x22, 3)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('"GPA6",', '"GPA7",'),
         r'\[sensors\] inputs: GPA7 is output-only on the MCP23017 \(Microchip\'s datasheet, '
         r"2022 revision: read as an input it can corrupt SDA\); wire sensors to GPA0-GPA6 and "
         r"GPB0-GPB6, 14 inputs an expander$"),
        (('"GPB6"]', '"GPB6", "GPB7"]'), r"\[sensors\] inputs: GPB7 is output-only on the MCP"),
        (("[0x20, 0x21, 0x22]", "[0x20, 0x21]"),
         r"\[sensors\] i2c_addresses: 32 squares at 14 inputs an expander need 3 different "
         r"MCP23017 addresses, got 2 \(GPA7 and GPB7 are output-only: 14 inputs an expander "
         r"at most\)$"),
        (("[0x20, 0x21, 0x22]", "[0x20, 0x21, 0x21]"),
         r"need 3 different MCP23017 addresses, got 3$"),
        (("[0x20, 0x21, 0x22]", "[0x20, 0x21, 0x28]"), r"MCP23017 addresses are 0x20..0x27$"),
        (('"GPA6",', '"GPA1",'), r"\[sensors\] inputs: GPA1 is named twice$"),
        (('"GPA6",', '"GPC6",'), r"\[sensors\] inputs: unknown pin 'GPC6': GPA0-GPA6, GPB0-GPB6$"),
    ],
)  # fmt: skip
def test_a_hall_profile_reading_bit_7_or_short_of_expanders_is_refused_in_one_line(
    tmp_path, change, message
):
    assert change[0] in HALL
    with pytest.raises(ProfileError, match=message) as caught:
        load_profile(write(tmp_path, HALL.replace(*change, 1)))
    assert "\n" not in str(caught.value)


def test_a_hall_profile_written_for_two_expanders_of_16_inputs_is_refused(tmp_path):
    """The old wiring: two addresses, no inputs (all 16 were read): it is named, not taken."""
    text = HALL.replace("[0x20, 0x21, 0x22]", "[0x20, 0x21]")
    text = text.replace(text[text.index("inputs = [") : text.index("debounce_scans")], "")
    with pytest.raises(ProfileError, match=r"need 3 different MCP23017 addresses, got 2"):
        load_profile(write(tmp_path, text))


@pytest.mark.parametrize("key", ["retry_ms", "heartbeat_ms", "timeout_ms", "write_timeout_ms"])
def test_a_link_time_that_is_not_positive_is_refused_in_one_line(tmp_path, key):
    text = (HARDWARE / "pico.toml").read_text()
    path = tmp_path / "pico.toml"
    path.write_text(re.sub(rf"^{key} = \d+", f"{key} = 0", text, count=1, flags=re.M))
    with pytest.raises(ProfileError, match=rf"\[link\] {key}: must be a positive number"):
        load_profile(path)
