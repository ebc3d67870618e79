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

Reading is bounded (``MAX_*``): a zip bomb or a thousand-file archive is refused by its size,
never unpacked into memory whole.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import re
import zipfile
import zlib
from dataclasses import dataclass
from typing import Any

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
MAX_TOTAL = 256 * 1024 * 1024
NAME = re.compile(r"^[A-Za-z0-9_.+ ()-]+(/[A-Za-z0-9_.+ ()-]+)*$")


class BundleError(ValueError):
    """A submission that cannot be read as one: the message says what is wrong."""


def records_name(board: str, game: str) -> str:
    return f"{RECORDS}/{board}/{game}.jsonl"


def signature_body(event_id: str, files: dict[str, str]) -> dict[str, Any]:
    return {"v": FORMAT, "event": event_id, "alg": "HMAC-SHA256", "files": files}


def sign(key: bytes, body: dict[str, Any]) -> str:
    return hmac.new(key, canonical(body), hashlib.sha256).hexdigest()


def write(event_id: str, key: bytes, members: dict[str, bytes]) -> bytes:
    """The submission's bytes: ``members`` and their signature."""
    files = {name: hashlib.sha256(data).hexdigest() for name, data in sorted(members.items())}
    body = signature_body(event_id, files)
    signature = {**body, "hmac": sign(key, body)}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(members):
            z.writestr(name, members[name])
        z.writestr(SIGNATURE, json.dumps(signature, indent=1))
    return buf.getvalue()


@dataclass(frozen=True)
class Bundle:
    """A submission read and its signature checked: its files by name."""

    event: str
    files: dict[str, bytes]

    def json(self, name: str) -> Any:
        try:
            return json.loads(self.files[name])
        except KeyError:
            raise BundleError(_("the archive has no {name}").format(name=name)) from None
        except (ValueError, RecursionError):
            raise BundleError(_("{name} is not JSON").format(name=name)) from None


def read(body: bytes, event_id: str, key: bytes) -> Bundle:
    """The submission's files, once the hub's signature is the event's and every file is the
    one it signed; BundleError (the reason) for anything else."""
    if len(body) > MAX_SUBMISSION:
        raise BundleError(
            _("the archive is {size} bytes: at most {limit}").format(
                size=len(body), limit=MAX_SUBMISSION
            )
        )
    try:
        z = zipfile.ZipFile(io.BytesIO(body))
        infos = z.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        raise BundleError(_("not a zip archive (damaged, or not the event's archive)")) from None
    if len(infos) > MAX_MEMBERS:
        raise BundleError(_("the archive has more than {n} files").format(n=MAX_MEMBERS))
    total = 0
    files: dict[str, bytes] = {}
    for info in infos:
        if info.is_dir():
            continue
        name = info.filename
        if not NAME.match(name) or ".." in name.split("/") or name in files:
            raise BundleError(_("the archive holds a file named {name!r}").format(name=name[:80]))
        if info.file_size > MAX_MEMBER or total + info.file_size > MAX_TOTAL:
            raise BundleError(_("{name} is too large to read").format(name=name[:80]))
        try:
            data = _read_member(z, info)
        except (zipfile.BadZipFile, zlib.error, OSError, ValueError, EOFError,
                NotImplementedError) as exc:  # fmt: skip
            raise BundleError(
                _("the archive is damaged: {name} cannot be read ({error})").format(
                    name=name[:80], error=str(exc)[:120]
                )
            ) from None
        total += len(data)
        files[name] = data
    signature = files.pop(SIGNATURE, None)
    if signature is None:
        raise BundleError(_("the archive is not signed by the hub (no signature.json)"))
    _check_signature(signature, files, event_id, key)
    return Bundle(event_id, files)


def _read_member(z: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """A member, read no further than it says it is (a lying header is a damaged archive)."""
    with z.open(info) as f:
        data = f.read(MAX_MEMBER + 1)
    if len(data) != info.file_size:
        raise ValueError("its size is not the size the archive gives")
    return data


def _check_signature(raw: bytes, files: dict[str, bytes], event_id: str, key: bytes) -> None:
    try:
        sig = json.loads(raw)
    except (ValueError, RecursionError):
        sig = None
    if not isinstance(sig, dict) or not isinstance(sig.get("files"), dict):
        raise BundleError(_("signature.json cannot be read"))
    if sig.get("event") != event_id:
        raise BundleError(
            _("the archive is signed for event {other!r}, not {event}").format(
                other=str(sig.get("event"))[:60], event=event_id
            )
        )
    listed = sig["files"]
    body = signature_body(event_id, listed)
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
    for name, data in sorted(files.items()):
        digest = listed.get(name)
        if digest is None:
            raise BundleError(
                _("{name} was added to the archive after the hub signed it").format(name=name)
            )
        if hashlib.sha256(data).hexdigest() != digest:
            raise BundleError(
                _("{name} was changed after the hub signed the archive").format(name=name)
            )
    missing = sorted(set(listed) - set(files))
    if missing:
        raise BundleError(
            _("{name} was signed by the hub but is missing from the archive").format(
                name=missing[0]
            )
        )
