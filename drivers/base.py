"""What every device shares: close() and use as a context manager."""

from __future__ import annotations


class Device:
    """Subclasses release their pins, buses and threads in close(); closing twice is harmless."""

    closed = False

    def close(self) -> None:
        self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()
