"""The emulated Pico's fixtures: a flash image per board, made once (tests/emulator/boards.py) and
kept by its inputs' SHA-256, and a pty per test."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .boards import kept_image


@pytest.fixture(scope="session")
def images(tmp_path_factory):
    """board name -> its flash image (``boards.kept_image``: made in this worker's tmp dir the
    first time)."""

    def image(board: str) -> Path:
        return kept_image(board, tmp_path_factory.mktemp(board))

    return image


@pytest.fixture
def pty_pair():
    master, slave = os.openpty()
    yield master, os.ttyname(slave)
    os.close(master)
    os.close(slave)
