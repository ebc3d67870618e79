"""Issue 40, item 5: a class gets the puzzles of its own variant (the class's setting, ``sim
--set variant=…``, or the child's choice on the page), the page is told the variant, and every
difference in points is said in the variant's terms a child can read (docs/puzzles.md, "How the
points are said")."""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from controller.i18n import use
from controller.puzzles.model import Puzzle
from controller.puzzles.points import points_words
from controller.puzzles.solve import judge
from controller.rules.values import Sqrt2
from controller.sim.server import create_app
from tests.sim.conftest import ManualClock

READABLE = re.compile(
    r"^(about (\d{1,4}( thousand| million)?|0\.\d)|\d{1,3}(/\d{1,2})?|\d{1,2}(\.\d{1,2})?|\d{1,2}√2"
    r"|\d+)$"
)
"""What a child is told: a whole number, a short fraction, a short decimal, a small multiple of
√2, or about a whole number (in thousands or millions beyond four digits)."""


def client_for(folder: Path, **defaults: str) -> TestClient:
    return TestClient(create_app(clock=ManualClock(), state_dir=folder, defaults=defaults))


@pytest.fixture
def ana(mixed_dir: Path) -> Iterator[TestClient]:
    with client_for(mixed_dir) as c:
        assert c.post("/api/puzzles/join", json={"child": "Ana Cruz"}).status_code == 200
        yield c


def test_the_class_gets_its_own_variant_and_the_child_may_choose(
    ana: TestClient, mixed_dir: Path
) -> None:
    got = ana.get("/api/puzzles/next").json()
    assert got["variant"] == "integer" and got["board"]["variant"] == "integer"
    offered = {v["name"]: v["puzzles"] for v in got["variants"]}
    assert set(offered) == {"integer", "fraction", "radical", "polynomial"}
    assert all(n > 0 for n in offered.values())
    chosen = ana.get("/api/puzzles/next?variant=fraction").json()
    assert chosen["variant"] == "fraction" and chosen["board"]["variant"] == "fraction"
    assert ana.get("/api/puzzles/next?variant=chess").status_code == 400
    with client_for(mixed_dir, variant="polynomial") as c:  # sim --set variant=polynomial
        c.post("/api/puzzles/join", json={"child": "Ben Reyes"})
        assert c.get("/api/puzzles/next").json()["variant"] == "polynomial"


def test_a_variant_without_puzzles_is_said_in_one_line(class_dir: Path) -> None:
    with client_for(class_dir, variant="radical") as c:
        c.post("/api/puzzles/join", json={"child": "Ana Cruz"})
        got = c.get("/api/puzzles/next")
        assert got.status_code == 404
        assert "Radical" in got.json()["error"] and got.json()["variants"][0]["name"] == "integer"


@pytest.mark.parametrize(
    ("score", "variant", "said"),
    [
        (Fraction(430), "integer", "430"),
        (Fraction(7, 2), "fraction", "7/2"),
        (Fraction(261, 100), "fraction", "about 3"),
        (Sqrt2(Fraction(0), Fraction(12)), "radical", "12√2"),
        (Sqrt2(Fraction(8712), Fraction(601)), "radical", "about 9562"),
        (Sqrt2(Fraction(1042135, 98), Fraction(-23)), "radical", "about 11 thousand"),
        (Fraction("127.08"), "polynomial", "about 127"),
        (Fraction("12.57"), "polynomial", "12.57"),
        (Fraction("103773.98"), "polynomial", "about 104 thousand"),
        (Fraction("7508555.98"), "polynomial", "about 8 million"),
    ],
)
def test_a_difference_in_the_variants_terms(score, variant: str, said: str) -> None:
    assert points_words(score, variant) == said


def test_a_difference_in_filipino() -> None:
    with use("fil"):
        assert points_words(Fraction("103773.98"), "polynomial") == "mga 104 libong"


def test_every_wrong_answer_and_gain_is_readable(
    variant_puzzles: dict[str, list[Puzzle]], engine_puzzles: list[Puzzle]
) -> None:
    told = []
    for p in [*engine_puzzles, *(q for found in variant_puzzles.values() for q in found)]:
        game = p.game()
        for move in game.legal_moves():
            for line in judge(p, [], move.path).said:
                found = re.search(r"gives you (.+?) points (less|more)", line)
                if found:
                    told.append((p.variant, found.group(1)))
    assert {v for v, _ in told} >= {"integer", "fraction", "radical", "polynomial"}
    unreadable = [(v, words) for v, words in told if not READABLE.match(words)]
    assert not unreadable, unreadable
