"""Debian's Chromium for the browser tests: where it is, how it is started, and the one browser
of the whole run (the ``browser`` fixture of tests/conftest.py).

One Playwright per process: its sync API refuses a second one while the first is open, so a
session fixture defined in two places (two conftests importing it), or a test that starts its
own, would fail whichever test came second in a worker. Every browser test takes the
``browser`` fixture (``browser_scope`` closes what a test opened); starting Chromium once per
worker instead of once per test also saves about a second of CPU a test.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, sync_playwright

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
SETTLED = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
"""``page.evaluate(SETTLED)`` after a resize: the page's own resize handlers have run and it was
laid out again (a layout test resizes one loaded page to each screen, as a window is)."""
ARTIFACTS = Path(__file__).resolve().parent / "artifacts" / "sim"


SCREENSHOTS = "DAMATH_SCREENSHOTS"
"""``DAMATH_SCREENSHOTS=1`` (or ``DAMATH_DOCS_IMAGES=1``, which refreshes docs/images/) makes
the browser tests save the screenshots their docstrings name, to look at; an ordinary run takes
none. Rendering a full page to PNG was most of the browser tests' CPU (the layout test's 156
pages: 267 s of 2 cores' time), and nobody looks at a CI run's pictures; what a test checks,
it checks in the page itself (boxes, texts, attributes), with or without the pictures."""


def screenshots_wanted() -> bool:
    return "1" in (os.environ.get(SCREENSHOTS), os.environ.get("DAMATH_DOCS_IMAGES"))


def _no_screenshots() -> None:
    """Page.screenshot and Locator.screenshot do nothing (and give no bytes) for this run."""

    def nothing(self: object, **_: object) -> bytes:
        return b""

    Page.screenshot = nothing  # type: ignore[method-assign,assignment]
    Locator.screenshot = nothing  # type: ignore[method-assign,assignment]


def _still_pages() -> None:
    """Every page opened with the reduced motion a child's settings may ask for: the board's
    blinking and pulsing squares (``prefers-reduced-motion``) stand still, so Chromium does not
    repaint them sixty times a second for the whole test. The squares' patterns stay in their
    classes, which is what the tests read; a test may still ask for motion."""
    new_context, new_page = Browser.new_context, Browser.new_page

    def still_context(self: Browser, **kw: Any) -> Any:
        kw.setdefault("reduced_motion", "reduce")
        return new_context(self, **kw)

    def still_page(self: Browser, **kw: Any) -> Any:
        kw.setdefault("reduced_motion", "reduce")
        return new_page(self, **kw)

    Browser.new_context = still_context  # type: ignore[method-assign]
    Browser.new_page = still_page  # type: ignore[method-assign]


def session_browser() -> Iterator[Browser]:
    """Debian's Chromium (never a downloaded browser), one for the whole run."""
    if not screenshots_wanted():
        _no_screenshots()
    _still_pages()
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


@contextmanager
def browser_scope(browser: Browser) -> Iterator[Browser]:
    """The run's browser lent to one test: every context (and so every page) the test opened
    is closed after it, as its own browser's close did when each test started one."""
    before = set(browser.contexts)
    try:
        yield browser
    finally:
        for context in browser.contexts:
            if context not in before:
                context.close()
