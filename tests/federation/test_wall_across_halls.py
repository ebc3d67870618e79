"""Live across halls, on a real broker cluster, over networks that fail (issue 37).

Three hubs bridge their boards' live topics, read-only and over TLS only, to a three-node
RabbitMQ cluster (its MQTT plugin; no plain MQTT port at all) through Mosquitto's own bridge;
the federation's wall shows every hall's boards. Then, as a federation meets them:

- a bridge whose CA is not the cluster's is refused, and a hall's user publishing under
  another hall's name is refused; what crosses a hall's uplink is TLS, never a password, a
  topic or a record in clear;
- a hall's uplink (a relay of the test's own, ``uplink.py``) fails ten times while the hall
  plays its event: cut, stalled half-open, slow; the wall shows every board's current state
  once the link is back, no state twice and none out of order; the event's submission, cut
  twice midway and once after it arrived, is accepted once;
- the node every hall and the wall use is killed (SIGKILL) mid-event: within 30 s the wall
  shows every board's current state through the other nodes; the node is brought back.

bench/federation_failover.py runs the node's loss 20 times in a row, and the uplink's outages
at their full length (5 to 60 s; docs/benchmarks.md)."""

from __future__ import annotations

import getpass
import json
import shlex
import socket
import subprocess
import threading
import time

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from controller.federation.cluster import hall_user_commands, node_conf, reader_user_commands
from controller.federation.credentials import load
from controller.hub.fedlink import bridge_text
from controller.hub.settings import load_or_create

from .conftest import EVENTS, READER_PASSWORD, new_federation
from .halls import (
    Hall,
    node_loss,
    on_wall,
    play,
    play_across_outages,
    shown,
    shown_once_in_order,
    start_hall,
    submit_through_cuts,
    through,
)
from .services import damath_here, free_port, make_certificates
from .uplink import Uplink

pytestmark = pytest.mark.slow  # a cluster, three hubs, an event across ten outages

MQTT_CONNECT = b"\x10\x0d\x00\x04MQTT\x04\x02\x00\x3c\x00\x01p"
"""An MQTT 3.1.1 CONNECT of client ``p``, in clear."""
LOSS_BOUND = 30.0
"""Seconds from a node's loss to every board's current state on the wall (issue 37)."""


@pytest.fixture(scope="module")
def live(tmp_path_factory, cluster, cluster_ca, certs):
    """The federation (its wall reading the cluster), two halls bridged straight to it and a
    third through an uplink of its own; the halls' users made as `federation broker` prints."""
    folder = tmp_path_factory.mktemp("fed-live")
    server, ids = new_federation(
        folder, "", certs, broker=[n.address for n in cluster.nodes],
        broker_password=READER_PASSWORD, broker_ca=cluster_ca,
    )  # fmt: skip
    creds = [folder / "events" / f"{e[0]}.toml" for e in EVENTS]
    # two halls' users in one import; the third's as the command prints its lines, one by one
    cluster.import_definitions(
        [argv for f in creds[:2] for argv in hall_user_commands(
            load(f).hall, load(f).username, load(f).password)]
    )  # fmt: skip
    printed = damath_here("federation", "broker", "--hall", EVENTS[2][0], "--dir", str(folder))
    lines = [
        ln.split() for ln in printed.stdout.splitlines() if ln.strip().startswith("rabbitmqctl")
    ]
    assert len(lines) == 3
    cluster.apply([shlex.split(" ".join(ln))[1:] for ln in lines])
    uplink = Uplink([("127.0.0.1", n.mqtt_port) for n in cluster.nodes]
                    + [("127.0.0.1", server.port)])  # fmt: skip
    halls: list[Hall] = []
    try:
        for n in range(2):
            halls.append(start_hall(tmp_path_factory.mktemp(f"hall{n + 1}"), creds[n], 2))
        flaky = through(creds[2], uplink, len(cluster.nodes), server.port)
        halls.append(start_hall(tmp_path_factory.mktemp("hall3"), flaky, 2, tables=False))
        halls[2].uplink = uplink
        yield server, ids, halls
    finally:
        for hall in halls:
            for b in hall.boards.values():
                b.close()
            hall.hub.stop()
        uplink.close()
        server.stop()


def test_every_halls_boards_reach_the_wall_over_tls(cluster, live):
    server, _ids, halls = live
    for hall in halls[:2]:
        for board in hall.boards.values():
            board.play_some(2)
    cards = on_wall(server, halls[:2], "every hall's boards on the wall")
    card = cards[(halls[0].cred.hall, "b1")]
    table = {k: v for k, v in card["assignment"].items() if k != "id"}
    assert table == {"round": 1, "table": "1", "blue": f"Blue {halls[0].cred.hall}.1",
                     "red": f"Red {halls[0].cred.hall}.1"}  # fmt: skip
    assert card["game_table"] == card["assignment"]  # the game shown is that table's own
    assert card["position"]["pieces"] and card["totals"] == {"blue": "0", "red": "0"}
    top = server.json("/api/wall?top=1")["cards"]  # each hall's table 1 (or first board)
    assert sorted((c["hall"], c["board"]) for c in top) == sorted(
        (h.cred.hall, "b1") for h in halls
    )
    # what the administrator is told to run is what this cluster runs with
    printed = damath_here("federation", "broker", "--dir", str(server.folder)).stdout
    conf = node_conf("/etc/rabbitmq/node.pem", "/etc/rabbitmq/node.key", "/etc/rabbitmq/ca.pem")
    assert all(line in printed for line in conf.splitlines())
    told = [shlex.split(ln.strip())[1:] for ln in printed.splitlines() if "rabbitmqctl " in ln]
    assert told == [["delete_user", "guest"], *reader_user_commands("federation", READER_PASSWORD)]
    # TLS only: the nodes opened their MQTT port with TLS and no plain one; plain MQTT there
    # gets nowhere
    for node in cluster.nodes:
        log = cluster.log(node)
        assert "started MQTT TLS listener" in log and "started MQTT TCP listener" not in log
    with socket.create_connection(("127.0.0.1", cluster.nodes[0].mqtt_port), timeout=30) as s:
        s.sendall(MQTT_CONNECT)  # a plain MQTT login: the node answers TLS, never a CONNACK
        try:
            answer = s.recv(16)
        except ConnectionResetError:
            answer = b""
    assert not answer.startswith(b"\x20"), answer


def test_a_wrong_ca_and_another_halls_name_are_refused(cluster, live, tmp_path):
    server, _ids, halls = live
    node = cluster.nodes[0]
    (cred1, hub1), cred2 = (halls[0].cred, halls[0].hub), halls[1].cred

    # a hall's Mosquitto whose bridge trusts another CA: the cluster's certificate is refused
    wrong_ca, _cert, _key = make_certificates(tmp_path / "wrong")
    port = free_port()
    conf = tmp_path / "bridge.conf"
    conf.write_text(f"user {getpass.getuser()}\nlistener {port} 127.0.0.1\nallow_anonymous true\n"
                    "log_dest stdout\n"
                    + bridge_text(cred1, wrong_ca).replace(cred1.username + "-local",
                                                           "wrong-ca-local"))  # fmt: skip
    broker = subprocess.Popen(
        ["stdbuf", "-oL", "mosquitto", "-c", str(conf)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    said: list[str] = []
    refused_tls = threading.Event()

    def read() -> None:
        assert broker.stdout is not None
        for line in broker.stdout:
            said.append(line)
            if "certificate verify failed" in line:
                refused_tls.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        assert refused_tls.wait(60), "".join(said[-20:])
    finally:
        broker.terminate()
        broker.wait(10)

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
    refused = threading.Event()
    outside = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="hall-probe")
    outside.tls_set(ca_certs=cred1.broker_ca_path)
    outside.username_pw_set(cred1.username, cred1.password)
    outside.on_disconnect = lambda *_a: refused.set()
    outside.connect("127.0.0.1", node.mqtt_port)
    outside.loop_start()
    try:
        time.sleep(0.5)  # both subscriptions and connections settle (no event to wait on)
        came_back.clear()
        own = f"damath/v1/halls/{cred1.hall}/boards/b1/command"
        outside.publish(own, b'{"v": 1, "id": "c1", "cmd": "pause"}', qos=1).wait_for_publish(5)
        forged = {"v": 1, "board": "b1", "game": "zzzz-forged", "seq": 99, "ply": 99}
        outside.publish(
            f"damath/v1/halls/{cred2.hall}/boards/b1/state", json.dumps(forged).encode(), qos=1
        )
        assert refused.wait(20), "the cluster let hall 1 write as hall 2"
        time.sleep(1.0)  # what would come back or be shown has had time to travel
        assert not [t for t in came_back if "command" in t]  # nothing flows into the hall
        assert shown(server)[(cred2.hall, "b1")]["ply"] != 99  # nor onto another hall's wall
    finally:
        outside.loop_stop()
        inside.loop_stop()
        inside.disconnect()


OUTAGES = [("cut", 3), ("stall", 4), ("cut", 2), ("slow", 3), ("cut", 5),
           ("stall", 8), ("cut", 2), ("slow", 2), ("stall", 3), ("cut", 4)]  # fmt: skip
"""The suite's ten outages of the hall's uplink (kind, seconds); the benchmark's last 5 to 60 s.
A stall of 8 s outlasts nothing but TCP's patience; one beyond the bridge's keepalive (15 s)
is the benchmark's."""


def test_a_hall_plays_its_event_across_ten_outages_of_its_uplink(live, tmp_path):
    server, ids, halls = live
    hall, event = halls[2], EVENTS[2]
    uplink = hall.uplink
    assert uplink is not None
    fed_ids = [ids[i] for i in event[4]]
    watch = play_across_outages(server, hall, event, fed_ids, OUTAGES)
    try:
        # -- every board's final state on the wall; none twice, none out of order -------------
        for places in shown_once_in_order(watch, hall).values():
            assert len({game for game, _seq in places}) == 3  # its three games, each seen
        assert server.json("/api/wall")["stale"] > 0  # repeats came (a bridge's reconnections)
    finally:
        watch.close()

    # -- the submission: cut twice midway, then its answer lost once; accepted once -------
    out = submit_through_cuts(server, hall, event[0], tmp_path / "event.zip")
    print(out.stdout)
    assert out.returncode == 0, out.stdout + out.stderr
    assert (uplink.uploads_cut, uplink.answers_cut) == (2, 1)
    assert out.stdout.count("trying again") == 3
    assert "had received this submission before the connection was cut" in out.stdout
    assert f"event {event[0]}: accepted by the federation (6 games verified" in out.stdout
    subs = server.json(f"/events/{event[0]}.json")["submissions"]
    assert [s["verdict"] for s in subs] == ["accepted"]

    # -- what crossed the uplink: TLS only, nothing in clear ------------------------------
    secrets_ = [hall.cred.password.encode(), hall.cred.token.encode(), b"damath/v1",
                b"records/", fed_ids[0].encode()]  # fmt: skip
    flows = uplink.captured("up") + uplink.captured("down")
    assert len(flows) > 10
    for data in (d for d in uplink.captured("up") if d):  # (some were reset before a byte)
        assert data[:1] == b"\x16" and data[1:3] in (b"\x03\x01", b"\x03\x03"), data[:8]
    for data in flows:
        assert not any(s in data for s in secrets_)


def test_the_wall_goes_on_when_the_node_everyone_uses_is_lost(cluster, live):
    server, _ids, halls = live
    first = cluster.nodes[0]  # every hall's bridge's first node, and the wall's at its start
    # (an earlier test's outages may have moved the wall on a loaded machine: the loss is of
    # the halls' node then, and the wall must still show everything)
    before = server.json("/api/wall")["broker"]["node"]
    took, lost, _at = node_loss(cluster, server, halls, LOSS_BOUND, node=first)
    assert lost == first.address
    broker = server.json("/api/wall")["broker"]
    assert broker["node"] not in ("", first.address)
    assert broker["failovers"] >= (1 if before == first.address else 0)
    print(f"the wall showed every board's current state {took:.1f} s after the node's loss")

    cluster.restart(first)  # the node back: it rejoins its cluster, the halls go on
    for hall in halls:
        for board in hall.boards.values():
            play(board, 1)
    on_wall(server, halls, "every board once the node is back")
