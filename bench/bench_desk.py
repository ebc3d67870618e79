"""What the arbiter's desk costs the hub in a big hall: a round of N tables, every board's game
finished and stored, then the desk's reading of the round (``round_view``: each table's board,
state, the board's result read again from its signed records, the recorded result), the same
read again (the desk asks every 5 s: finished games are cached), accepting the whole round, and
the event's archive.

No broker: the boards' sealed records go straight into the hub's real ``Ingest`` and a real
SQLite store (WAL, ``synchronous=FULL``) on this machine's disk; the tournament is a real
``tournament.sqlite`` beside it. Each board plays the bundled sample game under its pairing's
assignment.

Run: .venv/bin/python bench/bench_desk.py [--tables 25,100]
"""

from __future__ import annotations

import argparse
import platform
import tempfile
import time
from pathlib import Path


def run(tables: int) -> dict[str, float]:
    from controller.hub import rounds
    from controller.hub.archive import build_zip
    from controller.hub.ingest import Ingest
    from controller.hub.live import Live
    from controller.hub.store import Store
    from controller.link.follower import Follower
    from controller.link.playback import PlaybackBoard, sample_game_moves
    from controller.link.protocol import board_topic
    from controller.tournament import boards as seating
    from controller.tournament.model import Division, Event
    from controller.tournament.tournament import Tournament

    base = Path(tempfile.mkdtemp(prefix="bench-desk-"))
    play = PlaybackBoard(base / "board", sync=False)
    play.play_moves(sample_game_moves()[1])
    play.close()
    t = Tournament.create(base, Event("bench", initial_colour="blue"), Division("open", "swiss", 5))
    t.add_players((f"P{i:03}", "", "open", 2000 - i) for i in range(2 * tables))
    pairs = t.pair(1)
    store = Store(base / "hub.sqlite", "bench")
    ingest = Ingest(store, Live(), None)
    for p in pairs:
        board, key = f"b{p.table:03d}", bytes([p.table % 256]) * 32
        store.add_board(board, key.hex())
        seating.set_seat(t, "open", p.table, board)
        ident = f"a-{p.table:012x}"
        payload = {"v": 1, "id": ident, **rounds.assignment_for(t, p)}
        with store.transaction() as db:
            round_id = store.round_id(db, 1)
        store.add_assignment(ident, board, round_id, payload)
        seating.record_dispatch(t, p, board, ident, "bench")
        follower = Follower(base / "board", board, key, state_path=base / f"s-{board}.json",
                            assignment=lambda ident=ident: ident)  # fmt: skip
        (game,) = follower.scan()
        topic = board_topic(board, "records")
        ingest.process([("mqtt", topic, env.payload(), time.time()) for env in game.envelopes])
    timings = {}
    start = time.perf_counter()
    view = rounds.round_view(store, t, "open", 1)
    timings["round view, first"] = time.perf_counter() - start
    assert all(r["status"] == "to-accept" for r in view), view[0]
    start = time.perf_counter()
    rounds.round_view(store, t, "open", 1)
    timings["round view, again"] = time.perf_counter() - start
    start = time.perf_counter()
    accepted = rounds.accept_round(store, t, "open", 1, "bench")
    timings["accept the round"] = time.perf_counter() - start
    assert accepted == tables
    start = time.perf_counter()
    data = build_zip(store, t)
    timings["archive"] = time.perf_counter() - start
    timings["archive KiB"] = len(data) / 1024
    t.close()
    store.close()
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="25,100")
    args = parser.parse_args()
    print(f"{platform.node()} {platform.machine()} Python {platform.python_version()}")
    for n in (int(x) for x in args.tables.split(",")):
        timings = run(n)
        shown = "  ".join(f"{k}: {v:.2f}" for k, v in timings.items())
        print(f"{n} tables  {shown}")


if __name__ == "__main__":
    main()
