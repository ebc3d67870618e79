"""``damath-board puzzles``: generate from engine games and from a folder of kept games, print
the count per variant and per theme, list the store; a wrong option is one line and exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import main
from controller.data import __file__ as data_init
from controller.puzzles.store import puzzles

SAMPLE = Path(data_init).parent / "sample_game.json"


@pytest.mark.slow
def test_generate_from_engine_games_and_kept_games_then_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = tmp_path / "kept"
    games.mkdir()
    (games / "sample_game.json").write_bytes(SAMPLE.read_bytes())
    state = tmp_path / "state"
    code = main(
        ["puzzles", "--state-dir", str(state), "generate", "--games", str(games),
         "--engine-games", "1", "--variant", "integer"]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0, out
    stored = puzzles(state / "puzzles.sqlite")
    assert stored, out
    assert f"{len(stored)} puzzles found ({len(stored)} new)" in out
    counts = dict(
        line.split()
        for line in out.splitlines()
        if line.startswith("  ") and len(line.split()) == 2
    )
    assert counts["integer"] == str(len(stored)) and counts["fraction"] == "0"
    assert "per theme:" in out and "The quiet move" in out
    kinds = {p.source["kind"] for p, _r in stored}
    assert "engine" in kinds
    assert all(p.verified > p.depth for p, _r in stored)

    assert main(["puzzles", "--state-dir", str(state), "list"]) == 0
    listed = capsys.readouterr().out
    assert f"{len(stored)} puzzles" in listed
    assert stored[0][0].id in listed


def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["puzzles", "--state-dir", str(tmp_path), "generate"]) == 2
    assert "give --games DIR or --engine-games N" in capsys.readouterr().err
    huge = ["--engine-games", "999999999999999999999"]  # issue 39, item 11: it was accepted
    assert main(["puzzles", "--state-dir", str(tmp_path), "generate", *huge]) == 2
    assert "--engine-games is 0 to 10000" in capsys.readouterr().err
    missing = tmp_path / "nowhere"
    assert main(["puzzles", "--state-dir", str(tmp_path), "generate", "--games", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.strip().count("\n") == 0 and "no such folder" in err
    (tmp_path / "puzzles.sqlite").write_bytes(b"garbage" * 200)
    assert main(["puzzles", "--state-dir", str(tmp_path), "list"]) == 2
    err = capsys.readouterr().err
    assert "damaged" in err and err.strip().count("\n") == 0


def test_a_damaged_journal_is_named_and_skipped(tmp_path: Path) -> None:
    """Issue 39, item 11: ``puzzles generate`` passed a damaged journal over without naming it
    (docs/puzzles.md says it names it): the file and its fault are said, nothing of it used."""
    from controller.puzzles.sources import generate

    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "game-20261203-1.jsonl").write_text('00000000 {"k":"start","t":0}\n')
    found, skipped = generate([kept], 0, ("integer",))
    assert found == []
    assert len(skipped) == 1 and "game-20261203-1.jsonl: a damaged journal" in skipped[0]
