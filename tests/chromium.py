"""Debian's Chromium for the browser tests: where it is, how it is started, and the one browser
of the whole run (the ``browser`` fixture of tests/conftest.py).

One Playwright per process: its sync API refuses a second one while the first is open, so a
session fixture defined in two places (two conftests importing it) would start two and fail
whichever test came second.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

CHROMIUM = os.environ.get("DAMATH_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts" / "sim"


def session_browser() -> Iterator[Browser]:
    """Debian's Chromium (never a downloaded browser), one for the whole run."""
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} not found: the browser tests need Debian's chromium "
            "(apt-get install chromium; ./test.sh installs it)"
        )
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
