"""The fake buses live with the drivers (drivers/virtual.py) so the test hook and the benchmarks
use the same ones; the driver tests import them from here."""

from drivers.virtual import FakeI2C, FakeSpi, Ht16k33Chip, Mcp23017Chip

__all__ = ["FakeI2C", "FakeSpi", "Ht16k33Chip", "Mcp23017Chip"]
