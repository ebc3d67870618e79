"""``damath-board hub`` commands that join the tournament to the boards (docs/tournament.md):

``seat`` / ``seats`` (which board stands at which table), ``publish`` and ``move`` (sent by the
running hub over MQTT: they ask it over HTTP with the organiser's token), ``accept`` and
``round`` (read the boards' finished games from the hub's store), ``account`` (the desk's
logins) and ``archive`` (the whole event as one zip file).
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from .tournament import handed_on

COMMANDS = (
    "seat",
    "seats",
    "publish",
    "start",
    "move",
    "accept",
    "round",
    "account",
    "archive",
)


def _dir(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dir", metavar="DIR", default=argparse.SUPPRESS, help="event directory")


def _division(p: argparse.ArgumentParser) -> None:
    p.add_argument("--division", metavar="NAME", help="the division (needed when several)")


def _url(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--url",
        default="http://127.0.0.1:8080",
        help="the running hub's web address (http://127.0.0.1:8080)",
    )


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    st = sub.add_parser("seat", help="put a board at a table (or every board: --auto)")
    _dir(st)
    _division(st)
    st.add_argument("--table", type=int, help="the table number")
    st.add_argument("--board", help="the board id (none: the table has no board)")
    st.add_argument(
        "--auto",
        action="store_true",
        help="every table without a board gets the next free board of its division's game",
    )
    st.add_argument(
        "--swap",
        action="store_true",
        help="the board stands at another table: the two tables exchange their boards",
    )

    ss = sub.add_parser("seats", help="which board stands at which table")
    _dir(ss)
    ss.add_argument("--json", action="store_true", help="as JSON")

    pb = sub.add_parser("publish", help="send a round's pairings to the boards (hub running)")
    _dir(pb)
    _division(pb)
    pb.add_argument("--round", type=int, required=True, help="the round")
    _url(pb)

    sr = sub.add_parser(
        "start", help="start a round: every table's clocks may run from now (hub running)"
    )
    _dir(sr)
    _division(sr)
    sr.add_argument("--round", type=int, required=True, help="the round")
    sr.add_argument("--by", default="arbiter", help="who starts it (arbiter)")
    _url(sr)

    mv = sub.add_parser("move", help="play a table's game on another board (hub running)")
    _dir(mv)
    _division(mv)
    mv.add_argument("--round", type=int, required=True)
    mv.add_argument("--table", type=int, required=True)
    mv.add_argument("--board", required=True, help="the board that plays it now")
    mv.add_argument("--reason", required=True, help="why (logged)")
    mv.add_argument("--by", default="arbiter", help="who decided (arbiter)")
    _url(mv)

    ac = sub.add_parser("accept", help="accept the boards' finished games as results")
    _dir(ac)
    _division(ac)
    ac.add_argument("--round", type=int, required=True)
    ac.add_argument("--table", type=int, help="one table (default: every finished game)")
    ac.add_argument("--by", default="arbiter", help="who accepts (arbiter)")

    rd = sub.add_parser("round", help="a round's tables: board, state, board's result, result")
    _dir(rd)
    _division(rd)
    rd.add_argument("--round", type=int, required=True)
    rd.add_argument("--json", action="store_true", help="as JSON")

    acc = sub.add_parser("account", help="the desk's logins: add, remove, list")
    _dir(acc)
    accs = acc.add_subparsers(dest="account_action", metavar="ACTION", required=True)
    add = accs.add_parser("add", help="a login for an organiser or an arbiter")
    add.add_argument("name")
    add.add_argument("--role", choices=("organiser", "arbiter"), default="arbiter")
    add.add_argument(
        "--password-stdin", action="store_true", help="read the password from standard input"
    )
    add.add_argument("--replace", action="store_true", help="set a new password")
    _dir(add)
    rm = accs.add_parser("remove", help="remove a login (its sessions end)")
    rm.add_argument("name")
    _dir(rm)
    ls = accs.add_parser("list", help="every login and its role")
    _dir(ls)

    ar = sub.add_parser("archive", help="the whole event as one zip file")
    _dir(ar)
    ar.add_argument("--out", metavar="FILE", required=True, help="the zip file to write")

    for name in COMMANDS:
        sub.choices[name].set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if not getattr(args, "dir", None):
        raise ValueError("--dir DIR is needed: the event directory")
    action = args.hub_action
    if action in ("publish", "start", "move"):
        return _remote(args)
    if action == "account":
        return _account(args)
    from controller.tournament.tournament import Tournament

    t = Tournament.open(args.dir)
    try:
        return int(_LOCAL[action](t, args))
    finally:
        t.close()


def _hub_store(folder: str) -> Any:
    from controller.hub.store import FILENAME, Store
    from controller.hub.storecheck import check

    path = Path(folder) / FILENAME
    if not path.exists():
        raise ValueError(f"{folder}: no hub store here (start the hub with --dir {folder} once)")
    check(Path(folder))  # a damaged store: the recovery in one message, not a traceback
    return Store(path)


def _seat(t: Any, args: argparse.Namespace) -> int:
    from controller.tournament import boards as seating

    if args.auto:
        store = _hub_store(args.dir)
        try:
            boards = {b["id"]: b.get("plays") for b in store.boards()}
        finally:
            store.close()
        seats = seating.auto_seats(t, boards)
        print(f"{len(seats)} tables have a board")
        return 0
    if args.table is None:
        raise ValueError("give --table N --board ID, or --auto")
    other = seating.set_seat(
        t, t.division(args.division).name, args.table, args.board, swap=args.swap
    )
    moved = ""
    if other is not None:  # the board that stood here went to the other table
        moved = f"; board {seating.seats(t).get(other, 'none')} to table {other[1]}"
    print(f"table {args.table}: board {args.board or 'none'}{moved}")
    return 0


def _seats(t: Any, args: argparse.Namespace) -> int:
    from controller.tournament import boards as seating

    seats = sorted(seating.seats(t).items())
    if args.json:
        print(json.dumps([{"division": d, "table": n, "board": b} for (d, n), b in seats]))
        return 0
    for (d, n), b in seats:
        print(f"{d:<14} table {n:>3}  {b}")
    return 0


def _accept(t: Any, args: argparse.Namespace) -> int:
    from controller.hub import rounds

    store = _hub_store(args.dir)
    try:
        if args.table is not None:
            p = t.pairing(args.round, args.table, args.division)
            r = rounds.accept(store, t, p.id, args.by)
            print(f"round {args.round}, table {args.table}: {r.outcome}")
            return 0
        n = rounds.accept_round(store, t, args.division, args.round, args.by)
    finally:
        store.close()
    print(f"{n} result(s) accepted")
    return 0


def _round(t: Any, args: argparse.Namespace) -> int:
    from controller.hub import rounds

    store = _hub_store(args.dir)
    try:
        rows = rounds.round_view(store, t, args.division, args.round)
    finally:
        store.close()
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    for r in rows:
        br = r["board_result"]
        res = r["result"]
        print(
            f"{r['table']:>3}  {r['board'] or '-':<8} {r['status']:<11} {r['blue']} vs "
            f"{r['red'] or '(bye)'}"
            + (f"  board: {br['outcome']} {br['blue']}:{br['red']}" if br else "")
            + (f"  result: {res['outcome']} {res['blue']}:{res['red']}" if res else "")
        )
    return 0


def _archive(t: Any, args: argparse.Namespace) -> int:
    from controller.hub.archive import build_zip

    store = _hub_store(args.dir)
    try:
        data = build_zip(store, t)
    finally:
        store.close()
    handed_on(args.out, data)  # sent to the federation, kept: not the folder's secrets
    print(f"the event archive written to {args.out} ({len(data) // 1024} KiB)")
    return 0


_LOCAL = {"seat": _seat, "seats": _seats, "accept": _accept, "round": _round, "archive": _archive}


def _account(args: argparse.Namespace) -> int:
    from controller.hub.accounts import Accounts

    accounts = Accounts(args.dir)
    try:
        if args.account_action == "list":
            for name, role in accounts.names():
                print(f"{name:<20} {role}")
        elif args.account_action == "remove":
            accounts.remove(args.name)
            print(f"account {args.name} removed")
        else:
            if args.password_stdin:
                password = sys.stdin.readline().rstrip("\n")
            else:
                password = getpass.getpass(f"password for {args.name}: ")
                if getpass.getpass("again: ") != password:
                    raise ValueError("the two passwords differ")
            accounts.add(args.name, args.role, password, replace=args.replace)
            print(f"account {args.name} ({args.role}) ready: log in at /desk")
    finally:
        accounts.close()
    return 0


def _remote(args: argparse.Namespace) -> int:
    from controller.hub.settings import load_or_create

    if not (Path(args.dir) / "hub.toml").exists():
        raise ValueError(f"{args.dir}: no hub here (hub.toml is missing)")
    token = load_or_create(Path(args.dir)).organiser_token
    body: dict[str, Any] = {"round": args.round, "division": args.division}
    if args.hub_action == "move":
        body.update(table=args.table, board=args.board, reason=args.reason, by=args.by)
    if args.hub_action == "start":
        body.update(by=args.by)
    path = f"/api/event/{args.hub_action}"
    request = urllib.request.Request(
        args.url.rstrip("/") + path,
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as resp:
            answer = json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        try:
            message = json.loads(exc.read()).get("error", str(exc))
        except ValueError:
            message = str(exc)
        raise ValueError(message) from None
    except OSError as exc:
        raise ValueError(f"the hub at {args.url} does not answer ({exc}); is it running?") from None
    if args.hub_action == "publish":
        for sent in answer["sent"]:
            print(f"table {sent['table']:>3} → board {sent['board']}")
        print(f"round {args.round} sent to {len(answer['sent'])} board(s)")
    elif args.hub_action == "start":
        print(f"round {args.round} started: {len(answer['started'])} board(s) told")
    else:
        print(f"round {args.round}, table {args.table} → board {args.board}")
    return 0
