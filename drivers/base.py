"""What every device shares: close() and use as a context manager; what every sensor reader
shares: the current frame, and a loop of scans that yields each new frame."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Self

from drivers.occupancy import OccupancyFrame


class DeviceClosed(RuntimeError):
    """A device used after it was closed: a bug in the caller, said plainly."""


class Device:
    """Subclasses release their pins, buses and threads in close(); closing twice is harmless,
    and using a closed device raises ``DeviceClosed`` instead of writing to a released pin."""

    closed = False

    def close(self) -> None:
        self.closed = True

    def check_open(self) -> None:
        """Every output and input method calls this first."""
        if self.closed:
            raise DeviceClosed(f"the {type(self).__name__} was closed: it cannot be used again")

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class FrameReader(Device):
    """A sensor reader: ``scan()`` once per tick gives a frame only when the occupancy changed;
    ``current`` is the occupancy as last seen. Subclasses set ``_current`` and implement scan."""

    _current: OccupancyFrame

    @property
    def current(self) -> OccupancyFrame:
        return self._current

    def scan(self) -> OccupancyFrame | None:
        raise NotImplementedError

    def frames(
        self,
        period: float,
        running: Callable[[], bool] = lambda: True,
        sleep: Callable[[float], None] = time.sleep,
    ) -> Iterator[OccupancyFrame]:
        """Scan every ``period`` seconds while ``running()``; yield each new frame. (The board's
        own loop is controller/cli/run.py's run_loop, at ``--scan-hz``.)"""
        while running():
            frame = self.scan()
            if frame is not None:
                yield frame
            sleep(period)
