"""Slow outputs drawn off the scan loop: the loop hands over the newest picture and goes on.

The scoresheet OLED takes ~1 KB over I2C for each page (about 95 ms at the bus's default
100 kHz, 23 ms at 400 kHz) and the clock displays ~40 bytes; in the scan loop that stalls
the sensors. ``Background(device)`` keeps the device's interface (``show``, ``size``, ``last``
...) but ``show`` only stores the newest arguments; one thread per device sends them. A page
superseded before it was sent is never sent (nothing queues up), and an error in the thread
is kept in ``error`` for the loop to report, instead of being lost or stopping the loop.
"""

from __future__ import annotations

import threading
from typing import Any


class Background:
    def __init__(self, device: Any, name: str = "output") -> None:
        self.device = device
        self.error: Exception | None = None
        self.sent = 0
        self.dropped = 0
        self._pending: tuple[Any, ...] | None = None
        self._last_args: tuple[Any, ...] | None = None
        self._wake = threading.Condition()
        self._closing = False
        self._busy = False
        self._thread = threading.Thread(target=self._run, name=f"damath-{name}", daemon=True)
        self._thread.start()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.device, name)

    def show(self, *args: Any) -> None:
        """Never waits for the device: the newest call wins."""
        with self._wake:
            if args == self._last_args:
                return
            if self._pending is not None:
                self.dropped += 1
            self._pending = args
            self._last_args = args
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while self._pending is None and not self._closing:
                    self._wake.wait()
                if self._pending is None:
                    return
                args, self._pending = self._pending, None
                self._busy = True
            try:
                self.device.show(*args)
                self.sent += 1
            except Exception as exc:  # kept for the loop: a display fault never stops play
                self.error = exc
            finally:
                with self._wake:
                    self._busy = False
                    self._wake.notify_all()

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until the newest picture is on the device (tests, shutdown)."""
        with self._wake:
            return self._wake.wait_for(
                lambda: self._pending is None and not self._busy, timeout=timeout
            )

    def close(self) -> None:
        with self._wake:
            self._closing = True
            self._wake.notify_all()
        self._thread.join(5.0)
        self.device.close()
