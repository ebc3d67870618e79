"""Power-cut soaks: the board SIGKILLed at hundreds of random moments, in every game, while a
tournament game is confirmed and signed, and on a disk that fills up. Every game must end
exactly as the uninterrupted one, and no life may resume fewer moves than were confirmed.

The suite keeps the cuts placed where the bugs live (tests/powercuts.py: every journal
operation reachable by number, and the disk left as a power cut or a torn write leaves it);
this script is the long random search around them, run before a release and after a change to
the journal, the session's resume or a game's records.

Run from the repository root: ``.venv/bin/python bench/soak_powercuts.py [--only NAME ...]
[--scale X]`` (X multiplies every soak's kills; 1 gives the counts below). Prints one line a
soak with its kills, games and time; exits 1 if any game differed or anything was lost.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from controller.games import GAMES  # noqa: E402
from controller.games.dadama.session import DadamaConfig, DadamaSession  # noqa: E402
from controller.games.dam.kind import RULES as DAM_RULES  # noqa: E402
from controller.games.draughts.session import DraughtsConfig, DraughtsSession  # noqa: E402
from tests.games.test_power_cuts import life as game_life  # noqa: E402
from tests.games.test_power_cuts import untimed  # noqa: E402
from tests.session.dadama_play import act as dadama_act  # noqa: E402
from tests.session.helpers import game_trace  # noqa: E402
from tests.session.powercut import cut_on_failing_disk, cut_until, plan  # noqa: E402
from tests.session.powercut import play as damath_play  # noqa: E402
from tests.session.test_signing_powercut import tournament_life  # noqa: E402

DADAMA_SEED = 20261124
Outcome = dict[str, object]


def _fork(life: Callable[[Path, Path], None], journal: Path, out: Path) -> int:
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 1
        try:
            life(journal, out)
            code = 0
        finally:
            os._exit(code)
    return pid


def random_kills(
    life: Callable[[Path, Path], None], folder: Path, kills: int, rng: random.Random
) -> tuple[Outcome, list[Outcome], int]:
    """Lives killed at random moments of the time one whole life takes, restarted on the same
    journal, until ``kills`` SIGKILLs were delivered and the last game finished."""
    clean = folder / "clean.json"
    began = time.perf_counter()
    pid = _fork(life, folder / "clean.jsonl", clean)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
    span = time.perf_counter() - began
    expected = json.loads(clean.read_text())
    got: list[Outcome] = []
    delivered = games = 0
    while delivered < kills:
        games += 1
        out = folder / f"game{games}.json"
        journal = folder / f"game{games}.jsonl"
        while not out.exists():
            pid = _fork(life, journal, out)
            if delivered < kills:
                time.sleep(rng.uniform(0.0, span * 0.8))
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
                delivered += 1
            elif os.waitstatus_to_exitcode(status) != 0:
                raise AssertionError(f"the board failed to restart: exit {status}")
        got.append(json.loads(out.read_text()))
    return expected, got, delivered


def _dadama_life(journal: Path, out: Path) -> None:
    s = DadamaSession.open(DadamaConfig(seed=DADAMA_SEED), str(journal))
    t = 0.0
    for _ in range(4000):
        if s.phase == "over":
            break
        t = dadama_act(s, t)
    result = {"record": s.record_text(), "throws": s.throws,
              "cut": all("cut short" in p or "damaged" in p for p in s.problems)}  # fmt: skip
    out.write_text(json.dumps(result))
    s.close()


def _dam_life(journal: Path, out: Path) -> None:
    s = DraughtsSession.open(DAM_RULES, DraughtsConfig({"quiet_move_limit": 10}), str(journal))
    t = 0.0
    board = set(s.game.occupied())

    def show() -> None:
        nonlocal t
        for _ in range(2):
            s.feed_frame(t, board)
            t += 1.0
            s.tick(t)

    show()
    while s.phase == "play":
        move = s.game.legal_moves()[0]
        board.discard(move.path[0])
        show()
        board.add(move.path[-1])
        board.difference_update(move.captures)
        show()
    result = {"pdn": s.pdn(), "over": s.phase == "over",
              "cut": all("cut short" in p or "damaged" in p for p in s.problems)}  # fmt: skip
    out.write_text(json.dumps(result))
    s.close()


def soak_damath(folder: Path, kills: int) -> str:
    report, results = cut_until(plan(game_trace(11, plies=400)), folder, kills, random.Random(5))
    bad = sum(r != results[0] for r in results[1:])
    return f"{report.kills} kills over {report.games} games, {bad} differed"


def soak_signing(folder: Path, kills: int) -> str:
    p = plan(game_trace(21, plies=40))
    report, results = cut_until(p, folder, kills, random.Random(7), life=tournament_life)
    bad = sum(r != results[0] for r in results[1:])
    return f"{report.kills} kills over {report.games} games, {bad} differed"


def soak_dadama(folder: Path, kills: int) -> str:
    expected, got, delivered = random_kills(_dadama_life, folder, kills, random.Random(7))
    bad = sum(g["record"] != expected["record"] or not g["cut"] for g in got)
    return f"{delivered} kills over {len(got)} games, {bad} differed"


def soak_dam(folder: Path, kills: int) -> str:
    expected, got, delivered = random_kills(_dam_life, folder, kills, random.Random(12))
    bad = sum(g["pdn"] != expected["pdn"] or not g["cut"] for g in got)
    return f"{delivered} kills over {len(got)} games, {bad} differed"


def soak_every_game(folder: Path, kills: int) -> str:
    lines, bad = [], 0
    for name in GAMES:
        here = folder / name
        here.mkdir()

        def life(journal: Path, out: Path, name: str = name) -> None:
            game_life(name, journal.parent / journal.stem, out)

        expected, got, delivered = random_kills(life, here, kills, random.Random(len(name)))
        bad += sum(
            untimed(g["files"]) != untimed(expected["files"]) or g["played"] != expected["played"]
            for g in got
        )
        lines.append(f"{name} {delivered}/{len(got)}")
    return f"kills/games: {', '.join(lines)}; {bad} differed"


def soak_file_size_limit(folder: Path, kills: int) -> str:
    p = plan(game_trace(11, plies=400))
    damath_play(p, folder / "clean.jsonl", folder / "clean.json", sync=False)
    clean = json.loads((folder / "clean.json").read_text())
    report, results = cut_on_failing_disk(
        p, folder, folder, kills=kills, rng=random.Random(17), fsize=True,
        min_refusals=kills // 5,
    )  # fmt: skip
    bad = sum(r != clean for r in results) + len(report.lost)
    return (
        f"{report.kills} kills, {report.refusals_seen} refused moves, {report.games} games, "
        f"{bad} differed or lost"
    )


def soak_full_file_system(folder: Path, kills: int) -> str:
    unshare = ["unshare", "-m"] if os.geteuid() == 0 else ["unshare", "-rm"]
    command = [*unshare, sys.executable, "-m", "tests.session.fullfs", str(folder), str(kills), "3"]
    proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=3600)
    if proc.returncode != 0:
        return f"cannot run on a tmpfs of its own: {proc.stderr[-500:]}"
    report = json.loads(proc.stdout.splitlines()[-1])
    bad = len(report["lost"]) + report["games"] - report["same"]
    return (
        f"{report['kills']} kills, {report['refusals']} refused, {report['games']} games, "
        f"{bad} differed or lost"
    )


SOAKS: dict[str, tuple[Callable[[Path, int], str], int]] = {
    "damath": (soak_damath, 200),
    "signing": (soak_signing, 200),
    "dadama": (soak_dadama, 200),
    "dam": (soak_dam, 200),
    "every-game": (soak_every_game, 30),
    "file-size-limit": (soak_file_size_limit, 100),
    "full-file-system": (soak_full_file_system, 100),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=list(SOAKS), default=list(SOAKS))
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    failed = False
    for name in args.only:
        soak, kills = SOAKS[name]
        with tempfile.TemporaryDirectory() as tmp:
            began = time.perf_counter()
            try:
                said = soak(Path(tmp), max(1, round(kills * args.scale)))
            except AssertionError as exc:
                said, failed = f"FAILED: {exc}", True
            failed = failed or " 0 differed" not in said
            print(f"{name}: {said} ({time.perf_counter() - began:.0f} s)", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
