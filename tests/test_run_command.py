"""``./run.sh``: the README's first command.

It starts the virtual board and prints its address; any other first argument is a
``damath-board`` command (``./run.sh --help`` included), never an argument of the installer.
After the first run it must never touch pip or the network (a classroom Pi is often offline):
a fresh copy of the repository whose ``.venv`` is set up as a first run leaves it, with pip
replaced by a trap that records any call and fails, and every index or proxy address pointing
at a closed port, runs ``--help``, ``demo`` and ``sim``.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import sysconfig
import threading
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEAD = "http://127.0.0.1:9"  # the discard port: nothing listens, every connection is refused


def _serve_and_stop(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[str, int, str]:
    """Start ``cmd`` (the board), wait for its address, fetch the page, stop it with Ctrl+C.
    Returns (everything it printed, its exit code, the page)."""
    proc = subprocess.Popen(
        cmd,
        cwd=cwd,
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
    page = ""
    try:
        assert found.wait(120), "".join(lines)
        url = re.search(r"open (http://127\.0\.0\.1:\d+/) in a browser", "".join(lines))
        assert url, "".join(lines)
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(url.group(1), timeout=10) as response:
            assert response.status == 200
            page = response.read().decode()
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        code = proc.wait(30)
        reader.join(5)
    return "".join(lines), code, page


def test_run_sh_serves_the_virtual_board_and_prints_where(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DAMATH_PROFILE", "STATE_DIRECTORY")}
    env["XDG_STATE_HOME"] = str(tmp_path)
    text, code, page = _serve_and_stop(["bash", str(ROOT / "run.sh")], tmp_path, env)
    assert f"Games are kept in {tmp_path / 'damath-board' / 'sim'}" in text
    assert "Damath" in page
    assert "Traceback" not in text
    assert code in (0, 130, -signal.SIGINT)


# ---------------------------------------------------------------------------- a fresh clone


def _fresh_copy(dest: Path) -> Path:
    """The repository as a clone gets it: every file git tracks or would track (not ignored),
    as it stands in the work tree."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for raw in filter(None, listed):
        rel = raw.decode()
        src = ROOT / rel
        if not src.is_file():
            continue  # deleted in the work tree, not yet committed
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(src.read_bytes())
        target.chmod(src.stat().st_mode & 0o777)
    return dest


PIP_TRAP = """\
import os, sys
with open(os.environ["PIP_TRAP_LOG"], "a") as log:
    log.write(" ".join(sys.argv) + "\\n")
sys.stderr.write("pip is not reachable here\\n")
sys.exit(1)
"""


def _prepared_venv(clone: Path) -> Path:
    """``clone/.venv`` as the first ``./run.sh`` leaves it (the project installed in editable
    mode, its console script, the install stamp), built without pip or the network: the
    packages come from the environment running this test. pip inside it is a trap."""
    venv = clone / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    # the clone (an editable install of it), then the packages it depends on: this test's
    # own, without this checkout's editable install
    (site / "00_damath_board_clone.pth").write_text(f"{clone}\n")
    deps = clone.parent / "dependencies"
    deps.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if not entry.name.startswith(("__editable__", "damath_board")):
            (deps / entry.name).symlink_to(entry)
    (site / "01_dependencies.pth").write_text(f"{deps}\n")
    trap = site / "pip"
    trap.mkdir()
    (trap / "__init__.py").write_text("")
    (trap / "__main__.py").write_text(PIP_TRAP)
    script = venv / "bin" / "damath-board"
    body = "import sys\nfrom controller.cli import main\nsys.exit(main())\n"
    script.write_text(f"#!{python}\n{body}")
    script.chmod(0o755)
    digest = subprocess.run(  # the stamp ./run.sh writes: the lock and pyproject it installed
        ["bash", "-c", 'source scripts/bootstrap.sh && damath_digest "$1" ""', "-", str(clone)],
        cwd=clone,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    (venv / ".installed-base").write_text(digest)
    return venv


@pytest.fixture
def offline_clone(tmp_path: Path) -> tuple[Path, dict[str, str], Path]:
    clone = _fresh_copy(tmp_path / "clone")
    _prepared_venv(clone)
    trap_log = tmp_path / "pip-calls.log"
    shims = tmp_path / "bin"
    shims.mkdir()
    for name in ("pip", "pip3"):  # a bare `pip` on PATH is the same trap
        shim = shims / name
        shim.write_text(f'#!/bin/sh\necho "$0 $*" >> "{trap_log}"\nexit 1\n')
        shim.chmod(0o755)
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DAMATH_PROFILE", "STATE_DIRECTORY", "VIRTUAL_ENV", "PYTHONPATH")
    }
    env |= {
        "PATH": f"{shims}:/usr/bin:/bin",
        "PIP_TRAP_LOG": str(trap_log),
        "PIP_INDEX_URL": f"{DEAD}/simple",
        "PIP_NO_INDEX": "1",
        "http_proxy": DEAD,
        "https_proxy": DEAD,
        "HTTP_PROXY": DEAD,
        "HTTPS_PROXY": DEAD,
        "no_proxy": "",
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "HOME": str(tmp_path),
    }
    return clone, env, trap_log


def _run(clone: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(clone / "run.sh"), *args],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )


def test_the_trap_catches_an_install(offline_clone) -> None:
    """The check below is only worth something if an install would be caught: with the stamp
    gone, ./run.sh tries to install, meets the trap and says so, with exit 1."""
    clone, env, trap_log = offline_clone
    (clone / ".venv" / ".installed-base").unlink()
    done = _run(clone, env, "--help")
    assert done.returncode == 1, done.stderr
    assert "installing the Python packages failed" in done.stderr
    assert trap_log.read_text().count("pip") >= 1


@pytest.mark.slow
def test_a_fresh_clone_runs_offline_after_the_first_run(offline_clone) -> None:
    clone, env, trap_log = offline_clone
    python = clone / ".venv" / "bin" / "python"
    where = subprocess.run(
        [str(python), "-c", "import controller; print(controller.__file__)"],
        cwd=clone.parent,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert where.startswith(str(clone)), where  # the clone's own code runs, not this checkout's

    helped = _run(clone, env, "--help")
    assert helped.returncode == 0, helped.stderr
    assert "usage: damath-board" in helped.stdout
    for command in ("sim", "demo", "run", "rules", "audit"):
        assert command in helped.stdout

    demo = _run(clone, env, "demo")
    assert demo.returncode == 0, demo.stderr
    assert "Integer DAMATH Scoresheet" in demo.stdout

    text, code, page = _serve_and_stop(["bash", str(clone / "run.sh"), "sim"], clone, env)
    assert "Damath" in page and "Traceback" not in text
    assert code in (0, 130, -signal.SIGINT)

    for done in (helped, demo):
        assert "installing" not in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
    assert "installing" not in text
    assert not trap_log.exists(), f"pip was called: {trap_log.read_text()}"
    stamps = sorted(p.name for p in (clone / ".venv").glob(".installed-*"))
    assert stamps == [".installed-base"]  # no stamp per command left behind


def test_run_sh_reads_paths_from_where_the_user_stands(tmp_path: Path) -> None:
    """Issue 40: ``./run.sh`` changed into the checkout, so ``--dir .`` in the event's folder
    made the event in the checkout (and then found "no event here" where the organiser
    stood). Relative paths are the user's: the event is made where they stand."""
    env = {k: v for k, v in os.environ.items() if k != "DAMATH_PROFILE"}
    event = tmp_path / "meet"
    event.mkdir()

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", str(ROOT / "run.sh"), *args], cwd=event, env=env,
                              capture_output=True, text=True, timeout=180)  # fmt: skip

    made = run("hub", "event", "create", "--dir", ".", "--name", "Cup", "--rounds", "3")
    assert made.returncode == 0, made.stderr
    assert (event / "tournament.sqlite").is_file()
    assert not (ROOT / "tournament.sqlite").exists()
    shown = run("hub", "event", "show", "--dir", ".")
    assert shown.returncode == 0, shown.stderr
    assert "Cup" in shown.stdout


def test_the_hubs_install_is_the_lock_not_a_pip_line() -> None:
    """Issue 40: the organiser's guide had the hub's laptop run ``pip install -e '.[hub]'``,
    which resolves whatever PyPI has that day, around the lock. ``./run.sh hub …`` installs
    the hub's lock (requirements/hub.txt, hashes and all) once; a test install covers it."""
    for guide in ("guide-organiser.md", "tournament.md", "hall.md"):
        text = (ROOT / "docs" / guide).read_text(encoding="utf-8")
        assert "pip install" not in text, guide
    lock = (ROOT / "requirements" / "hub.txt").read_text()
    assert re.search(r"^caissify-pairings==\S+ \\$", lock, re.M)
    probe = subprocess.run(
        ["bash", "-c", 'source scripts/bootstrap.sh; damath_lock "$PWD" hub; '
         'damath_stamp "$PWD" hub'],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    lines = probe.stdout.splitlines()
    assert lines[0] == str(ROOT / "requirements" / "hub.txt"), probe.stdout
    assert lines[1].endswith((".installed-test", ".installed-hub")), probe.stdout
