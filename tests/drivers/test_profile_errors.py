"""More of what a board profile can get wrong: each error names the file, the section and key,
and what is expected (a profile is typed by whoever builds the board)."""

from __future__ import annotations

import pytest

from drivers.profile import ProfileError, load_profile
from tests.drivers.test_profile import BASE, write

SHEET = 'backend = "ssd1306"'


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("pin = 18", "pin = 18\nvolume = 11"), r"\[buzzer\] volume: unknown key; known: "),
        (('backend = "tonal"\n', 'backend = "tonal"\n#'), r"\[buzzer\] pin: missing"),
        (("count = 32", "count = 32.5"), r"\[leds\] count: must be int, not 32.5"),
        (("pause = 4", "pause = 2"),
         r"\[buttons.pins\] pause: GPIO2 is wanted by both I2C1 SDA .*; fix: move \[buttons.pins\] "
         r"pause to a free pin \(free pins: 4, 14"),
        (("rows = [5,", "rows = [2,"),
         r"\[sensors\] rows: GPIO2 is wanted by both \[sensors\] rows and I2C1 SDA"),
        (("pause = 4", "pause = 4\nreset = 5"), r"\[buttons.pins\] reset: unknown button"),
        (("count = 32", 'count = 32\norder = "RGBW"'), r"\[leds\] order: must be an ordering"),
        (("count = 32", "count = 32\nrotation = 45"), r"\[leds\] rotation: must be one of"),
        (("count = 32", 'count = 32\ncells = "some"'), r'\[leds\] cells: must be "playable"'),
        (("count = 32", "count = 32\nmax_brightness = 1.5"), r"max_brightness: must be between"),
        (("supply_amps = 2.0", "supply_amps = 0"), r"\[leds\] supply_amps: must be positive"),
        (("columns = [17, 22, 23, 27]", "columns = [17, 22, 23, 27]\ndebounce_scans = 0"),
         r"\[sensors\] debounce_scans: must be at least 1"),
        (('backend = "ht16k33"', 'backend = "ht16k33"\naddresses = [0x70, 0x70]'),
         r"\[clocks\] addresses: needs two different I2C addresses"),
        (('backend = "ht16k33"', 'backend = "ht16k33"\naddresses = [0x70, 0x20]'),
         r"\[clocks\] addresses: HT16K33 addresses are 0x70..0x77"),
        (('backend = "ssd1306"', 'backend = "serial"'), r"\[scoresheet\] port: missing"),
        (('backend = "ssd1306"', 'backend = "ssd1322"'),
         r"ssd1322 needs SPI0, which the LED chain uses .*: use an I2C display"),
        (("pi = 4", "pi = 2"), r"\[board\] pi: must be 3, 4 or 5, not 2"),
        (("pin = 18", "pin = 10"),
         r"\[buzzer\] pin \(PWM tone\): GPIO10 is wanted by both SPI0 MOSI \(GPIO10, the LED"),
        (("pause = 4", "pause = 18"),
         r"\[buttons.pins\] pause: GPIO18 is wanted by both \[buzzer\] pin \(PWM tone\) and "),
        ((SHEET, SHEET + '\n[leds.map]\n"9,9" = 0'), r"\[leds.map\] '9,9': not a playable"),
        ((SHEET, SHEET + '\n[leds.map]\n"a" = 0'), r'square must be written "x,y"'),
        ((SHEET, SHEET + '\n[leds.map]\n"1,0" = 0'), r"\[leds.map\]: no LED for squares"),
    ],
)  # fmt: skip
def test_each_error_names_its_place_and_what_is_expected(tmp_path, change, message):
    assert change[0] in BASE
    path = write(tmp_path, BASE.replace(*change, 1))
    with pytest.raises(ProfileError, match=message) as err:
        load_profile(path)
    assert str(err.value).startswith(str(path))
