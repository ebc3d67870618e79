"""One board flooding the hub (issue 27, item 2), through the real Mosquitto and the real hub:
signed ``start`` records opening game after game, then QoS-0 messages as fast as the socket
takes them. The hub opens the board's games of the hour and refuses the rest (not
acknowledged: a real board would send them again later), drops the flood on arrival, and once
the board has sent ten seconds' worth over its limit has the broker hold its credential
(connection dropped, logins refused) until its time is over; all of it counted per board and
listed. Another board playing meanwhile gets every move stored and acknowledged, its connection
never dropped; the hub's memory stays where it was. (The figures under a longer flood:
bench/bench_hub_flood.py, docs/benchmarks.md.)"""

from __future__ import annotations

import json
import socket
import threading
import time

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from controller.link.config import load
from controller.link.protocol import GENESIS, board_topic, seal

from .conftest import Board, assert_hub_equals_journals, stored_games
from .test_http_edge import rss_mb
from .test_refused import client, reasons, wait_for

RATE, GAMES = 50, 5
BURST = 1000  # the hub's bursts: five seconds of the rate, at least 1,000
FLOOD = 200_000


@pytest.mark.slow
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

    flooding = threading.Thread(target=flood, args=(hub, flooder), daemon=True)
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
    # dropped on arrival, counted; past ten seconds' worth, the broker holds the credential
    seen = wait_for(lambda: (n := counters(hub)["b1"]).get("rejected:held") and n, timeout=60)
    assert seen["rejected:rate"] >= RATE * 10, seen
    passed = seen.get("rejected:malformed", 0) + seen.get("rejected:schema", 0)
    assert passed <= BURST + RATE * 20, seen  # a burst, then the rate, until it was held
    card = next(b for b in hub.json("/api/boards")["boards"] if b["board"] == "b1")
    assert card["held_until"] and any("flooded the hub" in p for p in card["problems"]), card
    assert not can_log_in(hub, flooder), "the held credential still logs in"
    assert rss_mb(hub.proc.pid) - before < 100, (before, rss_mb(hub.proc.pid))
    assert slowest < 10, f"the organiser's board list took {slowest:.1f} s"
    # the victim: every move stored once and acknowledged, nothing of it refused
    assert not [k for k in counters(hub)["b2"] if k.startswith("rejected")]
    assert assert_hub_equals_journals(hub.folder, [victim]) == 12
    assert victim.link.status().connects == 1
    # the organiser sees it in a few lines rather than one a message
    listed = [r for r in reasons(hub) if r[0] == "b1"]
    assert {("b1", "rate"), ("b1", "games"), ("b1", "held")} <= set(listed)
    assert len(hub.json("/api/problems")["rejected"]) < 200
    # once its time is over (here: moved to now), the credential is given back
    held = hub.folder / "broker" / "passwd.held"
    data = json.loads(held.read_text())
    held.write_text(json.dumps({u: {**h, "until": 0} for u, h in data.items()}))
    wait_for(lambda: can_log_in(hub, flooder), timeout=30)
    card = next(b for b in hub.json("/api/boards")["boards"] if b["board"] == "b1")
    assert card["held_until"] is None
    c.loop_stop()
    c.disconnect()
    victim.close()
    assert "Traceback" not in (hub.folder / "hub.log").read_text()


def flood(hub, conf) -> int:
    """QoS-0 messages as fast as the socket takes them (MQTT 3.1.1 written by hand, a
    thousand packets a write), until the broker drops the connection or FLOOD are sent."""

    def string(text: str) -> bytes:
        return len(text.encode()).to_bytes(2, "big") + text.encode()

    def packet(kind: int, body: bytes) -> bytes:
        assert len(body) < 16384
        return bytes([kind, (len(body) & 0x7F) | 0x80, len(body) >> 7]) + body

    s = socket.create_connection(("127.0.0.1", hub.mqtt_port))
    hello = b"\x00\x04MQTT\x04\xc2\x00\x3c" + string("b1") + string(conf.username)
    s.sendall(packet(0x10, hello + string(conf.password)))
    assert s.recv(4)[:4] == b"\x20\x02\x00\x00"
    one = packet(0x30, string(board_topic("b1", "records")) + b'{"v": 1, "pad": "' + b"x" * 1000
                 + b'"}')  # fmt: skip
    sent = 0
    try:
        while sent < FLOOD:
            s.sendall(one * 1000)
            sent += 1000
    except OSError:  # held: the broker dropped it
        pass
    s.close()
    return sent


def can_log_in(hub, conf) -> bool:
    result: list[bool] = []
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="probe", protocol=mqtt.MQTTv311)
    c.username_pw_set(conf.username, conf.password)
    c.on_connect = lambda *a: result.append(not a[3].is_failure)
    c.connect("127.0.0.1", hub.mqtt_port)
    c.loop_start()
    wait_for(lambda: result)
    c.disconnect()
    c.loop_stop()
    return result[0]


def counters(hub) -> dict[str, dict[str, int]]:
    return {b["board"]: b["counters"] for b in hub.json("/api/boards")["boards"]}
