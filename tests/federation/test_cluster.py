"""Live across halls, on a real broker cluster: three hubs bridge their boards' live topics,
read-only, to a three-node RabbitMQ cluster (its MQTT plugin), through Mosquitto's own
bridge; the federation's wall shows every hall's top boards. One node is then lost (SIGKILL, the
node everyone was connected to): the bridges and the wall go on through the next node, and the
boards' next moves reach the wall (bench/federation_failover.py: not yet reliable, so not
in the suite)."""

from __future__ import annotations

import json
import ssl
import time
import urllib.request

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from controller.federation.cluster import hall_user_commands, reader_user_commands
from controller.federation.credentials import load
from controller.hub.settings import load_or_create
from tests.hub.conftest import RunningHub
from tests.hub.eventkit import HallBoard, api, wait_for

from .conftest import EVENTS, new_federation
from .services import RabbitCluster, damath

READER_PASSWORD = "federation-reader-password"


@pytest.fixture(scope="module")
def cluster():
    # three nodes, not two: RabbitMQ's MQTT plugin (3.8 to 3.12; Debian 12 has 3.10) tracks
    # client ids in Raft and takes a new connection only while most nodes run, so a cluster of
    # two that loses one may take none (it did, now and then: the wall never caught up)
    rabbit = RabbitCluster(3).start()
    rabbit.apply(reader_user_commands("federation", READER_PASSWORD))
    yield rabbit
    rabbit.stop()


@pytest.fixture(scope="module")
def live(tmp_path_factory, cluster, certs):
    """The federation (its wall reading the cluster) and three bridged halls of two boards,
    each board at a table of its hall."""
    folder = tmp_path_factory.mktemp("fed-live")
    server, _ids = new_federation(
        folder,
        "",
        certs,
        broker=[n.address for n in cluster.nodes],
        broker_password=READER_PASSWORD,
    )
    halls = []
    try:
        for n, (event_id, *_rest) in enumerate(EVENTS):
            cred_file = folder / "events" / f"{event_id}.toml"
            cred = load(cred_file)
            cluster.apply(hall_user_commands(cred.hall, cred.username, cred.password))
            hub = RunningHub(tmp_path_factory.mktemp(f"hall{n + 1}") / "event")
            hub.folder.mkdir()
            out = damath(
                "hub",
                "federation",
                "bridge",
                "--dir",
                str(hub.folder),
                "--credential",
                str(cred_file),
            ).stdout
            assert f"as hall {cred.hall}" in out
            hub.start()
            boards = {}
            for table, b in enumerate(("b1", "b2"), start=1):
                board = HallBoard.start(b, hub.add_board(b), hub.folder.parent / b)
                asg = api(
                    hub,
                    "/api/assignments",
                    {
                        "board": b,
                        "round": 1,
                        "table": table,
                        "blue": {"name": f"Blue {n + 1}.{table}"},
                        "red": {"name": f"Red {n + 1}.{table}"},
                    },
                )
                board.take_assignment(asg["id"])
                boards[b] = board
            halls.append((cred, hub, boards))
        yield server, halls
    finally:
        for _cred, hub, boards in halls:
            for b in boards.values():
                b.close()
            hub.stop()
        server.stop()


def wall(server, top: int = 0) -> dict:
    return server.json(f"/api/wall?top={top}")


def shown(server) -> dict[tuple[str, str], dict]:
    return {(c["hall"], c["board"]): c for c in wall(server)["cards"]}


def test_every_halls_boards_reach_the_wall_through_the_cluster(cluster, live):
    """The node-loss half of this scenario is bench/federation_failover.py: it fails about
    one run in three on RabbitMQ 3.10 (docs/federation.md, "Not reliable yet")."""
    server, halls = live
    for _cred, _hub, boards in halls:
        for board in boards.values():
            board.play_some(2)

    def all_at(plies: int):
        cards = shown(server)
        want = {(cred.hall, b) for cred, _hub, boards in halls for b in boards}
        ok = set(cards) == want and all(c.get("ply") == plies for c in cards.values())
        return cards if ok else None

    cards = wait_for("every hall's boards on the wall", lambda: all_at(2), timeout=60)
    hall, _ = next(iter(cards))
    card = cards[(hall, "b1")]
    assert card["assignment"] == {"round": 1, "table": "1", "blue": "Blue 1.1", "red": "Red 1.1"}
    assert card["position"]["pieces"] and card["totals"] == {"blue": "0", "red": "0"}
    # the wall shows each hall's top boards: with top=1, table 1 of every hall
    top = wall(server, top=1)["cards"]
    assert sorted((c["hall"], c["board"]) for c in top) == sorted(
        (cred.hall, "b1") for cred, _hub, _boards in halls
    )
    # the stream the wall's page reads says the same, as server-sent events
    context = ssl.create_default_context(cafile=server.ca)
    with urllib.request.urlopen(
        server.url + "/api/wall/stream?top=1", timeout=30, context=context
    ) as stream:
        assert stream.readline() == b"event: hello\n"
        hello = json.loads(stream.readline().removeprefix(b"data: "))
    assert len(hello["cards"]) == 3


def test_the_bridge_is_read_only_and_a_hall_writes_only_under_its_own_name(cluster, live):
    server, halls = live
    node = cluster.running()[0]
    host, port = node.address.split(":")
    (cred1, hub1, _), (cred2, _hub2, _) = halls[0], halls[1]

    # on the hall's own broker, as the hub: does anything come back from the federation?
    settings = load_or_create(hub1.folder)
    came_back: list[str] = []
    inside = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="hub-probe")
    inside.username_pw_set("hub", settings.password)
    inside.on_message = lambda _c, _u, m: came_back.append(m.topic)
    inside.connect("127.0.0.1", hub1.mqtt_port)
    inside.loop_start()
    inside.subscribe("damath/v1/#", 1)

    # hall 1's credential at the cluster: write under its own hall, then under hall 2's
    refused = []
    outside = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="hall-probe")
    outside.username_pw_set(cred1.username, cred1.password)
    outside.on_disconnect = lambda *_a: refused.append(True)
    outside.connect(host, int(port))
    outside.loop_start()
    try:
        time.sleep(0.5)  # both subscriptions and connections settle (no event to wait on)
        came_back.clear()
        own = f"damath/v1/halls/{cred1.hall}/boards/b1/command"
        outside.publish(own, b'{"v": 1, "id": "c1", "cmd": "pause"}', qos=1).wait_for_publish(5)
        forged = {"v": 1, "board": "b1", "game": "g", "seq": 99, "ply": 99}
        outside.publish(
            f"damath/v1/halls/{cred2.hall}/boards/b1/state", json.dumps(forged).encode(), qos=1
        )
        wait_for("the cluster refuses hall 1 writing as hall 2", lambda: refused, timeout=20)
        time.sleep(1.0)  # what would come back or be shown has had time to travel
        assert not [t for t in came_back if "command" in t]  # nothing flows into the hall
        assert shown(server)[(cred2.hall, "b1")]["ply"] != 99  # nor onto another hall's wall
    finally:
        outside.loop_stop()
        inside.loop_stop()
        inside.disconnect()
