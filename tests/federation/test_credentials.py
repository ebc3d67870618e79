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


def test_a_federation_in_clear_is_only_this_computers(tmp_path):
    """Issue 39, item 11: an ``http://`` federation address was accepted though the message
    said https: an event's token and results crossed the network in clear. Only this computer
    may be reached by http:// (a federation tried on one laptop, the tests)."""
    import pytest

    from controller.federation import settings
    from controller.federation.credentials import CredentialError, federation_url, parse

    for url in ("https://fed.example.org:8443", "http://127.0.0.1:8443", "http://localhost",
                "http://[::1]:80/"):  # fmt: skip
        assert federation_url(url), url
    for url in ("http://fed.example.org", "http://192.168.1.5:8443", "http://127.0.0.1.evil.org",
                "ftp://fed.example.org", "https://", "http://localhost.example.org"):  # fmt: skip
        assert not federation_url(url), url
    data = {"federation": {"url": "http://fed.example.org", "ca_file": ""},
            "event": {"id": "e1", "token": "t", "key": "00" * 32}}  # fmt: skip
    with pytest.raises(CredentialError, match="must start with https://"):
        parse(data, "event.toml")
    with pytest.raises(settings.SettingsError, match="must start with https://"):
        settings.check({"url": "http://fed.example.org"}, "federation.toml")
