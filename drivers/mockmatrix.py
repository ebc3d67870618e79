"""A simulated switch matrix behind gpiozero's MockFactory, for tests, benchmarks and the sim.

Column pins are MockPins whose level is computed from the row pins and the closed switches, as
the real wiring would give it. With `diodes=False` current can flow backwards through closed
switches, which shows the "ghost" square that makes diodes necessary. With `rise_us` a column
that was held low stays low that long after its row lets go (the pull-up charging the wire), as a
long column on a weak pull-up does: a scan that reads too soon sees a chip one row further on.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable
from time import perf_counter_ns
from typing import Any

from gpiozero.pins.mock import MockPin, MockPWMPin

from drivers.occupancy import Square
from firmware.squares import COLUMNS, index_of


class MatrixColumnPin(MockPin):  # type: ignore[misc]  # gpiozero has no type hints
    def __init__(
        self, factory: Any, info: Any, matrix: SimulatedMatrix | None = None, column: int = 0
    ) -> None:
        super().__init__(factory, info)
        self.matrix = matrix
        self.column = column

    def _get_state(self) -> int:
        if self._function == "output" or self.matrix is None:
            return int(self._state)
        return self.matrix.column_level(self.column)


class MatrixColumnPWMPin(MatrixColumnPin, MockPWMPin):  # type: ignore[misc]
    """The same, for a factory whose pins are all PWM-capable (gpiozero wants them alike)."""


class SimulatedMatrix:
    def __init__(
        self,
        factory: Any,
        rows: list[int],
        columns: list[int],
        diodes: bool = True,
        rise_us: float = 0.0,
    ) -> None:
        self.factory = factory
        self.row_numbers = rows
        self.diodes = diodes
        self.rise_ns = int(rise_us * 1000)
        self._low_at = [0] * len(columns)  # when each column was last seen held low
        self.closed: set[tuple[int, int]] = set()  # (row, column) of closed switches
        self._rows: list[Any] | None = None
        pwm = issubclass(factory.pin_class, MockPWMPin)
        kind = MatrixColumnPWMPin if pwm else MatrixColumnPin
        for c, pin in enumerate(columns):
            factory.pin(pin, pin_class=kind, matrix=self, column=c)

    def press(self, *squares: Square) -> None:
        for x, y in squares:
            self.closed.add(divmod(index_of(x, y), COLUMNS))

    def release(self, *squares: Square) -> None:
        for x, y in squares:
            self.closed.discard(divmod(index_of(x, y), COLUMNS))

    def set(self, squares: Iterable[Square]) -> None:
        self.closed = {divmod(index_of(x, y), COLUMNS) for x, y in squares}

    def _driven_low_rows(self) -> builtins.set[int]:
        if self._rows is None:  # looked up once: factory.pin() searches the board's pin table
            self._rows = [self.factory.pin(n) for n in self.row_numbers]
        return {
            r for r, pin in enumerate(self._rows) if pin._function == "output" and not pin._state
        }

    def column_level(self, column: int) -> int:
        level = self._driven_level(column)
        if not self.rise_ns:
            return level
        now = perf_counter_ns()
        if level == 0:
            self._low_at[column] = now
            return 0
        return 0 if now - self._low_at[column] < self.rise_ns else 1

    def _driven_level(self, column: int) -> int:
        low_rows = self._driven_low_rows()
        if self.diodes:
            return 0 if any((r, column) in self.closed for r in low_rows) else 1
        # No diodes: every closed switch conducts both ways; find what the low rows reach.
        reached_rows, reached_cols = set(low_rows), set()
        changed = True
        while changed:
            changed = False
            for r, c in self.closed:
                if r in reached_rows and c not in reached_cols:
                    reached_cols.add(c)
                    changed = True
                if c in reached_cols and r not in reached_rows:
                    reached_rows.add(r)
                    changed = True
        return 0 if column in reached_cols else 1
