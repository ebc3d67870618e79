"""Whose puzzles a device answers: a child's session, chosen once on the device (issue 39,
item 9: any device answered as any child, and two wrong tries in a classmate's name showed the
solution). The teacher (the arbiter's PIN unlocked on that device, or a simulator without a
PIN) picks the child; a child picks her own name with the class's short code, which the
teacher's progress page shows. The session is an HttpOnly cookie: every puzzle, answer and
rating of that device is that child's, and the code's guessing is slowed per address as the
PIN's is."""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from controller.i18n import _

COOKIE = "damath_child"
SECONDS = 12 * 3600
"""A child's session lasts a school day (a restart of the simulator ends it, as the PIN's)."""
MAX_SESSIONS = 512
FREE_TRIES, LOCKOUT_SECONDS = 5, 30.0


class ChildError(Exception):
    """A child's session refused; the text is shown to the child."""


def new_code() -> str:
    """Six digits, new at every start of the simulator."""
    return f"{secrets.randbelow(10**6):06d}"


@dataclass
class ChildSessions:
    clock: Callable[[], float] = time.monotonic
    code: str = field(default_factory=new_code)
    """The class's code: a child types it once on a device to pick her own name."""
    _sessions: OrderedDict[str, tuple[str, float]] = field(default_factory=OrderedDict)
    _tries: dict[str, tuple[int, float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def join(self, child: str, code: object, who: str, teacher: bool) -> str:
        """A new session's token for ``child`` (on the class list: the caller checks); the
        teacher needs no code. ChildError for a wrong code (5 free tries an address, then 30 s
        doubled at every further wrong one)."""
        with self._lock:
            now = self.clock()
            failed, until = self._tries.get(who, (0, 0.0))
            if not teacher:
                if until > now:
                    raise ChildError(
                        _("too many wrong codes: wait {value:.0f} s").format(value=until - now)
                    )
                if not isinstance(code, str) or not hmac.compare_digest(code.strip(), self.code):
                    failed += 1
                    wait = LOCKOUT_SECONDS * 2 ** (failed - FREE_TRIES)
                    self._tries[who] = (failed, now + wait if failed >= FREE_TRIES else 0.0)
                    raise ChildError(_("that is not the class's code: ask the teacher"))
                self._tries.pop(who, None)
            token = secrets.token_urlsafe(32)
            self._sessions[token] = (child, now + SECONDS)
            while len(self._sessions) > MAX_SESSIONS:
                self._sessions.popitem(last=False)
            return token

    def child(self, token: str | None) -> str | None:
        """The child whose session ``token`` is, while it lasts."""
        if not token:
            return None
        with self._lock:
            found = self._sessions.get(token)
            if found is None:
                return None
            if found[1] <= self.clock():
                del self._sessions[token]
                return None
            return found[0]

    def leave(self, token: str | None) -> None:
        with self._lock:
            self._sessions.pop(token or "", None)

    def rename(self, old: str, new: str) -> None:
        """The teacher renamed a child: her sessions follow the new name."""
        with self._lock:
            for token, (child, until) in list(self._sessions.items()):
                if child == old:
                    self._sessions[token] = (new, until)

    def forget(self, child: str) -> None:
        """A child removed or deleted: her sessions end."""
        with self._lock:
            for token in [t for t, (c, _u) in self._sessions.items() if c == child]:
                del self._sessions[token]
