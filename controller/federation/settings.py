"""The federation's own settings in its folder (``federation.toml``, owner-only): where its
store is, the address hubs reach it at and the CA they trust, its broker cluster's nodes and
its own user there, and the length of a rating period.

``damath-board federation init --dir DIR …`` writes it once; every other command reads it, so
the store's URL (which may hold a password) is typed once, not on every command line.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from controller.i18n import _
from controller.record.toml_text import toml_string as q

from .credentials import NODE, federation_url

FILENAME = "federation.toml"
RETIRED = {"admin_token"}
"""Settings an earlier version wrote and nothing reads (there are no administrator pages: the
administrator works on the command line); left out when the file is written again."""


class SettingsError(ValueError):
    """federation.toml is missing, unreadable or wrong: the message names the field."""


@dataclass
class FederationSettings:
    name: str = "Damath federation"
    db: str = ""
    """The store: a postgresql:// URL, or empty for DIR/federation.sqlite."""
    url: str = ""
    """The address hubs submit to (https://…), written into every event's credential."""
    ca_file: str = ""
    """The CA of that address, copied beside every event's credential ("": the system's)."""
    broker_nodes: list[str] = field(default_factory=list)
    """The cluster's MQTT nodes, ``host:port``: TLS only (8883), never plain MQTT."""
    broker_ca_file: str = ""
    """The CA of the cluster's certificates ("": the system's), copied beside every event's
    credential: the halls' bridges and the wall check the cluster against it."""
    broker_username: str = "federation"
    broker_password: str = ""
    period_months: int = 1

    def render(self) -> str:
        nodes = ", ".join(q(n) for n in self.broker_nodes)
        return (
            "# The federation's settings (damath-board federation init). Keep this file private.\n"
            f"name = {q(self.name)}\n"
            f"db = {q(self.db)}                 # the store; empty: federation.sqlite here\n"
            f"url = {q(self.url)}               # where hubs submit (https://…)\n"
            f"ca_file = {q(self.ca_file)}       # the CA hubs trust for that address\n"
            f"broker_nodes = [{nodes}]          # the broker cluster (host:port, TLS)\n"
            f"broker_ca_file = {q(self.broker_ca_file)}  # the CA of the cluster's certificates\n"
            f"broker_username = {q(self.broker_username)}\n"
            f"broker_password = {q(self.broker_password)}\n"
            f"period_months = {self.period_months}              # a rating period\n"
        )


def load(folder: Path) -> FederationSettings:
    path = folder / FILENAME
    if not path.exists():
        raise SettingsError(
            _("{path}: no federation here yet (damath-board federation init --dir {dir})").format(
                path=path, dir=folder
            )
        )
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SettingsError(
            _("{path}: cannot be read ({error})").format(path=path, error=exc)
        ) from None
    return check(data, str(path))


def check(data: dict[str, Any], where: str) -> FederationSettings:
    out = FederationSettings()
    kinds = {f.name: type(getattr(out, f.name)) for f in fields(out)}
    for name, value in data.items():
        if name in RETIRED:
            continue
        if name not in kinds:
            raise SettingsError(
                _("{where}: unknown setting {name!r}").format(where=where, name=name)
            )
        if not isinstance(value, kinds[name]) or isinstance(value, bool):
            raise SettingsError(
                _("{where}: {name!r} is of the wrong kind").format(where=where, name=name)
            )
        setattr(out, name, value)
    if not all(isinstance(n, str) and NODE.match(n) for n in out.broker_nodes):
        raise SettingsError(
            _('{where}: broker_nodes must be a list of "host:port"').format(where=where)
        )
    if out.period_months not in (1, 2, 3, 4, 6, 12):
        raise SettingsError(_("{where}: period_months is 1, 2, 3, 4, 6 or 12").format(where=where))
    if out.url and not federation_url(out.url):
        raise SettingsError(
            _(
                "{where}: url must start with https:// (http:// only for this computer: "
                "localhost, 127.0.0.1)"
            ).format(where=where)
        )
    return out


def save(folder: Path, settings: FederationSettings) -> Path:
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = folder / FILENAME
    tmp = path.with_name(FILENAME + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(settings.render())
    os.replace(tmp, path)
    return path
