"""Choosing the language: ``--lang`` anywhere on the line, ``DAMATH_LANG``, a board profile's
``[board] language``, then the locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG); English otherwise.
The commands, the board's messages and its scoresheet then speak it."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller import i18n
from controller.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXE = str(ROOT / ".venv" / "bin" / "damath-board")
LOCALE = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", i18n.ENV)


@pytest.fixture(autouse=True)
def english_after(monkeypatch) -> Iterator[None]:
    for name in LOCALE:
        monkeypatch.delenv(name, raising=False)
    yield
    i18n.set_language("en")


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "tl_PH.UTF-8"}, "fil"),
        ({"LANG": "fil_PH"}, "fil"),
        ({"LANGUAGE": "fr:tl:en", "LANG": "en_US.UTF-8"}, "fil"),
        ({"LC_ALL": "C.UTF-8", "LANG": "tl_PH.UTF-8"}, "en"),  # the first one set decides
        ({"DAMATH_LANG": "en", "LANG": "tl_PH.UTF-8"}, "en"),
        ({"DAMATH_LANG": "Filipino"[:3]}, "fil"),
    ],
)
def test_the_environment_chooses(environ: dict[str, str], expected: str) -> None:
    assert i18n.from_environment(environ) == expected


def test_a_wrong_language_is_named_with_the_choices() -> None:
    with pytest.raises(ValueError, match=r"Unknown language 'xx'; languages are: en, fil\."):
        i18n.from_environment({"DAMATH_LANG": "xx"})


def test_a_context_speaks_its_own_language_and_gives_it_back() -> None:
    i18n.set_language("en")
    with i18n.use("fil"):
        assert i18n._("Blue") == "Asul"
        with i18n.board():
            assert i18n._("Blue") == "Blue"
    assert i18n._("Blue") == "Blue"


def test_demo_in_filipino_with_lang_anywhere_on_the_line(capsys) -> None:
    assert main(["demo", "--lang", "fil"]) == 0
    out = capsys.readouterr().out
    assert "56 galaw ang nilaro sa simulated na board" in out
    assert "Tapos na ang laro: Wala nang chip ang ASUL." in out
    assert "Manlalarong ASUL: Maria Santos" in out
    assert "Panalo ang PULA: 1 puntos, ASUL 0." in out
    assert " sa (6, 5)" in out and "−1 ÷ (−9) = 0.11… ≈ 0" in out  # the arithmetic untouched


def test_damath_lang_and_the_locale(monkeypatch, capsys) -> None:
    monkeypatch.setenv("DAMATH_LANG", "fil")
    assert main(["demo", "--format", "html"]) == 0
    html = capsys.readouterr().out
    assert '<html lang="fil">' in html and "Mga lagda" in html
    monkeypatch.delenv("DAMATH_LANG")
    monkeypatch.setenv("LANG", "tl_PH.UTF-8")
    assert main(["--lang=en", "demo"]) == 0  # the explicit choice wins over the locale
    assert "Game over: BLUE has no chip left." in capsys.readouterr().out


def test_an_unknown_language_is_one_clear_line(capsys) -> None:
    assert main(["--lang", "xx", "demo"]) == 2
    err = capsys.readouterr().err
    assert err == "damath-board: error: Unknown language 'xx'; languages are: en, fil.\n"
    assert main(["demo", "--lang"]) == 2
    assert "--lang needs a language" in capsys.readouterr().err


def test_help_in_filipino(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", "fil", "sim", "--help"])
    out = capsys.readouterr().out
    assert "ipakita ang virtual na board sa browser" in out
    assert "sa memorya lang itabi ang mga laro" in out


@pytest.mark.slow
def test_a_board_profile_chooses_the_language_of_run(tmp_path: Path) -> None:
    profile = tmp_path / "filipino.toml"
    text = (ROOT / "hardware" / "sim.toml").read_text(encoding="utf-8")
    profile.write_text(text.replace('name = "sim"', 'name = "sim"\nlanguage = "fil"'))
    env = {k: v for k, v in os.environ.items() if k not in LOCALE}
    base = [EXE, "run", "--profile", str(profile), "--state-dir", str(tmp_path / "state"),
            "--exit-after", "0.2"]  # fmt: skip
    result = subprocess.run(base, capture_output=True, text=True, timeout=60, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == (
        "damath-board run: Handa na ang board (sim): Integer Damath, patakarang official. "
        "Ayusin ang mga chip: isa-isang sasabihin ng display kung alin."
    )
    english = subprocess.run([*base, "--lang", "en"], capture_output=True, text=True, timeout=60,
                             env=env)  # fmt: skip
    assert english.stdout.startswith("damath-board run: Board ready (sim)"), english.stderr
    profile.write_text(text.replace('name = "sim"', 'name = "sim"\nlanguage = "klingon"'))
    wrong = subprocess.run(base, capture_output=True, text=True, timeout=60, env=env)
    assert wrong.returncode == 2
    assert "Unknown language 'klingon'" in wrong.stderr


def test_the_demos_trace_and_hub_errors_in_filipino(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "wala.jsonl"
    assert main(["--lang", "fil", "demo", "--trace", str(missing)]) == 2
    assert f"--trace {missing}: walang ganitong file" in capsys.readouterr().err
    assert main(["--lang", "fil", "demo", "--hub", str(tmp_path / "b.toml")]) == 2
    assert "--hub: nagpapadala ito ng nilarong trace" in capsys.readouterr().err
