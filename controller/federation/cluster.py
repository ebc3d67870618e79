"""The federation's broker cluster (RabbitMQ's MQTT plugin): who may publish and read what.

Each hall's broker bridges its boards' ``state`` and ``presence`` to the cluster under
``damath/v1/halls/<hall>/`` (docs/mqtt.md), with a user of its own that may publish there and
nowhere else and may read nothing (RabbitMQ's topic permissions on ``amq.topic``, where MQTT's
``/`` is AMQP's ``.``). The federation's wall reads every hall with its own user and publishes
nothing. The commands here are what the administrator runs (``rabbitmqctl``) on any node: users
and permissions are the cluster's, not a node's.
"""

from __future__ import annotations

import re

from controller.link.protocol import ROOT

EXCHANGE = "amq.topic"
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


def reader_user_commands(username: str, password: str) -> list[list[str]]:
    """``rabbitmqctl`` arguments that make the federation's own user: it reads every hall
    (its MQTT subscription is a queue of its own) and publishes nothing."""
    own = r"^mqtt-subscription-.*$"
    return [
        ["add_user", username, password],
        [
            "set_permissions",
            "-p",
            "/",
            username,
            own,
            own,
            rf"^({re.escape(EXCHANGE)}|mqtt-subscription-.*)$",
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
    ]
