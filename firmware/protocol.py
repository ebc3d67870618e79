"""Messages on the link: what each frame's payload means. Shared by the Pi and the RP2040.

A payload is `type (1 byte) | seq (1 byte) | body`. Every message that carries state (HELLO,
OCCUPANCY, LEDS) and RELEASE is acknowledged and retried until acknowledged; because each state
message is the whole current state, a retry that arrives twice does no harm and the newest one
always wins.
"""

try:
    from firmware.framing import FrameError
except ImportError:  # on the Pico the modules sit at the top level of the filesystem
    from framing import FrameError  # type: ignore[no-redef]

VERSION = 1

HELLO = 0x01  # Pi -> Pico on (re)connect, Pico -> Pi on boot; body: protocol version
OCCUPANCY = 0x10  # Pico -> Pi: mask (u32, bit i = square index i), Pico ticks_ms (u32)
LEDS = 0x20  # Pi -> Pico: the chain's bytes, already in wire order (GRB) and current-capped
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


def occupancy_body(mask: int, ticks_ms: int) -> bytes:
    return u32(mask) + u32(ticks_ms)


def parse_occupancy(body: bytes) -> tuple[int, int]:
    """-> (mask, ticks_ms)"""
    if len(body) != 8:
        raise FrameError("occupancy body must be 8 bytes, got " + str(len(body)))
    return read_u32(body, 0), read_u32(body, 4)


def heartbeat_body(uptime_ms: int, scans: int) -> bytes:
    return u32(uptime_ms) + u32(scans)


def parse_heartbeat(body: bytes) -> tuple[int, int]:
    """-> (uptime_ms, scans)"""
    if len(body) != 8:
        raise FrameError("heartbeat body must be 8 bytes, got " + str(len(body)))
    return read_u32(body, 0), read_u32(body, 4)
