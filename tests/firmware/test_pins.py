"""The Pico's pins of every board's config.py (firmware/pins.py, checked at boot by main.py):
each board's fits, and each way a config can be wrong is named in one line."""

from __future__ import annotations

import types

import pytest

from firmware import config, pins
from firmware.boards import dam12, mathchess


@pytest.mark.parametrize("board", [config, mathchess, dam12], ids=lambda b: b.__name__)
def test_every_board_s_pins_fit_the_pico(board):
    assert pins.problem(board) is None
    uart = types.SimpleNamespace(**{k: getattr(board, k) for k in dir(board) if k.isupper()})
    uart.TRANSPORT = "uart"
    assert pins.problem(uart) is None  # GP0 and GP1 are free on every board


def changed(**settings):
    values = {k: getattr(mathchess, k) for k in dir(mathchess) if k.isupper()}
    values.update(settings)
    return types.SimpleNamespace(**values)


@pytest.mark.parametrize(
    ("settings", "line"),
    [
        ({"ROW_PINS": (2, 3, 4, 5, 6, 7, 8, 9, 23)}, "the row pin GP23 is not on the Pico's pins"),
        ({"LED_PIN": 25}, "the LED pin GP25 is not on the Pico's pins"),
        ({"COLUMN_PINS": (11, 12, 13, 14, 15, 17, 18, 19, 29)}, "column pin GP29 is not on"),
        ({"COLUMN_PINS": (11, 12, 13, 14, 15, 17, 18, 19, 22)}, "GP22 is both a column and a"),
        ({"LED_PIN": 2}, "GP2 is both a row and an LED pin"),
        ({"TRANSPORT": "uart", "COLUMN_PINS": (0, 12, 13)}, "GP0 is the UART link's"),
        ({"TRANSPORT": "wifi"}, "TRANSPORT 'wifi' is neither"),
        ({"COLUMN_PINS": tuple(range(11, 23))[:0]}, "the matrix needs rows and columns"),
        ({"COLUMN_PINS": tuple(range(0, 17))}, "17 columns; a row holds 16 at most"),
        ({"ROW_PINS": tuple(range(17)), "COLUMN_PINS": (17, 18, 19, 20, 21, 26, 27, 28, 22)},
         "153 points"),
        ({"LED_COUNT": 0}, "LED_COUNT 0; 1 to 144 LEDs"),
    ],
)  # fmt: skip
def test_a_config_that_does_not_fit_is_named_in_one_line(settings, line):
    said = pins.problem(changed(**settings))
    assert said is not None and line in said and "\n" not in said, said
    assert said.startswith("config.py: ")
