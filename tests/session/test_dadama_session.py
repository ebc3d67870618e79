"""A Dadama game on the board through the tracker and the session: throws by the board (seeded
and journaled) or entered from real dice, the player's choices, the end, and a resume."""

from __future__ import annotations

import collections
import html

import pytest

from controller.games.dadama.session import DadamaConfig, DadamaSession, throw_faces
from controller.games.dadama.view import compose_dice, lights, snapshot
from controller.rules.dadama import Phase

from .dadama_play import play_out, shown, throws_of


def position(pieces: dict, to_move: str = "white") -> dict:
    listed = []
    for (x, y), code in pieces.items():
        side = "white" if code[0] == "w" else "black"
        listed.append(
            {"square": [x, y], "side": side, "value": int(code[1]), "dadama": code[2:] == "D"}
        )
    return {"to_move": to_move, "pieces": listed}


# The seed's Figure 3: White's die on (3,2) may take A (a 3 on (4,3)) or B (a 5 on (2,3));
# beyond A waits C (a 3 on (6,5)).
FIG3 = {(3, 2): "w3", (0, 1): "w3", (4, 3): "b3", (2, 3): "b5", (6, 5): "b3"}


def real(pieces: dict, tmp_path=None, **settings) -> DadamaSession:
    cfg = DadamaConfig(settings=settings, dice="real", seed=1, position=position(pieces))
    s = DadamaSession.begin(cfg)
    s.feed_frame(0.0, shown(s))
    assert s.phase == "play"
    return s


def jump(s: DadamaSession, start, to, taken) -> None:
    board = shown(s)
    s.feed_frame(1.0, board - {start})
    s.feed_frame(1.2, (board - {start}) | {to})
    s.feed_frame(1.4, (board - {start, taken}) | {to})


def test_a_failed_throw_leaves_the_new_value_and_passes_the_turn():
    s = real(FIG3)
    assert lights(s.view())[(3, 2)].name == "throws"  # the only die that may throw
    s.press(0.5, "next")  # real dice: Next counts 1, 2 ...
    assert s.view().entering == (2,)
    s.press(0.6, "confirm")
    assert s.game.piece_at((3, 2)).value == 2 and s.game.side_to_move == 1
    assert "(3,2) [2]" in s.record_text()
    assert s.view().last_throw == ((3, 2), (2,), 2)


def test_the_player_chooses_which_piece_the_throw_takes():
    s = real(FIG3)
    s.press(0.5, "face5")
    v = s.view()
    assert set(v.targets) == {(4, 3), (2, 3)} and set(v.landings) == {(5, 4), (1, 4)}
    assert {lights(v)[sq].name for sq in v.targets} == {"takeable"}
    jump(s, (3, 2), (1, 4), (2, 3))  # B, the 5
    assert s.game.piece_at((2, 3)) is None and s.game.piece_at((1, 4)).value == 5
    assert "(3,2)x(1,4) [5]" in s.record_text()


def test_a_taking_continued_and_one_declined():
    s = real(FIG3)
    s.press(0.5, "face5")
    jump(s, (3, 2), (5, 4), (4, 3))  # A; C waits beyond
    v = s.view()
    assert s.game.phase is Phase.GO_ON and v.can_stop
    assert lights(v)[(5, 4)].name == "go_on"
    s.press(2.0, "confirm")  # go on: a real die is thrown again ...
    assert s.view().entering == (1,)
    s.press(2.1, "next")
    s.press(2.1, "next")
    s.press(2.1, "next")
    s.press(2.2, "confirm")  # ... and its 4 entered: it beats C's 3
    jump(s, (5, 4), (7, 6), (6, 5))
    assert s.game.piece_at((7, 6)).value == 4 and s.game.side_to_move == 1
    assert "(3,2)x(5,4) [5] x(7,6) [4]" in s.record_text()

    d = real(FIG3)
    d.press(0.5, "face5")
    jump(d, (3, 2), (5, 4), (4, 3))
    d.press(2.0, "next")  # stop, keep the 5
    assert d.game.side_to_move == 1 and d.game.piece_at((5, 4)).value == 5
    assert d.game.piece_at((6, 5)) is not None


def test_a_dadama_throws_two_dice_and_keeps_one():
    s = real({(3, 2): "w3D", (0, 1): "w3", (4, 3): "b5", (6, 5): "b3"})
    s.press(0.5, "face2")
    assert s.pending is None and s.view().entering == (2, 1)  # the second die now
    s.press(0.6, "face6")
    v = s.view()
    assert v.dice == (2, 6) and v.keep == 6 and v.landings == ((5, 4),)
    s.press(0.7, "next")  # keep 2 instead: nothing to take with it
    assert s.view().keep == 6  # only values that allow a taking may be kept (G-2)
    jump(s, (3, 2), (5, 4), (4, 3))
    assert "[2,6→6]" in s.record_text()


def test_a_dadama_whose_two_dice_both_fail_keeps_the_chosen_one():
    s = real({(3, 2): "w3D", (0, 1): "w3", (4, 3): "b5", (6, 7): "b3D"})
    s.press(0.5, "face1")
    s.press(0.6, "face4")
    v = s.view()
    assert v.dice == (1, 4) and v.keep == 4 and not v.landings
    s.press(0.7, "next")
    assert s.view().keep == 1
    s.press(0.8, "confirm")
    assert s.game.piece_at((3, 2)).value == 1 and s.game.side_to_move == 1


def test_all_sixes_lose_at_once():
    s = real({(3, 2): "w3", (4, 3): "b3", (6, 5): "b3"})
    s.press(0.5, "face6")
    v = s.view()
    assert s.phase == "over" and v.ending is not None and "shows 6" in v.ending.describe()
    assert s.game.piece_at((4, 3)) is not None  # the losing throw takes nothing (GE-4)
    assert "Game over" in compose_dice(v, 0.0).page[0]


def test_board_throws_are_seeded_uniform_and_journaled(tmp_path):
    counts = collections.Counter(f for n in range(3000) for f in throw_faces(5, n, 2))
    chi2 = sum((c - 1000) ** 2 / 1000 for c in counts.values())
    assert set(counts) == set(range(1, 7)) and chi2 < 20.5  # p = 0.001, 5 degrees of freedom
    games = []
    for _ in range(2):
        s = DadamaSession.open(DadamaConfig(seed=99), str(tmp_path / f"j{len(games)}.jsonl"))
        play_out(s)
        games.append(s.record_text())
        assert s.phase == "over" and throws_of(s)
        s.close()
    assert games[0] == games[1]
    lines = (tmp_path / "j0.jsonl").read_text().splitlines()
    assert '"seed":99' in lines[0] and sum('"k":"throw"' in line for line in lines) == s.throws


def test_a_resume_between_a_throw_and_its_taking_keeps_the_throw(tmp_path):
    path = str(tmp_path / "j.jsonl")
    cfg = DadamaConfig(dice="real", seed=3, position=position(FIG3))
    s = DadamaSession.open(cfg, path, sync=False)
    s.feed_frame(0.0, shown(s))
    s.press(0.5, "face5")
    s.close()
    r = DadamaSession.open(cfg, path, sync=False)
    assert r.phase == "setup" and r.pending == ((3, 2), (5,))
    r.feed_frame(0.0, shown(r))
    assert r.phase == "play" and set(r.view().targets) == {(4, 3), (2, 3)}
    jump(r, (3, 2), (5, 4), (4, 3))
    assert r.game.phase is Phase.GO_ON


def test_a_forged_record_is_refused_with_its_reason(tmp_path):
    from controller.session.journal import Journal

    path = tmp_path / "j.jsonl"
    s = DadamaSession.open(DadamaConfig(seed=3), str(path), sync=False)
    s.close()
    j, _ = Journal.open(path, sync=False)
    j.append({"k": "step", "step": {"throw": [2, 1], "dice": [6], "keep": 6, "to": [4, 3]}})
    j.close()
    r = DadamaSession.open(DadamaConfig(), str(path), sync=False)
    assert any("record 2" in p and "throw" in p for p in r.problems)
    assert len(r.game.history) == 0


def test_the_page_snapshot_shows_every_value_and_the_throw():
    s = real(FIG3)
    s.press(0.5, "face5")
    snap = snapshot(s.view(), 0.0)
    assert {p["value"] for p in snap["pieces"]} == {3, 5}
    assert snap["dice"] == [5] and snap["lights"]["2,3"] == "takeable"
    assert "White 33" in snap["page"] and "threw 5" in snap["status"]


def test_a_bad_setting_is_refused_clearly():
    with pytest.raises(ValueError, match="go_on"):
        DadamaConfig(settings={"go_on": "sometimes"})
    with pytest.raises(ValueError, match="dice"):
        DadamaConfig(dice="loaded")


def test_the_sheet_puts_two_turns_a_row_and_a_record_replays_with_its_throws():
    from controller.games.dadama.sheet import rows, to_csv, to_html
    from controller.rules.dadama_notation import read_record_text

    s = DadamaSession.begin(DadamaConfig(seed=8, position=position(FIG3, to_move="black")))
    s.feed_frame(0.0, shown(s))
    play_out(s)
    table = rows(s.game, s.start)
    assert table[0][1] == "" and table[0][2]  # Black began: White's first cell is empty
    turns = [t for _, w, b in table for t in (w, b) if t]
    assert len(turns) == len(s.game.turns())
    assert to_csv(s.game, s.start).count("\n") == len(table) + 2
    page = to_html(s.game, s.start)
    assert all(f"<td>{html.escape(t)}</td>" in page for t in turns)
    game, _start, _result = read_record_text(s.record_text())
    assert game.pieces() == s.game.pieces() and len(game.history) == len(s.game.history)
