"""Keeping the catalogues: extract every marked word, update the Filipino catalogue, compile it,
and list what is not translated. A developer's tool (it needs Babel, the ``test`` extra); the
board reads only the compiled .mo (docs/translation.md).

    python -m controller.i18n.tools update    # new words into the .po (empty), gone ones out
    python -m controller.i18n.tools compile   # the .po into the committed .mo
    python -m controller.i18n.tools check     # what is missing, with file:line; exit 1 if any
"""

from __future__ import annotations

import io
import re
import struct
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

from . import DOMAIN, FILIPINO, LOCALE_DIR

ROOT = Path(__file__).resolve().parents[2]
MAPPING = ROOT / "babel.cfg"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "Nn_": (1, 2)}
"""The markers (controller/i18n/__init__.py; ``N_`` in the pages' scripts too)."""
LANGUAGES = (FILIPINO,)
_FIELD = re.compile(r"\{(\w*)[^{}]*\}")


def po_path(language: str = FILIPINO) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(language: str = FILIPINO) -> Path:
    return po_path(language).with_suffix(".mo")


def extract() -> Catalog:
    """Every marked word of the project, with the file:line of each use."""
    with MAPPING.open(encoding="utf-8") as handle:
        # babel leaves this one function unannotated
        method_map, options_map = parse_mapping_cfg(handle)  # type: ignore[no-untyped-call]
    template = Catalog(project="damath-board", domain=DOMAIN)
    for filename, line, message, comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS, strip_comment_tags=True
    ):
        template.add(message, None, [(filename, line)], auto_comments=comments, context=context)
    return template


def read(language: str = FILIPINO) -> Catalog:
    with po_path(language).open("rb") as handle:
        return read_po(handle, locale=language, domain=DOMAIN)


def write(catalog: Catalog, language: str = FILIPINO) -> None:
    buffer = io.BytesIO()
    # no line numbers: every edit elsewhere would otherwise change the catalogue
    write_po(buffer, catalog, width=100, include_lineno=False, sort_output=False)
    po_path(language).write_bytes(buffer.getvalue())


def compiled(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue()


def update(language: str = FILIPINO) -> int:
    """Brings the catalogue in line with the code: new words empty, words no longer used out."""
    template = extract()
    path = po_path(language)
    if path.exists():
        catalog = read(language)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        catalog = Catalog(locale=language, domain=DOMAIN, project="damath-board")
    catalog.update(template, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    catalog.fuzzy = False  # the header: a fuzzy header would keep gettext from the plural rule
    write(catalog, language)
    return len([m for m in catalog if m.id and not _translated(m)])


def compile_catalogue(language: str = FILIPINO) -> None:
    mo_path(language).write_bytes(compiled(read(language)))


def _texts(value: str | Sequence[str] | None) -> tuple[str, ...]:
    """A message's id or translation as its forms (one, or singular and plurals)."""
    if value is None:
        return ("",)
    return (value,) if isinstance(value, str) else tuple(value)


def _translated(message: Message) -> bool:
    return all(_texts(message.string))


def fields(text: str) -> set[str]:
    return {m.group(1) for m in _FIELD.finditer(text)}


@dataclass(frozen=True)
class Problem:
    where: str
    message: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}: {self.message!r}"


def problems(
    language: str = FILIPINO, template: Catalog | None = None, catalog: Catalog | None = None
) -> list[Problem]:
    """Every word of the code that the catalogue lacks, leaves empty or marks fuzzy, whose
    translation loses or invents a placeholder; and a stale compiled file. ``template`` and
    ``catalog`` default to the code's words and the committed catalogue."""
    template = extract() if template is None else template
    catalog = read(language) if catalog is None else catalog
    found: list[Problem] = []
    for message in template:
        if not message.id:
            continue
        where = ", ".join(f"{file}:{line}" for file, line in message.locations)
        entry = catalog.get(message.id, context=message.context)
        if entry is None:
            found.append(Problem(where, _id(message.id), "not in the catalogue"))
        elif entry.fuzzy:
            found.append(Problem(where, _id(message.id), "fuzzy"))
        elif not _translated(entry):
            found.append(Problem(where, _id(message.id), "no translation"))
        else:
            want = set().union(*(fields(i) for i in _texts(message.id)))
            for string in _texts(entry.string):
                if fields(string) != want:
                    found.append(
                        Problem(where, _id(message.id), f"placeholders differ: {string!r}")
                    )
    if not _mo_matches(mo_path(language), read(language)):
        found.append(Problem(str(mo_path(language).relative_to(ROOT)), "", "stale: run compile"))
    return found


_Said = tuple[str, dict[tuple[str | tuple[str, ...], str | None], str | tuple[str, ...]]]


def _said(catalog: Catalog) -> _Said:
    """What a catalogue says: its plural rule and every translated message, and nothing of the
    tool that wrote it (a new Babel stamps another ``Generated-By`` into the same messages)."""
    said = {
        (m.id if isinstance(m.id, str) else tuple(m.id), m.context): (
            m.string if isinstance(m.string, str) else tuple(m.string)
        )
        for m in catalog
        if m.id and not m.fuzzy and m.string  # what write_mo keeps
    }
    return catalog.plural_forms, said


def _mo_matches(mo: Path, catalog: Catalog) -> bool:
    """Whether the compiled file says what the catalogue says."""
    if not mo.exists():
        return False
    try:
        with mo.open("rb") as handle:
            compiled_catalog = read_mo(handle)
    except (OSError, ValueError, struct.error):
        return False
    return _said(compiled_catalog) == _said(catalog)


def _id(msgid: str | Sequence[str]) -> str:
    return _texts(msgid)[0]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    command = args[0] if args else "check"
    if command == "update":
        for language in LANGUAGES:
            print(f"{po_path(language)}: {update(language)} words to translate")
        return 0
    if command == "compile":
        for language in LANGUAGES:
            compile_catalogue(language)
        return 0
    if command == "check":
        listed = [p for language in LANGUAGES for p in problems(language)]
        for problem in listed:
            print(problem)
        return 1 if listed else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
