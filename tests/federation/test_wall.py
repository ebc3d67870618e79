"""The wall shows each board's newest state once (issue 37): what a hall's bridge sends again
after a cut, a node's retained copy older than what the wall shows, and a board between games
never take a card back or show it twice (test_wall_across_halls.py: the same through a real
cluster and a failing uplink)."""

from __future__ import annotations

import json

from controller.federation.wall import Wall

HALL = "ncr-meet"


def topic(leaf: str, board: str = "b1") -> str:
    return f"damath/v1/halls/{HALL}/boards/{board}/{leaf}"


def state(game: str | None, seq: int, **more) -> bytes:
    return json.dumps(
        {"v": 1, "board": "b1", "game": game, "seq": seq, "ply": seq, **more}
    ).encode()


def card(wall: Wall) -> dict:
    return wall.cards[(HALL, "b1")]


def test_a_state_is_shown_once_and_never_an_older_one():
    wall = Wall()
    wall.message(topic("state"), state("20261205-090000-aaaaaa", 3))
    assert (card(wall)["game"], card(wall)["seq"]) == ("20261205-090000-aaaaaa", 3)
    shown = wall.received
    for stale in (
        state("20261205-090000-aaaaaa", 3),  # the same again (a QoS 1 message sent again)
        state("20261205-090000-aaaaaa", 2),  # an older one (a node's retained copy)
        state("20261205-080000-ffffff", 40),  # a game of the morning
        state(None, 0),  # the board between games: the game shown stays
    ):
        wall.message(topic("state"), stale)
    assert wall.received == shown and wall.stale == 4
    assert card(wall)["seq"] == 3
    wall.message(topic("state"), state("20261205-090000-aaaaaa", 3, paused=True))  # news
    assert card(wall)["paused"] is True
    wall.message(topic("state"), state("20261205-100000-bbbbbb", 1))  # the next game
    assert (card(wall)["game"], card(wall)["seq"]) == ("20261205-100000-bbbbbb", 1)


def test_a_presence_by_the_boards_clock_and_a_table_by_its_round():
    wall = Wall()
    wall.message(topic("presence"), json.dumps({"v": 1, "online": False, "t": 20.0}).encode())
    wall.message(topic("presence"), json.dumps({"v": 1, "online": True, "t": 10.0}).encode())
    assert card(wall)["online"] is False  # the older "online" came late
    round_2 = {"v": 1, "round": 2, "table": "1", "blue": {"name": "Ana"}, "red": {"name": "Ben"}}
    wall.message(topic("assignment"), json.dumps(round_2).encode())
    wall.message(topic("assignment"), json.dumps({**round_2, "round": 1, "table": "5"}).encode())
    assert card(wall)["assignment"]["round"] == 2
    wall.message(topic("assignment"), b"")  # taken back
    assert card(wall)["assignment"] is None
    wall.message(topic("assignment"), json.dumps(round_2).encode())  # and given again
    assert card(wall)["assignment"]["table"] == "1"
