"""The README's first command, ``./run.sh``, starts the virtual board and prints its address;
the page is there, and stopping it with Ctrl+C is clean."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_run_sh_serves_the_virtual_board_and_prints_where(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DAMATH_PROFILE", "STATE_DIRECTORY")}
    env["XDG_STATE_HOME"] = str(tmp_path)
    proc = subprocess.Popen(
        ["bash", str(ROOT / "run.sh")],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: list[str] = []
    found = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if "Press Ctrl+C" in line:
                found.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert found.wait(120), "".join(lines)
        text = "".join(lines)
        url = re.search(r"open (http://127\.0\.0\.1:\d+/) in a browser", text)
        assert url, text
        assert f"Games are kept in {tmp_path / 'damath-board' / 'sim'}" in text
        with urllib.request.urlopen(url.group(1), timeout=10) as page:
            assert page.status == 200
            assert "Damath" in page.read().decode()
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        code = proc.wait(30)
        reader.join(5)
    assert "Traceback" not in "".join(lines)
    assert code in (0, 130, -signal.SIGINT)
