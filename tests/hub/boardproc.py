"""A board in a process of its own (``python -m tests.hub.boardproc``), so a test can cut its
power (SIGKILL) and start it again: it resumes its game from the journal, plays the rest of the
bundled sample game at ``--speed``, stops the game, and keeps its link up until the hub has
acknowledged everything (then prints "done" and exits)."""

from __future__ import annotations

import argparse
import sys
import time

from controller.link.config import load
from controller.link.playback import PlaybackBoard, sample_game_moves
from controller.link.publisher import Link


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("folder")
    p.add_argument("conn")
    p.add_argument("--speed", type=float, default=20.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--moves", type=int, default=0, help="play only this many (0: all)")
    args = p.parse_args()
    link = Link(load(args.conn), args.folder, poll_seconds=0.1, resend_seconds=2.0).start()
    board = PlaybackBoard(args.folder, on_record=lambda _b, _n: link.nudge())
    moves = sample_game_moves()[1]
    if args.moves:
        moves = moves[: args.moves]
    print(f"resumed at ply {board.session.game.ply}", flush=True)
    board.play_moves(board.remaining(moves), seed=args.seed + board.session.game.ply,
                     speed=args.speed)  # fmt: skip
    if not args.moves:
        board.stop_game()
    deadline = time.monotonic() + 120
    while link.status().unacked and time.monotonic() < deadline:
        time.sleep(0.1)
    board.close()
    link.stop()
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
