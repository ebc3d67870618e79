"""How long ``Buzzer.play()`` takes to return (it must not block the 200 Hz scan loop).

Run: ``.venv/bin/python bench/bench_buzzer.py`` (figures in docs/benchmarks.md, ## Drivers).
Each pattern is started 200 times on a passive piezo through gpiozero's MockFactory (PWM pins),
the time from the call to its return measured with ``time.perf_counter``; a new play() cuts the
previous pattern short, as on the board, so the figure includes stopping the previous thread.
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gpiozero.pins.mock import MockFactory, MockPWMPin

from drivers.buzzer import PATTERNS, Buzzer, TonalTone

ROUNDS = 200


def main() -> None:
    factory = MockFactory(revision="d04170", pin_class=MockPWMPin)
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"{'pattern':<10} {'median ms':>10} {'p99 ms':>8} {'max ms':>8}")
    with Buzzer(TonalTone(18, factory)) as buzzer:
        for name in PATTERNS:
            times = []
            for _ in range(ROUNDS):
                start = time.perf_counter()
                buzzer.play(name)
                times.append((time.perf_counter() - start) * 1000)
            times.sort()
            p99 = times[int(len(times) * 0.99) - 1]
            print(f"{name:<10} {statistics.median(times):>10.3f} {p99:>8.3f} {times[-1]:>8.3f}")
    factory.close()


if __name__ == "__main__":
    main()
