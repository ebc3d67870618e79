"""Byte framing for the Pi <-> co-processor serial link: COBS(payload + CRC-16) + 0x00.

Shared by the Pi (CPython) and the RP2040 (MicroPython). On CPython the maintained `cobs` package
and `binascii.crc_hqx` (C code, CRC-16/CCITT-FALSE with init 0xFFFF) do the work; MicroPython has
neither, so small pure versions below stand in and the tests check both agree byte for byte.
A 0x00 never occurs inside a COBS block, so a receiver that loses its place resynchronises at
the next delimiter: at most one frame is lost after garbage.
"""

TYPE_CHECKING = False  # MicroPython has no `typing`: names for the checker, quoted where used
if TYPE_CHECKING:
    from collections.abc import Callable

try:
    from cobs import cobs as _cobs_lib
except ImportError:  # MicroPython
    _cobs_lib = None
_crc_hqx: "Callable[[bytes, int], int] | None"
try:
    from binascii import crc_hqx as _crc_hqx
except ImportError:  # MicroPython's binascii has no crc_hqx
    _crc_hqx = None

DELIMITER = b"\x00"
MAX_PAYLOAD = 1024
# COBS adds one byte per 254 and one at the start; CRC adds two.
MAX_ENCODED = MAX_PAYLOAD + 2 + (MAX_PAYLOAD + 2) // 254 + 2


class FrameError(ValueError):
    """A frame that must be dropped: bad COBS, bad CRC, too short or too long."""


def crc16_pure(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), bit by bit, for MicroPython."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE of `data`; 0x29B1 for b"123456789"."""
    if _crc_hqx is not None:
        return _crc_hqx(data, 0xFFFF)
    return crc16_pure(data)


def cobs_encode_pure(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result holds no 0x00."""
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    full = False  # the last block closed because it reached 254 bytes, not at a zero
    for byte in data:
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
            full = False
        else:
            out.append(byte)
            code += 1
            full = False
            if code == 0xFF:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
                full = True
    if full:
        # no data after a full block: no new block. (MicroPython's bytearray has no pop() and
        # no item deletion, so the block's placeholder byte is cut off by slicing.)
        return bytes(out[:-1])
    out[code_at] = code
    return bytes(out)


def cobs_decode_pure(data: bytes) -> bytes:
    """Undo COBS; raise FrameError on a zero byte or a block that runs past the end."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise FrameError("zero byte inside a COBS block")
        end = i + code
        if end > n:
            raise FrameError("COBS block runs past the end of the frame")
        block = data[i + 1 : end]
        if 0 in block:
            raise FrameError("zero byte inside a COBS block")
        out.extend(block)
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


def cobs_encode(data: bytes) -> bytes:
    if _cobs_lib is not None:
        encoded: bytes = _cobs_lib.encode(bytes(data))
        return encoded
    return cobs_encode_pure(data)


def cobs_decode(data: bytes) -> bytes:
    if _cobs_lib is not None:
        try:
            decoded: bytes = _cobs_lib.decode(bytes(data))
            return decoded
        except _cobs_lib.DecodeError as exc:
            raise FrameError("bad COBS: " + str(exc)) from None
    return cobs_decode_pure(data)


def encode_frame(payload: bytes) -> bytes:
    """payload -> bytes on the wire, delimiter included."""
    if len(payload) > MAX_PAYLOAD:
        raise FrameError("payload of " + str(len(payload)) + " bytes exceeds " + str(MAX_PAYLOAD))
    crc = crc16(payload)
    body = bytes(payload) + bytes(((crc >> 8) & 0xFF, crc & 0xFF))
    return cobs_encode(body) + DELIMITER


def decode_frame(encoded: bytes) -> bytes:
    """One frame's bytes between delimiters -> payload, or FrameError."""
    if len(encoded) > MAX_ENCODED:
        raise FrameError("frame too long")
    body = cobs_decode(encoded)
    if len(body) < 3:
        raise FrameError("frame too short")
    payload = body[:-2]
    crc = (body[-2] << 8) | body[-1]
    if crc16(payload) != crc:
        raise FrameError("CRC mismatch")
    return payload


class FrameDecoder:
    """Splits a byte stream at delimiters and returns the payloads of good frames.

    Bad frames are counted and dropped, never raised: the stream is untrusted.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._overflow = False
        self.good = 0
        self.bad = 0

    def feed(self, data: bytes) -> list[bytes]:
        payloads: list[bytes] = []
        for byte in data:
            if byte == 0:
                if self._overflow:
                    self.bad += 1
                elif self._buf:
                    try:
                        payloads.append(decode_frame(bytes(self._buf)))
                        self.good += 1
                    except FrameError:
                        self.bad += 1
                self._buf = bytearray()
                self._overflow = False
            elif not self._overflow:
                self._buf.append(byte)
                if len(self._buf) > MAX_ENCODED:
                    self._overflow = True
                    self._buf = bytearray()
        return payloads
