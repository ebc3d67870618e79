"""The open pages of every board: each board's snapshot pushed to its pages when what they
show has changed (never waiting on a page: ``Client.offer``), and time let pass on every board
by the ticker, one board at a time, so one board whose code fails never stops another's clock.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from controller import i18n

from .clients import Client
from .engine import SimBoard
from .registry import Boards


class Hub:
    """The open pages of every board, and the last snapshot each board sent them."""

    def __init__(self, boards: Boards, links: Any = None) -> None:
        self.boards = boards
        self.links = links
        """``sim --hub``: the boards' links to a tournament hub (``link.board.BoardLinks``)."""
        self.pages: dict[str, set[Client]] = {}
        self.sent: dict[str, str] = {}

    def join(self, board_id: str, client: Client) -> None:
        self.pages.setdefault(board_id, set()).add(client)

    def leave(self, board_id: str, client: Client) -> None:
        pages = self.pages.get(board_id)
        if pages is not None:
            pages.discard(client)
            if not pages:
                del self.pages[board_id]
                self.sent.pop(board_id, None)

    async def push(self, board_id: str, board: SimBoard, force: bool = False) -> None:
        """Queue the board's state for its pages (never waits on a page: ``Client.offer``)."""
        pages = self.pages.get(board_id)
        if not pages:
            return
        text = state_text(board)
        if not force and self.sent.get(board_id) == text:
            return
        self.sent[board_id] = text
        for client in list(pages):
            if not client.offer(text, "state"):
                pages.discard(client)

    def tell(self, board_id: str, payload: dict[str, Any]) -> None:
        text = json.dumps(payload, ensure_ascii=False)
        for client in list(self.pages.get(board_id, ())):
            client.offer(text)

    def broke(self, board_id: str, exc: BaseException) -> str:
        """A board's code failed: mark it broken, tell its pages; the others go on."""
        message = self.boards.mark_broken(board_id, exc)
        self.tell(board_id, {"type": "error", "message": message, "broken": True})
        return message

    async def tick_all(self) -> None:
        for board_id, board in self.boards.items():
            if board_id in self.boards.broken:
                continue
            try:
                board.tick()
                linked = board.game.linked() if self.links is not None else None
                if linked is not None:
                    shown = self.links.after_step(board_id, linked, board.clock())
                    if shown:
                        board.notice = board.assignment = shown
                elif self.links is not None:
                    self.links.watch(board_id, board.clock(), board.game.kind.name)
                if self.links is not None:  # a table of another game: on its display and page
                    refused = self.links.refused(board_id)
                    if refused and board.loop.link_line != refused:
                        board.notice = refused
                    board.loop.link_line = refused
                await self.push(board_id, board)
            except Exception as exc:  # this board only: every other board keeps its time
                self.broke(board_id, exc)
            await asyncio.sleep(0)  # pages and other boards get their turn between boards


def state_text(board: SimBoard) -> str:
    with i18n.board():  # every page of the board is sent the same words, in its language
        return json.dumps({"type": "state", "state": board.snapshot()}, ensure_ascii=False)
