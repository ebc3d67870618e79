"""Times as a person in the hall reads them: the event's log keeps UTC (``2026-12-05T01:12:00
+00:00``, one clock for every machine), the desk, the printed sheets and the command line show
it in the hall's time, which is the time zone of the machine that runs the hub (``TZ`` or the
system's setting), named by its offset (``09:12 UTC+8``) so nobody has to guess which."""

from __future__ import annotations

from datetime import datetime


def zone(when: datetime) -> str:
    """``UTC+8``, ``UTC+5:30``, ``UTC`` for a local time."""
    offset = when.utcoffset()
    minutes = 0 if offset is None else int(offset.total_seconds()) // 60
    if not minutes:
        return "UTC"
    sign = "+" if minutes > 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


def hall_time(at: str, date: bool = True) -> str:
    """A logged UTC time in the hall's: ``2026-12-05 09:12 UTC+8`` (``date`` False: ``09:12
    UTC+8``). A text that is not a time is given back as it is."""
    try:
        when = datetime.fromisoformat(at).astimezone()
    except ValueError:
        return at
    return when.strftime("%Y-%m-%d %H:%M" if date else "%H:%M") + " " + zone(when)


def hall_zone() -> str:
    """The hall's zone now, for a column's heading: ``UTC+8``."""
    return zone(datetime.now().astimezone())
