"""The hub's own settings and secrets in its event directory (``hub.toml``, owner-only).

Created on the first run: the hub's MQTT password, the organiser's token for the pages that
change things, and the address the boards reach this laptop at (given once with
``board-add --host``). Everything else about an event lives in the store.
"""

from __future__ import annotations

import os
import secrets
import tomllib
from dataclasses import dataclass
from pathlib import Path

from controller.record.toml_text import toml_string as q

from .folder import private_folder

FILENAME = "hub.toml"


class SettingsError(ValueError):
    """hub.toml is unreadable or wrong: the message names the file and the field."""


@dataclass
class HubSettings:
    password: str
    organiser_token: str
    public_host: str = ""
    event: str = ""

    def render(self) -> str:
        return (
            "# The hub's secrets and settings (damath-board hub). Keep this file private.\n"
            f"password = {q(self.password)}          # the hub's MQTT user 'hub'\n"
            f"organiser_token = {q(self.organiser_token)}  # for the organiser's API\n"
            f"public_host = {q(self.public_host)}    # the address boards reach this hub at\n"
            f"event = {q(self.event)}\n"
        )


def load_or_create(folder: Path) -> HubSettings:
    path = folder / FILENAME
    if not path.exists():
        settings = HubSettings(secrets.token_urlsafe(24), secrets.token_urlsafe(24))
        save(folder, settings)
        return settings
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SettingsError(f"{path}: cannot be read ({exc})") from None
    values = {}
    for name in ("password", "organiser_token", "public_host", "event"):
        value = data.get(name, "")
        if not isinstance(value, str):
            raise SettingsError(f"{path}: '{name}' must be a string")
        values[name] = value
    if not values["password"] or not values["organiser_token"]:
        raise SettingsError(f"{path}: 'password' and 'organiser_token' must not be empty")
    return HubSettings(**values)


def save(folder: Path, settings: HubSettings) -> None:
    private_folder(folder)
    path = folder / FILENAME
    tmp = path.with_name(FILENAME + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(settings.render())
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
