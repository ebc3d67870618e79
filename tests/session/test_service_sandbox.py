"""The service starts inside its own sandbox: `damath-board run` with the installed unit's
/proc, /dev, filesystem, user, capability and memory restrictions (tests/session/sandbox.py sets
them up from the unit file, as far as a machine without systemd allows; its device rules are
the kernel's device cgroup, as systemd's), with gpiozero's and Blinka's platform detection fed a
Raspberry Pi 4 and a Pi 5. Start-up must find what it reads, and a Pico plugged in after the
start must be reachable."""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.games.test_selftest_every_profile import SHIPPED as SHIPPED_PROFILES

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "damath-board.service"
PROFILE = ROOT / "hardware" / "pi-gpio.toml"


def drop_in_for(profile: Path) -> str:
    """What install.sh writes as devices.conf: ``python -m drivers.system --device-allow``."""
    return subprocess.run(
        [sys.executable, "-m", "drivers.system", str(profile), "--device-allow"],
        capture_output=True, text=True, cwd=ROOT, check=True,
    ).stdout  # fmt: skip


def sandboxed(
    tmp_path: Path,
    identity: str,
    unit_text: str,
    profile: Path = PROFILE,
    drop_in: str | None = None,
    harness: str = "StartupProbe",
    options: tuple[str, ...] = (),
    run_args: tuple[str, ...] = ("--exit-after", "1"),
) -> subprocess.Popen:
    """`damath-board run --profile PROFILE` started in the sandbox (``options`` for sandbox.py)."""
    if os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.fail("the sandbox needs root and util-linux's unshare (CI has both)")
    unit = tmp_path / "damath-board.service"
    unit.write_text(unit_text)
    drop_in = drop_in_for(profile) if drop_in is None else drop_in
    (tmp_path / "damath-board.service.d").mkdir()
    (tmp_path / "damath-board.service.d" / "devices.conf").write_text("[Service]\n" + drop_in)
    (tmp_path / "state").mkdir()
    exe = str(Path(sys.executable).with_name("damath-board"))
    env = dict(
        os.environ,
        DAMATH_BOARD_HARNESS=f"tests.drivers.harness:{harness}",
        PYTHONPATH=str(ROOT),
        GPIOZERO_PIN_FACTORY="mock",
    )
    env.pop("BLINKA_OS_AGNOSTIC", None)
    return subprocess.Popen(
        ["unshare", "--mount", "--pid", "--net", "--fork", sys.executable,
         str(Path(__file__).with_name("sandbox.py")), str(unit), str(tmp_path), identity,
         *options, "--", exe, "run", "--profile", str(profile), *run_args],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )  # fmt: skip


def finished(process: subprocess.Popen, tmp_path: Path) -> tuple[int, str]:
    """Its exit code and output; the device cgroup it made is removed."""
    try:
        out, _ = process.communicate(timeout=120)
    finally:
        process.kill()
        group = tmp_path / "devices-cgroup"
        if group.exists():
            Path(group.read_text()).rmdir()
    return process.returncode, out


def start_in_sandbox(tmp_path: Path, identity: str, unit_text: str) -> tuple[int, str, Path]:
    code, out = finished(sandboxed(tmp_path, identity, unit_text), tmp_path)
    return code, out, tmp_path / "state"


@pytest.mark.slow
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


@pytest.mark.slow
def test_proc_subset_pid_would_stop_the_service_at_start(tmp_path):
    """The defect this guards: ProcSubset=pid hides /proc/cpuinfo and /proc/device-tree."""
    text = UNIT.read_text().replace(
        "ProtectProc=invisible", "ProtectProc=invisible\nProcSubset=pid"
    )
    code, out, _state = start_in_sandbox(tmp_path, "pi5", text)
    assert code != 0
    assert "/proc/cpuinfo" in out or "unable to locate Pi revision" in out


PICO = ROOT / "hardware" / "pico.toml"
ACM_MAJOR = 166  # the cdc_acm driver's (Documentation/admin-guide/devices.txt): ttyACM0 is 166:0
PATH_GRANT = "".join(  # what install.sh wrote before: each node by its path
    f"DeviceAllow={path} rw\n"
    for path in ("/dev/gpiochip0", "/dev/gpiochip4", "/dev/i2c-1", "/dev/ttyACM0")
)


def plug_in_late(tmp_path: Path, drop_in: str | None, modules: str) -> dict:
    """`run` on pico.toml in the sandbox with no Pico; once its link has found no
    /dev/ttyACM0 (the harness says so on its output), the node appears in the service's
    /dev, as udev makes it when a Pico is plugged in; the link's next open tells what the
    service may do with it. ``modules``: the modules-load.d file loaded before the start."""
    dev = tmp_path / "dev"
    dev.mkdir()
    load = tmp_path / "modules-load.conf"
    load.write_text(modules)
    process = sandboxed(
        tmp_path, "pi5", UNIT.read_text(), PICO, drop_in, "LatePico",
        ("--dev", str(dev), "--modules-load", str(load)), (),
    )  # fmt: skip
    try:
        said = []
        for line in process.stdout:  # the sandboxed service's output, line by line as it comes
            said.append(line)
            if line.startswith("LatePico: no /dev/ttyACM0 yet"):
                break
        else:
            pytest.fail("the board ended before it looked for the Pico: " + "".join(said)[-3000:])
        os.mknod(dev / "ttyACM0", stat.S_IFCHR | 0o666, os.makedev(ACM_MAJOR, 0))
        os.chmod(dev / "ttyACM0", 0o666)  # the file's mode lets anyone: only the cgroup decides
    finally:
        code, out = finished(process, tmp_path)
    assert code == 0, out[-3000:]
    found: dict = json.loads((tmp_path / "state" / "pico.json").read_text())
    return found


def test_a_pico_plugged_in_after_the_start_is_reached_through_its_class_grant(tmp_path):
    """The drop-in install.sh writes (DeviceAllow=char-ttyACM) and the modules it loads at boot
    (cdc_acm): the node made after the start passes the device cgroup, so the open reaches
    the kernel's driver. This machine has no cdc_acm driver to answer, so that open ends in
    ENXIO; on a Pi it is the Pico's port (EPERM is what the cgroup answers)."""
    modules = subprocess.run(
        [sys.executable, "-c", "from drivers.profile import load_profile; from drivers.system "
         f"import modules; print(*modules(load_profile({str(PICO)!r})))"],
        capture_output=True, text=True, cwd=ROOT, check=True,
    ).stdout.split()  # fmt: skip
    assert "DeviceAllow=char-ttyACM rw" in drop_in_for(PICO) and "cdc_acm" in modules
    found = plug_in_late(tmp_path, None, "\n".join(modules) + "\n")
    assert found["attempts"][0] == "ENOENT"  # not plugged in at the start
    assert found["attempts"][-1] == "ENXIO", found  # let through, to a driver this machine lacks


def test_a_pico_plugged_in_after_the_start_stays_eperm_with_the_old_path_grant(tmp_path):
    """The defect: DeviceAllow=/dev/ttyACM0 is resolved when the unit starts and skipped while
    the node is missing, so the Pico plugged in later is refused until a restart; the board
    shows it as a problem (Devices.health())."""
    found = plug_in_late(tmp_path, PATH_GRANT, "i2c-dev\ncdc_acm\n")
    assert found["attempts"][0] == "ENOENT" and found["attempts"][-1] == "EPERM", found
    assert "co-processor port /dev/ttyACM0 cannot be opened" in found["problem"]
    assert "Operation not permitted" in found["problem"]


@pytest.mark.slow
def test_a_class_grant_whose_driver_is_not_loaded_at_the_start_matches_nothing(tmp_path):
    """Why install.sh loads cdc_acm at boot: char-ttyACM is resolved against /proc/devices when
    the unit starts, and without the module there is no ttyACM line to match."""
    found = plug_in_late(tmp_path, None, "i2c-dev\n")
    assert found["attempts"][-1] == "EPERM", found


SHIPPED = SHIPPED_PROFILES
"""Every profile the project ships, one for each game and each build."""


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


@pytest.mark.slow
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
