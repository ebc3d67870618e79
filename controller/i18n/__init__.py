"""The board speaks English or Filipino: gettext catalogues, one language at a time per context.

Every sentence is written in English in the code and marked for extraction: ``N_("…")`` where
it is defined (a module constant, translated where it is used), ``_("…")`` where it is used at
once, ``Nn_("one …", "many …")`` and ``ngettext`` for a count. ``pybabel`` extracts them into
``locale/damath.pot`` and the Filipino catalogue ``locale/fil/LC_MESSAGES/damath.po`` carries the
translations; the compiled ``damath.mo`` beside it is committed, so a board needs neither Babel
nor the network (docs/translation.md).

The language is chosen per board (a profile's ``language``, ``run``/``sim --lang``) and set once
for the process (``set_language``); a request for one page's language (a download) runs inside
``use(lang)``, which holds for that context only (a ``ContextVar``, so concurrent pages do not see
each other's choice).
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

DOMAIN = "damath"
LOCALE_DIR = Path(__file__).with_name("locale")
ENGLISH = "en"
FILIPINO = "fil"
LANGUAGES: dict[str, str] = {ENGLISH: "English", FILIPINO: "Filipino"}
"""Each language the board speaks, by its code, named as its speakers name it."""
ALIASES = {"tl": FILIPINO, "tgl": FILIPINO, "fil": FILIPINO, "en": ENGLISH, "eng": ENGLISH}
"""Codes a locale setting may use for them (Tagalog's ``tl`` is how most systems name Filipino)."""
ENV = "DAMATH_LANG"

_default: str = ENGLISH
_current: ContextVar[str | None] = ContextVar("damath_language", default=None)


def normalise(code: str | None) -> str | None:
    """The language a code or locale name means (``fil``, ``tl_PH.UTF-8``, ``en-GB``), or None."""
    if not code:
        return None
    base = code.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return ALIASES.get(base)


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for: ``DAMATH_LANG`` first, then the locale variables
    in gettext's own order (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``); English when
    none names a language the board speaks."""
    env = os.environ if environ is None else environ
    if ENV in env and env[ENV].strip():
        chosen = normalise(env[ENV])
        if chosen is None:
            raise ValueError(unknown_language(env[ENV]))
        return chosen
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if not value:
            continue
        for part in value.split(":"):  # LANGUAGE is a list, in order of preference
            chosen = normalise(part)
            if chosen is not None:
                return chosen
        if name != "LANGUAGE":
            return ENGLISH  # the first locale variable set decides, as in gettext
    return ENGLISH


def unknown_language(code: str) -> str:
    return _("Unknown language {code!r}; languages are: {languages}.").format(
        code=code, languages=", ".join(LANGUAGES)
    )


def check(code: str) -> str:
    """The language code for ``code``, or ValueError with the languages there are."""
    chosen = normalise(code)
    if chosen is None:
        raise ValueError(unknown_language(code))
    return chosen


def set_language(code: str) -> None:
    """The process's language: the board's own (its display, its messages, its sheets)."""
    global _default
    _default = check(code)


def board_language() -> str:
    """The process's language: what the board itself speaks, whatever a page chose."""
    return _default


@contextmanager
def board() -> Iterator[str]:
    """Speak the board's own language inside the block (what every page is sent alike)."""
    with use(_default) as code:
        yield code


def language() -> str:
    """The language in force here: the context's, else the process's."""
    return _current.get() or _default


@contextmanager
def use(code: str | None) -> Iterator[str]:
    """Speak ``code`` inside the block (this context only); None keeps the language in force."""
    token = _current.set(check(code) if code else language())
    try:
        yield language()
    finally:
        _current.reset(token)


@cache
def translations(code: str) -> gettext.NullTranslations:
    if code == ENGLISH:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)


def _(message: str) -> str:
    """``message`` in the language in force (itself when it has no translation)."""
    return translations(language()).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    return translations(language()).ngettext(singular, plural, count)


def nplural(forms: tuple[str, str], count: int) -> str:
    """A pair marked with ``Nn_`` in the form for ``count``, translated."""
    return ngettext(forms[0], forms[1], count)


def N_(message: str) -> str:
    """Marks a sentence for the catalogue where it is defined; ``_()`` translates it where used."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a singular/plural pair for the catalogue; ``nplural()`` picks and translates it."""
    return (singular, plural)


def catalogue(code: str) -> dict[str, str]:
    """Every translated sentence of ``code`` as {English: translation}: what a page needs to
    translate its own words (the server sends it as JSON). Empty for English."""
    return dict(_catalogue(check(code)))


@cache
def _catalogue(chosen: str) -> dict[str, str]:
    if chosen == ENGLISH:
        return {}
    path = LOCALE_DIR / chosen / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if not path.is_file():
        return {}
    with path.open("rb") as handle:
        table = gettext.GNUTranslations(handle)
    result: dict[str, str] = {}
    catalog: dict[object, str] = vars(table)["_catalog"]  # the parsed .mo: kept only there
    for key, value in catalog.items():
        if isinstance(key, str) and key:  # plural pairs are keyed (id, n): the pages keep theirs
            result[key] = value
    return result


SIDE_WORDS: dict[str, str] = {"blue": N_("Blue"), "red": N_("Red")}
"""The sides as people name them (the rules' own names, ``blue``/``red``, stay in files)."""


def side_word(side: int | str) -> str:
    """``Blue``/``Red`` (0/1 or the rules' name) in the language in force, capitalised."""
    name = ("blue", "red")[side] if isinstance(side, int) else side.lower()
    return _(SIDE_WORDS[name]) if name in SIDE_WORDS else str(side)


RULES_WORDS: dict[str, str] = {"official": N_("official"), "online": N_("online")}
"""The rule profiles as people name them (``official``, ``online`` stay in files and options)."""


def rules_word(profile: str) -> str:
    """A rule profile's name in the language in force (``opisyal`` in Filipino)."""
    return _(RULES_WORDS[profile]) if profile in RULES_WORDS else profile
