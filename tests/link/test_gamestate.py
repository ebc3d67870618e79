"""A game rebuilt from its journal records is the board's game: the same PDN text, totals,
result and scoresheet, through takebacks, pauses and the end."""

from __future__ import annotations

from controller.link.gamestate import rebuild
from controller.link.playback import PlaybackBoard, sample_game_moves
from controller.record.journal_file import read
from controller.scoresheet.render import render_csv


def test_rebuild_equals_the_session(tmp_path):
    moves = sample_game_moves()[1]
    board = PlaybackBoard(tmp_path, sync=False)
    board.play_moves(moves[:20])
    board.session.press(board.t + 0.2, "pause")
    board.session.press(board.t + 5.0, "pause")
    board.t += 5.0
    board.session.press(board.t + 0.5, "takeback")
    board.t += 0.5
    board.restore()
    board.play_moves(moves[19:])
    state = rebuild(read(tmp_path / "journal.jsonl").records)
    session = board.session
    assert session.phase == state.phase == "over"
    assert state.pdn() == session.export_pdn()
    assert tuple(state.totals().values()) == session.totals()
    assert render_csv(state.sheet()) == session.export_csv()
    assert state.result()["text"] == session.outcome.text
    assert state.game.ply == len(moves)


def test_info_of_each_move(tmp_path):
    moves = sample_game_moves()[1]
    board = PlaybackBoard(tmp_path, sync=False)
    board.play_moves(moves[:10])
    records = read(tmp_path / "journal.jsonl").records
    from controller.link.gamestate import GameState

    state = GameState()
    infos = [state.apply(r) for r in records]
    move_infos = [i for r, i in zip(records, infos, strict=True) if r["k"] == "move"]
    assert len(move_infos) == 10
    assert [i["side"] for i in move_infos[:2]] == ["blue", "red"]
    takes = [i for i in move_infos if i["takings"]]
    assert takes and all(i["score"] for i in takes)
    assert move_infos[-1]["totals"] == state.totals()
