import pytest

from drivers.clocks import Ht16k33Clocks, MockClocks, digits_of
from tests.drivers.fakes import FakeI2C, Ht16k33Chip

SEGMENTS = {0x00: " ", 0x3F: "0", 0x06: "1", 0x5B: "2", 0x4F: "3", 0x66: "4", 0x6D: "5"}
SEGMENTS |= {0x7D: "6", 0x07: "7", 0x7F: "8", 0x6F: "9"}


def read_display(chip: Ht16k33Chip) -> tuple[str, bool]:
    digits = "".join(SEGMENTS[chip.ram[i]] for i in (0, 2, 6, 8))
    return digits, bool(chip.ram[4] & 0x02)


def test_digits_on_a_fake_i2c_bus():
    left, right = Ht16k33Chip(), Ht16k33Chip()
    with Ht16k33Clocks((0x70, 0x71), FakeI2C({0x70: left, 0x71: right})) as clocks:
        clocks.show("9:59", "19:05", colon=True)
        assert read_display(left) == (" 959", True)
        assert read_display(right) == ("1905", True)
        clocks.show("9:58", "19:05", colon=False)
        assert read_display(left) == (" 958", False)
        assert read_display(right) == ("1905", False)
        clocks.set_brightness(1.0)
        assert left.commands[-1] == 0xEF  # dimming command, full duty
    assert read_display(left) == ("    ", False)  # closed: blank


def test_clock_text_that_cannot_fit_is_refused():
    with pytest.raises(ValueError, match="up to 4 digits"):
        digits_of("100:00")
    clocks = MockClocks()
    clocks.show("0:07", "12:00", True)
    assert clocks.shown == [(" 007", "1200", True)]
