"""The hub's checks of every game's records, message by message, without a broker: each game's
records stored once, in order, and rebuilt into the board's own export; a record signed with
the board's key that the game's rules refuse (a changed throw, a changed removal, an illegal Dam
move) refused with the rule, counted, listed, not stored, not acknowledged; the real one after
it stored."""

from __future__ import annotations

import json

import pytest

from controller.hub.ingest import Ingest
from controller.hub.live import Live
from controller.hub.store import Store
from controller.link.follower import Follower
from controller.link.protocol import board_topic, seal
from tests.link.gameboards import EXPORTS, OTHER_GAMES, first, play_game

KEY = bytes(range(32))
TOPIC = board_topic("b1", "records")


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Each game played on a board: its sealed records and the board's own export."""
    out = {}
    for name in OTHER_GAMES:
        folder = tmp_path_factory.mktemp(name)
        follower = Follower(folder, "b1", KEY)
        game = play_game(folder, name)
        (sealed,) = follower.scan()
        out[name] = (sealed.envelopes, game.files()[EXPORTS[name]])
    return out


@pytest.fixture
def hub(tmp_path):
    store = Store(tmp_path / "hub.sqlite")
    store.add_board("b1", KEY.hex())
    ingest = Ingest(store, Live(), None)
    yield ingest
    store.close()


class Client:
    """Stands in for the broker: the acknowledgements the hub sends."""

    def __init__(self) -> None:
        self.acks: list[dict] = []

    def publish(self, topic, payload, qos=0):
        self.acks.append(json.loads(payload))


def send(ingest: Ingest, *payloads: bytes) -> list[str]:
    return [o.result for o in ingest.process([("mqtt", TOPIC, p, 1.0) for p in payloads])]


def stored_seqs(ingest: Ingest) -> list[int]:
    return [r["seq"] for r in ingest.store.query("SELECT seq FROM records ORDER BY seq")]


@pytest.mark.parametrize("name", OTHER_GAMES)
def test_each_game_is_stored_once_in_order_and_rebuilt_to_the_boards_export(hub, played, name):
    envelopes, export = played[name]
    payloads = [e.payload() for e in envelopes]
    assert send(hub, *payloads) == ["stored"] * len(payloads)
    assert send(hub, *payloads[:3]) == ["duplicate"] * 3
    assert stored_seqs(hub) == list(range(1, len(payloads) + 1))
    game = envelopes[0].game
    state = hub._state(hub.games[("b1", game)])
    assert state.kind == name and state.broken is None
    assert state.export() == (EXPORTS[name], export)
    summary = hub.card("b1")["summary"]
    assert summary["game"] == name and summary["ply"] > 0 and summary["problem"] is None
    assert hub.store.rejects() == []


def _forged_throw(envelopes):
    """A throw of the board's dice whose faces are not the ones its seed and number give."""
    env = first(envelopes, lambda r: r.get("k") == "throw")
    faces = [f % 6 + 1 for f in env.record["dice"]]
    return env, {**env.record, "dice": faces}, "the board's dice fell"


def _forged_removal(envelopes):
    """Black's removal of three White pieces (1, 3 and 4: a match) with the 4 changed for the
    6 beside it, which no matching pair of partial values allows (R12)."""
    env = first(envelopes, lambda r: any("remove" in a for a in r.get("actions", [])))
    record = json.loads(json.dumps(env.record))
    removal = next(a for a in record["actions"] if "remove" in a)
    assert removal["remove"] == [[4, 7], [5, 7], [7, 7]]  # the game the players play
    removal["remove"][2] = [4, 6]
    return env, record, "R12: the white 6 on (4,6) is in no matching pair"


def _illegal_move(envelopes):
    """A Dam move no rule allows: a man stepping backwards into an empty square."""
    env = first(envelopes, lambda r: r.get("k") == "move")
    (x0, y0), (x1, y1) = env.record["path"][:2]
    record = {**env.record, "path": [[x0, y0], [x1, y0 - (y1 - y0)]], "captures": []}
    return env, record, "not a legal move here"


FORGERIES = {"dadama": _forged_throw, "mathchess": _forged_removal, "dam": _illegal_move}


@pytest.mark.parametrize("name", list(FORGERIES))
def test_a_record_the_games_rules_refuse_is_refused_with_a_valid_hmac(hub, played, name):
    envelopes, _ = played[name]
    hub.transport.client = Client()
    genuine, record, why = FORGERIES[name](envelopes)
    before = envelopes[: genuine.seq - 1]
    assert send(hub, *(e.payload() for e in before)) == ["stored"] * len(before)
    forged = seal("b1", genuine.game, genuine.seq, genuine.prev, record, KEY,
                  info=genuine.info, asg=genuine.asg, kind=name)  # fmt: skip
    assert send(hub, forged.payload()) == ["rules"]
    assert stored_seqs(hub) == list(range(1, genuine.seq))
    assert hub.client.acks[-1]["seq"] == genuine.seq - 1  # the forged one is not acknowledged
    (reject,) = hub.store.rejects()
    assert reject["reason"] == "rules" and why in reject["detail"] and name in reject["detail"]
    assert hub.store.counters()["b1"]["rejected:rules"] == 1
    assert any(why in line for line in hub.card("b1")["problems"])
    # the game at the hub is as it was before the forged record; the real record goes in
    assert hub._state(hub.games[("b1", genuine.game)]).broken is None
    rest = [e.payload() for e in envelopes[genuine.seq - 1 :]]
    assert send(hub, *rest) == ["stored"] * len(rest)


def test_a_record_of_another_game_is_refused(hub, played):
    envelopes, _ = played["dam"]
    send(hub, envelopes[0].payload())
    e = envelopes[1]
    other = seal("b1", e.game, e.seq, e.prev, e.record, KEY, info=e.info, kind="english")
    assert send(hub, other.payload()) == ["schema"]
    (reject,) = hub.store.rejects()
    assert "a record of english, in a game of dam" in reject["detail"]
    assert stored_seqs(hub) == [1]
    assert send(hub, e.payload()) == ["stored"]
