"""A board page's live channel (one WebSocket per open page): what the page sends is checked
(its size, its JSON, the page's role for the action), applied to the board, answered; every
page of the board then gets the new snapshot. A page's own mistakes and a refusal that asks
for the arbiter's PIN are answered in the page's language, what the board says in the board's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from controller import i18n
from controller.i18n import _
from controller.rules.notation import NotationError, load_json

from .access import ARBITER, action_of, allowed, refusal
from .clients import Client
from .engine import SimBoard, SimError, static_facts
from .fanout import state_text
from .language import COOKIE as LANGUAGE_COOKIE
from .site import Site, who

MAX_MESSAGE = 4096
log = logging.getLogger("damath-board.sim")


async def channel(site: Site, ws: WebSocket) -> None:
    """One page's live channel: its board's snapshots out, its actions in (each checked,
    answered, and the new snapshot pushed to every page of the board)."""
    boards, hub = site.boards, site.hub
    board_id = ws.path_params["board_id"]
    await ws.accept()
    try:
        board = boards.find(board_id)
        missing = _(
            "there is no board {board_id!r} yet: the arbiter creates it on its page"
        ).format(board_id=board_id)
    except SimError as exc:
        board, missing = None, str(exc)
    if board is None:
        with contextlib.suppress(Exception):
            text = json.dumps({"type": "error", "message": missing, "need": "create"})
            await asyncio.wait_for(ws.send_text(text), 1.0)
            await asyncio.wait_for(ws.close(code=1008), 1.0)
        return
    page_language = i18n.normalise(ws.cookies.get(LANGUAGE_COOKIE))
    """The page's own language (its menu's cookie): what the page sent is answered in it
    when the answer is the page's (a refusal that asks for the PIN, a message it got
    wrong); what the board says stays in the board's language."""
    client = Client(ws, name=f"{board_id} ({who(ws)})")
    client.start()
    hub.join(board_id, client)
    try:
        client.offer(json.dumps({"type": "hello", "facts": static_facts()}, ensure_ascii=False))
        if board_id in boards.broken:
            client.offer(json.dumps({"type": "error", "message": boards.broken[board_id],
                                     "broken": True}))  # fmt: skip
        else:
            try:
                client.offer(state_text(board), "state")
            except Exception as exc:
                hub.broke(board_id, exc)
        while not client.closed:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            why = client.incoming()
            if why is not None:  # over the rate limit: said once a second, else ignored
                if why:
                    client.offer(json.dumps({"type": "error", "message": why}))
                await asyncio.sleep(0)
                continue
            sent: str | None = message.get("text")
            if sent is None:
                with i18n.use(page_language):
                    reply = error(_("binary messages are not understood: send JSON text"))
            else:
                reply = handle(
                    board, sent, site.role_of(ws), boards.broken.get(board_id), page_language
                )
            client.offer(json.dumps(reply, ensure_ascii=False))
            if reply["type"] == "done":
                try:
                    if reply.get("mended"):
                        boards.mended(board_id)
                    board.tick()
                    await hub.push(board_id, board, force=True)
                except Exception as exc:
                    hub.broke(board_id, exc)
            await asyncio.sleep(0)  # one page's messages never starve the others
    except WebSocketDisconnect:
        pass
    except Exception:  # the page went away in an unusual way; the server keeps going
        log.exception("board %s: channel closed", board_id)
    finally:
        hub.leave(board_id, client)
        await client.stop()


def error(message: str) -> dict[str, Any]:
    return {"type": "error", "message": message}


def read_message(
    board: SimBoard, text: str, role: str
) -> dict[str, Any] | tuple[dict[str, Any], str]:
    """A message the board should act on, with its action; or the reply to one it cannot act
    on (too long, not JSON, not an object, not for the page's role)."""
    if len(text) > MAX_MESSAGE:
        return error(
            _("message too long (over {MAX_MESSAGE} characters)").format(MAX_MESSAGE=MAX_MESSAGE)
        )
    try:
        message = load_json(text)
    except NotationError as exc:
        return error(_('not a JSON message ({exc}): expected {{"type": ...}}').format(exc=exc))
    if not isinstance(message, dict):
        return error(_("a message must be a JSON object with a 'type'"))
    action = action_of(message, board.game.status(), board.menu_open())
    if not allowed(role, action):
        return {**error(refusal(action)), "need": ARBITER, "retry": message}
    return message, action


def handle(
    board: SimBoard,
    text: str,
    role: str = ARBITER,
    broken: str | None = None,
    page_language: str | None = None,
) -> dict[str, Any]:
    """Apply one message; the reply for the sender (an error or what was done). A message the
    page got wrong, and a refusal that asks for the arbiter's PIN, are answered in the page's
    language; what the board does and says, in the board's."""
    with i18n.use(page_language):
        read = read_message(board, text, role)
    if isinstance(read, dict):
        return read
    message, action = read
    if broken is not None and action not in ("new_game", "new_game.position"):
        return {**error(broken), "broken": True}
    try:
        done = board.act(message)
    except SimError as exc:
        return error(str(exc))
    except ValueError as exc:  # a value the rules or the tracker refused
        return error(str(exc)[:300])
    except Exception as exc:
        log.exception("board %s: action %r failed", board.board_id, str(message)[:200])
        return error(_("the board could not do that ({error})").format(error=type(exc).__name__))
    return {"type": "done", "message": done, **({"mended": True} if broken else {})}
