"""Small paths the larger tests pass by: module entry points, setting refusals, the legend
picture for the docs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from controller.rules.profiles import RulesProfileError, get_profile
from controller.tracker.settings import Settings, SettingsError

ROOT = Path(__file__).resolve().parents[1]


def test_the_audit_runs_as_a_module(tmp_path):
    sheet = ROOT / "tests" / "scoring" / "data" / "manual_integer.csv"
    result = subprocess.run(
        [sys.executable, "-m", "controller.audit", str(sheet), "--variant", "integer"],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout == "all 22 entries are right\n"


def test_the_led_legend_picture_is_drawn(tmp_path):
    out = tmp_path / "legend.png"
    result = subprocess.run(
        [sys.executable, "-m", "controller.view.legend_picture", str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    from PIL import Image

    with Image.open(out) as image:
        assert image.size[0] == 560 and image.size[1] > 100


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"settle": -1}, "setting settle: expected seconds from 0 to 60, got -1"),
        ({"error_delay": True}, "setting error_delay: expected seconds from 0 to 60, got True"),
        ({"touch_move": "yes"}, "setting touch_move: expected true or false, got 'yes'"),
        ({"patience": 3}, "unknown setting 'patience'; settings are: error_delay, settle,"),
    ],
)
def test_tracker_settings_are_refused_with_what_is_allowed(changes, message):
    with pytest.raises(SettingsError, match=message):
        Settings().with_overrides(changes)
    assert Settings().with_overrides({"settle": 1, "touch_move": None}).settle == 1.0


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"touch_move": "on"}, "touch_move: expected true or false, got 'on'"),
        ({"move_seconds": -5}, "move_seconds: expected a whole number from 0 to 86400, got -5"),
        ({"move_seconds": True}, "move_seconds: expected a whole number from 0 to 86400, got True"),
        ({"repetition": "twice"}, "repetition: 'twice' is not one of"),
        ({"move_timeout": "forfeit"}, "move_timeout: 'forfeit' is not one of"),
        ({"name": "mine"}, "unknown profile setting 'name'"),
    ],
)
def test_rule_settings_are_refused_with_what_is_allowed(changes, message):
    with pytest.raises(RulesProfileError, match=message):
        get_profile("official").with_settings(changes)
    assert get_profile(" Online ").with_settings({"move_timeout": "arbiter"}).touch_move
