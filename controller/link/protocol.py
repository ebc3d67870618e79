"""The wire format between boards and the hub: topics, the signed record envelope, its checks.

Defined once here and read by both sides (the board's link and the hub), and documented for
third parties in docs/mqtt.md. Version 1 lives under ``damath/v1/``; a change that an existing
reader would misread gets a new version root, never a silent change under this one.

A record travels as an envelope around the journal record, byte for byte the board's own::

    {"v": 1, "board": "b07", "game": "...", "seq": 12, "prev": "<64 hex>",
     "record": {...}, "info": {...}, "asg": "..." | null, "hash": "<64 hex>", "hmac": "<64 hex>"}

A game other than Damath's records travel in version 2, the same with ``"kind"`` naming the
game (``dadama``, ``dam``, ``mathchess``, ``english``), hashed with the rest.

``hash`` is SHA-256 of the canonical JSON of every field but ``hash`` and ``hmac``; ``prev`` is
the previous record's ``hash`` (64 zeros for the first record of a game), so the records of a
game form a chain; ``hmac`` is HMAC-SHA-256 of ``hash`` with the board's own key. Changing one
byte anywhere, dropping a record or moving one between games or boards breaks the hash, the
chain or the HMAC.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import re
from dataclasses import dataclass
from typing import Any

from controller.record.games import DAMATH, NAMES, reads_its_own
from controller.record.signing import SIGNING_KINDS
from controller.record.signing import record_problem as signing_problem

VERSION = 1
RECORD_VERSIONS = (1, 2)
"""A record's envelope: version 1 is a Damath game's (no ``kind``: every board before the other
games reached the hub sent these, and a board sends them so still, so a record sealed again has
the hash it had); version 2 names its game in ``kind`` (any game of ``NAMES``)."""
ROOT = "damath/v1"
UNNAMED = DAMATH
"""The game of a version 1 envelope, which names none: it came before the other games, whose
envelopes (version 2) name theirs."""
MAX_PAYLOAD = 32 * 1024
"""Largest message the hub reads (a start record with its position is about 2 KB)."""
MAX_DEPTH = 32
"""Deepest nesting of arrays and objects a message may have (a start record's position is 6
levels deep); deeper is refused as malformed before anything recurses through it."""
GENESIS = "0" * 64
HUB_USER = "hub"

BOARD_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")
GAME_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]{0,47}$")
HEX64 = re.compile(r"^[0-9a-f]{64}$")
KIND = re.compile(r"^[a-z_]{1,24}$")
SIDES = (0, 1)

# leaf topics under damath/v1/boards/<board>/
RECORDS, STATE, PRESENCE, ASSIGNMENT, ACK = "records", "state", "presence", "assignment", "ack"
COMMAND = "command"
"""The arbiter's desk to one board (retained): ``{"v": 1, "id": ..., "cmd": "pause"|"resume",
"by": ...}``, or ``"cmd": "start"`` with the ``asg`` it starts (the round's start: that table's
clocks may run); the board obeys each id once."""
RESEND = "resend"
"""The hub to one board (retained): ``{"v": 1, "id": ..., "from": 1}``: publish every record of
every game again from ``from`` (a hub rebuilding a lost store); the board does each id once."""
BOARD_WRITES = (RECORDS, STATE, PRESENCE)
BOARD_READS = (ACK, ASSIGNMENT, COMMAND, RESEND)
"""What a board may publish and read (the broker's ACL says the same, and lets it read the
hub's presence)."""
COMMANDS = ("pause", "resume", "start")


def too_deep(value: object, limit: int = MAX_DEPTH) -> bool:
    """True if ``value`` nests arrays and objects more than ``limit`` deep (walked without
    recursion, so any depth is measured safely)."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def load_json(payload: bytes | bytearray | str) -> Any:
    """The JSON value of a message, or Rejected('malformed') with the reason: not JSON, not
    UTF-8, numbers too long to read, or nested deeper than ``MAX_DEPTH`` (Python's parser
    raises RecursionError on a few thousand levels: caught here, never a traceback)."""
    try:
        data = json.loads(payload)
    except RecursionError:
        raise Rejected("malformed", f"nested deeper than {MAX_DEPTH} levels") from None
    except (ValueError, UnicodeDecodeError):
        raise Rejected("malformed", "not JSON") from None
    if too_deep(data):
        raise Rejected("malformed", f"nested deeper than {MAX_DEPTH} levels")
    return data


def parse_resend(payload: bytes | bytearray) -> str | None:
    """The id of the hub's request to send every game again, or None for anything else."""
    try:
        data = load_json(payload) if payload else None
    except Rejected:
        return None
    if (
        not isinstance(data, dict)
        or not is_version(data.get("v"), VERSION)
        or not is_version(data.get("from"), 1)
    ):
        return None
    ident = data.get("id")
    return ident if isinstance(ident, str) and GAME_ID.match(ident) else None


def parse_command(payload: bytes | bytearray) -> dict[str, Any] | None:
    """The desk's command, or None for anything else (a board obeys nothing it cannot read)."""
    try:
        data = load_json(payload) if payload else None
    except Rejected:
        return None
    if not isinstance(data, dict) or not is_version(data.get("v"), VERSION):
        return None
    ident = data.get("id")
    if not isinstance(ident, str) or not GAME_ID.match(ident) or data.get("cmd") not in COMMANDS:
        return None
    asg = data.get("asg")
    if data["cmd"] == "start" and (not isinstance(asg, str) or not GAME_ID.match(asg)):
        return None  # a start names the table it starts
    return data


HUB_PRESENCE = f"{ROOT}/hub/presence"


def board_topic(board: str, leaf: str) -> str:
    return f"{ROOT}/boards/{board}/{leaf}"


BOARDS_PREFIX = f"{ROOT}/boards/"


def parse_board_topic(topic: str) -> tuple[str, str] | None:
    """``(board, leaf)`` for a topic under ``damath/v1/boards/``, else None."""
    prefix = BOARDS_PREFIX
    if not topic.startswith(prefix):
        return None
    parts = topic[len(prefix) :].split("/")
    if len(parts) != 2 or not BOARD_ID.match(parts[0]):
        return None
    return parts[0], parts[1]


def check_board_id(board: str) -> str:
    """The id itself, or ValueError saying what a board id may be."""
    if not isinstance(board, str) or not BOARD_ID.match(board) or board == HUB_USER:
        raise ValueError(
            f"board id {board!r}: use 1 to 32 lower-case letters, digits or '-', starting with "
            f"a letter or digit (and not {HUB_USER!r})"
        )
    return board


def canonical(obj: object) -> bytes:
    """The one byte form that is hashed: sorted keys, no spaces, ASCII, no NaN."""
    return json.dumps(
        obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
    ).encode("ascii")


class Rejected(ValueError):
    """A message the hub refuses; ``reason`` is one of REASONS, the text says why."""

    def __init__(self, reason: str, text: str) -> None:
        super().__init__(text)
        self.reason = reason


REASONS = {
    "oversized": "larger than the hub reads",
    "malformed": "not a JSON object",
    "schema": "fields missing or of the wrong kind",
    "topic": "published under another board's topic (refused by the broker or the hub)",
    "login": "a connection with a wrong user name or password (refused by the broker)",
    "takeover": "another connection with the board's credential replaced its connection "
    "(the broker keeps one per credential: is its connection file used twice?)",
    "unknown-board": "a board the hub does not know",
    "forged": "hash or HMAC wrong (altered, or not signed with the board's key)",
    "chain": "does not follow the previous record",
    "conflict": "a different record already stored under this number",
    "rules": "its game's rules refuse it (a move, a throw or a removal the hub's engine does not "
    "allow, though signed with the board's key): not stored, and the game goes no further at "
    "the hub",
    "out-of-order": "arrived before the record it follows (it will be resent)",
    "duplicate": "already stored (a resend or a replay): changes nothing",
    "rate": "more messages from the board than the hub takes (a flood): dropped on arrival, "
    "before they are queued; a board resends what is not acknowledged",
    "games": "more new games from the board than it may open in an hour: refused for now, "
    "the board sends them again later",
    "busy": "the hub's queue was full: dropped on arrival (it will be resent)",
    "held": "the board flooded the hub: the broker holds its credential for ten minutes (its "
    "connection dropped, its logins refused), then gives it back",
    "internal": "the hub could not handle it (a bug: see its log); it will be resent",
}


@dataclass(frozen=True)
class Envelope:
    board: str
    game: str
    seq: int
    prev: str
    record: dict[str, Any]
    info: dict[str, Any]
    asg: str | None
    hash: str
    hmac: str
    game_kind: str = DAMATH
    """The game the record is of (its envelope's ``kind``; a version 1 envelope's is Damath)."""

    @property
    def version(self) -> int:
        return 1 if self.game_kind == UNNAMED else 2

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "v": self.version,
            "board": self.board,
            "game": self.game,
            "seq": self.seq,
            "prev": self.prev,
            "record": self.record,
            "info": self.info,
            "asg": self.asg,
        }
        if self.version == 2:
            body["kind"] = self.game_kind
        return body

    def payload(self) -> bytes:
        return canonical({**self.body(), "hash": self.hash, "hmac": self.hmac})

    @property
    def kind(self) -> str:
        """The record's kind (``k``; ``kind`` in an older Mathematical Chess journal)."""
        return str(self.record.get("k", self.record.get("kind", "")))


def is_version(value: object, version: int) -> bool:
    """``value`` is the whole number ``version``: JSON's ``true`` is not 1 (Python's
    ``True == 1`` let ``"v": true`` pass as version 1)."""
    return type(value) is int and value == version


def record_hash(body: dict[str, Any]) -> str:
    return hashlib.sha256(canonical(body)).hexdigest()


def sign(key: bytes, digest: str) -> str:
    return hmac.new(key, digest.encode("ascii"), hashlib.sha256).hexdigest()


def seal(
    board: str,
    game: str,
    seq: int,
    prev: str,
    record: dict[str, Any],
    key: bytes,
    info: dict[str, Any] | None = None,
    asg: str | None = None,
    kind: str = DAMATH,
) -> Envelope:
    """The signed envelope of one journal record of a game of ``kind``."""
    body = Envelope(board, game, seq, prev, record, info or {}, asg, "", "", kind).body()
    digest = record_hash(body)
    return Envelope(
        board, game, seq, prev, record, info or {}, asg, digest, sign(key, digest), kind
    )


def parse_envelope(payload: bytes, topic_board: str) -> Envelope:
    """The envelope in ``payload`` published under ``topic_board``'s topic; Rejected if it is
    oversized, not JSON, not of the schema, or names another board. Keys are checked later."""
    if len(payload) > MAX_PAYLOAD:
        raise Rejected("oversized", f"{len(payload)} bytes (at most {MAX_PAYLOAD})")
    data = load_json(payload)
    if not isinstance(data, dict):
        raise Rejected("malformed", "not a JSON object")
    version = data.get("v")
    if version not in RECORD_VERSIONS or isinstance(version, bool):
        raise Rejected("schema", f"version {version!r} (this hub reads 1 and 2)")
    game_kind = data.get("kind", UNNAMED) if version == 2 else UNNAMED
    if version == 2 and (game_kind not in NAMES or game_kind == UNNAMED):
        others = ", ".join(n for n in NAMES if n != UNNAMED)
        raise Rejected("schema", f"'kind' {game_kind!r}: a game of {others}")
    fields = {
        "board": str,
        "game": str,
        "seq": int,
        "prev": str,
        "record": dict,
        "info": dict,
        "hash": str,
        "hmac": str,
    }
    for name, kind in fields.items():
        value = data.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise Rejected("schema", f"{name!r} missing or not a {kind.__name__}")
    extra = set(data) - {*fields, "v", "asg", *(("kind",) if version == 2 else ())}
    if extra:
        raise Rejected("schema", f"unknown fields {sorted(extra)}")
    if data["board"] != topic_board:
        raise Rejected("topic", f"record of board {data['board']!r} on {topic_board!r}'s topic")
    if not GAME_ID.match(data["game"]):
        raise Rejected("schema", "'game' is not a game id")
    if not 1 <= data["seq"] < 2**31:
        raise Rejected("schema", "'seq' out of range")
    for name in ("prev", "hash", "hmac"):
        if not HEX64.match(data[name]):
            raise Rejected("schema", f"{name!r} is not 64 hex digits")
    asg = data.get("asg")
    if asg is not None and (not isinstance(asg, str) or not GAME_ID.match(asg)):
        raise Rejected("schema", "'asg' is not an assignment id")
    check = game_record_problem if reads_its_own(game_kind) else record_problem
    problem = check(data["record"])
    if problem:
        raise Rejected("schema", f"record: {problem}")
    return Envelope(
        data["board"],
        data["game"],
        data["seq"],
        data["prev"],
        data["record"],
        data["info"],
        asg,
        data["hash"],
        data["hmac"],
        game_kind,
    )


def check_seal(env: Envelope, key: bytes) -> None:
    """Rejected('forged') unless the hash is the body's and the HMAC is the board key's."""
    try:
        digest = record_hash(env.body())
    except ValueError:  # NaN or infinity somewhere: nothing a board writes
        raise Rejected("forged", "the record cannot be hashed") from None
    if not hmac.compare_digest(digest, env.hash):
        raise Rejected("forged", f"record {env.seq}: the hash does not match its content")
    if not hmac.compare_digest(sign(key, digest), env.hmac):
        raise Rejected("forged", f"record {env.seq}: the HMAC is not the board's")


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _square(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 8 for c in value)
    )


def record_problem(record: dict[str, Any]) -> str | None:
    """What is wrong with a journal record's shape, or None. Kinds this version does not know
    are accepted (the journal may grow) as long as they look like records."""
    kind = record.get("k")
    if not isinstance(kind, str) or not KIND.match(kind):
        return "'k' (the record kind) missing"
    if not _number(record.get("t")):
        return "'t' (the board's time) missing"
    for name in ("game_ms", "move_ms"):
        if name in record and not (isinstance(record[name], int) and record[name] >= 0):
            return f"{name!r} is not a whole number of milliseconds"
    if kind == "start":
        if not isinstance(record.get("variant"), str) or not isinstance(record.get("rules"), str):
            return "a start record needs 'variant' and 'rules'"
        if not isinstance(record.get("position"), dict):
            return "a start record needs its 'position'"
    elif kind == "move":
        path = record.get("path")
        if not isinstance(path, list) or not 2 <= len(path) <= 16 or not all(map(_square, path)):
            return "a move record needs a 'path' of squares"
    elif kind in SIGNING_KINDS:
        return signing_problem(record)
    elif kind == "end":
        if not isinstance(record.get("reason"), str):
            return "an end record needs its 'reason'"
        if "side" in record and record["side"] not in SIDES:
            return "'side' is 0 (blue) or 1 (red)"
    return None


GAME_KIND = re.compile(r"^[a-z][a-z_-]{0,31}$")


def game_record_problem(record: dict[str, Any]) -> str | None:
    """What is wrong with the shape of another game's journal record, or None: it names its
    kind (``k``; ``kind`` in a Mathematical Chess journal written before the one key).
    Everything else about it is its game's rules' to judge (the hub re-applies it)."""
    kind = record.get("k", record.get("kind"))
    if not isinstance(kind, str) or not GAME_KIND.match(kind):
        return "'k' (the record kind) missing"
    if "t" in record and not _number(record["t"]):
        return "'t' (the board's time) is not a number"
    return None


def ack_payload(game: str, seq: int) -> bytes:
    """The hub's acknowledgement: every record of ``game`` up to ``seq`` is stored."""
    return canonical({"v": VERSION, "game": game, "seq": seq})


def parse_ack(payload: bytes | bytearray) -> tuple[str, int] | None:
    try:
        data = load_json(payload)
    except Rejected:
        return None
    if not isinstance(data, dict) or not is_version(data.get("v"), VERSION):
        return None
    game, seq = data.get("game"), data.get("seq")
    if not isinstance(game, str) or not GAME_ID.match(game):
        return None
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        return None
    return game, seq


def presence_payload(online: bool, t: float, **extra: Any) -> bytes:
    return canonical({"v": VERSION, "online": online, "t": round(t, 3), **extra})
