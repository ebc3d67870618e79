"""Failpoints: the places in the hub's ingest where a test stops the hub dead, as a power cut or
``kill -9`` would, to show that nothing is lost or stored twice whatever the moment.

Armed only by the environment, ``DAMATH_HUB_FAILPOINT=NAME@N`` (the N-th time the hub reaches
NAME it SIGKILLs itself; ``@N`` left out means the first); unarmed, ``reach`` is one comparison.
The places, in the order a batch of records meets them:

- ``ingest.stored``: every record of the batch written into the store's transaction, not yet
  committed (a kill mid-batch: the whole batch must roll back, nothing acknowledged);
- ``ingest.committed``: the batch on the disk, not yet acknowledged (the boards resend it: the
  records must not be stored twice);
- ``ingest.acked``: the acknowledgements handed to the broker.

Random kills find the same slips by luck (``bench/soak_hub_kills.py``); these find them every
time (tests/hub/test_hub_kill.py).
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable

ENV = "DAMATH_HUB_FAILPOINT"
PLACES = ("ingest.stored", "ingest.committed", "ingest.acked")


def armed(text: str) -> tuple[str, int] | None:
    """The place and the count ``text`` arms; None (and one line on stderr) if it is wrong."""
    if not text:
        return None
    name, _, count = text.partition("@")
    if name not in PLACES or not (count or "1").isdigit() or int(count or "1") < 1:
        print(
            f"damath-board hub: {ENV}={text} ignored: expected one of {', '.join(PLACES)}, "
            "optionally @N (N from 1)",
            file=sys.stderr,
        )
        return None
    return name, int(count or "1")


_ARMED = armed(os.environ.get(ENV, "").strip())
_reached: dict[str, int] = {}


def reach(name: str, before: Callable[[], None] | None = None) -> None:
    """The hub is at ``name``: dies here if the environment armed this place for this time,
    after ``before`` (what the hub handed to the network is let out first: the worst moment to
    die is just after it went)."""
    if _ARMED is None or _ARMED[0] != name:
        return
    _reached[name] = _reached.get(name, 0) + 1
    if _reached[name] == _ARMED[1]:
        if before is not None:
            before()
        os.kill(os.getpid(), signal.SIGKILL)
