"""Hostile clients on 127.0.0.1, against the real server (uvicorn with ``damath-board sim``'s
configuration): a page that never reads, a flood, a 1 MB message, slow headers, a binary frame,
200 pages at once, a board whose code fails. Every time, a probe page on another board keeps its
time and its answers (figures: bench/bench_sim_load.py, docs/benchmarks.md); the limits here are
generous on purpose: they tell a frozen server from a working one, not fast from slow."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
from dataclasses import replace

import pytest
from websockets.asyncio.client import connect

import controller.sim.clients as clients_module
from controller.httpedge import GuardedProtocol
from controller.sim.guard import LIMITS
from controller.sim.server import create_app

from .conftest import ManualClock, serve
from .loadclients import (
    Probe,
    churn,
    close_all,
    create_board,
    crowd,
    flood,
    get_latency,
    huge_message,
    never_reader,
    next_reply,
    next_state,
    slow_headers,
    ws_url,
)

FROZEN = 3.0  # seconds: anything slower than this is a frozen board, not a slow one


def run(coro):
    """The clients' coroutine on an event loop of its own, in its own thread: the main thread
    may hold one already (Playwright's, while the session's browser is open)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def test_a_page_that_never_reads_is_dropped_and_freezes_no_board(clock, monkeypatch):
    """It used to stall every board's clock until it closed (Hub.push waited on it)."""
    monkeypatch.setattr(clients_module, "SEND_TIMEOUT", 1.0)
    app = create_app(clock=clock, tick_seconds=0.02)
    with serve(app, clock, sndbuf=4096) as server:
        url = server.url
        for board in ("victim", "probe"):
            create_board(url, board)
        hub = app.state.hub

        async def scenario():
            probe = await Probe.start(url, "probe", clock.advance)
            writer = await never_reader("127.0.0.1", int(url.rsplit(":", 1)[1]), "victim")
            # until the server has opened its page (the bound only ends a hung test)
            for _ in range(600):
                if hub.pages.get("victim"):
                    break
                await asyncio.sleep(0.05)
            (stuck,) = hub.pages["victim"]
            churner = asyncio.create_task(churn(url, "victim", 6.0))  # states pile up for it
            while not churner.done():
                await probe.measure(1)
            await churner
            # a loaded machine may leave the page's buffer short of full after the churn: more
            # states until the server drops it (the bound only ends a hung test)
            for _ in range(30):
                if stuck.closed:
                    break
                await churn(url, "victim", 1.0)
            writer.close()
            return probe, stuck

        probe, stuck = run(scenario())
    assert stuck.closed and "took over 1 s to leave" in stuck.reason  # dropped, not waited on
    assert max(probe.ticks) < FROZEN and max(probe.actions) < FROZEN


@pytest.mark.slow
def test_a_flood_is_rate_limited_and_starves_nobody(sim_server, caplog):
    url = sim_server.url
    for board in ("flooded", "probe"):
        create_board(url, board)

    async def scenario():
        probe = await Probe.start(url, "probe", sim_server.clock.advance)
        flooding = asyncio.create_task(flood(url, "flooded", 10_000))
        latencies = []
        while not flooding.done():
            await probe.measure(1)
            latencies.append(await asyncio.to_thread(get_latency, url))
        return probe, await flooding, latencies

    probe, result, latencies = run(scenario())
    # told to slow down (when it still reads), and dropped when it goes on, with the reason; on
    # a loaded machine the server may read the flood slower than 20 a second, and the page is
    # then dropped for the messages it leaves unread: either way, with its reason said
    said = [r.getMessage() for r in caplog.records]
    assert result.refused >= 1 or any(
        "over the limit of 20 a second" in m or "the page does not read" in m for m in said
    )
    assert max(latencies) < FROZEN  # /api/boards took 7.5 s under this flood before
    assert max(probe.ticks) < FROZEN and max(probe.actions) < FROZEN


def test_a_message_over_the_size_limit_is_refused_before_it_is_read(sim_server):
    url = sim_server.url
    create_board(url, "big")
    assert run(huge_message(url, "big", 1_000_000)) == 1009  # "message too big"

    async def still_there():
        async with connect(ws_url(url, "big")) as ws:
            await next_state(ws)

    run(still_there())


def test_a_binary_frame_gets_an_answer_and_the_channel_stays(sim_server):
    url = sim_server.url
    create_board(url, "bin")

    async def scenario():
        async with connect(ws_url(url, "bin")) as ws:
            await next_state(ws)
            await ws.send(b"\x00\x01binary")
            reply = await next_reply(ws)
            await ws.send(json.dumps({"type": "lift", "square": [1, 2]}))
            return reply, await next_reply(ws)

    reply, after = run(scenario())
    assert reply["type"] == "error" and "binary messages" in reply["message"]
    assert after["type"] == "done"


def test_slow_headers_are_cut_off(clock: ManualClock):
    app = create_app(clock=clock, tick_seconds=0.02)
    with serve(app, clock, limits=replace(LIMITS, header_seconds=1.0)) as server:
        port = int(server.url.rsplit(":", 1)[1])

        async def scenario():
            slow = asyncio.create_task(slow_headers("127.0.0.1", port))
            latencies = []
            while not slow.done():
                latencies.append(await asyncio.to_thread(get_latency, server.url, "/"))
                await asyncio.sleep(0.1)
            return await slow, latencies

        took, latencies = run(scenario())
    # 1.0 s by the server's event loop clock; the client's own clock may read a hair less
    assert 0.99 <= took < FROZEN  # uvicorn alone waits for ever
    assert max(latencies) < FROZEN


@pytest.mark.slow
def test_two_hundred_pages_at_once_leave_every_board_its_time(sim_server):
    url = sim_server.url
    boards = [f"b{i}" for i in range(50)]
    for board in [*boards, "probe"]:
        create_board(url, board)

    async def scenario():
        probe = await Probe.start(url, "probe", sim_server.clock.advance)
        pages = await crowd(url, boards, 200)
        try:
            await probe.measure(10)
            counts = [ws.reader.done() for ws in pages]
        finally:
            await close_all(pages)
        return probe, counts

    probe, finished = run(scenario())
    assert not any(finished)  # every page still connected and reading
    assert max(probe.ticks) < FROZEN and max(probe.actions) < FROZEN


def test_a_board_whose_code_fails_is_shown_broken_and_stops_no_other(sim_server):
    url = sim_server.url
    for board in ("sick", "probe"):
        create_board(url, board)
    boards = sim_server.app.state.boards
    sick = boards.get("sick")

    def fail():
        raise OverflowError("int too large to convert to float")

    async def scenario():
        probe = await Probe.start(url, "probe", sim_server.clock.advance)
        async with connect(ws_url(url, "sick")) as ws:
            await next_state(ws)
            sick.tick = fail
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), FROZEN))
                if msg.get("broken"):
                    break
            await probe.measure(3)
            await ws.send(json.dumps({"type": "lift", "square": [1, 2]}))
            refused = await next_reply(ws)
            del sick.tick  # the code is mended; a new game brings the board back
            await ws.send(json.dumps({"type": "new_game", "variant": "integer"}))
            mended = await next_reply(ws)
        return msg, refused, mended, probe

    broken, refused, mended, probe = run(scenario())
    assert "This board stopped because of an error (OverflowError" in broken["message"]
    assert "The other boards go on" in broken["message"]
    assert refused["broken"] and mended["type"] == "done"
    assert "sick" not in boards.broken
    assert max(probe.ticks) < FROZEN


def test_a_download_that_fails_says_so_and_marks_the_board(sim_server, monkeypatch):
    import urllib.error
    import urllib.request

    url = sim_server.url
    create_board(url, "dl")
    board = sim_server.app.state.boards.get("dl")
    monkeypatch.setattr(board, "export", lambda what: 1 / 0)
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(f"{url}/board/dl/game.pdn", timeout=10)
    assert info.value.code == 500
    assert "This board stopped because of an error (ZeroDivisionError" in info.value.read().decode()


def test_the_simulator_runs_with_every_guard() -> None:
    from controller.sim.guard import MAX_CONNECTIONS, MAX_PER_ADDRESS, WS_MAX_SIZE, server_config

    config = server_config(create_app())
    assert issubclass(config.http, GuardedProtocol) and config.http.edge is config.edge
    assert config.edge.limits.header_seconds == 10.0
    assert config.edge.limits.per_address == MAX_PER_ADDRESS == 256  # half of them
    assert config.ws_max_size == WS_MAX_SIZE == 16 * 1024
    assert config.server_header is False and config.limit_concurrency == MAX_CONNECTIONS
