"""One board flooding the hub (issue 27, item 2), through the real Mosquitto and the real hub:
signed ``start`` records opening game after game, then tens of thousands of QoS-0 messages as
fast as a client sends them. The hub opens the board's games of the hour and refuses the rest
(not acknowledged: a real board would send them again later), drops the flood on arrival, counts
both per board and lists them, and another board playing meanwhile gets every move stored and
acknowledged; the hub's memory stays where it was. (The figures under a longer flood:
bench/bench_hub_flood.py, docs/benchmarks.md.)"""

from __future__ import annotations

import threading
import time

from controller.link.config import load
from controller.link.protocol import GENESIS, board_topic, seal

from .conftest import Board, assert_hub_equals_journals, stored_games
from .test_http_edge import rss_mb
from .test_refused import client, reasons, wait_for

RATE, GAMES = 50, 5
FLOOD = 30_000


def test_a_flooding_board_is_held_to_its_limits_and_the_others_play_on(hub, tmp_path,
                                                                        sample_moves):  # fmt: skip
    hub.extra = ["--board-rate", str(RATE), "--games-per-hour", str(GAMES)]
    hub.start()
    victim = Board("b2", tmp_path / "b2", hub.add_board("b2"))
    flooder = load(hub.add_board("b1"))
    victim.start_link()
    victim.open_session()
    victim.play.play_moves(sample_moves[:2], speed=60)
    victim.wait_acked()
    before = rss_mb(hub.proc.pid)

    c = client(hub, "b1", flooder.password, "b1")
    start = {"k": "start", "t": 0.0, "variant": "integer", "rules": "official", "position": {}}
    for n in range(4 * GAMES):  # signed starts, each a new game: GAMES are opened
        env = seal("b1", f"junk-{n}", 1, GENESIS, {**start, "t": float(n)}, flooder.hmac_key)
        c.publish(board_topic("b1", "records"), env.payload(), qos=1).wait_for_publish(5)
    wait_for(lambda: counters(hub)["b1"].get("rejected:games", 0) == 3 * GAMES, timeout=60)
    assert len(stored_games(hub.folder, "b1")) == GAMES

    junk = b'{"v": 1, "pad": "' + b"x" * 1000 + b'"}'
    flooding = threading.Thread(target=lambda: [
        c.publish(board_topic("b1", "records"), junk, qos=0) for _ in range(FLOOD)
    ], daemon=True)  # fmt: skip
    flooding.start()
    slowest = 0.0
    for ply, move in enumerate(sample_moves[2:12], start=3):  # the victim plays on meanwhile
        victim.play.play_moves([move], seed=ply, speed=60)
        victim.wait_acked(timeout=60)
        asked = time.monotonic()
        assert hub.json("/api/boards")["boards"]
        slowest = max(slowest, time.monotonic() - asked)
    flooding.join(120)
    assert not flooding.is_alive()
    seen = wait_for(lambda: (n := counters(hub)["b1"]).get("rejected:rate", 0)
                    + n.get("rejected:malformed", 0) + n.get("rejected:schema", 0) >= FLOOD
                    and n, timeout=120)  # fmt: skip
    # most of the flood never reached the worker: dropped on arrival and counted
    assert seen["rejected:rate"] >= FLOOD * 0.8, seen
    assert rss_mb(hub.proc.pid) - before < 100, (before, rss_mb(hub.proc.pid))
    assert slowest < 10, f"the organiser's board list took {slowest:.1f} s"
    # the victim: every move stored once and acknowledged, nothing of it refused
    assert not [k for k in counters(hub)["b2"] if k.startswith("rejected")]
    assert assert_hub_equals_journals(hub.folder, [victim]) == 12
    # the organiser sees both limits on the list, in a few lines rather than one a message
    listed = [r for r in reasons(hub) if r[0] == "b1"]
    assert ("b1", "rate") in listed and ("b1", "games") in listed
    assert len(hub.json("/api/problems")["rejected"]) < 200
    card = next(b for b in hub.json("/api/boards")["boards"] if b["board"] == "b1")
    assert any("dropped on arrival" in p for p in card["problems"]), card["problems"]
    c.loop_stop()
    c.disconnect()
    victim.close()
    assert "Traceback" not in (hub.folder / "hub.log").read_text()


def counters(hub) -> dict[str, dict[str, int]]:
    return {b["board"]: b["counters"] for b in hub.json("/api/boards")["boards"]}
