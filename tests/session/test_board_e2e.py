"""End to end through the mock drivers: a recorded trace in; out the exact LED bytes, clock
digits, buzzer tones and scoresheet PNG at chosen moments, compared with reviewed golden files
(tests/session/golden; regenerate with UPDATE_GOLDEN=1 and review the diff)."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

from controller.board import BoardHost, ScanLoop
from controller.games.keeper import Keeper
from controller.session import SessionConfig
from controller.tracker.trace import Frame
from drivers.buzzer import PATTERNS
from drivers.factory import build_devices
from drivers.profile import load_profile
from tests.session.helpers import damath_game

from .helpers import game_trace

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"


class FakeClock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def _last_pattern(tones: list) -> str | None:
    """The buzzer pattern whose tones end the record (the last one, played to its end)."""
    for name, pattern in PATTERNS.items():
        want: list = []
        for frequency, _ in pattern:
            want.append(frequency)
        want.append(None)
        if tones[-len(want) :] == want:
            return name
    return None


def _capture(devices, board: ScanLoop, t: float) -> dict:
    board.render(t)
    if devices.buzzer is not None:
        devices.buzzer.wait(5)
    hands = devices.controls()
    png = io.BytesIO()
    devices.scoresheet.render(devices.scoresheet.last).save(png, "PNG")
    return {
        "led_bytes": hands.last_led_frame().hex(),
        "clocks": list(hands.clock_faces()),
        "cue": _last_pattern([f for _, f in hands.tones()]),
        "page": devices.scoresheet.last,
        "png": png.getvalue(),
    }


def _run(tmp_path) -> dict[str, dict]:
    clock = FakeClock()
    devices = build_devices(load_profile(ROOT / "hardware" / "sim.toml"), clock=clock)
    host = BoardHost(tmp_path)
    game = damath_game(host, SessionConfig(), 0.0)
    session = game.session
    board = ScanLoop(game, devices, Keeper.of_board(tmp_path, host.wall))
    hands = devices.controls()
    trace = game_trace(21, plies=12)
    moments: dict[str, dict] = {}
    lifted_seen = False

    def step(t: float) -> None:
        clock.t = t
        board.step(t)

    for rec in trace.records:
        if isinstance(rec, Frame):
            hands.set_occupied(rec.occupied)
        else:
            hands.press(rec.button)
        step(rec.t)
        g = session.tracker.guidance()
        if "ready" not in moments and session.phase == "play":
            moments["ready"] = _capture(devices, board, rec.t)
        if not lifted_seen and session.game.ply == 2 and g.destinations:
            lifted_seen = True
            moments["lifted"] = _capture(devices, board, rec.t)
    t = trace.records[-1].t + 1.0
    step(t)
    moments["after_moves"] = _capture(devices, board, t)
    hands.press("pause")
    step(t + 0.1)
    moments["paused"] = _capture(devices, board, t + 0.3)
    hands.press("pause")
    step(t + 1.0)
    step(t + 51.0)  # the reminder: 10 s left on the move clock
    moments["warning"] = _capture(devices, board, t + 51.0)
    hands.press("pause", "hold")  # the arbiter's menu
    step(t + 52.0)
    hands.press("next")
    step(t + 52.1)
    hands.press("confirm")  # "Stop, tally now"
    step(t + 52.2)
    moments["over"] = _capture(devices, board, t + 52.2)
    devices.close()
    assert sorted(p.suffix for p in (tmp_path / "games").iterdir()) == [".csv", ".html", ".pdn"]
    return moments


def test_trace_in_exact_outputs_out(tmp_path):
    moments = _run(tmp_path)
    assert set(moments) == {"ready", "lifted", "after_moves", "paused", "warning", "over"}
    for name, got in moments.items():
        png = got.pop("png")
        golden_json = GOLDEN / f"{name}.json"
        golden_png = GOLDEN / f"{name}.png"
        if UPDATE:
            golden_json.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n")
            golden_png.write_bytes(png)
        assert got == json.loads(golden_json.read_text()), name
        assert png == golden_png.read_bytes(), name


def test_outputs_say_what_the_moment_means(tmp_path):
    m = _run(tmp_path)
    assert m["ready"]["clocks"][:2] == ["2000", " 100"]
    assert m["lifted"]["led_bytes"] != m["after_moves"]["led_bytes"]
    assert m["paused"]["page"][1] == "Paused by the arbiter"
    assert m["warning"]["cue"] == "warning"
    assert m["after_moves"]["cue"] == "move"
    assert m["over"]["page"][0].startswith(("BLUE wins", "RED wins", "Draw"))
    assert m["over"]["clocks"][2] is False
    assert m["over"]["cue"] == "game_over"
