"""The Pico's real USB stream (hw.UsbStream) under the MicroPython unix port, on pipes: an idle
read allocates nothing (the loop's "nothing allocated while nothing happens" holds on the real
link, not only on a fake stream), bytes arrive whole and within the read budget, and a host
that keeps the port open without reading makes writes drop, never wait."""

from __future__ import annotations

import os
import select
import subprocess
import time
from pathlib import Path

from .test_micropython import tool

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).parent / "mp" / "mp_usb.py"


def line_from(proc: subprocess.Popen, timeout: float = 60.0) -> str:
    """The script's next line on stderr (the bound only ends a hung script)."""
    end = time.monotonic() + timeout
    out = b""
    while not out.endswith(b"\n"):
        left = end - time.monotonic()
        assert left > 0, f"the script said nothing more: {out!r}"
        ready, _, _ = select.select([proc.stderr], [], [], left)
        if ready:
            byte = os.read(proc.stderr.fileno(), 1)
            assert byte, f"the script ended: {out!r}"
            out += byte
    return out.decode().strip()


def test_the_usb_stream_reads_without_allocating_and_never_waits_on_a_host_not_reading():
    sent = bytes(range(256)) * 2 + b"\x03\x00\x03"  # Ctrl-C is an ordinary byte
    proc = subprocess.Popen(
        [tool("micropython"), str(SCRIPT), str(ROOT), str(len(sent))],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert line_from(proc) == "idle ok", "an idle read allocated on the heap"
        proc.stdin.write(sent)
        proc.stdin.flush()
        assert line_from(proc) == "read " + sent.hex()
        wrote, dropped = line_from(proc).split()[1::2]  # stdout never read: the pipe fills
        assert int(dropped) > 0 and int(wrote) + int(dropped) == 2000
        assert 0 < int(wrote) * 100 <= 1 << 20  # what a pipe holds, no more
    finally:
        proc.kill()
        proc.wait(10)
