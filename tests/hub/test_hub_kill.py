"""The hub killed (SIGKILL, its broker dying with it) at each place of its ingest where a slip
would lose or double a record, while three boards play a round: mid-batch before the commit,
after the commit before the acknowledgements, after them, a later batch of each, and once while
it starts. The boards resend what was not acknowledged; at the end the hub holds every board's
journal, every record once, in order.

Each kill is placed by a failpoint (controller/hub/failpoints.py), so every run tests every
place, however fast or loaded the machine; the hub killed 30 times at random moments is the
soak, bench/soak_hub_kills.py. The boards play half of their next moves while the hub is down,
the rest once it has taken a batch; the test waits for the hub to reach its failpoint (a bound
ends a test that hangs)."""

from __future__ import annotations

import signal
import time

import pytest

from controller.hub.failpoints import ENV

from .conftest import Board, assert_hub_equals_journals, stored_games

PLACED = (
    "ingest.stored@1",  # mid-batch: everything in the transaction, nothing committed
    "ingest.committed@1",  # on the disk, not acknowledged: the boards resend it all
    "ingest.acked@1",
    None,  # killed while it starts: before its store check and its broker are done
    "ingest.committed@2",  # a later batch, after the boards' resends were taken
    "ingest.stored@2",
)
REACH_WAIT = 180.0
"""A bound, never a pace: how long the hub may take to reach its failpoint."""


def _chunks(moves: list, parts: int) -> list[list]:
    """``moves`` in ``parts`` consecutive slices of (nearly) equal length, none empty."""
    size, extra = divmod(len(moves), parts)
    out, start = [], 0
    for n in range(parts):
        end = start + size + (1 if n < extra else 0)
        out.append(moves[start:end])
        start = end
    return [c for c in out if c]


@pytest.mark.slow
def test_the_hub_killed_at_each_place_of_its_ingest_loses_and_doubles_nothing(
    hub, tmp_path, sample_moves
):
    hub.start()
    boards = [Board(f"k{n}", tmp_path / f"k{n}", hub.add_board(f"k{n}")) for n in range(3)]
    for b in boards:
        b.start_link()
        b.open_session()
    chunks = _chunks(sample_moves, len(PLACED) + 1)
    seen: list[int] = []

    def stored() -> int:
        return sum(len(g) for b in boards for g in stored_games(hub.folder, b.board).values())

    for n, place in enumerate(PLACED):
        hub.kill()
        half = len(chunks[n]) // 2
        for b in boards:  # played while the hub is down: they arrive with the boards' resends
            b.play.play_moves(chunks[n][:half], seed=len(b.board) + n)
        before = stored()
        hub.env = {ENV: place} if place else {}
        hub.start(wait=False)
        assert hub.proc is not None
        if place is None:
            hub.kill()  # killed with its start half done
        deadline = time.monotonic() + REACH_WAIT
        while hub.proc.poll() is None and stored() == before:  # it takes a batch, or dies
            assert time.monotonic() < deadline, f"the hub took nothing before {place}"
            time.sleep(0.05)
        for b in boards:  # the rest of the chunk while it serves (or is down again)
            b.play.play_moves(chunks[n][half:], seed=len(b.board) + n + 100)
        while hub.proc.poll() is None:  # the hub kills itself at its place
            assert time.monotonic() < deadline, f"the hub never reached {place}"
            time.sleep(0.05)
        assert hub.proc.returncode == -signal.SIGKILL, (place, hub.proc.returncode)
        seen.append(stored())
    hub.env = {}
    hub.start()
    for b in boards:
        b.play.play_moves(chunks[len(PLACED)], seed=len(b.board) + len(PLACED))
        b.play.stop_game()
    for b in boards:
        b.wait_acked(timeout=180)
    assert seen == sorted(seen), f"the hub lost records it had stored: {seen}"
    moves = assert_hub_equals_journals(hub.folder, boards)
    assert moves == 3 * len(sample_moves)
    for b in boards:
        b.close()
