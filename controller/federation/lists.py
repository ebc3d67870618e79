"""The rating list: every rated player of a pool as of its last period, ranked, with the
filters a federation publishes (region, school, age group), and its CSV and JSON forms.

Age groups follow the school year's habit of a whole calendar year: in the list's year a player
is in the youngest group ``U8``, ``U10`` … ``U20`` whose limit is above the age they reach that
year (a child born in 2014 is in U12 in 2025: they turn 11), and ``open`` beyond. A player with
no birth year in the registry is in no age group (and in every list without one).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from controller.i18n import _

from .ratings import ALL, POOLS, current

AGE_LIMITS = (8, 10, 12, 14, 16, 18, 20)
AGE_GROUPS = (*(f"U{n}" for n in AGE_LIMITS), "open")
COLUMNS = (
    "rank",
    "fed_id",
    "name",
    "school",
    "region",
    "age_group",
    "rating",
    "rd",
    "provisional",
    "games",
    "wins",
    "draws",
    "losses",
    "last_period",
)


def age_group(birth_year: int | None, year: int) -> str:
    if birth_year is None:
        return ""
    age = year - birth_year
    return next((f"U{n}" for n in AGE_LIMITS if age < n), "open")


@dataclass(frozen=True)
class Filters:
    pool: str = ALL
    region: str = ""
    school: str = ""
    age: str = ""
    provisional: bool = True
    """False: only established ratings (deviation at most 110)."""

    def check(self) -> Filters:
        if self.pool not in POOLS:
            raise ValueError(
                _("unknown pool {pool!r}: one of {pools}").format(
                    pool=self.pool, pools=", ".join(POOLS)
                )
            )
        if self.age and self.age not in AGE_GROUPS:
            raise ValueError(
                _("unknown age group {age!r}: one of {groups}").format(
                    age=self.age, groups=", ".join(AGE_GROUPS)
                )
            )
        return self


def rating_list(
    history: Sequence[Mapping[str, Any]],
    players: Mapping[str, Mapping[str, Any]],
    as_of: str,
    filters: Filters,
    months: int = 1,
) -> list[dict[str, Any]]:
    """The list: rows ranked by rating (ties share a rank), filtered."""
    now = current(history, as_of, months)
    year = int(as_of[:4])
    rows = []
    for fed_id, r in now.items():
        p = players.get(fed_id)
        if p is None:
            continue
        group = age_group(p.get("birth_year"), year)
        if filters.region and p["region"].casefold() != filters.region.casefold():
            continue
        if filters.school and p["school"].casefold() != filters.school.casefold():
            continue
        if filters.age and group != filters.age:
            continue
        if r["provisional"] and not filters.provisional:
            continue
        rows.append(
            {
                "fed_id": fed_id,
                "name": p["name"],
                "school": p["school"],
                "region": p["region"],
                "age_group": group,
                "rating": round(r["rating"]),
                "rd": round(r["rd"]),
                "provisional": r["provisional"],
                "games": r["games"],
                "wins": r["wins"],
                "draws": r["draws"],
                "losses": r["losses"],
                "last_period": r["period"],
                "_exact": r["rating"],
            }
        )
    rows.sort(key=lambda row: (-row["_exact"], row["name"], row["fed_id"]))
    rank, last = 0, None
    for n, row in enumerate(rows, start=1):
        if row["rating"] != last:
            rank, last = n, row["rating"]
        row["rank"] = rank
        del row["_exact"]
    return rows


def to_csv(rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([_cell(row[c]) if c != "provisional" else int(row[c]) for c in COLUMNS])
    return out.getvalue()


def _cell(value: object) -> str:
    """A CSV cell a spreadsheet will not read as a formula."""
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@") and not _number(text) else text


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
