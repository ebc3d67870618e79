"""A Dadama game on the simulated board, without a browser: chosen with ``--set game=dadama``
or the new-game message, played by clicks and buttons through the mock devices, resumed after
a restart, its sheets and record downloaded and kept, and a Damath game after it."""

from __future__ import annotations

import pytest

from controller.board.host import board_folder
from controller.sim.engine import SimBoard, SimError

from .test_browser_dadama import position


class Clock:
    t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_set_game_dadama_plays_by_clicks_and_resumes_after_a_restart(tmp_path):
    clock = Clock()
    b = SimBoard("a", clock, state_dir=tmp_path, defaults={"game": "dadama", "seed": 7})
    assert b.kind.name == "dadama" and b.snapshot()["game"] == "dadama"
    b.act({"type": "click", "square": [1, 2]})
    b.act({"type": "click", "square": [2, 3]})
    snap = b.snapshot()
    assert "1. (1,2)-(2,3)" in snap["record"] and snap["to_move"] == "black"
    assert "Black" in " ".join(snap["display"])  # the display shows every die's value
    b.close()
    again = SimBoard("a", clock, state_dir=tmp_path)
    assert again.kind.name == "dadama"
    snap = again.snapshot()
    assert "1. (1,2)-(2,3)" in snap["record"] and snap["phase"] == "play"
    assert [2, 3] in snap["table"] and [1, 2] not in snap["table"]
    with pytest.raises(SimError, match="not an action of a Dadama board"):
        again.act({"type": "crown", "square": [2, 3]})
    with pytest.raises(SimError, match="start a game with real dice"):
        again.act({"type": "button", "name": "face3"})


def test_a_finished_game_is_kept_with_its_sheets_and_a_damath_game_follows(tmp_path):
    clock = Clock()
    b = SimBoard("b", clock, state_dir=tmp_path)
    assert b.kind.name != "dadama"
    pieces = [
        {"square": [3, 2], "side": "white", "value": 3},
        {"square": [4, 3], "side": "black", "value": 3},
        {"square": [6, 5], "side": "black", "value": 3},
    ]
    b.act({"type": "new_game", "variant": "dadama", "dice": "real",
           "position": {"to_move": "white", "pieces": pieces}})  # fmt: skip
    b.act({"type": "button", "name": "face6"})  # all of White's dice show 6
    b.tick()
    assert b.snapshot()["over"]
    kept = sorted(p.suffix for p in (board_folder(tmp_path, "b") / "games").iterdir())
    assert kept == [".csv", ".html", ".json", ".pdn"]
    csv_text, _ = b.export("csv")
    assert csv_text.splitlines()[0] == "turn,white,black" and '1,"(3,2) [6]",' in csv_text
    html_text, media = b.export("html")
    assert "text/html" in media and "every die of White shows 6" in html_text
    pdn, _ = b.export("pdn")
    assert '[Termination "all-sixes"]' in pdn
    b.act({"type": "new_game", "variant": "integer", "profile": "official"})
    assert b.kind.name != "dadama" and b.snapshot().get("game") != "dadama"
    journals = sorted((board_folder(tmp_path, "b") / "games").glob("*.jsonl"))
    assert len(journals) == 1 and '"game":"dadama"' in journals[0].read_text()


def test_a_wrong_dadama_setting_or_position_is_refused_and_the_game_goes_on(tmp_path):
    b = SimBoard("c", Clock())
    with pytest.raises(SimError, match="go_on"):
        b.act({"type": "new_game", "variant": "dadama", "rules": {"go_on": "maybe"}})
    with pytest.raises(SimError, match="pieces"):
        b.act({"type": "new_game", "variant": "dadama", "position": {"pieces": "all"}})
    assert b.kind.name != "dadama"
    b.act(
        {
            "type": "new_game",
            "variant": "dadama",
            "position": position({(3, 2): "w3", (4, 3): "b3"}),
        }
    )
    assert b.kind.name == "dadama"


@pytest.mark.parametrize("game", ["dadama", "dam", "english"])
def test_a_button_pressed_on_another_games_board_is_said_in_the_pages_language(tmp_path, game):
    """The board names the button as the page labels it, in Filipino too (it said the code's
    name, 'Pinindot mo ang confirm.', on Dadama's, Dam's and English draughts' boards)."""
    from controller import i18n

    b = SimBoard("w", Clock(), state_dir=tmp_path, defaults={"game": game})
    with i18n.use("fil"):
        assert b.act({"type": "button", "name": "confirm"}) == "Pinindot mo ang Kumpirma."
        assert b.act({"type": "button", "name": "next"}) == "Pinindot mo ang Susunod."
    assert b.act({"type": "button", "name": "confirm"}) == "You pressed Confirm."
    b.close()
