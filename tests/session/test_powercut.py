"""Power cuts placed at the journal's operations (tests/powercuts.py; the random soak of 200
kills is bench/soak_powercuts.py): every game still ends exactly as the uninterrupted one. Also
a journal torn in the middle of a record and one with a flipped byte, and cuts on a disk that
refuses writes."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from controller.record.journal_file import read
from controller.session import Session, SessionConfig
from tests.powercuts import cut_at_placed_points

from .helpers import game_trace, snapshot_at
from .powercut import cut_on_failing_disk, life_of, plan, play


def _finishing_trace(seed: int):
    trace = game_trace(seed, plies=400)
    return trace


@pytest.mark.slow
def test_power_cuts_at_placed_journal_operations_lose_no_confirmed_move(tmp_path):
    """The game cut before each of its first journal operations and at points spread over the
    rest, the disk left as a killed process, a power cut or a torn write leaves it: every game
    ends as the uninterrupted one and no confirmed move is ever missing after the cut."""
    clean, report = cut_at_placed_points(life_of(plan(_finishing_trace(11))), tmp_path)
    assert report.ops > 40 and len(report.cuts) >= 16
    assert {kind for _, kind in report.cuts} == {"kill", "power", "torn"}
    assert report.lost == []
    assert all(result == clean for result in report.results)


def test_a_record_torn_in_the_middle_resumes_before_it_and_finishes_the_same(tmp_path):
    p = plan(_finishing_trace(12))
    clean = tmp_path / "clean.json"
    play(p, tmp_path / "clean.jsonl", clean, sync=False)
    journal = tmp_path / "cut.jsonl"
    play(p, journal, tmp_path / "first.json", sync=False)
    data = journal.read_bytes()
    lines = data.split(b"\n")
    moves = [i for i, line in enumerate(lines) if b'"k":"move"' in line]
    keep = moves[len(moves) // 2]
    torn = b"\n".join(lines[:keep]) + b"\n" + lines[keep][: len(lines[keep]) // 2]
    journal.write_bytes(torn)
    s = Session.open(SessionConfig(), str(journal), 0.0, sync=False)
    assert "cut short" in s.problems[0]
    assert s.game.ply == keep - moves[0]  # the move records before the torn one
    s.journal.close()
    out = tmp_path / "after.json"
    play(p, journal, out, sync=False)
    assert out.read_text() == clean.read_text()


def test_a_flipped_bit_in_a_move_loses_nothing_the_moves_after_it_prove_it(tmp_path):
    """Record 10 of 40 damaged used to drop 33 moves whose checksums were intact: now every
    good record is kept, and the lost move is the only one that makes every later move fit."""
    p = plan(_finishing_trace(13))
    clean = tmp_path / "clean.json"
    play(p, tmp_path / "clean.jsonl", clean, sync=False)
    journal = tmp_path / "flip.jsonl"
    play(p, journal, tmp_path / "first.json", sync=False)
    data = bytearray(journal.read_bytes())
    records = read(journal).records
    moves = [i for i, r in enumerate(records) if r["k"] == "move"]
    target = moves[3]
    offset = sum(len(line) + 1 for line in bytes(data).split(b"\n")[:target])
    data[offset + 30] ^= 0x20
    journal.write_bytes(bytes(data))
    s = Session.open(SessionConfig(), str(journal), 0.0, sync=False)
    assert f"record {target + 1} is damaged or missing" in s.problems[0]
    assert any("it can only have been the move" in p for p in s.problems)
    assert s.game.ply == len(moves) and s.phase == "over"
    assert snapshot_at(s, 0.0)["message"] == s.problems[0]
    assert s.export_csv() == json.loads(clean.read_text())["csv"]  # the same game, whole
    assert (tmp_path / "flip.jsonl.damaged-1").read_bytes() == bytes(data)
    s.journal.close()
    again = Session.open(SessionConfig(), str(journal), 0.0, sync=False)
    assert again.problems == [] and again.game.ply == len(moves)  # rewritten whole and clean


@pytest.mark.slow
def test_power_cuts_on_a_disk_held_to_a_file_size_limit_lose_no_confirmed_move(tmp_path):
    """The board's process is held to a file-size limit at random moments (short writes, then
    EFBIG) and let go later, while it is killed 25 times (100 in bench/soak_powercuts.py): no
    life ever resumes fewer moves than were confirmed before it, and every game ends as the
    uninterrupted one."""
    p = plan(_finishing_trace(11))
    play(p, tmp_path / "clean.jsonl", tmp_path / "clean.json", sync=False)
    clean = json.loads((tmp_path / "clean.json").read_text())
    report, results = cut_on_failing_disk(
        p, tmp_path, tmp_path, kills=25, rng=random.Random(17), fsize=True, min_refusals=5
    )
    assert report.kills >= 25 and report.refusals_seen >= 5  # the disk really refused
    assert report.lost == []
    assert all(result == clean for result in results)
    print(f"{report.kills} kills, {report.refusals_seen} refused moves over {report.games} games")


@pytest.mark.slow
def test_power_cuts_on_a_really_full_file_system_lose_no_confirmed_move(tmp_path):
    """A 16 MiB tmpfs filled and freed at random moments by another 'program' while the board
    is killed 30 times (100 in bench/soak_powercuts.py). Runs in its own mount namespace (root
    in CI: ``unshare -m``; as a user: ``unshare -rm``, which needs unprivileged user
    namespaces)."""
    root = Path(__file__).resolve().parents[2]
    unshare = ["unshare", "-m"] if os.geteuid() == 0 else ["unshare", "-rm"]
    command = [
        *unshare,
        sys.executable,
        "-m",
        "tests.session.fullfs",
        str(tmp_path),
        "30",
        "3",
        "3",
    ]
    proc = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"cannot run on a tmpfs of its own: {proc.stderr[-2000:]}"
    report = json.loads(proc.stdout.splitlines()[-1])
    assert report["kills"] >= 30 and report["refusals"] >= 3
    assert report["lost"] == []
    assert report["same"] == report["outcomes"] == report["games"]
    print(report)
