"""Not part of the suite: the federation's live wall through a three-node RabbitMQ cluster
that loses the node everyone reads and writes through (SIGKILL); the bridges and the wall must
go on through the next node. On 2026-11-27 this failed about one run in three on this machine
(RabbitMQ 3.10's MQTT plugin dropped every login on the surviving nodes for over 90 s:
``reached_max_restart_intensity``), so it is kept out of ./test.sh until the cause is found
(docs/federation.md, "Not reliable yet"). Run it by hand, a few times:

    .venv/bin/python -m pytest -p no:cacheprovider -s bench/federation_failover.py
"""

from __future__ import annotations

import time

from tests.federation.conftest import certs  # noqa: F401  (fixtures the ones below use)
from tests.federation.test_cluster import cluster, live, shown, wall  # noqa: F401
from tests.hub.eventkit import MOVES, wait_for


def test_the_wall_goes_on_when_the_node_everyone_uses_is_lost(cluster, live):  # noqa: F811
    server, halls = live
    for _cred, _hub, boards in halls:
        for board in boards.values():
            board.play_some(2)

    def all_at(plies: int):
        cards = shown(server)
        want = {(cred.hall, b) for cred, _hub, boards in halls for b in boards}
        ok = set(cards) == want and all(c.get("ply") == plies for c in cards.values())
        return cards if ok else None

    wait_for("every hall's boards on the wall", lambda: all_at(2), timeout=60)

    # -- the node everyone reads and writes through is lost ------------------------------
    broker = wall(server)["broker"]
    first = cluster.nodes[0]
    assert broker["node"] == first.address and broker["failovers"] == 0
    cluster.kill(first)
    lost = time.monotonic()
    # RabbitMQ keeps retained messages on the node that took them: a state a bridge sends to
    # another node before the wall reads again reaches the wall with the board's next move
    # only (docs/federation.md). So the moves are played once the wall reads another node.
    wait_for(
        "the wall reads another node",
        lambda: (
            (b := wall(server)["broker"])["node"] not in ("", first.address) and b["failovers"] >= 1
        ),
        timeout=60,
    )
    for _cred, _hub, boards in halls:
        for board in boards.values():
            board.play.play_moves(MOVES[2:4])  # the game goes on: two more moves
    try:
        wait_for(
            "every board's new moves on the wall, through another node",
            lambda: all_at(4),
            timeout=90,
        )
    except AssertionError as exc:  # what the wall and the surviving nodes say, for the log
        now = wall(server)
        plies = {f"{c['hall']}/{c['board']}": c.get("ply") for c in now["cards"]}
        logs = "\n".join(cluster.log(n)[-1500:] for n in cluster.nodes[1:])
        raise AssertionError(f"{exc}; broker {now['broker']}; plies {plies}\n{logs}") from None
    print(f"the wall caught up {time.monotonic() - lost:.1f} s after the node was lost")
    broker = wall(server)["broker"]
    assert broker["node"] in {n.address for n in cluster.nodes[1:]} and broker["failovers"] >= 1
