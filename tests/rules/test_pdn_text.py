"""The one PDN text grammar (controller/rules/pdn_text.py) every game's reader and writer
uses: a tag's value escaped and read back, the header and the movetext told apart (a Dadama
throw's ``[5]`` is movetext), a person's file refused at its line, an event's tags set on a
board's PDN in place (never twice) with the movetext untouched, long lines wrapped without
splitting a clock command; and through it, a Damath PDN whose players' names hold a quote and a
backslash now reads back (the writer wrote them unescaped before)."""

from __future__ import annotations

import re

import pytest

from controller.engine.game_record import read_record
from controller.record.pdn import pdn
from controller.rules import pdn_text
from controller.rules.notation import NotationError, game_from_json
from controller.rules.pdn_game import new_game, read_pdn, write_pdn

NAME = 'Ana "Bea" Cruz \\ Rizal'


def test_a_value_with_quotes_and_backslashes_reads_back_as_written() -> None:
    line = pdn_text.tag_line("White", NAME)
    assert line == '[White "Ana \\"Bea\\" Cruz \\\\ Rizal"]'
    assert pdn_text.read(line + "\n\n1. 32-28 *\n").tags == {"White": NAME}


def test_the_header_ends_at_its_last_tag_and_the_movetext_keeps_its_words() -> None:
    text = '\n[Event "Meet"]\n\n[Round "2"]\n\n1. (2,1)-(3,2) [5] {a comment} 2. x [6,2] *\n'
    read = pdn_text.read(text)
    assert read.tags == {"Event": "Meet", "Round": "2"}
    assert read.body == ["", "1. (2,1)-(3,2) [5] {a comment} 2. x [6,2] *", ""]
    assert read.words() == ["1.", "(2,1)-(3,2)", "[5]", "2.", "x", "[6,2]", "*"]
    with pytest.raises(NotationError, match=r'^line 2: a tag is written \[Name "value"\]$'):
        pdn_text.read('[Event "Meet"]\n[Round 2]\n1. 32-28 *', strict=True)
    assert pdn_text.read('[Event "Meet"]\n[Round 2]\n').tags == {"Event": "Meet"}


def test_an_events_tags_replace_the_boards_in_place_and_are_never_twice() -> None:
    board = '[Event "Practice"]\n[Date "2026.12.03"]\n[Round "-"]\n[Blue ""]\n\n1. 2,1-3,2 *\n'
    tagged = pdn_text.retag(board, {"Event": "Meet", "Round": "3", "Blue": NAME, "Red": ""},
                            first=("Event", "Round", "Board"))  # fmt: skip
    assert tagged == (
        '[Event "Meet"]\n[Round "3"]\n[Date "2026.12.03"]\n'
        '[Blue "Ana \\"Bea\\" Cruz \\\\ Rizal"]\n\n1. 2,1-3,2 *\n'
    )
    assert pdn_text.read(tagged).tags["Blue"] == NAME


def test_long_movetext_wraps_at_79_and_never_splits_a_clock_command() -> None:
    words = [f"{n}. 2,1-3,2 {{Blue 12 [%clk 0:19:5{n % 10}] [%emt 0:00:04]}}" for n in range(12)]
    lines = pdn_text.wrap(words).split("\n")
    assert all(len(x) <= 79 for x in lines) and len(lines) > 3
    assert not [x for x in lines if re.search(r"\[%[^\]]*$", x) or re.match(r"^[^\[]*\]", x)]
    assert " ".join(lines) == " ".join(words)


def test_a_damath_pdn_with_quoted_names_reads_back_with_them() -> None:
    start = game_from_json({"variant": "integer"})
    game = start.copy()
    game.push(game.legal_moves()[0])
    text = pdn(game, start, None, info={"blue": NAME, "red": "Ben \\ Reyes", "event": 'The "Meet"'})
    assert '[Blue "Ana \\"Bea\\" Cruz \\\\ Rizal"]' in text
    record = read_record(text, "game.pdn")
    assert record.names == (NAME, "Ben \\ Reyes")
    assert len(record.paths) == 1


def test_a_draughts_pdn_with_quoted_names_reads_back_with_them() -> None:
    start = new_game("english")
    game = start.copy()
    game.push(game.legal_moves()[0])
    text = write_pdn(game, start, "*", {"White": NAME})
    assert pdn_text.read(text).tags["White"] == NAME
    again = read_pdn(text)
    assert again.tags["White"] == NAME and again.game.played() == game.played()
