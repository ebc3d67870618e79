"""The firmware's logic under the real MicroPython unix port.

Run by tests/firmware/test_micropython.py as ``micropython mp_logic.py ROOT VECTORS``: VECTORS is
a JSON file of inputs with the results CPython (and its `cobs` and `binascii` libraries) gives,
so every check below is "MicroPython computes exactly what the Pi computes".
"""

import json
import sys

ROOT = sys.argv[1]
sys.path.insert(0, ROOT)
sys.path.insert(0, ROOT + "/tests/firmware/mp")

import micropython  # noqa: E402
import mp_unit  # noqa: E402

from firmware import fakes  # noqa: E402

machine, rp2 = fakes.install()

from firmware import app, framing, hw, ledframe, protocol, startup  # noqa: E402
from firmware.debounce import Debouncer  # noqa: E402
from firmware.endpoint import Endpoint  # noqa: E402

with open(sys.argv[2]) as f:
    V = json.load(f)

SMALL_INT_LIMIT = 1 << 30  # the RP2040's small integers hold values below 2**30


def unhex(text):
    return bytes(int(text[i : i + 2], 16) for i in range(0, len(text), 2))


def hexof(data):
    return "".join(f"{b:02x}" for b in data)


def test_crc16_matches_binascii():
    assert framing.crc16(b"123456789") == 0x29B1
    for case in V["frames"]:
        assert framing.crc16(unhex(case["payload"])) == case["crc"], case["payload"][:16]


def test_cobs_matches_the_cobs_library_including_long_runs_without_zeros():
    for case in V["frames"]:
        payload = unhex(case["payload"])
        encoded = framing.cobs_encode(payload)
        assert hexof(encoded) == case["cobs"], len(payload)
        assert framing.cobs_decode(encoded) == payload, len(payload)


def test_frames_match_and_survive_chunking():
    for case in V["frames"]:
        wire = framing.encode_frame(unhex(case["payload"]))
        assert hexof(wire) == case["frame"]
    cases = [c for c in V["frames"] if c["payload"]]  # a frame carries at least one byte
    wire = b"".join(unhex(c["frame"]) for c in cases)
    decoder = framing.FrameDecoder()
    out = []
    for i in range(0, len(wire), 7):
        out += decoder.feed(wire[i : i + 7])
    assert [hexof(p) for p in out] == [c["payload"] for c in cases]
    assert decoder.bad == 0


def test_a_flipped_bit_is_rejected():
    frame = bytearray(framing.encode_frame(protocol.pack(protocol.OCCUPANCY, 3, b"\x01\x02")))
    frame[2] ^= 0x10
    decoder = framing.FrameDecoder()
    assert decoder.feed(bytes(frame)) == []
    assert decoder.bad == 1


def test_protocol_bodies_match():
    for case in V["occupancy"]:
        body = protocol.occupancy_body(case["mask"], case["ticks"])
        assert hexof(body) == case["body"]
        assert protocol.parse_occupancy(body) == (case["mask"], case["ticks"])
    msg_type, seq, body = protocol.unpack(protocol.pack(protocol.LEDS, 300, b"ab"))
    assert (msg_type, seq, body) == (protocol.LEDS, 300 & 0xFF, b"ab")
    try:
        protocol.unpack(b"\x55\x00")
    except framing.FrameError:
        pass
    else:
        raise AssertionError("an unknown message type was accepted")


def test_debounce_matches_cpython():
    for case in V["debounce"]:
        d = Debouncer(case["scans"], 16, initial=case["initial"])
        got = [d.update(raw) for raw in case["raws"]]
        assert got == case["stable"], case


def test_led_frames_match_cpython():
    for case in V["ledframe"]:
        pixels = [tuple(p) for p in case["pixels"]]
        out = ledframe.encode(pixels, case["order"], case["budget_ma"], case["ma_per_led"])
        assert hexof(out) == case["bytes"], case["order"]


class Stream:
    def __init__(self):
        self.inbox = b""
        self.sent = b""

    def read(self):
        data, self.inbox = self.inbox, b""
        return data

    def write(self, data):
        self.sent += data


class Clock:
    """The RP2040's tick counters: they wrap at 2**30 (hw.ticks_add and hw.ticks_diff, which
    refuse what no counter gives); time moves by the loop's sleeps and a test's ``total``.
    ``us``: where the microsecond counter starts (just before its wrap, say)."""

    def __init__(self, us=0):
        self.total = us  # microseconds since the counter's origin, unwrapped
        self.longest_sleep = 0

    def ticks_ms(self):
        return (self.total // 1000) & (hw.TICKS_PERIOD - 1)

    def ticks_us(self):
        return self.total & (hw.TICKS_PERIOD - 1)

    def ticks_diff(self, a, b):
        return hw.ticks_diff(a, b)

    def ticks_add(self, a, b):
        return hw.ticks_add(a, b)

    def sleep_us(self, n):
        self.longest_sleep = max(self.longest_sleep, n)
        self.total += n


class AllClosed:
    """A matrix with a chip on every square: every column reads low on every row."""

    def level(self, pin):
        return 0


DAMATH = ((2, 3, 4, 5, 6, 7, 8, 9), (10, 11, 12, 13))  # 8 x 4: 32 squares
MATHCHESS = ((2, 3, 4, 5, 6, 7, 8, 9, 10), (11, 12, 13, 14, 15, 17, 18, 19, 20))  # 81 points
DAM12 = ((2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13), (14, 15, 17, 18, 19, 20))  # 72 squares
FULL12 = (DAM12[0], (14, 15, 17, 18, 19, 20, 21, 26, 27, 28, 0, 1))  # 144 points
SIZES = ((DAMATH, 32), (MATHCHESS, 81), (DAM12, 72), (FULL12, 144))


def firmware(stream=None, release=None, pins=DAMATH, clock=None):
    machine.clear()
    machine.input_hook = AllClosed().level
    return app.Firmware(
        hw.MatrixPins(pins[0], pins[1], settle_us=0),
        hw.Ws2812(16),
        stream or Stream(),
        hw.Watchdog(2000),
        clock or Clock(),
        release=release,
    )


class Passes:
    """``running`` for Firmware.run: true for ``n`` passes."""

    def __init__(self, n):
        self.left = n

    def __call__(self):
        self.left -= 1
        return self.left >= 0


def test_the_loop_scans_through_the_tick_wrap():
    """2**30 us after boot (17 min 54 s) the RP2040's ticks wrap: the next pass's time is
    found with ticks_add, so the loop goes on at 1 kHz (a plain + gave ticks_diff a number no
    counter gives: on the Pico garbage, a sleep of minutes, the watchdog's reset)."""
    clock = Clock(hw.TICKS_PERIOD - 5000)
    fw = firmware(clock=clock)
    fw.run(1000, running=Passes(20))
    assert fw.scans == 20
    assert clock.total >= hw.TICKS_PERIOD + 14000, clock.total  # through the wrap, at 1 kHz
    assert 0 < clock.longest_sleep <= 1000, clock.longest_sleep


def test_ticks_arithmetic_is_the_rp2040_s():
    top = hw.TICKS_PERIOD - 1
    assert hw.ticks_add(top, 1) == 0 and hw.ticks_add(0, -1) == top
    assert hw.ticks_diff(0, top) == 1 and hw.ticks_diff(top, 0) == -1
    assert hw.ticks_diff(hw.ticks_add(top - 10, 500), top - 10) == 500
    for bad in (hw.TICKS_PERIOD, -1, hw.TICKS_PERIOD + 500):
        try:
            hw.ticks_diff(bad, 0)
        except ValueError as exc:
            assert "not a tick value" in str(exc)
        else:
            raise AssertionError("ticks_diff took " + str(bad))


class Closed:
    """Switches closed at some points of a matrix: a column reads low while a row that has a
    closed switch on it is driven low (through its diode)."""

    def __init__(self, pins, points):
        self.rows, self.columns = pins
        self.points = points

    def level(self, pin):
        c = self.columns.index(pin)
        width = len(self.columns)
        for r in range(len(self.rows)):
            if machine.levels.get(self.rows[r]) == 0 and r * width + c in self.points:
                return 0
        return 1


def test_a_pico_2_s_rp2350_scans_every_square_at_its_own_registers():
    """The RP2350's SIO sets and clears at 0x018 and 0x020 (the RP2040's at 0x014, 0x018)."""
    for chip_id, name in ((machine.RP2350, "RP2350"), (machine.RP2040, "RP2040")):
        machine.clear()
        machine.chip_id = chip_id
        points = (1, 6, 17, 31)
        machine.input_hook = Closed(DAMATH, points).level
        fw = app.Firmware(
            hw.MatrixPins(DAMATH[0], DAMATH[1], settle_us=0),
            hw.Ws2812(16), Stream(), hw.Watchdog(2000), Clock(),
        )  # fmt: skip
        for _ in range(4):
            fw.step()
        assert fw.matrix.chip == name
        assert fw.stable_mask == sum(1 << p for p in points), name


def test_another_chip_is_refused_in_one_line():
    machine.clear()
    machine.chip_id = 0x10003927  # a part of Raspberry Pi's that is neither
    try:
        hw.MatrixPins(DAMATH[0], DAMATH[1], settle_us=0)
    except ValueError as exc:
        said = str(exc)
    else:
        raise AssertionError("an unknown chip was scanned")
    assert "neither an RP2040 nor an RP2350" in said and "\n" not in said, said
    machine.clear()


class HeldPort:
    """A USB port that the host holds open without reading: each write waits for MicroPython's
    CDC timeout (500 ms) of the clock, until ``reading`` says the host reads again."""

    def __init__(self, clock):
        self.clock = clock
        self.inbox = b""
        self.sent = b""
        self.reading = False
        self.writes = 0

    def read(self):
        data, self.inbox = self.inbox, b""
        return data

    def write(self, data):
        self.writes += 1
        if self.reading:
            self.sent += data
        else:
            self.clock.total += 500_000


class WatchdogClock:
    """A watchdog that notes the longest time between two feeds on the test's clock."""

    def __init__(self, clock):
        self.clock = clock
        self.last = clock.total
        self.longest = 0

    def feed(self):
        self.longest = max(self.longest, self.clock.total - self.last)
        self.last = self.clock.total


def test_a_host_that_does_not_read_never_starves_the_watchdog():
    """Several frames to write in one pass (an ACK for each of the Pi's messages, the report,
    the heartbeat) each waiting 500 ms would outlast the 2 s watchdog: a pass's writes stop
    once they have taken their budget, and the state goes out when the host reads again."""
    clock = Clock()
    port = HeldPort(clock)
    machine.clear()
    machine.input_hook = AllClosed().level
    watchdog = WatchdogClock(clock)
    fw = app.Firmware(
        hw.MatrixPins(DAMATH[0], DAMATH[1], settle_us=0), hw.Ws2812(16), port, watchdog, clock,
    )  # fmt: skip
    watchdog.last = clock.total  # the HELLO at boot waited too; the loop starts now
    sent = []
    pi = Endpoint(sent.append, clock.ticks_ms, hw.ticks_diff)
    pi.send(protocol.HELLO, protocol.hello_body(32))
    for k in range(4):
        pi.send(protocol.LEDS if k % 2 else protocol.RELEASE, bytes(96) if k % 2 else b"no")
    port.inbox = b"".join(sent)
    for _ in range(5):
        fw.step()
        clock.total += 1000
    assert watchdog.longest < 2_000_000, watchdog.longest  # the watchdog never fired
    assert watchdog.longest <= fw.write_budget_us + 500_000 + 1000, watchdog.longest
    assert fw.writes_dropped > 0
    port.reading = True  # the host reads again: the board's state reaches it
    for _ in range(300):
        fw.step()
        clock.total += 1000
    got = [t for t, _ in pi.feed(port.sent)]
    assert protocol.OCCUPANCY in got, got
    assert fw.led_frames == 2  # the frames read in the held pass were kept


def test_a_full_board_keeps_every_value_a_small_integer_on_the_rp2040():
    fw = firmware()
    for _ in range(4):
        fw.step()
    assert fw.matrix.words == [0xFFFF, 0xFFFF]  # rows 0..3 and 4..7, as in protocol 1
    for value in fw.matrix.words + [d.stable for d in fw.words]:
        assert 0 <= value < SMALL_INT_LIMIT
    assert fw.stable_mask == 0xFFFFFFFF  # joined only for the report


def _scan_many(fw, n):
    micropython.heap_lock()
    try:
        for _ in range(n):
            fw.scan()
        failed = 0
    except MemoryError:
        failed = 1
    micropython.heap_unlock()
    return failed


def test_scanning_an_unchanged_board_allocates_nothing():
    fw = firmware()
    fw.step()
    fw.step()
    fw.step()
    assert _scan_many(fw, 200) == 0, "a scan allocated on the heap"


def test_a_loop_pass_with_nothing_arriving_allocates_nothing():
    """The whole pass (scan, link, LED chain's poll, watchdog), not the scan alone."""
    fw = firmware()
    for _ in range(3):
        fw.step()
    micropython.heap_lock()
    try:
        for _ in range(200):
            fw.step()
        failed = 0
    except MemoryError:
        failed = 1
    micropython.heap_unlock()
    assert failed == 0, "a pass of the loop allocated on the heap"


def test_the_crc_and_cobs_are_machine_code_here_and_agree_with_the_pure_ones():
    assert framing._crc_fast is not None, "viper did not compile: the table would be used"
    assert framing._cobs_fast is not None, "viper did not compile: the pure COBS would be used"
    for case in V["frames"]:
        payload = unhex(case["payload"])
        assert framing.crc16(payload) == framing.crc16_table(payload) == case["crc"]
        encoded = unhex(case["cobs"])
        assert framing.cobs_decode(encoded) == framing.cobs_decode_pure(encoded) == payload
    for bad in (b"\x03a", b"\x02\x00", b"\x00", b"\x05ab\x00c"):
        said = []
        for decode in (framing.cobs_decode, framing.cobs_decode_pure):
            try:
                said.append(decode(bad))
            except framing.FrameError as exc:
                said.append(str(exc))
        assert said[0] == said[1], said


def test_debounce_counts_without_allocating():
    fw = firmware()
    fw.step()
    machine.input_hook = lambda pin: 1  # every chip lifted at once: 32 squares counting
    assert _scan_many(fw, 2) == 0, "debouncing a change allocated on the heap"


def test_sized_bodies_match_cpython():
    for case in V["sized"]:
        points = case["points"]
        mask = int(case["mask"])
        body = protocol.occupancy_body(mask, case["ticks"], points)
        assert hexof(body) == case["body"], points
        assert protocol.parse_occupancy(body, points) == (mask, case["ticks"])
        assert hexof(protocol.hello_body(points)) == case["hello"]
        assert protocol.parse_hello(protocol.hello_body(points))[1] == points
        try:
            protocol.parse_occupancy(body, 32)
        except framing.FrameError as exc:
            assert "for 32 points" in str(exc)
        else:
            raise AssertionError("a body of another size was read")


def test_every_board_size_scans_in_small_integers_and_reports_every_point():
    for pins, points in SIZES:
        stream = Stream()
        fw = firmware(stream, pins=pins)
        assert fw.points == points
        for _ in range(4):
            fw.step()
        for value in fw.matrix.words + [d.stable for d in fw.words]:
            assert 0 <= value < SMALL_INT_LIMIT, (points, value)
        assert fw.stable_mask == (1 << points) - 1, points
        pi = Endpoint(lambda data: None, lambda: 0)
        got = pi.feed(stream.sent)
        hello = [b for t, b in got if t == protocol.HELLO]
        reports = [b for t, b in got if t == protocol.OCCUPANCY]
        assert protocol.parse_hello(hello[0])[1] == points
        assert protocol.parse_occupancy(reports[-1], points)[0] == (1 << points) - 1


def test_every_board_size_scans_without_allocating():
    for pins, points in SIZES:
        fw = firmware(pins=pins)
        fw.step()
        fw.step()
        fw.step()
        assert _scan_many(fw, 100) == 0, "an unchanged scan of " + str(points) + " allocated"
        machine.input_hook = lambda pin: 1  # every chip lifted at once: every point counting
        assert _scan_many(fw, 2) == 0, "debouncing " + str(points) + " points allocated"


def test_an_led_frame_of_another_size_is_dropped_and_the_chain_kept():
    stream = Stream()
    fw = firmware(stream, pins=MATHCHESS)
    sent = []
    pi = Endpoint(sent.append, lambda: 0)
    pi.send(protocol.LEDS, bytes(range(243)))
    stream.inbox = b"".join(sent)
    fw.step()
    assert fw.led_frames == 1 and fw.leds_rejected == 0
    words = list(fw.leds.sm.words)
    assert [w >> 24 for w in words[-243:]] == list(range(243))
    sent.clear()
    pi.send(protocol.LEDS, bytes(96))  # a 32-square host's frame
    stream.inbox = b"".join(sent)
    fw.step()
    assert fw.led_frames == 1 and fw.leds_rejected == 1
    assert list(fw.leds.sm.words) == words  # nothing half lit


def test_a_release_message_is_acknowledged_then_releases_the_port():
    released = []
    stream = Stream()
    fw = firmware(stream, release=lambda: released.append(1))
    sent = []
    pi = Endpoint(sent.append, lambda: 0)
    pi.send(protocol.RELEASE, protocol.RELEASE_BODY)
    stream.inbox = b"".join(sent)
    fw.run(1000, running=lambda: len(released) < 5)
    assert released == [1] and fw.released  # the loop ended after one release
    assert pi.pending() == 1
    pi.feed(stream.sent)
    assert pi.pending() == 0  # the firmware acknowledged it before releasing


def test_a_release_message_with_a_wrong_body_is_ignored():
    released = []
    stream = Stream()
    fw = firmware(stream, release=lambda: released.append(1))
    sent = []
    pi = Endpoint(sent.append, lambda: 0)
    pi.send(protocol.RELEASE, b"nope")
    stream.inbox = b"".join(sent)
    fw.step()
    fw.step()
    assert released == [] and not fw.released


def test_release_leaves_a_flag_for_one_boot():
    machine.clear()
    try:  # noqa: SIM105  (MicroPython has no contextlib)
        hw.release("mp-release-flag", settle_ms=0)
    except machine.Reset:
        pass
    assert machine.resets == 1
    assert startup.take_flag("mp-release-flag") is True
    assert startup.take_flag("mp-release-flag") is False  # used up: the next boot runs


def test_the_board_runs_unless_released_or_the_pin_is_held_low():
    assert startup.should_run(1, False) is True
    assert startup.should_run(0, False) is False
    assert startup.should_run(1, True) is False


mp_unit.run(globals())
