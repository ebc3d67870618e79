"""Halls bridged to the federation's broker cluster, for its tests and its benchmark
(tests/federation/test_wall_across_halls.py, bench/federation_failover.py): a hall's hub and boards,
its uplink, the wall as its page reads it, and the scenarios both run (an event across the
uplink's outages, a submission cut on the way, a node lost)."""

from __future__ import annotations

import json
import ssl
import threading
import time
import urllib.request
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from controller.federation.credentials import EventCredential, load
from controller.tournament import boards as seating
from controller.tournament.model import Division, Event
from controller.tournament.tournament import Tournament
from tests.hub.conftest import RunningHub
from tests.hub.eventkit import MOVES, HallBoard, api, round_view, wait_for

from .services import damath_here
from .uplink import Uplink


@dataclass
class Hall:
    cred: EventCredential
    cred_file: Path
    hub: RunningHub
    boards: dict[str, HallBoard] = field(default_factory=dict)
    uplink: Uplink | None = None


def through(cred_file: Path, uplink: Uplink, nodes: int, fed_port: int) -> Path:
    """A copy of the event's credential whose addresses are the uplink's relays."""
    text = cred_file.read_text()
    cred = load(cred_file)
    for n, node in enumerate(cred.nodes):
        text = text.replace(f'"{node}"', f'"127.0.0.1:{uplink.port(n)}"')
    text = text.replace(f':{fed_port}"', f':{uplink.port(nodes)}"')
    path = cred_file.with_name(f"{cred.event}-uplink.toml")
    path.write_text(text)
    return path


def start_hall(base: Path, cred_file: Path, boards: int, tables: bool = True) -> Hall:
    cred = load(cred_file)
    hub = RunningHub(base / "event")
    hub.folder.mkdir(parents=True)
    out = damath_here("hub", "federation", "bridge", "--dir", str(hub.folder), "--credential",
                      str(cred_file)).stdout  # fmt: skip
    assert f"as hall {cred.hall}" in out
    hub.start()
    hall = Hall(cred, cred_file, hub)
    for table in range(1, boards + 1):
        b = f"b{table}"
        hall.boards[b] = HallBoard.start(b, hub.add_board(b), base / b)
        if tables:
            asg = api(hub, "/api/assignments", {
                "board": b, "round": 1, "table": table,
                "blue": {"name": f"Blue {cred.hall}.{table}"},
                "red": {"name": f"Red {cred.hall}.{table}"},
            })  # fmt: skip
            hall.boards[b].take_assignment(asg["id"])
    return hall


class WallWatch:
    """The wall's stream (what its page reads), every card it pushes, per board, in order."""

    def __init__(self, server) -> None:
        self.shown: dict[tuple[str, str], list[tuple[str, int, str]]] = defaultdict(list)
        """Each board's states as pushed: game, records, and what the card shows."""
        self.times: dict[tuple[str, str], list[float]] = defaultdict(list)
        """When each was pushed (the clock's time)."""
        context = ssl.create_default_context(cafile=server.ca)
        self.stream = urllib.request.urlopen(
            server.url + "/api/wall/stream?top=0", timeout=120, context=context
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        event = ""
        try:
            for raw in self.stream:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    data = json.loads(line[6:])
                    for card in data["cards"] if event == "hello" else [data]:
                        if card.get("game") is not None:
                            key = (card["hall"], card["board"])
                            shows = {k: v for k, v in card.items() if k not in ("at", "pushed")}
                            text = json.dumps(shows, sort_keys=True)
                            self.shown[key].append((card["game"], card["seq"], text))
                            self.times[key].append(time.time())
        except (OSError, ValueError, AttributeError):  # closed by the test
            return

    def close(self) -> None:
        self.stream.close()


def shown(server) -> dict[tuple[str, str], dict]:
    return {(c["hall"], c["board"]): c for c in server.json("/api/wall?top=0")["cards"]}


def played(board: HallBoard) -> tuple[str, int] | None:
    """The board's game and records as its link last published them (None: no game yet)."""
    sent = board.link.link._state_sent  # the payload of its retained state
    if not sent:
        return None
    data = json.loads(sent)
    return (data["game"], data["seq"]) if data.get("game") else None


def on_wall(server, halls: list[Hall], what: str, timeout: float = 120.0) -> dict:
    """Until the wall shows every board's current state (its game, its records)."""
    latest: dict[tuple[str, str], tuple[str, int]] = {}

    def check():
        for hall in halls:
            for b, board in hall.boards.items():
                now = played(board)
                if now is not None:
                    latest[(hall.cred.hall, b)] = now
        cards = shown(server)
        ok = all((cards.get(k) or {}).get("game") == g and cards[k].get("seq") == n
                 for k, (g, n) in latest.items())  # fmt: skip
        return cards if ok and latest else None

    return wait_for(what, check, timeout=timeout)


OUTAGES = [("cut", 3), ("stall", 4), ("cut", 2), ("slow", 3), ("cut", 5),
           ("stall", 8), ("cut", 2), ("slow", 2), ("stall", 3), ("cut", 4)]  # fmt: skip
"""The suite's ten outages of the hall's uplink (kind, seconds); the benchmark's last 5 to 60 s.
A stall of 8 s outlasts nothing but TCP's patience; one beyond the bridge's keepalive (15 s)
is the benchmark's."""


PARTS = (4, 3, 3)
"""Each round's games played in this many parts, one outage each: ten in the event."""


def outage(uplink: Uplink, kind: str) -> None:
    if kind == "slow":
        uplink.slow(2000)  # bytes a second: a saturated school line
    else:
        getattr(uplink, kind)()


def play_across_outages(
    server,
    hall: Hall,
    event: tuple,
    fed_ids: list[str],
    outages: list[tuple[str, float]],
    parts: tuple[int, ...] = (4, 3, 3),
    say=print,
) -> WallWatch:
    """The hall's event (a round robin of its four players, three rounds on its two boards,
    the stronger player winning each game) played with its uplink failing: each round's
    games in ``parts``, an outage of ``outages`` while each part is played; after each, until
    the wall shows every board's current state. Returns the wall's stream as watched."""
    uplink = hall.uplink
    assert uplink is not None and len(outages) == sum(parts)
    watch = WallWatch(server)
    _event_id, name, date, _region, _entrants = event
    folder, hub = hall.hub.folder, hall.hub
    Tournament.create(folder, Event(name, date=date, venue="Hall 3", initial_colour="blue"),
                      Division("open", "round-robin")).close()  # fmt: skip
    damath_here("hub", "federation", "import", *fed_ids, "--dir", str(folder), "--credential",
                str(hall.cred_file))  # fmt: skip
    damath_here("hub", "seat", "--auto", "--dir", str(folder))
    left = iter(outages)
    began = time.monotonic()
    try:
        for rnd in (1, 2, 3):
            for b in hall.boards.values():
                b.next_game()
            t = Tournament.open(folder)
            try:
                t.pair(rnd)
                damath_here("hub", "publish", "--round", str(rnd), "--url", hub.url,
                            "--dir", str(folder))  # fmt: skip
                sent = seating.dispatches(t)
                players = t.players()
                games = []
                for p in t.pairings("open", rnd):
                    board = hall.boards[sent[p.id].board]
                    board.take_assignment(sent[p.id].assignment)
                    blue = fed_ids.index(players[p.blue].fed_id)
                    red = fed_ids.index(players[p.red].fed_id)
                    games.append((board, "blue" if blue < red else "red"))
            finally:
                t.close()
            damath_here("hub", "start", "--round", str(rnd), "--url", hub.url, "--dir", str(folder))
            for board, _winner in games:
                board.wait_started()
            count_parts = parts[rnd - 1]
            for part in range(count_parts):  # each game in parts, an outage while each is played
                kind, seconds = next(left)
                outage(uplink, kind)
                started = time.monotonic()
                for board, winner in games:
                    count = 6 if winner == "blue" else 10
                    cuts = [count * k // count_parts for k in range(count_parts + 1)]
                    board.play.play_moves(MOVES[cuts[part] : cuts[part + 1]])
                    if part == count_parts - 1:
                        board.arbiter_ends("red-resigns" if winner == "blue" else "stop")
                time.sleep(max(0.0, seconds - (time.monotonic() - started)))  # its length
                uplink.restore()
                on_wall(server, [hall], f"round {rnd}: the boards' states after a {kind}")
                late = time.monotonic() - started - seconds
                say(f"{kind} of {seconds:g} s: the wall caught up {late:.1f} s after it")
            for board, _w in games:
                board.wait_acked()
            wait_for(f"round {rnd}'s board games", lambda rnd=rnd: sum(
                bool(r["board_result"]) for r in round_view(hub, rnd)) == 2)  # fmt: skip
            damath_here("hub", "accept", "--round", str(rnd), "--dir", str(folder))
            say(f"round {rnd} played by {time.monotonic() - began:.0f} s")
        on_wall(server, [hall], "the event's last states")
    finally:
        uplink.restore()
    return watch


def shown_once_in_order(watch: WallWatch, hall: Hall) -> dict[str, list[tuple[str, int]]]:
    """Each board's states as the wall's page was sent them; AssertionError if a card came
    twice as it was (nothing new on it), or a state older than one shown before it."""
    out = {}
    for b in hall.boards:
        seen = watch.shown[(hall.cred.hall, b)]
        places = [(game, seq) for game, seq, _card in seen]
        assert places == sorted(places), f"{b}: states shown out of order: {places}"
        repeats = [n for n in range(1, len(seen)) if seen[n] == seen[n - 1]]
        assert not repeats, f"{b}: the card shown again as it was, at {repeats}: {places}"
        out[b] = places
    return out


def submit_through_cuts(server, hall: Hall, event_id: str, stick: Path, pause: str = "0.2"):
    """The event submitted through the uplink, cut twice midway and its answer lost once."""
    uplink = hall.uplink
    assert uplink is not None
    damath_here("hub", "federation", "submit", "--dir", str(hall.hub.folder), "--out",
                str(stick), "--credential", str(hall.cred_file))  # fmt: skip
    body = stick.stat().st_size
    uplink.cut_uploads(after=body // 2, times=2)
    uplink.cut_answers(after=body, times=1, when=lambda: bool(
        server.json(f"/events/{event_id}.json")["submissions"]))  # fmt: skip
    return damath_here("hub", "federation", "submit", "--dir", str(hall.hub.folder),
                       "--credential", str(hall.cred_file), "--retry-pause", pause,
                       check=False)  # fmt: skip


def play(board: HallBoard, count: int) -> None:
    """The sample game's next ``count`` moves on the board (a new game if it was over)."""
    if board.play.session.phase == "over":
        board.next_game()
    game = board.play.session.game if board.play.session.phase != "setup" else None
    ply = game.ply if game is not None else 0
    board.play.play_moves(MOVES[ply : ply + count])


def node_loss(
    cluster, server, halls: list[Hall], bound: float, node=None
) -> tuple[float, str, float]:
    """The node the wall reads from (or ``node``) killed mid-event (every board's next move
    played at once): seconds until the wall shows every board's current state; which node
    was lost, and when (the clock's time)."""
    boards = [b for hall in halls for b in hall.boards.values()]
    for board in boards:
        play(board, 1)
    on_wall(server, halls, "every board before the loss")
    if node is None:
        address = server.json("/api/wall")["broker"]["node"]
        node = next(n for n in cluster.nodes if n.address == address)
    address = node.address
    cluster.kill(node)
    lost, at = time.monotonic(), time.time()
    for board in boards:
        play(board, 1)
    on_wall(server, halls, "every board's current state through another node", bound)
    return time.monotonic() - lost, address, at
