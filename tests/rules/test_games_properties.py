"""Property tests over random Dadama and Dam games (hypothesis).

Dadama: every step offered is accepted, every step not offered is refused without changing
anything, the invariants of G-1 … G-7 hold after each step, undo is exact, and the record
replays the same game. Dam: every position visited gets the same moves from the reference
generator, no move breaks a rule of shape, and undo is exact.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules.dadama import (
    DadamaGame,
    DadamaSettings,
    IllegalStep,
    Phase,
    Quiet,
    Stop,
    Throw,
)
from controller.rules.dadama_notation import (
    game_from_record,
    read_record_text,
    record_json,
    record_text,
)
from controller.rules.dam import DamGame, DamSettings

from . import dam_reference as ref

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

DADAMA_GAMES = st.tuples(
    st.sampled_from(("free", "italian")),
    st.sampled_from(("choice", "compulsory")),
    st.booleans(),
    st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=300),
)


def _state(game: DadamaGame):
    return (game.pieces(), game.side_to_move, game.phase, game.going_on, game.repetitions())


def _check_invariants(game: DadamaGame) -> None:
    pieces = game.pieces()
    for side in (0, 1):
        assert sum(1 for d in pieces.values() if d.side == side) <= 12
    for (_, y), die in pieces.items():
        assert die.value in range(1, 7)
        far = 7 if die.side == 0 else 0
        assert die.dadama or y != far, "a die on the far row is a dadama"


def _probe_refused(game: DadamaGame, pick: int) -> None:
    """A step that is not among the legal ones is refused and changes nothing."""
    before = _state(game)
    squares = game.geo.squares
    start, end = squares[pick % 32], squares[(pick // 32) % 32]
    quiet = Quiet(start, end)
    if quiet not in game.quiet_moves():
        try:
            game.play(quiet)
        except IllegalStep:
            pass
        else:  # pragma: no cover - the assertion below reports it
            raise AssertionError(f"{quiet} was accepted")
    if game.throwers():
        square = game.throwers()[0]
        dice = (pick % 6 + 1,) * game.dice_to_throw(square)
        legal = game.throw_options(square, dice)
        wrong = Throw(square, dice, dice[0], end)
        if wrong not in legal:
            try:
                game.play(wrong)
            except IllegalStep:
                pass
            else:  # pragma: no cover
                raise AssertionError(f"{wrong} was accepted")
    assert _state(game) == before


@SETTINGS
@given(DADAMA_GAMES)
def test_random_dadama_games_keep_every_invariant(spec):
    throw_choice, go_on, sixes, choices = spec
    options = DadamaSettings(throw_choice=throw_choice, go_on=go_on, all_sixes_loses=sixes)
    game = DadamaGame.opening(options)
    start = game.copy()
    snapshots = []
    for k, choice in enumerate(choices):
        if game.phase is Phase.OVER:
            break
        _check_invariants(game)
        if k % 7 == 0:
            _probe_refused(game, choice)
        if game.phase is Phase.MOVE:
            moves = game.quiet_moves()
            step = moves[choice % len(moves)]
        else:
            square = game.throwers()[choice % len(game.throwers())]
            dice = tuple((choice // 7 + 3 * n) % 6 + 1 for n in range(game.dice_to_throw(square)))
            steps = list(game.throw_options(square, dice))
            if game.can_stop:
                steps.append(Stop(square))
            step = steps[(choice // 41) % len(steps)]
        side = game.side_to_move
        snapshots.append(_state(game))
        played = game.play(step)
        assert played.side == side
        assert played.turn_ends == (game.side_to_move != side or game.phase is Phase.OVER)
        if played.taken_piece is not None:
            assert isinstance(step, Throw) and played.taken_piece.value <= step.kept
            assert played.piece.dadama or not played.taken_piece.dadama
    _check_invariants(game)
    record = record_json(game, start)
    again, _, _ = game_from_record(json.dumps(record))
    assert again.history == game.history and _state(again) == _state(game)
    texted, _, _ = read_record_text(record_text(game, start))
    assert texted.history == game.history
    while snapshots:
        game.undo()
        assert _state(game) == snapshots.pop()
    assert game.pieces() == start.pieces()


DAM_GAMES = st.tuples(
    st.sampled_from(("any", "most")),
    st.booleans(),
    st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=160),
)


def _reference_board(game: DamGame) -> ref.Board:
    return {sq: (chip.side, chip.dama) for sq, chip in game.chips().items()}


@SETTINGS
@given(DAM_GAMES)
def test_random_dam_games_agree_with_the_reference_and_undo_exactly(spec):
    priority, crowning, choices = spec
    game = DamGame.opening(DamSettings(capture_priority=priority, crowning_ends_move=crowning))
    snapshots = []
    for choice in choices:
        if game.is_over():
            break
        moves = game.legal_moves()
        if crowning:  # the reference knows English crowning only
            mine = sorted((m.path, m.captures) for m in moves)
            board = _reference_board(game)
            assert mine == sorted(ref.legal_moves(board, game.side_to_move, priority == "most"))
        move = moves[choice % len(moves)]
        chips = game.chips()
        assert chips[move.start].side == game.side_to_move
        assert all(chips[sq].side != game.side_to_move for sq in move.captures)
        assert len(set(move.captures)) == len(move.captures)
        assert move.end == move.start or move.end not in chips
        snapshots.append((chips, game.side_to_move, game.repetitions()))
        game.push(move)
    while snapshots:
        game.pop()
        assert (game.chips(), game.side_to_move, game.repetitions()) == snapshots.pop()


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 14) | st.sampled_from(["white", "black", "3", "x"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["square", "side", "value", "dadama", "king", "taken", "go_on", "x"]),
            inner,
            max_size=3,
        )
    ),
    max_leaves=8,
)
KEYS = ("game", "to_move", "settings", "pieces", "going_on", "start", "turns", "result", "x")


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYS), JSON_VALUES, max_size=4), st.text(max_size=60))
def test_bad_positions_and_records_get_a_message_never_a_traceback(obj, text):
    from controller.rules.dadama_notation import dadama_from_json
    from controller.rules.dam_notation import dam_from_json
    from controller.rules.notation import NotationError
    from controller.rules.pdn_game import read_pdn

    readers = (
        (dadama_from_json, obj),
        (dam_from_json, obj),
        (game_from_record, obj),
        (read_record_text, text),
        (read_pdn, '[GameType "Dam"]\n\n' + text),
    )
    for reader, data in readers:
        try:
            reader(data)
        except NotationError as exc:
            assert str(exc)
