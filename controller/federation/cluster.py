"""The federation's broker cluster (RabbitMQ's MQTT plugin): who may publish and read what,
and how each node is set up (what ``damath-board federation broker`` prints).

Each hall's broker bridges its boards' ``state`` and ``presence`` to the cluster under
``damath/v1/halls/<hall>/`` (docs/mqtt.md), over TLS, with a user of its own that may publish
there and nowhere else and may read nothing (RabbitMQ's topic permissions on ``amq.topic``,
where MQTT's ``/`` is AMQP's ``.``). The federation's wall reads every hall with its own user
and publishes nothing. The commands here are what the administrator runs (``rabbitmqctl``) on
any node: users, permissions and policies are the cluster's, not a node's.

**Why the wall survives a node's loss** (docs/federation.md, "The broker cluster"). The MQTT
plugin of RabbitMQ 3.10 keeps a QoS 1 subscription in a queue of its own: for a clean session a
durable classic queue, on the node the subscriber first reached. When that node is lost the
queue is unreachable (``home node … of durable queue … is down``) until it comes back, and
every new subscription under that client id fails with it (the connection's supervisor:
``reached_max_restart_intensity``): the wall stood still while the logins themselves
succeeded. So the wall keeps a persistent session (``clean_session`` false) and every node
makes such a session's queue a **quorum queue** (``mqtt.durable_queue_type = quorum``):
replicated on every node, it survives the loss of one, and it keeps what the halls send while
the wall moves to another node. The policy ``WALL_POLICY`` bounds it.
"""

from __future__ import annotations

import json
import re

from controller.link.protocol import ROOT

EXCHANGE = "amq.topic"
TLS_PORT = 8883
WALL_CLIENT = "damath-federation-wall"
"""The wall's MQTT client id: its session's queue is ``mqtt-subscription-<id>qos1``."""
WALL_BACKLOG = 100_000
"""Messages the wall's queue keeps while the wall is away (the oldest dropped first): a day of
1,000 boards at tournament pace is about 150,000; a state replaces the one before it."""
HALLS = f"{ROOT}/halls"
LEAVES = ("state", "presence", "assignment")
"""What a hall bridges: each board's live state and presence, and the table its hub gave it
(round, table, players: what the hall's own wall shows); never the records, and nothing comes
back."""


def routing_prefix(hall: str = "") -> str:
    """The AMQP routing keys of a hall's topics (all halls' when ``hall`` is empty)."""
    base = HALLS.replace("/", ".")
    return f"{base}.{hall}." if hall else f"{base}."


def hall_topic(hall: str, board: str, leaf: str) -> str:
    return f"{HALLS}/{hall}/boards/{board}/{leaf}"


def parse_hall_topic(topic: str) -> tuple[str, str, str] | None:
    """``(hall, board, leaf)`` of a bridged topic, else None."""
    m = re.fullmatch(rf"{re.escape(HALLS)}/([a-z0-9-]+)/boards/([a-z0-9-]+)/(\w+)", topic)
    return (m.group(1), m.group(2), m.group(3)) if m else None


def hall_user_commands(hall: str, username: str, password: str) -> list[list[str]]:
    """``rabbitmqctl`` arguments that make a hall's user: publish under its hall only."""
    return [
        ["add_user", username, password],
        ["set_permissions", "-p", "/", username, "^$", f"^{re.escape(EXCHANGE)}$", "^$"],
        [
            "set_topic_permissions",
            "-p",
            "/",
            username,
            EXCHANGE,
            "^" + re.escape(routing_prefix(hall)),
            "^$",
        ],
    ]


def wall_queue(client_id: str = WALL_CLIENT) -> str:
    return f"mqtt-subscription-{client_id}qos1"


def reader_user_commands(
    username: str, password: str, client_id: str = WALL_CLIENT
) -> list[list[str]]:
    """``rabbitmqctl`` arguments that make the federation's own user: it reads every hall
    (its MQTT session's queue is its own, and nobody else's) and publishes nothing; and the
    bound on that queue."""
    own = "^mqtt-subscription-" + re.escape(client_id) + "qos[01]$"
    return [
        ["add_user", username, password],
        [
            "set_permissions",
            "-p",
            "/",
            username,
            own,
            own,
            rf"^({re.escape(EXCHANGE)}|mqtt-subscription-{re.escape(client_id)}qos[01])$",
        ],
        [
            "set_topic_permissions",
            "-p",
            "/",
            username,
            EXCHANGE,
            "^$",
            "^" + re.escape(routing_prefix()),
        ],
        [
            "set_policy",
            "-p",
            "/",
            "--apply-to",
            "queues",
            "damath-wall",
            "^" + re.escape(wall_queue(client_id)) + "$",
            json.dumps({"max-length": WALL_BACKLOG, "overflow": "drop-head"}),
        ],
    ]


def node_conf(cert: str, key: str, ca: str, port: int | str = TLS_PORT) -> str:
    """Each node's ``rabbitmq.conf``: MQTT over TLS only (no plain MQTT, no AMQP from outside),
    no anonymous login, and a persistent session's queue a quorum queue (the wall's). ``port``
    may name an address too (``127.0.0.1:8883``)."""
    return "\n".join(
        [
            "# the federation's broker node (damath-board federation broker): TLS only",
            "listeners.tcp = none",
            "mqtt.listeners.tcp = none",
            f"mqtt.listeners.ssl.default = {port}",
            f"ssl_options.cacertfile = {ca}",
            f"ssl_options.certfile = {cert}",
            f"ssl_options.keyfile = {key}",
            "ssl_options.verify = verify_none",
            "ssl_options.fail_if_no_peer_cert = false",
            "ssl_options.versions.1 = tlsv1.3",
            "ssl_options.versions.2 = tlsv1.2",
            "mqtt.allow_anonymous = false",
            "mqtt.durable_queue_type = quorum",
        ]
    )
