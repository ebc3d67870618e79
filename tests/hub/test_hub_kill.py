"""The hub SIGKILLed at random moments, 30 times, while three boards play a round: its broker
dies with it, both come back, the boards resend what was not acknowledged. At the end the hub
holds every board's journal, every record once, in order."""

from __future__ import annotations

import random
import threading
import time

import pytest

from .conftest import Board, assert_hub_equals_journals, stored_games

KILLS = 30


@pytest.mark.slow
def test_hub_killed_30_times_loses_and_doubles_nothing(hub, tmp_path, sample_moves):
    rng = random.Random(14)
    hub.start()
    boards = [Board(f"k{n}", tmp_path / f"k{n}", hub.add_board(f"k{n}")) for n in range(3)]
    for b in boards:
        b.start_link()
        b.open_session()
    done = threading.Event()

    def play(b: Board) -> None:
        # about 75 s of play at this pace: the kills land all through the round
        b.play.play_moves(sample_moves, seed=len(b.board), speed=1.0)
        b.play.stop_game()

    threads = [threading.Thread(target=play, args=(b,), daemon=True) for b in boards]
    for t in threads:
        t.start()
    seen: list[int] = []

    def stored() -> int:
        return sum(len(g) for b in boards for g in stored_games(hub.folder, b.board).values())

    for n in range(KILLS):
        # the kills follow the round (a loaded machine restarts the hub more slowly: they
        # must not outlast the game), and the boards never wait for them
        deadline = time.monotonic() + 60
        while (
            time.monotonic() < deadline
            and min(b.play.session.game.ply for b in boards) < n * len(sample_moves) // KILLS
        ):
            time.sleep(0.05)
        if n % 2:
            # every other kill lands while the hub is serving: after it has stored something
            # new since the last kill (bounded: a loaded machine reconnects the boards slowly)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and stored() == (seen[-1] if seen else 0):
                time.sleep(0.05)
        time.sleep(rng.uniform(0.3, 3.0))  # sometimes before it serves, sometimes mid-batch
        hub.kill()
        seen.append(stored())
        hub.start(wait=rng.random() < 0.5)
    for t in threads:
        t.join(240)
    done.set()
    assert all(not t.is_alive() for t in threads)
    if hub.proc.poll() is not None or not (hub.folder / "ready").exists():
        hub.kill()
        hub.start()
    for b in boards:
        b.wait_acked(timeout=90)
    print("stored at each kill:", seen)
    assert len(set(seen)) >= 15, f"records arrived between the kills: {seen}"
    moves = assert_hub_equals_journals(hub.folder, boards)
    assert moves == 3 * len(sample_moves)
    for b in boards:
        b.close()
