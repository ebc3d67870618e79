"""The firmware on emulated silicon: MicroPython's RP2040 build (firmware/vendor/) on rp2040js,
its files copied over the raw REPL, its USB CDC port on a pty that the Pi's own link opens, the
switch matrix (diodes, pull-ups) driven on the emulated GPIO and the WS2812 chain decoded from
the LED pin's waveform. Above the link: the board's profile through the factory, the game and
its tracker in the one scan loop, on the emulated clock.

The games are short and scripted: a few moves each, where the co-processor's part lives (every
change read, every picture the Pi sends lit); a whole game through the emulated Pico is
bench/emulated_whole_game.py's, a whole game's rules the sim's and the unix port's tests. One
emulated second costs about 30 real ones here, so each test runs a fraction of one. Bounds are
in emulated time; the harness's own limit only ends a hung one."""

from __future__ import annotations

import pytest

from controller.games.mathchess.kind import MathChessGame
from controller.games.mathchess.session import MathChessSession
from firmware import config
from firmware.boards import dam12, mathchess
from tests.tracker.test_mathchess_traces import MINUS_FROM, MINUS_TO, ONE, occupied, r08_example3

from .boards import (
    Board,
    check_waveform,
    damath_matrix,
    dark,
    last_picture_lit,
    make_ply,
    set_out,
)

pytestmark = pytest.mark.slow

TICKS_PERIOD = 1 << 30  # MicroPython's ticks on the RP2040 wrap here (firmware/hw.py)


def power_cut(board: Board, game) -> None:
    """The Pico loses power mid-game (or its watchdog fires): it boots again, the Pi hears it,
    its board is read again, and its chain shows the current picture at once, not after the
    next change (the picture lit and acknowledged first: an unacknowledged one would come
    again by the link's retry, not by its resend to a peer that came back)."""
    last_picture_lit(board)
    picture = board.devices.leds._last
    frames = len(board.pico.frames)
    board.pico.reset("power")
    board.until(lambda: board.pico.totals()["boots"] == 2, 0.1, "the reset")
    board.until(lambda: len(board.pico.frames) > frames, 1.0, "a frame after the reset")
    assert board.shown() == picture  # the current picture, with no move made since
    assert board.reads() == frozenset(board.occupied) == game.expected()


@pytest.mark.parametrize(
    ("board_name", "profile", "game_name", "board_config", "matrix", "moves", "cut_after"),
    [
        ("damath", "pico.toml", "damath", config, damath_matrix, 3, 1),
        ("dam12", "dam-pico.toml", "dam", dam12, dark(12, 6), 2, None),
    ],
    ids=["damath-8x8-power-cut", "dam-12x12"],
)
def test_a_draughts_game_through_the_emulated_pico(
    images, pty_pair, board_name, profile, game_name, board_config, matrix, moves, cut_after
):
    """Plies of the engine's first legal move (Damath's third a capture), each read back, every
    frame on the LED pin checked; the Damath game loses power after its first ply and goes on
    (the suite's reset mid-game: nothing lost, the picture lit again at once)."""
    fd, port = pty_pair
    board = Board(images(board_name), fd, port, profile, board_config, matrix)
    try:
        game = set_out(board, game_name)
        for ply in range(moves):
            if ply == cut_after:
                power_cut(board, game)
            make_ply(board, game, game.session.game.legal_moves()[0])
        last_picture_lit(board)
        check_waveform(board.pico.frames, board.sent, board.profile.leds.count)
        assert board.link.frames_rejected == 0
        cuts = [] if cut_after is None else ["power"]
        assert [r["why"] for r in board.pico.resets] == cuts  # no watchdog reset
    finally:
        board.close()


def test_a_mathchess_game_of_81_points_through_the_emulated_pico(images, pty_pair):
    """From a position of the rules' examples: the minus sign moved, what may be removed then
    lit, every point read on the 9 x 9 matrix and every picture on the 81 LEDs."""
    fd, port = pty_pair
    board = Board(images("mathchess"), fd, port, "mathchess-pico.toml", mathchess,
                  lambda point: (point[1], point[0]))  # fmt: skip
    try:
        session = MathChessSession.start(r08_example3())
        board.play(MathChessGame(session))
        board.put(occupied(session.position))
        board.until(lambda: session.sensors == frozenset(board.occupied), 1.0, "the position")
        board.put(board.occupied - {MINUS_FROM})
        board.until(lambda: MINUS_FROM not in session.sensors, 0.3, "the minus lifted")
        board.put(board.occupied | {MINUS_TO})
        board.until(lambda: MINUS_TO in session.sensors, 0.3, "the minus put down")
        one = 3 * board.profile.leds.mapping[ONE][0]
        board.until(lambda: any((board.shown() or bytes(243))[one : one + 3]), 0.4, "ONE lit")
        check_waveform(board.pico.frames, board.sent, 81)
        assert board.link.frames_rejected == 0 and not board.pico.resets
    finally:
        board.close()


def test_the_firmware_scans_through_the_tick_wrap(images, pty_pair):
    """The emulated timer starts 0.45 s before 2**30 us: the Pico boots, scans, passes the wrap
    (17 min 54 s after a real boot) and goes on reading the board, with no watchdog reset."""
    fd, port = pty_pair
    wrap = TICKS_PERIOD / 1e6
    board = Board(images("damath"), fd, port, "pico.toml", config, damath_matrix,
                  start_us=TICKS_PERIOD - 450_000)  # fmt: skip
    try:
        board.until(lambda: board.link.status == "up", 0.4, "the link up")
        assert board.pico.now < wrap, "booted after the wrap: start the timer earlier"
        board.put({(1, 0)})
        board.until(lambda: board.reads() == {(1, 0)}, 0.2, "a chip read before the wrap")
        board.until(lambda: board.pico.now > wrap + 0.02, 0.2, "the wrap")
        board.put({(1, 0), (6, 7)})
        board.until(lambda: board.reads() == {(1, 0), (6, 7)}, 0.1, "a chip read after it")
        board.put({(6, 7)})
        board.until(lambda: board.reads() == {(6, 7)}, 0.1, "and another")
        assert not board.pico.resets and board.link.status == "up"
    finally:
        board.close()
