"""A very small test runner for the MicroPython unix port (which has no pytest).

``run(globals())`` calls every ``test_*`` function, prints ``ok NAME`` or ``FAIL NAME: error``
per test and exits 1 if any failed; tests/firmware/test_micropython.py reads the lines.
"""

import sys


def _where(exc):
    """The error and the line it came from, on one line."""
    import io

    buf = io.StringIO()
    sys.print_exception(exc, buf)
    lines = [line.strip() for line in buf.getvalue().splitlines() if line.strip()]
    return " | ".join(lines[-3:])


def run(namespace):
    names = sorted(k for k in namespace if k.startswith("test_"))
    failed = 0
    for name in names:
        try:
            namespace[name]()
        except Exception as exc:  # report every failure, keep going
            failed += 1
            print("FAIL " + name + ": " + _where(exc))
        else:
            print("ok " + name)
    print("micropython " + ".".join(str(v) for v in sys.implementation.version[:3]))
    sys.exit(1 if failed else 0)
