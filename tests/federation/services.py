"""The real servers the federation's tests (and benchmarks) run: Debian's PostgreSQL (a cluster
``initdb``'d in a temporary folder), a RabbitMQ cluster with its MQTT plugin (nodes in a
temporary folder, their own epmd), and the federation's own service over HTTPS.

PostgreSQL and RabbitMQ refuse to run as root, and CI may run as root: then each runs as the
system user its Debian package made (``postgres``, ``rabbitmq``), the process still this test's
child (its pid is ours to stop). Every server is stopped by its pid, never by its name.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DAMATH = str(Path(sys.executable).with_name("damath-board"))
RABBIT_BIN = Path("/usr/lib/rabbitmq/bin")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(what: str, check, timeout: float = 60.0, every: float = 0.1):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout:.0f} s ({value!r})")
        time.sleep(every)


def _as_user(name: str) -> dict:
    """Popen arguments that run a server as ``name`` when this process is root."""
    if os.geteuid() != 0:
        return {}
    entry = pwd.getpwnam(name)
    return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}


def _owned_folder(prefix: str, user: str) -> Path:
    """A temporary folder the server's user owns (pytest's tmp_path is root's 0700 when root)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    if os.geteuid() == 0:
        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    return folder


def postgres_bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if not found:
        raise AssertionError(
            "PostgreSQL's server is not installed: the federation's tests need Debian's "
            "postgresql (./test.sh installs it)"
        )
    return found[-1].parent


@dataclass
class Postgres:
    """A PostgreSQL cluster of this test's own: initdb'd in a temporary folder, on a free port,
    its superuser ``fed`` with a password (scram-sha-256 over TCP)."""

    password: str = "fed-test-password"
    port: int = field(default_factory=free_port)
    folder: Path | None = None
    proc: subprocess.Popen | None = None

    @property
    def user(self) -> str:
        return "postgres" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name

    def url(self, db: str = "fed") -> str:
        return f"postgresql://fed:{self.password}@127.0.0.1:{self.port}/{db}"

    def start(self) -> Postgres:
        bin_dir = postgres_bin()
        self.folder = _owned_folder("damath-pg-", self.user)
        pwfile = self.folder / "pw"
        pwfile.write_text(self.password + "\n")
        if os.geteuid() == 0:
            shutil.chown(pwfile, self.user)
        data = self.folder / "data"
        subprocess.run(
            [
                str(bin_dir / "initdb"),
                "-D",
                str(data),
                "-U",
                "fed",
                f"--pwfile={pwfile}",
                "--auth=scram-sha-256",
                "-E",
                "UTF8",
                "--locale=C.UTF-8",
            ],
            check=True,
            capture_output=True,
            timeout=120,
            **_as_user(self.user),
        )
        log = open(self.folder / "postgres.log", "w")  # noqa: SIM115 - the server keeps it
        if os.geteuid() == 0:
            shutil.chown(self.folder / "postgres.log", self.user)
        self.proc = subprocess.Popen(
            [
                str(bin_dir / "postgres"),
                "-D",
                str(data),
                "-p",
                str(self.port),
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                f"unix_socket_directories={self.folder}",
                "-c",
                "fsync=on",
                "-c",
                "max_connections=200",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            **_as_user(self.user),
        )
        wait_until("PostgreSQL accepts connections", self._ready, timeout=60)
        self.sql("postgres", "CREATE DATABASE fed")
        return self

    def _ready(self) -> bool:
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise AssertionError("PostgreSQL stopped: " + self.log()[-2000:])
        ready = subprocess.run(
            [str(postgres_bin() / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)],
            capture_output=True,
        )
        return ready.returncode == 0

    def sql(self, db: str, statement: str) -> str:
        import psycopg

        with psycopg.connect(self.url(db), autocommit=True) as conn:
            cur = conn.execute(statement)
            return str(cur.fetchall()) if cur.description else ""

    def create_database(self, name: str) -> str:
        self.sql("postgres", f"CREATE DATABASE {name}")
        return self.url(name)

    def log(self) -> str:
        assert self.folder is not None
        return (self.folder / "postgres.log").read_text(errors="replace")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # PostgreSQL's fast shutdown
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


@dataclass
class RabbitNode:
    name: str
    mqtt_port: int
    dist_port: int
    folder: Path
    proc: subprocess.Popen | None = None

    @property
    def node(self) -> str:
        return f"{self.name}@localhost"

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.mqtt_port}"


@dataclass
class RabbitCluster:
    """A RabbitMQ cluster of ``size`` nodes on this machine, each with the MQTT plugin on a
    port of its own, clustered with the first; an epmd of their own on a free port."""

    size: int = 2
    folder: Path | None = None
    epmd_port: int = field(default_factory=free_port)
    epmd: subprocess.Popen | None = None
    nodes: list[RabbitNode] = field(default_factory=list)
    cookie: str = field(default_factory=lambda: os.urandom(16).hex().upper())

    user = "rabbitmq"

    def _env(self, node: RabbitNode) -> dict[str, str]:
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(node.folder / "home"),
            "LANG": "C.UTF-8",
            "ERL_EPMD_PORT": str(self.epmd_port),
            "RABBITMQ_NODENAME": node.node,
            "RABBITMQ_DIST_PORT": str(node.dist_port),
            "RABBITMQ_CONFIG_FILE": str(node.folder / "rabbitmq.conf"),
            "RABBITMQ_ENABLED_PLUGINS_FILE": str(node.folder / "enabled_plugins"),
            "RABBITMQ_MNESIA_BASE": str(node.folder / "mnesia"),
            "RABBITMQ_LOG_BASE": str(node.folder / "log"),
            "RABBITMQ_PID_FILE": str(node.folder / "pid"),
            "RABBITMQ_CONF_ENV_FILE": "/dev/null",
            "RABBITMQ_ADVANCED_CONFIG_FILE": str(node.folder / "advanced.config"),
            # the script then execs the Erlang VM (as under systemd) instead of running it as
            # its child: the pid this test holds is the node's, and a SIGKILL kills the node
            "RUNNING_UNDER_SYSTEMD": "true",
        }

    def start(self) -> RabbitCluster:
        if not (RABBIT_BIN / "rabbitmq-server").exists() or not shutil.which("epmd"):
            raise AssertionError(
                "RabbitMQ is not installed: the federation's cluster tests need Debian's "
                "rabbitmq-server (./test.sh installs it)"
            )
        user = self.user if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name
        self._user = user
        self.folder = _owned_folder("damath-rabbit-", user)
        self.epmd = subprocess.Popen(
            ["epmd", "-port", str(self.epmd_port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            **_as_user(user),
        )
        for n in range(self.size):
            self.nodes.append(
                RabbitNode(
                    f"fed{n}x{self.epmd_port}", free_port(), free_port(), self.folder / f"node{n}"
                )
            )
        for node in self.nodes:
            self._prepare(node)
            self._launch(node)
        for node in self.nodes:
            self.await_node(node)
        for node in self.nodes[1:]:
            self.ctl(node, "stop_app")
            self.ctl(node, "join_cluster", self.nodes[0].node)
            self.ctl(node, "start_app")
        self.ctl(self.nodes[0], "delete_user", "guest")
        return self

    def _prepare(self, node: RabbitNode) -> None:
        for sub in ("home", "mnesia", "log"):
            (node.folder / sub).mkdir(parents=True)
        cookie = node.folder / "home" / ".erlang.cookie"
        cookie.write_text(self.cookie)
        cookie.chmod(0o400)
        (node.folder / "rabbitmq.conf").write_text(
            "listeners.tcp = none\n"
            f"mqtt.listeners.tcp.default = 127.0.0.1:{node.mqtt_port}\n"
            "mqtt.allow_anonymous = false\n"
            "log.console = false\n"
            "log.file.level = info\n"
        )
        (node.folder / "enabled_plugins").write_text("[rabbitmq_mqtt].\n")
        if os.geteuid() == 0:
            for path in [node.folder, *node.folder.rglob("*")]:
                shutil.chown(path, self._user, self._user)

    def _launch(self, node: RabbitNode) -> None:
        out = open(node.folder / "server.out", "w")  # noqa: SIM115 - the server keeps it
        node.proc = subprocess.Popen(
            [str(RABBIT_BIN / "rabbitmq-server")],
            env=self._env(node),
            cwd=node.folder,
            stdout=out,
            stderr=subprocess.STDOUT,
            **_as_user(self._user),
        )

    def await_node(self, node: RabbitNode, timeout: float = 180) -> None:
        deadline = time.monotonic() + timeout
        while True:
            assert node.proc is not None
            if node.proc.poll() is not None:
                raise AssertionError(f"{node.node} stopped: {self.log(node)[-3000:]}")
            done = self.ctl(node, "await_startup", "--timeout", "10", check=False)
            if done.returncode == 0:
                return
            assert time.monotonic() < deadline, f"{node.node} did not start: {done.stderr}"

    def ctl(self, node: RabbitNode, *args: str, check: bool = True):
        result = subprocess.run(
            [str(RABBIT_BIN / "rabbitmqctl"), "-q", "-n", node.node, *args],
            env=self._env(node),
            capture_output=True,
            text=True,
            timeout=120,
            **_as_user(self._user),
        )
        if check and result.returncode != 0:
            raise AssertionError(f"rabbitmqctl {' '.join(args)}: {result.stderr or result.stdout}")
        return result

    def running(self) -> list[RabbitNode]:
        return [n for n in self.nodes if n.proc is not None and n.proc.poll() is None]

    def apply(self, commands: list[list[str]]) -> None:
        """``rabbitmqctl`` commands (users, permissions) on a running node: the cluster's."""
        node = self.running()[0]
        for argv in commands:
            self.ctl(node, *argv)

    def kill(self, node: RabbitNode) -> None:
        """The node lost at once (SIGKILL: no goodbye to its clients or its peers)."""
        assert node.proc is not None
        node.proc.kill()
        node.proc.wait()

    def log(self, node: RabbitNode) -> str:
        logs = [node.folder / "server.out", node.folder / "log" / f"{node.node}.log"]
        return "\n".join(p.read_text(errors="replace") for p in logs if p.exists())

    def stop(self) -> None:
        for node in self.nodes:
            if node.proc is not None and node.proc.poll() is None:
                node.proc.terminate()  # Erlang shuts down cleanly on SIGTERM
        for node in self.nodes:
            if node.proc is not None:
                try:
                    node.proc.wait(60)
                except subprocess.TimeoutExpired:
                    node.proc.kill()
                    node.proc.wait()
        if self.epmd is not None and self.epmd.poll() is None:
            self.epmd.terminate()
            self.epmd.wait(10)
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


def make_certificates(folder: Path) -> tuple[str, str, str]:
    """A CA of the test's own and a certificate for 127.0.0.1 signed by it (openssl, as
    docs/federation.md says)."""
    folder.mkdir(parents=True, exist_ok=True)

    def run(*args: str) -> None:
        subprocess.run(args, cwd=folder, check=True, capture_output=True)

    run(
        "openssl",
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "2",
        "-subj",
        "/CN=Test federation CA",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
    )
    run(
        "openssl",
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        "/CN=127.0.0.1",
        "-keyout",
        "fed.key",
        "-out",
        "fed.csr",
    )
    (folder / "san.txt").write_text("subjectAltName=IP:127.0.0.1\n")
    run(
        "openssl",
        "x509",
        "-req",
        "-in",
        "fed.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-days",
        "2",
        "-extfile",
        "san.txt",
        "-out",
        "fed.pem",
    )
    return str(folder / "ca.pem"), str(folder / "fed.pem"), str(folder / "fed.key")


def damath(*args: str, check: bool = True, timeout: float = 120) -> subprocess.CompletedProcess:
    out = subprocess.run([DAMATH, *args], capture_output=True, text=True, timeout=timeout)
    if check:
        assert out.returncode == 0, f"damath-board {' '.join(args[:3])}: {out.stderr}{out.stdout}"
    return out


@dataclass
class FederationServer:
    """``damath-board federation serve`` over HTTPS, in a process of its own."""

    folder: Path
    ca: str
    cert: str
    key: str
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def start(self) -> FederationServer:
        ready = self.folder / "ready"
        ready.unlink(missing_ok=True)
        log = open(self.folder / "serve.log", "a")  # noqa: SIM115 - the server keeps it
        self.proc = subprocess.Popen(
            [
                DAMATH,
                "federation",
                "serve",
                "--dir",
                str(self.folder),
                "--http-host",
                "127.0.0.1",
                "--http-port",
                str(self.port),
                "--tls-cert",
                self.cert,
                "--tls-key",
                self.key,
                "--ready-file",
                str(ready),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )

        def up() -> bool:
            assert self.proc is not None and self.proc.poll() is None, self.log()[-3000:]
            return ready.exists()

        wait_until("the federation serves", up, timeout=60)
        return self

    def log(self) -> str:
        return (self.folder / "serve.log").read_text(errors="replace")

    def get(self, path: str) -> bytes:
        import ssl
        import urllib.request

        context = ssl.create_default_context(cafile=self.ca)
        with urllib.request.urlopen(self.url + path, timeout=30, context=context) as r:
            return r.read()

    def json(self, path: str):
        import json

        return json.loads(self.get(path))

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(20)
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
