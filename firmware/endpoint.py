"""One end of the link: sequence numbers, acknowledgement and retry, heartbeats, liveness.

Shared by the Pi and the RP2040. It owns no port and no clock: it is handed a `write(bytes)`
function and a millisecond clock (with `ticks_diff`, because MicroPython's ticks wrap), so the same
logic is tested on CPython and runs on the Pico.
"""

try:
    from firmware import protocol
    from firmware.framing import FrameDecoder, FrameError, encode_frame
except ImportError:  # on the Pico
    import protocol  # type: ignore[no-redef]
    from framing import FrameDecoder, FrameError, encode_frame  # type: ignore[no-redef]

TYPE_CHECKING = False  # MicroPython has no `typing`: names for the checker, quoted where used
if TYPE_CHECKING:
    from collections.abc import Callable


def _subtract(a: int, b: int) -> int:
    return a - b


class Endpoint:
    """Reliable delivery of state messages (newest wins) and a heartbeat over a byte stream."""

    def __init__(
        self,
        write: "Callable[[bytes], object]",
        now_ms: "Callable[[], int]",
        ticks_diff: "Callable[[int, int], int]" = _subtract,
        retry_ms: int = 100,
        heartbeat_ms: int = 1000,
        timeout_ms: int = 3000,
        heartbeat_body: "Callable[[], bytes] | None" = None,
    ) -> None:
        self._write = write
        self._now = now_ms
        self._diff = ticks_diff
        self.retry_ms = retry_ms
        self.heartbeat_ms = heartbeat_ms
        self.timeout_ms = timeout_ms
        self._heartbeat_body = heartbeat_body or (lambda: protocol.heartbeat_body(0, 0))
        self.decoder = FrameDecoder()
        self._seq = 0
        self._pending: dict[int, tuple[int, bytes, int]] = {}  # type -> (seq, body, last sent)
        self._last_heard: int | None = None
        self._last_beat: int | None = None
        self.retries = 0
        self.rejected = 0  # frames with a good CRC but a meaningless payload

    def _next_seq(self) -> int:
        self._seq = (self._seq + 1) & 0xFF
        return self._seq

    def _emit(self, msg_type: int, seq: int, body: bytes) -> None:
        self._write(encode_frame(protocol.pack(msg_type, seq, body)))

    def send(self, msg_type: int, body: bytes, reliable: bool = True) -> None:
        """Send now; a reliable message replaces any unacknowledged one of its type."""
        seq = self._next_seq()
        if reliable:
            self._pending[msg_type] = (seq, bytes(body), self._now())
        self._emit(msg_type, seq, body)

    def pending(self, msg_type: int | None = None) -> int:
        """How many messages wait for an ACK (of one type, if given)."""
        if msg_type is None:
            return len(self._pending)
        return 1 if msg_type in self._pending else 0

    def feed(self, data: bytes) -> list[tuple[int, bytes]]:
        """Bytes from the peer -> [(type, body)] for every good state message or heartbeat."""
        messages: list[tuple[int, bytes]] = []
        for payload in self.decoder.feed(data):
            try:
                msg_type, seq, body = protocol.unpack(payload)
            except FrameError:
                self.rejected += 1
                continue
            self._last_heard = self._now()
            if msg_type == protocol.ACK:
                if len(body) == 1:
                    entry = self._pending.get(body[0])
                    if entry is not None and entry[0] == seq:
                        del self._pending[body[0]]
                continue
            if msg_type in protocol.RELIABLE:
                self._emit(protocol.ACK, seq, bytes((msg_type,)))
            messages.append((msg_type, body))
        return messages

    def poll(self) -> None:
        """Retry what is unacknowledged and send a heartbeat when one is due."""
        now = self._now()
        pending = self._pending
        for msg_type in pending:  # no copy: only values change here (allocation-free when idle)
            seq, body, sent = pending[msg_type]
            if self._diff(now, sent) >= self.retry_ms:
                pending[msg_type] = (seq, body, now)
                self.retries += 1
                self._emit(msg_type, seq, body)
        if self._last_beat is None or self._diff(now, self._last_beat) >= self.heartbeat_ms:
            self._last_beat = now
            self._emit(protocol.HEARTBEAT, self._next_seq(), self._heartbeat_body())

    def peer_alive(self) -> bool:
        """True while the peer has sent any good frame within `timeout_ms`."""
        if self._last_heard is None:
            return False
        return self._diff(self._now(), self._last_heard) < self.timeout_ms

    def heard_ever(self) -> bool:
        return self._last_heard is not None

    def reset(self) -> None:
        """Forget the peer (after a reconnect): nothing pending, not heard from."""
        self._pending = {}
        self._last_heard = None
        self._last_beat = None
        self.decoder = FrameDecoder()
