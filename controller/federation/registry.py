"""The player registry: every player's federation ID, name, school, region and birth year.

A player is added by hand or from a CSV list (``name,school,region,birth_year``; the columns in
any order and case, comma or semicolon); every line is checked before anyone is added, so a bad
file adds nobody and names the lines to fix. The birth year places a player in an age group; it
is shown to nobody but the federation (the public pages show the age group only).
"""

from __future__ import annotations

import csv
import io
import unicodedata
from datetime import UTC, datetime
from typing import Any

from controller.i18n import _

from .store import FederationStore

COLUMNS = ("name", "school", "region", "birth_year")
LIMITS = {"name": 60, "school": 60, "region": 40}
MAX_ERRORS_SHOWN = 10


class RegistryError(ValueError):
    """A player the registry refuses; the message says why."""


def check_text(name: str, raw: object, required: bool = False) -> str:
    if not isinstance(raw, str):
        raise RegistryError(_("{field}: expected text").format(field=name))
    text = " ".join(raw.split())
    if required and not text:
        raise RegistryError(_("{field} is needed").format(field=name))
    if len(text) > LIMITS[name]:
        raise RegistryError(_("{field}: at most {n} characters").format(field=name, n=LIMITS[name]))
    if any(unicodedata.category(c).startswith("C") for c in text) or any(c in text for c in '<>"'):
        raise RegistryError(_("{field}: characters that cannot be written here").format(field=name))
    return text


def check_birth_year(raw: object) -> int | None:
    if raw is None or raw == "":
        return None
    try:
        year = int(str(raw).strip())
    except ValueError:
        raise RegistryError(
            _("birth year {year!r} is not a year").format(year=str(raw)[:20])
        ) from None
    this_year = datetime.now(UTC).year
    if not 1900 <= year <= this_year:
        raise RegistryError(
            _("birth year {year}: between 1900 and {now}").format(year=year, now=this_year)
        )
    return year


def check_player(fields: dict[str, Any], partial: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in ("name", "school", "region"):
        if name in fields or not partial:
            out[name] = check_text(name, fields.get(name, ""), required=name == "name")
    if "birth_year" in fields or not partial:
        out["birth_year"] = check_birth_year(fields.get("birth_year"))
    return out


def add(store: FederationStore, fields: dict[str, Any]) -> str:
    return store.add_players([check_player(fields)])[0]


def read_csv(text: str) -> list[dict[str, Any]]:
    """The players of a CSV list, all checked; RegistryError lists the lines to fix."""
    text = text.lstrip("\ufeff")
    if not text.strip():
        raise RegistryError(_("the player list is empty"))
    try:
        dialect = csv.Sniffer().sniff(text.splitlines()[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    rows = csv.reader(io.StringIO(text), dialect)
    header = [h.strip().casefold().replace(" ", "_") for h in next(rows)]
    if "name" not in header:
        raise RegistryError(_("line 1 must name the columns, with at least 'name'"))
    unknown = [h for h in header if h and h not in COLUMNS]
    if unknown:
        raise RegistryError(
            _("line 1: unknown column {column!r}; the columns are {columns}").format(
                column=unknown[0], columns=", ".join(COLUMNS)
            )
        )
    players, errors = [], []
    try:
        for number, row in enumerate(rows, start=2):
            if not any(cell.strip() for cell in row):
                continue
            cells = dict(zip(header, row, strict=False))
            try:
                players.append(check_player(cells))
            except RegistryError as exc:
                errors.append(_("line {n}: {error}").format(n=number, error=exc))
    except csv.Error as exc:
        errors.append(str(exc))
    if errors:
        shown = errors[:MAX_ERRORS_SHOWN]
        raise RegistryError(_("nobody was added; fix the file:") + "\n  " + "\n  ".join(shown))
    if not players:
        raise RegistryError(_("the player list has a header but no players"))
    return players


def public(player: dict[str, Any]) -> dict[str, Any]:
    """What anyone may read of a player: never the birth year."""
    return {k: player[k] for k in ("fed_id", "name", "school", "region")}
