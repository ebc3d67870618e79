"""Each profile's parts list (hardware/parts.md) has the parts its profile wires, and no device
the profile does not: a board built from the list starts (a display in the profile and not on
the list stops `damath-board run` with "I2C device not found")."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
PARTS = (HARDWARE / "parts.md").read_text()
# a device the profile wires (section, backend) -> what its line in a parts list names
DEVICES = {
    ("scoresheet", "ssd1306"): "SSD1306",
    ("buzzer", "tonal"): "buzzer",
    ("clocks", "ht16k33"): "7-segment",
}


def sections() -> dict[str, str]:
    """profile name -> its parts list, with the list it starts from ("As pi-gpio, ...")."""
    found = dict(re.findall(r"^## ([a-z-]+): .*?\n(.*?)(?=^## |\Z)", PARTS, re.S | re.M))
    for name, text in found.items():
        based = re.match(r"\s*As ([a-z-]+)", text)
        if based:
            found[name] = found[based.group(1)] + text
    return found


LISTS = sections()


def test_every_pico_profile_has_a_parts_list():
    assert {"pico", "dam-pico", "mathchess-pico", "pi-gpio", "pi-hall"} <= set(LISTS)


@pytest.mark.parametrize("name", sorted(LISTS))
def test_a_profile_s_parts_list_has_what_it_wires_and_nothing_else(name):
    profile = tomllib.loads((HARDWARE / f"{name}.toml").read_text())
    listed = LISTS[name]
    for (section, backend), part in DEVICES.items():
        wired = profile.get(section, {}).get("backend") == backend
        assert (part in listed) == wired, (
            f"{name}: the profile's [{section}] is {profile.get(section, {}).get('backend')!r}, "
            f"and its parts list {'lacks' if wired else 'has'} {part!r}"
        )
