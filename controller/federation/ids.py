"""Federation IDs: seven digits, the last a check digit (Luhn), so a digit typed wrong or two
digits swapped on an entry form is caught before it names the wrong child."""

from __future__ import annotations

from controller.i18n import _

FIRST = 100_000
"""The first serial; an ID is the serial (six digits) and its check digit."""
LAST = 999_999


def check_digit(serial: str) -> int:
    """Luhn's check digit of the digits in ``serial``."""
    total = 0
    for i, ch in enumerate(reversed(serial)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return (10 - total % 10) % 10


def make_id(serial: int) -> str:
    """The federation ID of a serial number (100000 to 999999)."""
    if not FIRST <= serial <= LAST:
        raise ValueError(_("the registry is full: no federation ID left"))
    text = str(serial)
    return f"{text}{check_digit(text)}"


def check_id(raw: object) -> str:
    """The ID as written, or ValueError saying what is wrong with it."""
    text = str(raw).strip() if isinstance(raw, str | int) and not isinstance(raw, bool) else ""
    if len(text) != 7 or not text.isascii() or not text.isdigit() or text[0] == "0":
        raise ValueError(
            _("federation ID {id!r}: seven digits, as on the registry (e.g. 1000009)").format(
                id=str(raw)[:40]
            )
        )
    if check_digit(text[:6]) != int(text[6]):
        raise ValueError(
            _("federation ID {id}: its check digit is wrong (a digit mistyped?)").format(id=text)
        )
    return text


def serial_of(fed_id: str) -> int:
    return int(fed_id[:6])
