"""The submission: what a hub sends the federation for a finished event, defined once here for
both sides (the hub writes it, ``hub/submit.py``; the federation reads it, ``verify.py``).

A zip file: the event's archive as the organiser keeps it (standings, crosstables, every game's
PDN and scoresheet), and

- ``federation.json``: the event, its players with their federation IDs, its pairings, every
  result record (corrections kept, oldest first), the board games of each pairing, and the
  boards' signing keys (the event's own: ``board-add`` made them for this event's folder);
- ``records/<board>/<game>.jsonl``: every record of every game, each line the signed envelope
  the board sent (docs/mqtt.md: its hash chain and HMAC);
- ``signature.json``: the SHA-256 of every other file, and the HMAC-SHA-256 of that list with
  the event's credential key (the hub's own signature): a file changed, added or removed after
  the hub signed is caught before anything in it is read.

Reading is bounded and in this order (``open``): sizes and names from the zip's directory, no
member encrypted; then ``signature.json`` alone, the hub's HMAC over its list of files, and the
list against the archive's members; only then is anything else inflated, each member streamed
through SHA-256 against its signed digest, and kept in memory only if the verification reads
it (``Opened.member``; the rest is hashed and dropped, ``Opened.check_rest``). A zip bomb, a
thousand-file archive or an archive signed with another key is refused before it costs more
than its directory.

``signed_at`` (the hub's clock, in the signed list) orders an event's submissions: the
federation refuses one that is not newer than the submission it has accepted (a replay).
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import re
import zipfile
import zlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import IO, Any

from controller.i18n import _
from controller.link.protocol import canonical

FORMAT = 1
MANIFEST = "federation.json"
SIGNATURE = "signature.json"
RECORDS = "records"
MAX_SUBMISSION = 64 * 1024 * 1024
"""Largest submission read (an event of 200 games is about 5 MB)."""
MAX_MEMBERS = 20_000
MAX_MEMBER = 32 * 1024 * 1024
MAX_TOTAL = 128 * 1024 * 1024
"""Bytes of every member inflated (hashed as it streams; only what is verified is kept)."""
MAX_SIGNATURE = 4 * 1024 * 1024
"""signature.json: a digest per file, 20,000 files in under 2 MB."""
CHUNK = 1024 * 1024
NAME = re.compile(r"^[A-Za-z0-9_.+ ()-]+(/[A-Za-z0-9_.+ ()-]+)*$")


class BundleError(ValueError):
    """A submission that cannot be read as one: the message says what is wrong."""


def records_name(board: str, game: str) -> str:
    return f"{RECORDS}/{board}/{game}.jsonl"


def signature_body(
    event_id: str, files: dict[str, str], signed_at: str | None = None
) -> dict[str, Any]:
    body: dict[str, Any] = {"v": FORMAT, "event": event_id, "alg": "HMAC-SHA256"}
    if signed_at is not None:  # an archive of an older hub has none (and is refused for it)
        body["signed_at"] = signed_at
    return {**body, "files": files}


def now_stamp() -> str:
    """The hub's clock as a submission carries it: UTC to the microsecond, so two
    submissions of one event made in the same second are still ordered."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def sign(key: bytes, body: dict[str, Any]) -> str:
    return hmac.new(key, canonical(body), hashlib.sha256).hexdigest()


def write(
    event_id: str, key: bytes, members: dict[str, bytes], signed_at: str | None = None
) -> bytes:
    """The submission's bytes: ``members`` and their signature (made now unless
    ``signed_at`` says when)."""
    files = {name: hashlib.sha256(data).hexdigest() for name, data in sorted(members.items())}
    body = signature_body(event_id, files, signed_at or now_stamp())
    signature = {**body, "hmac": sign(key, body)}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(members):
            z.writestr(name, members[name])
        z.writestr(SIGNATURE, json.dumps(signature, indent=1))
    return buf.getvalue()


@dataclass(frozen=True)
class Bundle:
    """A submission read and its signature checked: its files by name (those read)."""

    event: str
    files: dict[str, bytes]
    signed_at: str | None = None

    def json(self, name: str) -> Any:
        try:
            return json.loads(self.files[name])
        except KeyError:
            raise BundleError(_("the archive has no {name}").format(name=name)) from None
        except (ValueError, RecursionError):
            raise BundleError(_("{name} is not JSON").format(name=name)) from None


DAMAGED = (zipfile.BadZipFile, zlib.error, OSError, ValueError, EOFError, NotImplementedError,
           RuntimeError)  # fmt: skip
"""What zipfile raises for a damaged member (RuntimeError: one it takes for encrypted)."""


@dataclass
class Opened:
    """A submission whose directory and signature are checked, nothing else inflated yet."""

    event: str
    zip: zipfile.ZipFile
    infos: dict[str, zipfile.ZipInfo]
    digests: dict[str, str]
    signed_at: str | None
    read: set[str] = field(default_factory=set)

    def member(self, name: str) -> bytes:
        """A member, inflated and found to be the file the hub signed."""
        return self._stream(name, keep=True)

    def check_rest(self) -> None:
        """Every member not read yet, hashed as it streams and dropped."""
        for name in sorted(set(self.infos) - self.read):
            self._stream(name, keep=False)

    def bundle(self, names: set[str] | None = None) -> Bundle:
        """The members ``names`` (all by default) read; every other one checked."""
        wanted = set(self.infos) if names is None else set(names) & set(self.infos)
        files = {name: self.member(name) for name in sorted(wanted)}
        self.check_rest()
        return Bundle(self.event, files, self.signed_at)

    def _stream(self, name: str, keep: bool) -> bytes:
        info = self.infos[name]
        digest = hashlib.sha256()
        parts: list[bytes] = []
        size = 0
        try:
            with self.zip.open(info) as f:
                while chunk := f.read(CHUNK):
                    size += len(chunk)
                    if size > info.file_size:
                        raise ValueError("it is larger than the archive says")
                    digest.update(chunk)
                    if keep:
                        parts.append(chunk)
        except DAMAGED as exc:
            raise BundleError(
                _("the archive is damaged: {name} cannot be read ({error})").format(
                    name=name[:80], error=str(exc)[:120]
                )
            ) from None
        if size != info.file_size:
            raise BundleError(
                _("the archive is damaged: {name} cannot be read ({error})").format(
                    name=name[:80], error="its size is not the size the archive gives"
                )
            )
        if digest.hexdigest() != self.digests[name]:
            raise BundleError(
                _("{name} was changed after the hub signed the archive").format(name=name)
            )
        self.read.add(name)
        return b"".join(parts)


def open_submission(source: bytes | IO[bytes], event_id: str, key: bytes) -> Opened:
    """The submission's directory and the hub's signature checked (BundleError with the
    reason otherwise); nothing but ``signature.json`` inflated."""
    if isinstance(source, bytes):
        size, source = len(source), io.BytesIO(source)
    else:
        size = source.seek(0, io.SEEK_END)
        source.seek(0)
    if size > MAX_SUBMISSION:
        raise BundleError(
            _("the archive is {size} bytes: at most {limit}").format(
                size=size, limit=MAX_SUBMISSION
            )
        )
    try:
        z = zipfile.ZipFile(source)
        listed_infos = z.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        raise BundleError(_("not a zip archive (damaged, or not the event's archive)")) from None
    if len(listed_infos) > MAX_MEMBERS:
        raise BundleError(_("the archive has more than {n} files").format(n=MAX_MEMBERS))
    infos: dict[str, zipfile.ZipInfo] = {}
    total = 0
    for info in listed_infos:
        if info.is_dir():
            continue
        name = info.filename
        if not NAME.match(name) or ".." in name.split("/") or name in infos:
            raise BundleError(_("the archive holds a file named {name!r}").format(name=name[:80]))
        if info.flag_bits & 0x1:
            raise BundleError(
                _("{name} is encrypted: the hub never encrypts its archive").format(name=name[:80])
            )
        total += info.file_size
        if info.file_size > MAX_MEMBER or total > MAX_TOTAL:
            raise BundleError(_("{name} is too large to read").format(name=name[:80]))
        infos[name] = info
    signature = infos.pop(SIGNATURE, None)
    if signature is None:
        raise BundleError(_("the archive is not signed by the hub (no signature.json)"))
    if signature.file_size > MAX_SIGNATURE:
        raise BundleError(_("{name} is too large to read").format(name=SIGNATURE))
    opened = Opened(event_id, z, {SIGNATURE: signature}, {}, None)
    try:
        with z.open(signature) as f:
            raw = f.read(MAX_SIGNATURE + 1)
    except DAMAGED as exc:
        raise BundleError(
            _("the archive is damaged: {name} cannot be read ({error})").format(
                name=SIGNATURE, error=str(exc)[:120]
            )
        ) from None
    listed, signed_at = _check_signature(raw, event_id, key)
    for name in sorted(infos):
        if name not in listed:
            raise BundleError(
                _("{name} was added to the archive after the hub signed it").format(name=name)
            )
    missing = sorted(set(listed) - set(infos))
    if missing:
        raise BundleError(
            _("{name} was signed by the hub but is missing from the archive").format(
                name=missing[0]
            )
        )
    opened.infos, opened.digests, opened.signed_at = infos, listed, signed_at
    return opened


def read(source: bytes | IO[bytes], event_id: str, key: bytes) -> Bundle:
    """Every file of the submission, once the hub's signature is the event's and every file
    is the one it signed; BundleError (the reason) for anything else."""
    return open_submission(source, event_id, key).bundle()


def _check_signature(raw: bytes, event_id: str, key: bytes) -> tuple[dict[str, str], str | None]:
    """The signed list of files and when the hub signed it, once the HMAC is the event's."""
    try:
        sig = json.loads(raw)
    except (ValueError, RecursionError):
        sig = None
    if (
        not isinstance(sig, dict)
        or not isinstance(sig.get("files"), dict)
        or not all(isinstance(k, str) and isinstance(v, str) for k, v in sig["files"].items())
        or not isinstance(sig.get("signed_at", ""), str)
    ):
        raise BundleError(_("signature.json cannot be read"))
    if sig.get("event") != event_id:
        raise BundleError(
            _("the archive is signed for event {other!r}, not {event}").format(
                other=str(sig.get("event"))[:60], event=event_id
            )
        )
    listed: dict[str, str] = sig["files"]
    signed_at = sig.get("signed_at")
    body = signature_body(event_id, listed, signed_at)
    claimed = sig.get("hmac")
    try:
        good = isinstance(claimed, str) and hmac.compare_digest(sign(key, body), claimed)
    except (TypeError, ValueError):
        good = False
    if not good:
        raise BundleError(
            _(
                "the hub's signature is not the event's (signed with another key, or the list of "
                "files altered)"
            )
        )
    return listed, signed_at
