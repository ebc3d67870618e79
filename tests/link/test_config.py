"""The board's connection file: what board-add writes reads back; every mistake is one clear
sentence naming the file and the field."""

from __future__ import annotations

import stat

import pytest

from controller.link.config import ConfigError, LinkConfig, load, write

GOOD = LinkConfig("192.168.50.10", 1883, False, "", "b07", "b07", "pw", bytes(range(32)))


def test_written_file_reads_back_and_is_private(tmp_path):
    path = write(tmp_path / "b07.toml", GOOD)
    assert load(path) == GOOD
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace("[hub]", "[hubb]"), "the [hub] table is missing"),
        (lambda t: t.replace("port = 1883", "port = 70000"), "'port' must be a number"),
        (lambda t: t.replace("port = 1883", 'port = "x"'), "'port' must be a number"),
        (lambda t: t.replace("tls = false", "tls = 1"), "'tls' must be true or false"),
        (lambda t: t.replace('id = "b07"', 'id = "B 07"'), "board id 'B 07'"),
        (lambda t: t.replace('id = "b07"', 'id = "hub"'), "board id 'hub'"),
        (lambda t: t.replace('password = "pw"', 'password = ""'), "must not be empty"),
        (lambda t: t.replace('host = "192.168.50.10"', 'host = ""'), "'host'"),
        (lambda t: t[: t.index("hmac_key")], "'hmac_key' is missing"),
        (lambda t: t.replace("000102", "zz0102"), "64 hex digits"),
        (lambda t: t.replace('ca_file = ""', 'ca_file = "nope.pem"'), "is not there"),
        (lambda t: t.replace("[board]", "[board"), "not valid TOML"),
    ],
)
def test_mistakes_are_named(tmp_path, edit, message):
    path = write(tmp_path / "b07.toml", GOOD)
    path.write_text(edit(path.read_text()))
    with pytest.raises(ConfigError) as info:
        load(path)
    assert message in str(info.value) and str(path) in str(info.value)


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="no such connection file"):
        load(tmp_path / "none.toml")
