"""The firmware's real USB stream class (hw.UsbStream) under the MicroPython unix port, its
stdin and stdout being pipes held by tests/firmware/test_usb_stream.py.

``micropython mp_usb.py ROOT COUNT``: a thousand reads with nothing arriving under
``micropython.heap_lock`` (then ``idle ok`` or ``idle allocated`` on stderr); the COUNT bytes the
test then sends, read back (``read HEX``); then 2,000 frames of 100 bytes written to a stdout
the test does not read (``wrote N dropped M``): a port without room drops a frame, never waits.
"""

import sys

ROOT = sys.argv[1]
sys.path.insert(0, ROOT)

import micropython  # noqa: E402

from firmware import fakes  # noqa: E402

fakes.install()
from firmware import hw  # noqa: E402


def say(line):
    sys.stderr.write(line + "\n")


def idle_reads(stream):
    """A thousand reads with nothing arriving, under heap_lock (in a function: a module-level
    name assigned then would allocate by itself). The first read comes before: ``ipoll`` makes
    the tuple it hands back once, on its first use (so does the loop's first pass)."""
    stream.read()
    micropython.heap_lock()
    try:
        for _ in range(1000):
            stream.read()
        result = "ok"
    except MemoryError:
        result = "allocated"
    micropython.heap_unlock()
    return result


def main():
    stream = hw.UsbStream()
    say("idle " + idle_reads(stream))
    want = int(sys.argv[2])
    got = b""
    while len(got) < want:
        chunk = stream.read()
        if len(chunk) > hw.READ_BUDGET:
            say("read over budget " + str(len(chunk)))
        got += chunk
    say("read " + "".join(f"{b:02x}" for b in got))
    frame = bytes(range(1, 101))
    for _ in range(2000):
        stream.write(frame)
    say("wrote " + str(2000 - stream.dropped) + " dropped " + str(stream.dropped))


main()
