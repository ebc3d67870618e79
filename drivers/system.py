"""What a board profile needs from the Raspberry Pi it runs on, written down once.

- ``device_nodes(profile)``: the /dev entries its backends open, each with what uses it and the
  fix when it is missing (the selftest names them);
- ``device_allow(profile)``: the service's ``DeviceAllow=`` lines, by device class
  (``char-ttyACM``, ``char-gpiochip``, ``char-i2c``, ``char-spi``: the driver's name in
  /proc/devices) wherever the node is known: systemd resolves a path to its device number once,
  when the unit starts, and skips a node that is not there yet, so a Pico plugged in (or
  enumerated) after the start would stay EPERM until a restart; a class is every minor of the
  driver's major, present or to come;
- ``boot_config(profile)``: the lines /boot/firmware/config.txt needs (SPI with the chip-selects
  the profile leaves to the kernel, I2C at 400 kHz, the header UART: on a Pi 4 with Bluetooth
  off, ``dtoverlay=disable-bt``, since its ttyAMA0 is otherwise the Bluetooth chip's;
  ``core_freq_min=500`` under ``[pi4]`` so the LED chain's SPI clock holds still), kept in one
  marked block, so running the installer again changes nothing;
- ``without_serial_console(cmdline)``: the kernel command line without ``console=serial0,…``
  when the header UART carries the link (the serial login would answer on its pins);
- ``modules(profile)``: kernel modules to load at boot: ``i2c-dev``, ``spidev``, ``cdc_acm``
  (the Pico's USB serial): a class grant matches the drivers /proc/devices lists when the unit
  starts, so each driver is loaded before it, not when the device first appears.

``python -m drivers.system PROFILE --config`` applies the block and the command line
(systemd/install.sh calls it), ``--device-allow`` prints the unit's drop-in of ``DeviceAllow=``
lines and ``--buses`` the header buses the profile uses.
"""

from __future__ import annotations

import argparse
import os
import re
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
CLASSES = {"gpiochip": "gpiochip", "i2c-": "i2c", "spidev": "spi", "ttyACM": "ttyACM",
           "ttyUSB": "ttyUSB", "ttyAMA": "ttyAMA", "ttyS": "ttyS"}  # fmt: skip
"""A device node's name (without its number) -> its driver's name in /proc/devices, which is
what systemd's ``DeviceAllow=char-NAME`` matches."""
CLASS_MODULES = {"i2c": "i2c-dev", "spi": "spidev", "ttyACM": "cdc_acm", "ttyUSB": "usbserial"}
"""The drivers that are modules on Raspberry Pi OS: loaded at boot (modules-load.d) so that
their class is in /proc/devices when the unit starts (gpiochip, ttyAMA and ttyS are built in)."""
SERIAL_CONSOLES = ("serial0", "ttyAMA0", "ttyS0")
"""Consoles on the header UART: cmdline.txt's ``console=serial0,115200`` starts a login there."""
SERIAL_GETTYS = ("serial-getty@ttyAMA0.service", "serial-getty@ttyS0.service")
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


def device_classes(path: str) -> tuple[str, ...]:
    """The /proc/devices names a node's driver may have (what ``char-NAME`` grants): one for a
    known node, ttyAMA or ttyS for the header UART's ``serial0`` (either, by the Pi's setup),
    ttyACM or ttyUSB for a ``/dev/serial/by-id`` link; none for a node not known here."""
    if path.startswith("/dev/serial/"):
        return ("ttyACM", "ttyUSB")
    name = os.path.basename(path)
    if name in ("serial0", "serial1"):
        return ("ttyAMA", "ttyS")
    found = re.fullmatch(r"(gpiochip|i2c-|spidev|ttyACM|ttyUSB|ttyAMA|ttyS)[0-9.]+", name)
    return (CLASSES[found.group(1)],) if found else ()


def device_allow(profile: BoardProfile) -> list[str]:
    """The unit's DeviceAllow= lines, read-write: the class of each node the profile opens (all
    of that driver's devices, present at the start or not), its path when its class is not
    known (granted only if it exists when the unit starts)."""
    lines: list[str] = []
    for node in device_nodes(profile):
        for path in node.any_of or (node.path,):
            for line in [f"DeviceAllow=char-{c} rw" for c in device_classes(path)] or [
                f"DeviceAllow={path} rw"
            ]:
                if line not in lines:
                    lines.append(line)
    return lines


def boot_config(profile: BoardProfile) -> list[str]:
    lines: list[str] = []
    if profile.uses("i2c"):
        lines += ["dtparam=i2c_arm=on", "dtparam=i2c_arm_baudrate=400000"]
    if profile.uses("spi"):
        lines.append("dtoverlay=spi0-1cs" if profile.spi_chip_selects == 1 else "dtparam=spi=on")
    if profile.uses("uart"):
        # Pi 4: ttyAMA0 (the PL011) is the Bluetooth chip's and GPIO14/15 get the mini UART
        # (ttyS0, clocked by the core); disable-bt gives the PL011 back to GPIO14/15.
        lines += ["enable_uart=1", "[pi4]", "dtoverlay=disable-bt"]
        lines += ["[pi5]", "dtoverlay=uart0-pi5", "[all]"]
    if profile.uses("spi") and profile.leds.backend == "neopixel-spi":
        lines += ["[pi4]", "core_freq_min=500", "[all]"]
    return lines


def without_serial_console(cmdline: str) -> tuple[str, list[str]]:
    """cmdline.txt without its consoles on the header UART, and the words taken out (none: the
    text is returned unchanged). It stays one line."""
    words = cmdline.split()
    gone = [w for w in words if w.startswith("console=") and w[8:].split(",")[0] in SERIAL_CONSOLES]
    if not gone:
        return cmdline, []
    return " ".join(w for w in words if w not in gone) + "\n", gone


def modules(profile: BoardProfile) -> list[str]:
    """The kernel modules to load at boot, before the service starts: i2c-dev for /dev/i2c-1,
    and the driver of every device class the unit is granted that is a module."""
    wanted = ["i2c-dev"] if profile.uses("i2c") else []
    for line in device_allow(profile):
        name = line.removeprefix("DeviceAllow=char-").removesuffix(" rw")
        module = CLASS_MODULES.get(name)
        if module is not None and module not in wanted:
            wanted.append(module)
    return wanted


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
    parser.add_argument("--buses", action="store_true", help="print the header buses it uses")
    args = parser.parse_args(argv)
    try:
        profile = load_profile(args.profile)
    except ProfileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.device_allow:
        print("\n".join(device_allow(profile)))
    if args.buses:
        print(" ".join(bus for bus in ("i2c", "spi", "uart") if profile.uses(bus)))
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
            if profile.uses("uart"):
                print(
                    f"{path}: the header UART (GPIO14/15, /dev/ttyAMA0) carries the link; on a "
                    "Pi 4 Bluetooth is switched off for it (dtoverlay=disable-bt)"
                )
        else:
            print(f"{path}: already set for {profile.name}")
        if profile.uses("uart") and _serial_console_off(path.with_name("cmdline.txt")):
            return 2
    if args.modules:
        wanted = "".join(f"{m}\n" for m in modules(profile))
        target = Path(args.modules)
        if wanted:
            write_atomic(target, wanted)
        elif target.exists():
            target.unlink()
    return 0


def _serial_console_off(cmdline: Path) -> bool:
    """Take the serial console off the kernel command line, atomically; True when it failed."""
    if not cmdline.exists():
        print(f"{cmdline}: not found: make sure no console=serial0 is on the kernel command line")
        return False
    before = cmdline.read_text()
    after, gone = without_serial_console(before)
    if not gone:
        print(f"{cmdline}: no serial console on the header UART")
        return False
    try:
        write_atomic(cmdline, after)
    except OSError as exc:
        print(f"error: {cmdline} left as it was: {exc}", file=sys.stderr)
        return True
    print(
        f"{cmdline}: the serial console ({' '.join(gone)}) removed: the header UART carries "
        "the link; reboot for it to take effect"
    )
    return False


if __name__ == "__main__":
    sys.exit(main())
