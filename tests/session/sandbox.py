"""Run a command inside the service's sandbox, as far as a machine without systemd allows.

``python sandbox.py UNIT WORKDIR IDENTITY -- COMMAND...`` (as root, inside ``unshare --mount
--pid --net --fork``) reads the unit file and sets up, in this mount namespace only:
- /proc mounted as ProtectProc= and ProcSubset= say (hidepid=invisible, subset=pid), then seen
  through a view whose cpuinfo and device-tree are the Raspberry Pi IDENTITY's ("pi4", "pi5") —
  present only where that procfs shows its non-process entries, as on a real Pi;
- /dev holding only the pseudo-devices DevicePolicy=closed lets through, and the DeviceAllow=
  nodes this machine has; /tmp and /var/tmp empty (PrivateTmp=); /home and /root empty and
  read-only (ProtectHome=; the Python installation stays visible if a test machine keeps it
  there: on a Pi it is /usr); everything else read-only (ProtectSystem=strict), but the
  StateDirectory= (WORKDIR/state, at /var/lib/NAME);
- then it drops to an unprivileged user with no capabilities and no new privileges
  (User=, CapabilityBoundingSet=, NoNewPrivileges=), refuses writable-and-executable memory
  (MemoryDenyWriteExecute=, prctl PR_SET_MDWE), sets UMask= and WorkingDirectory= and the
  unit's Environment=, and runs COMMAND. The network namespace is empty (PrivateNetwork=).
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from pathlib import Path

IDENTITIES = {
    "pi4": ("c03114", "Raspberry Pi 4 Model B Rev 1.4", "raspberrypi,4-model-b", "brcm,bcm2711"),
    "pi5": ("d04170", "Raspberry Pi 5 Model B Rev 1.0", "raspberrypi,5-model-b", "brcm,bcm2712"),
}
PSEUDO_DEVICES = {"null": (1, 3), "zero": (1, 5), "full": (1, 7), "random": (1, 8),
                  "urandom": (1, 9), "tty": (5, 0)}  # fmt: skip
NOBODY = 65534


def settings(text: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            out.setdefault(key.strip(), []).append(value.strip())
    return out


def sh(*argv: str) -> None:
    subprocess.run(argv, check=True)


def proc_view(unit: dict, identity: str, base: Path) -> None:
    real = base / "proc-real"
    view = base / "proc-view"
    real.mkdir()
    view.mkdir()
    options = []
    if "invisible" in unit.get("ProtectProc", []):
        options.append("hidepid=invisible")
    if "pid" in unit.get("ProcSubset", []):
        options.append("subset=pid")
    sh("mount", "-t", "proc", "-o", ",".join(options) or "defaults", "proc", str(real))
    sh("mount", "-t", "tmpfs", "tmpfs", str(view))
    entries = os.listdir(real)
    for name in entries:
        (view / name).symlink_to(real / name)
    revision, model, board, chip = IDENTITIES[identity]
    if "cpuinfo" in entries:  # the non-process entries are there: so is the Pi's identity
        (view / "cpuinfo").unlink()
        (view / "cpuinfo").write_text(
            "processor\t: 0\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd\n\n"
            f"Hardware\t: BCM2835\nRevision\t: {revision}\nSerial\t\t: 100000001\n"
            f"Model\t\t: {model}\n"
        )
        tree = view / "device-tree"
        (tree / "system").mkdir(parents=True)
        (tree / "model").write_bytes(model.encode() + b"\0")
        (tree / "compatible").write_bytes(f"{board}\0{chip}\0".encode())
        (tree / "system" / "linux,revision").write_bytes(int(revision, 16).to_bytes(4, "big"))
    sh("mount", "-o", "remount,ro", str(view))
    sh("mount", "--bind", str(view), "/proc")


def dev_view(unit: dict) -> None:
    sh("mount", "-t", "tmpfs", "-o", "mode=0755", "tmpfs", "/dev")
    for name, (major, minor) in PSEUDO_DEVICES.items():
        os.mknod(f"/dev/{name}", 0o20666, os.makedev(major, minor))
        os.chmod(f"/dev/{name}", 0o666)  # mknod applied the umask
    # DeviceAllow= nodes that this machine has (a Pi's GPIO, SPI, I2C are not here)


def main() -> None:
    unit_path, workdir, identity = sys.argv[1:4]
    command = sys.argv[sys.argv.index("--") + 1 :]
    text = Path(unit_path).read_text()
    for drop_in in Path(unit_path + ".d").glob("*.conf") if Path(unit_path + ".d").is_dir() else []:
        text += "\n" + drop_in.read_text()
    unit = settings(text)
    work = Path(workdir)
    mounts = [line.split()[4] for line in Path("/proc/self/mountinfo").read_text().splitlines()]
    sh("mount", "--make-rprivate", "/")
    base = Path("/run")
    sh("mount", "-t", "tmpfs", "tmpfs", str(base))
    proc_view(unit, identity, base)
    dev_view(unit)
    name = unit["StateDirectory"][0]
    sh("mount", "-t", "tmpfs", "tmpfs", "/var/lib")
    state = Path("/var/lib") / name
    state.mkdir()
    sh("mount", "--bind", str(work / "state"), str(state))
    os.chown(work / "state", NOBODY, NOBODY)
    if "yes" in unit.get("PrivateTmp", []):
        # a checkout under /tmp (a test clone; an installed board lives in /opt) stays visible,
        # read-only, as /opt/damath-board would: only the rest of /tmp is private
        project = str(Path(__file__).resolve().parents[2])
        held = base / "project"
        held.mkdir()
        sh("mount", "--bind", project, str(held))
        for tmp in ("/tmp", "/var/tmp"):
            sh("mount", "-t", "tmpfs", "tmpfs", tmp)
            if project.startswith(tmp + "/"):
                os.makedirs(project)
                sh("mount", "--bind", str(held), project)
                sh("mount", "-o", "remount,bind,ro", project)
    if "yes" in unit.get("ProtectHome", []):
        python = os.path.realpath(sys.base_prefix)  # on a Pi /usr; on a test machine maybe ~
        keep = base / "python"
        keep.mkdir()
        sh("mount", "--bind", python, str(keep))
        for home in ("/home", "/root"):
            if not os.path.isdir(home):
                continue
            sh("mount", "-t", "tmpfs", "-o", "mode=0755", "tmpfs", home)
            if python.startswith(home + "/"):
                os.makedirs(python)
                sh("mount", "--bind", str(keep), python)
                sh("mount", "-o", "remount,bind,ro", python)
            sh("mount", "-o", "remount,ro", home)
    if "strict" in unit.get("ProtectSystem", []):
        keep = {"/proc", "/dev", "/run", "/var/lib", "/tmp", "/var/tmp", "/home", "/root"}
        for point in sorted(set(mounts)):
            if point in keep or any(point.startswith(k + "/") for k in keep):
                continue
            subprocess.run(["mount", "-o", "remount,bind,ro", point], capture_output=True)
    env = {"PATH": "/usr/bin:/bin", "STATE_DIRECTORY": str(state), "LANG": "C.UTF-8"}
    for line in unit.get("Environment", []):
        key, _, value = line.partition("=")
        env[key] = value
    for key in ("DAMATH_BOARD_HARNESS", "PYTHONPATH", "GPIOZERO_PIN_FACTORY", "NOTIFY_SOCKET",
                "WATCHDOG_USEC"):  # fmt: skip
        if key in os.environ:
            env[key] = os.environ[key]
    umask = int(unit.get("UMask", ["0022"])[0], 8)
    mdwe = "yes" in unit.get("MemoryDenyWriteExecute", [])
    launcher = (
        "import ctypes, os, sys\n"
        f"os.umask({umask})\n"
        f"os.chdir({unit['WorkingDirectory'][0]!r})\n"
        + ("assert ctypes.CDLL(None, use_errno=True).prctl(65, 1, 0, 0, 0) == 0\n" if mdwe else "")
        + "os.execve(sys.argv[1], sys.argv[1:], os.environ)\n"
    )
    drop = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    if "yes" in unit.get("NoNewPrivileges", []):
        drop.append("--no-new-privs")
    if unit.get("CapabilityBoundingSet") == [""]:
        drop += ["--bounding-set=-all", "--inh-caps=-all"]
    os.execvpe(drop[0], [*drop, sys.executable, "-c", launcher, *command], env)


if __name__ == "__main__":
    ctypes.CDLL(None)  # fail early where there is no libc to call prctl through
    main()
