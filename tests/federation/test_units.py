"""The hub's and the federation's service units pass systemd's own checks and give each server
the open files its edge is fitted under (issue 39, break 1: a stock limit of 1,024 let one
client's connections take them all)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from controller.httpedge import EdgeLimits
from controller.httpedge.serve import caps

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["damath-hub", "damath-federation"])
def test_a_server_unit_verifies_and_raises_the_file_limit(tmp_path, name):
    text = (ROOT / "systemd" / f"{name}.service").read_text()
    settings = dict(
        line.split("=", 1) for line in text.splitlines() if "=" in line and line[0] not in "#["
    )
    files = int(settings["LimitNOFILE"])
    fitted = caps(EdgeLimits(), files)
    assert fitted == EdgeLimits()  # the edge's full limits fit under the unit's
    assert settings["ExecStart"].startswith("/opt/damath-board/.venv/bin/damath-board ")
    unit = tmp_path / f"{name}.service"
    unit.write_text(text.replace("/opt/damath-board", str(ROOT)))
    result = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0 and name not in result.stderr, result.stderr
