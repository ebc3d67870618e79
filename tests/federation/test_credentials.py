"""An event's credential, as ``federation event add`` makes it."""

from __future__ import annotations

import re

from controller.federation.cluster import hall_user_commands
from controller.federation.credentials import EventCredential, load


def test_a_halls_broker_password_is_never_read_as_an_option(tmp_path):
    """``rabbitmqctl add_user NAME PASSWORD`` takes a password starting with ``-`` for an
    option and refuses the command (seen with URL-safe base64 passwords: 1 in 64 events)."""
    for n in range(200):
        cred = EventCredential.new(f"ev-{n}", "https://fed.example:8443", "", ("n1:1883",))
        assert re.fullmatch(r"[0-9a-f]{48}", cred.password)
        add_user = hall_user_commands(cred.hall, cred.username, cred.password)[0]
        assert not any(arg.startswith("-") for arg in add_user[1:])
    cred.write(tmp_path / "ev.toml")
    assert load(tmp_path / "ev.toml").password == cred.password
