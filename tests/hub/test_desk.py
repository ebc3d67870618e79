"""The desk's security against the running hub: a spectator reaches no organiser page or action,
a login needs the right password, every POST needs the session's CSRF token, an arbiter cannot
do the organiser's part; passwords and session tokens are not kept in clear; sessions expire;
guessing is slowed down."""

from __future__ import annotations

import functools
import http.client
import http.cookiejar
import re
import sqlite3
import urllib.error
import urllib.parse
import urllib.request

import pytest

from controller.hub.accounts import IDLE, LIFETIME, AccountError, Accounts
from controller.tournament.tournament import Tournament

from .conftest import DESK_PASSWORD

PASSWORD = DESK_PASSWORD


class Browser:
    """urllib with cookies, not following redirects (so the tests see them); ``source`` is
    the address it connects from (any of 127.0.0.0/8 reaches a hub on 127.0.0.1)."""

    def __init__(self, base: str, source: str | None = None) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kw):
                return None

        class From(urllib.request.HTTPHandler):
            def http_open(self, req):
                return self.do_open(
                    functools.partial(http.client.HTTPConnection, source_address=(source, 0)),
                    req,
                )

        handlers = [urllib.request.HTTPCookieProcessor(self.jar), NoRedirect]
        self.opener = urllib.request.build_opener(*handlers, *([From] if source else []))

    def go(self, path: str, form: dict | None = None) -> tuple[int, str, str]:
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        try:
            with self.opener.open(self.base + path, data=data, timeout=30) as r:
                return r.status, r.read().decode(), r.headers.get("location", "")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode(), exc.headers.get("location", "")

    def csrf(self, path: str = "/desk") -> str:
        status, html, _ = self.go(path)
        assert status == 200, (status, html[:300])
        return re.search(r'name="csrf" value="([^"]+)"', html).group(1)

    def login(self, name: str, password: str = PASSWORD) -> tuple[int, str]:
        token = self.csrf("/desk/login")
        status, _, location = self.go(
            "/desk/login", {"csrf": token, "name": name, "password": password, "next": "/desk"}
        )
        return status, location


ORGANISER_POSTS = ["/desk/pair", "/desk/publish", "/desk/seat"]
ARBITER_POSTS = ["/desk/accept", "/desk/accept-all", "/desk/result", "/desk/move"]


def test_a_spectator_reaches_no_desk_page_or_action(desk):
    b = Browser(desk.url)
    for path in ("/desk", "/desk/standings", "/desk/log", "/desk/seats", "/desk/archive.zip",
                 "/desk/round.json"):  # fmt: skip
        status, _, location = b.go(path)
        assert status == 303 and location.startswith("/desk/login"), path
    for path in ORGANISER_POSTS + ARBITER_POSTS + ["/desk/logout"]:
        status, _body, _ = b.go(path, {"csrf": "x", "pairing": "1", "division": "open"})
        assert status == 401, path
    status, html, _ = b.go("/event")  # the wall: read only, no form
    assert status == 200 and "Player 1" in html and "<form" not in html
    with _open(desk) as t:
        assert t.pairings() == [] and t.results() == {}
        assert {e["action"] for e in t.log()} == {"event-create", "player-add"}


class _open:
    def __init__(self, hub) -> None:
        self.t = Tournament.open(hub.folder)

    def __enter__(self) -> Tournament:
        return self.t

    def __exit__(self, *exc: object) -> None:
        self.t.close()


def test_login_csrf_and_roles(desk):
    b = Browser(desk.url)
    status, location = b.login("org", "wrong password!")
    assert status == 303 and "wrong+name+or+password" in location
    assert b.go("/desk")[0] == 303  # still not logged in
    status, location = b.login("nobody")  # the same answer for an unknown name
    assert "wrong+name+or+password" in location
    status, location = b.login("org")
    assert (status, location) == (303, "/desk")
    token = b.csrf()
    # a POST without the token, or with another, is refused and changes nothing
    for bad in ({}, {"csrf": "forged"}):
        status, body, _ = b.go("/desk/pair", {"division": "open", **bad})
        assert status == 403 and "out of date" in body
    with _open(desk) as t:
        assert t.pairings() == []
    status, _, location = b.go("/desk/pair", {"csrf": token, "division": "open"})
    assert status == 303 and "round+1+paired" in location
    with _open(desk) as t:
        assert len(t.pairings("open", 1)) == 4
        assert t.log()[-1]["by"] == "organiser org"
    # the arbiter: results yes, pairing no
    a = Browser(desk.url)
    assert a.login("lina")[1] == "/desk"
    atoken = a.csrf()
    assert a.go("/desk/pair", {"csrf": atoken, "division": "open"})[0] == 403
    assert a.go("/desk/seats")[0] == 403
    with _open(desk) as t:
        pid = t.pairing(1, 1).id
    status, _, location = a.go(
        "/desk/result",
        {"csrf": atoken, "pairing": str(pid), "outcome": "blue", "blue": "24", "red": "18",
         "reason": "", "back": "/desk?round=1"},
    )  # fmt: skip
    assert status == 303 and "recorded" in location
    # a correction without a reason is refused with the reason why
    status, _, location = a.go(
        "/desk/result",
        {"csrf": atoken, "pairing": str(pid), "outcome": "draw", "blue": "18", "red": "18",
         "reason": ""},
    )  # fmt: skip
    assert "err=" in location and "reason" in urllib.parse.unquote_plus(location)
    with _open(desk) as t:
        (record,) = t.result_records()
        assert record.by == "arbiter lina" and record.result.outcome == "blue"
        bye = next(p for p in t.pairings("open", 1) if p.is_bye)
    status, html, _ = a.go("/desk?round=1")
    assert "Record the bye" in html
    a.go("/desk/result", {"csrf": atoken, "pairing": str(bye.id), "outcome": "bye"})
    with _open(desk) as t:
        assert t.results()[bye.id].outcome == "bye"
    # the other session's token does not work in this one
    assert a.go("/desk/accept-all", {"csrf": token, "round": "1"})[0] == 403
    # logging out ends the session
    assert a.go("/desk/logout", {"csrf": atoken})[0] == 303
    assert a.go("/desk")[0] == 303


def test_passwords_and_sessions_at_rest_and_in_time(tmp_path):
    now = [1000.0]
    accounts = Accounts(tmp_path, clock=lambda: now[0])
    accounts.add("lina", "arbiter", PASSWORD)
    with pytest.raises(AccountError, match="at least"):
        accounts.add("ben", "arbiter", "short")
    with pytest.raises(AccountError, match="exists"):
        accounts.add("lina", "arbiter", PASSWORD)
    token = accounts.login("lina", PASSWORD)
    raw = (tmp_path / "desk.sqlite").read_bytes() + (tmp_path / "desk.sqlite-wal").read_bytes()
    assert PASSWORD.encode() not in raw and token.encode() not in raw
    assert accounts.session(token).role == "arbiter"
    now[0] += IDLE - 60
    assert accounts.session(token) is not None  # used: the idle time starts again
    now[0] += IDLE + 1
    assert accounts.session(token) is None  # idle too long
    token = accounts.login("lina", PASSWORD)
    for _ in range(LIFETIME // (IDLE // 2) + 1):
        now[0] += IDLE // 2
        accounts.session(token)
    assert accounts.session(token) is None  # in use all along, but past its lifetime
    for _ in range(8):
        with pytest.raises(AccountError, match="wrong"):
            accounts.login("lina", "not the password")
    with pytest.raises(AccountError, match="too many"):
        accounts.login("lina", PASSWORD)  # locked, even with the right password
    now[0] += 301
    assert accounts.login("lina", PASSWORD)
    db = sqlite3.connect(tmp_path / "desk.sqlite")
    (stored,) = db.execute("SELECT hash FROM account").fetchone()
    assert len(stored) == 32
    accounts.add("lina", "arbiter", "a new password here", replace=True)
    assert accounts.session(token) is None  # a new password ends the old sessions
    accounts.close()
