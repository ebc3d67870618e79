"""PostgreSQL stopped under the running service (issue 40, item 16): every answer that needs the
store is a 503 in one sentence with a retry (a page for a browser, JSON for a hub), never a bare
"Internal Server Error"; the log says it once, with no traceback, and once when it is back; the
status page shows the store's health; and everything is served again when PostgreSQL returns.

The test's own PostgreSQL (not the session's: it is stopped and started again here)."""

from __future__ import annotations

import json
import ssl
import urllib.error
import urllib.request

from .conftest import ON_POSTGRES, new_federation
from .services import Postgres, wait_until

pytestmark = ON_POSTGRES


def answer(server, path: str, accept: str = "application/json", data: bytes | None = None):
    """(status, headers, body) of a request to the federation, whatever its status."""
    request = urllib.request.Request(server.url + path, data=data, headers={"accept": accept})
    if data is not None:
        request.add_header("authorization", "Bearer not-a-token")
    context = ssl.create_default_context(cafile=server.ca)
    try:
        with urllib.request.urlopen(request, timeout=30, context=context) as r:
            return r.status, r.headers, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read().decode()


def test_postgresql_down_is_a_503_with_a_retry_and_the_service_recovers(tmp_path, certs):
    pg = Postgres().start()
    server = None
    try:
        server, ids = new_federation(tmp_path / "fed", pg.create_database("outage"), certs)
        assert answer(server, "/ratings")[0] == 200
        status, _h, body = answer(server, "/status.json")
        assert status == 200 and json.loads(body)["store"]["ok"] is True

        pg.halt()
        for path in ("/ratings", "/ratings.json", f"/players/{ids[0]}", "/events"):
            status, headers, body = answer(server, path)
            assert status == 503, (path, status, body)
            assert headers["retry-after"] == "15"
            said = json.loads(body)["error"]
            assert "try again in 15 s" in said and "\n" not in said
        status, headers, body = answer(server, "/ratings", accept="text/html")
        assert status == 503 and "<html" in body and "try again in 15 s" in body
        # a hub's submission: refused unread, with the same retry (the hub tries again on a 5xx)
        status, headers, body = answer(server, "/api/submissions", data=b"PK...")
        assert status == 503 and headers["retry-after"] == "15"
        status, _h, body = answer(server, "/status.json")
        store = json.loads(body)["store"]
        assert status == 503 and store["ok"] is False and store["down_since"]
        assert store["kind"] == "PostgreSQL"
        status, _h, body = answer(server, "/status", accept="text/html")
        assert status == 200 and "not answering" in body

        pg.resume()
        wait_until("the rating list is served again", lambda: answer(server, "/ratings")[0] == 200)
        assert answer(server, f"/players/{ids[0]}")[0] == 200
        status, _h, body = answer(server, "/status.json")
        assert status == 200 and json.loads(body)["store"]["ok"] is True

        log = server.log()
        assert "Traceback" not in log and "Internal Server Error" not in log
        assert log.count("is not answering") == 1, log
        assert log.count("answers again") == 1, log
    finally:
        if server is not None:
            server.stop()
        pg.stop()
