"""Protocol 2's sizes: what each side announces, the occupancy and LED bodies per point count,
a 32-point board unchanged byte for byte, bad sizes refused with what is wrong, and the boards'
configs in step with their hardware profiles."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from drivers.profile import load_profile
from firmware import config, protocol
from firmware.boards import dam12, mathchess
from firmware.framing import FrameError
from firmware.squares import PLAYABLE, dark_index, dark_square, index_of

ROOT = Path(__file__).resolve().parents[2]


def test_a_32_point_board_speaks_protocol_1_byte_for_byte():
    assert protocol.hello_body(32) == b"\x01"
    assert protocol.parse_hello(b"\x01") == (1, 32)
    body = protocol.occupancy_body(0xC0000001, 123456)
    assert body == protocol.u32(0xC0000001) + protocol.u32(123456)  # the u32 of protocol 1
    assert protocol.parse_occupancy(body) == (0xC0000001, 123456)


@pytest.mark.parametrize(("points", "size"), [(72, 13), (81, 15), (144, 22), (1, 5), (33, 9)])
def test_occupancy_bodies_of_every_size_round_trip(points, size):
    top = 1 << (points - 1)
    for mask in (0, 1, top, (1 << points) - 1, top | 0x5A5A & ((1 << points) - 1)):
        body = protocol.occupancy_body(mask, 2**32 - 1, points)
        assert len(body) == size
        assert protocol.parse_occupancy(body, points) == (mask, 2**32 - 1)
    assert protocol.parse_hello(protocol.hello_body(points))[1] == points


def test_a_body_of_another_size_is_refused_with_both_lengths():
    with pytest.raises(FrameError, match="must be 15 bytes for 81 points, got 8"):
        protocol.parse_occupancy(protocol.occupancy_body(5, 0), 81)
    with pytest.raises(FrameError, match="must be 8 bytes for 32 points, got 15"):
        protocol.parse_occupancy(protocol.occupancy_body(5, 0, 81), 32)
    with pytest.raises(FrameError, match="beyond point 80"):
        protocol.parse_occupancy(bytes((0x02,)) + bytes(14), 81)  # bit 81 of an 81-point board
    with pytest.raises(FrameError, match="for 81 LEDs is 243 bytes, got 242"):
        protocol.check_leds(bytes(242), 81)
    assert protocol.check_leds(bytes(432), 144) == bytes(432)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"", "unknown protocol"),
        (b"\x03", "unknown protocol: 03"),
        (b"\x02\x00", "unknown protocol"),
        (b"\x02\x00\x91", "announces 145 points"),
        (b"\x02\x00\x00", "announces 0 points"),
        (b"\x01\x00", "unknown protocol"),
    ],
)
def test_a_hello_that_cannot_be_used_is_a_frame_error(body, message):
    with pytest.raises(FrameError, match=message):
        protocol.parse_hello(body)


@pytest.mark.parametrize("points", [0, 145, -1])
def test_a_board_size_out_of_range_is_refused(points):
    with pytest.raises(ValueError, match="1 to 144 points"):
        protocol.hello_body(points)


def test_the_dark_squares_of_12x12_are_72_bits_numbered_as_on_8x8():
    squares = [dark_square(i, 12) for i in range(72)]
    assert len(set(squares)) == 72 and all((x + y) % 2 == 1 for x, y in squares)
    assert [dark_index(x, y, 12) for x, y in squares] == list(range(72))
    assert [dark_square(i, 8) for i in range(32)] == list(PLAYABLE)
    assert all(dark_index(x, y, 8) == index_of(x, y) for x, y in PLAYABLE)
    with pytest.raises(ValueError):
        dark_index(0, 0, 12)
    with pytest.raises(ValueError):
        dark_square(72, 12)


def test_the_board_configs_match_their_hardware():
    for name, board in (("mathchess-pico", mathchess), ("dam-pico", dam12)):
        profile = load_profile(ROOT / "hardware" / f"{name}.toml")  # its Pico's config: the size
        assert len(board.ROW_PINS) * len(board.COLUMN_PINS) == profile.squares, name
        assert board.LED_COUNT == profile.leds.count == profile.squares, name
        comment = (ROOT / "hardware" / f"{name}.toml").read_text().split("[board]")[0]
        assert f"firmware/boards/{board.__name__.rsplit('.', 1)[1]}.py" in comment, name
    pico = tomllib.loads((ROOT / "hardware" / "pico.toml").read_text())
    assert pico["leds"]["count"] == config.LED_COUNT
    for board in (config, mathchess, dam12):
        names = {k for k in vars(config) if k.isupper()}
        assert names == {k for k in vars(board) if k.isupper()}, board.__name__
        pins = [*board.ROW_PINS, *board.COLUMN_PINS, board.LED_PIN, board.RELEASE_PIN]
        assert len(set(pins)) == len(pins) and not {0, 1} & set(pins), board.__name__


@pytest.mark.parametrize("points", [32, 72, 81, 144])
def test_random_bodies_are_read_in_range_or_refused_by_name(points):
    import random

    rng = random.Random(points)
    sized = protocol.mask_bytes(points) + 4
    read = 0
    for _ in range(3000):
        n = rng.choice((sized, sized, rng.randrange(0, 40)))
        body = bytes(rng.getrandbits(8) for _ in range(n))
        try:
            mask, _ticks = protocol.parse_occupancy(body, points)
        except FrameError as exc:
            assert "occupancy" in str(exc)
        else:
            read += 1
            assert len(body) == sized and 0 <= mask < 1 << points
        try:
            version, announced = protocol.parse_hello(body[:3])
        except FrameError as exc:
            assert "hello" in str(exc)
        else:
            assert (version, 1 <= announced <= 144) in ((1, True), (2, True))
    assert read > 0
