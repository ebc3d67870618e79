"""One client holding a server's connections (issue 39's slow client), run as a process of its
own: ``python -m tests.federation.siege HOST:PORT … --from 127.0.0.2 --count 1000``.

From one source address it opens ``count`` connections to each server and holds them: a
request's first line and a header without its end (``--http``), or nothing at all (a TLS
client that never says hello). A connection the server closes is opened again (at most
``--rate`` a second, so the siege does not take the machine's two cores from the servers it
is meant to test). Every half second it prints one JSON line: connections held now, how many
the server closed after holding them (a deadline), how many it refused at once (closed before
holding them a second, or answered 503), and attempts so far. It stops when its stdin closes.

Every address of 127.0.0.0/8 reaches a server on 127.0.0.1, so the source address is the
test's own and no other machine's.
"""

from __future__ import annotations

import argparse
import json
import resource
import selectors
import socket
import sys
import threading
import time

HALF = b"GET /desk HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


def raise_limit(needed: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed and (hard == resource.RLIM_INFINITY or hard >= needed):
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
    elif soft < needed:
        sys.exit(f"siege: {needed} open files are needed, the hard limit is {hard}")


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("targets", nargs="+", metavar="HOST:PORT")
    p.add_argument("--from", dest="source", default="127.0.0.2")
    p.add_argument("--count", type=int, default=1000, help="connections held at each target")
    p.add_argument("--http", action="store_true", help="send half a request on each")
    p.add_argument("--rate", type=float, default=300.0, help="new connections a second at most")
    args = p.parse_args()
    targets = [(t.rpartition(":")[0], int(t.rpartition(":")[2])) for t in args.targets]
    raise_limit(len(targets) * args.count + 256)
    sel = selectors.DefaultSelector()
    opened_at: dict[socket.socket, float] = {}
    want = {t: args.count for t in targets}
    held = dict.fromkeys(targets, 0)
    figures = {"held": 0, "closed": 0, "refused": 0, "attempts": 0}
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    budget, last, said = 0.0, time.monotonic(), 0.0
    while not stop.is_set():
        now = time.monotonic()
        budget = min(args.rate, budget + (now - last) * args.rate)
        last = now
        for target in targets:
            while held[target] < want[target] and budget >= 1:
                budget -= 1
                figures["attempts"] += 1
                s = socket.socket()
                try:
                    s.bind((args.source, 0))
                    s.settimeout(2)
                    s.connect(target)
                    if args.http:
                        s.sendall(HALF)
                    s.setblocking(False)
                except OSError:
                    s.close()
                    figures["refused"] += 1
                    continue
                opened_at[s] = now
                held[target] += 1
                sel.register(s, selectors.EVENT_READ, target)
        for key, _mask in sel.select(timeout=0.05):
            s = key.fileobj
            assert isinstance(s, socket.socket)
            try:
                data = s.recv(4096)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if data and not data.startswith(b"HTTP/1.1 503"):
                continue  # a response to half a request would be a fault; keep reading
            lived = time.monotonic() - opened_at.pop(s)
            sel.unregister(s)
            s.close()
            held[key.data] -= 1
            figures["refused" if data or lived < 1.0 else "closed"] += 1
        figures["held"] = sum(held.values())
        if time.monotonic() - said >= 0.5:
            said = time.monotonic()
            print(json.dumps(figures), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
