"""A finished game's files, kept by the keeper (controller/games/keeper.py): written whole (temp,
fsync, rename) and never over a kept game, even when two games end in the same second or the
disk is full."""

from __future__ import annotations

import pytest

from controller.games.keeper import keep_files
from controller.rules.game import Game

from .diskfault import file_size_limit
from .helpers import new_session


def _stopped_game():
    s = new_session()
    s.feed_frame(0.0, Game.new("integer").occupied())
    s.advance(1.0)
    s.press(2.0, "pause", "hold")
    s.press(2.0, "next")
    s.press(2.0, "confirm")
    assert s.outcome is not None
    return s


def export_game(s, folder, stem):
    files = {"pdn": s.export_pdn(), "csv": s.export_csv(), "html": s.export_html()}
    return keep_files(folder, stem, files)


def test_two_exports_in_the_same_second_both_keep_their_files(tmp_path):
    s = _stopped_game()
    first = export_game(s, tmp_path, "game-1700000000")
    second = export_game(s, tmp_path, "game-1700000000")
    assert [p.name for p in first] == ["game-1700000000.pdn", "game-1700000000.csv",
                                       "game-1700000000.html"]  # fmt: skip
    assert [p.name for p in second] == ["game-1700000000-2.pdn", "game-1700000000-2.csv",
                                        "game-1700000000-2.html"]  # fmt: skip
    whole = {"pdn": s.export_pdn(), "csv": s.export_csv(), "html": s.export_html()}
    for a, b in zip(first, second, strict=True):
        assert a.read_text() == b.read_text() == whole[a.suffix[1:]]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in first + second)


def test_an_export_on_a_full_disk_leaves_no_half_file(tmp_path):
    s = _stopped_game()
    with file_size_limit(200), pytest.raises(OSError):
        export_game(s, tmp_path, "game-5")
    assert list(tmp_path.iterdir()) == []  # neither a half file nor a temporary one
    export_game(s, tmp_path, "game-5")
    assert (tmp_path / "game-5.pdn").read_text() == s.export_pdn()
