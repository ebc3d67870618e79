"""Writes controller/data/sample_game.json: a complete, legal integer game for the demo.

Both players take greedily (the best score for the mover this move), otherwise move at random
from a fixed seed; the file records each move's path, so the demo replays it through the engine.
Run: .venv/bin/python scripts/make_sample_game.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from controller.rules.game import Game
from controller.rules.scoring import score_move


def play(variant: str = "integer", seed: int = 2026, limit: int = 200) -> list[list[list[int]]]:
    rng = random.Random(seed)
    game = Game.new(variant)
    paths = []
    while not game.is_over() and game.ply < limit:
        moves = game.legal_moves()
        best = max(score_move(m, variant).value for m in moves)
        move = rng.choice([m for m in moves if score_move(m, variant).value == best])
        game.push(move)
        paths.append([list(sq) for sq in move.path])
    return paths


def main() -> None:
    data = {
        "variant": "integer",
        "profile": "official",
        "players": {
            "blue": {"name": "Maria Santos", "school": "Rizal High School", "grade": "Grade 8"},
            "red": {"name": "Jose Reyes", "school": "Rizal High School", "grade": "Grade 8"},
        },
        "moves": play(),
    }
    out = Path(__file__).resolve().parent.parent / "controller" / "data" / "sample_game.json"
    out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"{out}: {len(data['moves'])} moves")


if __name__ == "__main__":
    main()
