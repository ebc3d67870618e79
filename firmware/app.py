"""The co-processor's main loop: scan, debounce, report changes, drive the LEDs, stay alive.

Hardware comes in as small objects (see hw.py for the real ones, fakes/ for CPython), so this
loop runs unchanged on the RP2040 and in the tests on a PC.
"""

try:
    from firmware import protocol
    from firmware.debounce import Debouncer
    from firmware.endpoint import Endpoint
except ImportError:  # on the Pico
    import protocol
    from debounce import Debouncer
    from endpoint import Endpoint


class Firmware:
    """matrix.scan() -> raw mask; leds.write(bytes); stream.read() -> bytes, stream.write(bytes);
    watchdog.feed(); clock.ticks_ms(), clock.ticks_diff(a, b), clock.sleep_us(n)."""

    def __init__(self, matrix, leds, stream, watchdog, clock, debounce_scans=3, heartbeat_ms=1000):
        self.matrix = matrix
        self.leds = leds
        self.stream = stream
        self.watchdog = watchdog
        self.clock = clock
        self.started = clock.ticks_ms()
        self.scans = 0
        self._scans_at_beat = 0
        self.led_frames = 0
        self.debouncer = Debouncer(debounce_scans, initial=matrix.scan())
        self.endpoint = Endpoint(
            stream.write,
            clock.ticks_ms,
            clock.ticks_diff,
            heartbeat_ms=heartbeat_ms,
            heartbeat_body=self._heartbeat,
        )
        self.sent_mask = None
        self.endpoint.send(protocol.HELLO, bytes((protocol.VERSION,)))

    def _heartbeat(self):
        now = self.clock.ticks_ms()
        scans = self.scans - self._scans_at_beat
        self._scans_at_beat = self.scans
        return protocol.heartbeat_body(self.clock.ticks_diff(now, self.started), scans)

    def _report(self, mask):
        self.sent_mask = mask
        self.endpoint.send(protocol.OCCUPANCY, protocol.occupancy_body(mask, self.clock.ticks_ms()))

    def step(self):
        """One pass: about 0.3 ms on an RP2040 at 125 MHz, so the loop runs at 1 kHz."""
        stable = self.debouncer.update(self.matrix.scan())
        self.scans += 1
        if stable != self.sent_mask:
            self._report(stable)
        data = self.stream.read()
        if data:
            for msg_type, body in self.endpoint.feed(data):
                if msg_type == protocol.HELLO:
                    self._report(self.debouncer.stable)  # the Pi (re)connected: tell it all
                elif msg_type == protocol.LEDS:
                    self.leds.write(body)
                    self.led_frames += 1
        self.endpoint.poll()
        self.watchdog.feed()

    def run(self, period_us=1000, running=None):
        """Step every `period_us` until `running()` is false (forever on the Pico)."""
        next_at = self.clock.ticks_us()
        while running is None or running():
            self.step()
            next_at += period_us
            wait = self.clock.ticks_diff(next_at, self.clock.ticks_us())
            if wait > 0:
                self.clock.sleep_us(wait)
            else:
                next_at = self.clock.ticks_us()  # fell behind: don't try to catch up
