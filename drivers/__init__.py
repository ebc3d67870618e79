"""Drivers: one small interface per device kind, real backends (imported lazily) and a mock each.

`import drivers` pulls in no hardware library, so it works on any laptop and in CI. Build the
devices a board profile names with `drivers.factory.build_devices(load_profile(path))`.
"""

from drivers.occupancy import OccupancyFrame, Square

__all__ = ["OccupancyFrame", "Square"]
