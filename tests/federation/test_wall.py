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


def test_a_game_keeps_the_table_it_was_played_at():
    wall = Wall()
    r1 = {"v": 1, "id": "a-1", "round": 1, "table": "3", "blue": {"name": "Ana"},
          "red": {"name": "Ben"}}  # fmt: skip
    r2 = {**r1, "id": "a-2", "round": 2, "blue": {"name": "Gino"}, "red": {"name": "Ana"}}
    g1, g2 = "20261205-090000-aaaaaa", "20261205-110000-bbbbbb"
    wall.message(topic("assignment"), json.dumps(r1).encode())
    wall.message(topic("state"), state(g1, 1, ply=0, assignment="a-1"))
    wall.message(topic("state"), state(g1, 9, ply=8, assignment="a-1"))
    wall.message(topic("assignment"), json.dumps(r2).encode())  # the next round, after it
    wall.message(topic("state"), state(g1, 10, phase="over", assignment="a-2"))
    assert card(wall)["assignment"]["id"] == "a-2"
    assert card(wall)["game_table"]["id"] == "a-1"  # its own, not the next round's
    # a game set up before the next table came moves to it, until its first move
    wall.message(topic("state"), state(g2, 1, ply=0, assignment="a-1"))
    wall.message(topic("state"), state(g2, 2, ply=0, assignment="a-2"))
    assert card(wall)["game_table"]["blue"] == "Gino"
    wall.message(topic("state"), state(g2, 3, ply=1, assignment="a-2"))
    wall.message(topic("assignment"), json.dumps({**r2, "id": "a-3", "round": 3}).encode())
    wall.message(topic("state"), state(g2, 4, ply=2, assignment="a-3"))
    assert card(wall)["game_table"]["id"] == "a-2"


def test_a_game_first_heard_of_when_over_has_no_known_table():
    wall = Wall()
    r2 = {"v": 1, "id": "a-2", "round": 2, "table": "3", "blue": {"name": "Gino"},
          "red": {"name": "Ana"}}  # fmt: skip
    wall.message(topic("assignment"), json.dumps(r2).encode())
    wall.message(topic("state"), state("20261205-090000-aaaaaa", 40, phase="over",
                                       assignment="a-2"))  # fmt: skip
    assert card(wall)["game_table"] is None
