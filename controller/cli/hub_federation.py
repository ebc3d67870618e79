"""``damath-board hub federation import|submit|bridge``: the event's ties to its federation
(docs/federation.md), each with the event's credential file from the federation
(``--credential FILE``).

- ``import ID …``: players entered by their federation IDs (name and school from the registry);
- ``submit``: the finished event, signed, sent over HTTPS (or ``--out FILE`` for a USB stick);
  the federation's verdict printed, every reason with it;
- ``bridge``: the hall's live boards bridged to the federation's broker cluster (``--off``
  to stop); the hub's broker reads it when the hub starts.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    fed = sub.add_parser("federation", help="the event's federation: players, submit, bridge")
    fed.set_defaults(handler=run)
    fsub = fed.add_subparsers(dest="fed_action", metavar="ACTION", required=True)
    imp = fsub.add_parser("import", help="players entered by their federation IDs")
    imp.add_argument("ids", nargs="+", metavar="ID", help="federation IDs (seven digits)")
    imp.add_argument("--division", default="open", help="their division (open)")
    submit = fsub.add_parser("submit", help="the finished event to the federation")
    submit.add_argument("--out", metavar="FILE", help="write the signed submission, send nothing")
    submit.add_argument(
        "--attempts", type=int, default=5, help="tries when the connection is cut (5)"
    )
    submit.add_argument("--retry-pause", type=float, default=2.0, help=argparse.SUPPRESS)
    bridge = fsub.add_parser("bridge", help="the hall's live boards to the federation's broker")
    bridge.add_argument("--off", action="store_true", help="stop bridging")
    for p in (imp, submit, bridge):
        p.add_argument("--dir", metavar="DIR", default=argparse.SUPPRESS, help="event directory")
        p.add_argument(
            "--credential", metavar="FILE", required=True, help="the event's credential file"
        )


def run(args: argparse.Namespace) -> int:
    from controller.federation.credentials import load

    if not getattr(args, "dir", None):
        raise ValueError("--dir DIR is needed: the event directory")
    cred = load(args.credential)
    if args.fed_action == "bridge":
        return _bridge(args, cred)
    from controller.tournament.tournament import Tournament

    t = Tournament.open(args.dir)
    try:
        if args.fed_action == "import":
            return _import(args, t, cred)
        return _submit(args, t, cred)
    finally:
        t.close()


def _import(args: argparse.Namespace, t: Any, cred: Any) -> int:
    from controller.hub.fedlink import import_players

    for p in import_players(t, cred, args.ids, args.division):
        print(f"{p.id:>3}  {p.fed_id}  {p.name} ({p.school or '-'}), division {p.division}")
    return 0


def _submit(args: argparse.Namespace, t: Any, cred: Any) -> int:
    from controller.cli.hub_event import _hub_store
    from controller.hub.submit import build, send, unfinished

    # an event run with the command line only has no hub store: nothing but its results
    store = _hub_store(args.dir) if (Path(args.dir) / "hub.sqlite").exists() else None
    try:
        body = build(store, t, cred)
    finally:
        if store is not None:
            store.close()
    open_tables = unfinished(t)
    if open_tables:
        print(f"note: {len(open_tables)} pairing(s) without a result yet, e.g. {open_tables[0]}")
    if args.out:
        Path(args.out).write_bytes(body)
        print(f"the signed submission written to {args.out} ({len(body) // 1024} KiB)")
        return 0
    if not 1 <= args.attempts <= 100:
        raise ValueError(f"--attempts {args.attempts}: from 1 to 100")
    verdict = send(
        cred,
        body,
        attempts=args.attempts,
        pause=max(0.0, args.retry_pause),
        say=lambda text: print(text, flush=True),
    )
    if verdict.get("again"):
        print(
            f"(the federation had received this submission before the connection was cut: "
            f"its verdict then, submission {verdict.get('submission')}, kept once)"
        )
    if verdict.get("verdict") == "accepted":
        print(
            f"event {cred.event}: accepted by the federation ({verdict.get('games')} games "
            f"verified, {verdict.get('results')} results; submission {verdict.get('submission')})"
        )
    else:
        print(f"event {cred.event}: refused by the federation")
    for r in verdict.get("reasons", []):
        print(f"  refused: {r.get('where')}: {r.get('reason')}")
    for r in verdict.get("notes", []):
        print(f"  note: {r.get('where')}: {r.get('reason')}")
    return 0 if verdict.get("verdict") == "accepted" else 1


def _bridge(args: argparse.Namespace, cred: Any) -> int:
    from controller.hub.fedlink import remove_bridge, write_bridge

    if args.off:
        done = remove_bridge(args.dir)
        print("the bridge is off (restart the hub)" if done else "there was no bridge")
        return 0
    path = write_bridge(args.dir, cred)
    print(
        f"the hall's live boards go to the federation's broker ({', '.join(cred.nodes)}) as "
        f"hall {cred.hall}: {path}; restart the hub to start it"
    )
    return 0
