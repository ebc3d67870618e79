"""Messages on the link: what each frame's payload means. Shared by the Pi and the RP2040.

A payload is `type (1 byte) | seq (1 byte) | body`. Every message that carries state (HELLO,
OCCUPANCY, LEDS) and RELEASE is acknowledged and retried until acknowledged; because each state
message is the whole current state, a retry that arrives twice does no harm and the newest one
always wins.

Board size (protocol 2). A board of ``points`` sensors (32 on an 8x8 Damath board, 72 on a
12x12 Dam board's dark squares, 81 on a Mathematical Chess board, up to MAX_POINTS) sizes two
bodies: the OCCUPANCY mask is ceil(points / 8) bytes, big-endian, bit i = point i; a LEDS body is
3 bytes a LED, one LED a point unless the board's config says otherwise (LED_COUNT, 1..144).
Each side announces its size in its HELLO: a 32-point board says
``01`` exactly as protocol 1 did (so a 32-square firmware and host are unchanged byte for byte),
any other size says ``02 hi lo`` (version 2, points as u16). A peer that announces protocol 1 has
32 points. Sizes are checked on receipt: a body of the wrong length is a FrameError naming both
lengths, and the previous state stays in place.
"""

try:
    from firmware.framing import FrameError
except ImportError:  # on the Pico the modules sit at the top level of the filesystem
    from framing import FrameError  # type: ignore[no-redef]

VERSION = 1  # what a 32-point board announces (protocol 1, unchanged)
SIZED_VERSION = 2  # what any other size announces, with its point count
DEFAULT_POINTS = 32  # an 8x8 Damath board's playable squares; protocol 1's only size
MAX_POINTS = 144  # a full 12x12 matrix: 24 of the Pico's free pins, 432 LED bytes a frame

HELLO = 0x01  # Pi -> Pico on (re)connect, Pico -> Pi on boot; body: protocol version
OCCUPANCY = 0x10  # Pico -> Pi: mask (ceil(points/8) bytes, bit i = point i), ticks_ms (u32)
LEDS = 0x20  # Pi -> Pico: 3 bytes a point, already in wire order (GRB) and current-capped
HEARTBEAT = 0x30  # both ways, unacknowledged: uptime ms (u32), scans since the last one (u32)
RELEASE = 0x40  # Pi -> Pico: stop and boot once into the REPL (for mpremote); body: RELEASE_BODY
ACK = 0x7F  # body: the acknowledged message's type; seq field: its seq

RELEASE_BODY = b"repl"
RELIABLE = (HELLO, OCCUPANCY, LEDS, RELEASE)
NAMES = {
    HELLO: "hello",
    OCCUPANCY: "occupancy",
    LEDS: "leds",
    HEARTBEAT: "heartbeat",
    RELEASE: "release",
    ACK: "ack",
}


def u32(value: int) -> bytes:
    value &= 0xFFFFFFFF
    return bytes(((value >> 24) & 0xFF, (value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF))


def read_u32(body: bytes, offset: int = 0) -> int:
    b = body[offset : offset + 4]
    if len(b) != 4:
        raise FrameError("body too short for a u32 at " + str(offset))
    return (b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]


def pack(msg_type: int, seq: int, body: bytes = b"") -> bytes:
    return bytes((msg_type & 0xFF, seq & 0xFF)) + bytes(body)


def unpack(payload: bytes) -> tuple[int, int, bytes]:
    """payload -> (type, seq, body); FrameError for an unknown type or a short payload."""
    if len(payload) < 2:
        raise FrameError("payload shorter than its header")
    msg_type = payload[0]
    if msg_type not in NAMES:
        raise FrameError("unknown message type " + str(msg_type))
    return msg_type, payload[1], bytes(payload[2:])


def check_points(points: int) -> int:
    if not 1 <= points <= MAX_POINTS:
        raise ValueError("a board has 1 to " + str(MAX_POINTS) + " points, not " + str(points))
    return points


def hello_body(points: int = DEFAULT_POINTS) -> bytes:
    """What a side of `points` points announces: protocol 1's one byte for 32, else 2 + u16."""
    check_points(points)
    if points == DEFAULT_POINTS:
        return bytes((VERSION,))
    return bytes((SIZED_VERSION, points >> 8, points & 0xFF))


def parse_hello(body: bytes) -> tuple[int, int]:
    """-> (protocol version, points); FrameError for a version or size this side cannot use."""
    if len(body) == 1 and body[0] == VERSION:
        return VERSION, DEFAULT_POINTS
    if len(body) == 3 and body[0] == SIZED_VERSION:
        points = (body[1] << 8) | body[2]
        if 1 <= points <= MAX_POINTS:
            return SIZED_VERSION, points
        raise FrameError("hello announces " + str(points) + " points; 1 to 144 are possible")
    raise FrameError("hello of an unknown protocol: " + hexlify(body))


def hexlify(data: bytes) -> str:
    return "".join("0123456789abcdef"[b >> 4] + "0123456789abcdef"[b & 15] for b in data[:16])


def mask_bytes(points: int) -> int:
    return (points + 7) // 8


def occupancy_body(mask: int, ticks_ms: int, points: int = DEFAULT_POINTS) -> bytes:
    """The mask in ceil(points / 8) big-endian bytes (4 for 32 points: protocol 1's u32)."""
    n = mask_bytes(points)
    out = bytearray(n + 4)
    i = n - 1
    while i >= 0:
        out[i] = mask & 0xFF
        mask >>= 8
        i -= 1
    out[n:] = u32(ticks_ms)
    return bytes(out)


def parse_occupancy(body: bytes, points: int = DEFAULT_POINTS) -> tuple[int, int]:
    """-> (mask, ticks_ms); FrameError for a body of another size or a bit beyond `points`."""
    n = mask_bytes(points)
    if len(body) != n + 4:
        raise FrameError(
            "occupancy body must be "
            + str(n + 4)
            + " bytes for "
            + str(points)
            + " points, got "
            + str(len(body))
            + " (a co-processor configured for another board?)"
        )
    mask = 0
    for i in range(n):
        mask = (mask << 8) | body[i]
    if mask >> points:
        raise FrameError("occupancy mask sets a bit beyond point " + str(points - 1))
    return mask, read_u32(body, n)


def check_leds(body: bytes, count: int = DEFAULT_POINTS) -> bytes:
    """A LEDS body must light the whole chain: 3 bytes an LED; FrameError otherwise."""
    if len(body) != 3 * count:
        raise FrameError(
            "an LED frame for "
            + str(count)
            + " LEDs is "
            + str(3 * count)
            + " bytes, got "
            + str(len(body))
        )
    return body


def heartbeat_body(uptime_ms: int, scans: int) -> bytes:
    return u32(uptime_ms) + u32(scans)


def parse_heartbeat(body: bytes) -> tuple[int, int]:
    """-> (uptime_ms, scans)"""
    if len(body) != 8:
        raise FrameError("heartbeat body must be 8 bytes, got " + str(len(body)))
    return read_u32(body, 0), read_u32(body, 4)
