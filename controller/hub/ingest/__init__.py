"""The hub's MQTT side: receive, verify, store, acknowledge; report what is refused.

paho's network thread only queues what arrives; one worker thread takes the queue in batches,
checks every message (size, JSON, schema, topic, the board's key, the chain, the order, the
rules engine) and stores the good records in one transaction per batch. Only after the commit
does it acknowledge to the boards, so an acknowledged record is on disk. A message that fails a
check is refused, counted and kept in the problems list with the reason; nothing about it is
stored. Nothing a board or a stranger sends can stop the worker: an unexpected error rolls the
batch back and handles its messages one by one.

One board cannot crowd out the others (``limits``, docs/hall.md): the network thread lets each
board's messages through at ``rate`` a second on average (bursts of ``burst``) and drops the
rest on arrival, before they are queued (a board's link resends what is not acknowledged, so
a real board loses nothing); the worker lets a board open ``games_per_hour`` new games an hour
(a refused one is not acknowledged and comes again later). Both are counted per board
(``rejected:rate``, ``rejected:games``) and listed, at most ``REJECTS_PER_WINDOW`` lines per
board and reason every ``WINDOW`` seconds, so a flood costs the store a few rows, not one each.

A store that cannot be written (a full disk) is said once when it happens and once when it is
over, never per batch: nothing is acknowledged meanwhile, and the boards resend later.

The parts, one job each: ``transport`` (the MQTT session and what the hub publishes),
``limits`` (what one board may cost), ``verify`` (the checks that need no store), ``intake``
(the worker: batches, transactions, acknowledgements), ``cards`` (what the pages show),
``model`` (what is kept between messages).
"""

from .intake import BATCH, Ingest
from .limits import (
    FLOOD_SECONDS,
    HOLD_SECONDS,
    QUEUE_LIMIT,
    REJECTS_PER_WINDOW,
    WINDOW,
    Bucket,
    Limits,
)
from .model import BoardMeta, BrokerAddress, GameCache, Outcome, unwritable

__all__ = [
    "BATCH",
    "FLOOD_SECONDS",
    "HOLD_SECONDS",
    "QUEUE_LIMIT",
    "REJECTS_PER_WINDOW",
    "WINDOW",
    "BoardMeta",
    "BrokerAddress",
    "Bucket",
    "GameCache",
    "Ingest",
    "Limits",
    "Outcome",
    "unwritable",
]
