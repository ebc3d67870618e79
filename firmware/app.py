"""The co-processor's main loop: scan, debounce, report changes, drive the LEDs, stay alive.

Hardware comes in as small objects (see hw.py for the real ones, fakes/ for the tests), so this
loop runs unchanged on the RP2040, under the MicroPython unix port and on CPython.
"""

try:
    from firmware import protocol
    from firmware.debounce import Debouncer
    from firmware.endpoint import Endpoint
except ImportError:  # on the Pico
    import protocol  # type: ignore[no-redef]
    from debounce import Debouncer  # type: ignore[no-redef]
    from endpoint import Endpoint  # type: ignore[no-redef]

TYPE_CHECKING = False  # MicroPython has no `typing`: names for the checker, quoted where used
if TYPE_CHECKING:
    from collections.abc import Callable

    from firmware.ports import Clock, Leds, Matrix, Stream, Watchdog


class Firmware:
    """matrix.scan() fills matrix.words (small integers, matrix.word_bits each) for
    matrix.points points, and the chain has `led_count` LEDs (one a point unless given): an LED
    frame of another length is dropped; leds.write(bytes) keeps a frame, leds.poll() (every
    pass) sends it without holding the scan up;
    stream.read() -> bytes, stream.write(bytes); watchdog.feed(); clock.ticks_ms(),
    clock.ticks_us(), clock.ticks_diff(a, b), clock.ticks_add(t, n), clock.sleep_us(n) (every
    sum on ticks goes through ticks_add: they wrap at 2**30 on the RP2040). ``release()`` is
    called once the Pi has asked for the REPL (on the Pico: hw.release, which reboots into it).
    """

    def __init__(
        self,
        matrix: "Matrix",
        leds: "Leds",
        stream: "Stream",
        watchdog: "Watchdog",
        clock: "Clock",
        debounce_scans: int = 3,
        heartbeat_ms: int = 1000,
        release: "Callable[[], object] | None" = None,
        led_count: "int | None" = None,
        write_budget_us: int = 100_000,
    ) -> None:
        self.matrix = matrix
        self.leds = leds
        self.stream = stream
        self.watchdog = watchdog
        self.clock = clock
        self.release = release
        self.released = False
        self.started = clock.ticks_ms()
        self.scans = 0
        self._scans_at_beat = 0
        self.led_frames = 0
        self.points = protocol.check_points(matrix.points)
        self.led_bytes = 3 * protocol.check_points(self.points if led_count is None else led_count)
        self.leds_rejected = 0  # LED frames of another length: dropped, the chain kept as it was
        self.write_budget_us = write_budget_us
        self._write_us = 0  # time this pass's writes took
        self.writes_dropped = 0  # frames not written: this pass's writes had taken their budget
        matrix.scan()
        bits = matrix.word_bits
        self.words = [Debouncer(debounce_scans, bits, initial=w) for w in matrix.words]
        self._sent = [-1] * len(self.words)  # nothing reported yet
        self.endpoint = Endpoint(
            self._write,
            clock.ticks_ms,
            clock.ticks_diff,
            heartbeat_ms=heartbeat_ms,
            heartbeat_body=self._heartbeat,
        )
        self.endpoint.send(protocol.HELLO, protocol.hello_body(self.points))

    @property
    def stable_mask(self) -> int:
        """The debounced occupancy as one mask (allocates on the RP2040: reports only)."""
        mask = 0
        bits = self.matrix.word_bits
        for k in range(len(self.words)):
            mask |= self.words[k].stable << (k * bits)
        return mask

    def _heartbeat(self) -> bytes:
        now = self.clock.ticks_ms()
        scans = self.scans - self._scans_at_beat
        self._scans_at_beat = self.scans
        return protocol.heartbeat_body(self.clock.ticks_diff(now, self.started), scans)

    def _write(self, frame: bytes) -> None:
        """A frame to the Pi, unless this pass's writes have taken ``write_budget_us``: a host
        that holds the port open without reading makes each USB write wait up to 500 ms, and
        a pass of several would outlast the watchdog (2 s). A dropped state message is sent
        again by the endpoint's retry, a dropped heartbeat is not missed."""
        if self._write_us >= self.write_budget_us:
            self.writes_dropped += 1
            return
        clock = self.clock
        started = clock.ticks_us()
        self.stream.write(frame)
        self._write_us += clock.ticks_diff(clock.ticks_us(), started)

    def _report(self) -> None:
        for k in range(len(self.words)):
            self._sent[k] = self.words[k].stable
        body = protocol.occupancy_body(self.stable_mask, self.clock.ticks_ms(), self.points)
        self.endpoint.send(protocol.OCCUPANCY, body)

    def scan(self) -> bool:
        """Scan and debounce; True when the stable occupancy differs from the one reported.
        Allocation-free while nothing changes (checked under the MicroPython unix port)."""
        matrix = self.matrix
        matrix.scan()
        raw = matrix.words
        words = self.words
        sent = self._sent
        changed = False
        for k in range(len(raw)):
            if words[k].update(raw[k]) != sent[k]:
                changed = True
        self.scans += 1
        return changed

    def step(self) -> None:
        """One pass: about 0.3 ms on an RP2040 at 125 MHz, so the loop runs at 1 kHz."""
        self._write_us = 0
        if self.scan():
            self._report()
        data = self.stream.read()
        if data:
            for msg_type, body in self.endpoint.feed(data):
                if msg_type == protocol.HELLO:
                    self._report()  # the Pi (re)connected: tell it all
                elif msg_type == protocol.LEDS:
                    if len(body) == self.led_bytes:
                        self.leds.write(body)
                        self.led_frames += 1
                    else:  # a frame for another board: never half a chain lit
                        self.leds_rejected += 1
                elif msg_type == protocol.RELEASE and body == protocol.RELEASE_BODY:
                    self.released = True
        self.leds.poll()  # an LED frame goes out by DMA once the chain is free
        self.endpoint.poll()
        self.watchdog.feed()
        if self.released and self.release is not None:
            self.release()  # the ACK went out in feed(); on the Pico this reboots

    def run(self, period_us: int = 1000, running: "Callable[[], bool] | None" = None) -> None:
        """Step every `period_us` until `running()` is false or the Pi released the port."""
        next_at = self.clock.ticks_us()
        while (running is None or running()) and not self.released:
            self.step()
            next_at = self.clock.ticks_add(next_at, period_us)  # never +: the ticks wrap
            wait = self.clock.ticks_diff(next_at, self.clock.ticks_us())
            if wait > 0:
                self.clock.sleep_us(wait)
            else:
                next_at = self.clock.ticks_us()  # fell behind: don't try to catch up
