"""The frame's byte loops as machine code: MicroPython's viper emitter (the RP2040's port has it;
so does the unix port the tests run). framing.py uses these on MicroPython when this file
compiles, its pure versions otherwise; CPython never imports it (it has binascii.crc_hqx and the
cobs package). An LED frame of 144 mostly dark LEDs is some 400 COBS blocks and 430 CRC bytes:
a Python loop over them holds the scan up for milliseconds on an RP2040, this for tens of
microseconds. The CRC's table is framing's, as 16-bit words."""

import array

import micropython

try:
    from firmware.framing import FrameError, crc_table
except ImportError:  # on the Pico
    from framing import FrameError, crc_table  # type: ignore[no-redef]

TYPE_CHECKING = False  # MicroPython has no `typing`: names for the checker, quoted where used

TABLE = array.array("H", crc_table())
ZERO_INSIDE = -1
PAST_THE_END = -2

if TYPE_CHECKING:

    def crc16_viper(data: bytes, n: int, table: "array.array[int]", crc: int) -> int: ...

    def cobs_decode_viper(data: bytes, n: int, out: bytearray) -> int: ...

else:

    @micropython.viper
    def crc16_viper(data: ptr8, n: int, table: ptr16, crc: int) -> int:  # noqa: F821
        for i in range(n):
            crc = ((crc << 8) & 0xFF00) ^ table[((crc >> 8) ^ data[i]) & 0xFF]
        return crc

    @micropython.viper
    def cobs_decode_viper(data: ptr8, n: int, out: ptr8) -> int:  # noqa: F821
        """The decoded length in ``out`` (as long as ``data`` at least), or ZERO_INSIDE or
        PAST_THE_END."""
        i = 0
        o = 0
        while i < n:
            code = int(data[i])
            if code == 0:
                return -1
            end = i + code
            if end > n:
                return -2
            i += 1
            while i < end:
                byte = int(data[i])
                if byte == 0:
                    return -1
                out[o] = byte
                o += 1
                i += 1
            if code != 0xFF and i < n:
                out[o] = 0
                o += 1
        return o


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE of `data`, from 0xFFFF; 0x29B1 for b"123456789"."""
    return int(crc16_viper(data, len(data), TABLE, 0xFFFF))


def cobs_decode(data: bytes) -> bytes:
    """framing.cobs_decode_pure's result and errors."""
    out = bytearray(len(data))
    n = int(cobs_decode_viper(data, len(data), out))
    if n == ZERO_INSIDE:
        raise FrameError("zero byte inside a COBS block")
    if n == PAST_THE_END:
        raise FrameError("COBS block runs past the end of the frame")
    return bytes(out[:n])
