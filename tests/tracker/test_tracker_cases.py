"""Tracker cases found by mutation testing (docs/testing.md), driven through the public API
with exact times: what the board shows and when, for the paths the traces did not pin down."""

from __future__ import annotations

from dataclasses import replace

from controller.rules import Game, game_from_json
from controller.tracker import Tracker
from controller.tracker.events import (
    Ambiguity,
    BoardNeeded,
    BoardReady,
    ButtonIgnored,
    Choice,
    Crowned,
    Lifted,
    Mismatch,
    MoveCommitted,
    MustTake,
    Promoted,
    PutBack,
    Recovered,
)
from controller.tracker.guidance import Guidance
from controller.tracker.settings import Settings

# What the view reads of the guidance (every field it had when these tests were written):
# compared whole, so a field filled wrongly shows, but a field added later breaks nothing here.
SHOWN = ("mode", "phase", "side", "lifted", "destinations", "cannot_move", "must_take",
         "to_be_taken", "missing", "extra", "place", "choices", "blink", "selected",
         "selected_marks", "locked", "crown", "rotated")  # fmt: skip


def shown(guidance: Guidance) -> dict:
    return {name: getattr(guidance, name) for name in SHOWN}


class Hands:
    """A person at the board: lifts and sets chips down at given times; collects events."""

    def __init__(self, game: Game, settings: Settings | None = None, t: float = 0.0) -> None:
        self.tracker = Tracker(game, settings)
        self.board = set(game.occupied())
        self.t = t
        self.events = list(self.tracker.feed_frame(t, self.board))

    def at(self, t: float) -> list:
        self.t = t
        new = self.tracker.tick(t)
        self.events += new
        return new

    def lift(self, square, t: float | None = None) -> list:
        self.board.discard(tuple(square))
        return self._frame(t)

    def put(self, square, t: float | None = None) -> list:
        self.board.add(tuple(square))
        return self._frame(t)

    def press(self, name: str, t: float | None = None) -> list:
        self.t = self.t if t is None else t
        new = self.tracker.feed_button(self.t, name)
        self.events += new
        return new

    def _frame(self, t: float | None) -> list:
        self.t = self.t if t is None else t
        new = self.tracker.feed_frame(self.t, self.board)
        self.events += new
        return new


def playing(game: Game, settings: Settings | None = None) -> Hands:
    hands = Hands(game, settings)
    hands.at(0.25)
    assert hands.tracker.guidance().mode == "play"
    return hands


def position(pieces: dict, to_move: str = "blue", **settings) -> Game:
    listed = [
        {"square": list(sq), "side": "blue" if code[0] in "bB" else "red",
         "value": code[2:] or "2", "dama": code[0].isupper()}
        for sq, code in pieces.items()
    ]  # fmt: skip
    data = {"variant": "integer", "to_move": to_move, "pieces": listed}
    if settings:
        data["settings"] = settings
    return game_from_json(data)


# ---------------------------------------------------------------------------- set-up


def test_setup_guidance_waits_then_is_ready_then_plays():
    game = Game.new("integer")
    tracker = Tracker(game)
    before = tracker.guidance()
    assert (before.mode, before.phase) == ("setup", "waiting")
    assert len(before.missing) == 24 and before.extra == ()
    assert tracker.next_deadline() is None and not tracker.pending
    board = set(game.occupied())
    board.discard((1, 2))
    tracker.feed_frame(0.0, board)
    g = tracker.guidance()
    assert (g.phase, g.missing, g.place) == ("waiting", ((1, 2),), (((1, 2), "blue -9"),))
    assert not tracker.pending and tracker.tick(5.0) == []
    board.add((1, 2))
    tracker.feed_frame(6.0, board)
    assert tracker.guidance().phase == "ready"
    assert tracker.pending and tracker.next_deadline() == 6.25
    assert tracker.tick(6.2) == []
    assert tracker.tick(6.25) == [BoardReady(6.25, "setup")]
    assert tracker.guidance().mode == "play"


def test_a_takeback_asks_for_the_position_before_the_move():
    hands = playing(Game.new("integer"))
    hands.lift((1, 2), t=1.0)
    hands.put((0, 3), t=1.1)
    assert [e.kind for e in hands.at(1.35)] == ["move"]
    events = hands.tracker.set_position(Game.new("integer"), 2.0)
    place = (((1, 2), "blue -9"),)
    assert events == [BoardNeeded(2.0, "restore", ((1, 2),), ((0, 3),), place)]
    assert shown(hands.tracker.guidance()) == shown(
        Guidance(
            mode="restore", phase="waiting", side=0, missing=((1, 2),), extra=((0, 3),), place=place
        )
    )
    assert hands.at(3.0) == []
    hands.lift((0, 3), t=3.0)
    assert hands.put((1, 2), t=3.1) == []
    assert hands.tracker.guidance().phase == "ready"
    assert hands.at(3.3) == []
    assert hands.at(3.35) == [BoardReady(3.35, "restore")]
    assert shown(hands.tracker.guidance()) == shown(Guidance(mode="play", phase="idle", side=0))


def test_a_new_position_before_any_frame_waits_for_the_board_quietly():
    tracker = Tracker(Game.new("integer"))
    assert tracker.set_position(Game.new("radical"), 1.0) == []
    assert tracker.guidance().mode == "restore" and not tracker.pending


def test_a_new_position_on_an_empty_board_asks_for_every_chip():
    tracker = Tracker(Game.new("integer"))
    tracker.feed_frame(0.0, set())
    events = tracker.set_position(Game.new("integer"), 1.0)
    assert len(events) == 1 and isinstance(events[0], BoardNeeded)
    assert events[0].mode == "restore" and len(events[0].missing) == 24


# ---------------------------------------------------------------------------- mistakes


def test_an_illegal_lift_says_why_at_once_and_becomes_a_mismatch_after_error_delay():
    hands = playing(Game.new("integer"), Settings(error_delay=1.0))
    events = hands.lift((6, 5), t=2.0)  # a red chip, Blue to move
    turn = "It is BLUE's turn: only blue chips move now. Put the red chip back on (6, 5)."
    assert events == [Lifted(2.0, (6, 5), (), turn)]
    g = hands.tracker.guidance()
    assert (g.phase, g.cannot_move, g.reason.rule) == ("invalid", ((6, 5),), "turn")
    assert hands.tracker.next_deadline() == 3.0
    assert hands.at(2.99) == []
    assert hands.at(3.0) == [Mismatch(3.0, ((6, 5),), ())]
    g = hands.tracker.guidance()
    assert (g.phase, g.missing, g.place) == ("mismatch", ((6, 5),), (((6, 5), "red -9"),))
    assert hands.put((6, 5), t=4.0) == [PutBack(4.0), Recovered(4.0)]
    assert hands.tracker.guidance().phase == "idle"


def test_a_blue_chip_with_nowhere_to_go_says_so():
    hands = playing(Game.new("integer"))
    events = hands.lift((1, 0), t=1.0)  # behind its own chips
    blocked = (
        "This chip cannot move now: the squares it could go to are taken. Put it back on (1, 0) "
        "and move another chip."
    )
    assert events == [Lifted(1.0, (1, 0), (), blocked)]
    assert hands.tracker.guidance().reason.rule == "blocked"


def test_a_chip_that_may_not_take_says_taking_is_mandatory_elsewhere():
    game = position({(2, 3): "b:6", (3, 4): "r:-1", (7, 2): "b:4", (0, 7): "r:2"})
    hands = playing(game)
    events = hands.lift((7, 2), t=1.0)
    must_take = (
        "You must take! When a chip can take, taking is not a choice in Damath. The chip on "
        "(2, 3) can take. Put this one back on (7, 2)."
    )
    assert events == [Lifted(1.0, (7, 2), (), must_take)]
    assert hands.tracker.guidance().reason.rule == "must_take"


def test_touch_move_names_the_chip_that_must_be_moved():
    hands = playing(Game.new("integer", "online"))
    assert hands.lift((1, 2), t=1.0) == [Lifted(1.0, (1, 2), ((0, 3), (2, 3)))]
    assert hands.tracker.guidance().locked == (1, 2)
    hands.put((1, 2), t=1.5)
    events = hands.lift((3, 2), t=2.0)
    touch = (
        "Touch-move: you lifted the chip on (1, 2) first, so that chip must move. Put this one "
        "back on (3, 2)."
    )
    assert events == [Lifted(2.0, (3, 2), (), touch)]
    assert hands.tracker.guidance().reason.rule == "touch_move"


def test_a_mismatch_that_follows_the_board_live_until_it_is_put_right():
    hands = playing(Game.new("integer"), Settings(error_delay=0.5))
    hands.lift((1, 2), t=1.0)
    hands.lift((3, 2), t=1.1)  # two chips up: matches nothing
    assert hands.at(1.59) == []
    assert hands.at(1.6) == [Mismatch(1.6, ((1, 2), (3, 2)), ())]
    hands.put((3, 2), t=2.0)  # one back: the rest is a legal move in progress
    assert hands.tracker.guidance().phase == "moving"
    assert Recovered(2.0) in hands.events


# ---------------------------------------------------------------------------- crowning


def test_a_chip_crowned_before_the_move_settles_is_noticed_on_arrival():
    """The player sets the chip on the dama square, lifts it to crown it and sets it back,
    all before the move commits: the board promotes and crowns at once."""
    game = position({(1, 6): "b:6", (7, 4): "r:2"})
    hands = playing(game)
    hands.lift((1, 6), t=1.0)
    hands.put((2, 7), t=1.1)
    hands.lift((2, 7), t=1.2)  # picked up again to be crowned
    hands.put((2, 7), t=1.3)
    events = hands.at(1.55)
    move = events[0].move
    assert events == [MoveCommitted(1.55, move), Promoted(1.55, (2, 7)), Crowned(1.55, (2, 7))]
    assert move.path == ((1, 6), (2, 7)) and move.promotes
    assert hands.tracker.guidance().crown is None


def test_a_chip_set_down_once_is_crowned_when_lifted_and_set_back_after_the_move():
    game = position({(1, 6): "b:6", (7, 4): "r:2"})
    hands = playing(game)
    hands.lift((1, 6), t=1.0)
    hands.put((2, 7), t=1.1)
    events = hands.at(1.35)
    assert [e.kind for e in events] == ["move", "promoted"]
    assert hands.tracker.guidance().crown == (2, 7)
    hands.lift((2, 7), t=2.0)
    assert hands.tracker.guidance().phase == "crowning"
    assert hands.put((2, 7), t=2.5) == [Crowned(2.5, (2, 7))]
    assert shown(hands.tracker.guidance()) == shown(Guidance(mode="play", phase="idle", side=1))


def test_a_promoted_chip_lifted_and_then_another_chip_is_not_a_crowning():
    hands = playing(position({(1, 6): "b:6", (7, 4): "r:2"}))
    hands.lift((1, 6), t=1.0)
    hands.put((2, 7), t=1.1)
    hands.at(1.35)
    hands.lift((2, 7), t=2.0)
    assert hands.lift((7, 4), t=2.5) == []  # Red moves on while the crown is in the air
    assert hands.put((2, 7), t=3.0) == [Lifted(3.0, (7, 4), ((6, 3),))]
    assert hands.tracker.guidance().crown is None


# ---------------------------------------------------------------------------- the ring

RING = {(2, 1): "b:-5", (3, 2): "r:3", (3, 4): "r:-7", (1, 4): "r:2", (1, 2): "r:8",
        (6, 7): "r:-1"}  # fmt: skip
CLOCKWISE = ((2, 1), (4, 3), (2, 5), (0, 3), (2, 1))
ANTICLOCKWISE = ((2, 1), (0, 3), (2, 5), (4, 3), (2, 1))


def ring_taken() -> Hands:
    """The four red chips come off; the taker, having gone round, stands where it began."""
    hands = playing(position(RING))
    for t, sq in enumerate(((3, 2), (3, 4), (1, 4), (1, 2)), start=1):
        hands.lift(sq, t=float(t))
    return hands


def test_a_ring_taken_either_way_asks_and_blinks_the_first_landings():
    hands = ring_taken()
    assert hands.at(4.2) == []
    events = hands.at(4.25)
    assert len(events) == 1 and isinstance(events[0], Ambiguity)
    assert {m.path for m in events[0].choices} == {CLOCKWISE, ANTICLOCKWISE}
    assert events[0].blink == ((0, 3), (4, 3))
    g = hands.tracker.guidance()
    assert (g.phase, g.blink, g.selected, g.selected_marks) == (
        "ambiguity", ((0, 3), (4, 3)), None, ()
    )  # fmt: skip
    assert g.reason is not None and g.reason.page == (  # the board says what to do about it
        "Two ways lead here, and they score differently. Touch a blinking square (or press "
        "Next) to show which way you went, then press Confirm."
    )
    first = hands.press("next", t=6.0)
    assert len(first) == 1 and isinstance(first[0], Choice)
    g = hands.tracker.guidance()
    assert g.selected == first[0].move
    assert g.selected_marks == (first[0].move.path[1],)  # where this way parts from the other


def test_every_taken_chip_set_back_at_once_during_the_question_is_a_put_back():
    """The four red chips back in one sensor frame (a hand sweeping them on): the question ends,
    the board is the position before the move again, and the event log says it was put back."""
    hands = ring_taken()
    assert isinstance(hands.at(4.25)[0], Ambiguity)
    hands.board |= {(3, 2), (3, 4), (1, 4), (1, 2)}
    assert hands._frame(5.0) == [PutBack(5.0)]
    g = hands.tracker.guidance()
    assert (g.phase, g.choices, g.blink) == ("idle", (), ())


def test_touching_a_first_landing_chooses_that_way_round():
    hands = ring_taken()
    hands.at(4.25)
    assert hands.lift((2, 1), t=6.0) == []  # the taker picked up again: no new lift
    assert hands.put((0, 3), t=6.1) == [Choice(6.1, hands.events[-1].move)]
    assert hands.events[-1].move.path == ANTICLOCKWISE
    assert hands.tracker.guidance().selected == hands.events[-1].move
    hands.lift((0, 3), t=6.2)
    hands.put((2, 1), t=6.3)
    events = hands.at(6.55)
    assert [type(e) for e in events] == [MoveCommitted]
    assert events[0].move.path == ANTICLOCKWISE


def test_confirm_takes_the_chosen_way_only_while_the_board_shows_the_move():
    hands = ring_taken()
    hands.at(4.25)
    assert hands.press("confirm", t=5.8) == [ButtonIgnored(5.8, "confirm")]  # nothing chosen
    chosen = hands.press("next", t=6.0)[0].move
    again = hands.press("next", t=6.1)[0].move
    assert again != chosen
    assert hands.press("next", t=6.2)[0].move == chosen  # round again
    hands.lift((2, 1), t=6.3)
    assert hands.press("confirm", t=6.4) == [ButtonIgnored(6.4, "confirm")]
    hands.put((2, 1), t=6.5)
    events = hands.press("confirm", t=6.6)
    assert events[0] == MoveCommitted(6.6, chosen)


# ---------------------------------------------------------------------------- the whole guidance
# Each phase's Guidance compared whole: a field filled wrongly or left out shows.


def test_guidance_in_setup_names_what_to_place_and_the_board_turned_round():
    game = position({(1, 2): "b:-9", (3, 2): "b:6", (6, 5): "r:-1"})
    tracker = Tracker(game)
    tracker.feed_frame(0.0, {(1, 2), (3, 2)})
    assert shown(tracker.guidance()) == shown(
        Guidance(
            mode="setup", phase="waiting", side=0, missing=((6, 5),), place=(((6, 5), "red -1"),)
        )
    )
    tracker.feed_frame(0.5, {(6, 5), (4, 5), (1, 2)})  # set up from the other side
    assert shown(tracker.guidance()) == shown(Guidance(
        mode="setup", phase="waiting", side=0, missing=((3, 2),), extra=((4, 5),),
        place=(((3, 2), "blue 6"),), rotated=True,
    ))  # fmt: skip


def test_guidance_while_idle_must_take_moving_and_settling():
    game = position({(2, 3): "b:6", (3, 4): "r:-1", (7, 2): "b:4", (0, 7): "r:2"})
    hands = playing(game)
    common = {"mode": "play", "side": 0}
    assert shown(hands.tracker.guidance()) == shown(
        Guidance(phase="idle", must_take=((2, 3),), to_be_taken=((3, 4),), **common)
    )
    hands.lift((2, 3), t=1.0)
    assert shown(hands.tracker.guidance()) == shown(
        Guidance(
            phase="moving",
            lifted=((2, 3),),
            destinations=((4, 5),),
            to_be_taken=((3, 4),),
            **common,
        )
    )
    hands.put((4, 5), t=1.5)
    assert shown(hands.tracker.guidance()) == shown(
        Guidance(
            phase="moving",
            lifted=((2, 3),),
            destinations=((4, 5),),
            to_be_taken=((3, 4),),
            **common,
        )
    )
    hands.lift((3, 4), t=2.0)
    assert shown(hands.tracker.guidance()) == shown(
        Guidance(phase="settling", lifted=((2, 3), (3, 4)), destinations=((4, 5),), **common)
    )
    assert hands.tracker.next_deadline() == 2.25
    hands.at(2.25)
    assert shown(hands.tracker.guidance()) == shown(Guidance(phase="idle", mode="play", side=1))


def test_guidance_of_an_illegal_lift_and_of_the_mismatch_it_becomes():
    hands = playing(Game.new("integer"))
    hands.lift((6, 5), t=1.0)
    assert shown(hands.tracker.guidance()) == shown(
        Guidance(mode="play", phase="invalid", side=0, cannot_move=((6, 5),))
    )
    hands.at(2.0)
    assert shown(hands.tracker.guidance()) == shown(Guidance(
        mode="play", phase="mismatch", side=0, missing=((6, 5),),
        place=(((6, 5), "red -9"),),
    ))  # fmt: skip
    hands.put((4, 3), t=2.5)  # the mismatch follows the board
    assert hands.tracker.guidance().extra == ((4, 3),)


def test_guidance_while_a_promoted_chip_waits_for_its_crown():
    hands = playing(position({(1, 6): "b:6", (7, 4): "r:2"}))
    hands.lift((1, 6), t=1.0)
    hands.put((2, 7), t=1.1)
    hands.at(1.35)
    assert shown(hands.tracker.guidance()) == shown(
        Guidance(mode="play", phase="idle", side=1, crown=(2, 7))
    )
    hands.lift((2, 7), t=2.0)
    assert shown(hands.tracker.guidance()) == shown(
        Guidance(mode="play", phase="crowning", side=1, crown=(2, 7))
    )


def test_guidance_with_touch_move_names_the_locked_chip():
    hands = playing(Game.new("integer", "online"))
    hands.lift((1, 2), t=1.0)
    assert shown(hands.tracker.guidance()) == shown(Guidance(
        mode="play", phase="moving", side=0, lifted=((1, 2),),
        destinations=((0, 3), (2, 3)), locked=(1, 2),
    ))  # fmt: skip


def test_guidance_of_the_ring_question_before_and_after_a_choice():
    hands = ring_taken()
    hands.at(4.25)
    choices = hands.events[-1].choices
    asked = Guidance(
        mode="play", phase="ambiguity", side=0, choices=choices, blink=((0, 3), (4, 3))
    )
    assert shown(hands.tracker.guidance()) == shown(asked)
    chosen = hands.press("next", t=5.0)[0].move
    mark = chosen.path[1]
    assert shown(hands.tracker.guidance()) == shown(
        replace(asked, selected=chosen, selected_marks=(mark,))
    )


def test_guidance_of_a_question_between_paths_that_land_on_different_squares():
    """Not a ring: the landings themselves tell the paths apart (they blink); the chosen
    path's inner landings stay lit."""
    hands = playing(position({(0, 1): "B:6", (2, 3): "r:-1", (5, 6): "r:4", (7, 6): "r:2"}))
    hands.lift((0, 1), t=1.0)
    hands.lift((2, 3), t=1.1)
    hands.lift((5, 6), t=1.2)
    hands.put((6, 7), t=1.3)
    hands.at(1.55)
    asked = hands.events[-1]
    assert isinstance(asked, Ambiguity) and asked.blink == ((3, 4), (4, 5))
    g = hands.tracker.guidance()
    assert (g.phase, g.blink, g.selected, g.selected_marks) == ("ambiguity", asked.blink, None, ())
    chosen = hands.press("next", t=2.0)[0].move
    g = hands.tracker.guidance()
    assert (g.selected, g.selected_marks) == (chosen, chosen.path[1:-1])
    assert hands.press("confirm", t=2.1) == [MoveCommitted(2.1, chosen)]


# ---------------------------------------------------------------------------- more questions


def played_to_the_end(pieces: dict, move_path, taken, t: float = 1.0) -> Hands:
    """The chip goes from its square to the end of ``move_path``, the taken chips come off;
    the board then shows the move's final position."""
    hands = playing(position(pieces))
    hands.lift(move_path[0], t=t)
    for k, sq in enumerate(taken, start=1):
        hands.lift(sq, t=t + 0.1 * k)
    hands.put(move_path[-1], t=t + 0.1 * (len(taken) + 1))
    return hands


# A dama takes two chips on one diagonal: four squares between them to land on (D-5).
FOUR_WAYS = {(7, 0): "B:2", (6, 1): "r:3", (1, 6): "r:-7", (1, 0): "R:-1", (4, 7): "R:8"}
# Three takings; the paths part only at the second landing.
LATE_PARTING = {(0, 5): "B:2", (1, 6): "R:3", (3, 6): "R:-7", (6, 3): "R:4", (6, 1): "r:8",
                (0, 3): "r:-1", (5, 6): "R:6", (2, 1): "R:10"}  # fmt: skip
# Two takings that land on different squares on the way.
TWO_WAYS = {(0, 1): "B:6", (2, 3): "r:-1", (5, 6): "r:4", (7, 6): "r:2"}


def test_next_goes_round_four_choices_in_order():
    hands = played_to_the_end(FOUR_WAYS, ((7, 0), (0, 7)), ((6, 1), (1, 6)))
    hands.at(1.55)
    asked = hands.events[-1]
    assert isinstance(asked, Ambiguity) and len(asked.choices) == 4
    picked = [hands.press("next", t=2.0 + k)[0].move for k in range(5)]
    order = list(asked.choices)
    assert picked == [*order, order[0]]


def test_a_question_whose_paths_part_late_marks_the_chosen_path():
    hands = played_to_the_end(LATE_PARTING, ((0, 5), (5, 0)), ((1, 6), (3, 6), (6, 3), (6, 1)))
    hands.at(1.75)
    asked = hands.events[-1]
    assert isinstance(asked, Ambiguity) and asked.blink == ((4, 5), (5, 4))
    chosen = hands.press("next", t=2.0)[0].move
    g = hands.tracker.guidance()
    assert (g.selected, g.selected_marks) == (chosen, chosen.path[1:-1])
    assert len(g.selected_marks) == 3  # every inner landing, not only where the ways part


def test_during_a_question_a_touch_elsewhere_changes_nothing():
    hands = played_to_the_end(TWO_WAYS, ((0, 1), (6, 7)), ((2, 3), (5, 6)))
    hands.at(1.55)
    asked = hands.tracker.guidance()
    assert hands.put((1, 0), t=2.0) == []  # a hand on the corner square, no way is meant
    assert shown(hands.tracker.guidance()) == shown(asked)
    assert hands.lift((1, 0), t=2.1) == []
    assert hands.at(2.5) == []
    assert shown(hands.tracker.guidance()) == shown(asked)


def test_during_a_question_another_chip_lifted_is_read_afresh():
    hands = played_to_the_end(TWO_WAYS, ((0, 1), (6, 7)), ((2, 3), (5, 6)))
    hands.at(1.55)
    assert hands.lift((7, 6), t=2.0) == []  # a red chip: the question is off, the board is wrong
    assert hands.tracker.guidance().phase == "mismatch_pending"
    hands.put((7, 6), t=2.5)
    events = hands.at(2.75)
    assert len(events) == 1 and isinstance(events[0], Ambiguity)  # asked again


def test_landings_touched_on_both_ways_still_ask():
    """The chip was set down on a landing of each way: nothing singles one out."""
    hands = playing(position(TWO_WAYS))
    hands.lift((0, 1), t=1.0)
    hands.put((3, 4), t=1.1)
    hands.lift((3, 4), t=1.2)
    hands.put((4, 5), t=1.3)
    hands.lift((4, 5), t=1.4)
    hands.lift((2, 3), t=1.5)
    hands.lift((5, 6), t=1.6)
    hands.put((6, 7), t=1.7)
    events = hands.at(1.95)
    assert len(events) == 1 and isinstance(events[0], Ambiguity)
    assert len(events[0].choices) == 2


def test_touching_both_first_landings_of_a_ring_still_asks():
    hands = ring_taken()
    hands.at(4.25)
    hands.lift((2, 1), t=5.0)
    assert len(hands.put((0, 3), t=5.1)) == 1  # this way round...
    hands.lift((0, 3), t=5.2)
    assert hands.put((4, 3), t=5.3) == []  # ...or that way: no longer clear
    hands.lift((4, 3), t=5.4)
    hands.put((2, 1), t=5.5)
    assert hands.at(5.75) == []
    assert hands.tracker.guidance().phase == "ambiguity"


# ---------------------------------------------------------------------------- odds and ends


def test_chip_text_names_side_value_and_dama():
    from controller.rules import Chip
    from controller.tracker.tracker import chip_text

    game = position({(1, 2): "b:-9", (6, 5): "R:8"})
    chips = game.chips()
    assert chip_text(chips[(1, 2)]) == "blue -9"
    assert chip_text(chips[(6, 5)]) == "red 8 dama"
    assert chip_text(Chip(0)) == "blue"


def test_an_unknown_button_is_refused_with_the_list():
    tracker = Tracker(Game.new("integer"))
    try:
        tracker.feed_button(0.0, "reset")
    except ValueError as exc:
        assert str(exc) == (
            "unknown button 'reset'; buttons are: confirm, next, pause, takeback, new_game"
        )
    else:
        raise AssertionError("no error")


def test_the_same_position_again_settles_from_the_call():
    hands = playing(Game.new("integer"))
    assert hands.tracker.set_position(Game.new("integer"), 5.0) == []
    assert shown(hands.tracker.guidance()) == shown(Guidance(mode="restore", phase="ready", side=0))
    assert hands.at(5.2) == []
    assert hands.at(5.25) == [BoardReady(5.25, "restore")]


def test_confirm_never_turns_the_board_round_during_play():
    game = position({(1, 2): "b:-9", (3, 2): "b:6", (6, 5): "r:-1"})
    hands = playing(game)
    hands.board = {(6, 5), (4, 5), (1, 2)}  # every chip moved to its mirror square
    hands._frame(1.0)
    assert hands.press("confirm", t=1.5) == [ButtonIgnored(1.5, "confirm")]
    assert not hands.tracker.flipped


def test_a_knocked_in_chip_is_a_mismatch_until_taken_away():
    hands = playing(Game.new("integer"), Settings(error_delay=0.5))
    assert hands.put((3, 4), t=1.0) == []  # a chip dropped on an empty square
    assert hands.at(1.5) == [Mismatch(1.5, (), ((3, 4),))]
    assert hands.lift((3, 4), t=2.0) == [PutBack(2.0), Recovered(2.0)]


def test_taking_is_announced_when_the_move_that_allows_it_commits():
    game = position({(1, 2): "b:-9", (4, 5): "r:6", (7, 6): "r:2"})
    hands = playing(game)
    hands.lift((1, 2), t=1.0)
    hands.put((2, 3), t=1.1)
    hands.at(1.35)
    hands.lift((4, 5), t=2.0)
    hands.put((3, 4), t=2.1)
    events = hands.at(2.35)
    assert [e.kind for e in events] == ["move", "guidance"]
    assert events[1] == MustTake(2.35, ((2, 3),), ((3, 4),))


def test_the_touch_move_setting_overrides_the_profile_both_ways():
    online = Tracker(Game.new("integer", "online"), Settings(touch_move=False))
    official = Tracker(Game.new("integer"), Settings(touch_move=True))
    assert (online.touch_move, official.touch_move) == (False, True)
    hands = playing(Game.new("integer"), Settings(touch_move=True))
    hands.lift((1, 2), t=1.0)
    assert hands.tracker.guidance().locked == (1, 2)
    hands = playing(Game.new("integer", "online"), Settings(touch_move=False))
    hands.lift((1, 2), t=1.0)
    assert hands.tracker.guidance().locked is None


def test_a_tracker_mode_other_than_setup_or_restore_is_refused():
    try:
        Tracker(Game.new("integer"), mode="play")
    except ValueError as exc:
        assert str(exc) == "mode must be 'setup' or 'restore', got 'play'"
    else:
        raise AssertionError("no error")


def test_a_square_off_the_playing_squares_is_refused_by_name():
    tracker = Tracker(Game.new("integer"))
    try:
        tracker.feed_frame(0.0, [(2, 4)])
    except ValueError as exc:
        assert str(exc) == "(2, 4) is not a playable square"
    else:
        raise AssertionError("no error")


def test_two_chips_lifted_show_nothing_yet_and_no_chip_is_blamed():
    hands = playing(Game.new("integer"), Settings(error_delay=0.5))
    hands.lift((1, 2), t=1.0)
    hands.lift((3, 2), t=1.1)
    assert shown(hands.tracker.guidance()) == shown(
        Guidance(mode="play", phase="mismatch_pending", side=0)
    )


def test_a_board_swept_clear_is_a_mismatch_after_error_delay():
    hands = playing(Game.new("integer"), Settings(error_delay=0.5))
    hands.board = set()
    hands._frame(1.0)
    assert hands.at(1.4) == []
    events = hands.at(1.5)
    assert len(events) == 1 and isinstance(events[0], Mismatch) and len(events[0].missing) == 24


def test_the_board_turned_round_is_offered_once():
    game = position({(1, 2): "b:-9", (3, 2): "b:6", (6, 5): "r:-1"})
    tracker = Tracker(game)
    turned = {(6, 5), (4, 5), (1, 2)}
    events = tracker.feed_frame(0.0, turned)
    events += tracker.feed_frame(0.5, turned - {(1, 2)})
    events += tracker.feed_frame(1.0, turned)
    assert [e.kind for e in events] == ["setup_needed", "setup_rotated"]


def test_the_compared_guidance_fields_exist():
    from dataclasses import fields

    assert set(SHOWN) <= {f.name for f in fields(Guidance)}
