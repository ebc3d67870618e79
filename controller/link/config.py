"""A board's connection file: where its hub is, and the board's own credential and key.

``damath-board hub board-add ID`` writes it; the board reads it with ``load``. Every mistake
in it is reported as one sentence naming the file and the field, never a traceback::

    # the board's connection to its hub (written by damath-board hub board-add)
    [hub]
    host = "192.168.50.10"
    port = 1883
    tls = false
    ca_file = ""          # with tls = true: the hub's CA certificate (relative to this file)

    [board]
    id = "b07"
    username = "b07"
    password = "..."
    hmac_key = "..."      # 64 hex digits: signs every record
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.record.toml_text import toml_string

from .protocol import check_board_id

KEY_HEX = 64


class ConfigError(ValueError):
    """The connection file is missing, unreadable or wrong; the message says where."""


@dataclass(frozen=True)
class LinkConfig:
    host: str
    port: int
    tls: bool
    ca_file: str
    board: str
    username: str
    password: str
    hmac_key: bytes

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def _get(table: dict[str, Any], name: str, kind: type, where: str) -> Any:
    if name not in table:
        raise ConfigError(f"{where}: '{name}' is missing")
    value = table[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ConfigError(f"{where}: '{name}' must be a {_KIND_NAMES[kind]}, not {value!r}")
    return value


_KIND_NAMES = {str: "string", int: "whole number", bool: "true or false"}


def parse(data: dict[str, Any], path: str = "connection file") -> LinkConfig:
    """Check a parsed connection file; ConfigError names the first mistake."""
    hub, board = data.get("hub"), data.get("board")
    if not isinstance(hub, dict):
        raise ConfigError(f"{path}: the [hub] table is missing")
    if not isinstance(board, dict):
        raise ConfigError(f"{path}: the [board] table is missing")
    host = _get(hub, "host", str, f"{path} [hub]").strip()
    if not host or (any(c in host for c in " /:@") and not host.startswith("[")):
        raise ConfigError(f"{path} [hub]: 'host' must be a host name or an address, not {host!r}")
    port = hub.get("port", 1883)
    if not isinstance(port, int) or isinstance(port, bool) or not 1 <= port <= 65535:
        raise ConfigError(f"{path} [hub]: 'port' must be a number from 1 to 65535, not {port!r}")
    tls = hub.get("tls", False)
    if not isinstance(tls, bool):
        raise ConfigError(f"{path} [hub]: 'tls' must be true or false, not {tls!r}")
    ca_file = hub.get("ca_file", "")
    if not isinstance(ca_file, str):
        raise ConfigError(f"{path} [hub]: 'ca_file' must be a file name")
    if ca_file:
        base = Path(path).parent if path != "connection file" else Path(".")
        resolved = (base / ca_file).resolve()
        if not resolved.is_file():
            raise ConfigError(f"{path} [hub]: the CA certificate {ca_file!r} is not there")
        ca_file = str(resolved)
    where = f"{path} [board]"
    try:
        board_id = check_board_id(_get(board, "id", str, where))
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    username = _get(board, "username", str, where)
    password = _get(board, "password", str, where)
    if not username or not password:
        raise ConfigError(f"{where}: 'username' and 'password' must not be empty")
    key = _get(board, "hmac_key", str, where).strip().lower()
    if len(key) != KEY_HEX or any(c not in "0123456789abcdef" for c in key):
        raise ConfigError(f"{where}: 'hmac_key' must be {KEY_HEX} hex digits")
    return LinkConfig(host, port, tls, ca_file, board_id, username, password, bytes.fromhex(key))


def load(path: str | os.PathLike[str]) -> LinkConfig:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such connection file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the connection file ({exc})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    return parse(data, str(path))


def render(config: LinkConfig, ca_file: str = "") -> str:
    """The connection file's text (``ca_file`` as it should be written, relative or absolute)."""
    return (
        "# The board's connection to its hub (written by damath-board hub board-add).\n"
        "# Keep it secret: whoever has it can publish as this board.\n"
        "[hub]\n"
        f"host = {toml_string(config.host)}\n"
        f"port = {config.port}\n"
        f"tls = {'true' if config.tls else 'false'}\n"
        f"ca_file = {toml_string(ca_file)}\n"
        "\n[board]\n"
        f"id = {toml_string(config.board)}\n"
        f"username = {toml_string(config.username)}\n"
        f"password = {toml_string(config.password)}\n"
        f"hmac_key = {toml_string(config.hmac_key.hex())}\n"
    )


def write(path: str | os.PathLike[str], config: LinkConfig, ca_file: str = "") -> Path:
    """Write the file readable by its owner only (it holds the board's secrets)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(render(config, ca_file))
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return path
