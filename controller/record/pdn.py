"""A finished (or running) Damath game as PDN with Damath tags (its scoresheet as CSV and as a
printable page is the scoresheet package's; the keeper writes them, controller/games/keeper.py).

PDN: squares are written as the project's ``(x,y)`` coordinates joined by ``-`` (a move) or
``x`` (a taking), because Damath has no standard square numbering; the tags say so
(``[Notation "damath-xy"]``). Chip values and the scores travel as tags and move comments.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from controller.rules import pdn_text
from controller.rules.game import Game
from controller.rules.move import side_name
from controller.rules.notation import game_to_json
from controller.rules.scoring import score_move

from .outcome import Outcome


def _square(sq: Sequence[int]) -> str:
    return f"{sq[0]},{sq[1]}"


def _info_tags(info: Mapping[str, str]) -> dict[str, str]:
    """Players and event as tags: the PDN names (Event, Date as YYYY.MM.DD, Round) and, for
    the sides, Damath's own names (Blue, Red) with their schools and grades."""
    tags = {
        "Event": info.get("event") or "Damath",
        "Date": (info.get("date") or "????-??-??").replace("-", "."),
        "Round": info.get("round") or "-",
        "Board": info.get("table", ""),
        "Blue": info.get("blue", ""),
        "Red": info.get("red", ""),
        "BlueSchool": info.get("blue_school", ""),
        "RedSchool": info.get("red_school", ""),
        "BlueGrade": info.get("blue_grade", ""),
        "RedGrade": info.get("red_grade", ""),
    }
    keep = ("Event", "Date", "Round", "Blue", "Red")
    return {k: v for k, v in tags.items() if v or k in keep}


def pdn(
    game: Game,
    start: Game,
    outcome: Outcome | None,
    clocks: list[tuple[float, float]] | None = None,
    info: Mapping[str, str] | None = None,
) -> str:
    """The game in PDN; ``start`` is the position it started from (for the FEN-like tag);
    ``clocks`` per move (game clock left after it, seconds it took) become ``[%clk h:mm:ss]``
    and ``[%emt h:mm:ss]`` in the move's comment, the conventions other game records use;
    ``info`` (players and event, ``record/info.py``) the header's tags."""
    variant = game.variant or ""
    result = "*"
    tags = {
        **_info_tags(info or {}),
        "GameType": "Damath",
        "Variant": variant,
        "Rules": game.profile.name if game.profile else "",
        "Notation": "damath-xy",
        "Setup": "1",
        "Position": _position_tag(start),
    }
    if outcome is not None:
        sides = outcome.sheet.game.sides
        result = {None: "1/2-1/2", 0: "1-0", 1: "0-1"}[outcome.winner]
        tags.update(
            {
                "Termination": outcome.reason,
                "BlueTotal": sides[0].total_text,
                "RedTotal": sides[1].total_text,
                "BlueRC": sides[0].remaining.text,
                "RedRC": sides[1].remaining.text,
                "BlueGrandTotal": sides[0].grand_text,
                "RedGrandTotal": sides[1].grand_text,
            }
        )
    tags["Result"] = result
    body: list[str] = []
    for i, (side, move) in enumerate(game.played()):
        if i % 2 == 0:
            body.append(f"{i // 2 + 1}.")
        sep = "x" if move.captures else "-"
        text = sep.join(_square(s) for s in move.path)
        notes = []
        if move.takings and variant:
            notes.append(f"{side_name(side)} {score_move(move, variant).text}")
        if clocks is not None and i < len(clocks):
            left, took = clocks[i]
            notes.append(f"[%clk {_hms(left)}] [%emt {_hms(took)}]")
        if notes:
            text += " {" + " ".join(notes) + "}"
        body.append(text)
    body.append(result)
    return pdn_text.write(tags, body)


def _hms(seconds: float) -> str:
    """``h:mm:ss``, whole seconds (the game clock rounded up, as the display shows it)."""
    whole = max(0, math.ceil(seconds - 1e-9))
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


def _position_tag(game: Game) -> str:
    """Chip values of the start position: ``B:1,2=-9;...|R:...|to=blue``."""
    data = game_to_json(game)
    parts: dict[str, list[str]] = {"blue": [], "red": []}
    for p in data["pieces"]:
        mark = "K" if p["dama"] else ""
        parts[p["side"]].append(f"{mark}{p['square'][0]},{p['square'][1]}={p['value']}")
    return f"B:{';'.join(parts['blue'])}|R:{';'.join(parts['red'])}|to={data['to_move']}"
