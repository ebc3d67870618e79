"""Every game through the real hall: boards of Dadama, Dam, Mathematical Chess and English
draughts played by hands on their sensors and buttons, each publishing through its own link to
the real Mosquitto and the real hub (SIGKILLed in the middle, and started again): every record
of every game stored once and in order, and the hub's record of each game the very text the
board exports. Then someone holding a board's key publishes a forged record of each game (a
changed throw, a changed removal, an illegal Dam move, each with a valid HMAC): the hub refuses
it with the rule it breaks, lists and counts it, and stores nothing of it."""

from __future__ import annotations

import json
import sqlite3
import time

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from controller.link.config import load
from controller.link.protocol import GENESIS, Envelope, board_topic, parse_envelope, seal
from tests.link.gameboards import EXPORTS, OTHER_GAMES, play_game

from .conftest import Board, assert_hub_equals_journals, journal_games, stored_games


def wait_for(predicate, timeout: float = 120.0):  # a bound for a hung test
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def stored_envelopes(hub, board: str, game: str) -> list[Envelope]:
    db = sqlite3.connect(f"file:{hub.folder / 'hub.sqlite'}?mode=ro", uri=True)
    rows = db.execute(
        "SELECT envelope FROM records WHERE board_id = ? AND game_id = ? ORDER BY seq",
        (board, game),
    ).fetchall()
    db.close()
    return [parse_envelope(row[0].encode(), board) for row in rows]


@pytest.mark.slow
def test_every_game_through_the_real_hub_once_in_order_equal_to_the_boards_export(hub, tmp_path):
    hub.start()
    boards = {name: Board(f"g-{name}", tmp_path / name, hub.add_board(f"g-{name}"))
              for name in OTHER_GAMES}  # fmt: skip
    for board in boards.values():
        board.folder.mkdir()
        board.start_link()
    games = {}
    for name in OTHER_GAMES[:2]:
        games[name] = play_game(boards[name].folder, name)
    wait_for(lambda: stored_games(hub.folder, "g-dadama"))  # the first game reaches the hub
    hub.kill()  # SIGKILL, mid-hall: its broker goes with it; the boards play on
    for name in OTHER_GAMES[2:]:
        games[name] = play_game(boards[name].folder, name)
    hub.start()
    for board in boards.values():
        board.wait_acked()
    assert_hub_equals_journals(hub.folder, list(boards.values()))
    for name, board in boards.items():
        (game,) = journal_games(board.folder)
        feed = hub.json(f"/feeds/games/{board.board}/{game}.json")
        own = games[name].files()[EXPORTS[name]]
        assert feed["kind"] == name and feed["problem"] is None, feed
        if EXPORTS[name] == "json":
            assert feed["record"] == json.loads(own)
            assert hub.get(f"/feeds/games/{board.board}/{game}.pdn") == b""
        else:
            assert feed["record"] == own
            assert hub.get(f"/feeds/games/{board.board}/{game}.pdn").decode() == own
        card = next(c for c in hub.json("/api/cards")["cards"] if c["board"] == board.board)
        assert card["summary"]["game"] == name and card["summary"]["ply"] == feed["ply"] > 0
    # the round's feeds (round 0: games played without an assignment) carry every game
    assert {g["kind"] for g in hub.json("/feeds/rounds/0.json")["games"]} == set(OTHER_GAMES)
    pdn = hub.get("/feeds/rounds/0.pdn").decode()
    pdn_games = [n for n in OTHER_GAMES if EXPORTS[n] == "pdn"]  # Mathematical Chess's is JSON
    assert pdn.count('[Event "Division Meet"]') == len(pdn_games)
    for tag in ('[GameType "Dadama"]', '[GameType "Dam"]', '[Board "g-english"]'):
        assert tag in pdn, tag
    assert hub.json("/api/problems")["rejected"] == []
    for board in boards.values():
        board.close()


def _changed_throw(records: list[dict]) -> tuple[int, dict, str]:
    n, record = next((n, r) for n, r in enumerate(records) if r.get("k") == "throw")
    faces = [f % 6 + 1 for f in record["dice"]]
    return n, {**record, "dice": faces}, "the board's dice fell"


def _changed_removal(records: list[dict]) -> tuple[int, dict, str]:
    n, record = next((n, r) for n, r in enumerate(records)
                     if any("remove" in a for a in r.get("actions", [])))  # fmt: skip
    record = json.loads(json.dumps(record))
    removal = next(a for a in record["actions"] if "remove" in a)
    removal["remove"][-1] = [4, 6]  # a White 6 no matching pair allows (the 4 was)
    return n, record, "R12"


def _illegal_move(records: list[dict]) -> tuple[int, dict, str]:
    n, record = next((n, r) for n, r in enumerate(records) if r.get("k") == "move")
    (x0, y0), (x1, y1) = record["path"][:2]
    return n, {**record, "path": [[x0, y0], [x1, 2 * y0 - y1]]}, "not a legal move here"


FORGERIES = {"dadama": _changed_throw, "mathchess": _changed_removal, "dam": _illegal_move}


@pytest.mark.slow
def test_a_forged_record_of_each_game_is_refused_and_reported(hub, tmp_path):
    hub.start()
    for name, forge in FORGERIES.items():
        board = Board(f"f-{name}", tmp_path / name, hub.add_board(f"f-{name}"))
        board.folder.mkdir()
        board.start_link()
        play_game(board.folder, name)
        board.wait_acked()
        board.close()  # the board steps aside: its key is now in someone else's hands
        (game,) = stored_games(hub.folder, board.board)
        genuine = stored_envelopes(hub, board.board, game)
        n, record, why = forge([e.record for e in genuine])
        config = load(board.conn)
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="x", protocol=mqtt.MQTTv5)
        c.username_pw_set(board.board, config.password)
        c.connect("127.0.0.1", hub.mqtt_port)
        c.loop_start()
        # the game's records before it again, under a new game id, sealed with the board's
        # key (valid: stored), then the forged one
        prev, forged_game = GENESIS, f"forged-{name}"
        for seq, env in enumerate([*genuine[:n], None], start=1):
            body = env.record if env is not None else record
            sealed = seal(board.board, forged_game, seq, prev, body, config.hmac_key,
                          info=env.info if env is not None else {}, kind=name)  # fmt: skip
            c.publish(
                board_topic(board.board, "records"), sealed.payload(), qos=1
            ).wait_for_publish(5)
            prev = sealed.hash
        refused = wait_for(lambda b=board.board: [r for r in hub.json("/api/problems")["rejected"]
                                                  if r["board_id"] == b])  # fmt: skip
        c.loop_stop()
        c.disconnect()
        (reject,) = refused
        assert reject["reason"] == "rules", reject
        assert why in reject["detail"] and name in reject["detail"], reject
        assert [e.record for e in stored_envelopes(hub, board.board, forged_game)] == [
            e.record for e in genuine[:n]
        ]  # everything before it, nothing of it
        assert [e.record for e in stored_envelopes(hub, board.board, game)] == [
            e.record for e in genuine
        ]  # the board's own game untouched
        counters = next(b for b in hub.json("/api/boards")["boards"] if b["board"] == board.board)
        assert counters["counters"]["rejected:rules"] == 1
        card = next(c for c in hub.json("/api/cards")["cards"] if c["board"] == board.board)
        assert any(why in line for line in card["problems"]), card["problems"]


def run_english(tmp_path, conn, state, seconds: float):
    """``damath-board run --hub`` on a simulated board whose profile names English draughts."""
    import subprocess
    import sys

    from .conftest import ROOT

    profile = tmp_path / "english.toml"
    sim = (ROOT / "hardware" / "sim.toml").read_text()
    profile.write_text(
        sim.replace('[board]\nname = "sim"', '[board]\nname = "sim"\ngame = "english"')
    )
    return subprocess.run(
        [sys.executable, "-m", "controller.cli", "run", "--profile", str(profile), "--state-dir",
         str(state), "--exit-after", str(seconds), "--hub", str(conn)],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip


@pytest.mark.slow
def test_run_publishes_a_board_of_another_game_to_the_hub(hub, tmp_path):
    """``damath-board run --hub`` on a board whose profile names English draughts (it used to
    refuse: only Damath reached a hub): its game's start reaches the hub as that game; with a
    wrong password the board says once that the hub refused its credential."""
    hub.start()
    conn = hub.add_board("e1")
    result = run_english(tmp_path, conn, tmp_path / "state", 0.5)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "publishing to the hub mqtt://127.0.0.1" in result.stdout
    assert "not acknowledged" not in result.stderr, result.stderr
    (game,) = stored_games(hub.folder, "e1")
    records = [r for _, r in stored_games(hub.folder, "e1")[game]]
    assert records[0]["k"] == "start" and records[0]["game"] == "english"
    feed = hub.json(f"/feeds/games/e1/{game}.json")
    assert feed["kind"] == "english" and feed["phase"] == "play" and feed["problem"] is None
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(conn.read_text().replace(load(conn).password, "not-the-password"))
    refused = run_english(tmp_path, wrong, tmp_path / "other", 2.0)
    said = [line for line in refused.stderr.splitlines() if "credential" in line]
    assert len(said) == 1 and "hub mqtt://127.0.0.1" in said[0], refused.stderr


@pytest.mark.slow
def test_run_refuses_a_table_of_another_game_in_one_line(hub, tmp_path):
    """``damath-board run --hub`` on an English draughts board holding a Damath table (a board
    carried to the wrong division): it says once that the table is not for it, and nothing it
    plays is tied to that table."""
    from .eventkit import api

    hub.start()
    conn = hub.add_board("e1")
    table = {"board": "e1", "round": 1, "table": 3, "blue": {"name": "Ana"}, "red": {"name": "Ben"}}
    sent = api(hub, "/api/assignments", table)
    assert "game" not in sent  # a table of no game named: Damath's, as before divisions had one
    result = run_english(tmp_path, conn, tmp_path / "state", 2.0)
    assert result.returncode == 0, result.stderr[-3000:]
    line = "damath-board run: Table 3, round 1 is a damath game: not for this english board"
    assert result.stderr.splitlines().count(line) == 1, result.stderr
    assert len(stored_games(hub.folder, "e1")) == 1
    tied = (
        sqlite3.connect(f"file:{hub.folder / 'hub.sqlite'}?mode=ro", uri=True)
        .execute("SELECT assignment_id FROM games WHERE board_id = 'e1'")
        .fetchall()
    )
    assert tied == [(None,)], tied
