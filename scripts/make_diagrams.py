"""Draw the board pictures of the guides and the rules document into docs/images/*.svg.

Every picture is built from the rules engine (the opening of a variant, a legal move's path and
its score), so a picture cannot show a move the engine would refuse. Run it after changing a
picture: ``.venv/bin/python scripts/make_diagrams.py``; ``tests/test_docs.py`` checks that the
files in docs/images are what this script draws.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from controller.rules.damath_data import DAMA_SQUARES  # noqa: E402
from controller.rules.game import Game  # noqa: E402
from controller.rules.move import side_name  # noqa: E402
from controller.rules.notation import game_from_json  # noqa: E402
from controller.rules.scoring import score_move  # noqa: E402
from controller.scoresheet.typeset import typeset  # noqa: E402
from controller.view.diagram import Diagram, Piece, svg  # noqa: E402

IMAGES = ROOT / "docs" / "images"


def _pieces(game: Game) -> dict:
    return {
        sq: Piece(side_name(c.side), "" if c.value is None else str(c.value), c.dama)
        for sq, c in game.chips().items()
    }


def _position(pieces: list[tuple[tuple[int, int], str, str, bool]], to_move: str = "blue"):
    return game_from_json(
        {
            "variant": "integer",
            "to_move": to_move,
            "pieces": [
                {"square": list(sq), "side": side, "value": value, "dama": dama}
                for sq, side, value, dama in pieces
            ],
        }
    )


def _taking_text(game: Game, path) -> str:
    move = game.find_move(path)
    written = [
        t.expression if "=" in t.expression else f"{t.expression} = {t.text}"
        for t in score_move(move, "integer").takings
    ]
    return typeset(" · ".join(written))


def diagrams() -> dict[str, Diagram]:
    """Picture name -> what it shows."""
    out: dict[str, Diagram] = {}
    out["board"] = Diagram(
        caption="x counts the columns, y the rows;\nevery dark square carries a sign"
    )
    opening = Game.new("integer")
    out["opening-integer"] = Diagram(
        _pieces(opening), caption="Integer Damath set up: Blue at the bottom moves first"
    )
    moved = Game.new("integer")
    out["move"] = Diagram(
        _pieces(moved),
        path=((1, 2), (0, 3)),
        caption="Blue writes −9 (0, 3): one square, diagonally, forward",
    )
    manual = Game.new("integer")
    for path in ([(1, 2), (0, 3)], [(2, 5), (1, 4)]):
        manual.push(manual.find_move(path))
    taking = manual.find_move([(0, 3), (2, 5)])
    out["taking"] = Diagram(
        _pieces(manual),
        path=taking.path,
        taken=taking.captures,
        caption=f"Blue takes and writes {_taking_text(manual, [(0, 3), (2, 5)])}",
    )
    mayor = _position(
        [((1, 2), "blue", "5", False), ((2, 3), "red", "3", False), ((4, 5), "red", "2", False),
         ((5, 2), "blue", "7", False), ((6, 3), "red", "1", False), ((0, 7), "red", "9", False)]
    )  # fmt: skip
    (most,) = mayor.legal_moves()
    out["mayor"] = Diagram(
        _pieces(mayor),
        path=most.path,
        taken=most.captures,
        marks=[(5, 2)],
        caption="The 5 must take two chips (mayor dalawa):\nthe 7 may not take just one",
    )
    out["dama-squares"] = Diagram(
        marks=[*DAMA_SQUARES[0], *DAMA_SQUARES[1]],
        caption="Blue becomes dama on the top row, Red on the bottom row",
    )
    dama = _position(
        [((1, 0), "blue", "8", True), ((4, 3), "red", "-5", False), ((6, 7), "red", "2", False)]
    )
    far = dama.find_move([(1, 0), (7, 6)])
    out["dama-taking"] = Diagram(
        _pieces(dama),
        path=far.path,
        taken=far.captures,
        caption=f"A dama takes from afar and scores double:\n{_taking_text(dama, far.path)}",
    )
    return out


def main() -> int:
    IMAGES.mkdir(parents=True, exist_ok=True)
    for name, diagram in diagrams().items():
        (IMAGES / f"{name}.svg").write_text(svg(diagram), encoding="utf-8")
        print(f"docs/images/{name}.svg")
    return 0


if __name__ == "__main__":
    sys.exit(main())
