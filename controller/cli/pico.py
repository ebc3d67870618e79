"""``damath-board pico release --profile …``: hand the Pico's USB port back to `mpremote`.

The firmware reads every byte on its USB port (Ctrl-C included), so `mpremote` cannot reach the
REPL while it runs. This asks it, over the link, to reboot once into the REPL (firmware/README.md,
"Updating it later"). Stop the service first: it holds the port.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=("release",), help="release: free the REPL, once")
    parser.add_argument("--profile", required=True, help="the board profile naming the link")
    parser.add_argument("--seconds", type=float, default=5.0, help="how long to wait for it")


def run(args: argparse.Namespace) -> int:
    from drivers.coprocessor import release
    from drivers.link import Link
    from drivers.profile import load_profile

    profile = load_profile(args.profile)
    if profile.link is None:
        raise ValueError(f"{args.profile}: no [link]: this board has no Pico")
    c = profile.link
    link = Link(c.port, c.baudrate, retry_ms=c.retry_ms, heartbeat_ms=c.heartbeat_ms)
    try:
        if not release(link, timeout=args.seconds):
            reason = link.status_log[-1][2] if link.status_log else "no answer"
            print(
                f"damath-board pico: the Pico on {c.port} did not answer ({reason}). Is the "
                "service stopped (sudo systemctl stop damath-board)? Otherwise fit the release "
                "jumper (GP22 to GND) and plug it in again.",
            )
            return 1
    finally:
        link.close()
    print(f"the Pico on {c.port} reboots into its REPL: update it with mpremote, then reset it")
    return 0
