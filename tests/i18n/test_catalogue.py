"""No word is left untranslated: every word the code, the pages' scripts and the HTML show is
extracted (Babel, babel.cfg) and compared with the Filipino catalogue. A missing, empty or fuzzy
translation, a placeholder lost or invented, or a compiled .mo older than its .po fails here,
naming the file and line of each word (docs/translation.md says how to fix it)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from controller import i18n
from controller.i18n import tools
from controller.i18n.html import page_words
from controller.session import coach_texts, menu
from controller.session import texts as session_texts
from controller.tracker import reasons
from controller.view import texts as view_texts


@pytest.mark.slow
def test_every_word_has_a_filipino_translation() -> None:
    problems = tools.problems()
    assert not problems, (
        "untranslated (python -m controller.i18n.tools update, translate, "
        "compile):\n" + "\n".join(map(str, problems))
    )


def test_the_check_names_each_missing_word_by_file_and_line() -> None:
    template = Catalog(domain=i18n.DOMAIN)
    template.add("Blue", locations=[("controller/i18n/__init__.py", 1)])
    template.add("A brand new sentence", locations=[("controller/new.py", 12)])
    template.add("Half done {x}", locations=[("controller/new.py", 13)])
    template.add("Lost {name}", locations=[("controller/sim/static/sim.js", 40)])
    template.add(("{n} chip", "{n} chips"), locations=[("controller/new.py", 14)])
    catalog = Catalog(locale="fil", domain=i18n.DOMAIN)
    catalog.add("Blue", "Asul")
    catalog.add("Half done {x}", "Kalahati {x}", flags=["fuzzy"])
    catalog.add("Lost {name}", "Nawala {pangalan}")
    catalog.add(("{n} chip", "{n} chips"), ("{n} chip", ""))
    found = [str(p) for p in tools.problems(template=template, catalog=catalog)]
    assert found == [
        "controller/new.py:12: not in the catalogue: 'A brand new sentence'",
        "controller/new.py:13: fuzzy: 'Half done {x}'",
        "controller/sim/static/sim.js:40: placeholders differ: 'Nawala {pangalan}': 'Lost {name}'",
        "controller/new.py:14: no translation: '{n} chip'",
    ]


@pytest.mark.slow
def test_the_pages_scripts_and_html_are_extracted() -> None:
    words = {m.id if isinstance(m.id, str) else m.id[0]: m.locations for m in tools.extract()}
    html = (
        (Path(__file__).parents[2] / "controller/sim/static/board.html")
        .read_text(encoding="utf-8")
        .splitlines()
    )
    line = next(n for n, text in enumerate(html, 1) if "<h2>Arbiter's buttons</h2>" in text)
    assert ("controller/sim/static/board.html", line) in words["Arbiter's buttons"]
    assert any(f == "controller/sim/static/sim.js" for f, _ in words["{who} to move"])
    assert any(f == "controller/sim/static/class.js" for f, _ in words["Projector view"])
    hub = {f for loc in words.values() for f, _ in loc if f.startswith("controller/hub/")}
    printed = {"controller/hub/sheets.py", "controller/hub/game_sheet.py"}  # the printed sheets
    assert hub == printed | {"controller/hub/web/event_wall.py"}  # and the spectators' wall


def test_page_words_are_the_texts_and_the_titles_a_person_reads() -> None:
    html = """<p class="x" title="Stand every chip">Click a chip
      to lift it <b>now</b></p><span>--:--</span><script>var a = "no";</script>
      <input placeholder="Board name" aria-label="The board">"""
    assert [w for _, w in page_words(html)] == [
        "Stand every chip",
        "Click a chip to lift it",
        "now",
        "Board name",
        "The board",
    ]


def _display_forms() -> list[str]:
    """Every word the board's small display shows (its font is ASCII only)."""
    texts = [*vars(session_texts).values(), *vars(coach_texts).values()]
    forms = [t.display for t in texts if isinstance(t, session_texts.Text)]
    forms += [display for _, display in reasons.TEXTS.values()]
    forms += [v for k, v in vars(view_texts).items() if k.isupper() and isinstance(v, str)]
    forms += list(session_texts.ENDINGS.values())
    forms += [session_texts.MENU_SETTINGS, session_texts.MENU_BLUE, session_texts.MENU_NO_NAME]
    return [f for f in forms if f]


def test_the_display_words_in_filipino_are_ascii() -> None:
    with i18n.use("fil"):
        wrong = {f: i18n._(f) for f in _display_forms() if not i18n._(f).isascii()}
        menus = (menu.adjudication_menu(), menu.abandon_menu())
        titles = [m.title for m in menus]
        options = [o.label for m in menus for o in m.options]
    assert not wrong
    assert all(t.isascii() and len(t) <= 21 for t in titles), titles
    assert all(o.isascii() and len(o) <= 19 for o in options), options  # after "> "


def test_the_reasons_on_the_display_fit_three_lines_in_filipino() -> None:
    values = dict(
        mover="ASUL", xy="1,2", locked_xy="3,4", takers_xy="1,2 o 5,6", most=3, wrong_xy="3,4"
    )
    with i18n.use("fil"):
        for rule in reasons.TEXTS:
            text = reasons.reason(rule, **{**values, **_page_values()}).display
            assert text.isascii(), rule
            assert len(textwrap.wrap(text, 21)) <= 3, (rule, textwrap.wrap(text, 21))


def test_the_computers_move_and_hints_fit_the_display_in_filipino() -> None:
    from controller.view.display_text import wrap

    values = dict(
        level=4,
        move="2,5x4,3x6,1",
        chip="-11",
        square="(2, 5)",
        start="(2, 5)",
        end="(6, 1)",
        takings="",
        score="-12",
        arithmetic="-11 / 6 = -11/6 ~ -2",
    )  # fmt: skip  (the values as the display's font writes them: wrap() makes them ASCII)
    with i18n.use("fil"):
        for name, text in vars(coach_texts).items():
            if isinstance(text, session_texts.Text):
                display = text.format(**values).display
                assert display.isascii(), name
                lines = wrap(display, 21)
                assert len(lines) <= 3 and not any(x.endswith("~") for x in lines), (name, lines)


def _page_values() -> dict[str, object]:
    return dict(
        square="(1, 2)", mover_lower="asul", other_lower="pula", other="PULA", locked="(3, 4)",
        takers="(1, 2)", wrong="(3, 4)", right="(5, 6)",
    )  # fmt: skip


def test_a_text_is_said_in_the_language_in_force() -> None:
    with i18n.use("fil"):
        said = session_texts.WINNER.format(SIDE=i18n.side_word(0).upper())
    assert (said.page, said.display) == ("Panalo ang ASUL", "Panalo ang ASUL")
    assert session_texts.WINNER.format(SIDE="BLUE").page == "BLUE wins"


def test_the_compiled_file_is_checked_by_what_it_says_not_by_the_tool_that_wrote_it(
    tmp_path: Path,
) -> None:
    catalog = tools.read()
    same = tmp_path / "same.mo"
    same.write_bytes(
        tools.compiled(catalog).replace(b"Generated-By: Babel", b"Generated-By: Other")
    )
    assert tools._mo_matches(same, catalog)
    message = next(m for m in catalog if m.id and isinstance(m.string, str) and m.string)
    message.string = message.string + " (old)"
    changed = tmp_path / "changed.mo"
    changed.write_bytes(tools.compiled(catalog))
    assert not tools._mo_matches(changed, tools.read())
    garbled = tmp_path / "garbled.mo"
    garbled.write_bytes(b"\x00" * 7)
    assert not tools._mo_matches(garbled, tools.read())
    assert not tools._mo_matches(tmp_path / "missing.mo", tools.read())
