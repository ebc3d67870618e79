"""``damath-board federation``: the federation's service and its administrator's commands
(docs/federation.md). Every command works on the federation's folder ``--dir DIR`` (its
settings, and its SQLite store unless ``federation.toml`` or ``--db`` names a PostgreSQL one).

A mistake is one line (``damath-board federation: error: …``), never a traceback. The store's
packages (the ``federation`` extra) are imported when a command runs; without them the command
says which extra to install.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

from controller.i18n import _

for _needed in ("sqlalchemy", "alembic"):  # the extra this command needs (cheap to look for)
    if importlib.util.find_spec(_needed) is None:
        raise ModuleNotFoundError(f"No module named {_needed!r}", name=_needed)

DB_ENV = "DAMATH_FEDERATION_DB"


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dir", metavar="DIR", required=True, help=_("the federation's folder"))
    p.add_argument(
        "--db",
        metavar="URL",
        default=os.environ.get(DB_ENV, ""),
        help=_(
            "the store: postgresql://user:password@host/db, or an SQLite file "
            "(default: federation.toml's db, else DIR/federation.sqlite; also {env})"
        ).format(env=DB_ENV),
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="fed_action", metavar="ACTION", required=True)

    init = sub.add_parser("init", help=_("a new federation in --dir (or change its settings)"))
    _common(init)
    init.add_argument("--name", help=_("the federation's name"))
    init.add_argument("--url", help=_("the https:// address hubs reach this federation at"))
    init.add_argument("--ca", metavar="FILE", help=_("the CA certificate of that address"))
    init.add_argument(
        "--broker-nodes",
        metavar="HOST:PORT,…",
        help=_("the broker cluster's MQTT nodes (TLS, port 8883)"),
    )
    init.add_argument("--broker-ca", metavar="FILE", help=_("the CA of the cluster's certificates"))
    init.add_argument("--broker-user", help=_("the federation's own user at the broker"))
    init.add_argument("--broker-password", help=_("its password"))
    init.add_argument(
        "--period-months", type=int, help=_("months in a rating period (1, 2, 3, 4, 6, 12)")
    )

    mig = sub.add_parser("migrate", help=_("bring the store's schema to this version"))
    _common(mig)

    player = sub.add_parser("player", help=_("the registry: add, import, list"))
    psub = player.add_subparsers(dest="player_action", metavar="ACTION", required=True)
    padd = psub.add_parser("add", help=_("register a player: prints the federation ID"))
    _common(padd)
    padd.add_argument("name")
    padd.add_argument("--school", default="")
    padd.add_argument("--region", default="")
    padd.add_argument("--birth-year", default="")
    pimp = psub.add_parser("import", help=_("register every player of a CSV list"))
    _common(pimp)
    pimp.add_argument("file", help=_("CSV: name, school, region, birth_year"))
    plist = psub.add_parser("list", help=_("every registered player"))
    _common(plist)
    plist.add_argument("--json", action="store_true")

    ev = sub.add_parser("event", help=_("events: add (its credential), list, show"))
    esub = ev.add_subparsers(dest="event_action", metavar="ACTION", required=True)
    eadd = esub.add_parser("add", help=_("a new event and its credential file for the hub"))
    _common(eadd)
    eadd.add_argument("id", help=_("the event's id: lower-case letters, digits, -"))
    eadd.add_argument("--name", required=True)
    eadd.add_argument("--date", required=True, help="YYYY-MM-DD")
    eadd.add_argument("--region", default="")
    eadd.add_argument("--out", metavar="FILE", help=_("the credential file (DIR/events/ID.toml)"))
    elist = esub.add_parser("list", help=_("every event and its state"))
    _common(elist)
    eshow = esub.add_parser("show", help=_("an event's submissions, verdicts and results"))
    _common(eshow)
    eshow.add_argument("id")
    eshow.add_argument("--json", action="store_true")

    ver = sub.add_parser(
        "verify", help=_("verify and keep a submission file a hub could not send itself")
    )
    _common(ver)
    ver.add_argument("file", help=_("the hub's submission (hub federation submit --out)"))
    ver.add_argument("--event", required=True, help=_("the event it is for"))

    broker = sub.add_parser(
        "broker", help=_("what to run on the broker cluster: its nodes' settings, its users")
    )
    _common(broker)
    broker.add_argument(
        "--hall", metavar="EVENT", help=_("only the user of this event's hall (event add made it)")
    )
    broker.add_argument("--cert", default="/etc/rabbitmq/node.pem", help=argparse.SUPPRESS)
    broker.add_argument("--key", default="/etc/rabbitmq/node.key", help=argparse.SUPPRESS)

    rate = sub.add_parser("rate", help=_("every rating from scratch"))
    _common(rate)

    lst = sub.add_parser("list", help=_("the rating list"))
    _common(lst)
    lst.add_argument("--pool", default="all", help=_("all, integer, fraction, radical, polynomial"))
    lst.add_argument("--region", default="")
    lst.add_argument("--school", default="")
    lst.add_argument("--age", default="", help="U8 … U20, open")
    lst.add_argument("--established", action="store_true", help=_("no provisional ratings"))
    lst.add_argument("--format", choices=("text", "csv", "json"), default="text")

    serve = sub.add_parser("serve", help=_("the federation's web service and its live wall"))
    _common(serve)
    serve.add_argument("--http-host", default="0.0.0.0")
    serve.add_argument("--http-port", type=int, default=8443)
    serve.add_argument("--tls-cert", metavar="FILE", help=_("HTTPS: the certificate"))
    serve.add_argument("--tls-key", metavar="FILE", help=_("HTTPS: its private key"))
    serve.add_argument("--ready-file", metavar="FILE", help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    os.umask(0o077)  # the store, the credentials, the settings: the administrator's only
    folder = Path(args.dir)
    action = args.fed_action
    if action == "init":
        return _init(args, folder)
    from controller.federation.service import Federation

    fed = Federation.open(folder, args.db)
    try:
        handler = {
            "migrate": _migrate,
            "player": _player,
            "event": _event,
            "verify": _verify,
            "broker": _broker,
            "rate": _rate,
            "list": _list,
            "serve": _serve,
        }[action]
        return handler(args, fed)
    finally:
        fed.close()


def _init(args: argparse.Namespace, folder: Path) -> int:
    from controller.federation.settings import FILENAME, FederationSettings, check, save
    from controller.federation.settings import load as load_settings
    from controller.federation.store import FederationStore

    settings = load_settings(folder) if (folder / FILENAME).exists() else FederationSettings()
    changes: dict[str, Any] = {}
    for option, name in (
        ("name", "name"),
        ("url", "url"),
        ("broker_user", "broker_username"),
        ("broker_password", "broker_password"),
        ("period_months", "period_months"),
    ):
        value = getattr(args, option)
        if value is not None:
            changes[name] = value
    if args.db:
        changes["db"] = args.db
    for option, name in (("ca", "ca_file"), ("broker_ca", "broker_ca_file")):
        given = getattr(args, option)
        if given:
            if not Path(given).is_file():
                raise ValueError(_("{path}: no such file").format(path=given))
            changes[name] = str(Path(given).resolve())
    if args.broker_nodes is not None:
        changes["broker_nodes"] = [n.strip() for n in args.broker_nodes.split(",") if n.strip()]
    settings = check({**vars(settings), **changes}, FILENAME)
    store = FederationStore.open(settings.db, folder)
    revision = store.migrate()
    store.close()
    path = save(folder, settings)
    print(
        _("federation {name!r} in {path}; its store: {store} (schema {revision})").format(
            name=settings.name, path=path, store=store.shown, revision=revision
        )
    )
    return 0


def _migrate(args: argparse.Namespace, fed: Any) -> int:
    print(
        _("the store {store} is at schema {revision}").format(
            store=fed.store.shown, revision=fed.store.migrate()
        )
    )
    return 0


def _player(args: argparse.Namespace, fed: Any) -> int:
    from controller.federation import registry

    if args.player_action == "add":
        fed_id = registry.add(
            fed.store,
            {
                "name": args.name,
                "school": args.school,
                "region": args.region,
                "birth_year": args.birth_year,
            },
        )
        print(fed_id)
        return 0
    if args.player_action == "import":
        try:
            text = Path(args.file).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(
                _("{path}: cannot be read ({error})").format(path=args.file, error=exc)
            ) from None
        rows = registry.read_csv(text)
        ids = fed.store.add_players(rows)
        print("fed_id,name,school,region")
        for fed_id, row in zip(ids, rows, strict=True):
            print(f"{fed_id},{row['name']},{row['school']},{row['region']}")
        return 0
    players = list(fed.store.players().values())
    if args.json:
        print(json.dumps(players, indent=1, ensure_ascii=False))
    else:
        for p in players:
            print(f"{p['fed_id']}  {p['name']}  ({p['school']}, {p['region']}, {p['birth_year']})")
    return 0


def _event(args: argparse.Namespace, fed: Any) -> int:
    if args.event_action == "add":
        return _event_add(args, fed)
    if args.event_action == "list":
        for ev in fed.store.events():
            print(f"{ev['id']}  {ev['date']}  {ev['state']:8}  {ev['name']}")
        return 0
    ev = fed.store.event(args.id)
    if ev is None:
        raise ValueError(_("no event {id} at this federation").format(id=args.id))
    subs = fed.store.submissions(ev["id"])
    if args.json:
        keep = ("id", "name", "date", "region", "state", "submission_id")
        print(
            json.dumps(
                {
                    "event": {k: ev[k] for k in keep},
                    "submissions": subs,
                    "results": fed.store.results(event_id=ev["id"]),
                },
                indent=1,
                ensure_ascii=False,
            )
        )
        return 0
    print(f"{ev['id']}: {ev['name']} ({ev['date']}, {ev['region']}): {ev['state']}")
    for sub in subs:
        print(
            _("submission {id} of {at}: {verdict} ({games} games, {records} records)").format(
                id=sub["id"],
                at=sub["received_at"],
                verdict=sub["verdict"],
                games=sub["games"],
                records=sub["records"],
            )
        )
        for r in sub["reasons"]:
            print(f"  ✗ {r['where']}: {r['reason']}")
        for r in sub["notes"]:
            print(f"  · {r['where']}: {r['reason']}")
    return 0


def _event_add(args: argparse.Namespace, fed: Any) -> int:
    import datetime
    import shutil

    from controller.federation.credentials import EventCredential, check_event_id, token_hash

    event_id = check_event_id(args.id)
    try:
        datetime.date.fromisoformat(args.date)
    except ValueError:
        raise ValueError(_("--date {date}: YYYY-MM-DD").format(date=args.date)) from None
    s = fed.settings
    if not s.url:
        raise ValueError(
            _("the federation's address is not set: federation init --dir DIR --url https://…")
        )
    out = Path(args.out) if args.out else fed.folder / "events" / f"{event_id}.toml"
    names = {"ca_file": "", "broker_ca_file": ""}
    for setting, name in (("ca_file", "federation-ca.pem"), ("broker_ca_file", "broker-ca.pem")):
        if getattr(s, setting):  # the CAs the hub checks the federation and its cluster by
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(getattr(s, setting), out.parent / name)
            names[setting] = name
    cred = EventCredential.new(
        event_id,
        s.url,
        names["ca_file"],
        tuple(s.broker_nodes),
        args.name,
        broker_ca=names["broker_ca_file"],
    )
    fed.store.add_event(
        {
            "id": event_id,
            "name": args.name[:120],
            "date": args.date,
            "region": args.region[:40],
            "token_hash": token_hash(cred.token),
            "sign_key": cred.key.hex(),
        }
    )
    cred.write(out)
    print(
        _(
            "event {id}: its credential is {path} (give it to the hub's organiser; keep it secret)"
        ).format(id=event_id, path=out)
    )
    if s.broker_nodes:
        _say_hall(cred)
    return 0


def _say_hall(cred: Any) -> None:
    from controller.federation.cluster import hall_user_commands

    print(_("the hall's user at the broker cluster (run once, on any node):"))
    for argv in hall_user_commands(cred.hall, cred.username, cred.password):
        print("  rabbitmqctl " + " ".join(_quote(a) for a in argv))


def _broker(args: argparse.Namespace, fed: Any) -> int:
    """What the administrator runs on the cluster: each node's rabbitmq.conf and the
    federation's own user (or, with ``--hall``, one hall's user), from this federation's
    settings and credentials: the guide does not list them, this prints them."""
    from controller.federation.cluster import node_conf, reader_user_commands
    from controller.federation.credentials import check_event_id
    from controller.federation.credentials import load as load_credential

    s = fed.settings
    if args.hall:
        path = fed.folder / "events" / f"{check_event_id(args.hall)}.toml"
        _say_hall(load_credential(path))
        return 0
    if not s.broker_password:
        raise ValueError(
            _("the federation has no broker user yet: federation init --dir DIR --broker-nodes "
              "… --broker-user … --broker-password …")
        )  # fmt: skip
    print(_("every node's /etc/rabbitmq/rabbitmq.conf (its own certificate and key):"))
    for line in node_conf(args.cert, args.key, "/etc/rabbitmq/ca.pem").splitlines():
        print("  " + line)
    print(_("the federation's own user and its queue's bound (run once, on any node):"))
    print("  rabbitmqctl delete_user guest")
    for argv in reader_user_commands(s.broker_username, s.broker_password):
        print("  rabbitmqctl " + " ".join(_quote(a) for a in argv))
    return 0


def _quote(arg: str) -> str:
    import shlex

    return shlex.quote(arg)


def _verify(args: argparse.Namespace, fed: Any) -> int:
    try:
        body = open(args.file, "rb")  # noqa: SIM115 - read as it is verified, closed below
    except OSError as exc:
        raise ValueError(
            _("{path}: cannot be read ({error})").format(path=args.file, error=exc)
        ) from None
    with body:
        verdict = fed.accept_file(args.event, body)
    _say_verdict(verdict)
    if verdict["verdict"] == "accepted":
        fed.rate()
    return 0 if verdict["verdict"] == "accepted" else 1


def _say_verdict(v: dict[str, Any]) -> None:
    if v["verdict"] == "accepted":
        print(_("event {event}: accepted ({games} games verified, {results} results)").format(**v))
    else:
        print(_("event {event}: refused").format(**v))
    for r in v["reasons"]:
        print(f"  ✗ {r['where']}: {r['reason']}")
    for r in v["notes"]:
        print(f"  · {r['where']}: {r['reason']}")


def _rate(args: argparse.Namespace, fed: Any) -> int:
    run = fed.rate()
    print(
        _(
            "rated {games} games of {players} players in {periods} periods (the last {last}) in "
            "{seconds} s"
        ).format(
            games=run.games,
            players=run.players,
            periods=run.periods,
            last=run.last_period or "—",
            seconds=run.seconds,
        )
    )
    return 0


def _list(args: argparse.Namespace, fed: Any) -> int:
    from controller.federation import lists

    f = lists.Filters(args.pool, args.region, args.school, args.age, not args.established)
    as_of, rows = fed.rating_list(f)
    if args.format == "csv":
        sys.stdout.write(lists.to_csv(rows))
    elif args.format == "json":
        print(json.dumps({"v": 1, "as_of": as_of, "players": rows}, indent=1, ensure_ascii=False))
    else:
        if not rows:
            print(_("no rated games yet"))
        for r in rows:
            mark = "?" if r["provisional"] else " "
            print(
                f"{r['rank']:>4}  {r['rating']:>5}{mark} ±{r['rd']:<4} {r['fed_id']}  "
                f"{r['name']} ({r['school']}, {r['region']}) {r['age_group']}"
            )
    return 0


def _serve(args: argparse.Namespace, fed: Any) -> int:
    import asyncio
    import logging
    import threading

    import uvicorn

    from controller.federation.wall import Reader, Wall
    from controller.federation.web import create_app
    from controller.httpedge import edge_config

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s: %(message)s")
    if bool(args.tls_cert) != bool(args.tls_key):
        raise ValueError(_("--tls-cert and --tls-key go together"))
    for f in (args.tls_cert, args.tls_key):
        if f and not Path(f).is_file():
            raise ValueError(_("{path}: no such file").format(path=f))
    fed.store.health.logging = True  # the store lost and back: one line each in the log
    wall = Wall()
    reader = None
    s = fed.settings
    if s.broker_nodes:
        reader = Reader(
            s.broker_nodes,
            s.broker_username,
            s.broker_password,
            wall.message,
            ca_file=s.broker_ca_file or None,
        )
        wall.broker = reader.status
        reader.start()
    app = create_app(fed, wall)
    # the edge: connections per address, deadlines, TLS after the count (docs/security.md)
    tls = (args.tls_cert, args.tls_key) if args.tls_cert else None
    server = uvicorn.Server(edge_config(app, args.http_host, args.http_port, tls=tls))
    scheme = "https" if args.tls_cert else "http"
    print(
        _(
            "damath-board federation: {name} on {scheme}://{host}:{port}/ (store: {kind}, {store})"
        ).format(
            name=s.name,
            scheme=scheme,
            host=args.http_host,
            port=args.http_port,
            kind=fed.store.kind,
            store=fed.store.shown,
        ),
        flush=True,
    )

    def ready() -> None:
        while not server.started and not server.should_exit:
            threading.Event().wait(0.05)
        if args.ready_file and server.started:
            Path(args.ready_file).write_text("ready\n")

    threading.Thread(target=ready, daemon=True).start()
    fed.rate_soon()  # the list as the store holds it now
    try:
        asyncio.run(server.serve())
    finally:
        if reader is not None:
            reader.stop()
    if not server.started:
        print(
            _("damath-board federation: cannot serve on port {port}").format(port=args.http_port),
            file=sys.stderr,
        )
        return 2
    return 0
