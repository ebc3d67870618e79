from drivers.mockmatrix import SimulatedMatrix
from drivers.occupancy import OccupancyFrame, mask_of, squares_of
from drivers.sensors import (
    GpioMatrixSource,
    Mcp23017InputsSource,
    Mcp23017Source,
    MockSource,
    Scanner,
)
from tests.drivers.fakes import FakeI2C, Mcp23017Chip

ROWS = [5, 6, 12, 13, 16, 19, 20, 26]
COLUMNS = [17, 22, 23, 27]


def scanner_on(factory, ticker, debounce=3, diodes=True):
    matrix = SimulatedMatrix(factory, ROWS, COLUMNS, diodes=diodes)
    source = GpioMatrixSource(ROWS, COLUMNS, pin_factory=factory)
    return matrix, Scanner(source, debounce, ticker)


def test_mask_and_squares_round_trip():
    squares = frozenset({(1, 0), (0, 1), (6, 7), (7, 6)})
    assert squares_of(mask_of(squares)) == squares
    assert mask_of({(1, 0)}) == 1 and mask_of({(0, 7)}) == 1 << 28


def test_pressed_square_appears_after_exactly_the_debounce_scans(factory, ticker):
    matrix, scanner = scanner_on(factory, ticker, debounce=3)
    with scanner:
        assert scanner.current.occupied == frozenset()
        matrix.press((1, 0), (6, 7))
        ticker.t = 101.0
        assert scanner.scan() is None
        assert scanner.scan() is None
        frame = scanner.scan()
        assert frame == OccupancyFrame(101.0, frozenset({(1, 0), (6, 7)}))
        assert scanner.scan() is None  # no change, no frame
        matrix.release((1, 0))
        ticker.t = 102.0
        frames = [scanner.scan() for _ in range(3)]
        assert frames == [None, None, OccupancyFrame(102.0, frozenset({(6, 7)}))]


def test_a_bounce_shorter_than_the_debounce_is_ignored(factory, ticker):
    matrix, scanner = scanner_on(factory, ticker, debounce=3)
    with scanner:
        for _ in range(5):
            matrix.press((3, 4))
            assert scanner.scan() is None
            assert scanner.scan() is None
            matrix.release((3, 4))
            assert scanner.scan() is None
        assert scanner.current.occupied == frozenset()


def test_every_one_of_the_32_squares_is_read_on_its_own(factory, ticker):
    matrix, scanner = scanner_on(factory, ticker, debounce=1)
    with scanner:
        for x in range(8):
            for y in range(8):
                if (x + y) % 2:
                    matrix.set({(x, y)})
                    assert scanner.scan().occupied == {(x, y)}
        matrix.set(set())
        assert scanner.scan().occupied == frozenset()


def test_without_diodes_three_closed_switches_make_a_fourth_appear(factory, ticker):
    # (1,0) row 0 col 0; (3,0) row 0 col 1; (0,1) row 1 col 0 -> ghost at row 1 col 1 = (2,1)
    matrix, scanner = scanner_on(factory, ticker, debounce=1, diodes=False)
    with scanner:
        matrix.press((1, 0), (3, 0), (0, 1))
        assert scanner.scan().occupied == {(1, 0), (3, 0), (0, 1), (2, 1)}


def test_with_diodes_the_same_three_switches_read_true(factory, ticker):
    matrix, scanner = scanner_on(factory, ticker, debounce=1)
    with scanner:
        matrix.press((1, 0), (3, 0), (0, 1))
        assert scanner.scan().occupied == {(1, 0), (3, 0), (0, 1)}


def test_closing_the_scanner_releases_the_pins(factory, ticker):
    _, scanner = scanner_on(factory, ticker)
    scanner.close()
    again = GpioMatrixSource(ROWS, COLUMNS, pin_factory=factory)  # no "pin in use"
    again.close()


def test_mcp23017_matrix_reads_squares_through_the_expander(ticker):
    chip = Mcp23017Chip()
    source = Mcp23017Source(FakeI2C({0x20: chip}), 0x20)
    assert chip.regs[0x00] == 0x00 and chip.regs[0x01] == 0x7F and chip.regs[0x0D] == 0x0F
    chip.closed = {(0, 0), (7, 3)}  # (1, 0) and (6, 7)
    scanner = Scanner(source, 2, ticker)
    assert scanner.current.occupied == {(1, 0), (6, 7)}
    chip.closed = {(7, 3)}
    assert scanner.scan() is None
    assert scanner.scan().occupied == {(6, 7)}


HALL = (0x20, 0x21, 0x22)
FOURTEEN = tuple(range(7)) + tuple(range(8, 15))  # GPA0..6, GPB0..6


def test_hall_sensors_one_input_each_on_three_expanders_never_on_bit_7(ticker):
    """The hall-sensor build: square i on input i % 14 of expander i // 14 (GPA0..6, then
    GPB0..6), low near a magnet; GPA7 and GPB7 are outputs, and what they read is no square."""
    chips = {a: Mcp23017Chip() for a in HALL}
    for chip in chips.values():
        chip.inputs = 0xFFFF  # pulled up: no magnets
    source = Mcp23017InputsSource(FakeI2C(dict(chips)), HALL, FOURTEEN)
    for chip in chips.values():
        assert chip.regs[0x00:0x02] == b"\x7f\x7f"  # IODIR: bit 7 of each port an output
    assert chips[0x20].regs[0x0C:0x0E] == b"\x7f\x7f"  # pull-ups on the 14 inputs only
    assert chips[0x22].regs[0x0C:0x0E] == b"\x0f\x00"  # the third: squares 28..31, GPA0..3
    scanner = Scanner(source, 1, ticker)
    assert scanner.current.occupied == frozenset()
    chips[0x20].inputs = 0xFFFF & ~(1 << 0) & ~(1 << 14)  # GPA0: square 0; GPB6: square 13
    chips[0x21].inputs = 0xFFFF & ~(1 << 0)  # square 14
    chips[0x22].inputs = 0xFFFF & ~(1 << 3)  # square 31
    assert scanner.scan().occupied == {(1, 0), (2, 3), (4, 3), (6, 7)}
    for chip in chips.values():
        chip.inputs = 0xFFFF & ~(1 << 7) & ~(1 << 15)  # GPA7 and GPB7 low
    assert scanner.scan().occupied == frozenset()


def test_two_expanders_of_fourteen_inputs_cannot_read_32_squares():
    chips = {0x20: Mcp23017Chip(), 0x21: Mcp23017Chip()}
    try:
        Mcp23017InputsSource(FakeI2C(chips), (0x20, 0x21), FOURTEEN)
    except ValueError as exc:
        assert str(exc) == "2 expanders of 14 inputs cannot read 32 squares"
    else:
        raise AssertionError("two expanders of 14 inputs were taken for 32 squares")


def test_the_scan_waits_for_a_slow_column_to_rise_before_reading(factory):
    """A column held low by one row takes time to rise once that row lets go; read too soon, the
    chip shows again on the next row. The scan waits settle_us after each row goes low."""
    from time import perf_counter_ns

    matrix = SimulatedMatrix(factory, ROWS, COLUMNS, rise_us=15)
    matrix.press((1, 0))  # row 0, column 0
    source = GpioMatrixSource(ROWS, COLUMNS, pin_factory=factory, settle_us=20)
    began = perf_counter_ns()
    mask = source.read_mask()
    took_us = (perf_counter_ns() - began) / 1000
    source.close()
    assert mask == 1  # (1, 0) only: no ghost on (0, 1) below it
    assert took_us >= 8 * 20  # it waited after each of the 8 rows


def test_mock_source_and_frames_iterator(ticker):
    source = MockSource({(1, 0)})
    scanner = Scanner(source, 1, ticker)
    source.set({(1, 0), (0, 1)})
    runs = iter([True, True, False])
    frames = list(scanner.frames(0, running=lambda: next(runs), sleep=lambda s: None))
    assert [f.occupied for f in frames] == [{(1, 0), (0, 1)}]
