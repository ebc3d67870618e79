"""A board's credential cannot take over another client's connection (issue 27, item 1), through
the real Mosquitto and the real hub: the broker makes every client's id its user name, so a
board connecting with the client id ``damath-hub`` or another board's id gets its own id, and
the hub and the other boards stay connected (one connection each, from first to last) and
lose nothing. A second connection with the same credential does replace the first (MQTT keeps
one session per id): the hub reports it, as a connection file used twice."""

from __future__ import annotations

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from controller.link.config import load

from .conftest import Board, assert_hub_equals_journals
from .test_refused import reasons, wait_for

ATTEMPTS = 10


def connect(hub, user: str, password: str, client_id: str) -> tuple[mqtt.Client, list[str]]:
    """A client that connects once (no reconnecting) and notes what happens to it."""
    events: list[str] = []
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311)
    c.username_pw_set(user, password)
    c.on_connect = lambda *a: events.append(f"connected {a[3]}")
    c.on_disconnect = lambda *a: events.append("disconnected")
    c.connect("127.0.0.1", hub.mqtt_port)
    c.loop_start()
    wait_for(lambda: events)
    return c, events


@pytest.mark.slow
def test_a_board_cannot_take_over_the_hubs_or_another_boards_connection(hub, tmp_path,
                                                                         sample_moves):  # fmt: skip
    hub.start()
    victim = Board("b2", tmp_path / "b2", hub.add_board("b2"))
    intruder = load(hub.add_board("b1"))
    victim.start_link()
    victim.open_session()
    victim.wait_acked()
    wait_for(lambda: hub.json("/api/boards")["broker"]["connected"])
    # the connections so far (one each on a quiet machine; a starved machine may have dropped
    # one at the start): no attempt below may add one
    hub_connections = hub.json("/api/boards")["broker"]["connections"]
    board_connections = victim.link.status().connects
    moves = iter(sample_moves)
    for n in range(ATTEMPTS):
        # b1's own valid password, with the hub's client id, then with b2's (the link's id
        # and the bare board id): each connection is accepted as b1's own and stays up
        for client_id in ("damath-hub", "board-b2", "b2"):
            c, events = connect(hub, "b1", intruder.password, client_id)
            assert events[0].startswith("connected"), events
            info = c.publish("damath/v1/boards/b1/presence", b'{"v": 1, "online": true}', qos=1)
            info.wait_for_publish(5)
            # the victim plays on meanwhile: each move reaches the hub and is acknowledged
            victim.play.play_moves([next(moves)], seed=n, speed=60)
            victim.wait_acked()
            assert "disconnected" not in events, (client_id, events)
            c.disconnect()
            c.loop_stop()
    boards = hub.json("/api/boards")
    assert boards["broker"]["connections"] == hub_connections, "the hub was dropped"
    assert boards["broker"]["connected"]
    assert victim.link.status().connects == board_connections, "the board was dropped"
    assert victim.link.status().connected
    assert assert_hub_equals_journals(hub.folder, [victim]) == ATTEMPTS * 3
    counters = {b["board"]: b["counters"] for b in boards["boards"]}
    assert not any(k.startswith("rejected") for k in counters["b2"]), counters["b2"]

    # the same credential twice (a copied connection file): the newer connection wins, and
    # the hub says so on the board list
    copy, events = connect(hub, "b2", load(victim.conn).password, "anything")
    wait_for(lambda: ("b2", "takeover") in reasons(hub))
    copy.disconnect()
    copy.loop_stop()
    wait_for(lambda: victim.link.status().connected, timeout=30)
    victim.close()
