"""Boards join the hub from the real commands, each as a process of its own against a real
Mosquitto and the real hub: ``demo --trace … --hub`` (a sensor trace through the whole pipeline),
``run --hub`` (the board's own scan loop on mock drivers, driven by the test harness) and
``sim --hub`` (simulated boards played over their WebSocket). Every move reaches the hub once, in
order; the hub's game is the board's journal and its PDN is the board's own export. A wrong
connection file is one clear line, never a traceback."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from controller.link.playback import sample_game_moves
from controller.record.journal_file import read as read_journal
from controller.rules.game import Game
from controller.session import Session
from controller.tracker.generator import human_trace

from .conftest import DAMATH, ROOT, free_port, journal_games, stored_games


def write_trace(path: Path, moves=None, seed: int = 3) -> Path:
    moves = sample_game_moves()[1] if moves is None else moves
    lines = human_trace(Game.new("integer", "official"), moves, random.Random(seed))
    path.write_text("\n".join(lines) + "\n")
    return path


def assert_hub_has_the_journal(hub_folder: Path, board: str, folder: Path) -> dict[str, list]:
    """Every game of the board's folder is in the hub: each record once, in order, the same."""
    journals = journal_games(folder)
    stored = stored_games(hub_folder, board)
    assert set(stored) == set(journals) and journals, (sorted(stored), sorted(journals))
    for game, records in journals.items():
        rows = stored[game]
        assert [seq for seq, _ in rows] == list(range(1, len(records) + 1)), game
        assert [r for _, r in rows] == records, game
    return journals


def moves_in(records: list[dict]) -> list:
    return [r["path"] for r in records if r["k"] == "move"]


def token_of(hub) -> str:
    return (hub.folder / "hub.toml").read_text().split('organiser_token = "')[1].split('"')[0]


def assign(hub, body: dict) -> dict:
    request = urllib.request.Request(
        hub.url + "/api/assignments",
        json.dumps(body).encode(),
        {"Authorization": f"Bearer {token_of(hub)}"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.loads(r.read())


@pytest.mark.slow
def test_demo_trace_publishes_every_move_once_in_order(hub, tmp_path):
    hub.start()
    conn = hub.add_board("d1")
    trace = write_trace(tmp_path / "game.jsonl")
    folder = tmp_path / "d1"
    cmd = [DAMATH, "demo", "--trace", str(trace), "--hub", str(conn), "--state-dir", str(folder)]
    started = time.monotonic()
    first = subprocess.run([*cmd, "--speed", "25"], capture_output=True, text=True, timeout=120)
    took = time.monotonic() - started
    assert first.returncode == 0, first.stderr
    assert "the hub acknowledged every record of board d1" in first.stdout
    last_t = json.loads(trace.read_text().splitlines()[-1])["t"]
    assert took >= last_t / 25, "--speed paces the trace against the wall clock"
    # a second run starts a new game; the first is archived, and both are at the hub
    second = subprocess.run([*cmd, "--speed", "0"], capture_output=True, text=True, timeout=120)
    assert second.returncode == 0, second.stderr
    journals = assert_hub_has_the_journal(hub.folder, "d1", folder)
    sample = [[list(sq) for sq in m.path] for m in sample_game_moves()[1]]
    assert [moves_in(records) for records in journals.values()] == [sample, sample]
    # the hub's game record is the board's own export of the game
    for game, records in journals.items():
        board_pdn = Session.replayed(records).export_pdn()
        assert hub.get(f"/feeds/games/d1/{game}.pdn").decode() == board_pdn
    exported = sorted(p.read_text() for p in (folder / "games").glob("*.pdn"))
    assert exported == sorted(hub.get(f"/feeds/games/d1/{g}.pdn").decode() for g in journals)


@pytest.mark.slow
def test_run_hub_publishes_the_game_played_on_the_board(hub, tmp_path):
    """``damath-board run`` on the mock drivers, a whole game played by the test harness."""
    hub.start()
    conn = hub.add_board("r7")
    trace = write_trace(tmp_path / "game.jsonl", seed=5)
    state = tmp_path / "state"
    env = dict(
        os.environ,
        DAMATH_BOARD_HARNESS="tests.drivers.harness:TracePlayer",
        DAMATH_TEST_TRACE=str(trace),
        DAMATH_TEST_OUT=str(tmp_path / "out"),
        PYTHONPATH=str(ROOT),
    )
    result = subprocess.run(
        [DAMATH, "run", "--profile", str(ROOT / "hardware" / "sim.toml"), "--state-dir",
         str(state), "--hub", str(conn)],
        capture_output=True, text=True, timeout=180, env=env, cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    assert "publishing to the hub mqtt://127.0.0.1" in result.stdout
    assert "not acknowledged" not in result.stderr, result.stderr
    journals = assert_hub_has_the_journal(hub.folder, "r7", state)
    (records,) = journals.values()
    assert len(moves_in(records)) == len(sample_game_moves()[1])
    (pdn_file,) = (state / "games").glob("*.pdn")  # the board's own export at the game's end
    (game,) = journals
    assert hub.get(f"/feeds/games/r7/{game}.pdn").decode() == pdn_file.read_text()


def sim_state(url: str, board: str) -> dict:
    with urllib.request.urlopen(f"{url}/board/{board}/state.json", timeout=10) as r:
        data = json.loads(r.read())
    return data.get("state", data)


async def play_on_sim(url: str, board: str, paths: list) -> None:
    async with connect(url.replace("http://", "ws://") + f"/ws/{board}") as ws:
        for ply, path in enumerate(paths, start=1):
            await ws.send(json.dumps({"type": "drag", "from": list(path[0]), "to": list(path[1])}))
            deadline = time.monotonic() + 60  # generous: a loaded machine, never a measure
            said: list = []  # what the board answered, for the failure's message
            while True:
                try:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
                except TimeoutError:
                    raise AssertionError(f"move {ply} {path} was not read: {said}") from None
                if msg.get("type") == "state" and msg["state"]["ply"] >= ply:
                    break
                said.append(msg if msg.get("type") != "state" else msg["state"].get("notice"))
                assert time.monotonic() < deadline, f"move {ply} was not read: {said}"


@pytest.mark.slow
def test_sim_hub_boards_publish_and_show_their_assignment(hub, tmp_path):
    hub.start()
    conns = tmp_path / "conns"
    conns.mkdir()
    for board in ("s1", "s2"):
        (conns / f"{board}.toml").write_bytes(hub.add_board(board).read_bytes())
    assignment = assign(hub, {"board": "s1", "round": 2, "table": 7, "blue": {"name": "Ana"},
                              "red": {"name": "Ben"}})  # fmt: skip
    state = tmp_path / "state"
    port = free_port()
    log = open(tmp_path / "sim.log", "w")  # noqa: SIM115 (the process keeps it)
    proc = subprocess.Popen(
        [DAMATH, "sim", "--port", str(port), "--state-dir", str(state), "--hub", str(conns)],
        stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120  # a hung board's bound, never a measure
        while True:  # both boards are opened at start and read their opening; s1 shows its
            # assignment (a chip moved before the board has read the opening is a setting-up
            # mistake it asks to put right, never a move: a loaded machine reads it later)
            assert proc.poll() is None, (tmp_path / "sim.log").read_text()
            try:
                shown = sim_state(url, "s1")
                other = sim_state(url, "s2")
                ready = shown["notice"].startswith("Table 7") and shown["ply"] == 0
                ready = ready and shown["phase"] == other["phase"] == "play"
                if ready and "Ana" in " ".join(shown["display"]):  # the display names them
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, (tmp_path / "sim.log").read_text()
            time.sleep(0.2)
        assert shown["notice"] == "Table 7 · Round 2 · Ana (Blue) vs Ben (Red)"
        assert shown["info"]["blue"] == "Ana" and shown["info"]["round"] == "2"
        plain = [m.path for m in sample_game_moves()[1][:4]]  # four moves without a taking
        asyncio.run(play_on_sim(url, "s1", plain))
        asyncio.run(play_on_sim(url, "s2", plain[:2]))
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
    assert proc.returncode in (0, 130), (tmp_path / "sim.log").read_text()  # Ctrl+C
    for board, count in (("s1", 4), ("s2", 2)):
        journals = assert_hub_has_the_journal(hub.folder, board, state / "boards" / board)
        (records,) = journals.values()
        assert moves_in(records) == [[list(sq) for sq in p] for p in plain[:count]]
    feed = hub.json("/feeds/rounds/2.json")
    (game,) = feed["games"]
    assert game["board"] == "s1" and game["assignment"]["id"] == assignment["id"]
    assert '[Blue "Ana"]' in hub.get("/feeds/rounds/2.pdn").decode()


def _wrong_files(tmp_path: Path, good: Path) -> dict[str, Path]:
    text = good.read_text()
    files = {"missing": tmp_path / "nowhere.toml"}
    for name, content in (
        ("not-toml", "this is [not toml\n"),
        ("no-key", text.replace("hmac_key", "hmac_kye")),
        ("bad-port", text.replace("port = ", "port = 99999 #")),
    ):
        files[name] = tmp_path / f"{name}.toml"
        files[name].write_text(content)
    return files


@pytest.mark.slow
@pytest.mark.parametrize("command", ["demo", "run", "sim"])
def test_a_wrong_connection_file_is_one_clear_line(hub, tmp_path, command):
    conn = hub.add_board("w1")  # the hub need not run: the file is refused before any network
    trace = write_trace(tmp_path / "t.jsonl", sample_game_moves()[1][:2])
    args = {
        "demo": ["demo", "--trace", str(trace), "--state-dir", str(tmp_path / "s")],
        "run": ["run", "--profile", str(ROOT / "hardware" / "sim.toml"), "--state-dir",
                str(tmp_path / "s"), "--exit-after", "1"],
        "sim": ["sim", "--port", "0", "--state-dir", str(tmp_path / "s")],
    }[command]  # fmt: skip
    expected = {
        "missing": "no such connection file",
        "not-toml": "not valid TOML",
        "no-key": "'hmac_key' is missing",
        "bad-port": "'port' must be a number from 1 to 65535",
    }
    for name, path in _wrong_files(tmp_path, conn).items():
        result = subprocess.run(
            [DAMATH, *args, "--hub", str(path)], capture_output=True, text=True, timeout=60
        )
        assert result.returncode == 2, (name, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr
        (line,) = result.stderr.strip().splitlines()
        assert line.startswith(f"damath-board {command}: error: {path}"), line
        assert expected[name] in line, line
        assert not (tmp_path / "s" / "journal.jsonl").exists()  # refused before anything
    if command == "sim":  # --hub needs the boards' games kept
        result = subprocess.run([DAMATH, *args[:3], "--no-save", "--hub", str(conn)],
                                capture_output=True, text=True, timeout=60)  # fmt: skip
        assert result.returncode == 2 and "drop --no-save" in result.stderr


@pytest.mark.slow
def test_a_refused_credential_is_said_and_the_game_kept(hub, tmp_path):
    hub.start()
    conn = hub.add_board("w2")
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(
        "\n".join(
            'password = "not-the-password"' if line.startswith("password") else line
            for line in conn.read_text().splitlines()
        )
    )
    trace = write_trace(tmp_path / "t.jsonl", sample_game_moves()[1][:3])
    folder = tmp_path / "w2"
    cmd = [DAMATH, "demo", "--trace", str(trace), "--state-dir", str(folder), "--speed", "0"]
    result = subprocess.run([*cmd, "--hub", str(wrong), "--wait", "20"], capture_output=True,
                            text=True, timeout=60)  # fmt: skip
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.count("the hub refused the board's credential") == 1, result.stderr
    assert "stay in the journal" in result.stderr
    assert stored_games(hub.folder, "w2") == {}
    assert len(moves_in(read_journal(folder / "journal.jsonl").records)) == 3
    # with the right file, the kept game goes too (and the new one)
    result = subprocess.run([*cmd, "--hub", str(conn)], capture_output=True, text=True,
                            timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stderr
    journals = assert_hub_has_the_journal(hub.folder, "w2", folder)
    assert len(journals) == 2
