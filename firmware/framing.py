"""Byte framing for the Pi <-> co-processor serial link: COBS(payload + CRC-16) + 0x00.

Shared by the Pi (CPython) and the RP2040 (MicroPython). On CPython the maintained `cobs` package
and `binascii.crc_hqx` (C code, CRC-16/CCITT-FALSE with init 0xFFFF) do the work; MicroPython has
neither, so small pure versions below stand in and the tests check both agree byte for byte. The
CRC there is a table's (one lookup a byte, ``crc16_table``); where the port has MicroPython's
viper emitter (the RP2040's has), the CRC and the COBS decoding are machine code (fastframe.py):
a 432-byte LED frame is read in tens of microseconds instead of milliseconds.
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


def crc_table() -> "list[int]":
    """The CRC of each byte value on its own (from 0): 256 entries, made once."""
    return [crc16_pure(bytes((byte,)), 0) for byte in range(256)]


_TABLE: "list[int] | None" = None


def crc16_table(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE, a table lookup a byte (MicroPython without viper)."""
    global _TABLE
    table = _TABLE
    if table is None:
        table = _TABLE = crc_table()
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ byte]
    return crc


_crc_fast: "Callable[[bytes], int] | None" = None
_cobs_fast: "Callable[[bytes], bytes] | None" = None


def _load_fast() -> None:
    """MicroPython: the byte loops as machine code, where the port compiles viper (fastframe)."""
    global _crc_fast, _cobs_fast
    try:
        from firmware import fastframe
    except ImportError:
        try:
            import fastframe  # type: ignore[import-not-found, no-redef]
        except Exception:  # no viper emitter in this port (a SyntaxError), or no file
            return
    except Exception:
        return
    _crc_fast = fastframe.crc16
    _cobs_fast = fastframe.cobs_decode


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE of `data`; 0x29B1 for b"123456789"."""
    if _crc_hqx is not None:
        return _crc_hqx(data, 0xFFFF)
    if _crc_fast is not None:
        return _crc_fast(data)
    return crc16_table(data)


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
    if _cobs_fast is not None:
        return _cobs_fast(data)
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
        """Whole runs between delimiters are found and copied at once (C code on the Pico too),
        not a byte at a time."""
        payloads: list[bytes] = []
        start = 0
        n = len(data)
        while start < n:
            end = data.find(DELIMITER, start)
            self._take(data, start, n if end < 0 else end)
            if end < 0:
                break
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
            start = end + 1
        return payloads

    def _take(self, data: bytes, start: int, end: int) -> None:
        if self._overflow or end <= start:
            return
        if len(self._buf) + end - start > MAX_ENCODED:
            self._overflow = True
            self._buf = bytearray()
            return
        self._buf.extend(data[start:end])


if _crc_hqx is None:  # MicroPython (CPython has binascii and the cobs package)
    _load_fast()
