"""A review of a game as words and as JSON: what ``damath-board review`` prints and what the
board's coach worker sends to the page (one rendering for both)."""

from __future__ import annotations

from typing import Any

from controller.rules.move import Move, side_name
from controller.rules.scoring import Score, display_float, format_score, score_move, sign
from controller.rules.values import format_fraction

from .coach import OPERATORS, Exchange, LineMove, MoveReview, Review
from .game_record import GameRecord

# ---------------------------------------------------------------------------- text


def review_text(result: Review, record: GameRecord, source: str) -> str:
    names = record.names
    out = [
        f"Review of {source}: {result.variant} Damath ({result.profile} rules), "
        f"{len(result.moves)} moves, the engine looking {result.depth} moves ahead",
        "",
        f"{'move':>4}  {'side':4}  {'played':24} {'score':>10}  {'engine':24} {'lost':>9}",
    ]
    for m in result.moves:
        score = score_move(m.move, result.variant).text if m.move.takings else ""
        best = "=" if m.accurate else str(m.best)
        lost = "" if m.accurate else f"{m.loss:.2f}"
        out.append(
            f"{m.number:>4}  {side_name(m.side).capitalize():4}  {m.move!s:24} "
            f"{score:>10}  {best:24} {lost:>9}"
        )
    out += ["", "The three biggest mistakes"]
    mistakes = result.mistakes()
    if not mistakes:
        out.append("  none: every move was as good as the engine's")
    for n, m in enumerate(mistakes, start=1):
        out.append(_mistake(n, m, names))
    out += ["", _accuracy_table(result, names)]
    return "\n".join(out)


def _mistake(n: int, m: MoveReview, names: tuple[str, str]) -> str:
    who = names[m.side]
    lines = [
        f"{n}. Move {m.number}, {who} ({side_name(m.side)}): {m.move} lost {m.loss:.2f} points."
    ]
    if m.missed_win:
        lines.append("   It let a won game slip.")
    if m.takings:
        lines.append(f"   Played: {'; '.join(m.takings)}")
    lines.append(
        f"   Better: {m.best}" + (f"  {'; '.join(m.best_takings)}" if m.best_takings else "")
    )
    best, mine = m.best_exchange, m.played_exchange
    lines.append(
        f"   Over {best.plies} moves: {format_score(m.better_by, m.kind)} points more "
        f"(takings {format_score(best.mine, m.kind)} to {format_score(best.theirs, m.kind)}, "
        f"not {format_score(mine.mine, m.kind)} to {format_score(mine.theirs, m.kind)})"
    )
    if len(m.best_line) > 1:
        steps = []
        for lm in m.best_line[1:]:
            text = f"{side_name(lm.side)} {lm.move}"
            if lm.takings:
                text += f" ({'; '.join(lm.takings)})"
            steps.append(text)
        lines.append("   Then: " + ", ".join(steps))
    return "\n".join(lines)


def _accuracy_table(result: Review, names: tuple[str, str]) -> str:
    cols = [f"{names[s.side]} ({side_name(s.side)})" for s in result.sides]
    width = max(24, *(len(c) + 2 for c in cols))
    rows = [f"{'accuracy':16}" + "".join(f"{c:>{width}}" for c in cols)]

    def cell(ok: int, n: int) -> str:
        return "—" if not n else f"{ok} of {n} ({round(100 * ok / n)} %)"

    rows.append(
        f"{'best moves':16}"
        + "".join(f"{cell(s.best_moves, s.choices):>{width}}" for s in result.sides)
    )
    rows.append(
        f"{'points lost':16}" + "".join(f"{s.total_loss:>{width}.2f}" for s in result.sides)
    )
    for i, op in enumerate(OPERATORS):
        label = f"takings on {op}"
        rows.append(
            f"{label:16}"
            + "".join(
                f"{cell(s.accuracy[i].accurate, s.accuracy[i].takings):>{width}}"
                for s in result.sides
            )
        )
    return "\n".join(rows)


# ---------------------------------------------------------------------------- JSON


def _path(move: Move) -> list[list[int]]:
    return [[x, y] for x, y in move.path]


def steps_json(move: Move, variant: str) -> list[dict[str, Any]]:
    """Each taking of a move as a child is told it: which chip jumps which, over which square,
    onto which operator's square, and the arithmetic as the sheet writes it."""
    out = []
    for t in score_move(move, variant).takings:
        taking = t.taking
        out.append(
            {
                "taker": taking.taker.value.label,
                "taken": taking.taken.value.label,
                "over": list(taking.taken_square),
                "land": list(taking.square),
                "operator": taking.operator,
                "multiplier": taking.multiplier,
                "arithmetic": t.written,
                "score": t.text,
            }
        )
    return out


def _chip_json(move: Move) -> dict[str, Any]:
    chip = move.chip
    if chip is None or chip.value is None:
        return {"label": "", "dama": False}
    return {"label": chip.value.label, "dama": chip.dama}


def _score_json(score: Score, kind: str) -> dict[str, Any]:
    return {"text": format_score(score, kind), "value": display_float(score), "sign": sign(score)}


def _exchange_json(ex: Exchange, kind: str) -> dict[str, Any]:
    return {"mine": _score_json(ex.mine, kind), "theirs": _score_json(ex.theirs, kind)}


def _line_json(line: tuple[LineMove, ...], kind: str) -> list[dict[str, Any]]:
    return [
        {
            "side": side_name(lm.side),
            "move": _path(lm.move),
            "takings": list(lm.takings),
            "score": format_score(lm.score, kind),
        }
        for lm in line
    ]


def review_json(result: Review, record: GameRecord) -> dict[str, Any]:
    variant = result.variant

    def move_json(m: MoveReview) -> dict[str, Any]:
        return {
            "index": m.index,
            "number": m.number,
            "side": side_name(m.side),
            "move": _path(m.move),
            "chip": _chip_json(m.move),
            "takings": list(m.takings),
            "steps": steps_json(m.move, variant),
            "best": _path(m.best),
            "best_takings": list(m.best_takings),
            "best_chip": _chip_json(m.best),
            "best_steps": steps_json(m.best, variant),
            "best_line": _line_json(m.best_line, m.kind),
            "played_line": _line_json(m.played_line, m.kind),
            "exchange": {
                "plies": max(m.best_exchange.plies, m.played_exchange.plies),
                "played": _exchange_json(m.played_exchange, m.kind),
                "best": _exchange_json(m.best_exchange, m.kind),
                "better_by": _score_json(m.better_by, m.kind),
            },
            "loss": m.loss,
            "loss_exact": format_fraction(m.loss_points),
            "accurate": m.accurate,
            "forced": m.forced,
            "missed_win": m.missed_win,
        }

    return {
        "variant": result.variant,
        "profile": result.profile,
        "depth": result.depth,
        "moves": [move_json(m) for m in result.moves],
        "mistakes": [m.index for m in result.mistakes()],
        "sides": [
            {
                "side": side_name(s.side),
                "name": record.names[s.side],
                "moves": s.moves,
                "choices": s.choices,
                "best_moves": s.best_moves,
                "points_lost": s.total_loss,
                "mistakes": [m.index for m in result.mistakes(s.side)],
                "accuracy": {
                    a.operator: {"takings": a.takings, "accurate": a.accurate, "percent": a.percent}
                    for a in s.accuracy
                },
            }
            for s in result.sides
        ],
    }
