"""The real servers the federation's tests (and benchmarks) run: Debian's PostgreSQL (a cluster
``initdb``'d in a temporary folder), a RabbitMQ cluster with its MQTT plugin (nodes in a
temporary folder, their own epmd), and the federation's own service over HTTPS.

PostgreSQL and RabbitMQ refuse to run as root, and CI may run as root: then each runs as the
system user its Debian package made (``postgres``, ``rabbitmq``), the process still this test's
child (its pid is ours to stop). Every server is stopped by its pid, never by its name.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import pwd
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from controller.federation.cluster import node_conf

ROOT = Path(__file__).resolve().parents[2]
DAMATH = str(Path(sys.executable).with_name("damath-board"))
RABBIT_BIN = Path("/usr/lib/rabbitmq/bin")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def quiet_port() -> int:
    """A free port below the kernel's ephemeral range, for a server that binds it later (an
    Erlang node's distribution and MQTT ports): a port from ``free_port`` can be handed to
    any outgoing connection between this check and the server's bind, one of these cannot."""
    low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    for _ in range(200):
        port = random.randrange(10000, max(low, 10001))
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    return free_port()


def wait_until(what: str, check, timeout: float = 60.0, every: float = 0.1):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout:.0f} s ({value!r})")
        time.sleep(every)


def _as_user(name: str, cwd: Path) -> dict:
    """Popen arguments that run a server as ``name`` when this process is root, in ``cwd``, a
    folder of its own: the tests' working directory may be a clone in a 0700 folder the
    server's user cannot enter (Erlang then fails to read ``.``, eacces)."""
    if os.geteuid() != 0:
        return {"cwd": cwd}
    entry = pwd.getpwnam(name)
    return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": [], "cwd": cwd}


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
            **_as_user(self.user, self.folder),
        )
        (self.folder / "postgres.log").touch()
        if os.geteuid() == 0:
            shutil.chown(self.folder / "postgres.log", self.user)
        self._launch()
        self.sql("postgres", "CREATE DATABASE fed")
        return self

    def _launch(self) -> None:
        """The server on the cluster's folder and port (its data as the last stop left it)."""
        assert self.folder is not None
        log = open(self.folder / "postgres.log", "a")  # noqa: SIM115 - the server keeps it
        self.proc = subprocess.Popen(
            [
                str(postgres_bin() / "postgres"),
                "-D",
                str(self.folder / "data"),
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
            **_as_user(self.user, self.folder),
        )
        wait_until("PostgreSQL accepts connections", self._ready, timeout=60)

    def halt(self) -> None:
        """The server stopped (a fast shutdown: its clients' connections end), its data kept:
        PostgreSQL down under a running service, until ``resume``."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(30)

    def resume(self) -> None:
        """The server back on the same port and data."""
        assert self.proc is not None and self.proc.poll() is not None
        self._launch()

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


def rabbit_password_hash(password: str) -> str:
    """A password as RabbitMQ's definitions hold it (``rabbit_password_hashing_sha256``: a
    4-byte salt, then SHA-256 of the salt and the password, in base64)."""
    salt = os.urandom(4)
    return base64.b64encode(salt + hashlib.sha256(salt + password.encode()).digest()).decode()


def definitions_of(commands: list[list[str]]) -> dict:
    """``rabbitmqctl`` lines (``add_user``, ``set_permissions``, ``set_topic_permissions``,
    ``set_policy``, what the federation's commands print) as one definitions document, so a
    test imports a hall's users in one call (each ``rabbitmqctl`` is an Erlang VM's start)."""
    out: dict = {
        "vhosts": [{"name": "/"}],  # a node that loads definitions at boot makes no default vhost
        "users": [],
        "permissions": [],
        "topic_permissions": [],
        "policies": [],
    }
    for argv in commands:
        verb, rest = argv[0], [a for a in argv[1:]]
        if "-p" in rest:
            i = rest.index("-p")
            vhost = rest[i + 1]
            del rest[i : i + 2]
        else:
            vhost = "/"
        if verb == "add_user":
            out["users"].append(
                {
                    "name": rest[0],
                    "password_hash": rabbit_password_hash(rest[1]),
                    "hashing_algorithm": "rabbit_password_hashing_sha256",
                    "tags": [],
                }
            )
        elif verb == "set_permissions":
            user, configure, write, read = rest
            out["permissions"].append(
                {"user": user, "vhost": vhost, "configure": configure, "write": write,
                 "read": read}
            )  # fmt: skip
        elif verb == "set_topic_permissions":
            user, exchange, write, read = rest
            out["topic_permissions"].append(
                {"user": user, "vhost": vhost, "exchange": exchange, "write": write,
                 "read": read}
            )  # fmt: skip
        elif verb == "set_policy":
            apply_to = "all"
            if "--apply-to" in rest:
                i = rest.index("--apply-to")
                apply_to = rest[i + 1]
                del rest[i : i + 2]
            name, pattern, definition = rest
            out["policies"].append(
                {"vhost": vhost, "name": name, "pattern": pattern, "apply-to": apply_to,
                 "definition": json.loads(definition), "priority": 0}
            )  # fmt: skip
        else:
            raise AssertionError(f"definitions_of: rabbitmqctl {verb} is not known here")
    return out


@dataclass
class RabbitCluster:
    """A RabbitMQ cluster of ``size`` nodes on this machine, each with the MQTT plugin on a
    port of its own, an epmd of their own on a free port. The first node starts alone; the
    others join it as they boot (``classic_config`` peer discovery: no ``join_cluster``, which
    costs a stop and a start of each). With ``tls`` (the CA, a certificate and its key) the
    MQTT port speaks TLS only: there is no plain MQTT port and no AMQP port at all.
    ``durable_queue_type = quorum`` (docs/federation.md, "Why the wall holds"): a persistent
    MQTT session's queue is a quorum queue, on every node."""

    size: int = 3
    tls: tuple[str, str, str] | None = None
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

    def start(self, definitions: dict | None = None) -> RabbitCluster:
        """The cluster, every node running and clustered; ``definitions`` (users,
        permissions, policies: ``definitions_of``) loaded by the first node as it boots."""
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
            **_as_user(user, self.folder),
        )
        for n in range(self.size):
            self.nodes.append(
                RabbitNode(
                    f"fed{n}x{self.epmd_port}", quiet_port(), quiet_port(), self.folder / f"node{n}"
                )
            )
        for n, node in enumerate(self.nodes):
            self._prepare(node, definitions if n == 0 else None)
        first, *others = self.nodes
        self._launch(first)
        self.await_node(first)
        for node in others:
            self._launch(node)
        for node in others:
            self.await_node(node)
        running = self.ctl(first, "eval", "length(rabbit_nodes:all_running()).").stdout
        assert running.strip() == str(self.size), f"the cluster has {running.strip()} nodes"
        if definitions is None:  # RabbitMQ's default user, made when no definitions are given
            self.ctl(first, "delete_user", "guest")
        return self

    def _prepare(self, node: RabbitNode, definitions: dict | None) -> None:
        for sub in ("home", "mnesia", "log"):
            (node.folder / sub).mkdir(parents=True)
        cookie = node.folder / "home" / ".erlang.cookie"
        cookie.write_text(self.cookie)
        cookie.chmod(0o400)
        if definitions is not None:
            (node.folder / "definitions.json").write_text(json.dumps(definitions))
        self._configure(node)
        (node.folder / "enabled_plugins").write_text("[rabbitmq_mqtt].\n")
        if os.geteuid() == 0:
            for path in [node.folder, *node.folder.rglob("*")]:
                shutil.chown(path, self._user, self._user)

    def _configure(self, node: RabbitNode) -> None:
        """The node's ``rabbitmq.conf``: its peers, its MQTT port, its definitions if any."""
        assert node.folder is not None
        peers = "".join(
            f"cluster_formation.classic_config.nodes.{i} = {peer.node}\n"
            for i, peer in enumerate(self.nodes, start=1)
        )
        conf = [
            "cluster_formation.peer_discovery_backend = classic_config",
            peers.rstrip("\n"),
            "log.console = false",
            "log.file.level = info",
        ]
        if self.tls is not None:  # the nodes' settings as `federation broker` prints them
            for name, path in zip(("ca.pem", "cert.pem", "key.pem"), self.tls, strict=True):
                shutil.copyfile(path, node.folder / name)
            conf += node_conf(
                str(node.folder / "cert.pem"),
                str(node.folder / "key.pem"),
                str(node.folder / "ca.pem"),
                f"127.0.0.1:{node.mqtt_port}",
            ).splitlines()
        else:
            conf += [
                "listeners.tcp = none",
                "mqtt.allow_anonymous = false",
                "mqtt.durable_queue_type = quorum",
                f"mqtt.listeners.tcp.default = 127.0.0.1:{node.mqtt_port}",
            ]
        if (node.folder / "definitions.json").exists():
            conf.append(f"load_definitions = {node.folder / 'definitions.json'}")
        (node.folder / "rabbitmq.conf").write_text("\n".join(conf) + "\n")
        if os.geteuid() == 0:
            shutil.chown(node.folder / "rabbitmq.conf", self._user, self._user)

    def _launch(self, node: RabbitNode) -> None:
        out = open(node.folder / "server.out", "a")  # noqa: SIM115 - the server keeps it
        node.proc = subprocess.Popen(
            [str(RABBIT_BIN / "rabbitmq-server")],
            env=self._env(node),
            stdout=out,
            stderr=subprocess.STDOUT,
            **_as_user(self._user, node.folder),
        )

    def await_node(self, node: RabbitNode, timeout: float = 180) -> None:
        """Until the node's MQTT port answers: RabbitMQ opens it once the node has booted,
        joined its cluster and started its plugins (no ``rabbitmqctl``: each is a VM's start)."""

        retries = [2]

        def listening() -> bool:
            assert node.proc is not None
            if node.proc.poll() is not None:
                said = self.log(node)[-3000:]
                if retries[0] and ("dist_port_already_used" in said or "eaddrinuse" in said):
                    # another program took a port between its check and the node's bind
                    retries[0] -= 1
                    if "dist_port_already_used" in said:
                        node.dist_port = quiet_port()
                    else:
                        node.mqtt_port = quiet_port()
                    (node.folder / "server.out").write_text("")  # a fresh boot's words
                    self._configure(node)
                    self._launch(node)
                    return False
                raise AssertionError(f"{node.node} stopped: {said}")
            try:
                with socket.create_connection(("127.0.0.1", node.mqtt_port), timeout=1):
                    return True
            except OSError:
                return False

        wait_until(f"{node.node} listens", listening, timeout=timeout, every=0.2)

    def restart(self, node: RabbitNode) -> None:
        """A lost node back (its data kept: it rejoins its cluster as it boots)."""
        assert node.proc is None or node.proc.poll() is not None
        self._launch(node)
        self.await_node(node)

    def ctl(self, node: RabbitNode, *args: str, check: bool = True):
        result = subprocess.run(
            [str(RABBIT_BIN / "rabbitmqctl"), "-q", "-n", node.node, *args],
            env=self._env(node),
            capture_output=True,
            text=True,
            timeout=120,
            **_as_user(self._user, node.folder),
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

    def import_definitions(self, commands: list[list[str]]) -> None:
        """The same commands' effect in one ``rabbitmqctl import_definitions``."""
        node = self.running()[0]
        assert node.folder is not None
        path = node.folder / f"defs-{os.urandom(4).hex()}.json"
        path.write_text(json.dumps(definitions_of(commands)))
        if os.geteuid() == 0:
            shutil.chown(path, self._user, self._user)
        self.ctl(node, "import_definitions", str(path))

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


STOCK_FILES = 1024


def file_limit(files: int) -> list[str]:
    """The command prefix that runs a server with ``files`` open files at most (util-linux's
    ``prlimit``, in every Debian: it sets the limit and runs the command in its own process)."""
    return ["prlimit", f"--nofile={files}:{files}", "--"]


class Siege:
    """``tests/federation/siege.py`` in a process of its own, against ``targets``; its last
    figures in ``figures``."""

    def __init__(self, targets: list[str], source: str = "127.0.0.2", count: int = 1000,
                 http: bool = False, rate: float = 200.0) -> None:  # fmt: skip
        import threading

        self.figures: dict[str, int] = {}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.federation.siege", *targets, "--from", source,
             "--count", str(count), "--rate", str(rate), *(["--http"] if http else [])],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        import json as _json

        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.figures = _json.loads(line)

    def wait(self, what: str, check, timeout: float = 60.0) -> dict[str, int]:
        def ok():
            assert self.proc.poll() is None, f"the siege stopped: {self.proc.stderr.read()}"
            return self.figures if self.figures and check(self.figures) else None

        return wait_until(what, ok, timeout=timeout, every=0.2)

    def stop(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


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


def damath_here(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """``damath-board ARGS`` run in this process (its own ``main``), for the set-up steps a
    test takes by the hundred: a process of its own costs a second or two of imports on two
    loaded cores. The process is left as it was found: its umask (a hub command sets 077),
    its language (a context of its own), its working directory."""
    import contextvars
    import io
    from contextlib import redirect_stderr, redirect_stdout

    from controller.cli import main

    out, err = io.StringIO(), io.StringIO()
    mask = os.umask(0o022)
    os.umask(mask)
    here = os.getcwd()
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = contextvars.copy_context().run(main, list(args))
            except SystemExit as exc:  # argparse's own refusals
                code = exc.code if isinstance(exc.code, int) else 2
    finally:
        os.umask(mask)
        os.chdir(here)
    done = subprocess.CompletedProcess(
        ["damath-board", *args], code, out.getvalue(), err.getvalue()
    )
    if check:
        assert code == 0, f"damath-board {' '.join(args[:3])}: {done.stderr}{done.stdout}"
    return done


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
    files: int = STOCK_FILES
    """Its open-file limit, soft and hard (a stock Debian shell's soft limit)."""

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def start(self) -> FederationServer:
        ready = self.folder / "ready"
        ready.unlink(missing_ok=True)
        log = open(self.folder / "serve.log", "a")  # noqa: SIM115 - the server keeps it
        self.proc = subprocess.Popen(
            [
                *file_limit(self.files),
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
