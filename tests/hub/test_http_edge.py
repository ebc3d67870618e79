"""The hub's HTTP edge against the running hub (issue 27, items 3 and 5): bodies refused by their
announced length on every route before they are read, security headers on every page and no
``server`` header, numbers in addresses that are not numbers (``²``, twenty digits) answered
400/404 and never 500, and a record nested 3,000 deep refused cleanly through the real broker."""

from __future__ import annotations

import http.client
import re
import socket
import time
from pathlib import Path

from controller.hub.service import open_hub
from controller.hub.web import create_app
from controller.link.config import load
from controller.link.protocol import GENESIS, board_topic, seal

from .test_desk import Browser
from .test_refused import client, publish, reasons, wait_for

HUNDRED_MB = 100 * 1024 * 1024


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def app_routes(tmp_path: Path) -> list[tuple[str, set[str]]]:
    """Every route of the hub's app as it is built (path, methods), with a sample path for
    the ones with parameters."""
    ctx = open_hub(tmp_path / "routes", broker_url="mqtt://127.0.0.1:9")  # no broker needed
    try:
        app = create_app(ctx)
        out = []
        for route in app.routes:
            path = getattr(route, "path", "")
            path = re.sub(r"\{[^}]+\}", "x1", path)
            out.append((path or "/", set(getattr(route, "methods", None) or {"GET"})))
        return out
    finally:
        ctx.close()


def huge_post(port: int, path: str, send_mb: int = 30) -> tuple[int, float, int]:
    """POST announcing 100 MB and sending up to ``send_mb`` of it: (status, seconds to the
    answer, bytes sent before the hub answered or closed)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=20)
    start = time.monotonic()
    sock.sendall(
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
        f"application/x-www-form-urlencoded\r\nContent-Length: {HUNDRED_MB}\r\n\r\n".encode()
    )
    sent = 0
    chunk = b"a" * 65536
    sock.setblocking(False)
    answer = b""
    while sent < send_mb * 1024 * 1024:
        try:
            sent += sock.send(chunk)
        except BlockingIOError:
            time.sleep(0.001)
        except OSError:  # the hub closed the connection: it does not read the rest
            break
        try:
            answer += sock.recv(4096)
            if answer:
                break
        except BlockingIOError:
            pass
        except OSError:
            break
    sock.setblocking(True)
    sock.settimeout(20)
    try:
        while b"\r\n" not in answer:
            more = sock.recv(4096)
            if not more:
                break
            answer += more
    except OSError:
        pass
    sock.close()
    status = int(answer.split(b" ")[1]) if answer.startswith(b"HTTP/1.1") else 0
    return status, time.monotonic() - start, sent


def test_a_body_over_the_limit_is_refused_by_its_length_on_every_route(desk, tmp_path):
    pid = desk.proc.pid
    warm = Browser(desk.url)  # the login's modules loaded before the hub is measured
    assert warm.login("lina")[0] == 303
    before = rss_mb(pid)
    # four 100 MB logins without a login: answered at once, the bodies never read
    for _ in range(4):
        status, _seconds, sent = huge_post(desk.http_port, "/desk/login")
        assert status == 413, (status, sent)
        assert sent < 20 * 1024 * 1024, f"the hub read {sent} bytes before refusing"
    assert rss_mb(pid) - before < 50, (before, rss_mb(pid))  # 400 MB were announced
    # every route of the app, whatever its method: refused by the length alone
    routes = app_routes(tmp_path)
    assert len(routes) > 25
    for path, methods in routes:
        for method in methods - {"HEAD"}:
            conn = http.client.HTTPConnection("127.0.0.1", desk.http_port, timeout=20)
            conn.putrequest(method, path)
            conn.putheader("Content-Length", str(HUNDRED_MB))
            conn.endheaders()
            r = conn.getresponse()
            assert r.status == 413, (method, path, r.status)
            assert r.getheader("connection") == "close"
            conn.close()
    # a body without its length (chunked) is refused too
    conn = http.client.HTTPConnection("127.0.0.1", desk.http_port, timeout=20)
    conn.putrequest("POST", "/desk/login")
    conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()  # refused on the headers: the client may not even send its chunks
    assert conn.getresponse().status == 411
    conn.close()
    # just over the form limit, announced honestly: refused; a normal login still works
    b = Browser(desk.url)
    status, _, _ = b.go("/desk/login", {"csrf": "x", "pad": "y" * 17_000})
    assert status == 413
    assert b.login("org") == (303, "/desk")
    # the CSV import takes more than a form: a 100 KiB roster is read
    token = b.csrf("/desk/players")
    roster = "name,school,division,rating\n" + "".join(
        f"Player {n:05d},School {n % 40},open,\n" for n in range(3000)
    )
    assert 80_000 < len(roster) < 256 * 1024
    status, _, location = b.go("/desk/import", {"csrf": token, "csv": roster,
                                                "back": "/desk/players"})  # fmt: skip
    assert status == 303 and "3000+player" in location, location
    assert rss_mb(pid) - before < 80


def test_headers_on_every_page_and_numbers_that_are_not_numbers(desk):
    b = Browser(desk.url)
    assert b.login("org") == (303, "/desk")
    token = b.csrf()
    assert b.go("/desk/pair", {"csrf": token, "division": "open"})[0] == 303
    pages = ["/", "/board/b1", "/boards", "/feeds", "/event", "/desk/login", "/static/hub.js",
             "/api/boards", "/api/cards", "/feeds/rounds/1.pdn", "/no-such-page", "/desk",
             "/desk/standings", "/desk/players"]  # fmt: skip
    for path in pages:
        conn = http.client.HTTPConnection("127.0.0.1", desk.http_port, timeout=20)
        cookie = "; ".join(f"{c.name}={c.value}" for c in b.jar)
        conn.request("GET", path, headers={"Cookie": cookie})
        r = conn.getresponse()
        r.read()
        csp = r.getheader("content-security-policy") or ""
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp, path
        assert r.getheader("x-frame-options") == "DENY", path
        assert r.getheader("x-content-type-options") == "nosniff", path
        assert r.getheader("server") is None, (path, r.getheader("server"))
        conn.close()
    # superscripts pass str.isdigit(); twenty digits pass Starlette's int converter
    for path, want in [
        ("/desk?round=%C2%B2", 400), ("/desk/round.json?round=%C2%B2", 400),
        ("/desk/table?pairing=%C2%B2", 400), ("/desk/sheet?pairing=%C2%B2", 400),
        ("/desk?round=99999999999999999999", 400), ("/desk/table?pairing=1" + "0" * 20, 400),
        ("/feeds/rounds/99999999999999999999.pdn", 404),
        ("/feeds/rounds/99999999999999999999.json", 404),
        ("/desk?round=1", 200), ("/feeds/rounds/1.json", 200),
    ]:  # fmt: skip
        status, body, _ = b.go(path)
        assert status == want, (path, status, body[:200])
    for form in ({"pairing": "²"}, {"pairing": "9" * 30}):
        status, _, location = b.go("/desk/accept", {"csrf": token, **form})
        assert status == 303 and "err=" in location, (form, location)
    for field, value in (("round", "²"), ("round", "9" * 25)):
        status, _, location = b.go("/desk/accept-all", {"csrf": token, field: value})
        assert status == 303 and "err=" in location
    log = (desk.folder / "hub.log").read_text()
    assert "Traceback" not in log, log[-3000:]


def test_a_record_nested_3000_deep_is_refused_without_a_traceback(hub, tmp_path):
    hub.start()
    conf = load(hub.add_board("b1"))
    c = client(hub, "b1", conf.password, "b1")
    env = seal("b1", "g1", 1, GENESIS, {"k": "start", "t": 0, "variant": "integer",
               "rules": "official", "position": {}}, conf.hmac_key)  # fmt: skip
    text = env.payload().decode()
    deep = "[" * 3000 + "]" * 3000
    nested = text.replace('"info":{', '"info":{"d":' + deep + ",")
    publish(c, board_topic("b1", "records"), nested.encode())
    publish(c, board_topic("b1", "state"), ('{"v": 1, "board": "b1", "x": ' + deep + "}").encode())
    got = wait_for(lambda: len([r for r in reasons(hub) if r == ("b1", "malformed")]) >= 2)
    assert got
    publish(c, board_topic("b1", "records"), env.payload())  # the hub still stores
    wait_for(lambda: hub.json("/api/boards")["boards"][0]["counters"].get("stored") == 1)
    c.loop_stop()
    c.disconnect()
    assert "Traceback" not in (hub.folder / "hub.log").read_text()
