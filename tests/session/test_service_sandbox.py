"""The service starts inside its own sandbox: `damath-board run` with the installed unit's
/proc, /dev, filesystem, user, capability and memory restrictions (tests/session/sandbox.py sets
them up from the unit file, as far as a machine without systemd allows), with gpiozero's and
Blinka's platform detection fed a Raspberry Pi 4 and a Pi 5. Start-up must find what it reads."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "damath-board.service"
PROFILE = ROOT / "hardware" / "pi-gpio.toml"


def start_in_sandbox(tmp_path: Path, identity: str, unit_text: str) -> tuple[int, str, Path]:
    if os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.fail("the sandbox needs root and util-linux's unshare (CI has both)")
    unit = tmp_path / "damath-board.service"
    unit.write_text(unit_text)
    drop_in = subprocess.run(
        [sys.executable, "-m", "drivers.system", str(PROFILE), "--device-allow"],
        capture_output=True, text=True, cwd=ROOT, check=True,
    ).stdout  # fmt: skip
    (tmp_path / "damath-board.service.d").mkdir()
    (tmp_path / "damath-board.service.d" / "devices.conf").write_text("[Service]\n" + drop_in)
    (tmp_path / "state").mkdir()
    exe = str(Path(sys.executable).with_name("damath-board"))
    env = dict(
        os.environ,
        DAMATH_BOARD_HARNESS="tests.drivers.harness:StartupProbe",
        PYTHONPATH=str(ROOT),
        GPIOZERO_PIN_FACTORY="mock",
    )
    env.pop("BLINKA_OS_AGNOSTIC", None)
    result = subprocess.run(
        ["unshare", "--mount", "--pid", "--net", "--fork", sys.executable,
         str(Path(__file__).with_name("sandbox.py")), str(unit), str(tmp_path), identity, "--",
         exe, "run", "--profile", str(PROFILE), "--exit-after", "1"],
        capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    return result.returncode, result.stdout + result.stderr, tmp_path / "state"


@pytest.mark.parametrize(
    ("identity", "revision", "blinka"),
    [("pi4", "c03114", "RASPBERRY_PI_4B"), ("pi5", "d04170", "RASPBERRY_PI_5")],
)
def test_the_service_starts_in_its_sandbox_on_a_pi(tmp_path, identity, revision, blinka):
    code, out, state = start_in_sandbox(tmp_path, identity, UNIT.read_text())
    assert code == 0, out[-3000:]
    found = json.loads((state / "identity.json").read_text())
    assert found["gpiozero_revision"] == revision
    assert found["blinka_board"] == blinka and found["blinka_has_mosi"]
    assert (state / "journal.jsonl").exists()  # the state directory is written, as the user
    assert oct((state / "journal.jsonl").stat().st_mode & 0o777) == "0o600"  # UMask=0077


def test_proc_subset_pid_would_stop_the_service_at_start(tmp_path):
    """The defect this guards: ProcSubset=pid hides /proc/cpuinfo and /proc/device-tree."""
    text = UNIT.read_text().replace(
        "ProtectProc=invisible", "ProtectProc=invisible\nProcSubset=pid"
    )
    code, out, _state = start_in_sandbox(tmp_path, "pi5", text)
    assert code != 0
    assert "/proc/cpuinfo" in out or "unable to locate Pi revision" in out


SHIPPED = ("pi-gpio", "pi-hall", "pico", "dam-pico", "mathchess-pico", "english-gpio")
"""Every profile the project ships, one for each game and each build."""


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_profile_runs_as_the_service_ready_fed_and_stopped(tmp_path, name):
    """The service as systemd runs it, for each game's board: READY once the board is ready,
    WATCHDOG=1 every half WATCHDOG_USEC from the scan loop, SIGTERM ends the run cleanly
    (STOPPING, exit 0, the game's journal written as the service's user)."""
    import socket
    import time

    if os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.fail("the sandbox needs root and util-linux's unshare (CI has both)")
    profile = ROOT / "hardware" / f"{name}.toml"
    unit = tmp_path / "damath-board.service"
    unit.write_text(UNIT.read_text())
    drop_in = subprocess.run(
        [sys.executable, "-m", "drivers.system", str(profile), "--device-allow"],
        capture_output=True, text=True, cwd=ROOT, check=True,
    ).stdout  # fmt: skip
    (tmp_path / "damath-board.service.d").mkdir()
    (tmp_path / "damath-board.service.d" / "devices.conf").write_text("[Service]\n" + drop_in)
    state = tmp_path / "state"
    state.mkdir()
    listen = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listen.bind(str(state / "notify"))
    os.chmod(state / "notify", 0o777)
    listen.settimeout(1.0)
    exe = str(Path(sys.executable).with_name("damath-board"))
    env = dict(
        os.environ,
        DAMATH_BOARD_HARNESS="tests.drivers.harness:StartupProbe",
        PYTHONPATH=str(ROOT),
        GPIOZERO_PIN_FACTORY="mock",
        NOTIFY_SOCKET="/var/lib/damath-board/notify",
        WATCHDOG_USEC="200000",
    )
    env.pop("BLINKA_OS_AGNOSTIC", None)
    proc = subprocess.Popen(
        ["unshare", "--mount", "--pid", "--net", "--fork", sys.executable,
         str(Path(__file__).with_name("sandbox.py")), str(unit), str(tmp_path), "pi5", "--",
         exe, "run", "--profile", str(profile)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )  # fmt: skip
    messages: list[str] = []
    deadline = time.monotonic() + 120  # a bound for a hung start, never a pace
    try:
        while messages.count("WATCHDOG=1") < 2:
            assert proc.poll() is None, proc.communicate()[0][-3000:]
            assert time.monotonic() < deadline, messages
            try:
                messages.append(listen.recv(4096).decode())
            except TimeoutError:
                continue
        assert messages[0] == "READY=1", messages
        service = [p for c in _children(proc.pid) for p in [c, *_children(c)]]
        assert service, "the service's process"
        os.kill(service[0], signal.SIGTERM)
        out, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        listen.settimeout(0.2)
        try:
            while True:
                messages.append(listen.recv(4096).decode())
        except (TimeoutError, BlockingIOError):
            pass
        listen.close()
    assert proc.returncode == 0, out[-3000:]
    assert messages[-1] == "STOPPING=1", messages
    assert any(m.startswith(f"STATUS=board {name}:") for m in messages), messages
    assert (state / "journal.jsonl").stat().st_size > 0  # the game journaled, as the user
