"""Run a command inside the service's sandbox, as far as a machine without systemd allows.

``python sandbox.py UNIT WORKDIR IDENTITY [--dev DIR] [--modules-load FILE] -- COMMAND...`` (as
root, inside ``unshare --mount --pid --net --fork``) reads the unit file and sets up, in this
mount namespace only:
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

DevicePolicy= and DeviceAllow= are enforced by the kernel, as systemd does on a machine with the
cgroup v1 devices controller (on cgroup v2 it loads the same rules as a BPF program): a device
cgroup that denies everything, then allows the pseudo-devices of DevicePolicy=closed (and
char-pts), then each DeviceAllow= as systemd resolves it *when the unit starts*: a path is
stat()ed then and skipped when the node is missing; ``char-NAME`` allows every minor of each
major /proc/devices lists under that name (fnmatch) then, and nothing if none. ``--dev DIR``
makes DIR the service's /dev, so a test can add a node after the start, as udev does when a
Pico is plugged in. ``--modules-load FILE`` (the installer's modules-load.d file): on a Pi,
systemd-modules-load.service loads these before the unit starts; this machine may lack them, so
the /proc/devices lines they register on a Pi (``PI_MODULES``) are added to what the class rules
match. The cgroup's name is left in WORKDIR/devices-cgroup for the test to remove.
"""

from __future__ import annotations

import ctypes
import fnmatch
import os
import stat
import subprocess
import sys
import uuid
from pathlib import Path

IDENTITIES = {
    "pi4": ("c03114", "Raspberry Pi 4 Model B Rev 1.4", "raspberrypi,4-model-b", "brcm,bcm2711"),
    "pi5": ("d04170", "Raspberry Pi 5 Model B Rev 1.0", "raspberrypi,5-model-b", "brcm,bcm2712"),
}
PSEUDO_DEVICES = {"null": (1, 3), "zero": (1, 5), "full": (1, 7), "random": (1, 8),
                  "urandom": (1, 9), "tty": (5, 0), "ptmx": (5, 2)}  # fmt: skip
NOBODY = 65534
CLOSED_POLICY = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
                 "/dev/tty", "/dev/ptmx")  # fmt: skip
PI_MODULES = {"cdc_acm": (166, "ttyACM"), "i2c-dev": (89, "i2c"), "spidev": (153, "spi"),
              "usbserial": (188, "ttyUSB")}  # fmt: skip
DEVICES_CGROUP = Path("/sys/fs/cgroup/devices")


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


def dev_view(unit: dict, dev: str | None) -> None:
    if dev is None:
        sh("mount", "-t", "tmpfs", "-o", "mode=0755", "tmpfs", "/dev")
    else:  # the test's folder: a node it makes there later appears here, as udev's would
        sh("mount", "--bind", dev, "/dev")
    for name, (major, minor) in PSEUDO_DEVICES.items():
        os.mknod(f"/dev/{name}", 0o20666, os.makedev(major, minor))
        os.chmod(f"/dev/{name}", 0o666)  # mknod applied the umask
    # DeviceAllow= nodes that this machine has (a Pi's GPIO, SPI, I2C are not here)


def char_majors(modules_load: str | None) -> list[tuple[int, str]]:
    """/proc/devices' character devices when the unit starts, with the Pi's modules loaded."""
    lines = Path("/proc/devices").read_text().split("Block devices:")[0].splitlines()
    found = [(int(n), name) for n, name in (ln.split(None, 1) for ln in lines[1:] if ln.strip())]
    if modules_load is not None:
        for module in Path(modules_load).read_text().split():
            entry = PI_MODULES[module]
            if entry not in found:
                found.append(entry)
    return found


def device_rules(unit: dict, majors: list[tuple[int, str]]) -> list[str] | None:
    """The devices.allow lines systemd writes for the unit (None: no device policy at all)."""
    policy = unit.get("DevicePolicy", ["auto"])[-1]
    allow = [a for a in unit.get("DeviceAllow", []) if a]
    if policy == "auto" and not allow:
        return None
    wanted = [(node, "rwm") for node in CLOSED_POLICY] if policy != "strict" else []
    rules = []
    if policy != "strict":
        rules += [f"c {n}:* rw" for n, name in majors if name == "pts"]
    for entry in allow:
        node, _, access = entry.partition(" ")
        wanted.append((node, access or "rwm"))
    for node, access in wanted:
        if node.startswith("char-"):
            matched = [n for n, name in majors if fnmatch.fnmatch(name, node[5:])]
            if not matched:
                print(f"sandbox: {node} did not match anything in /proc/devices", file=sys.stderr)
            rules += [f"c {n}:* {access}" for n in matched]
            continue
        try:
            st = os.stat(node)
        except OSError as exc:  # systemd: "Couldn't stat device", and the entry is skipped
            print(f"sandbox: couldn't stat device {node}: {exc.strerror}", file=sys.stderr)
            continue
        kind = "c" if stat.S_ISCHR(st.st_mode) else "b"
        rules.append(f"{kind} {os.major(st.st_rdev)}:{os.minor(st.st_rdev)} {access}")
    return rules


def device_cgroup(rules: list[str], work: Path) -> None:
    """This process (and the service it becomes) into a device cgroup of exactly ``rules``."""
    if not (DEVICES_CGROUP / "devices.allow").exists():
        raise SystemExit("sandbox: DeviceAllow= needs the cgroup v1 devices controller here")
    group = DEVICES_CGROUP / f"damath-sandbox-{uuid.uuid4().hex[:12]}"
    group.mkdir()
    (work / "devices-cgroup").write_text(str(group))
    (group / "devices.deny").write_text("a")
    for rule in rules:
        (group / "devices.allow").write_text(rule)
    (group / "cgroup.procs").write_text(str(os.getpid()))


def expose_checkout(base: Path) -> None:
    """A checkout inside a folder only its owner may enter (a clone in a 0700 folder) is seen
    by the service's user as /opt/damath-board is on a Pi: read-only at the same path, through a
    0755 folder mounted over the closed one. (Under /tmp, the PrivateTmp branch did the same.)"""
    project = Path(__file__).resolve().parents[2]
    closed = next(
        (a for a in reversed(project.parents) if a != Path("/") and not a.stat().st_mode & 0o001),
        None,
    )
    if closed is None:
        return
    held = base / "checkout"
    held.mkdir()
    sh("mount", "--bind", str(project), str(held))
    sh("mount", "-t", "tmpfs", "-o", "mode=0755", "tmpfs", str(closed))
    os.makedirs(project)
    sh("mount", "--bind", str(held), str(project))
    sh("mount", "-o", "remount,bind,ro", str(project))


def main() -> None:
    unit_path, workdir, identity = sys.argv[1:4]
    options = sys.argv[4 : sys.argv.index("--")]
    dev = options[options.index("--dev") + 1] if "--dev" in options else None
    modules_load = None
    if "--modules-load" in options:
        modules_load = options[options.index("--modules-load") + 1]
    command = sys.argv[sys.argv.index("--") + 1 :]
    text = Path(unit_path).read_text()
    for drop_in in Path(unit_path + ".d").glob("*.conf") if Path(unit_path + ".d").is_dir() else []:
        text += "\n" + drop_in.read_text()
    unit = settings(text)
    work = Path(workdir)
    os.umask(0o022)  # systemd's own, whatever the test process was left with (the unit's UMask=
    # is the service's, set by the launcher below); the folders made here are 0755 as on a Pi
    mounts = [line.split()[4] for line in Path("/proc/self/mountinfo").read_text().splitlines()]
    sh("mount", "--make-rprivate", "/")
    base = Path("/run")
    sh("mount", "-t", "tmpfs", "tmpfs", str(base))
    majors = char_majors(modules_load)  # /proc/devices as the unit starts
    proc_view(unit, identity, base)
    dev_view(unit, dev)
    rules = device_rules(unit, majors)  # resolved now, as systemd does when the unit starts
    if rules is not None:
        device_cgroup(rules, work)
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
    expose_checkout(base)
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
