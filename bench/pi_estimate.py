"""How much slower a Raspberry Pi 4 runs this Python than the machine the benchmarks ran on.

No Pi was available. The estimate rests on one published measurement and one run here:

- published: the n-body benchmark (5 bodies, 5,000,000 steps of 0.01), CPython, on a Raspberry
  Pi 4 Model B (4 GB, Cortex-A72 at 1.5 GHz, performance governor): 158.3 s
  (chaitanyamehta.github.io, "Performance Analysis of Languages on Raspberry Pi"). The Python
  version is not stated; Raspberry Pi OS of that time shipped CPython 3.7, and the Pi OS of
  today ships 3.11, which runs this kind of code about 1.25× faster (the CPython 3.11 release
  notes: 1.25× on the pyperformance average), so 158.3 / 1.25 ≈ 127 s on a Pi 4 today;
- here: the same computation, written for this file, timed on this machine and scaled to
  5,000,000 steps.

Both are CPU time of one core (this machine is shared, so wall time would flatter the Pi).
The ratio measured on 2026-11-23 was 6.8 (docs/benchmarks.md), about twice the usual rule of
thumb of 3–4× for a Pi 4 against a current x86 core; ``PI4_FACTOR`` takes the pessimistic 7,
so every "on a Pi 4" figure derived with it is more likely too slow than too fast. It is the
factor bench/bench_engine.py and bench/bench_levels.py apply. Run
``.venv/bin/python bench/pi_estimate.py`` to measure it again.
"""

from __future__ import annotations

import math
import time

PI4_SECONDS_PY37 = 158.3
PY311_SPEEDUP = 1.25
PI4_FACTOR = 7.0
STEPS = 5_000_000


def nbody(steps: int) -> float:
    """Sun and the four giant planets; returns the energy at the end (a check on the work)."""
    days, pi = 365.24, math.pi
    solar = 4 * pi * pi
    bodies = [
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, solar],
        [4.84143144246472090e00, -1.16032004402742839e00, -1.03622044471123109e-01,
         1.66007664274403694e-03 * days, 7.69901118419740425e-03 * days,
         -6.90460016972063023e-05 * days, 9.54791938424326609e-04 * solar],
        [8.34336671824457987e00, 4.12479856412430479e00, -4.03523417114321381e-01,
         -2.76742510726862411e-03 * days, 4.99852801234917238e-03 * days,
         2.30417297573763929e-05 * days, 2.85885980666130812e-04 * solar],
        [1.28943695621391310e01, -1.51111514016986312e01, -2.23307578892655734e-01,
         2.96460137564761618e-03 * days, 2.37847173959480950e-03 * days,
         -2.96589568540237556e-05 * days, 4.36624404335156298e-05 * solar],
        [1.53796971148509165e01, -2.59193146099879641e01, 1.79258772950371181e-01,
         2.68067772490389322e-03 * days, 1.62824170038242295e-03 * days,
         -9.51592254519715870e-05 * days, 5.15138902046611451e-05 * solar],
    ]  # fmt: skip
    pairs = [(bodies[i], bodies[j]) for i in range(5) for j in range(i + 1, 5)]
    dt = 0.01
    for _ in range(steps):
        for a, b in pairs:
            dx, dy, dz = a[0] - b[0], a[1] - b[1], a[2] - b[2]
            mag = dt / (dx * dx + dy * dy + dz * dz) ** 1.5
            bm, am = b[6] * mag, a[6] * mag
            a[3] -= dx * bm
            a[4] -= dy * bm
            a[5] -= dz * bm
            b[3] += dx * am
            b[4] += dy * am
            b[5] += dz * am
        for body in bodies:
            body[0] += dt * body[3]
            body[1] += dt * body[4]
            body[2] += dt * body[5]
    energy = 0.0
    for i, a in enumerate(bodies):
        energy += 0.5 * a[6] * (a[3] ** 2 + a[4] ** 2 + a[5] ** 2)
        for b in bodies[i + 1 :]:
            d = math.dist(a[:3], b[:3])
            energy -= a[6] * b[6] / d
    return energy


def main() -> None:
    steps = 500_000
    start = time.process_time()  # CPU time: other jobs on a shared machine do not count
    nbody(steps)
    here = (time.process_time() - start) * STEPS / steps
    pi4 = PI4_SECONDS_PY37 / PY311_SPEEDUP
    print(
        f"n-body, {STEPS:,} steps: here {here:.1f} s (from {steps:,}); Pi 4 {pi4:.1f} s (estimated)"
    )
    print(f"Pi 4 / here = {pi4 / here:.2f} (PI4_FACTOR in use: {PI4_FACTOR})")


if __name__ == "__main__":
    main()
