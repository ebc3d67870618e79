"""The puzzle page's routes over HTTP: the class list, the next puzzle for a child of the list
only, an answer judged and kept; bad input is a one-line error, never a traceback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from controller.puzzles.progress import solver_summary
from controller.puzzles.store import puzzle
from controller.sim.server import create_app
from tests.sim.conftest import ManualClock


@pytest.fixture
def client(class_dir: Path) -> Iterator[TestClient]:
    app = create_app(clock=ManualClock(), state_dir=class_dir)
    with TestClient(app) as c:
        yield c


def join(client: TestClient, child: str) -> None:
    """This device answers for ``child`` (no PIN on this simulator: the teacher's own)."""
    answer = client.post("/api/puzzles/join", json={"child": child})
    assert answer.status_code == 200 and answer.json() == {"child": child}


def test_a_child_of_the_list_gets_a_puzzle_and_the_answer_is_kept(
    client: TestClient, class_dir: Path
) -> None:
    assert client.get("/api/puzzles/class").json() == {"children": ["Ana Cruz", "Ben Reyes"]}
    assert client.get("/puzzles").status_code == 200
    join(client, "Ben Reyes")
    got = client.get("/api/puzzles/next").json()
    assert got["rating"] == 1500 and got["board"]["legal"]
    db = class_dir / "puzzles.sqlite"
    found = puzzle(db, got["id"])
    assert found is not None
    p = found[0]
    played: list[list[list[int]]] = []
    for step in range(p.steps):  # the child's moves (around a forced reply, two)
        best = [list(sq) for sq in p.solution[2 * step]]
        answer = {"puzzle": p.id, "played": played, "move": best}
        said = client.post("/api/puzzles/answer", json=answer).json()
        played.append(best)
        assert said["result"] == ("right" if step + 1 == p.steps else "continue"), said
    assert said["rating_after"] > said["rating_before"] == 1500
    assert said["said"][0] == "Right! That is the best move."
    assert solver_summary(db, "Ben Reyes").solved == 1


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"puzzle": "nope", "move": [[1, 2], [2, 3]]}, "No such puzzle"),
        ({"puzzle": "x", "move": "e2e4"}, "could not be read"),
        ([1, 2], "could not be read"),
    ],
)
def test_bad_answers_get_one_line(client: TestClient, body: object, words: str) -> None:
    join(client, "Ana Cruz")
    response = client.post("/api/puzzles/answer", json=body)
    assert response.status_code in (400, 404)
    assert words in response.json()["error"]


def test_a_device_without_a_child_answers_for_nobody(client: TestClient) -> None:
    """Issue 39, item 9: any device answered as any child, named in the address or the body.
    A device answers only for the child its session holds; a name off the list is no child."""
    move = {"puzzle": "x", "move": [[1, 2], [2, 3]], "child": "Ana Cruz"}
    for answer in (client.get("/api/puzzles/next", params={"child": "Ana Cruz"}),
                   client.post("/api/puzzles/answer", json=move)):  # fmt: skip
        assert answer.status_code == 403 and answer.json()["need"] == "child"
        assert "Pick your name" in answer.json()["error"]
    refused = client.post("/api/puzzles/join", json={"child": "Nobody"})
    assert refused.status_code == 400 and "Pick your name" in refused.json()["error"]
    assert client.get("/api/puzzles/me").json() == {"child": None, "code": False}


def test_an_illegal_move_is_not_this_puzzle_s(client: TestClient) -> None:
    join(client, "Ana Cruz")
    got = client.get("/api/puzzles/next").json()
    body = {"puzzle": got["id"], "played": [], "move": [[0, 7], [7, 0]]}
    response = client.post("/api/puzzles/answer", json=body)
    assert response.status_code == 400
    assert "not a move of this puzzle" in response.json()["error"]


def test_a_huge_or_deep_answer_is_refused_unread(client: TestClient) -> None:
    big = client.post("/api/puzzles/answer", content=b'{"move": "' + b"1" * 100_000 + b'"}')
    assert big.status_code == 413
    deep = client.post("/api/puzzles/answer", content=("[" * 2_000).encode())
    assert deep.status_code == 400
    assert "could not be read" in deep.json()["error"]


def test_an_answers_time_is_bounded(client: TestClient) -> None:
    """Issue 39, item 11: an answer's ``seconds`` were stored unbounded (``inf``, 1e308): a
    time that is not a number, negative or longer than a day is not read, nothing stored."""
    join(client, "Ana Cruz")
    got = client.get("/api/puzzles/next").json()
    move = [[0, 7], [7, 0]]
    for seconds in ("Infinity", "1e308", "-5", "NaN", "86401"):
        raw = f'{{"puzzle": "{got["id"]}", "played": [], "move": {move}, "seconds": {seconds}}}'
        response = client.post("/api/puzzles/answer", content=raw.encode())
        assert response.status_code == 400, seconds
        assert "could not be read" in response.json()["error"]


@pytest.mark.parametrize("damage", ["empty", "folder"])
def test_a_puzzle_store_that_is_not_one_is_said(tmp_path: Path, damage: str) -> None:
    """Issue 39, item 11: a 0-byte puzzles.sqlite was silently made a new store, and a folder
    in its place read as "No puzzles yet"; both are said now, and nothing is made over them."""
    from controller.puzzles.store import StoreError, add_puzzles, puzzle_db_path, puzzles

    db = puzzle_db_path(tmp_path)
    if damage == "empty":
        db.touch()
    else:
        db.mkdir()
    (tmp_path / "players.txt").write_text("Ana Cruz\n")
    with pytest.raises(StoreError, match=r"empty file|not a file"):
        puzzles(db)
    with pytest.raises(StoreError, match=r"empty file|not a file"):
        add_puzzles(db, [])
    assert db.is_dir() if damage == "folder" else db.stat().st_size == 0  # nothing made over it
    app = create_app(clock=ManualClock(), state_dir=tmp_path)
    with TestClient(app) as client:
        client.post("/api/puzzles/join", json={"child": "Ana Cruz"})
        answer = client.get("/api/puzzles/next")
    assert answer.status_code == 500 and "No puzzles yet" not in answer.json()["error"]
    assert "puzzles.sqlite" in answer.json()["error"]


def test_with_a_pin_a_child_joins_with_the_class_code(class_dir: Path) -> None:
    """Issue 39, item 9, on a simulator with the teacher's PIN: a device picks its child once,
    with the class's code (the teacher's progress page shows it; a wrong one is said and
    guessing is slowed) or by the teacher unlocked on it; then it answers and sees the rating
    of that child only, whatever name the request carries."""
    from controller.sim.access import Access, hash_pin

    app = create_app(clock=ManualClock(), state_dir=class_dir, access=Access(hash_pin("2468")))
    with TestClient(app) as teacher, TestClient(app) as child:
        assert teacher.post("/api/unlock", json={"pin": "2468"}).status_code == 200
        code = teacher.get("/api/progress").json()["puzzle_code"]
        assert len(code) == 6 and code.isdigit()
        assert child.get("/api/puzzles/me").json() == {"child": None, "code": True}
        wrong = child.post("/api/puzzles/join", json={"child": "Ben Reyes", "code": "000000"})
        if code == "000000":
            wrong = child.post("/api/puzzles/join", json={"child": "Ben Reyes", "code": "1"})
        assert wrong.status_code == 403 and wrong.json()["need"] == "code"
        assert "class's code" in wrong.json()["error"]
        assert child.get("/api/puzzles/next").status_code == 403  # no session from a wrong code
        assert child.post("/api/puzzles/join", json={"child": "Ben Reyes", "code": code}).json()
        got = child.get("/api/puzzles/next", params={"child": "Ana Cruz"}).json()
        assert got["rating"] == 1500
        assert child.get("/api/puzzles/me").json()["child"] == "Ben Reyes"
        p = puzzle(class_dir / "puzzles.sqlite", got["id"])
        assert p is not None
        wrong_move = next(
            [list(sq) for sq in m.path]
            for m in p[0].game().legal_moves()
            if m.path != p[0].solution[0]
        )
        body = {"child": "Ana Cruz", "puzzle": got["id"], "played": [], "move": wrong_move}
        assert child.post("/api/puzzles/answer", json=body).status_code == 200
        db = class_dir / "puzzles.sqlite"
        assert solver_summary(db, "Ana Cruz").tried == 0  # the body's name is not the child
        assert solver_summary(db, "Ben Reyes").tried == 1
        # the teacher picks a child on her own device without the code
        assert teacher.post("/api/puzzles/join", json={"child": "Ana Cruz"}).status_code == 200
        assert teacher.get("/api/puzzles/me").json()["child"] == "Ana Cruz"
        for n in range(5):  # a sixth wrong code from one address waits
            child.post("/api/puzzles/join", json={"child": "Ana Cruz", "code": f"x{n}"})
        held = child.post("/api/puzzles/join", json={"child": "Ana Cruz", "code": code})
        assert held.status_code == 403 and "wait" in held.json()["error"]
