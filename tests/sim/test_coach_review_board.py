"""The coach's review of a finished practice game on the real board's loop (``app.Board``, as
``damath-board run`` drives it): reviewed by itself in the coach's worker when the game ends,
shown on the small display page by page (Next), and printed after the game on the sheet (the
download and the kept game's file); and the computer's side and level chosen from the board's
buttons in the arbiter's settings menu, journaled through a restart."""

from __future__ import annotations

from controller import i18n
from controller.board import BoardHost, ScanLoop
from controller.coach.board import BoardCoach
from controller.games.keeper import Keeper
from controller.record.journal_file import read as read_journal
from controller.session import SessionConfig
from controller.view.review_pages import review_pages
from tests.session.helpers import open_session

from .conftest import ManualClock
from .test_coach_board import SETTLE, board_with, inline, make, never


def press(board, clock: ManualClock, name: str, hold: bool = False) -> None:
    board.act({"type": "button", "name": name, "hold": hold})
    clock.advance(SETTLE)
    board.tick()


def finished_game(clock: ManualClock, tmp_path):
    """Two moves each against the computer (level 1), then the arbiter stops the game."""
    board = board_with(clock, submit=never, computer="red", level=1)  # the page's coach idles
    board.coach = BoardCoach(submit=inline)
    board.loop = ScanLoop(board.game, board.devices, Keeper.of_board(tmp_path))
    for _ in range(2):
        mine = board.session.game.legal_moves()[0]
        make(board, clock, mine.path, mine.captures)
        shown = board.snapshot()["shown"]
        assert shown is not None and shown["kind"] == "computer"
        move = board.session.game.find_move([tuple(sq) for sq in shown["path"]])
        make(board, clock, move.path, move.captures)
    assert board.session.game.ply == 4
    press(board, clock, "pause", hold=True)  # the arbiter's menu: Cancel, Stop, …
    press(board, clock, "next")
    press(board, clock, "confirm")  # Stop, tally now
    board.tick()
    assert board.session.phase == "over"
    return board


def test_the_review_comes_by_itself_on_the_display_page_by_page(clock, tmp_path) -> None:
    board = finished_game(clock, tmp_path)
    review = board.session.current_review()
    assert review is not None and len(review["moves"]) == 4
    count = len(review["mistakes"] or [None]) + 2  # the mistakes (or "no mistake"), two sides
    seen = []
    for n in range(1, count + 1):
        lines = board.display_lines()
        assert lines[0].startswith(f"Review {n}/{count}")
        seen.append(lines)
        press(board, clock, "next")
    assert board.display_lines()[0].endswith("wins: the arbite~")  # the tally is back after them
    press(board, clock, "next")
    assert board.display_lines() == seen[0]
    for index, lines in zip(review["mistakes"], seen, strict=False):
        move = review["moves"][index]
        text = " ".join(lines[1:])
        assert f"{move['number']}:" in text and "better" in text
        gain = move["exchange"]["better_by"]  # a child's measure: the points the better move gives
        assert (f"{gain['text']} points more" in text) if gain["sign"] > 0 else "PC looks" in text
        assert f"{move['best'][0][0]},{move['best'][0][1]}" in text
    assert "best" in " ".join(seen[-1]) and "x:" in " ".join(seen[-1])
    for lines in seen:  # the display's limits: ASCII, 21 characters, a head and three lines
        assert len(lines) <= 4 and all(len(x) <= 21 and x.isascii() for x in lines)


def test_the_review_pages_fit_the_display_in_both_languages(clock, tmp_path) -> None:
    review = finished_game(clock, tmp_path).session.current_review()
    assert review is not None
    long = {**review, "moves": [{**m, "best_takings": ["-11 ÷ 6 = -11/6 ≈ -2"] * 3}
                                for m in review["moves"]]}  # fmt: skip
    further = {**review, "moves": [{**m, "exchange": {**m["exchange"], "better_by": {
        "text": "0", "value": 0.0, "sign": 0}}} for m in review["moves"]]}  # fmt: skip
    for language in ("en", "fil"):
        with i18n.use(language):
            for pages in (review_pages(review), review_pages(long), review_pages(further)):
                for lines in pages:
                    assert 1 <= len(lines) <= 3
                    assert all(len(x) <= 21 and x.isascii() for x in lines), lines
            assert review["mistakes"]
            for lines in review_pages(further)[: len(review["mistakes"])]:
                assert not lines[-1].endswith("~"), lines  # "the PC looks further", whole


def test_the_printable_sheet_carries_the_review(clock, tmp_path) -> None:
    board = finished_game(clock, tmp_path)
    review = board.session.current_review()
    assert review is not None
    page, _type = board.export("html")
    kept = [p.read_text("utf-8") for p in (tmp_path / "games").glob("*.html")]
    assert len(kept) == 1  # the kept game's sheet, written again with the review
    for sheet in (page, kept[0]):
        section = sheet[sheet.index('<section class="review">') :]
        assert "The coach&#x27;s review" in section and "looking 6 moves ahead" in section
        assert section.count("<tr") == 1 + len(review["moves"]) + 1 + 6  # moves, accuracy
        assert "The three biggest mistakes" in section
        assert section.count("<li>") == len(review["mistakes"])
        for op in ("+", "−", "×", "÷"):
            assert f"takings on {op}" in section
        assert sheet.index("Signatures") < sheet.index('<section class="review">')


def test_a_tournament_game_is_not_reviewed_by_itself(clock, tmp_path) -> None:
    board = board_with(clock, submit=never, practice=False, clocks="on")
    board.coach = BoardCoach(submit=inline)
    board.loop = ScanLoop(board.game, board.devices, Keeper.of_board(tmp_path))
    mine = board.session.game.legal_moves()[0]
    make(board, clock, mine.path, mine.captures)
    press(board, clock, "pause", hold=True)
    press(board, clock, "next")
    press(board, clock, "confirm")
    assert board.session.phase == "over" and board.session.current_review() is None
    assert '<section class="review">' not in board.export("html")[0]


def test_the_boards_buttons_choose_the_computer_and_its_level(clock, tmp_path) -> None:
    from controller.view.compose import compose

    s = open_session(BoardHost.of_board(tmp_path, "m"), SessionConfig(play={"practice": True}), 0.0)

    def page(t):
        return list(compose(s.view_input(t), t).page)

    s.press(1.0, "pause", "hold")  # setting up: hold Pause opens the game settings
    labels = [o.label for o in s.menu.options]
    assert labels[3:] == ["Computer: off", "Level: 4"]
    for t in (1.1, 1.2, 1.3):
        s.press(t, "next")  # down to Computer
    s.press(1.4, "confirm")
    s.press(1.5, "confirm")  # off, Blue, Red
    assert s.play.computer == "red" and s.menu is not None
    assert page(1.5)[-1] == "> Computer: Red"
    s.press(1.6, "next")
    for k in range(6):
        s.press(1.7 + k / 10, "confirm")  # 4 → 10 wraps to 2
    assert s.play.level == 2 and page(2.4)[-1] == "> Level: 2"
    s.press(2.5, "pause")
    records = read_journal(s.journal.path).records
    chosen = [(r["play"]["computer"], r["play"]["level"]) for r in records if r["k"] == "play"]
    assert chosen == [("blue", 4), ("red", 4), *(("red", n) for n in (5, 6, 7, 8, 1, 2))]
    s.journal.close()
    again = open_session(BoardHost.of_board(tmp_path, "m"), SessionConfig(), 10.0)
    assert again.play.computer == "red" and again.play.level == 2


def test_a_tournament_board_offers_no_computer_in_its_menu(clock, tmp_path) -> None:

    s = open_session(BoardHost.of_board(None, "n"), SessionConfig(), 0.0)
    s.press(1.0, "pause", "hold")
    assert [o.action for o in s.menu.options] == ["cancel", "pick", "pick"]
