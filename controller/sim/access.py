"""Who may do what on the simulator's pages: players and the arbiter (docs/security.md).

Players move chips and answer the board's own questions (which way did the taking go?). The
arbiter (a teacher, a tournament's arbiter) also starts new games, takes back, adjudicates,
pauses, changes settings, loads positions and creates boards. ``ACTIONS`` is the one table that
says which role each action needs; a new action is classified there, and an action missing from
it needs the arbiter (closed by default).

The arbiter's PIN is set by the teacher (``damath-board sim --set-pin``, the ``DAMATH_SIM_PIN``
variable, or a PIN printed at start when the board is served to the network without one). It
is kept only as a salted scrypt hash. Typing it on a page gives that browser a random token in
an HttpOnly, SameSite=Strict cookie for 12 hours, kept (as its digest) in the state folder so
that a restart keeps the browser unlocked (``sessions.py``); wrong PINs are slowed down per
address.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import os
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.concurrency import run_in_threadpool

from controller.i18n import N_, _

from .sessions import SessionStore, digest

PLAYER = "player"
ARBITER = "arbiter"

ACTIONS: dict[str, str] = {
    # the hands on the board
    "click": PLAYER,
    "lift": PLAYER,
    "place": PLAYER,
    "remove": PLAYER,
    "drag": PLAYER,
    "put_aside": PLAYER,
    "from_tray": PLAYER,
    "crown": PLAYER,
    "arrange": PLAYER,
    "touch": PLAYER,  # touching a blinking square chooses which way a taking went
    "name": PLAYER,  # Mathematical Chess: naming the piece just put down
    "done": PLAYER,  # Mathematical Chess: the player's button that ends the turn
    "takeback": PLAYER,  # a player's own takeback: the board allows it only in practice
    "hint": PLAYER,  # the coach's hint: the board gives it only in practice, when turned on
    "review": PLAYER,  # the coach's review of the game: reading, it changes nothing
    # the board's questions to the players: which way a taking went, a board turned round
    "button.next.choice": PLAYER,
    "button.confirm.choice": PLAYER,
    "button.confirm.setup": PLAYER,
    # each player's own button: confirm the table, sign the sheet; held: a dispute
    "button.blue": PLAYER,
    "button.blue.hold": PLAYER,
    "button.red": PLAYER,
    "button.red.hold": PLAYER,
    # the arbiter's buttons
    "button.next.setup": ARBITER,  # changes the variant
    "button.next.setup.hold": ARBITER,  # changes the rules
    "button.pause": ARBITER,
    "button.pause.hold": ARBITER,  # the adjudication menu
    "button.takeback": ARBITER,
    "button.new_game": ARBITER,
    "button.hint": PLAYER,  # the page's Hint in a game against the computer (games/opponent)
    "button.menu": ARBITER,  # next / confirm while the arbiter's menu is open
    "new_game": ARBITER,
    "new_game.position": ARBITER,  # a position loaded from a file
    "info": ARBITER,  # the players' names and the event
    "play": ARBITER,  # practice helps during a game (capture preview, players' takeback)
    "board.create": ARBITER,
    # reading
    "page": PLAYER,
    "download": PLAYER,
    "state": PLAYER,
    "boards.list": PLAYER,
    "access.unlock": PLAYER,
}

WHAT = {
    "button.next.setup": N_("changing the variant"),
    "button.next.setup.hold": N_("changing the rules"),
    "button.pause": N_("Pause"),
    "button.pause.hold": N_("the arbiter's menu"),
    "button.takeback": N_("Takeback"),
    "button.new_game": N_("New game"),
    "button.hint": N_("Hint"),
    "button.menu": N_("the arbiter's menu"),
    "new_game": N_("a new game"),
    "info": N_("the players' names and the event"),
    "play": N_("changing the practice helps"),
    "new_game.position": N_("loading a position"),
    "board.create": N_("creating a board"),
}


def needs(action: str) -> str:
    """The role an action needs; the arbiter for anything not in the table."""
    return ACTIONS.get(action, ARBITER)


def allowed(role: str, action: str) -> bool:
    return role == ARBITER or needs(action) == PLAYER


def action_of(message: dict[str, Any], phase: str = "play", menu_open: bool = False) -> str:
    """The action a page's message asks for, in the board's state (``phase`` of the session,
    whether the arbiter's menu is open): Next in setup changes the variant (arbiter), Next
    during a taking chooses its way (players)."""
    kind = message.get("type")
    if not isinstance(kind, str):
        return "unknown"
    if kind == "new_game":
        return "new_game.position" if message.get("position") is not None else "new_game"
    if kind != "button":
        return kind
    name = message.get("name")
    hold = message.get("hold", False) is True
    if menu_open:
        return "button.menu"
    if name in ("next", "confirm"):
        if phase == "setup":
            return f"button.{name}.setup" + (".hold" if hold and name == "next" else "")
        return f"button.{name}.choice"
    return f"button.{name}" + (".hold" if hold else "")


def refusal(action: str) -> str:
    what = _(WHAT.get(action, N_("this")))
    sentence = _("{what} is for the arbiter: enter the arbiter's PIN").format(what=what)
    return sentence[0].upper() + sentence[1:]


# ---------------------------------------------------------------------- the PIN

_SCRYPT = {"n": 2**14, "r": 8, "p": 1}


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    """``scrypt$n$r$p$salt$hash`` (base64): what is stored, never the PIN itself."""
    salt = salt if salt is not None else os.urandom(16)
    digest = hashlib.scrypt(pin.encode("utf-8"), salt=salt, dklen=32, **_SCRYPT)
    b64 = base64.b64encode
    return "scrypt${n}${r}${p}$".format(**_SCRYPT) + f"{b64(salt).decode()}${b64(digest).decode()}"


def check_pin(pin: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.strip().split("$")
        if scheme != "scrypt":
            return False
        got = hashlib.scrypt(
            pin.encode("utf-8"),
            salt=base64.b64decode(salt),
            n=int(n),
            r=int(r),
            p=int(p),
            dklen=32,
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, base64.b64decode(digest))


def check_new_pin(pin: str) -> str:
    """A PIN a teacher may choose: 4 to 64 characters, not only one repeated character."""
    if not 4 <= len(pin) <= 64:
        raise ValueError(_("the arbiter's PIN needs 4 to 64 characters"))
    if len(set(pin)) == 1:
        raise ValueError(_("choose a PIN that is not one character repeated"))
    return pin


def default_pin_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "damath-board" / "sim-pin"


def read_pin_file(path: Path) -> str | None:
    """The stored hash, or None when no PIN was set; ValueError for a file that is not one."""
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(
            _("cannot read the PIN file {path}: {exc}").format(path=path, exc=exc)
        ) from None
    if not text.startswith("scrypt$") or text.count("$") != 5:
        raise ValueError(
            _("{path} is not a PIN file: set the PIN again with --set-pin").format(path=path)
        )
    return text


def write_pin_file(path: Path, pin: str) -> None:
    """Store the PIN's hash, readable by its owner only (0600), written whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, (hash_pin(check_new_pin(pin)) + "\n").encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def random_pin() -> str:
    """Six digits for one run, printed where the teacher started the simulator."""
    return f"{secrets.randbelow(10**6):06d}"


def is_loopback(host: str) -> bool:
    """127.0.0.1, ::1 or localhost: only this machine can connect."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


# ---------------------------------------------------------------------- tokens and tries

TOKEN_SECONDS = 12 * 3600
COOKIE = "damath_arbiter"
MAX_TOKENS = 256
FREE_TRIES = 5
LOCKOUT_SECONDS = 30.0


class AccessError(Exception):
    """A PIN refused, or tried too often; the text is shown to the person."""


@dataclass
class _Tries:
    failed: int = 0
    until: float = 0.0


@dataclass
class Access:
    """The arbiter's PIN (as a hash; None: everyone is the arbiter, the default on 127.0.0.1)
    and the tokens of the browsers it unlocked."""

    pin_hash: str | None = None
    clock: Callable[[], float] = time.time
    """Wall-clock time: a session's expiry is kept on disk and read again after a restart."""
    store: SessionStore = field(default_factory=lambda: SessionStore(None))
    """Where the unlocked sessions are kept (the state folder; none: in memory only)."""
    _tokens: OrderedDict[str, float] = field(default_factory=OrderedDict)
    """Each session's token's digest (``sessions.digest``) -> when it expires."""
    _tries: OrderedDict[str, _Tries] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    """The tokens and tries: ``unlock`` runs in the server's worker threads (a PIN's hash costs
    tens of milliseconds, never on the event loop every page shares)."""

    @classmethod
    def kept(cls, pin_hash: str, folder: Path | None) -> Access:
        """The PIN's hash (the PIN file's), its unlocked browsers kept in ``folder``."""
        return cls(pin_hash, store=SessionStore(folder))

    @classmethod
    def with_pin(cls, pin: str, folder: Path | None) -> Access:
        """A PIN given at start (DAMATH_SIM_PIN, or printed): hashed, or the hash its kept
        sessions were opened under when it is the same PIN, so they stay unlocked."""
        store = SessionStore(folder)
        stored = store.pin_hash()
        same = stored is not None and check_pin(check_new_pin(pin), stored)
        return cls(stored if same and stored else hash_pin(check_new_pin(pin)), store=store)

    def __post_init__(self) -> None:
        kept = sorted(self.store.load(self.pin_hash, self.clock()).items(), key=lambda kv: kv[1])
        self._tokens.update(kept[-MAX_TOKENS:])  # the sessions a restart keeps

    @property
    def open(self) -> bool:
        return self.pin_hash is None

    def role(self, token: str | None) -> str:
        if self.pin_hash is None:
            return ARBITER
        key = digest(token) if token else None
        if key is not None and (expires := self._tokens.get(key)) is not None:
            if expires > self.clock():
                return ARBITER
            self._tokens.pop(key, None)
        return PLAYER

    def _save(self) -> None:
        """The sessions on disk as they are now (under the lock)."""
        now = self.clock()
        self.store.save(self.pin_hash, {k: v for k, v in self._tokens.items() if v > now})

    def unlock(self, pin: Any, who: str) -> str:
        """A new token for a right PIN; AccessError otherwise. ``who`` is the client's address:
        after 5 wrong PINs it waits 30 s, doubled at every further wrong one. It hashes the
        PIN: call it from a worker thread (``unlock_off_loop``), not on the event loop."""
        if self.pin_hash is None:
            raise AccessError(_("there is no arbiter's PIN on this simulator: nothing to unlock"))
        with self._lock:
            now = self.clock()
            tries = self._tries.get(who) or _Tries()
            if tries.until > now:
                raise AccessError(
                    _("too many wrong PINs: wait {value:.0f} s").format(value=tries.until - now)
                )
        right = isinstance(pin, str) and 1 <= len(pin) <= 64 and check_pin(pin, self.pin_hash)
        with self._lock:
            if not right:
                tries = self._tries.get(who) or tries
                tries.failed += 1
                if tries.failed >= FREE_TRIES:
                    tries.until = now + LOCKOUT_SECONDS * 2 ** (tries.failed - FREE_TRIES)
                self._tries[who] = tries
                self._tries.move_to_end(who)
                while len(self._tries) > 1024:
                    self._tries.popitem(last=False)
                raise AccessError(_("that is not the arbiter's PIN"))
            self._tries.pop(who, None)
            token = secrets.token_urlsafe(32)
            self._tokens[digest(token)] = now + TOKEN_SECONDS
            while len(self._tokens) > MAX_TOKENS:
                self._tokens.popitem(last=False)
            self._save()
            return token

    async def unlock_off_loop(self, pin: Any, who: str) -> str:
        """``unlock`` in a worker thread: 150 wrong PINs from 30 addresses stalled every other
        page of the simulator 1.7 s while their hashes ran on the event loop."""
        return await run_in_threadpool(self.unlock, pin, who)

    def lock(self, token: str | None) -> None:
        if token:
            with self._lock:
                if self._tokens.pop(digest(token), None) is not None:
                    self._save()


# ---------------------------------------------------------------------- where requests come from


def origin_ok(origin: str | None, host: str | None) -> bool:
    """A browser's request from one of this simulator's own pages: its ``Origin`` names the
    same host and port as the ``Host`` it was sent to. No Origin: not a browser (a script on
    the machine), which the PIN still governs; ``null`` or any other site: refused."""
    if origin is None:
        return True
    if not host:
        return False
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    return parts.netloc.lower() == host.lower()


def host_ok(host: str | None, allowed: frozenset[str] | None) -> bool:
    """The ``Host`` header is one of the names this simulator answers to (when it listens on
    127.0.0.1 only: so a site renamed to 127.0.0.1 by its DNS cannot reach it)."""
    if allowed is None:
        return True
    if not host:
        return False
    host = host.lower()
    name = host if host.endswith("]") else host.rsplit(":", 1)[0]  # [::1]:8000 -> [::1]
    return name in allowed


LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})
