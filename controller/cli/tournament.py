"""``damath-board hub event|division|player|pair|pairings|exchange|result|standings|export|log``:
the organiser's and the arbiter's commands (docs/tournament.md).

Mounted under ``damath-board hub`` by ``add_commands``; every command works on the event
directory ``--dir DIR`` (the same directory the hub serves). Each answers a mistake with one
clear line (``damath-board hub: error: …``), never a traceback: ``TournamentError`` is a
``ValueError``, which the main command prints. Heavy imports wait until a command runs.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.rules.options import add_rules
from controller.tournament.hall_time import hall_time

if TYPE_CHECKING:
    from fractions import Fraction

    from controller.tournament.model import Event, Pairing, Points
    from controller.tournament.tournament import Tournament

COMMANDS = (
    "event",
    "division",
    "player",
    "pair",
    "pairings",
    "exchange",
    "result",
    "standings",
    "teams",
    "export",
    "log",
)

RESULT_WORDS = {
    "blue": "blue",
    "1-0": "blue",
    "red": "red",
    "0-1": "red",
    "draw": "draw",
    "1/2": "draw",
    "½-½": "draw",
    "1/2-1/2": "draw",
    "blue-forfeit": "blue-forfeit",
    "+-": "blue-forfeit",
    "red-forfeit": "red-forfeit",
    "-+": "red-forfeit",
    "double-forfeit": "double-forfeit",
    "bye": "bye",
}


def _dir(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dir", metavar="DIR", default=argparse.SUPPRESS, help="the event directory")


def _division(p: argparse.ArgumentParser) -> None:
    p.add_argument("--division", metavar="NAME", help="which division (when there are several)")


def _system(p: argparse.ArgumentParser) -> None:
    p.add_argument("--system", default="swiss", help="swiss, round-robin or knockout")
    p.add_argument("--rounds", type=int, default=0, help="rounds (a Swiss needs it)")


def _game(p: argparse.ArgumentParser, default: str | None) -> None:
    from controller.tournament.games import GAMES

    p.add_argument(
        "--game",
        default=default,
        metavar="GAME",
        help=f"the game its tables play: {', '.join(GAMES)}"
        + (f" ({default})" if default else " (kept; a new division: damath)"),
    )


def _json(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="machine-readable output")


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the tournament's commands to ``damath-board hub``'s subcommands."""
    ev = sub.add_parser("event", help="create, show or change the event")
    evs = ev.add_subparsers(dest="event_action", metavar="ACTION", required=True)
    create = evs.add_parser("create", help="a new event in --dir")
    change = evs.add_parser("set", help="change the event's details or scoring")
    for p in (create, change):
        _dir(p)
        p.add_argument("--name", required=p is create, help="the event's name")
        p.add_argument("--date", help="e.g. 2026-12-05")
        p.add_argument("--venue")
        p.add_argument("--variant", help="Damath variant (integer, fraction, radical, …)")
        add_rules(p, default=None, help="rules profile (official, online)")
        p.add_argument("--time-control", metavar="TEXT", help="e.g. '20 min + 10 s'")
        p.add_argument("--points", metavar="W,D,L", help="points for a win, draw, loss (1,1/2,0)")
        p.add_argument("--bye-points", metavar="P", help="points for a bye (a win's)")
        p.add_argument("--forfeit-points", metavar="P", help="points for a forfeit win (a win's)")
        p.add_argument("--tiebreaks", metavar="A,B,…", help="tie-break order (see docs)")
        p.add_argument(
            "--start",
            choices=("desk", "table"),
            help="the clocks of a round start at the arbiter's start from the desk (desk, the "
            "default) or when each table is confirmed at its board (table)",
        )
        p.add_argument(
            "--team-size",
            type=int,
            metavar="N",
            help="a school's team score: its best N players' points (3; 0: no team ranking)",
        )
    _system(create)
    from controller.tournament.model import (
        DEFAULT_GAME,  # light: the rest of the tournament loads when used
    )

    _game(create, DEFAULT_GAME)
    create.add_argument(
        "--division", default="open", metavar="NAME", help="the first division's name (open)"
    )
    create.add_argument(
        "--initial-colour",
        choices=("blue", "red", "draw"),
        default="draw",
        help="pairing number 1's colour in round 1 (draw: by lot, the default)",
    )
    show = evs.add_parser("show", help="the event's settings")
    _dir(show)
    _json(show)

    dv = sub.add_parser("division", help="add or change a division (before it starts)")
    dvs = dv.add_subparsers(dest="division_action", metavar="ACTION", required=True)
    dset = dvs.add_parser("set", help="a division run side by side: its system and rounds")
    _dir(dset)
    dset.add_argument("name", metavar="NAME")
    _system(dset)
    _game(dset, None)
    dlist = dvs.add_parser("list", help="every division")
    _dir(dlist)

    pl = sub.add_parser("player", help="add, import, list, withdraw players")
    pls = pl.add_subparsers(dest="player_action", metavar="ACTION", required=True)
    add = pls.add_parser("add", help="one player (a late entry once the Swiss has started)")
    _dir(add)
    add.add_argument("name", metavar="NAME")
    add.add_argument("--school", default="")
    add.add_argument("--grade", default="", help="grade or year (Grade 6)")
    add.add_argument("--division", default="open", metavar="NAME")
    add.add_argument("--rating", type=int)
    ed = pls.add_parser("edit", help="correct a player's name, school, grade or rating (logged)")
    _dir(ed)
    ed.add_argument("player", metavar="PLAYER", help="number or name")
    ed.add_argument("--name", help="the name as it should be written")
    ed.add_argument("--school")
    ed.add_argument("--grade")
    ed.add_argument("--rating", help="a whole number, or 'none' to clear it")
    ed.add_argument("--reason", default="", help="why (logged)")
    imp = pls.add_parser(
        "import", help="players from a CSV file: name,school,grade,division,rating"
    )
    _dir(imp)
    imp.add_argument("file", metavar="FILE.csv")
    wd = pls.add_parser("withdraw", help="a player leaves: not paired after this round")
    _dir(wd)
    wd.add_argument("player", metavar="PLAYER", help="number or name")
    wd.add_argument("--reason", default="")
    ab = pls.add_parser("absent", help="a player will miss a round (before it is paired)")
    _dir(ab)
    ab.add_argument("player", metavar="PLAYER", help="number or name")
    ab.add_argument("--round", type=int, required=True)
    ab.add_argument("--reason", default="")
    ls = pls.add_parser("list", help="every player")
    _dir(ls)
    _division(ls)
    _json(ls)

    pr = sub.add_parser("pair", help="pair the next round")
    _dir(pr)
    pr.add_argument("--round", type=int, required=True, metavar="N")
    pr.add_argument(
        "--by-hand",
        metavar="PAIRS",
        help="the arbiter's own pairing by player numbers, Blue-Red, a lone number the bye: "
        "'1-5,6-2,3'",
    )
    pr.add_argument("--reason", default="", help="why pair by hand (logged)")
    _division(pr)
    _json(pr)

    prs = sub.add_parser("pairings", help="a round's pairings")
    _dir(prs)
    prs.add_argument("--round", type=int, metavar="N", help="(the latest)")
    _division(prs)
    _json(prs)

    ex = sub.add_parser("exchange", help="the arbiter swaps two players' seats in a round")
    _dir(ex)
    ex.add_argument("--round", type=int, required=True, metavar="N")
    ex.add_argument("player_a", metavar="PLAYER")
    ex.add_argument("player_b", metavar="PLAYER", help="the same table's players: swap colours")
    ex.add_argument("--reason", required=True, help="why (it is logged)")
    ex.add_argument("--by", default="arbiter", help="who decides (logged)")
    _division(ex)

    rs = sub.add_parser("result", help="record or correct a table's result")
    _dir(rs)
    rs.add_argument("--round", type=int, required=True, metavar="N")
    rs.add_argument("--table", type=int, required=True, metavar="T")
    rs.add_argument(
        "outcome",
        nargs="?",
        metavar="RESULT",
        help="blue (1-0), red (0-1), draw, blue-forfeit, red-forfeit, double-forfeit, bye; "
        "left out: from the scores",
    )
    rs.add_argument(
        "--scores",
        metavar="BLUE:RED",
        help="Damath scores, e.g. '24:-7/6' (a negative first one: --scores=-7:12)",
    )
    rs.add_argument("--reason", default="", help="a correction's reason (required then)")
    rs.add_argument("--by", default="arbiter", help="who records it (logged)")
    rs.add_argument(
        "--by-arbiter",
        action="store_true",
        help="the arbiter's decision (a result that differs from the scores)",
    )
    _division(rs)

    st = sub.add_parser("standings", help="the standings, tie-breaks included")
    _dir(st)
    _division(st)
    _json(st)

    tm = sub.add_parser("teams", help="the schools' ranking: each school's best N players")
    _dir(tm)
    _division(tm)
    _json(tm)

    xp = sub.add_parser(
        "export",
        help="standings, crosstable, teams, a round's pairings or its find-your-table list, "
        "as CSV or a printable A4 page",
    )
    _dir(xp)
    xp.add_argument("what", choices=("standings", "crosstable", "teams", "pairings", "find-table"))
    xp.add_argument("--round", type=int, metavar="N", help="pairings, find-table: (the latest)")
    xp.add_argument("--format", choices=("csv", "html"), default="csv")
    xp.add_argument("--out", metavar="FILE", help="(standard output)")
    _division(xp)

    lg = sub.add_parser("log", help="every change, with who and when")
    _dir(lg)
    _json(lg)

    for name in COMMANDS:
        sub.choices[name].set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if not getattr(args, "dir", None):
        raise ValueError("--dir DIR is needed: the event directory")
    action = args.hub_action
    if action == "event" and args.event_action == "create":
        return _event_create(args)
    import sqlite3

    from controller.tournament.tournament import Tournament

    t = Tournament.open(args.dir)
    try:
        return _HANDLERS[action](t, args)
    except sqlite3.Error as exc:  # e.g. the file locked by another program for too long
        raise ValueError(f"{t.store.path}: {exc}; nothing was changed") from None
    finally:
        t.close()


# --------------------------------------------------------------------------------------------


def _points(text: str) -> Fraction:
    from fractions import Fraction

    from controller.tournament.model import TournamentError

    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise TournamentError(f"points {text!r}: a number such as 1, 0.5 or 1/2") from None
    if value < 0:
        raise TournamentError(f"points {text!r}: not negative")
    return value


def _scoring(args: argparse.Namespace, current: Points) -> Points:
    from dataclasses import replace

    from controller.tournament.model import TournamentError

    p = current
    if args.points:
        parts = args.points.split(",")
        if len(parts) != 3:
            raise TournamentError("--points: three numbers WIN,DRAW,LOSS, e.g. 1,1/2,0 or 3,1,0")
        w, d, loss = (_points(x) for x in parts)
        if not w > d >= loss:
            raise TournamentError("--points: a win must give more than a draw, a draw no less")
        p = replace(p, win=w, draw=d, loss=loss, bye=w, forfeit_win=w, forfeit_loss=loss)
    if args.bye_points is not None:
        p = replace(p, bye=_points(args.bye_points))
    if args.forfeit_points is not None:
        p = replace(p, forfeit_win=_points(args.forfeit_points))
    return p


def _event_fields(args: argparse.Namespace, current: Event) -> dict[str, Any]:
    from controller.tournament.model import TournamentError

    fields = {}
    for key, option in (
        ("name", "name"),
        ("date", "date"),
        ("venue", "venue"),
        ("variant", "variant"),
        ("profile", "rules"),
        ("time_control", "time_control"),
    ):
        value = getattr(args, option, None)
        if value is not None:
            fields[key] = value.strip()
    if "variant" in fields:
        from controller.rules.damath_data import VARIANTS

        if fields["variant"] not in VARIANTS:
            raise TournamentError(f"unknown variant: one of {', '.join(VARIANTS)}")
    if "profile" in fields:
        from controller.rules.damath_data import PROFILES

        if fields["profile"] not in PROFILES:
            raise TournamentError(f"unknown rule profile: one of {', '.join(PROFILES)}")
    if getattr(args, "start", None) is not None:
        fields["start"] = args.start
    if getattr(args, "team_size", None) is not None:
        fields["team_size"] = args.team_size
    points = _scoring(args, current.points)
    if points != current.points:
        fields["points"] = points
    if args.tiebreaks is not None:
        fields["tiebreaks"] = tuple(t.strip() for t in args.tiebreaks.split(",") if t.strip())
    return fields


def _event_create(args: argparse.Namespace) -> int:
    import secrets
    from dataclasses import replace

    from controller.tournament.games import tournament_game
    from controller.tournament.model import Division, Event
    from controller.tournament.tournament import Tournament

    colour = args.initial_colour
    if colour == "draw":
        colour = secrets.choice(("blue", "red"))
    base = Event(name=args.name, initial_colour=colour)
    event = replace(base, **_event_fields(args, base))
    game = tournament_game(args.game)
    t = Tournament.create(
        args.dir, event, Division(args.division.strip(), args.system, args.rounds, game.name)
    )
    print(f"event {event.name!r} created in {t.store.path}")
    print(
        f"division {args.division!r}: {game.title}, {args.system}"
        + (f", {args.rounds} rounds" if args.rounds else "")
    )
    print(
        f"pairing number 1 plays {colour.capitalize()} in round 1"
        + (" (drawn by lot)" if args.initial_colour == "draw" else "")
    )
    t.close()
    return 0


def _event(t: Tournament, args: argparse.Namespace) -> int:
    from controller.tournament.export import points_text

    if args.event_action == "set":
        fields = _event_fields(args, t.event)
        if not fields:
            raise ValueError("nothing to change: give --name, --date, --points, --tiebreaks, …")
        t.update_event(**fields)
    e = t.event
    info = {
        "name": e.name,
        "date": e.date,
        "venue": e.venue,
        "variant": e.variant,
        "profile": e.profile,
        "time_control": e.time_control,
        "points": {k: points_text(getattr(e.points, k)) for k in e.points.__dataclass_fields__},
        "tiebreaks": list(e.tiebreaks),
        "initial_colour": e.initial_colour,
        "start": e.start,
        "team_size": e.team_size,
        "divisions": {
            d.name: {"game": d.game, "system": d.system, "rounds": t.total_rounds(d.name)}
            for d in t.divisions().values()
        },
    }
    if getattr(args, "json", False):
        print(json.dumps(info, ensure_ascii=False, indent=2))
    else:
        for k, v in info.items():
            print(f"{k}: {v}")
    return 0


def _division_cmd(t: Tournament, args: argparse.Namespace) -> int:
    from controller.tournament.games import GAMES

    if args.division_action == "set":
        d = t.set_division(args.name, args.system, args.rounds, game=args.game)
        print(
            f"division {d.name!r}: {GAMES[d.game].title}, {d.system}"
            + (f", {d.rounds} rounds" if d.rounds else "")
        )
        return 0
    for d in t.divisions().values():
        print(f"{d.name}: {GAMES[d.game].title}, {d.system}, {t.total_rounds(d.name)} rounds")
    return 0


def _player(t: Tournament, args: argparse.Namespace) -> int:
    a = args.player_action
    if a == "add":
        p = t.add_player(args.name, args.school, args.division, args.rating, grade=args.grade)
        late = f" (late entry: plays from round {p.joined_round})" if p.joined_round > 1 else ""
        print(f"player {p.id}: {p.name}, division {p.division}{late}")
    elif a == "edit":
        rating: int | str | None = ""
        if args.rating is not None:
            raw = args.rating.strip()
            if raw.casefold() in ("", "none", "-"):
                rating = None
            elif raw.isdigit():
                rating = int(raw)
            else:
                raise ValueError(f"--rating {raw!r}: a whole number, or none")
        before = t.player(args.player)
        p = t.edit_player(
            before.id, reason=args.reason, name=args.name, school=args.school,
            grade=args.grade, rating=rating,
        )  # fmt: skip
        print(f"player {p.id}: {_player_line(p)} (was {_player_line(before)})")
    elif a == "import":
        path = Path(args.file)
        try:
            text = path.read_text(encoding="utf-8-sig")
        except UnicodeDecodeError:
            raise ValueError(f"{path}: not UTF-8 text; save the sheet as CSV UTF-8") from None
        added = t.import_players(text)
        print(f"{len(added)} players added from {path}")
    elif a == "withdraw":
        p = t.withdraw(args.player, reason=args.reason)
        print(f"{p.name} withdrawn: not paired after round {p.withdrawn_after}")
    elif a == "absent":
        t.mark_absent(args.player, args.round, reason=args.reason)
        print(f"{t.player(args.player).name} will not be paired in round {args.round}")
    else:
        players = t.players(args.division).values()
        if args.json:
            print(json.dumps([p.__dict__ for p in players], ensure_ascii=False, indent=2))
        for p in [] if args.json else players:
            extra = (
                f", withdrawn after round {p.withdrawn_after}"
                if p.withdrawn_after is not None
                else ""
            )
            print(f"{p.id:>4}  {_player_line(p)}, {p.division}{extra}")
    return 0


def _player_line(p: Any) -> str:
    """``Ana Reyes (Rizal ES, Grade 6), rating 1500``."""
    about = ", ".join(x for x in (p.school, p.grade) if x) or "-"
    rating = f", rating {p.rating}" if p.rating is not None else ""
    return f"{p.name} ({about}){rating}"


def _print_pairings(t: Tournament, pairings: list[Pairing], as_json: bool) -> None:
    players = t.players()
    results = t.results()
    if as_json:
        print(
            json.dumps(
                [
                    {
                        "id": p.id,
                        "division": p.division,
                        "round": p.round,
                        "table": p.table,
                        "blue": p.blue,
                        "red": p.red,
                        "blue_name": players[p.blue].name,
                        "red_name": None if p.red is None else players[p.red].name,
                        "result": results[p.id].outcome if p.id in results else None,
                    }
                    for p in pairings
                ],
                ensure_ascii=False,
                indent=2,
            )
        )
        return
    for p in pairings:
        done = f"   [{results[p.id].outcome}]" if p.id in results else ""
        if p.red is None:
            print(f"Table {p.table:>2}  {players[p.blue].name} (bye){done}")
        else:
            print(
                f"Table {p.table:>2}  {players[p.blue].name} (Blue) vs "
                f"{players[p.red].name} (Red){done}"
            )


def _by_hand(text: str) -> list[tuple[int, int | None]]:
    from controller.tournament.model import TournamentError

    pairs: list[tuple[int, int | None]] = []
    for part in text.split(","):
        numbers = [x.strip() for x in part.split("-")]
        if not all(x.isdigit() for x in numbers) or len(numbers) not in (1, 2):
            raise TournamentError(
                f"--by-hand: {part.strip()!r} is not BLUE-RED or one number (the bye)"
            )
        pairs.append((int(numbers[0]), int(numbers[1]) if len(numbers) == 2 else None))
    return pairs


def _pair(t: Tournament, args: argparse.Namespace) -> int:
    by_hand = _by_hand(args.by_hand) if args.by_hand else None
    created = t.pair(args.round, args.division, by_hand=by_hand, reason=args.reason)
    if not args.json:
        print(f"Round {args.round}, division {created[0].division}:")
    _print_pairings(t, created, args.json)
    return 0


def _pairings(t: Tournament, args: argparse.Namespace) -> int:
    d = t.division(args.division)
    rnd = args.round or t.last_round(d.name)
    pairs = t.pairings(d.name, rnd)
    if not pairs:
        raise ValueError(f"round {rnd} of division {d.name!r} is not paired yet")
    if not args.json:
        print(f"Round {rnd}, division {d.name}:")
    _print_pairings(t, pairs, args.json)
    return 0


def _exchange(t: Tournament, args: argparse.Namespace) -> int:
    pairs = t.exchange(
        args.round, args.player_a, args.player_b, args.reason, args.by, args.division
    )
    print(f"Round {args.round} changed ({args.reason}):")
    _print_pairings(t, pairs, False)
    return 0


def _result(t: Tournament, args: argparse.Namespace) -> int:
    from controller.tournament.damath_scores import cmp, text
    from controller.tournament.games import parse_game_score
    from controller.tournament.model import BLUE, GameResult, TournamentError

    game = t.division(args.division).game
    blue = red = None
    if args.scores:
        parts = args.scores.split(":")
        if len(parts) != 2:
            raise TournamentError("--scores BLUE:RED, e.g. --scores '24:-7/6' or '12√2:3'")
        blue, red = parse_game_score(game, parts[0]), parse_game_score(game, parts[1])
    if args.outcome is None:
        if blue is None:
            raise TournamentError("give the result (blue, red, draw, …) or --scores BLUE:RED")
        assert red is not None
        c = cmp(blue, red)
        outcome: str | None = BLUE if c > 0 else "red" if c < 0 else "draw"
    else:
        outcome = RESULT_WORDS.get(args.outcome.strip().casefold())
        if outcome is None:
            raise TournamentError(
                f"result {args.outcome!r}: one of blue (1-0), red (0-1), draw, blue-forfeit, "
                "red-forfeit, double-forfeit, bye"
            )
    p = t.pairing(args.round, args.table, args.division)
    source = "arbiter" if args.by_arbiter else "hand"
    assert outcome is not None
    t.record_result(p.id, GameResult(outcome, blue, red, source), by=args.by, reason=args.reason)
    scores = ""
    if blue is not None and red is not None:
        variant = t.event_for(p.division).variant
        scores = f" ({text(blue, variant)} : {text(red, variant)})"
    print(f"round {p.round}, table {p.table}: {outcome}{scores}")
    return 0


def _standings(t: Tournament, args: argparse.Namespace) -> int:
    from controller.tournament.export import standings_json, standings_rows

    d = t.division(args.division)
    table = t.standings(d.name)
    if args.json:
        print(
            json.dumps(standings_json(table, t.event_for(d.name), d.name), ensure_ascii=False,
                       indent=2)
        )  # fmt: skip
        return 0
    rows = standings_rows(table, t.event_for(d.name))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    print(f"{t.event.name}, division {d.name}, {t.progress(d.name).words()}")
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    return 0


def _teams(t: Tournament, args: argparse.Namespace) -> int:
    from controller.tournament.printing import team_rows
    from controller.tournament.teams import team_standings

    d = t.division(args.division)
    teams = team_standings(t.standings(d.name), t.event.team_size)
    if args.json:
        print(json.dumps(_teams_json(teams, t.event.variant), ensure_ascii=False, indent=2))
        return 0
    if t.event.team_size == 0:
        print("no team ranking in this event (--team-size 0)")
        return 0
    rows = team_rows(teams, t.event.variant)
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    print(
        f"{t.event.name}, division {d.name}, {t.progress(d.name).words()}: each school's "
        f"best {t.event.team_size}"
    )
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r[:4], widths, strict=True)) + "  " + r[4])
    return 0


def _teams_json(teams: list[Any], variant: str) -> list[dict[str, Any]]:
    from controller.tournament.damath_scores import store_text, text
    from controller.tournament.export import points_text

    return [
        {
            "rank": team.rank,
            "shared": team.shared,
            "school": team.school,
            "points": str(team.points),
            "points_text": points_text(team.points),
            "score_diff": {
                "text": text(team.score_diff, variant),
                "exact": store_text(team.score_diff),
            },
            "counted": [s.player.id for s in team.counted],
            "others": [s.player.id for s in team.others],
        }
        for team in teams
    ]


def _export(t: Tournament, args: argparse.Namespace) -> int:
    """One division's export, or, in an event of several with no ``--division`` and an
    ``--out`` file, every division's, each in its own file (``standings-dam.html``)."""
    used = sorted({p.division for p in t.players().values()} or t.divisions())
    if args.division is not None or len(used) < 2:
        return _write(args, _exported(t, args, t.division(args.division).name), args.out)
    if not args.out:
        raise ValueError(
            f"this event has divisions {', '.join(used)}: name one with --division, or give "
            "--out FILE for a file per division"
        )
    out = Path(args.out)
    for name in used:
        _write(args, _exported(t, args, name), str(out.with_stem(f"{out.stem}-{name}")))
    return 0


def _exported(t: Tournament, args: argparse.Namespace, division: str) -> str:
    from controller.tournament import export, printing

    d = t.division(division)
    if args.what in ("pairings", "find-table", "teams"):
        rnd = args.round or t.last_round(d.name)
        if args.what != "teams" and not t.pairings(d.name, rnd):
            raise ValueError(f"round {rnd} of division {d.name!r} is not paired yet")
        if args.format == "html":
            return printing.printed(t, args.what, d.name, rnd)
        if args.what == "pairings":
            return export.to_csv(printing.pairings_rows(t, d.name, rnd))
        if args.what == "find-table":
            return export.to_csv(printing.find_table_rows(t, d.name, rnd))
        from controller.tournament.teams import team_standings

        teams = team_standings(t.standings(d.name), t.event.team_size)
        return export.to_csv(printing.team_rows(teams, t.event.variant))
    table = t.standings(d.name)
    if args.what == "standings":
        rows, title, key = (
            export.standings_rows(table, t.event_for(d.name)),
            "standings",
            export.standings_key(t.event_for(d.name)),
        )
    elif d.system == "round-robin":
        rows, title, key = export.grid_rows(table), "crosstable", export.GRID_KEY
    else:
        rows, title, key = export.crosstable_rows(table), "crosstable", export.CROSSTABLE_KEY
    title += f" {t.progress(d.name).words()}"
    if args.format == "csv":
        return export.to_csv(rows)
    return export.html_page(title, t.event_for(d.name), d.name, rows, key)


def handed_on(path: str | Path, data: bytes) -> None:
    """Write a file the organiser hands on (a printed list, the archive): readable by others
    (0644) whatever the hub's private umask, as a results file is meant to be shared."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.fchmod(fd, 0o644)
        os.write(fd, data)
    finally:
        os.close(fd)


def _write(args: argparse.Namespace, out: str, path: str | None) -> int:
    if path:
        handed_on(path, out.encode("utf-8"))
        print(f"{args.what} ({args.format}) written to {path}")
    else:
        sys.stdout.write(out)
    return 0


def _log(t: Tournament, args: argparse.Namespace) -> int:
    entries = t.log()
    if args.json:
        print(json.dumps(entries, ensure_ascii=False, indent=2))
        return 0
    for e in entries:
        detail = ", ".join(f"{k}={v}" for k, v in e["detail"].items() if v not in (None, ""))
        print(f"{hall_time(e['at'])}  {e['by']:<10} {e['action']:<16} {detail}")
    return 0


_HANDLERS = {
    "event": _event,
    "division": _division_cmd,
    "player": _player,
    "pair": _pair,
    "pairings": _pairings,
    "exchange": _exchange,
    "result": _result,
    "standings": _standings,
    "teams": _teams,
    "export": _export,
    "log": _log,
}
