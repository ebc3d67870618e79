"""``damath-board replay TRACE``: a recorded sensor trace through the tracker and the game.

This is the small driver the session will replace: it pushes every committed move onto the game,
turns the arbiter's ``takeback`` button into a takeback, and at the end lets time run on until
no timer is pending. The same trace always gives the same output (time comes from the trace).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from controller.rules.game import Game
from controller.rules.move import SIDE_NAMES, Move, side_name
from controller.rules.notation import NotationError, game_from_json
from controller.tracker import Event, MoveCommitted, Settings, SettingsError, Tracker
from controller.tracker.trace import Frame, Trace, TraceError, lines_of, read_trace

EXIT_OK = 0
EXIT_UNREADABLE = 2


@dataclass(frozen=True)
class Takeback(Event):
    """The arbiter took back the last move (the replay driver's stand-in for the session)."""

    move: Move | None = None
    kind = "takeback"

    def details(self) -> dict[str, Any]:
        return {"path": [list(s) for s in self.move.path]} if self.move else {}


@dataclass
class Replay:
    game: Game
    events: list[Event] = field(default_factory=list)
    moves: list[tuple[int, Move]] = field(default_factory=list)


def move_score(move: Move, variant: str | None) -> tuple[str, float]:
    """The adapter to the scorer: a move's score as written and as a float (display only)."""
    if variant is None:
        return "0", 0.0
    from controller.rules.scoring import score_move

    scored = score_move(move, variant)
    return scored.text, scored.value


def build_game(trace: Trace) -> Game:
    """The game a trace starts from: its position, or the opening of its variant."""
    if trace.position is None:
        return game_from_json({"variant": trace.variant, "profile": trace.profile})
    position = dict(trace.position)
    position.setdefault("variant", trace.variant)
    position.setdefault("profile", trace.profile)
    try:
        return game_from_json(position)
    except NotationError as exc:
        raise NotationError(f"line 1, position: {exc}") from None


def replay_trace(trace: Trace, max_steps: int = 1000) -> Replay:
    """Feed every record of the trace; then tick until nothing is pending."""
    game = build_game(trace)
    settings = Settings().with_overrides(trace.settings)
    tracker = Tracker(game, settings, mode="setup" if trace.position is None else "restore")
    out = Replay(game)

    def take(events: Iterable[Event]) -> None:
        for ev in events:
            out.events.append(ev)
            if isinstance(ev, MoveCommitted):
                out.moves.append((game.side_to_move, ev.move))
                game.push(ev.move)

    for rec in trace.records:
        if isinstance(rec, Frame):
            take(tracker.feed_frame(rec.t, rec.occupied))
        elif rec.button == "takeback":
            take(tracker.tick(rec.t))
            undone = game.pop() if game.ply else None
            if undone is not None:
                out.moves.pop()
            out.events.append(Takeback(rec.t, undone))
            take(tracker.set_position(game, rec.t))
        else:
            take(tracker.feed_button(rec.t, rec.button))
    for _ in range(max_steps):
        deadline = tracker.next_deadline()
        if deadline is None:
            break
        take(tracker.tick(deadline))
    return out


def event_json(ev: Event) -> dict[str, Any]:
    return {"t": round(ev.t, 6), "kind": ev.kind, **ev.details()}


def result_json(rep: Replay) -> dict[str, Any]:
    """Where the game stands: totals so far, and when it is over the grand totals and winner."""
    game = rep.game
    ending = game.ending()
    result: dict[str, Any] = {
        "plies": len(rep.moves),
        "to_move": side_name(game.side_to_move),
        "ending": ending.describe() if ending else None,
        "totals": dict.fromkeys(SIDE_NAMES, "0"),
    }
    if game.variant is None:
        return result
    from controller.rules.scoring import score_game

    profile = game.profile.name if game.profile else "official"
    score = score_game(rep.moves, game.chips(), game.variant, profile)
    for side in score.sides:
        result["totals"][side_name(side.side)] = side.total_text
    if ending is not None:
        result["grand_totals"] = {side_name(s.side): s.grand_text for s in score.sides}
        result["winner"] = side_name(score.winner) if score.winner is not None else None
        result["points"] = {side_name(s.side): float(s.points) for s in score.sides}
    return result


def scoresheet_text(rep: Replay) -> str:
    """The scoresheet of the replayed game, as the demo and the board print it."""
    from controller.scoresheet import build_scoresheet, render_text

    game = rep.game
    profile = game.profile.name if game.profile else "official"
    sheet = build_scoresheet(
        rep.moves,
        game.chips(),
        game.variant or "integer",
        profile,
        finished=game.ending() is not None,
    )
    return render_text(sheet)


def replay_json(rep: Replay) -> dict[str, Any]:
    moves = []
    for side, move in rep.moves:
        text, value = move_score(move, rep.game.variant)
        moves.append(
            {
                "side": side_name(side),
                "path": [list(s) for s in move.path],
                "captures": [list(s) for s in move.captures],
                "score_text": text,
                "score_value": value,
            }
        )
    return {
        "moves": moves,
        "events": [event_json(ev) for ev in rep.events],
        "result": result_json(rep),
    }


def render_text(data: dict[str, Any]) -> str:
    lines = ["Moves:"]
    for n, m in enumerate(data["moves"], start=1):
        sep = "x" if m["captures"] else "-"
        path = sep.join(f"({x},{y})" for x, y in m["path"])
        score = f"  score {m['score_text']}" if m["captures"] else ""
        lines.append(f"  {n:3}. {m['side']:<4} {path}{score}")
    lines.append("Events:")
    for ev in data["events"]:
        rest = {k: v for k, v in ev.items() if k not in ("t", "kind")}
        detail = " ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in rest.items())
        lines.append(f"  {ev['t']:9.3f}  {ev['kind']:<15} {detail}".rstrip())
    res = data["result"]
    lines.append(
        f"Result: {res['plies']} plies, {res['to_move']} to move; "
        f"totals blue {res['totals']['blue']}, red {res['totals']['red']}"
        + (f"; game over: {res['ending']}" if res["ending"] else "")
    )
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("trace", metavar="TRACE", help="a sensor trace (JSON Lines)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def run(args: argparse.Namespace) -> int:
    try:
        with open(args.trace, encoding="utf-8") as fh:
            trace = read_trace(lines_of(fh))
        rep = replay_trace(trace)
    except OSError as exc:
        print(
            f"damath-board replay: error: cannot read {args.trace}: {exc.strerror}", file=sys.stderr
        )
        return EXIT_UNREADABLE
    except UnicodeDecodeError:
        print(f"damath-board replay: error: {args.trace} is not UTF-8 text", file=sys.stderr)
        return EXIT_UNREADABLE
    except (TraceError, NotationError, SettingsError) as exc:
        print(f"damath-board replay: error: {args.trace}: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    data = replay_json(rep)
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(render_text(data))
        if rep.game.variant is not None:
            print()
            print(scoresheet_text(rep))
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="damath-board replay")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
