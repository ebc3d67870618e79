"""The hand-written traces (tests/tracker/traces): one per case of issue 5, each replayed and
checked for the exact moves, scores and events."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli.replay import replay_json, replay_trace
from controller.tracker.trace import read_trace

TRACES = Path(__file__).parent / "traces"

# name -> (moves as "path score", events as "t kind")
EXPECTED: dict[str, tuple[list[str], list[str]]] = {
    "plain_move": (
        ["(1,2)-(2,3) 0", "(6,5)-(5,4) 0"],
        ["0.25 setup_ok", "0.5 lifted", "1.15 move", "1.9 lifted", "2.45 move"],
    ),
    "slide": (["(1,2)-(2,3) 0"], ["0.25 setup_ok", "0.51 lifted", "0.765 move"]),
    "lift_put_back": (
        ["(7,2)-(6,3) 0"],
        ["0.25 setup_ok", "0.5 lifted", "2.5 put_back", "3.0 lifted", "3.55 move"],
    ),
    "settle_change_of_mind": (["(1,2)-(0,3) 0"], ["0.25 setup_ok", "0.5 lifted", "1.55 move"]),
    "take_removed_first": (
        ["(2,3)x(4,5) -6"],
        ["0.25 restore_done", "0.25 guidance", "1.0 lifted", "1.75 move"],
    ),
    "take_removed_after": (
        ["(2,3)x(4,5) -6"],
        ["0.25 restore_done", "0.25 guidance", "0.5 lifted", "3.25 move"],
    ),
    "multi_capture_intermediate": (
        ["(1,2)x(3,4)x(5,6) -13"],
        ["0.25 restore_done", "0.25 guidance", "0.5 lifted", "3.15 move"],
    ),
    "multi_capture_early_removal": (
        ["(1,2)x(3,4)x(5,6) -13"],
        ["0.25 restore_done", "0.25 guidance", "1.0 lifted", "2.25 move"],
    ),
    "dama_long_slide": (["(0,1)-(4,5) 0"], ["0.25 restore_done", "0.51 lifted", "0.91 move"]),
    "dama_long_take": (
        ["(0,1)x(5,6) 10"],
        ["0.25 restore_done", "0.25 guidance", "0.5 lifted", "1.75 move"],
    ),
    "promotion_crowned": (
        ["(1,6)-(2,7) 0"],
        ["0.25 restore_done", "0.5 lifted", "1.05 move", "1.05 promoted", "3.1 crowned"],
    ),
    "must_take": (
        ["(2,3)x(4,5) -6"],
        ["0.25 restore_done", "0.25 guidance", "0.5 lifted", "0.9 put_back", "1.4 lifted",
         "2.15 move"],
    ),
    "mismatch_two_lifted": (
        ["(7,2)-(6,3) 0"],
        ["0.25 setup_ok", "1.5 mismatch", "2.0 lifted", "2.0 recovered", "2.2 put_back",
         "3.2 lifted", "3.45 move"],
    ),
    "mismatch_knocked": (
        [],
        ["0.25 setup_ok", "0.5 lifted", "1.51 mismatch", "2.61 put_back", "2.61 recovered"],
    ),
    "wrong_side": (
        [],
        ["0.25 setup_ok", "0.5 lifted", "1.9 mismatch", "2.6 put_back", "2.6 recovered"],
    ),
    "ambiguity_touched": (
        ["(0,1)x(4,5)x(6,7) 8"],
        ["0.25 restore_done", "0.25 guidance", "0.5 lifted", "2.15 move"],
    ),
    "ambiguity_touch_choice": (
        ["(0,1)x(3,4)x(6,7) 34"],
        ["0.25 restore_done", "0.25 guidance", "0.5 lifted", "1.35 ambiguity", "2.4 choice",
         "3.25 move"],
    ),
    "ambiguity_buttons": (
        ["(0,1)x(4,5)x(6,7) 8"],
        ["0.25 restore_done", "0.25 guidance", "0.5 lifted", "1.35 ambiguity", "2.1 choice",
         "2.6 choice", "3.1 move"],
    ),
    "touch_move": (
        ["(1,2)-(0,3) 0"],
        ["0.25 setup_ok", "0.5 lifted", "0.9 put_back", "1.4 lifted", "1.8 put_back",
         "2.3 lifted", "2.85 move"],
    ),
    "setup": ([], ["0.0 setup_needed", "2.75 setup_ok"]),
    "setup_rotated": (
        ["(1,2)-(2,3) 0"],
        ["0.0 restore_needed", "0.0 setup_rotated", "0.75 restore_done", "1.0 lifted",
         "1.55 move"],
    ),
    "restore_takeback": (
        ["(2,3)x(4,5) -6"],
        ["0.25 restore_done", "0.25 guidance", "0.5 lifted", "1.25 move", "2.0 takeback",
         "2.0 restore_needed", "3.75 restore_done", "3.75 guidance", "4.0 lifted", "4.75 move"],
    ),
}  # fmt: skip


def replay(name: str) -> dict:
    with open(TRACES / f"{name}.jsonl", encoding="utf-8") as fh:
        return replay_json(replay_trace(read_trace(fh)))


def test_every_trace_has_expectations() -> None:
    assert {p.stem for p in TRACES.glob("*.jsonl")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_trace_gives_exact_moves_scores_and_events(name: str) -> None:
    data = replay(name)
    moves = [
        ("x" if m["captures"] else "-").join(f"({x},{y})" for x, y in m["path"])
        + f" {m['score_text']}"
        for m in data["moves"]
    ]
    events = [f"{round(e['t'], 3)} {e['kind']}" for e in data["events"]]
    assert (moves, events) == EXPECTED[name]


def test_mismatch_names_missing_and_extra_squares() -> None:
    ev = next(e for e in replay("mismatch_knocked")["events"] if e["kind"] == "mismatch")
    assert (ev["missing"], ev["extra"]) == ([[2, 5]], [[3, 4]])


def test_two_chips_lifted_shows_both_missing() -> None:
    ev = next(e for e in replay("mismatch_two_lifted")["events"] if e["kind"] == "mismatch")
    assert (ev["missing"], ev["extra"]) == ([[1, 2], [3, 2]], [])


def test_chip_that_may_not_move_says_why() -> None:
    lifts = [e for e in replay("must_take")["events"] if e["kind"] == "lifted"]
    assert lifts[0]["destinations"] == [] and "You must take!" in lifts[0]["reason"]
    assert lifts[1]["destinations"] == [[4, 5]]


def test_touch_move_refuses_a_second_chip() -> None:
    lifts = [e for e in replay("touch_move")["events"] if e["kind"] == "lifted"]
    assert lifts[1]["square"] == [3, 2] and lifts[1]["reason"].startswith("Touch-move")


def test_mandatory_taking_is_shown_before_any_lift() -> None:
    ev = next(e for e in replay("must_take")["events"] if e["kind"] == "guidance")
    assert (ev["must_take"], ev["to_be_taken"]) == ([[2, 3]], [[3, 4]])


def test_ambiguity_blinks_the_distinguishing_landings() -> None:
    ev = next(e for e in replay("ambiguity_buttons")["events"] if e["kind"] == "ambiguity")
    assert ev["blink"] == [[3, 4], [4, 5]]
    assert ev["choices"] == [[[0, 1], [3, 4], [6, 7]], [[0, 1], [4, 5], [6, 7]]]


def test_setup_names_the_values_to_place() -> None:
    ev = replay("setup")["events"][0]
    assert ev["place"] == [
        [[6, 7], "red -11"], [[7, 0], "blue 2"], [[7, 2], "blue 4"], [[7, 6], "red 0"]
    ]  # fmt: skip


def test_restore_names_the_chips_to_put_back() -> None:
    ev = next(e for e in replay("restore_takeback")["events"] if e["kind"] == "restore_needed")
    assert ev["place"] == [[[2, 3], "blue 6"], [[3, 4], "red -1"]]
    assert ev["extra"] == [[4, 5]]


def test_replay_is_deterministic() -> None:
    assert replay("ambiguity_touch_choice") == replay("ambiguity_touch_choice")
