"""Every game's records on the link: sealed in a version-2 envelope that names the game (Damath's
stay version 1, byte for byte what they were), read back by the hub's parser, and rebuilt with
the game's own rules into the very record the board exports."""

from __future__ import annotations

import json

import pytest

from controller.link.follower import Follower
from controller.link.gamestate import rebuild
from controller.link.playback import PlaybackBoard, sample_game_moves
from controller.link.protocol import Rejected, parse_envelope, seal

from .gameboards import EXPORTS, OTHER_GAMES, play_game

KEY = b"k" * 32


@pytest.mark.parametrize("name", OTHER_GAMES)
def test_each_game_is_sealed_with_its_kind_and_rebuilt_to_the_boards_export(name, tmp_path):
    follower = Follower(tmp_path, "b1", KEY)  # the board joined the hub before the game
    game = play_game(tmp_path, name)
    (sealed,) = follower.scan()
    envelopes = sealed.envelopes
    assert len(envelopes) > 5
    for env in envelopes:
        payload = json.loads(env.payload())
        assert payload["v"] == 2 and payload["kind"] == name
        assert parse_envelope(env.payload(), "b1") == env
    state = rebuild(sealed.records)
    assert state.kind == name and state.broken is None
    assert state.export() == (EXPORTS[name], game.files()[EXPORTS[name]])
    assert state.summary()["phase"] == sealed.state.summary()["phase"]
    assert state.ply > 0


def test_damath_records_stay_version_1_without_a_kind(tmp_path):
    follower = Follower(tmp_path, "b1", KEY)
    board = PlaybackBoard(tmp_path, sync=False)
    board.play_moves(sample_game_moves()[1][:4])
    board.close()
    (sealed,) = follower.scan()
    for env in sealed.envelopes:
        payload = json.loads(env.payload())
        assert payload["v"] == 1 and "kind" not in payload
        assert env.game_kind == "damath" and parse_envelope(env.payload(), "b1") == env
    assert rebuild(sealed.records).kind == "damath"


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda d: d.update(kind="chess"), "'kind' 'chess'"),
        (lambda d: d.update(kind="damath"), "'kind' 'damath'"),
        (lambda d: d.pop("kind"), "'kind' 'damath'"),
        (lambda d: d.update(v=1), "unknown fields ['kind']"),
        (lambda d: d.update(v=3), "version 3"),
        (lambda d: d.update(record={"t": 1.0}), "'k' (the record kind) missing"),
    ],
)
def test_a_version_2_envelope_names_a_game_other_than_damath(change, why):
    env = seal("b1", "g-1", 1, "0" * 64, {"k": "start", "game": "dam"}, KEY, kind="dam")
    data = json.loads(env.payload())
    change(data)
    with pytest.raises(Rejected) as refused:
        parse_envelope(json.dumps(data).encode(), "b1")
    assert refused.value.reason == "schema" and why in str(refused.value)


def test_every_registered_game_has_a_record_reader_under_its_name():
    """A game the board plays reaches the hub: the records know every name of the registry,
    and each game but Damath (``link.gamestate``'s own) has a reader."""
    from controller.games import GAMES
    from controller.record.games import DAMATH, NAMES, recorded

    assert set(NAMES) == set(GAMES)
    for name in set(NAMES) - {DAMATH}:
        assert recorded(name).name == name
    assert set(EXPORTS) == set(NAMES) - {DAMATH} == set(OTHER_GAMES)


def _dadama(dice_mode: str):
    from controller.record.games import recorded
    from tests.games.players import DADAMA_END

    game = recorded("dadama")
    game.apply({"k": "start", "game": "dadama", "seed": 5, "dice": dice_mode, "settings": {},
                "position": DADAMA_END})  # fmt: skip
    return game


def test_a_throw_of_the_boards_dice_is_the_one_its_seed_and_number_give():
    from controller.games.dadama.record import throw_faces
    from controller.record.games import Refused

    game = _dadama("board")
    fell = list(throw_faces(5, 0, 1))
    other = [fell[0] % 6 + 1]
    with pytest.raises(Refused, match=rf"throw 1: the board's dice fell \[{fell[0]}\]"):
        game.apply({"k": "throw", "sq": [3, 2], "dice": other})
    with pytest.raises(Refused, match="a die shows 1 to 6, not 7"):
        game.apply({"k": "throw", "sq": [3, 2], "dice": [7]})
    assert game.apply({"k": "throw", "sq": [3, 2], "dice": fell})["dice"] == fell
    with pytest.raises(Refused, match="waits for its step"):  # the step comes first
        game.apply({"k": "throw", "sq": [3, 2], "dice": list(throw_faces(5, 1, 1))})


def test_real_dice_are_what_the_players_entered_but_only_faces_of_a_die():
    from controller.record.games import Refused

    game = _dadama("real")
    with pytest.raises(Refused, match="a die shows 1 to 6, not 0"):
        game.apply({"k": "throw", "sq": [3, 2], "dice": [0]})
    assert game.apply({"k": "throw", "sq": [3, 2], "dice": [6]})["dice"] == [6]
