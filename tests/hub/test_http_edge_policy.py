"""The one ASGI edge of the hub, the simulator and the federation (controller/httpedge/asgi.py),
each server's policy on a small app in this process: a body over its route's limit refused by
its announced length before the app reads a byte, a chunked body refused, a server that asks
for lengths refusing a POST without one, refusals in text or JSON as the server speaks, and the
security headers on every answer, the app's refusals and the edge's own, with no server name.
The running servers are tested the same way in tests/hub/test_http_edge.py,
tests/sim/test_security.py and tests/federation/test_end_to_end.py."""

from __future__ import annotations

import base64
import hashlib

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from controller.federation.edge import POLICY as FEDERATION
from controller.httpedge.asgi import Policy, SecurityEdge, csp_with_styles
from controller.hub.web.edge import POLICY as HUB
from controller.sim.guard import POLICY as SIM

READ: list[int] = []


async def echo(request: Request) -> PlainTextResponse:
    body = await request.body()
    READ.append(len(body))
    return PlainTextResponse(f"{len(body)} bytes", headers={"server": "uvicorn"})


def client(policy: Policy) -> TestClient:
    app = Starlette(routes=[Route("/{path:path}", echo, methods=["GET", "POST"])])
    return TestClient(SecurityEdge(app, policy))


@pytest.mark.parametrize("policy", [HUB, SIM, FEDERATION], ids=["hub", "sim", "federation"])
def test_every_answer_carries_the_servers_headers_and_no_server_name(policy: Policy) -> None:
    for response in (client(policy).get("/page"), client(policy).post("/x", content=b"a" * 20_000)):
        assert response.headers["content-security-policy"] == policy.csp
        assert "frame-ancestors 'none'" in policy.csp and "script-src 'self'" in policy.csp
        assert response.headers["x-frame-options"] == "DENY"
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "same-origin"
        assert "server" not in response.headers
    assert client(SIM).get("/").headers["cross-origin-opener-policy"] == "same-origin"


def test_a_body_over_its_routes_limit_is_refused_unread() -> None:
    READ.clear()
    hub = client(HUB)
    assert hub.post("/desk/login", content=b"a" * (16 * 1024)).text == "16384 bytes"
    big = hub.post("/desk/login", content=b"a" * (16 * 1024 + 1))
    assert big.status_code == 413 and big.headers["connection"] == "close"
    assert big.text == "the body is too large (at most 16384 bytes here)\n"
    assert hub.post("/desk/import", content=b"a" * 100_000).text == "100000 bytes"
    assert READ == [16 * 1024, 100_000]  # the refused one never reached the app
    chunked = hub.post("/desk/login", content=iter([b"a", b"b"]))
    assert chunked.status_code == 411 and "Content-Length" in chunked.text
    assert hub.post("/x", headers={"content-length": "12x"}).status_code == 413


def test_an_api_refuses_in_json_and_asks_for_a_length() -> None:
    fed = client(FEDERATION)
    big = fed.post("/api/players", content=b"a" * 20_000)
    assert big.status_code == 413
    assert big.json() == {"error": "at most 16384 bytes may be sent here"}
    assert fed.post("/api/submissions", content=b"a" * 20_000).text == "20000 bytes"
    bare = fed.post("/api/submissions", headers={"content-length": ""}, content=b"")
    assert bare.status_code == 411
    no_length = fed.post("/api/submissions", content=iter([b"zip"]))
    assert no_length.status_code == 411 and no_length.json()["error"] == (
        "a request's body needs its length"
    )
    assert client(HUB).post("/x").status_code == 200  # a page's empty form needs none


def test_a_printed_page_s_own_style_is_allowed_by_its_hash_only() -> None:
    style = "td{color:red}"
    digest = base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()
    csp = csp_with_styles(HUB.csp, f"<style>{style}</style><p>sheet</p>")
    assert csp == HUB.csp.replace("style-src 'self'", f"style-src 'self' 'sha256-{digest}'")
    assert csp_with_styles(HUB.csp, "<p>no style</p>") == HUB.csp
