"""A whole game through the emulated Pico (tests/emulator/): from the start position until the
rules engine ends it, every ply made by hand on the emulated switch matrix (the man lifted, put
down, its captures taken), read by the Pi's real link, devices, scan loop, tracker and session,
and every frame on the emulated WS2812 pin decoded and checked against the WS2812B's times
(``tests.emulator.boards.check_waveform``); no frame rejected, no reset.

The tests play a few plies of each board (each emulated second costs some 30 real ones); this
plays the whole game once. The moves: the engine's first legal move (``--seed`` N: a seeded
random one) among those the board reads without asking which (``boards.readable``). A ply
costs what the tracker needs: the lift read (a few scans), then the move's squares held still
for its settle time (0.25 s) before it commits.

    nice -n 10 .venv/bin/python bench/emulated_whole_game.py [--game damath|dam] [--seed N]
        [--max-plies 200] [--json FILE]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from firmware import config  # noqa: E402
from firmware.boards import dam12  # noqa: E402
from tests.emulator.boards import (  # noqa: E402
    Board,
    check_waveform,
    damath_matrix,
    dark,
    kept_image,
    last_picture_lit,
    make_ply,
    readable,
    set_out,
)

# --game: (flash image, the Pi's profile, the board's config, square -> matrix point)
BOARDS = {
    "damath": ("damath", "pico.toml", config, damath_matrix),
    "dam": ("dam12", "dam-pico.toml", dam12, dark(12, 6)),
}


class HeardBoard(Board):
    """The board, keeping every heartbeat the Pico sends (the scanner keeps only its last 10):
    (uptime ms, scans since the one before)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.beats: list[tuple[int, int]] = []

    def step(self) -> None:
        super().step()
        last = self.beats[-1][0] if self.beats else -1
        self.beats += [b for b in self.devices.sensors.heartbeats if b[0] > last]


def slowest(beats: list[tuple[int, int]]) -> tuple[float, float]:
    """The fewest scans a second over one heartbeat's interval, and that interval's mean pass
    in ms (the first beat counts from boot, so it is left out)."""
    pairs = itertools.pairwise(beats[1:])
    rates = [(n * 1000 / (t2 - t1), (t2 - t1) / n) for (t1, _), (t2, n) in pairs if n]
    return min(rates) if rates else (0.0, 0.0)


def pictures(frames: list[bytes]) -> list[bytes]:
    """The frames with each run of the same picture as one (the Pi sends a picture again after
    a lost ACK, the chain shows it again)."""
    return [f for i, f in enumerate(frames) if i == 0 or f != frames[i - 1]]


def play(name: str, seed: int | None, cap: int) -> dict[str, Any]:
    image_name, profile, board_config, matrix = BOARDS[name]
    rng = random.Random(seed) if seed is not None else None
    began = time.monotonic()
    master, slave = os.openpty()
    with tempfile.TemporaryDirectory() as tmp:
        image = kept_image(image_name, Path(tmp))
        board = HeardBoard(image, master, os.ttyname(slave), profile, board_config, matrix)
        try:
            game = set_out(board, name)
            session = game.session  # type: ignore[attr-defined]
            started, real_started = board.pico.now, time.monotonic()
            worst_ply = 0.0
            while game.finished() is None and session.game.ply < cap:
                moves = readable(session.game.legal_moves())
                move = moves[0] if rng is None else rng.choice(moves)
                t = board.pico.now
                make_ply(board, game, move)
                worst_ply = max(worst_ply, board.pico.now - t)
            last_picture_lit(board)
            check_waveform(board.pico.frames, board.sent, board.profile.leds.count)
            assert board.link.frames_rejected == 0, f"{board.link.frames_rejected} rejected"
            assert not board.pico.resets, board.pico.resets
            summary = game.summary(board.pico.now)
            rate, mean_pass = slowest(board.beats)
            ending = session.game.ending()
            beats = board.beats[1:]  # the first counts from boot
            scans = sum(n for _, n in beats[1:])
            span = (beats[-1][0] - beats[0][0]) / 1000 if len(beats) > 1 else 0.0
            sent, lit = pictures(board.sent), pictures([f.data for f in board.pico.frames])
            return {
                "game": name,
                "policy": "first legal" if seed is None else f"random, seed {seed}",
                "plies": session.game.ply,
                "over": game.finished() is not None,
                "cap_hit": game.finished() is None,
                "ending": "" if ending is None else ending.reason.value,
                "result": summary.get("result", ""),
                "totals": summary.get("totals", {}),
                "emulated_s": round(board.pico.now - started, 3),
                "emulated_s_with_setup": round(board.pico.now, 3),
                "real_s": round(time.monotonic() - real_started, 1),
                "real_s_with_setup": round(time.monotonic() - began, 1),
                "worst_ply_s": round(worst_ply, 3),
                "frames_sent": len(sent),
                "link_sends": len(board.sent),
                "link_retries": board.link.endpoint.retries,
                "frames_checked": len(board.pico.frames),
                "pictures_lit": len(lit),
                "sent_never_lit": len(sent) - len(lit),
                "frames_rejected": board.link.frames_rejected,
                "resets": len(board.pico.resets),
                "heartbeats": len(board.beats),
                "scans_a_second": round(scans / span) if span else 0,
                "slowest_scans_a_second": round(rate),
                "slowest_mean_pass_ms": round(mean_pass, 3),
            }
        finally:
            board.close()
            os.close(master)
            os.close(slave)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(BOARDS), default="damath")
    parser.add_argument("--seed", type=int, default=None, help="random moves (else the first)")
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--json", type=Path, default=None, help="write the figures here too")
    args = parser.parse_args()
    try:
        figures = play(args.game, args.seed, args.max_plies)
    except AssertionError as error:
        print(f"emulated_whole_game: FAILED: {error}", file=sys.stderr)
        return 1
    for key, value in figures.items():
        print(f"{key}: {value}")
    if figures["cap_hit"]:
        print(f"the game was not over after {args.max_plies} plies (--max-plies)")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, ensure_ascii=False, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
