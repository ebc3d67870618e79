"""``damath-board run`` itself, on each shipped profile, through the test hook: one whole game
played on the board gives the same scoresheet everywhere. On pi-gpio the real drivers run on
gpiozero's mock pins (the simulated matrix, a PWM-capable buzzer pin), a fake I2C bus with the
HT16K33 chips, a fake SPI bus under neopixel_spi and luma's dummy display; on pico the Pico's own
firmware runs under the MicroPython unix port behind a pty; sim is the mock devices."""

from __future__ import annotations

import csv
import json
import os
import random
import re
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from controller.rules.game import Game
from controller.tracker.generator import human_trace, random_game
from drivers.leds import LedStrip, MockLedWriter
from drivers.profile import load_profile

ROOT = Path(__file__).resolve().parents[2]
EXE = str(ROOT / ".venv" / "bin" / "damath-board")
SEED = 21


def write_trace(path: Path) -> Path:
    game = Game.new("integer")
    moves = random_game(game, 400, random.Random(SEED))
    path.write_text("\n".join(human_trace(game, moves, random.Random(SEED + 1000))) + "\n")
    return path


def pico_profile(tmp_path: Path) -> Path:
    """pico.toml with its port on the harness's pty; the Pi's link timeout is generous because
    the board's clock is virtual (it runs far ahead of the Pico's real heartbeats), and so is its
    write timeout: on a loaded machine the MicroPython process may not be scheduled to read the
    pty for longer than a real Pico ever leaves its USB port unread."""
    text = (ROOT / "hardware" / "pico.toml").read_text()
    text = text.replace('port = "/dev/ttyACM0"', 'port = "virtual-pico"')
    text = text.replace("\ntimeout_ms = 3000", "\ntimeout_ms = 100000000")
    text = text.replace("write_timeout_ms = 500", "write_timeout_ms = 120000")
    path = tmp_path / "pico.toml"
    path.write_text(text)
    return path


def play(tmp_path: Path, name: str, profile: Path, trace: Path) -> dict:
    out = tmp_path / name
    env = dict(os.environ)
    env.update(
        DAMATH_BOARD_HARNESS="tests.drivers.harness:TracePlayer",
        DAMATH_TEST_TRACE=str(trace),
        DAMATH_TEST_OUT=str(out),
        GPIOZERO_PIN_FACTORY="mock",  # nothing may reach for real pins
        BLINKA_OS_AGNOSTIC="1",
        PYTHONPATH=str(ROOT),
    )
    result = subprocess.run(
        [EXE, "run", "--profile", str(profile), "--state-dir", str(out / "state")],
        capture_output=True, text=True, timeout=300, env=env, cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    games = sorted((out / "state" / "games").glob("*.csv"))
    assert len(games) == 1, (result.stderr[-2000:], list((out / "state").rglob("*")))
    with games[0].open() as f:
        sheet = list(csv.reader(f))
    pdn = next((out / "state" / "games").glob("*.pdn")).read_text()
    found = json.loads((out / "result.json").read_text())
    return {
        "sheet": sheet,
        "pdn": pdn,
        "result": found,
        "picture": Image.open(out / "scoresheet.png"),
        "stderr": result.stderr,
    }


@pytest.fixture(scope="module")
def sim_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("sim")
    return play(tmp, "sim", ROOT / "hardware" / "sim.toml", write_trace(tmp / "game.jsonl"))


def moves_of(pdn: str) -> list[str]:
    """The PDN's moves, without the clock comments (a debounce of 3 scans commits each move
    10 ms later than the simulator's 1 scan, so the clocks may differ by a tick)."""
    import re

    body = pdn.split("\n\n", 1)[1]
    return re.sub(r"\{[^}]*\}", "", body).split()


def colours(led_hex: str, profile_path: Path) -> dict:
    """Square -> (r, g, b) as the chain of this profile carries it."""
    leds = load_profile(profile_path).leds
    data = bytes.fromhex(led_hex)
    out = {}
    for square, (i, *_rest) in leds.mapping.items():
        wire = dict(zip(leds.order, data[3 * i : 3 * i + 3], strict=True))
        out[square] = (wire["R"], wire["G"], wire["B"])
    return out


def same_leds(run: dict, sim: dict, profile_path: Path) -> bool:
    """The same colour on every square, once this profile's chain order and brightness ceiling
    are applied to what the simulator showed."""
    leds = load_profile(profile_path).leds
    strip = LedStrip(
        MockLedWriter(), leds.mapping, leds.count, leds.order, leds.supply_amps,
        leds.ma_per_led, leds.max_brightness,
    )  # fmt: skip
    wanted = strip.encode(colours(sim["result"]["leds"], ROOT / "hardware" / "sim.toml"))
    return run["result"]["leds"] == wanted.hex()


def assert_same_game(run: dict, sim: dict, profile_path: Path) -> None:
    assert run["result"]["unplayed"] == 0
    assert run["sheet"][1:] == sim["sheet"][1:]  # every move, taking and score
    assert moves_of(run["pdn"]) == moves_of(sim["pdn"])
    assert run["result"]["page"] == sim["result"]["page"]
    assert run["result"]["page"][0].startswith(("BLUE wins", "RED wins", "Draw"))
    difference = ImageChops.difference(run["picture"].convert("1"), sim["picture"].convert("1"))
    assert difference.getbbox() is None  # the display shows the same picture, pixel for pixel
    assert same_leds(run, sim, profile_path)  # the LEDs: the same colours, this chain's bytes


@pytest.mark.slow
def test_a_whole_game_on_the_real_drivers_over_mock_pins(sim_run, tmp_path):
    profile = ROOT / "hardware" / "pi-gpio.toml"
    run = play(tmp_path, "pi-gpio", profile, write_trace(tmp_path / "g"))
    assert_same_game(run, sim_run, profile)
    # the service's limits leave room: at most half of MemoryMax and of TasksMax in a game
    unit = (ROOT / "systemd" / "damath-board.service").read_text()
    memory_max = int(re.search(r"^MemoryMax=(\d+)M$", unit, re.M).group(1)) * 1024
    tasks_max = int(re.search(r"^TasksMax=(\d+)$", unit, re.M).group(1))
    print(f"peak RSS {run['result']['peak_rss_kb']} kB, {run['result']['threads']} threads")
    assert run["result"]["peak_rss_kb"] < memory_max / 2
    assert run["result"]["threads"] < tasks_max / 2


@pytest.mark.slow
def test_a_whole_game_on_hall_sensors_behind_two_expanders(sim_run, tmp_path):
    profile = ROOT / "hardware" / "pi-hall.toml"
    run = play(tmp_path, "pi-hall", profile, write_trace(tmp_path / "g"))
    assert_same_game(run, sim_run, profile)


@pytest.mark.slow
def test_a_whole_game_through_the_pico_firmware_over_a_pty(sim_run, tmp_path):
    profile = pico_profile(tmp_path)
    run = play(tmp_path, "pico", profile, write_trace(tmp_path / "g"))
    assert_same_game(run, sim_run, profile)
