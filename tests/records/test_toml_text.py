"""The one TOML string writer: every file the project writes reads back what was written, a
quote, a backslash or a line break in a value included (before it, an event called
``Cup "A"\\n[x]`` broke the hub's and the federation's settings files)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from controller.federation import settings as federation_settings
from controller.hub import settings as hub_settings
from controller.link.config import LinkConfig, parse, render
from controller.record.toml_text import toml_string

HOSTILE = [
    "",
    'Cup "A"',
    "C:\\games\\",
    'a"\nb = "c',
    "line\nbreak\r\ttab",
    "nul\x00bel\x07del\x7f",
    "Paaralang Sta. Niño \u202e",
    '"""',
    "\\u0041",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_every_text_reads_back_as_written(text: str) -> None:
    assert tomllib.loads(f"value = {toml_string(text)}") == {"value": text}


def test_the_hubs_settings_keep_an_odd_event_name(tmp_path: Path) -> None:
    odd = 'Cup "A"\n[x]\npassword = "taken"'
    hub_settings.save(tmp_path, hub_settings.HubSettings('pw\\"', "token", event=odd))
    again = hub_settings.load_or_create(tmp_path)
    assert (again.password, again.event) == ('pw\\"', odd)


def test_the_federations_settings_keep_an_odd_name(tmp_path: Path) -> None:
    odd = 'Region "IV-A"\\\nfederation'
    federation_settings.save(tmp_path, federation_settings.FederationSettings(name=odd))
    assert federation_settings.load(tmp_path).name == odd


def test_a_boards_connection_file_keeps_its_password() -> None:
    config = LinkConfig("hub.local", 8883, True, "", "b07", "b07", 'p"a\\ss', b"\x01" * 32)
    assert parse(tomllib.loads(render(config)), "test") == config
