import pytest

from drivers.ledmap import layout_map
from drivers.leds import LedStrip, MockLedWriter, NeoPixelSpiWriter
from tests.drivers.fakes import FakeSpi

RED, DIM_BLUE = (255, 0, 0), (0, 0, 10)
FRAME = {(1, 0): RED, (6, 7): DIM_BLUE}


def decoded(wire: bytes, leds: int = 32) -> bytes:
    """The LED bytes an SPI transfer carries: each bit is one SPI byte (0b11110000 is a 1)."""
    reset = len(wire) - 8 * 3 * leds
    body = wire[reset // 2 : reset // 2 + 8 * 3 * leds]
    bits = [1 if b == 0b11110000 else 0 if b == 0b11000000 else None for b in body]
    assert None not in bits
    return bytes(int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits), 8))


def expected(red_at: int, blue_at: int) -> bytes:
    data = bytearray(32 * 3)
    data[red_at * 3 : red_at * 3 + 3] = b"\x00\xff\x00"  # GRB
    data[blue_at * 3 : blue_at * 3 + 3] = b"\x00\x00\x0a"
    return bytes(data)


@pytest.mark.parametrize(
    ("layout", "red_at", "blue_at"),
    [
        ({}, 0, 31),
        ({"rotation": 90}, 24, 7),
        ({"rotation": 180}, 31, 0),
        ({"rotation": 270}, 7, 24),
        ({"serpentine": True}, 0, 28),
        ({"mirror": True}, 3, 28),
    ],
)
def test_exact_neopixel_bytes_in_each_orientation(layout, red_at, blue_at):
    spi = FakeSpi()
    writer = NeoPixelSpiWriter(32, spi)
    with LedStrip(writer, layout_map(**layout), 32, supply_amps=2.0) as strip:
        strip.show(FRAME)
    assert decoded(spi.writes[0]) == expected(red_at, blue_at)
    assert decoded(spi.writes[-1]) == bytes(96)  # closing turns the chain dark


def test_two_leds_per_square_on_a_64_led_grid():
    mapping = layout_map(cells="all", per_square=1)
    assert len(mapping) == 32 and mapping[(1, 0)] == (1,) and mapping[(0, 1)] == (8,)
    pairs = layout_map(per_square=2)
    assert pairs[(1, 0)] == (0, 1) and pairs[(6, 7)] == (62, 63)
    writer = MockLedWriter()
    LedStrip(writer, pairs, 64).show({(6, 7): (1, 2, 3)})
    assert writer.frames[0][-6:] == bytes([2, 1, 3, 2, 1, 3])


def test_full_white_is_capped_to_the_supply_budget():
    writer = MockLedWriter()
    strip = LedStrip(writer, layout_map(), 32, supply_amps=1.0)  # budget 850 mA of 1920 asked
    strip.show(dict.fromkeys(strip.mapping, (255, 255, 255)))
    assert writer.frames[0] == bytes([112]) * 96
    assert 96 * 112 * 60 / 765 <= 850


def test_a_frame_within_budget_is_untouched_and_brightness_ceiling_applies():
    writer = MockLedWriter()
    LedStrip(writer, layout_map(), 32, supply_amps=2.0).show({(1, 0): (200, 100, 50)})
    assert writer.frames[0][:3] == bytes([100, 200, 50])
    LedStrip(writer, layout_map(), 32, max_brightness=0.5).show({(1, 0): (200, 100, 50)})
    assert writer.frames[1][:3] == bytes([50, 100, 25])


def test_unchanged_frames_are_not_resent():
    writer = MockLedWriter()
    strip = LedStrip(writer, layout_map(), 32)
    assert strip.show(FRAME) is True
    assert strip.show(dict(FRAME)) is False
    assert strip.show({}) is True
    assert len(writer.frames) == 2 and strip.skipped == 1


def test_bad_square_or_colour_is_a_clear_error():
    strip = LedStrip(MockLedWriter(), layout_map(), 32)
    with pytest.raises(ValueError, match=r"no LED for square \(0, 0\)"):
        strip.show({(0, 0): RED})
    with pytest.raises(ValueError, match=r"0\.\.255"):
        strip.show({(1, 0): (256, 0, 0)})


def test_spi_backend_sends_each_bit_as_an_spi_byte():
    spi = FakeSpi()
    strip = LedStrip(NeoPixelSpiWriter(32, spi), layout_map(), 32)
    strip.show(FRAME)
    assert decoded(spi.writes[-1]) == expected(0, 31)
