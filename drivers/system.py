"""What a board profile needs from the Raspberry Pi it runs on, written down once.

- ``device_nodes(profile)``: the /dev entries its backends open, each with what uses it and the
  fix when it is missing (the selftest names them; the service is allowed exactly these);
- ``boot_config(profile)``: the lines /boot/firmware/config.txt needs (SPI with the chip-selects
  the profile leaves to the kernel, I2C at 400 kHz, the header UART; ``core_freq_min=500`` under
  ``[pi4]`` so the LED chain's SPI clock holds still), kept in one marked block, so running the
  installer again changes nothing;
- ``modules(profile)``: kernel modules to load at boot (``i2c-dev`` for /dev/i2c-1).

``python -m drivers.system PROFILE --config FILE`` applies the block (systemd/install.sh calls it)
and ``--device-allow`` prints the unit's drop-in of ``DeviceAllow=`` lines.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from drivers.profile import UART_PORTS, BoardProfile, ProfileError, load_profile

BEGIN = "# >>> damath-board (systemd/install.sh): do not edit inside this block"
END = "# <<< damath-board"
INSTALL = "sudo systemd/install.sh PROFILE"
REBOOT = "then reboot"
GPIO_CHIPS = ("/dev/gpiochip0", "/dev/gpiochip4")  # Pi 4 and Pi 5; early Pi 5 kernels: 4
PIN_USERS = {
    "sensors": "the sensor matrix",
    "buzzer": "the buzzer",
    "buttons.pins": "the arbiter's buttons",
    "scoresheet": "the display's control pins",
}


@dataclass(frozen=True)
class Node:
    path: str
    used_by: str
    fix: str
    any_of: tuple[str, ...] = ()  # present if any of these exists (GPIO chips)


def device_nodes(profile: BoardProfile) -> list[Node]:
    nodes: list[Node] = []
    sections = sorted({c.user[1:].split("]")[0] for c in profile.claims if c.user[0] == "["})
    if sections:
        nodes.append(
            Node(
                "/dev/gpiochip0",
                "GPIO: " + ", ".join(PIN_USERS.get(s, s) for s in sections),
                "no GPIO chip: this is not a Raspberry Pi, or its kernel is too old",
                GPIO_CHIPS,
            )
        )
    if profile.uses("i2c"):
        sda = next(c.user for c in profile.claims if c.user.startswith("I2C1 SDA"))
        nodes.append(
            Node(
                "/dev/i2c-1",
                "I2C: " + sda.split(", ", 1)[1].rstrip(")"),
                f"I2C is off: {INSTALL} turns it on (dtparam=i2c_arm=on and i2c-dev), {REBOOT}",
            )
        )
    if profile.uses("spi"):
        overlay = "dtoverlay=spi0-1cs" if profile.spi_chip_selects == 1 else "dtparam=spi=on"
        nodes.append(
            Node(
                "/dev/spidev0.0",
                "SPI0: " + ("the LED chain" if profile.leds.backend == "neopixel-spi" else
                            "the scoresheet display"),
                f"SPI is off: {INSTALL} turns it on ({overlay}), {REBOOT}",
            )
        )  # fmt: skip
    ports = []
    if profile.link is not None:
        ports.append((profile.link.port, "the link to the Pico"))
    if profile.scoresheet.backend == "serial":
        ports.append((profile.scoresheet.port, "the serial scoresheet"))
    for port, user in ports:
        if not port.startswith("/dev/"):
            continue
        if port in UART_PORTS:
            fix = f"the header UART is off: {INSTALL} turns it on, {REBOOT}"
        else:
            fix = "not plugged in? Check the USB cable; `ls /dev/ttyACM*` lists the ports"
        nodes.append(Node(port, user, fix))
    return nodes


def missing(
    profile: BoardProfile, exists: Callable[[str], bool] = lambda p: Path(p).exists()
) -> list[Node]:
    """The device nodes this Pi lacks for the profile (each with its fix)."""
    return [n for n in device_nodes(profile) if not any(exists(p) for p in n.any_of or (n.path,))]


def device_allow(profile: BoardProfile) -> list[str]:
    """The unit's DeviceAllow= lines: exactly the nodes the profile opens, read-write."""
    lines = []
    for node in device_nodes(profile):
        for path in node.any_of or (node.path,):
            lines.append(f"DeviceAllow={path} rw")
    return lines


def boot_config(profile: BoardProfile) -> list[str]:
    lines: list[str] = []
    if profile.uses("i2c"):
        lines += ["dtparam=i2c_arm=on", "dtparam=i2c_arm_baudrate=400000"]
    if profile.uses("spi"):
        lines.append("dtoverlay=spi0-1cs" if profile.spi_chip_selects == 1 else "dtparam=spi=on")
    if profile.uses("uart"):
        lines += ["enable_uart=1", "[pi5]", "dtoverlay=uart0-pi5", "[all]"]
    if profile.uses("spi") and profile.leds.backend == "neopixel-spi":
        lines += ["[pi4]", "core_freq_min=500", "[all]"]
    return lines


def modules(profile: BoardProfile) -> list[str]:
    return ["i2c-dev"] if profile.uses("i2c") else []


def apply_block(text: str, lines: list[str]) -> str:
    """config.txt with our block replaced (or added at the end, under [all])."""
    kept: list[str] = []
    inside = False
    for line in text.splitlines():
        if line.strip() == BEGIN:
            inside = True
        elif line.strip() == END and inside:
            inside = False
        elif not inside:
            kept.append(line)
    while kept and not kept[-1].strip():
        kept.pop()
    if not lines:
        return "\n".join(kept) + "\n" if kept else ""
    block = [BEGIN, "[all]", *lines, END]
    return "\n".join([*kept, "", *block]) + "\n"


def find_config(root: Path) -> Path:
    """Bookworm and later (Pi 4 and Pi 5): /boot/firmware/config.txt; older: /boot/config.txt."""
    for candidate in ("boot/firmware/config.txt", "boot/config.txt"):
        if (root / candidate).exists():
            return root / candidate
    raise FileNotFoundError(
        f"no config.txt under {root / 'boot/firmware'} or {root / 'boot'}: is this Raspberry Pi OS?"
    )


def write_atomic(path: Path, text: str) -> None:
    """Replace a file whole or not at all: a power cut while config.txt is half written leaves
    a Pi that does not boot, so the new text is written beside it, flushed, then renamed over."""
    tmp = path.with_name(path.name + ".damath-new")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    try:
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
    try:
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:  # some filesystems cannot open a directory: the rename is done anyway
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m drivers.system", description=__doc__)
    parser.add_argument("profile")
    parser.add_argument("--root", default="/", help="the Pi's root filesystem (tests: a folder)")
    parser.add_argument("--config", action="store_true", help="update config.txt")
    parser.add_argument("--modules", metavar="FILE", help="write the modules-load.d file")
    parser.add_argument("--device-allow", action="store_true", help="print DeviceAllow= lines")
    args = parser.parse_args(argv)
    try:
        profile = load_profile(args.profile)
    except ProfileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.device_allow:
        print("\n".join(device_allow(profile)))
    if args.config:
        try:
            path = find_config(Path(args.root))
        except FileNotFoundError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        before = path.read_text()
        after = apply_block(before, boot_config(profile))
        if after != before:
            try:
                write_atomic(path, after)
            except OSError as exc:
                print(f"error: {path} left as it was: {exc}", file=sys.stderr)
                return 2
            print(f"{path}: updated for {profile.name}; reboot for it to take effect")
        else:
            print(f"{path}: already set for {profile.name}")
    if args.modules:
        wanted = "".join(f"{m}\n" for m in modules(profile))
        target = Path(args.modules)
        if wanted:
            write_atomic(target, wanted)
        elif target.exists():
            target.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
