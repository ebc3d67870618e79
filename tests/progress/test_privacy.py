"""The teacher's acts on the progress, over HTTP: only with the PIN; one child's data exported
as one JSON file and deleted (asked to confirm), the others untouched; the class list edited
(add, rename, remove), the board's players following it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from controller.progress.service import Progress
from controller.progress.store import open_store, store_path
from controller.sim.access import Access, hash_pin
from controller.sim.server import create_app
from tests.sim.conftest import ManualClock

PIN = "2468"


@pytest.fixture
def state(term: Path, tmp_path: Path) -> Path:
    """A copy of the term for one test (each may delete)."""
    import shutil

    copy = tmp_path / "state"
    shutil.copytree(term, copy)
    return copy


@pytest.fixture
def client(state: Path):
    app = create_app(clock=ManualClock(), state_dir=state, access=Access(hash_pin(PIN)))
    with TestClient(app) as c:
        yield c


def unlock(client: TestClient) -> None:
    assert client.post("/api/unlock", json={"pin": PIN}).status_code == 200


@pytest.mark.slow
def test_every_progress_route_needs_the_pin(client: TestClient) -> None:
    for url in ("/api/progress", "/api/progress/child?name=Ana%20Cruz",
                "/api/progress/export?name=Ana%20Cruz"):  # fmt: skip
        answer = client.get(url)
        assert answer.status_code == 403 and answer.json()["need"] == "arbiter", url
    answer = client.post("/api/progress/delete", json={"name": "Ana Cruz", "confirm": "Ana Cruz"})
    assert answer.status_code == 403
    assert client.post("/api/roster", json={"action": "add", "name": "Eve"}).status_code == 403
    assert client.get("/class/progress").status_code == 200  # the page itself asks for the PIN


def test_the_class_figures(client: TestClient) -> None:
    unlock(client)
    data = client.get("/api/progress").json()
    kids = {c["name"]: c for c in data["children"]}
    assert list(kids) == ["Ana Cruz", "Ben Reyes", "Cara Lim"]
    assert all(c["games"] == 2 for c in kids.values())
    assert sum(c["wins"] + c["draws"] / 2 for c in kids.values()) == 3
    for c in kids.values():
        takings = sum(op["takings"] for op in c["operations"].values())
        assert takings > 0 and c["lost_per_game"] is not None


def test_one_childs_data_exported_as_one_json_file(client: TestClient) -> None:
    unlock(client)
    answer = client.get("/api/progress/export?name=Ben%20Reyes")
    assert answer.status_code == 200
    assert 'filename="progress-Ben-Reyes.json"' in answer.headers["content-disposition"]
    data = json.loads(answer.text)
    assert data["child"] == "Ben Reyes" and len(data["games"]) == 2
    assert {g["child"] for g in data["games"]} == {"Ben Reyes"}
    assert data["figures"]["games"] == 2 and data["puzzles"]["solved"] == 0
    assert all(
        "/" in g["points_lost"] or g["points_lost"].lstrip("-").isdigit() for g in data["games"]
    )
    assert "Ana Cruz" not in json.dumps(data)  # no other child's name in it
    missing = client.get("/api/progress/export?name=Nobody")
    assert missing.status_code == 404 and "Nobody" in missing.json()["error"]


def test_deleting_one_child_asks_and_leaves_the_others(client: TestClient, state: Path) -> None:
    unlock(client)
    before = client.get("/api/progress").json()["children"]
    refused = client.post("/api/progress/delete", json={"name": "Ben Reyes"})
    assert refused.status_code == 400 and "confirmed" in refused.json()["error"]
    done = client.post("/api/progress/delete", json={"name": "Ben Reyes", "confirm": "Ben Reyes"})
    assert done.json() == {"deleted": "Ben Reyes", "games": 2, "puzzles": 0, "roster": 1}
    store = open_store(store_path(state))
    assert store.plays("Ben Reyes") == []
    assert "Ben Reyes" not in (state / "players.txt").read_text()
    after = client.get("/api/progress").json()["children"]
    assert [c["name"] for c in after] == ["Ana Cruz", "Cara Lim"]
    untouched = {c["name"]: c for c in before if c["name"] != "Ben Reyes"}
    for c in after:
        assert c == {**untouched[c["name"]], "trend": c["trend"]}
    # the games stay known by their files: indexing again never brings Ben's figures back
    progress = Progress(state, depth=2)
    assert progress.index_now().read == 0
    progress.stop()
    assert store.plays("Ben Reyes") == []
    store.close()


def test_the_class_list_edited_by_the_teacher(client: TestClient, state: Path) -> None:
    unlock(client)
    added = client.post("/api/roster", json={"action": "add", "name": "  Dan   Uy "})
    assert added.json()["roster"] == ["Ana Cruz", "Ben Reyes", "Cara Lim", "Dan Uy"]
    again = client.post("/api/roster", json={"action": "add", "name": "Dan Uy"})
    assert again.status_code == 400 and "already" in again.json()["error"]
    bad = client.post("/api/roster", json={"action": "add", "name": "Dan {x}"})
    assert bad.status_code == 400
    renamed = client.post("/api/roster", json={"action": "rename", "name": "Cara Lim",
                                               "new": "Cara Lim-Santos"})  # fmt: skip
    assert renamed.json()["roster"] == ["Ana Cruz", "Ben Reyes", "Cara Lim-Santos", "Dan Uy"]
    cara = client.get("/api/progress/child?name=Cara%20Lim-Santos").json()
    assert cara["games"] == 2  # her figures follow her new name
    removed = client.post("/api/roster", json={"action": "remove", "name": "Dan Uy"})
    assert removed.json()["roster"] == ["Ana Cruz", "Ben Reyes", "Cara Lim-Santos"]
    text = (state / "players.txt").read_text()
    assert text.startswith("# Grade 8 - Rizal\n")  # the teacher's comment stays
    # the boards offer the list as it now is
    assert client.get("/api/class").json()["roster"] == ["Ana Cruz", "Ben Reyes", "Cara Lim-Santos"]


@contextmanager
def _teacher(state: Path) -> Iterator[TestClient]:
    """The teacher's browser, unlocked, on a simulator over ``state`` as it is now."""
    app = create_app(clock=ManualClock(), state_dir=state, access=Access(hash_pin(PIN)))
    with TestClient(app) as client:
        unlock(client)
        yield client


def _delete_ben(client: TestClient) -> Any:
    return client.post("/api/progress/delete", json={"name": "Ben Reyes", "confirm": "Ben Reyes"})


def _players(state: Path) -> str:
    return (state / "players.txt").read_text()


@pytest.mark.parametrize("damage", ["garbage", "folder"])
def test_a_damaged_puzzle_store_changes_nothing(state: Path, damage: str) -> None:
    """Issue 39, item 4: with puzzles.sqlite unreadable (or a folder in its place), deleting a
    child or renaming one answers what could not be done and changes nothing: the figures, the
    name on the list and the other store as they were (it deleted the figures and kept the
    name, then answered 500)."""
    from controller.puzzles.progress import puzzle_db_path

    db = puzzle_db_path(state)
    if damage == "folder":
        db.mkdir()
    else:
        db.write_bytes(b"this is not a database " * 200)
    names = _players(state)
    with _teacher(state) as client:
        answer = _delete_ben(client)
        assert answer.status_code == 503
        assert (
            "Nothing was deleted" in answer.json()["error"] and "puzzle" in answer.json()["error"]
        )
        renamed = client.post("/api/roster", json={"action": "rename", "name": "Cara Lim",
                                                   "new": "Cara Lim-Santos"})  # fmt: skip
        assert renamed.status_code == 503 and "Nothing was renamed" in renamed.json()["error"]
        export = client.get("/api/progress/export?name=Ben%20Reyes")
        assert export.status_code == 503 and "The export was not made" in export.text
    assert _players(state) == names
    store = open_store(store_path(state))
    assert len(store.plays("Ben Reyes")) == 2 and len(store.plays("Cara Lim")) == 2
    assert store.plays("Cara Lim-Santos") == []
    store.close()


def test_a_damaged_progress_store_is_said_not_reported_deleted(state: Path) -> None:
    """Issue 39, item 4: with progress.sqlite unreadable, delete answered 200 "deleted" and the
    export 200 with an empty file while the figures stayed in the store: both say now that
    nothing was done, and the name stays on the list."""
    store_path(state).write_bytes(b"this is not a database " * 200)
    names = _players(state)
    with _teacher(state) as client:
        answer = _delete_ben(client)
        assert answer.status_code == 503 and "Nothing was deleted" in answer.json()["error"]
        assert "progress.sqlite" in answer.json()["error"]
        export = client.get("/api/progress/export?name=Ben%20Reyes")
        assert export.status_code == 503 and "progress.sqlite" in export.text
    assert _players(state) == names


def test_a_list_that_cannot_be_written_undoes_the_stores(state: Path, monkeypatch) -> None:
    """The class list is written last, inside both stores' transactions: when it cannot be
    written, neither store keeps the deletion (the real stores, a refused rename of the file)."""
    from controller.progress import roster

    def refused(*_args: object) -> None:
        raise PermissionError(13, "Permission denied", str(state / "players.txt"))

    monkeypatch.setattr(roster.os, "replace", refused)
    progress = Progress(state, depth=2)
    from controller.progress.service import PrivacyError

    with pytest.raises(PrivacyError, match="Nothing was deleted"):
        progress.delete("Ben Reyes")
    progress.stop()
    store = open_store(store_path(state))
    assert len(store.plays("Ben Reyes")) == 2
    store.close()
    assert "Ben Reyes" in _players(state)
