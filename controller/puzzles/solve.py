"""A child's answer to a puzzle, judged and told: the position as a page draws it, whether the
move is the solution's, and the words that follow (the arithmetic of a right answer, the
reason of a wrong one, in the coach's own sentences and the language in force). Stateless:
the page sends the solver's moves so far, each is checked again against the solution."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from controller.i18n import N_, _, side_word
from controller.rules.damath_data import OPERATORS
from controller.rules.game import Game
from controller.rules.move import Move
from controller.rules.scoring import compare
from controller.session.coach_words import page_signs, taking_sentences

from .finder import net_points
from .model import Path_, Puzzle
from .points import points_words, read_score
from .themes import THEMES

RIGHT = N_("Right! That is the best move.")
RIGHT_SO_FAR = N_("Right! {side} must answer, and does: now find your next move.")
WRONG_LESS = N_("That move gives you {points} points less than the best one over the next moves.")
WRONG_EQUAL = N_("That move lets the other side score more over the next moves.")
WRONG_REPLY = N_("After it, {side} answers:")
TRY_AGAIN = N_("Try again: look at every taking, and what the other side can take after it.")
SOLUTION_WAS = N_("The best move was {move}:")
QUIET_MOVE = N_("It takes nothing now; it prepares the next taking.")
GAIN = N_("Over the next moves it gives you {points} points more than the second-best move.")
NOT_YOURS = N_("That is not a move of this puzzle's position.")


@dataclass(frozen=True)
class Judged:
    """What the page shows after a move: ``right`` (the puzzle is solved), ``continue`` (right,
    and a forced reply was played: the next move is the child's), or ``wrong``."""

    result: str
    said: list[str]
    game: Game
    """The position the child faces now (after a wrong move: the same as before it)."""
    reply: Path_ | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def square_text(path: Path_) -> str:
    return "-".join(f"({x}, {y})" for x, y in path)


def board_json(game: Game, solver: int) -> dict[str, Any]:
    """The position as the page draws it: the chips with their numbers as the board writes
    them, the operators of the squares, the legal moves (the page offers only these)."""
    return {
        "variant": game.variant,
        "to_move": game.side_to_move,
        "solver": solver,
        "side": side_word(solver),
        "pieces": [
            {
                "x": sq[0],
                "y": sq[1],
                "side": chip.side,
                "value": page_signs(str(chip.value.label)) if chip.value is not None else "",
                "dama": chip.dama,
            }
            for sq, chip in sorted(game.chips().items())
        ],
        "operators": [{"x": sq[0], "y": sq[1], "op": op} for sq, op in OPERATORS.items()],
        "legal": [[list(s) for s in m.path] for m in game.legal_moves()],
    }


def themes_words(puzzle: Puzzle) -> list[str]:
    return [_(THEMES[t]) for t in puzzle.themes if t in THEMES]


def position_at(puzzle: Puzzle, played: list[Path_]) -> tuple[Game, int] | None:
    """The game after the solver's ``played`` moves (each the solution's, and the forced reply
    after each), and the step the child is at; None when an earlier move is not the solution's."""
    game = puzzle.game()
    step = 0
    for path in played:
        if 2 * step >= len(puzzle.solution) or puzzle.solution[2 * step] != path:
            return None
        game.push(game.find_move(list(path)))
        if 2 * step + 1 < len(puzzle.solution):
            game.push(game.find_move(list(puzzle.solution[2 * step + 1])))
        step += 1
    return game, step


def judge(puzzle: Puzzle, played: list[Path_], answer: Path_) -> Judged:
    """The child's ``answer`` at the position after ``played`` (ValueError: not this puzzle's)."""
    at = position_at(puzzle, played)
    if at is None:
        raise ValueError(_(NOT_YOURS))
    game, step = at
    try:
        move = game.copy().find_move(list(answer))
    except ValueError:
        raise ValueError(_(NOT_YOURS)) from None
    variant = puzzle.variant
    best_path = puzzle.solution[2 * step]
    if move.path == best_path:
        after = game.copy()
        mine = after.push(after.find_move(list(best_path)))
        said = taking_sentences(mine, variant, yours=True) or [_(QUIET_MOVE)]
        if 2 * step + 1 < len(puzzle.solution):
            reply = after.push(after.find_move(list(puzzle.solution[2 * step + 1])))
            told = [_(RIGHT_SO_FAR).format(side=side_word(1 - puzzle.solver))]
            told += said + taking_sentences(reply, variant, yours=False)
            return Judged("continue", told, after, reply.path)
        if step == 0 and len(puzzle.solution) == 1:
            gain = points_words(read_score(puzzle.gain, variant), variant)
            said.append(_(GAIN).format(points=gain))
        return Judged("right", [_(RIGHT), *said], after)
    return Judged("wrong", _wrong(puzzle, game, step, move), game)


def _played(game: Game, path: Path_) -> Move:
    copy = game.copy()
    return copy.push(copy.find_move(list(path)))


def _line(game: Game, paths: tuple[Path_, ...]) -> list[Move]:
    copy = game.copy()
    out = []
    for path in paths:
        try:
            out.append(copy.push(copy.find_move(list(path))))
        except ValueError:
            break
    return out


def _wrong(puzzle: Puzzle, game: Game, step: int, move: Move) -> list[str]:
    """Why the move is not the best, in what a child can check: the points it gives up over
    the next moves (counted as the sheet counts), and the other side's answer to it."""
    variant = puzzle.variant
    solver = puzzle.solver
    wrong_line = _line(game, puzzle.refutation(step, move.path))
    best_line = _line(game, puzzle.refutation(step, puzzle.solution[2 * step]))
    if not wrong_line or wrong_line[0].path != move.path:
        wrong_line = [_played(game, move.path)]
    said = taking_sentences(wrong_line[0], variant, yours=True)
    lost = net_points(best_line, solver, variant) - net_points(wrong_line, solver, variant)
    if compare(lost, Fraction(0)) > 0:
        said.append(_(WRONG_LESS).format(points=points_words(lost, variant)))
    else:
        said.append(_(WRONG_EQUAL))
    if len(wrong_line) > 1 and wrong_line[1].takings:
        said.append(_(WRONG_REPLY).format(side=side_word(1 - solver)))
        said += taking_sentences(wrong_line[1], variant, yours=False)
    return said


def solution_words(puzzle: Puzzle, played: list[Path_]) -> list[str]:
    """The move the child should have found, told with its arithmetic (after a second miss)."""
    at = position_at(puzzle, played)
    if at is None:
        return []
    game, step = at
    best = _played(game, puzzle.solution[2 * step])
    return [_(SOLUTION_WAS).format(move=square_text(best.path))] + (
        taking_sentences(best, variant=puzzle.variant, yours=True) or [_(QUIET_MOVE)]
    )
