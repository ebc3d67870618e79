"""Not part of the suite: the hub SIGKILLed at random moments, 30 times (``SOAK_KILLS=N``
for more), while three boards play a round: its broker dies with it, both come back, the
boards resend what was not acknowledged. At the end the hub holds every board's journal, every
record once, in order. The suite kills it at each place of its ingest where a slip lives instead
(tests/hub/test_hub_kill.py, failpoints); this is the random search around those places.

The soak paces the boards, not the clock: before each kill every board plays its next few
moves (while the hub may still be starting), and every other kill waits until the hub has
stored something new, so the kills are spread through the round however loaded the machine.
Run from the repository root (figure: docs/benchmarks.md):

    .venv/bin/python -m pytest -p no:cacheprovider -s bench/soak_hub_kills.py
"""

from __future__ import annotations

import os
import random
import time

from tests.hub.conftest import (  # noqa: F401  (the fixtures the soak uses)
    Board,
    assert_hub_equals_journals,
    hub,
    mosquitto_installed,
    sample_moves,
    stored_games,
)
from tests.hub.test_hub_kill import _chunks

KILLS = int(os.environ.get("SOAK_KILLS", "30"))
SERVING_WAIT = 180.0
"""A bound, never a pace: how long a kill may wait for the hub to store something new."""


def test_hub_killed_30_times_loses_and_doubles_nothing(hub, tmp_path, sample_moves):  # noqa: F811
    rng = random.Random(14)
    hub.start()
    boards = [Board(f"k{n}", tmp_path / f"k{n}", hub.add_board(f"k{n}")) for n in range(3)]
    for b in boards:
        b.start_link()
        b.open_session()
    chunks = _chunks(sample_moves, KILLS + 1)
    assert len(chunks) == KILLS + 1, f"the sample game is long enough to spread {KILLS} kills"
    seen: list[int] = []

    def stored() -> int:
        return sum(len(g) for b in boards for g in stored_games(hub.folder, b.board).values())

    for n in range(KILLS):
        for b in boards:
            b.play.play_moves(chunks[n], seed=len(b.board) + n)
        if n % 2:
            # every other kill lands while the hub is serving: after it has stored something
            # new since the last kill (the bound only ends a test that hangs)
            deadline = time.monotonic() + SERVING_WAIT
            while stored() == (seen[-1] if seen else 0):
                assert time.monotonic() < deadline, f"the hub stored nothing new: {seen}"
                time.sleep(0.05)
        time.sleep(rng.uniform(0.0, 1.5))  # sometimes before it serves, sometimes mid-batch
        hub.kill()
        seen.append(stored())
        hub.start(wait=rng.random() < 0.5)
    for b in boards:
        b.play.play_moves(chunks[KILLS], seed=len(b.board) + KILLS)
        b.play.stop_game()
    if hub.proc.poll() is not None or not (hub.folder / "ready").exists():
        hub.kill()
        hub.start()
    for b in boards:
        b.wait_acked(timeout=180)
    print("stored at each kill:", seen)
    assert seen == sorted(seen), f"the hub lost records it had stored: {seen}"
    assert len(set(seen)) >= KILLS // 2, f"records arrived between the kills: {seen}"
    moves = assert_hub_equals_journals(hub.folder, boards)
    assert moves == 3 * len(sample_moves)
    for b in boards:
        b.close()
