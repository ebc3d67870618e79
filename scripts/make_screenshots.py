"""Take the simulator's pictures for the guides (docs/images/*.png) in Debian's Chromium.

Starts the simulator in this process on a free port with a clock the script moves, plays a few
moves by clicks as a person would, and saves: the board page (a chip lifted, a taking's score
previewed, in a practice game), the class overview with three boards, and a projector view.
Run: ``.venv/bin/python scripts/make_screenshots.py`` (needs /usr/bin/chromium).
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import uvicorn  # noqa: E402
from playwright.sync_api import Page, expect, sync_playwright  # noqa: E402

from controller.cli.sim import bind  # noqa: E402
from controller.sim.guard import server_config  # noqa: E402
from controller.sim.server import create_app  # noqa: E402

IMAGES = ROOT / "docs" / "images"
CHROMIUM = "/usr/bin/chromium"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _click(page: Page, x: int, y: int) -> None:
    status = page.locator("#status")
    before = status.inner_text()
    page.locator(f'.sq[data-x="{x}"][data-y="{y}"]').click()
    expect(status).not_to_have_text(before)


def _play(page: Page, clock: Clock, moves, ply: int) -> None:
    for path in moves:
        for sq in path:
            _click(page, *sq)
        clock.now += 0.5
        ply += 1
        expect(page.locator("body")).to_have_attribute("data-ply", str(ply))


def _goto_board(page: Page, url: str) -> None:
    """A board's page; created first, as the arbiter does (opening an address never creates
    one: docs/security.md)."""
    page.goto(url)
    create = page.get_by_role("button", name="Create board")
    if create.count():
        create.click()
        page.wait_for_url(url)
    expect(page.locator("#link")).to_have_text("connected")


def _open(page: Page, url: str, clock: Clock, names: tuple[str, str] | None = None) -> None:
    _goto_board(page, url)
    if names:
        page.locator('#info-form input[name="blue"]').fill(names[0])
        page.locator('#info-form input[name="red"]').fill(names[1])
        page.locator("#save-info").click()
        expect(page.locator("#name-red")).to_contain_text(names[1])
    page.locator("#arrange").click()
    clock.now += 0.5
    expect(page.locator("body")).to_have_attribute("data-phase", "play")


def main() -> int:
    clock = Clock()
    state = Path(tempfile.mkdtemp(prefix="damath-shots-"))
    (state / "players.txt").write_text("Ana Cruz\nBen Reyes\nCara Lim\nDan Uy\nEla Santos\n")
    app = create_app(clock=clock, tick_seconds=0.02, state_dir=state)
    sock, _ = bind("127.0.0.1", 0)
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    server = uvicorn.Server(server_config(app))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    opening = [[(1, 2), (0, 3)], [(2, 5), (1, 4)]]  # the manual's first moves
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 820})
            _goto_board(page, f"{url}/board/1")
            page.locator("#open-new-game").click()
            page.locator("#kind-practice").check()
            page.locator("#practice-preview").check()
            page.locator("#new-game").click()
            _open(page, f"{url}/board/1", clock, ("Ana Cruz", "Ben Reyes"))
            _play(page, clock, opening, 0)
            _click(page, 0, 3)  # lift the taker: its landing square shows the score
            page.screenshot(path=str(IMAGES / "simulator.png"))

            other = browser.new_page(viewport={"width": 1280, "height": 820})
            _open(other, f"{url}/board/2", clock, ("Cara Lim", "Dan Uy"))
            _play(other, clock, [[(3, 2), (4, 3)]], 0)
            third = browser.new_page(viewport={"width": 1280, "height": 820})
            _open(third, f"{url}/board/3", clock, ("Ela Santos", ""))
            overview = browser.new_page(viewport={"width": 1280, "height": 560})
            overview.goto(f"{url}/class")
            expect(overview.locator(".card")).to_have_count(3)
            overview.screenshot(path=str(IMAGES / "class-overview.png"))

            room = browser.new_page(viewport={"width": 1600, "height": 900})
            room.goto(f"{url}/board/2/projector")
            expect(room.locator(".sq .chip")).to_have_count(24)
            room.screenshot(path=str(IMAGES / "projector.png"))
            browser.close()
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
    for name in ("simulator", "class-overview", "projector"):
        print(f"docs/images/{name}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
