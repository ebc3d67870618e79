"""One simulated board end to end without a browser: table -> mock sensors -> the app's scan
loop -> the real session, tracker, view; the test's clock makes every timer exact."""

from __future__ import annotations

import pytest

from controller.sim.engine import SimBoard, SimError, static_facts
from controller.view.session_leds import ALL_LIGHTS

from .conftest import ManualClock

SETTLE = 0.25  # the tracker's default


def led(board: SimBoard, x: int, y: int) -> str | None:
    for cell in board.snapshot()["squares"]:
        if cell["square"] == [x, y]:
            return cell["led"]["name"] if cell["led"] else None
    raise AssertionError(f"no square ({x}, {y})")


def ready(clock: ManualClock) -> SimBoard:
    board = SimBoard("t", clock)
    clock.advance(SETTLE)
    board.tick()
    assert board.snapshot()["phase"] == "play"
    return board


def play(board: SimBoard, clock: ManualClock, *clicks: tuple[int, int]) -> None:
    for sq in clicks:
        board.act({"type": "click", "square": list(sq)})
    clock.advance(SETTLE)
    board.tick()


def test_the_opening_on_the_table_starts_the_game_and_the_clocks(clock: ManualClock) -> None:
    board = SimBoard("t", clock)
    assert board.snapshot()["phase"] == "setup"
    clock.advance(SETTLE)
    board.tick()
    clock.advance(3.0)
    board.tick()
    snap = board.snapshot()
    assert snap["phase"] == "play"
    assert (snap["clocks"]["game"], snap["clocks"]["move"]) == ("19:57", "0:57")
    assert board.devices.clocks.shown[-1][:2] == ("1957", " 057")  # the mock display too


def test_a_lifted_chip_lights_its_destinations(clock: ManualClock) -> None:
    board = ready(clock)
    board.act({"type": "click", "square": [1, 2]})
    assert led(board, 1, 2) == "lifted"
    assert led(board, 0, 3) == led(board, 2, 3) == "destination"
    snap = board.snapshot()
    cell = next(c for c in snap["squares"] if c["square"] == [0, 3])
    assert cell["led"]["rgb"] == list(ALL_LIGHTS["destination"].colour)


def test_a_move_on_the_table_is_played_scored_and_written(clock: ManualClock) -> None:
    board = ready(clock)
    play(board, clock, (1, 2), (2, 3))
    snap = board.snapshot()
    assert snap["ply"] == 1 and snap["to_move"] == "red"
    assert snap["sheet"]["lines"][0]["n"] == "1"
    assert snap["sheet"]["lines"][0]["blue"]["move"] == "−9 (2, 3)"
    assert snap["sheet"]["lines"][0]["red"] is None
    assert [c["name"] for c in snap["cues"]][-1] == "move"


def test_a_taking_removed_by_hand_is_scored(clock: ManualClock) -> None:
    board = ready(clock)
    for move in [((1, 2), (2, 3)), ((2, 5), (1, 4)), ((5, 2), (4, 3)), ((6, 5), (5, 4))]:
        play(board, clock, *move)
    assert led(board, 4, 3) == "must_take"
    play(board, clock, (4, 3), (6, 5), (5, 4))  # lift, land, take the red chip off
    snap = board.snapshot()
    assert snap["ply"] == 5
    takes = [
        ln["blue"] for ln in snap["sheet"]["lines"] if ln["blue"] and ln["blue"]["kind"] == "take"
    ]
    assert [(t["move"], t["square"]) for t in takes] == [("−1 ÷ (−9) = 0.11… ≈ 0", "(6, 5)")]
    assert [c["label"] for c in snap["trays"]["red"]] == ["-9"]


def test_a_wrong_square_shows_a_mismatch_and_fixing_it_recovers(clock: ManualClock) -> None:
    board = ready(clock)
    board.act({"type": "drag", "from": [1, 2], "to": [3, 4]})
    clock.advance(1.0)  # error_delay
    board.tick()
    assert (led(board, 1, 2), led(board, 3, 4)) == ("missing", "extra")
    assert board.snapshot()["cues"][-1]["name"] == "error"
    board.act({"type": "drag", "from": [3, 4], "to": [1, 2]})
    clock.advance(SETTLE)
    board.tick()
    assert led(board, 1, 2) is None and led(board, 3, 4) is None
    assert board.snapshot()["ply"] == 0


def test_pause_stops_the_clocks_and_takeback_asks_for_the_board(clock: ManualClock) -> None:
    board = ready(clock)
    play(board, clock, (1, 2), (2, 3))
    board.act({"type": "button", "name": "pause"})
    before = board.snapshot()["clocks"]
    clock.advance(30)
    board.tick()
    snap = board.snapshot()
    assert snap["paused"] and snap["clocks"]["game"] == before["game"]
    board.act({"type": "button", "name": "pause"})
    board.act({"type": "button", "name": "takeback"})
    snap = board.snapshot()
    assert snap["ply"] == 0 and snap["phase"] == "restore"
    assert (led(board, 1, 2), led(board, 2, 3)) == ("missing", "extra")
    board.act({"type": "drag", "from": [2, 3], "to": [1, 2]})
    clock.advance(SETTLE)
    board.tick()
    assert board.snapshot()["phase"] == "play"


def test_new_game_with_another_variant_sets_its_chips(clock: ManualClock) -> None:
    board = ready(clock)
    board.act({"type": "new_game", "variant": "fraction", "profile": "online"})
    snap = board.snapshot()
    assert (snap["variant"], snap["profile"]) == ("fraction", "online")
    labels = {c["chip"]["label"] for c in snap["squares"] if c["chip"]}
    assert "10/10" in labels


@pytest.mark.parametrize(
    ("message", "says"),
    [
        ("click", "JSON object"),
        ({}, "Unknown message type None"),
        ({"type": "fly"}, "Unknown message type 'fly'"),
        ({"type": "click"}, "'square' must be a square"),
        ({"type": "click", "square": [1, "2"]}, "'square' must be a square"),
        ({"type": "click", "square": [0, 0]}, "light square"),
        ({"type": "click", "square": [40, 2]}, "off the board"),
        ({"type": "button", "name": "explode"}, "Unknown button"),
        ({"type": "from_tray", "chip": "x"}, "'chip' must be"),
        ({"type": "new_game", "variant": "chess"}, "Unknown variant"),
    ],
)
def test_bad_messages_get_a_sentence_and_change_nothing(
    clock: ManualClock, message, says: str
) -> None:
    board = ready(clock)
    before = board.table.occupied()
    with pytest.raises(SimError, match=says.replace("(", r"\(")):
        board.act(message)
    assert board.table.occupied() == before


def test_downloads_are_the_sessions_exports(clock: ManualClock) -> None:
    board = ready(clock)
    play(board, clock, (1, 2), (2, 3))
    csv, media = board.export("csv")
    assert media.startswith("text/csv") and 'BLUE,move,"-9 (2, 3)"' in csv
    pdn, _ = board.export("pdn")
    assert "1." in pdn
    html, _ = board.export("html")
    assert "<table" in html
    with pytest.raises(SimError):
        board.export("docx")


def test_the_page_facts_carry_every_led_meaning_and_buzzer_pattern() -> None:
    facts = static_facts()
    assert {x["name"] for x in facts["legend"]} == set(ALL_LIGHTS)
    assert "move" in facts["patterns"] and "error" in facts["patterns"]


def test_a_chip_of_the_side_not_to_move_is_lifted_never_put_in_the_tray(
    clock: ManualClock,
) -> None:
    board = ready(clock)
    play(board, clock, (1, 2), (2, 3))  # Blue moved: Red's turn
    board.act({"type": "click", "square": [3, 2]})  # a blue chip
    snap = board.snapshot()
    assert snap["hand"]["label"] == "6" and snap["trays"] == {"blue": [], "red": []}
    assert snap["message"].startswith("It is RED's turn")
    board.act({"type": "click", "square": [3, 2]})  # and it goes back where it was
    assert board.snapshot()["message"] == ""


def test_the_display_lines_and_their_key_follow_the_device_every_moment(
    clock: ManualClock,
) -> None:
    board = ready(clock)
    first = board.snapshot()
    assert first["display"] == board.devices.scoresheet.last
    clock.advance(1.0)
    board.tick()  # no click: only time passed
    later = board.snapshot()
    assert later["display"][1] != first["display"][1]  # the move clock's second changed
    assert later["display_key"] != first["display_key"]


def test_practice_from_sim_set_and_a_players_takeback(clock: ManualClock) -> None:
    board = SimBoard(
        "p",
        clock,
        defaults={"practice": True, "clocks": "off", "takeback": "players", "event": "Class 8"},
    )
    clock.advance(SETTLE)
    board.tick()
    snap = board.snapshot()
    assert snap["play"]["practice"] and not snap["timed"] and snap["player_takeback"]
    assert snap["info"]["event"] == "Class 8"
    assert (snap["clocks"]["left"], snap["clocks"]["right"]) == ("--:--", "--:--")
    play(board, clock, (1, 2), (2, 3))
    board.act({"type": "takeback"})
    snap = board.snapshot()
    assert snap["ply"] == 0 and snap["phase"] == "restore"


def test_a_players_takeback_needs_the_teachers_leave(clock: ManualClock) -> None:
    board = ready(clock)
    play(board, clock, (1, 2), (2, 3))
    with pytest.raises(SimError, match="Only the arbiter takes a move back"):
        board.act({"type": "takeback"})
    assert board.snapshot()["ply"] == 1


@pytest.mark.parametrize(
    ("message", "says"),
    [
        ({"type": "info", "info": {"nick": "x"}}, "unknown field 'nick'"),
        ({"type": "info", "info": "Ana"}, "'info' must be an object"),
        ({"type": "play", "play": {"capture_preview": True}}, "practice help"),
        ({"type": "play", "play": {"clocks": "off"}}, "chosen when a new game starts"),
        ({"type": "new_game", "play": {"clocks": "sundial"}}, "not one of on, off"),
    ],
)
def test_teacher_settings_that_cannot_be_taken_are_refused_clearly(
    clock: ManualClock, message, says
) -> None:
    board = ready(clock)
    with pytest.raises(SimError, match=says):
        board.act(message)
    assert board.snapshot()["phase"] == "play"
